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
#   usage: bench/campaign-overhead.sh [BOOTAB] [NPROBES]
set -eu
bootab=$(cd "$(dirname "${1:-./build/bootab}")" && pwd)/$(basename "${1:-./build/bootab}")
probes=${2:-10}
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
if [ -z "${SKIP_CAMPAIGN-}" ]; then
start=$(now_ms)
"$bootab" run --data "$dir/runs" "$dir/plan.ini" > /dev/null 2> "$dir/run.err" || { cat "$dir/run.err" >&2; exit 1; }
end=$(now_ms)
echo "campaign: $(((end - start) / 1000)) s wall (2 boots)"
summary=$(sed -n 's/^bootab: campaign finished in //p' "$dir/run.err")
echo "bootab's split: $summary"
echo "$summary" | awk '{
	total = $1 + 0
	for (i = 1; i <= NF; i++) {
		if ($i == "reboots") reboot = $(i + 1) + 0
		if ($i == "gates") gates = $(i + 1) + 0
		if ($i == "rows") rows = $(i + 1) + 0
		if ($i == "steps") own = $(i + 1) + 0
	}
	printf "per boot: reboot %.1f s, gates %.1f s, rows %.1f s, own steps %.1f s\n", reboot / 2, gates / 2, rows / 2, own / 2
	printf "own steps: %.1f %% of the campaign (goal <= 4 %%), %.0f %% of the reboot time\n", 100 * own / total, 100 * own / reboot
}'
grep 'SSH sessions:' "$dir/run.err" | sed 's/^bootab: \[[0-9:]*\] //; s/ (ETA [0-9:]*)$//'
fi

# Detection lag: the watch of a progress file the bench appends to.
lab 'mkdir -p /var/tmp/bootab-lag && : > /var/tmp/bootab-lag/progress && rm -f /var/tmp/bootab-lag/marks'
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
lab "i=0; while [ \$i -lt $probes ]; do sleep 1.37 2> /dev/null || sleep 1; i=\$((i + 1)); u=\$(cut -d ' ' -f 1 /proc/uptime); echo \"tick \$i\" >> /var/tmp/bootab-lag/progress; echo \"\$i \$u\" >> /var/tmp/bootab-lag/marks; done"
sleep 3
lab cat /var/tmp/bootab-lag/marks > "$dir/marks"
lab 'echo done >> /var/tmp/bootab-lag/progress'
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

sh "$top/bench/snapshot-forks.sh" HEAD 1 busybox | sed -n '1p;2p;/^lab-translated/p'
echo "load average after: $(cut -d ' ' -f 1-3 /proc/loadavg)"
