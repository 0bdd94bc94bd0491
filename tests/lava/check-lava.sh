#!/bin/sh
# make check-lava: one real LAVA job on a QEMU device of a LAVA instance
# from Debian's packages (lava-server, lava-dispatcher 2023.01), on a host
# without systemd as PID 1.
#
# It starts PostgreSQL (pg_ctlcluster) when it is down, and LAVA's web
# server (gunicorn, on 127.0.0.1:$LAVA_PORT, no apache), scheduler and worker
# by hand with the command lines of their systemd units; it makes the
# instance's objects when they are missing (a superuser, an API token in a
# 0600 file, a worker, the qemu device type, a device with a dictionary from
# LAVA's qemu template: TCG, -cpu max), submits one job through the REST API
# (deploy to tmpfs of the lab's kernel and initramfs with the LAVA overlay
# appended, boot with context: extra_kernel_args, an inline test that reads
# /proc/cmdline and records lava-test-case results with measurements),
# waits for it, checks its results through /api/v0.2/jobs/ID/tests/, and
# stops what it started (PostgreSQL only when it was down before).
#
# Environment: BOOTAB (the binary, for `bootab lab build` when the lab is
# not built), BOOTAB_LAB_DIR (the busybox lab: vmlinuz, initrd),
# LAVA_STATE (default /tmp/bootab-lava), LAVA_PORT (default 8765).
# Everything runs under nice -n 19.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
state=${LAVA_STATE:-/tmp/bootab-lava}
port=${LAVA_PORT:-8765}
url="http://127.0.0.1:$port"
user=bootab
worker=bootab-worker
device=bootab-qemu-01
nice="nice -n 19"
started_pg=no
pids=""

say() { printf 'check-lava: %s\n' "$*"; }
die() { say "$*" >&2; exit 1; }

stop_all() {
	for p in $pids; do
		kill "$p" 2>/dev/null || :
	done
	if [ -r "$state/gunicorn.pid" ]; then
		kill "$(cat "$state/gunicorn.pid")" 2>/dev/null || :
	fi
	# The worker's QEMU, if a job was cut short.
	if [ -r "$state/qemu.pids" ]; then
		while read -r p; do kill "$p" 2>/dev/null || :; done <"$state/qemu.pids"
	fi
	sleep 2
	for p in $pids; do
		kill -9 "$p" 2>/dev/null || :
	done
	if [ "$started_pg" = yes ]; then
		pg_ctlcluster 15 main stop || :
	fi
}
trap 'stop_all' EXIT
trap 'exit 130' INT TERM

t0=$(date +%s)
mkdir -p "$state/log" "$state/images" "$state/worker"
# The scheduler and the web server drop privileges to lavaserver: they
# write their logs in log/ and read the images; the tokens stay 0600.
chmod 755 "$state" "$state/images"
chown lavaserver:lavaserver "$state/log"

for c in lava-server lava-worker gunicorn3 pg_ctlcluster curl python3; do
	command -v "$c" >/dev/null || die "$c not found (apt-get install lava-server lava-dispatcher)"
done

# The lab's kernel and initramfs.
lab=${BOOTAB_LAB_DIR:-}
if [ -z "$lab" ]; then
	lab=$("${BOOTAB:-bootab}" lab status --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["dir"])')
fi
if [ ! -r "$lab/vmlinuz" ] || [ ! -r "$lab/initrd" ]; then
	say "building the lab in $lab"
	BOOTAB_LAB_DIR=$lab $nice "${BOOTAB:-bootab}" lab build
fi
cp "$lab/vmlinuz" "$state/images/vmlinuz"
cp "$lab/initrd" "$state/images/initrd.cpio.gz"

# PostgreSQL.
if ! pg_lsclusters -h | awk '$1 == 15 && $2 == "main" { exit $4 == "online" ? 0 : 1 }'; then
	$nice pg_ctlcluster 15 main start
	started_pg=yes
fi

# The web server: lava-server-gunicorn.service's command, bound to a local port.
$nice /usr/bin/gunicorn3 lava_server.wsgi --log-level info \
	--log-file "$state/log/gunicorn.log" -u lavaserver -g lavaserver \
	--workers 2 --bind "127.0.0.1:$port" --timeout 120 \
	--pid "$state/gunicorn.pid" --daemon
tries=0
until curl -fsS -o /dev/null "$url/api/v0.2/system/version/" 2>/dev/null; do
	tries=$((tries + 1))
	[ "$tries" -le 60 ] || die "LAVA's web server did not answer on $url (see $state/log/gunicorn.log)"
	sleep 1
done
say "web server up on $url ($(($(date +%s) - t0)) s)"

manage() { $nice lava-server manage "$@"; }

# The instance's objects, made once.
if ! manage users list 2>/dev/null | grep -qxF "* $user"; then
	manage users add --superuser --staff --email bootab@localhost "$user" >/dev/null
fi
tok="$state/token"
if [ ! -s "$tok" ]; then
	(umask 077; manage tokens add --user "$user" --description bootab-check-lava >"$tok")
