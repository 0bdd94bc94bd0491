#!/usr/bin/env bats
# bootab report -o FILE on what FILE may be: a device, a FIFO, a link to
# one, a directory, a campaign's own files. Each write leaves what it
# does not own as it was. The campaign is the lab fixture
# (tests/fixtures/campaign-lab, recorded from a real lab run).
bats_require_minimum_version 1.5.0

setup() {
	camp="$BATS_TEST_TMPDIR/campaign"
	cp -r "$BATS_TEST_DIRNAME/../fixtures/campaign-lab" "$camp"
	export XDG_DATA_HOME="$BATS_TEST_TMPDIR/data"
	want=$("$BOOTAB" report -o - "$camp")
}

teardown() {
	# A directory outside the test's own, made for another user to read.
	[ -z "${ro:-}" ] || rm -rf "$ro"
}

# kind PATH: file type, inode and device numbers of PATH itself (no link followed)
kind() {
	stat -c '%F %i %t:%T' "$1"
}

@test "-o onto a character device writes into it: the node stays, same inode, same kind" {
	# A device node of its own when root may make one (as root, the real
	# /dev/null would be replaced by a build without the fix); /dev/null
	# itself otherwise.
	null=/dev/null
	if [ "$(id -u)" = 0 ] && mknod "$BATS_TEST_TMPDIR/null" c 1 3 2> /dev/null; then
		null="$BATS_TEST_TMPDIR/null"
	fi
	before=$(kind "$null")
	run -0 "$BOOTAB" report -o "$null" "$camp"
	[ "$output" = "" ]
	[ "$(kind "$null")" = "$before" ]
	[[ "$before" == "character special file "* ]]
	# A link to the device: the link and the device stay.
	ln -s "$null" "$BATS_TEST_TMPDIR/null-link"
	before_link=$(kind "$BATS_TEST_TMPDIR/null-link")
	run -0 "$BOOTAB" report --format md -o "$BATS_TEST_TMPDIR/null-link" "$camp"
	[ "$(kind "$BATS_TEST_TMPDIR/null-link")" = "$before_link" ]
	[ "$(kind "$null")" = "$before" ]
	# No temporary file left beside either.
	[ -z "$(find "$BATS_TEST_TMPDIR" -maxdepth 1 -name '*.tmp-*')" ]
}

@test "-o onto a FIFO, or a link to one, writes the report into the pipe and leaves the FIFO" {
	fifo="$BATS_TEST_TMPDIR/pipe"
	mkfifo "$fifo"
	before=$(kind "$fifo")
	timeout 20 cat "$fifo" > "$BATS_TEST_TMPDIR/got" &
	reader=$!
	run -0 timeout 20 "$BOOTAB" report -o "$fifo" "$camp"
	wait "$reader" || true
	[ "$(kind "$fifo")" = "$before" ]
	[ "$(cat "$BATS_TEST_TMPDIR/got")" = "$want" ]
	ln -s pipe "$BATS_TEST_TMPDIR/pipe-link"
	timeout 20 cat "$fifo" > "$BATS_TEST_TMPDIR/got2" &
	reader=$!
	run -0 timeout 20 "$BOOTAB" report -o "$BATS_TEST_TMPDIR/pipe-link" --format txt "$camp"
	wait "$reader" || true
	[ "$(kind "$fifo")" = "$before" ]
	[ -h "$BATS_TEST_TMPDIR/pipe-link" ]
	[ "$(cat "$BATS_TEST_TMPDIR/got2")" = "$want" ]
}

