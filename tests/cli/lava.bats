#!/usr/bin/env bats
bats_require_minimum_version 1.5.0
# target = lava without a LAVA instance: the plan's [lava] section, the jobs
# bootab would submit (run --dry-run), and what is refused or said before
# and at the first request. make check-lava runs a campaign against a real
# instance (tests/lava/check-lava.sh).

teardown() {
	# The stand-in for LAVA, should a test stop before it ends it.
	[ -z "${server:-}" ] || kill "$server" 2>/dev/null || :
}

setup() {
	token="$BATS_TEST_TMPDIR/token"
	(umask 077; printf 'aBcD1234efgh5678ijkl9012mnop3456\n' > "$token")
	plan="$BATS_TEST_TMPDIR/lava.ini"
	cat > "$plan" <<EOF
[campaign]
target = lava
reps = 2
data = $BATS_TEST_TMPDIR/runs
[lava]
url = http://127.0.0.1:9
device = bootab-qemu-01
tags = bootab-lab
token_file = $token
kernel = file:///srv/lab/vmlinuz
initramfs = file:///srv/lab/initrd.cpio.gz
prompt = bootab-lab#
[mode "standing"]
[mode "pti"]
args = pti=on workqueue.power_efficient=1
[row "syscalls"]
command = dd if=/dev/zero of=/dev/null bs=1 count=30000 2>&1 | tail -n 1
parser = regex
metric = copied
pattern = ([0-9.]+) s,
better = lower
EOF
}

@test "a LAVA plan: bootab plan says where the jobs go; a bad [lava] value is one line with file, line and key" {
	run "$BOOTAB" plan "$plan"
	[ "$status" -eq 0 ]
	[[ "$output" == *"target: lava: every boot a job of http://127.0.0.1:9 on device type qemu, device bootab-qemu-01, tags bootab-lab"* ]]
	[[ "$output" != *"backend:"* ]]
	sed 's|^url = .*|url = ftp://lava|' "$plan" > "$BATS_TEST_TMPDIR/bad.ini"
	run "$BOOTAB" plan "$BATS_TEST_TMPDIR/bad.ini"
	[ "$status" -eq 2 ]
	[ "$output" = "bootab: $BATS_TEST_TMPDIR/bad.ini:6: url: 'ftp://lava' is not an http:// or https:// URL without spaces, quotes, braces or control characters" ]
	sed 's|^target = lava|target = lab|' "$plan" > "$BATS_TEST_TMPDIR/bad.ini"
	run "$BOOTAB" plan "$BATS_TEST_TMPDIR/bad.ini"
	[ "$status" -eq 2 ]
	[ "$output" = "bootab: $BATS_TEST_TMPDIR/bad.ini:5: section [lava] is for target = lava" ]
}

