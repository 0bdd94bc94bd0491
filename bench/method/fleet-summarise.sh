#!/bin/sh
# Summarises a bench/method/fleet CSV as markdown: per method, the false-claim
# rate over the cells where it would be false (pooled: no effect on any
# machine; heterogeneity: the same effect on every machine; any: no effect),
# its range by noise, the pooled CI's coverage over every cell, and the power
# by machines and boots per mode.
#   usage: sh bench/method/fleet-summarise.sh fleet.csv
set -eu
csv=${1:-bench/method/fleet.csv}
awk -F, '
function pct(x) { return sprintf("%.1f%%", 100 * x) }
function upd(key, x) {
	n[key]++; s[key] += x
	if (!(key in lo) || x < lo[key]) lo[key] = x
	if (!(key in hi) || x > hi[key]) hi[key] = x
}
NR == 1 { next }
{
	k = $1; b = $2; noise = $3; effect = $4; delta = $5; method = $6; rate = $8; cov = $10
	null_effect = effect == "equal" && delta == 0
	same_effect = effect == "equal"
	if (method == "pooled" && null_effect) upd("pooled" SUBSEP noise, rate)
	if (method == "heterogeneity" && same_effect) upd("heterogeneity" SUBSEP noise, rate)
	if (method == "any" && null_effect) upd("any" SUBSEP noise, rate)
	if (method == "pooled" && cov != "") upd("coverage" SUBSEP noise, cov)
	if (method == "pooled" && effect == "equal" && delta == 3) power["pooled", k, b, noise] = rate
	if (method == "heterogeneity" && effect == "spread") power["het-spread", k, b, noise] = rate
	if (method == "heterogeneity" && effect == "split") power["het-split", k, b, noise] = rate
	ks[k] = 1; bs[b] = 1
}
END {
	print "| what | noise | cells | min | mean | max |"
	print "|---|---|---:|---:|---:|---:|"
	split("pooled heterogeneity any coverage", ms, " ")
	split("equal mixed", ns, " ")
	for (i = 1; i <= 4; i++)
		for (j = 1; j <= 2; j++) {
			key = ms[i] SUBSEP ns[j]
			if (key in n)
				printf "| %s | %s | %d | %s | %s | %s |\n", ms[i] == "coverage" ? "pooled 95% CI coverage" : ms[i] " false claims", ns[j], n[key], pct(lo[key]), pct(s[key] / n[key]), pct(hi[key])
		}
	print ""
	print "| machines | boots per mode | noise | pooled power, 3 % on every machine | heterogeneity found, 3 % + N(0, 2 %) | heterogeneity found, 8 % on a third |"
	print "|---:|---:|---|---:|---:|---:|"
	nk = split("3 4 6 12", kl, " ")
	for (a = 1; a <= nk; a++)
		for (bb = 1; bb <= 4; bb++)
			for (j = 1; j <= 2; j++) {
				key = kl[a] SUBSEP bb SUBSEP ns[j]
				if (!(("pooled" SUBSEP key) in power)) continue
				printf "| %s | %s | %s | %s | %s | %s |\n", kl[a], bb, ns[j], pct(power["pooled" SUBSEP key]),
				       (("het-spread" SUBSEP key) in power) ? pct(power["het-spread" SUBSEP key]) : "-",
				       (("het-split" SUBSEP key) in power) ? pct(power["het-split" SUBSEP key]) : "-"
			}
}' "$csv"