@test "-o onto a link to a regular file replaces the file, keeps the link; a directory or a link to nothing is refused" {
	printf 'old\n' > "$BATS_TEST_TMPDIR/target.txt"
	ln -s target.txt "$BATS_TEST_TMPDIR/link.txt"
	run -0 "$BOOTAB" report -o "$BATS_TEST_TMPDIR/link.txt" "$camp"
	[ -h "$BATS_TEST_TMPDIR/link.txt" ]
	[ "$(readlink "$BATS_TEST_TMPDIR/link.txt")" = target.txt ]
	[ "$(cat "$BATS_TEST_TMPDIR/target.txt")" = "$want" ]
	mkdir "$BATS_TEST_TMPDIR/dir"
	run -2 "$BOOTAB" report -o "$BATS_TEST_TMPDIR/dir" "$camp"
	[ "$output" = "bootab: cannot write $BATS_TEST_TMPDIR/dir: a directory (name a file)" ]
	[ -d "$BATS_TEST_TMPDIR/dir" ]
	[ -z "$(ls -A "$BATS_TEST_TMPDIR/dir")" ]
	ln -s nowhere "$BATS_TEST_TMPDIR/dangling"
	run -2 "$BOOTAB" report -o "$BATS_TEST_TMPDIR/dangling" "$camp"
	[[ "$output" == "bootab: cannot write $BATS_TEST_TMPDIR/dangling: "* ]]
	[ "$(readlink "$BATS_TEST_TMPDIR/dangling")" = nowhere ]
	[ ! -e "$BATS_TEST_TMPDIR/nowhere" ]
	[ -z "$(find "$BATS_TEST_TMPDIR" -maxdepth 2 -name '*.tmp-*')" ]
}

@test "-o onto a campaign's own files is refused naming the campaign; its report files are allowed" {
	other="$BATS_TEST_TMPDIR/other"
	cp -r "$camp" "$other"
	for f in plan.ini journal passthrough/meta.json translated/meta.json; do
		cp "$camp/$f" "$BATS_TEST_TMPDIR/saved"
		run -2 "$BOOTAB" report --format txt -o "$camp/$f" "$camp"
		[ "$output" = "bootab: -o $camp/$f: inside the campaign directory $camp, where bootab writes only report.txt, report.md, report.json and report.html" ]
		cmp "$camp/$f" "$BATS_TEST_TMPDIR/saved"
		# Another campaign's files, and by a path with .. in it, alike.
		cp "$other/$f" "$BATS_TEST_TMPDIR/saved"
		run -2 "$BOOTAB" report --format txt -o "$other/passthrough/../$f" "$camp"
		[[ "$output" == "bootab: -o $other/passthrough/../$f: inside the campaign directory $other, "* ]]
		cmp "$other/$f" "$BATS_TEST_TMPDIR/saved"
	done
	# A new name in a side directory, a link into the campaign, a name that is no report there.
	run -2 "$BOOTAB" report -o "$camp/passthrough/new.txt" "$camp"
	[ ! -e "$camp/passthrough/new.txt" ]
	ln -s "$camp/plan.ini" "$BATS_TEST_TMPDIR/plan-link.txt"
	run -2 "$BOOTAB" report -o "$BATS_TEST_TMPDIR/plan-link.txt" "$camp"
	[[ "$output" == "bootab: -o $BATS_TEST_TMPDIR/plan-link.txt: inside the campaign directory $camp, "* ]]
	run -2 "$BOOTAB" report --format csv -o "$camp/report.csv" "$camp"
	[ ! -e "$camp/report.csv" ]
	# The campaign's own report files: written as bootab report writes them.
	run -0 "$BOOTAB" report -o "$camp/report.md" "$camp"
	run -0 "$BOOTAB" report -o "$other/report.txt" "$camp"
	[ "$(cat "$other/report.txt")" = "$want" ]
}

@test "snapshot -o into a campaign directory is refused: a side's meta.json stays" {
	cp "$camp/passthrough/meta.json" "$BATS_TEST_TMPDIR/saved"
	run -2 "$BOOTAB" snapshot --root "$BATS_TEST_DIRNAME/../fixtures/sysfs/lab-translated" -o "$camp/passthrough"
	[ "$output" = "bootab: -o $camp/passthrough: inside the campaign directory $camp, where bootab writes only report.txt, report.md, report.json and report.html" ]
	cmp "$camp/passthrough/meta.json" "$BATS_TEST_TMPDIR/saved"
}