@test "run --dry-run: one job per boot, the mode's args on -append, and the test script it carries is sh" {
	run "$BOOTAB" run --dry-run "$plan"
	[ "$status" -eq 0 ]
	[ "$(grep -c '^device_type: "qemu"$' <<<"$output")" -eq 3 ]
	[ "$(grep -c '^- "bootab-lab"$' <<<"$output")" -eq 3 ]
	mapfile -t appends < <(grep 'image_arg: "-kernel' <<<"$output")
	[ "${#appends[@]}" -eq 3 ]
	[ "${appends[0]}" = '        image_arg: "-kernel {kernel} -append \"console=ttyS0,115200\""' ]
	[ "${appends[1]}" = '        image_arg: "-kernel {kernel} -append \"console=ttyS0,115200 pti=on workqueue.power_efficient=1\""' ]
	[ "${appends[2]}" = "${appends[0]}" ]
	# The second job's steps: its base64 chunks make the script the device runs.
	job2=$(awk '/^== boot 2\/3/ { on = 1; next } /^== boot 3\/3/ { on = 0 } on' <<<"$output")
	grep -o "printf '%s' '[A-Za-z0-9+/=]*'" <<<"$job2" | sed "s/^printf '%s' '//; s/'\$//" | tr -d '\n' |
		base64 -d > "$BATS_TEST_TMPDIR/boot.sh"
	sh -n "$BATS_TEST_TMPDIR/boot.sh"
	grep -q '^# bootab.s LAVA test script: campaign lava-[0-9-]*, boot 2 of 3, pti (mode pti)\.$' "$BATS_TEST_TMPDIR/boot.sh"
	# What verify reads of the mode's args, each one quoted word.
	grep -qx "sh snapshot.sh 'param:workqueue.power_efficient' > snapshot.out 2> snapshot.err" "$BATS_TEST_TMPDIR/boot.sh"
	grep -q '^bootab_put fetch fetch.out$' "$BATS_TEST_TMPDIR/boot.sh"
	# Each embedded script is written whole: its text ends at its own delimiter.
	[ "$(grep -c "^cat > [a-z/.-]* <<'BOOTAB_LAVA_EOF_0'\$" "$BATS_TEST_TMPDIR/boot.sh")" -eq 5 ]
	[ "$(grep -c '^BOOTAB_LAVA_EOF_0$' "$BATS_TEST_TMPDIR/boot.sh")" -eq 5 ]
	# Nothing was submitted or written.
	[ ! -e "$BATS_TEST_TMPDIR/runs" ]
}

@test "the token: a file others can read, or an unset variable, is refused before any request" {
	chmod 0644 "$token"
	run "$BOOTAB" run "$plan"
	[ "$status" -ne 0 ]
	[[ "$output" == *"bootab: [lava] token_file: $token must be a regular file of yours that only you can read (mode 0600), not mode 0644 of uid $(id -u)"* ]]
	dir=$(ls -d "$BATS_TEST_TMPDIR"/runs/lava-*)
	# Refused before the first boot began.
	[ "$(cat "$dir/journal" | wc -l)" -eq 1 ]
	sed "s|^token_file = .*|token_env = BOOTAB_TEST_NO_SUCH_TOKEN|" "$plan" > "$BATS_TEST_TMPDIR/env.ini"
	run env -u BOOTAB_TEST_NO_SUCH_TOKEN "$BOOTAB" run "$BATS_TEST_TMPDIR/env.ini"
	[ "$status" -ne 0 ]
	[[ "$output" == *"bootab: [lava] token_env: \$BOOTAB_TEST_NO_SUCH_TOKEN is not set"* ]]
	# A FIFO (or another file that is not regular) is refused before it is opened: open() would wait for a writer.
	mkfifo "$BATS_TEST_TMPDIR/fifo"
	sed "s|^token_file = .*|token_file = $BATS_TEST_TMPDIR/fifo|" "$plan" > "$BATS_TEST_TMPDIR/fifo.ini"
	run timeout 20 "$BOOTAB" run "$BATS_TEST_TMPDIR/fifo.ini"
	[ "$status" -eq 1 ]
	[[ "$output" == *"bootab: [lava] token_file: $BATS_TEST_TMPDIR/fifo is not a regular file (a FIFO, a device, a link or a directory)"* ]]
	# The token never reaches argv or the campaign's files.
	chmod 0600 "$token"
	run "$BOOTAB" run "$plan"
	! grep -rqF aBcD1234efgh5678ijkl9012mnop3456 "$BATS_TEST_TMPDIR/runs" || false
}

