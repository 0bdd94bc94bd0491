#!/bin/sh
# Summarises a bench/method --sequential CSV (rounds = auto) as markdown, per
# ceiling (max_rounds): the false-claim rate over the cells with no effect
# (min, mean, max), and over the cells with an effect the power by the
# ceiling, the fixed design's power with as many rounds, the rounds used on
# average, and the fewest fixed rounds with the same power; then "same within
# -/+ 2 %" claimed falsely at or beyond the margin.
#   usage: sh bench/method/summarise-sequential.sh sequential.csv
set -eu
csv=${1:-bench/method/sequential.csv}
awk -F, '
function pct(x) { return sprintf("%.1f%%", 100 * x) }
NR == 1 { next }
{
	k = $5; delta = $6; method = $7; rate = $9; rounds = $11
	ks[k] = 1
	if (method == "seq" && delta == 0) {
		n0[k]++; s0[k] += rate; r0[k] += rounds
		if (!(k in lo) || rate < lo[k]) lo[k] = rate
		if (!(k in hi) || rate > hi[k]) hi[k] = rate
	}
	if (method == "seq" && delta > 0) {
		n1[k]++; pw[k] += rate; fp[k] += $13; ru[k] += rounds
		if ($12 ~ /^>/) over[k]++
		else { fr[k] += $12; nf[k]++ }
	}
	if (method == "seq-equiv" && delta >= 2 && (!(k in eqhi) || rate > eqhi[k])) eqhi[k] = rate
	if (method == "seq-equiv" && delta == 0) { eq0[k] += rate; neq0[k]++ }
}
END {
	print "| max_rounds | false claims: min | mean | max | rounds used at no effect | power by the ceiling (mean over effects) | fixed design, max_rounds rounds | rounds used | fixed rounds of equal power | same at no effect | false same at delta >= 2 % (max) |"
	print "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
	for (k = 2; k <= 20; k++) {
		if (!(k in ks)) continue
		printf "| %d | %s | %s | %s | %.2f | %s | %s | %.2f | %s | %s | %s |\n", k, pct(lo[k]), pct(s0[k] / n0[k]), pct(hi[k]), \
		       r0[k] / n0[k], pct(pw[k] / n1[k]), pct(fp[k] / n1[k]), ru[k] / n1[k], \
		       (nf[k] ? sprintf("%.2f", fr[k] / nf[k]) : "-") (over[k] ? sprintf(" (%d cells > %d)", over[k], k) : ""), \
		       pct(eq0[k] / neq0[k]), pct(eqhi[k])
	}
}' "$csv"