# craft SIDE: the lab campaign's side with a metric and unit that are HTML,
# and a version string that tries to close its code span.
craft() {
	python3 - "$camp/$1/meta.json" "$1" <<-'EOT'
	import json, sys
	path, side = sys.argv[1], sys.argv[2]
	d = json.load(open(path))
	m = d["rows"][0]["metrics"][1]
	m["name"] = "randread.<script>alert(1)</script>"
	m["unit"] = "<img src=x onerror=alert(2)>&amp;"
	d["versions"]["tool"] = "1.0`<b>" + side + "</b>"
	json.dump(d, open(path, "w"))
	EOT
}

@test "report.md carries no raw HTML from a box: names and units in cells and the headline escaped, versions in code spans they cannot close" {
	craft passthrough
	craft translated
	run -0 "$BOOTAB" report "$camp"
	# Every < > & outside a code span has its backslash (CommonMark: shown, not parsed).
	# (The legend is the report's own blockquote.)
	run -1 grep -nP '(?<!\\)[<>]|(?<!\\)&' <(grep -v -e '^\*\*versions differ' -e '^> legend: ' "$camp/report.md")
	grep -qF '| randread | randread.\<script\>alert(1)\</script\> (\<img src=x onerror=alert(2)\>\&amp;) |' "$camp/report.md"
	# (one boot per mode: the headline names no metric, only what would test it)
	grep -qF -- '- **passthrough vs translated:** not tested (one boot per mode' "$camp/report.md"
	grep -qxF '**versions differ:** `tool`: translated=``1.0`<b>translated</b>`` passthrough=``1.0`<b>passthrough</b>``' "$camp/report.md"
	# report.html escaped it already; still so.
	run -1 grep -n -e '<script' -e '<img' -e '1.0`<b>' "$camp/report.html"
}

@test "SIGTERM while report replaces its files leaves no .tmp-* file and every report whole" {
	# Each write sleeps 0.3 s at three points (BOOTAB_TEST_WRITE_DELAY_US):
	# a SIGTERM 0.4 to 2.2 s in lands inside one.
	for at in 0.4 1.0 1.6 2.2; do
		BOOTAB_TEST_WRITE_DELAY_US=300000 "$BOOTAB" report "$camp" > /dev/null 2>&1 &
		pid=$!
		sleep "$at"
		kill -TERM "$pid"
		status=0
		wait "$pid" || status=$?
		[ "$status" -eq 143 ]
		run find "$camp" -name '*.tmp-*'
		[ "$output" = "" ]
	done
	# Old or new, never cut: each parses as its format.
	jq -e '.format == "bootab-report"' "$camp/report.json" > /dev/null
	grep -q '^campaign ' "$camp/report.txt"
}

@test "report on a campaign directory it may not write: says so and prints the report; -o still writes" {
	# Another user's directory (as root: run as nobody; else one without w).
	ro=$(mktemp -d /tmp/bootab-ro.XXXXXX)
	chmod 755 "$ro"
	cp -r "$camp" "$ro/c"
	mkdir "$ro/out"
	chmod -R a+rX "$ro/c"
	chmod a-w "$ro/c"
	chmod 777 "$ro/out"
	as=()
	[ "$(id -u)" != 0 ] || as=(runuser -u nobody --)
	printed=$("$BOOTAB" report -o - "$ro/c")
	run -2 --separate-stderr "${as[@]}" "$BOOTAB" report "$ro/c"
	[ "$output" = "$printed" ]
	[ "${stderr_lines[1]}" = "bootab: $ro/c cannot be written: the report is printed, not saved (-o FILE saves it elsewhere)" ]
	run -0 "${as[@]}" "$BOOTAB" report "$ro/c" -o "$ro/out/r.md"
	grep -q '^| side | mode | note |$' "$ro/out/r.md"
	[ -z "$(find "$ro/c" -newer "$ro/out" -o -name '*.tmp-*')" ]
}
