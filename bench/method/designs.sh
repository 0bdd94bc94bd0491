#!/bin/sh
# The designs a user would pick, on one box (docs/statistics.md, "Which
# design"): sigma_b 3 %, sigma_w 0.5 %, 5 reps, 16 metrics a campaign, no
# effect, 2 sigma_b (6 %) and 3 sigma_b (9 %); 4,096 metric draws a cell
# (256 campaigns). CSV on stdout, bench/method's two formats one after the
# other: fixed designs first, rounds = auto after its own header.
#   usage: sh bench/method/designs.sh [build/bench/method] > bench/method/designs.csv
set -eu
m=${1:-build/bench/method}
"$m" --stress no-history --cell 3,0.5,5,1,0 --null-draws 4096
for d in 6 9; do "$m" --stress no-history --cell 3,0.5,5,1,"$d" --draws 4096 | tail -n +2; done
for b in 1 2 3; do
	for d in 0 6 9; do "$m" --cell 3,0.5,5,"$b","$d" --draws 4096 --null-draws 4096 | tail -n +2; done
done
"$m" --sequential --cell 3,0.5,5,6,0 --null-draws 4096
for k in 6 8; do
	for d in 0 6 9; do
		if [ "$k" != 6 ] || [ "$d" != 0 ]; then
			"$m" --sequential --cell 3,0.5,5,"$k","$d" --draws 4096 --null-draws 4096 | tail -n +2
		fi
		"$m" --sequential --history --cell 3,0.5,5,"$k","$d" --draws 4096 --null-draws 4096 | tail -n +2
	done
done
