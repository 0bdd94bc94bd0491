#!/bin/sh
# Processes one snapshot starts, and its wall time, on captured trees: the
# snapshot script of the working tree against the one of REV (default
# HEAD~1's), each run as the target runs it (ROOT=TREE SH snapshot.sh).
# SCRIPT=inventory (or kernel-id) measures that script of the snapshot.
# Forks are clone/fork/vfork calls counted by strace -f -c; the time is
# the median of RUNS runs. Prints one line per tree and shell.
#   usage: [SCRIPT=NAME] bench/snapshot-forks.sh [REV] [RUNS] [SH...]
set -eu
rev=${1:-HEAD~1}
runs=${2:-9}
if [ $# -ge 2 ]; then shift 2; else shift $#; fi
shells=${*:-dash busybox}
top=$(cd "$(dirname "$0")/.." && pwd)
dir=$(mktemp -d /tmp/bootab-snapforks.XXXXXX)
trap 'rm -rf "$dir"' EXIT INT TERM
script=${SCRIPT:-snapshot}
git -C "$top" show "$rev:src/target/$script.sh" > "$dir/before.sh"
cp "$top/src/target/$script.sh" "$dir/after.sh"

forks() { # SH SCRIPT TREE
	# shellcheck disable=SC2086 # "busybox sh" is two words
	ROOT=$3 strace -f -c -o "$dir/strace" $1 "$2" > /dev/null 2>&1 || true
	awk '$NF ~ /^(clone|clone3|fork|vfork)$/ { n += $4 } END { print n + 0 }' "$dir/strace"
}

median_ms() { # SH SCRIPT TREE
	i=0
	: > "$dir/times"
	while [ "$i" -lt "$runs" ]; do
		start=$(date +%s%N)
		# shellcheck disable=SC2086
		ROOT=$3 $1 "$2" > /dev/null 2>&1 || true
		end=$(date +%s%N)
		echo $(((end - start) / 1000000)) >> "$dir/times"
		i=$((i + 1))
	done
	sort -n "$dir/times" | awk '{ t[NR] = $1 } END { print t[int((NR + 1) / 2)] }'
}

printf '%s.sh; load average: %s\n' "$script" "$(cut -d ' ' -f 1-3 /proc/loadavg)"
printf '%-28s %-10s %12s %12s %10s %10s\n' tree shell forks-before forks-after ms-before ms-after
for tree in lab-translated lab-passthrough lab-off seed-translated; do
	t=$top/tests/fixtures/sysfs/$tree
	for sh in $shells; do
		case $sh in busybox) run="busybox sh" ;; *) run=$sh ;; esac
		command -v "$sh" > /dev/null 2>&1 || continue
		printf '%-28s %-10s %12s %12s %10s %10s\n' "$tree" "$sh" \
			"$(forks "$run" "$dir/before.sh" "$t")" "$(forks "$run" "$dir/after.sh" "$t")" \
			"$(median_ms "$run" "$dir/before.sh" "$t")" "$(median_ms "$run" "$dir/after.sh" "$t")"
	done
done
