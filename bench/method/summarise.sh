#!/bin/sh
# Summarises a bench/method CSV as markdown: per method, the false-claim rate
# over the normal cells with delta = 0 (range, cells outside 3.5-6.5 %), power
# by boots per mode, one typical cell by delta, wrong sign and exaggeration
# among claims, CI coverage, the stress cells (a history recorded on a quieter
# or noisier machine among them), equivalence within -/+ 2 % (how often it is
# found at no or a small difference, how often it is claimed falsely at or
# beyond the margin), and every cell where a method claims falsely more than
# 10 % of the time.
#   usage: sh bench/method/summarise.sh results.csv
# make bench-method writes bench/results/method.md with it; the boot t's
# CSV gives bench/results/boot-welch.md:
#   sh bench/method/summarise.sh bench/method/boot-welch.csv > bench/results/boot-welch.md
set -eu
csv=${1:-bench/method/results.csv}
printf '# bench/method: %s\n\n' "$csv"
printf "Written by \`sh bench/method/summarise.sh %s\` from the CSV of the\n" "$csv"
printf 'simulation; docs/statistics.md says what the methods and the cells are.\n\n'
awk -F, '
function pct(x) { return sprintf("%.1f%%", 100 * x) }
function mean_of(b, d) { return ((b, d) in eqn) ? pct(eqs[b, d] / eqn[b, d]) : "-" }
function max_of(b, d) { return ((b, d) in eqmax) ? pct(eqmax[b, d]) : "-" }
NR == 1 { next }
{
	stress = $1; sb = $2; sw = $3; reps = $4; b = $5; delta = $6; method = $7; rate = $9
	seen[method] = 1
	if (method == "equiv") {
		# The equivalence grid (method --equiv-grid): 5 reps, sigma_w 0.5 or 2 %, sigma_b 0.5-3 %.
		if (stress == "normal" && reps == 5 && (sw == 0.5 || sw == 2) && (sb == 0.5 || sb == 1 || sb == 2 || sb == 3)) {
			key = b SUBSEP delta
			eqs[key] += rate; eqn[key]++
			if (!(key in eqmax) || rate > eqmax[key]) eqmax[key] = rate
		}
		next
	}
	if (stress == "normal" && delta == 0) {
		n[method]++
		if (!(method in lo) || rate < lo[method]) lo[method] = rate
		if (!(method in hi) || rate > hi[method]) hi[method] = rate
		if (rate < 0.035 || rate > 0.065) out[method]++
		sum[method] += rate
		if ($14 != "") { ncov[method] += $14; nncov[method]++ }
	}
	if (stress == "normal" && delta != 0) {
		pw[method, b] += $11; pn[method, b]++
		if ($14 != "") { cov[method] += $14; cn[method]++ }
		if ($12 != "") { ws[method] += $12; wn[method]++ }
		if ($13 != "" && $11 < 0.5) { ex[method] += $13; en[method]++ }
		if ($13 != "" && $11 >= 0.5) { exh[method] += $13; enh[method]++ }
		if (sb == 1 && sw == 1 && reps == 5) typical[method, b, delta] = $11
	}
	if (stress != "normal") {
		key = stress SUBSEP method
		if (delta == 0) {
			if (!((key) in slo) || rate < slo[key]) slo[key] = rate
			if (!((key) in shi) || rate > shi[key]) shi[key] = rate
		} else {
			spw[key] += $11; spn[key]++
		}
		stresses[stress] = 1
	}
	if (delta == 0 && rate > 0.10) {
		cell = sprintf("| %s | %s | %s | %s | %s |", stress, sb, sw, reps, b)
		if (!(cell in over)) order[++no] = cell
		over[cell] = over[cell] sprintf(" %s %s", method, pct(rate))
	}
}
END {
	split("naive seed boot history", ms, " ")
	split("1 2 3 4 6 8 12", bs, " ")
	split("1 2 3 5 8 14.7", ds, " ")
	print "### False claims (normal cells, delta = 0)\n"
	print "| method | cells | min | mean | max | outside 3.5-6.5 % | mean CI coverage |"
	print "|---|---:|---:|---:|---:|---:|---:|"
	for (i = 1; i <= 4; i++) {
		m = ms[i]
		if (!(m in n)) continue
		printf "| %s | %d | %s | %s | %s | %d | %s |\n", m, n[m], pct(lo[m]), pct(sum[m] / n[m]), pct(hi[m]), \
		       out[m] + 0, (m in nncov) ? pct(ncov[m] / nncov[m]) : "-"
	}
	print "\n### Power by boots per mode (normal cells, mean over delta > 0)\n"
	printf "| method |"; for (j = 1; j <= 7; j++) printf " b = %s |", bs[j]; printf "\n|---|"
	for (j = 1; j <= 7; j++) printf "---:|"; printf "\n"
	for (i = 1; i <= 4; i++) {
		m = ms[i]; printf "| %s |", m
		for (j = 1; j <= 7; j++) printf " %s |", ((m, bs[j]) in pn) ? pct(pw[m, bs[j]] / pn[m, bs[j]]) : "-"
		printf "\n"
	}
	print "\n### A typical box: sigma_b 1 %, sigma_w 1 %, 5 reps (power by true delta)\n"
	printf "| method | b |"; for (k = 1; k <= 6; k++) printf " %s %% |", ds[k]; printf "\n|---|---:|"
	for (k = 1; k <= 6; k++) printf "---:|"; printf "\n"
	for (i = 1; i <= 4; i++)
		for (j = 1; j <= 7; j++) {
			m = ms[i]
			if (!((m, bs[j], ds[1]) in typical)) continue
			printf "| %s | %s |", m, bs[j]
			for (k = 1; k <= 6; k++) printf " %s |", pct(typical[m, bs[j], ds[k]])
			printf "\n"
		}
	print "\n### Among claims (normal cells, delta > 0)\n"
	print "| method | wrong sign (mean) | exaggeration, power < 50 % | exaggeration, power >= 50 % | CI coverage |"
	print "|---|---:|---:|---:|---:|"
	for (i = 1; i <= 4; i++) {
		m = ms[i]
		if (!(m in seen)) continue
		printf "| %s | %s | %s | %s | %s |\n", m, (m in wn) ? pct(ws[m] / wn[m]) : "-", \
		       (m in en) ? sprintf("%.2fx", ex[m] / en[m]) : "-", (m in enh) ? sprintf("%.2fx", exh[m] / enh[m]) : "-", \
		       (m in cn) ? pct(cov[m] / cn[m]) : "-"
	}
	print "\n### Stress cells\n"
	print "| stress | method | false claims (min-max) | power at 5 % (mean) |"
	print "|---|---|---:|---:|"
	split("heavy-tailed bad-boots cold-first-rep cold-first-rep-by-run linear-drift history-2x-noisier history-2x-quieter history-3x-quieter", ss, " ")
	for (s = 1; s <= 8; s++)
		for (i = 1; i <= 4; i++) {
			key = ss[s] SUBSEP ms[i]
			if (!(key in slo)) continue
			printf "| %s | %s | %s-%s | %s |\n", ss[s], ms[i], pct(slo[key]), pct(shi[key]), \
			       (key in spn) ? pct(spw[key] / spn[key]) : "-"
		}
	print "\n### Equivalence within -/+ 2 % (normal cells, 5 reps, sigma_w 0.5 or 2 %, sigma_b 0.5-3 %): how often \"same\" is the verdict\n"
	print "| b | delta 0 (mean) | delta 1 % (mean) | delta 2 %: false (mean) | delta 2 %: false (max) | delta 3 %: false (max) | delta >= 5 %: false (max) |"
	print "|---:|---:|---:|---:|---:|---:|---:|"
	for (j = 1; j <= 7; j++) {
		b = bs[j]
		if (!((b, 0) in eqn)) continue
		big = 0
		for (k = 4; k <= 6; k++) if ((b, ds[k]) in eqmax && eqmax[b, ds[k]] > big) big = eqmax[b, ds[k]]
		printf "| %s | %s | %s | %s | %s | %s | %s |\n", b, mean_of(b, 0), mean_of(b, 1), mean_of(b, 2), \
		       max_of(b, 2), max_of(b, 3), ((b, 5) in eqmax) ? pct(big) : "-"
	}
	printf "\n### Cells where a method claims falsely more than 10 %% of the time (%d)\n\n", no
	print "| stress | sigma_b % | sigma_w % | reps | boots | methods over 10 % |"
	print "|---|---:|---:|---:|---:|---|"
	for (i = 1; i <= no; i++) print order[i] over[order[i]] " |"
}' "$csv"