@test "a LAVA that does not answer: one line naming the request, the campaign resumable, the job journalled as not yet submitted" {
	run "$BOOTAB" run "$plan"
	[ "$status" -eq 1 ]
	[[ "$output" == *"bootab: boot 1 standing: POST http://127.0.0.1:9/api/v0.2/jobs/ failed (curl exit 7): curl: (7) Failed to connect to 127.0.0.1 port 9"* ]]
	dir=$(ls -d "$BATS_TEST_TMPDIR"/runs/lava-*)
	[ "$(tail -n 1 "$dir/journal")" = "boot 1 standing set" ]
	[ -s "$dir/lava/standing/job.yaml" ]
	# On resume the job is first looked up by name: it may have been submitted.
	run "$BOOTAB" run --resume "$dir"
	[ "$status" -eq 1 ]
	[[ "$output" == *"bootab: boot 1 standing: GET http://127.0.0.1:9/api/v0.2/jobs/?description=bootab%20${dir##*/}%20boot%201%2F3%20standing&ordering=-id failed (curl exit 7)"* ]]
}

# start_answers [FIXTURES]: the stand-in for LAVA's API on the recorded answers of
# tests/fixtures/lava/ (or FIXTURES); sets fixtures, server (its pid) and port.
start_answers() {
	fixtures=${1:-"$BATS_TEST_DIRNAME/../fixtures/lava"}
	python3 "$BATS_TEST_DIRNAME/helpers/lava-answers.py" "$fixtures" aBcD1234efgh5678ijkl9012mnop3456 \
		"$BATS_TEST_TMPDIR/port" "$BATS_TEST_TMPDIR/requests" 3>&- &
	server=$!
	for _ in $(seq 100); do [ -s "$BATS_TEST_TMPDIR/port" ] && break; sleep 0.1; done
	port=$(cat "$BATS_TEST_TMPDIR/port")
}

# The answers of a real job (tests/fixtures/lava/: job 5, bootab's own test
# script on LAVA's qemu device, mode pti=on) served by a stand-in for
# LAVA's API: the whole path of a boot (submit, wait, log, verify, side,
# report) without an instance. make check-lava runs it against a real one.
@test "a LAVA campaign on recorded answers: each boot submitted once, verified from the job's log, its side and report written" {
	start_answers
	cat > "$BATS_TEST_TMPDIR/rec.ini" <<EOF2
[campaign]
target = lava
reps = 2
history = off
data = $BATS_TEST_TMPDIR/runs
[lava]
url = http://127.0.0.1:$port
device = bootab-qemu-01
tags = bootab-lab
token_file = $token
kernel = file:///tmp/lava8/images/vmlinuz
initramfs = file:///tmp/lava8/images/initrd.cpio.gz
prompt = bootab-lab#
poll = 1
[mode "pti"]
args = pti=on
[row "syscalls"]
command = true
parser = number
better = lower
[check "proc"]
command = test -r /proc/cmdline
EOF2
	run "$BOOTAB" run "$BATS_TEST_TMPDIR/rec.ini"
	kill "$server"
	[ "$status" -eq 0 ]
	dir=$(ls -d "$BATS_TEST_TMPDIR"/runs/rec-*)
	[[ "$output" == *"boot 1/2 pti: LAVA job 5 submitted (http://127.0.0.1:$port/scheduler/job/5)"* ]]
	[[ "$output" == *"boot 1/2 pti: LAVA job 5: Finished on bootab-qemu-01"* ]]
	[[ "$output" == *"boot 2/2 pti2: verified: 2 checks hold"* ]]
	# The job's reps of syscalls failed (its command then had a bug): recorded, said.
	[[ "$output" == *"pti: row syscalls rep 1 failed (rc=2)"* ]]
	[ "$(grep -c ' started lava-job:5$' "$dir/journal")" -eq 2 ]
	[ "$(tail -n 1 "$dir/journal")" = finished ]
	# One POST per boot, each with the token's header, the boot's command line in its job.
	[ "$(grep -c '"method": "POST"' "$BATS_TEST_TMPDIR/requests")" -eq 2 ]
	! grep -v '"authorization": "Token aBcD1234efgh5678ijkl9012mnop3456"' "$BATS_TEST_TMPDIR/requests" || false
	grep '"method": "POST"' "$BATS_TEST_TMPDIR/requests" | head -n 1 |
		python3 -c 'import json, sys; d = json.loads(json.loads(sys.stdin.read())["body"])["definition"]; sys.stdout.write(d)' \
		> "$BATS_TEST_TMPDIR/posted.yaml"
	diff -u "$dir/lava/pti/job.yaml" "$BATS_TEST_TMPDIR/posted.yaml"
	grep -qF 'image_arg: "-kernel {kernel} -append \"console=ttyS0,115200 pti=on\""' "$BATS_TEST_TMPDIR/posted.yaml"
	# The sides, as any campaign's: the job's snapshot and rows, verified and proven.
	for side in pti pti2; do
		python3 - "$dir/$side/meta.json" <<'EOF2'
import json, sys
m = json.load(open(sys.argv[1]))
assert m["verify"] == "ok (2 checks)", m["verify"]
assert m["proof"]["level"] == "proven", m["proof"]
assert m["cmdline"] == "console=ttyS0,115200 pti=on", m["cmdline"]
assert m["kernel"] == "6.1.0-57-amd64", m["kernel"]
rows = {r["name"]: r for r in m["rows"]}
assert [r["rc"] for r in rows["syscalls"]["reps"]] == [2, 2], rows["syscalls"]
assert [r["rc"] for r in rows["proc"]["reps"]] == [0], rows["proc"]
EOF2
		[ -s "$dir/$side/snapshot.out" ]
		[ -s "$dir/lava/$side/log.yaml" ]
		[ -s "$dir/lava/$side/tests.json" ]
	done
	[ -s "$dir/report.txt" ]
	run "$BOOTAB" report "$dir"
	[ "$status" -eq 0 ]
	[[ "$output" == *"campaign $dir: 2 of 2 boots recorded"* ]]
	! grep -rqF aBcD1234efgh5678ijkl9012mnop3456 "$dir" || false
}

