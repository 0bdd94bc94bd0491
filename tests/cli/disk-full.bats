#!/usr/bin/env bats
# A full and a read-only data directory on the controller: bootab run stops
# with a clear message before anything on the target changes, bootab
# report, compare and snapshot fail with exit status 2, and nothing already
# recorded is lost or cut short.
#
# The data directory is a real small file system: a 2 MiB tmpfs mounted
# for each test. That needs root; without it the tests are skipped and say
# so. The target of these plans does not exist: bootab must stop before it
# tries to reach it.

bats_require_minimum_version 1.5.0

CAMPAIGN="$BATS_TEST_DIRNAME/../fixtures/campaign-lab"

setup() {
	SMALL="$BATS_TEST_TMPDIR/small"
	mkdir -p "$SMALL"
	if ! mount -t tmpfs -o size=2m tmpfs "$SMALL" 2>"$BATS_TEST_TMPDIR/mount.err"; then
		skip "cannot mount a tmpfs (needs root): $(cat "$BATS_TEST_TMPDIR/mount.err")"
	fi
	MOUNTED=1
	cat >"$BATS_TEST_TMPDIR/plan.ini" <<-'EOT'
	[campaign]
	target = box.invalid
	order = translated passthrough

	[mode "translated"]
	args =

	[mode "passthrough"]
	args = iommu=pt

	[row "randread"]
	command = fio --name=randread --output-format=json
	parser = fio
	EOT
}

teardown() {
	if [ -n "${MOUNTED-}" ]; then
		umount "$SMALL"
	fi
}

# Fills $SMALL to its last byte.
fill() {
	dd if=/dev/zero of="$SMALL/filler" bs=4096 2>/dev/null || true
	dd if=/dev/zero of="$SMALL/filler" bs=1 oflag=append conv=notrunc 2>/dev/null || true
	[ "$(df --output=avail "$SMALL" | tail -n 1)" -eq 0 ]
}

# "path md5" of every file under $1, sorted: the record of what is there.
sums() {
	(cd "$1" && find . -type f -print0 | sort -z | xargs -0 md5sum)
}

