#!/bin/sh
# Where a short lab campaign's wall time goes, and what bootab itself costs:
# boots the QEMU lab (its own lab directory), runs two boots (translated,
# passthrough) of one fio row with two reps at the default poll (60 s),
# and prints
#   - the campaign's split as bootab measures it: reboots, idle gates,
#     rows (target clock), bootab's own steps (the rest), per boot, and the
#     own steps as a share of the campaign and of the reboot time;
#   - the SSH sessions of each boot step (bootab's own per-boot line);
#   - the detection lag: a line appended to a run's progress file on the
#     guest until run-watch.sh delivers it on this machine, NPROBES times,
#     the guest's time mapped to ours by the best of 7 round trips
#     (the error is half that round trip, printed);
#   - the forks of one snapshot on the captured lab tree.
# One QEMU; the load average is printed before and after.
# With SKIP_CAMPAIGN=1 only the lag and the forks are measured.
# With KEEP=DIR the stamped log and the data of each campaign are kept there.
# With PLAN=FILE that plan runs instead of the two-boot one (make demo's is
# examples/lab-iommu.ini); its split is per boot of however many it has.
# With BASELINE (another build of bootab), the same campaign runs first
# with it and then with BOOTAB on the same lab, one after the other, each
# with its load average (the sessions do not depend on the load, the
# times do); the lag and the forks are measured once, with BOOTAB.
#   usage: bench/campaign-overhead.sh [BOOTAB] [NPROBES] [BASELINE]
set -eu
absolute() { echo "$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"; }
bootab=$(absolute "${1:-./build/bootab}")
probes=${2:-10}
baseline=
[ -z "${3-}" ] || baseline=$(absolute "$3")
top=$(cd "$(dirname "$0")/.." && pwd)
dir=$(mktemp -d /tmp/bootab-overhead.XXXXXX)
BOOTAB_LAB_DIR=$dir/lab
export BOOTAB_LAB_DIR
cleanup() {
	[ -z "${watch_pid-}" ] || kill "$watch_pid" 2> /dev/null || true
	"$bootab" lab down > /dev/null 2>&1 || true
	rm -rf "$dir"
}
trap cleanup EXIT INT TERM
now_ms() { date +%s%3N; }

echo "load average before: $(cut -d ' ' -f 1-3 /proc/loadavg)"
"$bootab" lab up > /dev/null 2> "$dir/up.err" || { cat "$dir/up.err" >&2; exit 1; }
lab() { ssh -F "$BOOTAB_LAB_DIR/run/ssh_config" bootab-lab "$@"; }

if [ -n "${PLAN-}" ]; then
	cp "$PLAN" "$dir/plan.ini"
else
	cat > "$dir/plan.ini" << 'EOT'
[campaign]
target = lab
backend = bls
order = translated passthrough
reps = 2

[mode "translated"]
args =

[mode "passthrough"]
args = iommu=pt

[row "randread"]
command = lab-fio --name=randread --filename=/dev/lab-data --rw=randread --bs=4k --direct=1 --ioengine=libaio --iodepth=32 --runtime=3 --time_based --output-format=json
parser = fio
timeout = 300