@test "recorded answers: a job on another device than the plan's, or a boot that is not the one asked for, keeps nothing and stops resumable" {
	start_answers
	sed -e "s|^url = .*|url = http://127.0.0.1:$port|" -e 's|^device = .*|device = other-board|' "$plan" > "$BATS_TEST_TMPDIR/dev.ini"
	run "$BOOTAB" run "$BATS_TEST_TMPDIR/dev.ini"
	[ "$status" -eq 1 ]
	[[ "$output" == *"bootab: boot 1 standing: LAVA job 5 ended Complete: it ran on bootab-qemu-01, not on the plan's device other-board (its log: http://127.0.0.1:$port/scheduler/job/5)"* ]]
	dir=$(ls -d "$BATS_TEST_TMPDIR"/runs/dev-*)
	[ "$(tail -n 1 "$dir/journal")" = "boot 1 standing failed lava-job" ]
	[ ! -e "$dir/standing" ]
	# The recorded job booted pti=on: a standing boot asked for none of the managed args.
	sed -e "s|^url = .*|url = http://127.0.0.1:$port|" "$plan" > "$BATS_TEST_TMPDIR/std.ini"
	run "$BOOTAB" run "$BATS_TEST_TMPDIR/std.ini"
	kill "$server"
	[ "$status" -eq 1 ]
	[[ "$output" == *"bootab: boot 1 standing: verify failed: cmdline: no pti=on: expected absent"* ]]
	[[ "$output" == *"bootab: boot 1 standing is not the boot asked for ("*"): nothing it ran is kept"* ]]
	dir=$(ls -d "$BATS_TEST_TMPDIR"/runs/std-*)
	[ "$(tail -n 1 "$dir/journal")" = "boot 1 standing failed verify" ]
	[ ! -e "$dir/standing" ]
}