fi
chmod 600 "$tok"
hdr="$state/auth-header"
(umask 077; printf 'Authorization: Token %s\n' "$(cat "$tok")" >"$hdr")

if ! manage workers list 2>/dev/null | grep -q "$worker"; then
	manage workers add --description "bootab check-lava" "$worker" >/dev/null
fi
wtok="$state/worker-token"
(umask 077; manage workers details "$worker" | awk '$1 == "token" { print $3 }' >"$wtok")
[ -s "$wtok" ] || die "no token for worker $worker ($(manage workers details "$worker" | tr '\n' ' '))"

if ! manage device-types list 2>/dev/null | grep -q '\bqemu\b'; then
	manage device-types add qemu >/dev/null
fi
devdir=/etc/lava-server/dispatcher-config/devices
mkdir -p "$devdir"
cp "$here/device.jinja2" "$devdir/$device.jinja2"
chown lavaserver:lavaserver "$devdir/$device.jinja2" 2>/dev/null || :
if ! manage devices list -a 2>/dev/null | grep -q "$device"; then
	manage devices add "$device" --device-type qemu --worker "$worker" --tags bootab-lab >/dev/null
fi
manage devices update --health UNKNOWN "$device" >/dev/null

# The scheduler and the worker (lava-scheduler.service, lava-worker.service).
$nice lava-server manage lava-scheduler --level INFO \
	--log-file "$state/log/lava-scheduler.log" &
pids="$pids $!"
$nice lava-worker --level DEBUG --url "$url/" --name "$worker" \
	--token-file "$wtok" --worker-dir "$state/worker" \
	--log-file "$state/log/lava-worker.log" &
pids="$pids $!"
say "scheduler and worker started ($(($(date +%s) - t0)) s)"

# The job.
marker="bootab.check=$$"
sed -e "s|@STATE@|$state|g" -e "s|@MARKER@|$marker|g" \
	"$here/job.yaml" >"$state/job.yaml"
api() {
	curl -fsS -H "@$hdr" "$@"
}
python3 -c 'import json,sys; print(json.dumps({"definition": open(sys.argv[1]).read()}))' \
	"$state/job.yaml" >"$state/submit.json"
api -H 'Content-Type: application/json' --data-binary "@$state/submit.json" \
	"$url/api/v0.2/jobs/" >"$state/submitted.json"
job=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["job_ids"][0])' "$state/submitted.json")
t1=$(date +%s)
say "job $job submitted"

st=""
while :; do
	api "$url/api/v0.2/jobs/$job/" >"$state/job.json"
	st=$(python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); print(j["state"], j["health"])' "$state/job.json")
	case $st in
	Finished*) break ;;
	esac
	[ $(($(date +%s) - t1)) -le 900 ] || die "job $job not finished after 900 s (state $st)"
	pgrep -f "qemu-system-x86_64 .*$marker" >"$state/qemu.pids" || :
	sleep 5
done
t2=$(date +%s)
say "job $job: $st after $((t2 - t1)) s"

api "$url/api/v0.2/jobs/$job/logs/" >"$state/job-log.yaml" || :
api "$url/api/v0.2/jobs/$job/tests/" >"$state/tests.json"
api "$url/api/v0.2/jobs/$job/suites/" >"$state/suites.json"
api "$url/api/v0.2/jobs/$job/junit/" >"$state/junit.xml" || :
python3 "$here/check-results.py" "$state/tests.json" "$state/suites.json" "$marker" || {
	say "job log: $state/job-log.yaml"
	exit 1
}
[ "$st" = "Finished Complete" ] || die "job $job health: $st"
say "ok: job $job, $(($(date +%s) - t0)) s in all ($((t2 - t1)) s from submission to the end of the job)"

# A campaign through bootab's lava target: A B A2, three jobs.
rm -rf "$state/runs"
sed -e "s|@STATE@|$state|g" -e "s|@URL@|$url|g" "$here/campaign.ini" >"$state/campaign.ini"
t3=$(date +%s)
say "bootab run of a 2-mode campaign through LAVA (log: $state/campaign.log)"
if ! $nice "${BOOTAB:-bootab}" run --data "$state/runs" "$state/campaign.ini" >"$state/campaign.log" 2>&1; then
	tail -n 20 "$state/campaign.log" >&2
	die "bootab run of the LAVA campaign failed"
fi
t4=$(date +%s)
dir=
for d in "$state"/runs/campaign-*; do
	dir=$d
done
[ -d "$dir" ] || die "bootab run made no campaign directory under $state/runs"
python3 "$here/check-campaign.py" "$dir" || die "the campaign's results (in $dir) are not what its plan asked for"
# The report from the recorded sides alone, as for any campaign.
"${BOOTAB:-bootab}" report "$dir" >"$state/report.txt" || die "bootab report $dir failed"
grep -q '^pti vs standing' "$state/report.txt" || die "the report has no pti vs standing line (see $state/report.txt)"
say "ok: campaign $dir in $((t4 - t3)) s ($(grep -c ' started lava-job:' "$dir/journal") jobs); $(grep -m1 'campaign finished' "$state/campaign.log" || :)"
say "ok: $(($(date +%s) - t0)) s in all"
