#!/bin/sh
# The history check's cells (docs/statistics.md, "The history check,
# measured"): sigma_b 3 %, sigma_w 0.5 %, 5 reps, one boot per mode (A B A2),
# a history of 10 A/A pairs, 16 metrics a campaign; on a box as noisy as its
# history, 2x and 3x noisier, with correlated metrics, and with a tested mode
# 3x noisier than the first (its boots and reps). CSV on stdout.
#   usage: sh bench/method/history-check.sh [build/bench/method] > bench/method/history-check.csv
set -eu
m=${1:-build/bench/method}
"$m" --cell 3,0.5,5,1,0 --null-draws 16384
for d in 6 9; do
	"$m" --cell 3,0.5,5,1,"$d" --draws 16384 --null-draws 16384 | tail -n +2
done
for s in history-2x-quieter history-3x-quieter correlated-metrics tested-3x-noisier; do
	"$m" --stress "$s" --cell 3,0.5,5,1,0 --null-draws 16384 | tail -n +2
done
for s in correlated-metrics history-2x-quieter history-3x-quieter; do
	"$m" --stress "$s" --cell 3,0.5,5,1,9 --draws 16384 | tail -n +2
done
