#!/bin/sh
# Summarises two runs of `method --answer-grid` (the judge before and after a
# change, or one run twice) as the markdown tables of bench/results/answer.md
# (docs/statistics.md, "One verdict per mode and metric", quotes them): the
# one verdict per mode and metric on do-nothing campaigns of each design, a
# mode 3x noisier than the others, and one wild rep. Each figure is
# "min-max (mean)" over the cells of a row (sigma_b 0.5, 1, 3 %, sigma_w 0.5,
# 2 %, 5 reps).
#   usage: sh bench/method/summarise-answer.sh BEFORE.csv AFTER.csv > bench/results/answer.md
set -eu
before=${1:-bench/method/answer-before.csv}
after=${2:-bench/method/answer.csv}
printf '# bench/method --answer-grid: %s against %s\n\n' "$after" "$before"
printf "Written by \`sh bench/method/summarise-answer.sh %s %s\`. Each figure is\n" "$before" "$after"
printf 'min-max (mean) over the cells of a row: sigma_b 0.5, 1 or 3 %%, sigma_w 0.5 or\n'
printf '2 %%, 5 reps (docs/statistics.md, "One verdict per mode and metric").\n\n'
awk -F, '
function pct(x) { return sprintf("%.1f", 100 * x) }
function range(f, k) {
	if (!((f, k) in n)) return "-"
	return pct(lo[f, k]) "-" pct(hi[f, k]) " % (" pct(sum[f, k] / n[f, k]) ")"
}
function cover(f, k) {
	if (!((f, k) in cn)) return "-"
	return pct(clo[f, k]) "-" pct(chi[f, k]) " %"
}
function power(f, k) { return ((f, k) in pn) ? pct(ps[f, k] / pn[f, k]) " %" : "-" }
FNR == 1 { f++; next }
{
	stress = $1; b = $5; delta = $6; method = $7; rate = $9; cov = $14
	k = stress SUBSEP b SUBSEP delta SUBSEP method
	if (!((f, k) in n) || rate < lo[f, k]) lo[f, k] = rate
	if (!((f, k) in n) || rate > hi[f, k]) hi[f, k] = rate
	n[f, k]++; sum[f, k] += rate
	if (cov != "") {
		if (!((f, k) in cn) || cov < clo[f, k]) clo[f, k] = cov
		if (!((f, k) in cn) || cov > chi[f, k]) chi[f, k] = cov
		cn[f, k]++
	}
	if (delta != 0) { ps[f, k] += $11; pn[f, k]++ }
}
END {
	print "| design | false claims, before | after | CI coverage, after | smallest of three p, before | after | power at 5 %, before | after |"
	print "|---|---:|---:|---:|---:|---:|---:|---:|"
	split("no-history,1|normal,1|normal,2|normal,3", rows, "|")
	split("1 boot per mode, no history|1 boot per mode, history|2 rounds|3 rounds", names, "|")
	for (i = 1; i <= 4; i++) {
		split(rows[i], r, ",")
		k0 = r[1] SUBSEP r[2] SUBSEP 0 SUBSEP; k5 = r[1] SUBSEP r[2] SUBSEP 5 SUBSEP
		# The smallest of three p: only where the boot t, Welch and paired p all exist.
		mb = r[2] >= 2 ? range(1, k0 "minp") : "-"
		ma = r[2] >= 2 ? range(2, k0 "minp") : "-"
		printf "| %s | %s | %s | %s | %s | %s | %s | %s |\n", names[i], range(1, k0 "answer"),
			range(2, k0 "answer"), cover(2, k0 "answer"), mb, ma, power(1, k5 "answer"), power(2, k5 "answer")
	}
	print ""
	print "| noisier mode | rounds | false claims, before | after | CI coverage, before | after | power at 5 %, before | after |"
	print "|---|---:|---:|---:|---:|---:|---:|---:|"
	split("tested-3x-noisier|third-mode-3x-noisier", st, "|")
	split("the tested mode|a third mode", stn, "|")
	for (i = 1; i <= 2; i++)
		for (b = 2; b <= 6; b++) {
			k0 = st[i] SUBSEP b SUBSEP 0 SUBSEP "answer"; k5 = st[i] SUBSEP b SUBSEP 5 SUBSEP "answer"
			if (!((2, k0) in n)) continue
			printf "| %s | %d | %s | %s | %s | %s | %s | %s |\n", stn[i], b, range(1, k0), range(2, k0),
				cover(1, k0), cover(2, k0), power(1, k5), power(2, k5)
		}
	print ""
	print "| campaigns | rounds | reps flagged wild (per metric) | false claims, before | after | screen claims, before | after |"
	print "|---|---:|---:|---:|---:|---:|---:|"
	split("normal|tested-3x-noisier|third-mode-3x-noisier|wild-rep|wild-rep-10", ws, "|")
	split("no wild rep|no wild rep, tested mode 3x noisier|no wild rep, a third mode 3x noisier|one rep 35 % slow|one rep 10 % slow", wn, "|")
	for (i = 1; i <= 5; i++)
		for (b = 1; b <= 6; b++) {
			k = ws[i] SUBSEP b SUBSEP 0 SUBSEP
			if (!((2, k "wild") in n)) continue
			printf "| %s | %d | %s | %s | %s | %s | %s |\n", wn[i], b, range(2, k "wild"), range(1, k "answer"),
				range(2, k "answer"), range(1, k "seed"), range(2, k "seed")
		}
}
' "$before" "$after"
