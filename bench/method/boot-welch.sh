#!/bin/sh
# The boot t's figures of docs/statistics.md ("Results of a full run",
# summarised in bench/results/boot-welch.md by summarise.sh): every
# normal cell with no effect and 5 reps (sigma_b 0-6 %, sigma_w 0.2-4 %, 2-12
# boots per mode, 4,096 draws each) and the typical box (sigma_b 1 %,
# sigma_w 1 %, 5 reps) with every effect (2,048 draws each), as one CSV.
#   usage: sh bench/method/boot-welch.sh [METHOD] > bench/method/boot-welch.csv
set -eu
m=${1:-build/bench/method}
"$m" --cell 1,1,5,2,0 --null-draws 1024 | head -1
for sb in 0 0.5 1 2 3 4.4 6; do
	for sw in 0.2 0.5 1 2 4; do
		for b in 2 3 4 6 8 12; do
			"$m" --cell "$sb,$sw,5,$b,0" --null-draws 4096 | tail -n +2
		done
	done
done
for b in 1 2 3 4 6 8 12; do
	for d in 1 2 3 5 8 14.7; do
		"$m" --cell "1,1,5,$b,$d" --draws 2048 | tail -n +2
	done
done