[idle]
load = 100
checks = 1
interval = 1
EOT
fi
# campaign BOOTAB NAME: one run of the plan with that build, its split and sessions.
campaign() {
	echo "== $2: $1"
	echo "load average: $(cut -d ' ' -f 1-3 /proc/loadavg)"
	start=$(now_ms)
	# Each line stamped to the millisecond as bootab writes it (run-NAME.stamped).
	{ "$1" run --data "$dir/runs-$2" "$dir/plan.ini" 2>&1 > /dev/null; echo "rc $?" > "$dir/rc-$2"; } |
		perl -MTime::HiRes=time -ne 'printf "%.3f %s", time, $_' > "$dir/run-$2.stamped"
	end=$(now_ms)
	cut -d ' ' -f 2- "$dir/run-$2.stamped" > "$dir/run-$2.err"
	[ "$(cat "$dir/rc-$2")" = "rc 0" ] || { cat "$dir/run-$2.err" >&2; exit 1; }
	[ -z "${KEEP-}" ] || cp -r "$dir/run-$2.stamped" "$dir/runs-$2" "$KEEP/"
	boots=$(sed -n 's/^bootab: \[[0-9:]*\] boot [0-9]*\/\([0-9]*\) .*/\1/p' "$dir/run-$2.err" | tail -n 1)
	echo "campaign: $(((end - start) / 1000)) s wall ($boots boots)"
	summary=$(sed -n 's/^bootab: campaign finished in //p' "$dir/run-$2.err")
	echo "bootab's split: $summary"
	echo "$summary" | awk -v n="$boots" '{
		total = $1 + 0
		for (i = 1; i <= NF; i++) {
			if ($i == "reboots") reboot = $(i + 1) + 0
			if ($i == "gates") gates = $(i + 1) + 0
			if ($i == "rows") rows = $(i + 1) + 0
			if ($i == "steps") own = $(i + 1) + 0
		}
		printf "per boot: reboot %.1f s, gates %.1f s, rows %.1f s, own steps %.1f s\n", reboot / n, gates / n, rows / n, own / n
		printf "own steps: %.1f %% of the campaign (goal <= 4 %%), %.0f %% of the reboot time\n", 100 * own / total, 100 * own / reboot
	}'
	grep 'SSH sessions:\|^bootab: preflight' "$dir/run-$2.err" | sed 's/^bootab: \[[0-9:]*\] //; s/ (ETA [0-9:]*)$//'
	# Each step's time on the controller's clock, from the stamps of bootab's lines.
	awk '
	{
		s = $1 + 0
		if ($2 != "bootab:" || $4 != "boot" || split($5, kn, "/") != 2) next
		b = kn[1]
		line = $0
		sub(/^[^:]*:[^:]*:[^:]*:[^:]*: /, "", line)
		if (line ~ /^setting mode/) set[b] = s
		else if (line ~ /^rebooting into mode/) reb[b] = s
		else if (line ~ /^verifying from sysfs/) ver[b] = s
		else if (line ~ /^verified:/) vd[b] = s
		else if (line ~ /^rows started/) st[b] = s
		else if (line ~ /^fetching results/) fe[b] = s
		else if (line ~ /^results in /) fd[b] = s
		if (!(b in first)) first[b] = s
		last[b] = s
		if (b > n) n = b
	} END {
		for (b = 1; b <= n; b++) {
			printf "boot %d steps (s): set %.2f, verify+snapshot %.2f, start %.2f, fetch %.2f; rows started to fetch %.1f, results to the next boot %.2f\n", b,
				reb[b] - set[b], vd[b] - ver[b], st[b] - vd[b], fd[b] - fe[b], fe[b] - st[b], (b < n ? first[b + 1] : last[b]) - fd[b]
			sum += reb[b] - set[b] + st[b] - ver[b] + fd[b] - fe[b]
		}
		printf "these steps: %.1f s of the own steps; preflight (the start to boot 1'"'"'s set) %.2f s; the rest is in the rows'"'"' window (the runner between reps) and the report\n", sum, set[1] - start
	}' start="$(echo "$start" | awk '{ printf "%.3f", $1 / 1000 }')" "$dir/run-$2.stamped"
}
if [ -z "${SKIP_CAMPAIGN-}" ]; then
	[ -z "$baseline" ] || campaign "$baseline" baseline
	campaign "$bootab" bootab
fi

# Detection lag: the watch of a progress file the bench appends to.
# The run's side is the runner's own helpers (run.sh): each line appended,
# then its watchers woken, as a boot's run does.
lab 'mkdir -p /var/tmp/bootab-lag && : > /var/tmp/bootab-lag/progress && rm -f /var/tmp/bootab-lag/marks'
{ echo 'set -u'; cat "$top/src/campaign/runner-helpers.sh"; } | lab 'cat > /var/tmp/bootab-lag/run.sh'
mkfifo "$dir/watch"
lab sh -s /var/tmp/bootab-lag 0 1024 < "$top/src/target/run-watch.sh" > "$dir/watch" &
watch_pid=$!
while IFS= read -r l; do
	printf '%s %s\n' "$(now_ms)" "$l"
