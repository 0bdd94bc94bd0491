#!/bin/sh
# Runs bootab's libFuzzer targets: tools/fuzz.sh BUILD_DIR SECONDS [NAME...]
#
# For each target (every BUILD_DIR/fuzz/fuzz-*, or the NAMEs given):
#  1. every input kept in tests/fixtures/fuzz-regressions/NAME/ runs once;
#  2. the corpus BUILD_DIR/corpus/NAME is seeded from the files matched by
#     the globs in fuzz/NAME.seeds (and, for each line of fuzz/NAME.prefix,
#     a copy of each seed with that line put first);
#  3. the target fuzzes for SECONDS with fuzz/NAME.dict when there is one.
# FUZZ_JOBS targets run at a time (default 1); an input running longer than
# FUZZ_TIMEOUT seconds (default 60: the machine may be busy) counts as a hang. A crash or a failed
# property stops with the input saved as BUILD_DIR/crashes/NAME-*; one
# summary line per target gives libFuzzer's final figures.
set -u

build=${1:?usage: tools/fuzz.sh BUILD_DIR SECONDS [NAME...]}
seconds=${2:?usage: tools/fuzz.sh BUILD_DIR SECONDS [NAME...]}
shift 2
jobs=${FUZZ_JOBS:-1}
top=$(cd "$(dirname "$0")/.." && pwd)

if [ $# -eq 0 ]; then
	for bin in "$build"/fuzz/fuzz-*; do
		[ -x "$bin" ] && set -- "$@" "$(basename "$bin")"
	done
fi
[ $# -gt 0 ] || { echo "fuzz: no targets in $build/fuzz" >&2; exit 2; }
mkdir -p "$build/logs" "$build/crashes"

seed() {
	name=$1
	corpus=$build/corpus/$name
	mkdir -p "$corpus"
	[ -f "$top/fuzz/$name.seeds" ] || return 0
	grep -v '^#' "$top/fuzz/$name.seeds" | while read -r pattern; do
		[ -n "$pattern" ] || continue
		# The patterns are globs: word splitting is what expands them.
		# shellcheck disable=SC2086
		for f in "$top"/$pattern; do
			[ -f "$f" ] || continue
			base=$(printf '%s' "${f#"$top"/}" | tr '/' '_')
			cp "$f" "$corpus/seed-$base"
			[ -f "$top/fuzz/$name.prefix" ] || continue
			n=0
			while IFS= read -r line; do
				n=$((n + 1))
				{ printf "%s\n" "$line"; cat "$f"; } > "$corpus/seed-$n-$base"
			done < "$top/fuzz/$name.prefix"
		done
	done
}

run_one() {
	name=$1
	bin=$build/fuzz/$name
	log=$build/logs/$name.log
	regressions=$top/tests/fixtures/fuzz-regressions/$name

	if [ -d "$regressions" ] && [ -n "$(ls -A "$regressions")" ]; then
		if ! "$bin" "$regressions"/* > "$log.regressions" 2>&1; then
			echo "fuzz: $name: a kept regression input fails again:" >&2
			tail -n 30 "$log.regressions" >&2
			return 1
		fi
	fi
	seed "$name"
	dict=
	[ -f "$top/fuzz/$name.dict" ] && dict=-dict=$top/fuzz/$name.dict
	# shellcheck disable=SC2086
	if ! "$bin" -max_total_time="$seconds" -timeout="${FUZZ_TIMEOUT:-60}" -rss_limit_mb=2048 -max_len=65536 \
		-print_final_stats=1 -artifact_prefix="$build/crashes/$name-" $dict \
		"$build/corpus/$name" > "$log" 2>&1; then
		echo "fuzz: $name: FAILED (input saved under $build/crashes/; log $log):" >&2
		tail -n 40 "$log" >&2
		return 1
	fi
	done_line=$(grep 'DONE' "$log" | tail -n 1)
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
	printf 'fuzz: %-22s %s s  execs %s  %s\n' "$name" "$seconds" "$execs" \
		"$(printf '%s' "$done_line" | sed 's/^#[0-9]*[[:space:]]*DONE[[:space:]]*//')"
}

fail=0
while [ $# -gt 0 ]; do
	pids=
	i=0
	while [ $# -gt 0 ] && [ "$i" -lt "$jobs" ]; do
		run_one "$1" &
		pids="$pids $!"
		shift
		i=$((i + 1))
	done
	for pid in $pids; do
		wait "$pid" || fail=1
	done
done
exit $fail
