#!/bin/sh
# Summarises a bench/method CSV: per method, the range of false-claim rates
# over the normal cells with delta = 0, how many normal null cells fall
# outside 3.5-6.5 %, mean power by boots per mode, and every cell (normal or
# stress) where a method claims falsely more than 10 % of the time.
#   usage: sh bench/method/summarise.sh results.csv
set -eu
csv=${1:-bench/method/results.csv}
awk -F, '
NR == 1 { next }
{
	stress = $1; method = $7; rate = $9; delta = $6
	if (delta == 0 && stress == "normal") {
		n[method]++
		if (!(method in lo) || rate < lo[method]) lo[method] = rate
		if (!(method in hi) || rate > hi[method]) hi[method] = rate
		if (rate < 0.035 || rate > 0.065) out[method]++
		sum[method] += rate
	}
	if (delta != 0 && stress == "normal") {
		pw[method " " $5] += $11; pn[method " " $5]++
		if ($14 != "") { cov[method] += $14; cn[method]++ }
	}
	if (delta == 0 && rate > 0.10)
		over[++no] = sprintf("%-22s sigma_b %4s%% sigma_w %4s%% reps %3s boots %3s  %-8s %5.1f%%", \
				     stress, $2, $3, $4, $5, method, 100 * rate)
}
END {
	printf "false-claim rate over the normal cells with delta = 0:\n"
	printf "  %-8s %6s %8s %8s %8s %14s\n", "method", "cells", "min", "mean", "max", "outside 3.5-6.5"
	split("naive seed boot history", ms, " ")
	for (i = 1; i <= 4; i++) {
		m = ms[i]
		if (!(m in n)) continue
		printf "  %-8s %6d %7.1f%% %7.1f%% %7.1f%% %14d\n", m, n[m], 100 * lo[m], 100 * sum[m] / n[m], \
		       100 * hi[m], out[m] + 0
	}
	printf "\nmean power over the normal cells with delta > 0, by boots per mode:\n"
	printf "  %-8s", "method"
	split("1 2 3 4 6 8 12", bs, " ")
	for (j = 1; j <= 7; j++) printf " %6s", "b=" bs[j]
	printf "\n"
	for (i = 1; i <= 4; i++) {
		m = ms[i]
		printf "  %-8s", m
		for (j = 1; j <= 7; j++) {
			k = m " " bs[j]
			if (k in pn) printf " %5.1f%%", 100 * pw[k] / pn[k]
			else printf " %6s", "-"
		}
		printf "\n"
	}
	printf "\nmean CI coverage (delta > 0, normal cells):"
	for (i = 1; i <= 4; i++) if (ms[i] in cn) printf " %s %.1f%%", ms[i], 100 * cov[ms[i]] / cn[ms[i]]
	printf "\n\ncells where a method claims falsely more than 10%% of the time: %d\n", no
	for (i = 1; i <= no; i++) print "  " over[i]
}' "$csv"