done < "$dir/watch" > "$dir/arrivals" &
best=
for _ in 1 2 3 4 5 6 7; do
	t0=$(now_ms)
	u=$(lab "cut -d ' ' -f 1 /proc/uptime")
	t1=$(now_ms)
	rtt=$((t1 - t0))
	if [ -z "$best" ] || [ "$rtt" -lt "$best" ]; then
		best=$rtt
		offset=$(echo "$t0 $t1 $u" | awk '{ printf "%.0f", ($1 + $2) / 2 - $3 * 1000 }')
	fi
done
lab "cd /var/tmp/bootab-lag && . ./run.sh && i=0; while [ \$i -lt $probes ]; do sleep 1.37 2> /dev/null || sleep 1; i=\$((i + 1)); u=\$(cut -d ' ' -f 1 /proc/uptime); echo \"tick \$i\" >> progress; wake_watchers; echo \"\$i \$u\" >> marks; done"
sleep 3
lab cat /var/tmp/bootab-lag/marks > "$dir/marks"
lab 'cd /var/tmp/bootab-lag && . ./run.sh && echo done >> progress && wake_watchers'
sleep 2
awk -v off="$offset" 'NR == FNR { at[$1] = $2 * 1000 + off; next }
	$2 == "line" && $3 == "tick" && ($4 in at) { print $1 - at[$4] }' "$dir/marks" "$dir/arrivals" | sort -n > "$dir/lags"
n=$(wc -l < "$dir/lags")
awk -v n="$n" -v e="$best" '{ l[NR] = $1 } END {
	if (!n) { print "detection lag: no line arrived"; exit }
	printf "detection lag (poll 60, %d lines): median %d ms, max %d ms (+- %d ms: half the best round trip)\n",
		n, l[int((n + 1) / 2)], l[n], e / 2
}' "$dir/lags"
lab 'rm -rf /var/tmp/bootab-lag'

# What a verify's snapshot is made of on the guest, with each build:
# `bootab snapshot --target lab` (its sessions and its time), then each
# script it ran as one SSH command over the lab's ssh (its script on
# stdin), less the round trip of an empty command; medians of 3.
med3() { sort -n | sed -n 2p; }
timed() { # COMMAND... : its wall time in ms
	t0=$(now_ms)
	"$@" > /dev/null 2>&1 < /dev/null || true
	echo $(($(now_ms) - t0))
}
timed_script() { # SCRIPT: on the guest, over stdin
	t0=$(now_ms)
	lab "sh -s" < "$1" > /dev/null 2>&1 || true
	echo $(($(now_ms) - t0))
}
rtt=$(for _ in 1 2 3; do timed lab true; done | med3)
echo "guest: round trip of one SSH command $rtt ms"
for b in ${baseline:+"$baseline"} "$bootab"; do
	name=bootab
	[ "$b" != "$baseline" ] || name=baseline
	ms=$(for i in 1 2 3; do timed "$b" snapshot --target lab -o "$dir/snap-$name-$i"; done | med3)
	printf '%s: bootab snapshot --target lab %d ms;' "$name" "$ms"
	for s in snapshot kernel-id inventory; do
		ms=$(for _ in 1 2 3; do timed_script "$dir/snap-$name-1/scripts/$s.sh"; done | med3)
		printf ' %s.sh %d ms' "$s" "$((ms - rtt))"
	done
	echo
done

sh "$top/bench/snapshot-forks.sh" HEAD 1 busybox | sed -n '1p;2p;/^lab-translated/p'
echo "load average after: $(cut -d ' ' -f 1-3 /proc/loadavg)"
