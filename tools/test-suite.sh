#!/bin/sh
# make test: the whole suite (the plain pass with the QEMU lab, ASan and
# UBSan, valgrind, lint) as jobs shared by two workers, one per CPU of the
# machines bootab is tested on.
#
# The lab's tests (tests/cli/lab*.bats, then the two-box fleet of
# tests/cli/fleet) and the Debian guest's (tests/cli/debian) each keep one
# CPU busy with QEMU's software emulation for most of their run; the
# sanitizer and valgrind passes are CPU-bound. Run one after the other they
# cost their sum; here a worker takes the next job of one ordered list as
# soon as its own ends (the two QEMU jobs first, the valgrind pass split by
# test file last, so the two workers end close together).
# Each job's output goes to build/test-logs/JOB.log and is printed whole
# when the job ends; the summary gives every job's status and seconds.
#   usage: tools/test-suite.sh [JOB...]      (default: every job)
#   TEST_WORKERS=N: N workers instead of 2.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here" || exit 2
make=${MAKE:-make}
logs=$here/build/test-logs
workers=${TEST_WORKERS:-2}

# The valgrind pass's CLI files, one job each (the Makefile's list).
vg_files=$($make -s --no-print-directory print-valgrind-files) || exit 2

if [ $# -gt 0 ]; then
	jobs=$*
else
	jobs="lab debian asan cli unit fuzz vg-unit lint"
	# basics.bats runs bootab most often: the longest valgrind file first.
	jobs="$jobs vg:tests/cli/basics.bats"
	for f in $vg_files; do
		[ "$f" = tests/cli/basics.bats ] || jobs="$jobs vg:$f"
	done
fi

# A job's name in file names: vg:tests/cli/plan.bats -> vg-plan.
tag() {
	case $1 in
	vg:*) t=${1#vg:}; t=${t##*/}; echo "vg-${t%.bats}" ;;
	*) echo "$1" ;;
	esac
}

run_job() {
	case $1 in
	# The lab's files, then the two-box fleet on two lab boxes (tests/cli/fleet):
	# one job, so that no more than two QEMUs run at once.
	lab)
		$make check-cli-lab
		r=$?
		$make check-lab-fleet || r=1
		return "$r"
		;;
	# The Debian guest (tests/cli/debian): its image built when the cache
	# has none, then one guest session; beside the lab's job, so two QEMUs
	# at most.
	debian) $make check-debian ;;
	# The non-lab CLI files run under valgrind with the plain binary (the
	# vg: jobs); bare, only those the valgrind pass leaves out.
	cli) $make check-cli-plain-only ;;
	unit) $make check-unit ;;
	fuzz) $make check-fuzz ;;
	asan) $make check-asan ;;
	lint) $make lint ;;
	vg-unit) $make check-valgrind-unit ;;
	vg:*) $make check-valgrind-cli VALGRIND_FILES="${1#vg:}" ;;
	*) echo "test-suite: unknown job '$1'" >&2; return 2 ;;
	esac
}

worker() {
	for j in $jobs; do
		t=$(tag "$j")
		mkdir "$logs/claim/$t" 2>/dev/null || continue
		start=$(date +%s)
		run_job "$j" > "$logs/$t.log" 2>&1 </dev/null
		rc=$?
		end=$(date +%s)
		echo "$rc $((end - start)) $t" > "$logs/$t.rc"
		if [ "$rc" = 0 ]; then word=ok; else word=FAILED; fi
		{
			flock 9
			printf '#### %s: %s in %s s\n' "$t" "$word" "$((end - start))"
			cat "$logs/$t.log"
			printf '#### end of %s\n' "$t"
		} 9>>"$logs/print.lock"
	done
}

rm -rf "$logs"
mkdir -p "$logs/claim" || exit 2
t0=$(date +%s)
# The plain build first, with both CPUs: every job but asan, lint and fuzz
# (their own builds) uses it.
echo "#### build"
$make -j"$workers" bootab man build-tests || exit 1

i=0
while [ "$i" -lt "$workers" ]; do
	worker &
	i=$((i + 1))
done
wait

failed=
echo "#### summary (seconds of each job; $workers workers)"
for j in $jobs; do
	t=$(tag "$j")
	if [ -f "$logs/$t.rc" ]; then
		read -r rc secs _ < "$logs/$t.rc"
	else
		rc=none secs=-
	fi
	[ "$rc" = 0 ] || failed="$failed $t"
	printf '%-24s %6s  %s\n' "$t" "$secs" "$([ "$rc" = 0 ] && echo ok || echo "FAILED ($rc)")"
done
# Each failed job's failing tests and last lines again, after the summary,
# so that a log read from its end shows why: bats' "not ok", cmocka's
# "[  FAILED  ]", make's "***".
for t in $failed; do
	echo "#### why $t failed ($logs/$t.log)"
	[ -f "$logs/$t.log" ] || continue
	grep -E '^not ok|^\[  FAILED  \]|^make(\[[0-9]+\])?: \*\*\*' "$logs/$t.log" | head -n 10
	echo "#### last lines of $t"
	tail -n 15 "$logs/$t.log"
done
echo "#### make test: $(( $(date +%s) - t0 )) s wall, $([ -z "$failed" ] && echo passed || echo FAILED)"
[ -z "$failed" ]
