#!/usr/bin/env bats
bats_require_minimum_version 1.5.0

# bootab run --resume DIR refuses, before anything on the box changes, a
# journal it did not write for this campaign, and a campaign directory that
# another run holds.

setup() {
	c="$BATS_TEST_TMPDIR/camp-20261201-080000"
	mkdir -p "$c" "$BATS_TEST_TMPDIR/bin"
	printf '[campaign]\ntarget = box.invalid\n[mode "pt"]\nargs = iommu=pt\n[mode "off"]\nargs = intel_iommu=off\n[row "r"]\ncommand = echo 1\nparser = number\n' > "$c/plan.ini"
	# Any ssh bootab starts would be logged here: none must be.
	printf '#!/bin/sh\necho "$*" >> "%s"\nexit 255\n' "$BATS_TEST_TMPDIR/ssh.log" > "$BATS_TEST_TMPDIR/bin/ssh"
	chmod +x "$BATS_TEST_TMPDIR/bin/ssh"
	export PATH="$BATS_TEST_TMPDIR/bin:$PATH"
	header="bootab-journal 1 campaign camp-20261201-080000 boots 3"
}

# refused LINE EXPECTED JOURNAL...: the resume stops at LINE of the journal, saying EXPECTED.
refused() {
	local line=$1 expected=$2
	shift 2
	printf '%s\n' "$@" > "$c/journal"
	run --separate-stderr "$BOOTAB" run --resume "$c"
	[ "$status" -eq 2 ]
	[[ "$stderr" == "bootab: $c/journal:$line: $expected, not '"*"': the journal is not one bootab wrote for this campaign; nothing was changed on the box"* ]]
	[ ! -e "$BATS_TEST_TMPDIR/ssh.log" ]
}

@test "a journal of another format version, campaign or boot count stops the resume, naming line 1" {
	want="expected 'bootab-journal 1 campaign camp-20261201-080000 boots 3' (format 1, this campaign (its directory's name or the one its sides record), the plan's boots)"
	refused 1 "$want" "bootab-journal 2 campaign camp-20261201-080000 boots 3"
	refused 1 "$want" "bootab-journal 1 campaign other-20261130-000000 boots 3"
	refused 1 "$want" "bootab-journal 1 campaign camp-20261201-080000 boots 99999999999"
	refused 1 "$want" "boot 1 pt begin"
	: > "$c/journal"
	run --separate-stderr "$BOOTAB" run --resume "$c"
	[ "$status" -eq 2 ]
	[[ "$stderr" == "bootab: $c/journal:1: expected 'bootab-journal 1 campaign camp-20261201-080000 boots 3', not '': "* ]]
}

@test "finished before every boot is done, unknown lines and bad boot ids stop the resume" {
	refused 2 "expected boot 1 pt to be done before 'finished'" "$header" "finished"
	refused 2 "expected 'boot K LABEL STEP' with K from 1 to 3" "$header" "frobnicate the box"
	refused 2 "expected 'boot K LABEL STEP' with K from 1 to 3" "$header" "boot 4 pt2 begin"
	refused 2 "expected boot 2's label 'off'" "$header" "boot 2 pt begin"
	refused 3 "expected 'boot 1 pt rebooted BOOT_ID SECONDS BOOT_ID_BEFORE'" "$header" "boot 1 pt begin" \
		"boot 1 pt rebooted \$(reboot) 3.0 fe44f64f-9e46-49eb-88e6-4a08a4131864"
	refused 2 "expected a step (begin, set, rebooting, rebooted, verified, started, done, failed)" "$header" "boot 1 pt frob"
	refused 6 "expected nothing after 'finished'" "$header" "boot 1 pt done" "boot 2 off done" "boot 3 pt2 done" "finished" "boot 1 pt begin"
}

@test "a journal bootab wrote resumes past the checks (to the target), in a renamed directory too" {
	printf '%s\n' "$header" "local rows-as bench" "boot 1 pt begin" "boot 1 pt set" \
		"boot 1 pt rebooted fe8d3a22-208d-46fb-9c1f-2119ca9cb152 131.0 fe44f64f-9e46-49eb-88e6-4a08a4131864" \
		"boot 1 pt failed verify" > "$c/journal"
	run --separate-stderr "$BOOTAB" run --resume "$c"
	[ "$status" -ne 0 ]
	[[ "$stderr" != *"$c/journal:"* ]]
	# It got as far as ssh, which this test's stand-in refuses.
	[ -s "$BATS_TEST_TMPDIR/ssh.log" ]
	# Renamed: the header's campaign is the one its recorded side names.
	mkdir -p "$c/pt"
	printf '{"campaign": "camp-20261201-080000", "mode": "pt"}\n' > "$c/pt/meta.json"
	mv "$c" "$BATS_TEST_TMPDIR/renamed"
	rm "$BATS_TEST_TMPDIR/ssh.log"
	run --separate-stderr "$BOOTAB" run --resume "$BATS_TEST_TMPDIR/renamed"
	[[ "$stderr" != *"/journal:"* ]]
	[ -s "$BATS_TEST_TMPDIR/ssh.log" ]
}

@test "a second run on a campaign directory says who holds it and exits 2" {
	printf '%s\n' "$header" > "$c/journal"
	# This shell holds the lock on the directory, as another run would
	# (flock(1) took it, so /proc/locks names that short-lived pid).
	exec 9<"$c"
	flock -n 9
	run --separate-stderr "$BOOTAB" run --resume "$c"
	exec 9<&-
	[ "$status" -eq 2 ]
	[[ "$stderr" =~ ^"bootab: the campaign $c is in use by pid "[0-9]+.*": one run at a time"$ ]]
	[ ! -e "$BATS_TEST_TMPDIR/ssh.log" ]
	# Nothing was written: the journal is untouched, no file was added.
	[ "$(cat "$c/journal")" = "$header" ]
	[ "$(cd "$c" && echo *)" = "journal plan.ini" ]
}

@test "the lock is bootab's own while it runs: a second bootab sees the first's pid" {
	printf '%s\n' "$header" > "$c/journal"
	# The stand-in ssh holds the first run inside the target open.
	printf '#!/bin/sh\necho "$*" >> "%s"\nsleep 15\nexit 255\n' "$BATS_TEST_TMPDIR/ssh.log" > "$BATS_TEST_TMPDIR/bin/ssh"
	"$BOOTAB" run --resume "$c" > /dev/null 2>&1 &
	first=$!
	for _ in $(seq 1 300); do
		[ -s "$BATS_TEST_TMPDIR/ssh.log" ] && break
		sleep 0.1
	done
	run --separate-stderr "$BOOTAB" run --resume "$c"
	wait "$first" || true
	[ "$status" -eq 2 ]
	[[ "$stderr" == "bootab: the campaign $c is in use by pid $first ("*"run --resume $c): one run at a time" ]]
	[ "$(grep -c . "$BATS_TEST_TMPDIR/ssh.log")" -eq 1 ]
}