@test "a job that stays Submitted is waited for job_timeout and boot_timeout, then the campaign stops resumable" {
	# The recorded answers, the job never leaving Submitted (no device takes it).
	cp -R "$BATS_TEST_DIRNAME/../fixtures/lava" "$BATS_TEST_TMPDIR/answers"
	sed -i 's/"state":"Finished"/"state":"Submitted"/' "$BATS_TEST_TMPDIR/answers/job-finished.json"
	start_answers "$BATS_TEST_TMPDIR/answers"
	sed -e "s|^url = .*|url = http://127.0.0.1:$port|" -e 's|^\[lava\]$|[lava]\njob_timeout = 60\npoll = 1|' \
		-e 's|^reps = 2$|reps = 2\nboot_timeout = 10|' "$plan" > "$BATS_TEST_TMPDIR/queued.ini"
	start=$SECONDS
	run timeout 200 "$BOOTAB" run "$BATS_TEST_TMPDIR/queued.ini"
	took=$((SECONDS - start))
	kill "$server"
	[ "$status" -eq 1 ]
	[[ "$output" == *"bootab: boot 1 standing: LAVA job 5 is still Submitted after 70 s (job_timeout and boot_timeout): stopping; --resume waits for it again (its page: http://127.0.0.1:$port/scheduler/job/5)"* ]]
	[ "$took" -ge 70 ] && [ "$took" -lt 120 ]
	dir=$(ls -d "$BATS_TEST_TMPDIR"/runs/queued-*)
	# The job stays journalled: --resume waits for it, submitting none again.
	[ "$(tail -n 1 "$dir/journal")" = "boot 1 standing started lava-job:5" ]
}

# The snapshot scripts' outputs are read each on its own, as on any
# target: a bad record in inventory.sh's block is named by its script and
# that block's own line. The fixture's log with that block rewritten.
@test "recorded answers: a bad line in one snapshot script's block names the script and its own line, nothing kept" {
	cp -r "$BATS_TEST_DIRNAME/../fixtures/lava" "$BATS_TEST_TMPDIR/answers"
	python3 - "$BATS_TEST_TMPDIR/answers/job-log.yaml" <<'EOF2'
import base64, json, sys
path = sys.argv[1]
lines = open(path).read().split("\n")
msg = lambda l: json.loads(l[2:])["msg"] if l.startswith("- {") and '"lvl": "target"' in l else None
begin = next(i for i, l in enumerate(lines) if (msg(l) or "").startswith("bootab-lava-begin inventory "))
end = next(i for i, l in enumerate(lines) if msg(l) == "bootab-lava-end inventory")
data = base64.b64decode("".join(msg(l) for l in lines[begin + 1:end])).decode().split("\n")
data[2] = "pci\t0000:00:01.0\t0xzz\t0x1111\t0x030000\t-\t-"
raw = "\n".join(data).encode()
rec = lambda text: "- " + json.dumps({"dt": "2026-12-02T02:39:47.825781", "lvl": "target", "msg": text})
blob = base64.b64encode(raw).decode()
out = [rec("bootab-lava-begin inventory %d" % len(raw))]
out += [rec(blob[i:i + 76]) for i in range(0, len(blob), 76)]
lines[begin:end] = out
open(path, "w").write("\n".join(lines))
EOF2
	start_answers "$BATS_TEST_TMPDIR/answers"
	sed -e "s|^url = .*|url = http://127.0.0.1:$port|" -e 's|^\[mode "standing"\]$||' \
		-e 's|^args = pti=on .*|args = pti=on|' "$plan" > "$BATS_TEST_TMPDIR/inv.ini"
	run "$BOOTAB" run "$BATS_TEST_TMPDIR/inv.ini"
	kill "$server"
	[ "$status" -eq 1 ]
	dir=$(ls -d "$BATS_TEST_TMPDIR"/runs/inv-*)
	[[ "$output" == *"bootab: boot 1 pti: the inventory output in $dir/lava/pti/log.yaml does not parse: line 3: pci device '0000:00:01.0': vendor, device or class is not 0xHHHH"* ]]
	[ "$(tail -n 1 "$dir/journal")" = "boot 1 pti failed lava-log" ]
	[ ! -e "$dir/pti" ]
}