@test "run: a data directory with less than 64 MiB free stops the campaign before anything on the target changes" {
	run --separate-stderr "$BOOTAB" run --data "$SMALL" "$BATS_TEST_TMPDIR/plan.ini"
	[ "$status" -eq 2 ]
	dir=$(echo "$SMALL"/plan-*)
	[ "$stderr" = "bootab: the data directory $dir has 2.0 MiB free, less than the 64 MiB a boot's results may need: stopping before anything on the target changes
bootab: the campaign stopped (make room in its data directory first); continue it with: bootab run --resume $dir" ]
	[ "$output" = "" ]
	# The campaign is there to resume: the plan and the journal's first line, nothing else.
	cmp "$dir/plan.ini" "$BATS_TEST_TMPDIR/plan.ini"
	[ "$(cat "$dir/journal")" = "bootab-journal 1 campaign ${dir##*/} boots 2" ]
	[ "$(cd "$dir" && echo *)" = "journal plan.ini" ]
}

@test "run: a read-only data directory stops the campaign before it starts" {
	mount -o remount,ro "$SMALL"
	run --separate-stderr "$BOOTAB" run --data "$SMALL" "$BATS_TEST_TMPDIR/plan.ini"
	[ "$status" -eq 2 ]
	[[ "$stderr" =~ ^"bootab: cannot create the campaign directory $SMALL/plan-"[0-9]{8}-[0-9]{6}": Read-only file system"$ ]]
}

@test "run --resume on a full disk: stops before anything changes, and the journal and sides recorded stay as they were" {
	# A campaign stopped after its first boot: the second side and the report not there yet.
	cp -a "$CAMPAIGN" "$SMALL/c"
	rm -r "$SMALL/c/passthrough" "$SMALL"/c/report.*
	head -n 7 "$CAMPAIGN/journal" >"$SMALL/c/journal"
	fill
	sums "$SMALL/c" >"$BATS_TEST_TMPDIR/before"
	run --separate-stderr "$BOOTAB" run --resume "$SMALL/c"
	[ "$status" -eq 2 ]
	[ "$stderr" = "bootab: the data directory $SMALL/c is not writable (No space left on device): stopping before anything on the target changes
bootab: the campaign stopped (make room in its data directory first); continue it with: bootab run --resume $SMALL/c" ]
	sums "$SMALL/c" | diff -u "$BATS_TEST_TMPDIR/before" -
}

@test "run --resume with room for a few files but not 64 MiB: the same clear stop" {
	cp -a "$CAMPAIGN" "$SMALL/c"
	rm -r "$SMALL/c/passthrough"
	head -n 7 "$CAMPAIGN/journal" >"$SMALL/c/journal"
	sums "$SMALL/c" >"$BATS_TEST_TMPDIR/before"
	run --separate-stderr "$BOOTAB" run --resume "$SMALL/c"
	[ "$status" -eq 2 ]
	[[ "${stderr_lines[0]}" == "bootab: the data directory $SMALL/c has "*" MiB free, less than the 64 MiB a boot's results may need: stopping before anything on the target changes" ]]
	sums "$SMALL/c" | diff -u "$BATS_TEST_TMPDIR/before" -
}

@test "report on a full disk: exit 2, a clear error, and the reports there stay whole" {
	cp -a "$CAMPAIGN" "$SMALL/c"
	fill
	sums "$SMALL/c" >"$BATS_TEST_TMPDIR/before"
	run --separate-stderr "$BOOTAB" report "$SMALL/c"
	[ "$status" -eq 2 ]
	[ "$output" = "" ]
	[ "$stderr" = "bootab: cannot write the report in $SMALL/c: No space left on device (the reports there before are kept whole)" ]
	# Byte for byte as before, and no temporary left behind.
	sums "$SMALL/c" | diff -u "$BATS_TEST_TMPDIR/before" -
	# With room again the report is written.
	rm "$SMALL/filler"
	run -0 "$BOOTAB" report "$SMALL/c"
	grep -q '^randread  randread.iops  (IOPS, mean, higher is better)$' "$SMALL/c/report.txt"
}

@test "report on a read-only campaign directory: exit 2, why, and the report printed" {
	cp -a "$CAMPAIGN" "$SMALL/c"
	mount -o remount,ro "$SMALL"
	run --separate-stderr "$BOOTAB" report "$SMALL/c"
	[ "$status" -eq 2 ]
	[ "${stderr_lines[0]}" = "bootab: cannot write the report in $SMALL/c: Read-only file system (the reports there before are kept whole)" ]
	# The report is printed instead, and the user told where -o goes.
	[ "${stderr_lines[1]}" = "bootab: $SMALL/c cannot be written: the report is printed, not saved (-o FILE saves it elsewhere)" ]
	[ "$output" = "$("$BOOTAB" report -o - "$SMALL/c")" ]
	cmp "$SMALL/c/report.txt" "$CAMPAIGN/report.txt"
}

@test "compare with its output on a full disk: exit 2 and why" {
	cp -a "$CAMPAIGN" "$SMALL/c"
	fill
	run --separate-stderr "$BOOTAB" compare "$SMALL/c/translated" "$SMALL/c/passthrough"
	[ "$status" -eq 0 ]
	run --separate-stderr sh -c '"$1" compare "$2/translated" "$2/passthrough" >"$3"' sh "$BOOTAB" "$SMALL/c" "$SMALL/out.txt"
	[ "$status" -eq 2 ]
	[ "$stderr" = "bootab: failed to write the report: No space left on device" ]
}

@test "snapshot -o on a full disk: exit 2, the snapshot there before stays whole" {
	"$BOOTAB" snapshot --root "$BATS_TEST_DIRNAME/../fixtures/sysfs/seed-off" -o "$SMALL/s" 2>/dev/null
	fill
	sums "$SMALL/s" >"$BATS_TEST_TMPDIR/before"
	run --separate-stderr "$BOOTAB" snapshot --root "$BATS_TEST_DIRNAME/../fixtures/sysfs/seed-off" -o "$SMALL/s"
	[ "$status" -eq 2 ]
	[ "$stderr" = "bootab: failed to write '$SMALL/s/scripts/snapshot.sh': No space left on device" ]
	sums "$SMALL/s" | diff -u "$BATS_TEST_TMPDIR/before" -
}
