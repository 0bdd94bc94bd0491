#!/bin/sh
# A stand-in for perf on boxes without a PMU, for the runner's tests: it
# takes what the per-boot script passes (stat -j -o FILE [-a] -e EVENTS --
# COMMAND...), logs its arguments to FAKE_PERF_LOG, runs the command and
# writes FAKE_PERF_OUTPUT (perf stat -j output: tests/fixtures/perf/) to
# FILE, exiting with the command's status as perf stat does.
set -u
printf '%s\n' "$*" >>"$FAKE_PERF_LOG"
if [ "$1 $2 $3" != "stat -j -o" ]; then
	echo "fake perf: unexpected arguments: $*" >&2
	exit 129
fi
out=$4
shift 4
while [ $# -gt 0 ] && [ "$1" != -- ]; do shift; done
shift
"$@"
rc=$?
cp "$FAKE_PERF_OUTPUT" "$out"
exit "$rc"
