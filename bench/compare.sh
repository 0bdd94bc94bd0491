#!/bin/sh
# Benchmark of `bootab compare` at scale: 2,000 metrics x 8 sides x 10 reps
# (per side: 100 llama-bench JSONL row files of 20 tests, 10 samples each).
# Reports the median wall time and peak RSS over RUNS runs, side by side with
# `cat` reading the same files (the I/O floor), as a ratio.
#   usage: bench/compare.sh [BOOTAB] [RUNS]
set -eu
bootab=${1:-./bootab}
runs=${2:-5}
dir=$(mktemp -d /tmp/bootab-bench.XXXXXX)
trap 'rm -rf "$dir"' EXIT INT TERM

sides="a b c d e f g a2"
for s in $sides; do
	mkdir -p "$dir/$s"
	awk -v side="$s" -v dir="$dir/$s" 'BEGIN {
		srand(length(side) * 7 + index("abcdefg", substr(side, 1, 1)));
		for (row = 1; row <= 100; row++) {
			f = sprintf("%s/row%03d.jsonl", dir, row);
			for (t = 1; t <= 20; t++) {
				base = 100 + row + t;
				line = sprintf("{\"model_type\": \"bench 1B Q4_0\", \"n_prompt\": 512, \"n_gen\": 0, \"n_depth\": %d, \"avg_ts\": %.3f, \"stddev_ts\": 1.0, \"samples_ts\": [", t * 1024, base);
				for (r = 1; r <= 10; r++)
					line = line sprintf("%s%.4f", r > 1 ? ", " : "", base * (1 + (rand() - 0.5) / 50));
				print line "]}" > f;
			}
			close(f);
		}
	}'
done

median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

: > "$dir/bootab.times"
: > "$dir/cat.times"
i=0
while [ "$i" -lt "$runs" ]; do
	# shellcheck disable=SC2086 # the side list is split on purpose
	/usr/bin/time -f '%e %M' -o "$dir/t" "$bootab" compare --format csv $(for s in $sides; do printf '%s ' "$dir/$s"; done) > "$dir/out.csv"
	cat "$dir/t" >> "$dir/bootab.times"
	/usr/bin/time -f '%e %M' -o "$dir/t" sh -c 'cat "$1"/*/*.jsonl > /dev/null' sh "$dir"
	cat "$dir/t" >> "$dir/cat.times"
	i=$((i + 1))
done
metrics=$(($(grep -c . "$dir/out.csv") - 1))
bw=$(cut -d' ' -f1 "$dir/bootab.times" | median)
bm=$(cut -d' ' -f2 "$dir/bootab.times" | median)
cw=$(cut -d' ' -f1 "$dir/cat.times" | median)
echo "bootab compare: $((metrics / 8)) metrics x 8 sides x 10 reps, $runs runs"
echo "  median wall time: ${bw} s (cat of the same files: ${cw} s)"
echo "  median peak RSS:  $((bm / 1024)) MiB"
awk -v b="$bw" -v c="$cw" 'BEGIN { if (c > 0) printf "  ratio to cat: %.1f\n", b / c; else print "  ratio to cat: cat too fast to time" }'
