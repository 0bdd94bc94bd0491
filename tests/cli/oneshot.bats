#!/usr/bin/env bats
# src/target/oneshot.sh on a tree (ROOT): the LoaderEntryOneShot variable
# it writes through efivarfs, byte for byte, under dash and busybox sh.
# (The lab boots it for real: lab-verify.bats.)

bats_require_minimum_version 1.5.0

load helpers/target

script="$BATS_TEST_DIRNAME/../../src/target/oneshot.sh"
var=sys/firmware/efi/efivars/LoaderEntryOneShot-4a67b082-0a4c-41cf-b6c7-440b29bb8c4f

setup() {
	root="$BATS_TEST_TMPDIR/root"
	mkdir -p "$root/sys/firmware/efi/efivars"
}

# oneshot SHELL ARGS...: runs the script as bootab does, with ROOT set
oneshot() {
	local sh=$1
	shift
	use_shell "$sh"
	ROOT=$root "$BOOTAB_TARGET_SH" "$script" "$@"
}

@test "the variable: attributes 0x07, the id in UTF-16LE, a NUL" {
	for sh in dash busybox; do
		rm -f "$root/$var"
		run -0 oneshot "$sh" bootab-test.conf
		[ "$output" = $'oneshot\tefivarfs\tbootab-test.conf' ]
		diff -u - <(od -An -tx1 -v "$root/$var") <<'OD'
 07 00 00 00 62 00 6f 00 6f 00 74 00 61 00 62 00
 2d 00 74 00 65 00 73 00 74 00 2e 00 63 00 6f 00
 6e 00 66 00 00 00
OD
	done
}

@test "asking again for the same entry leaves the variable as it is" {
	run -0 oneshot dash lab.conf
	touch -d 2001-02-03T04:05:06 "$root/$var"
	run -0 oneshot busybox lab.conf
	[ "$output" = $'oneshot\tefivarfs\tlab.conf' ]
	# not rewritten: efivarfs keeps variables immutable, and lifting that
	# needs chattr, which a minimal system may not have
	[ "$(stat -c %y "$root/$var")" = "2001-02-03 04:05:06.000000000 +0000" ]
}

@test "another entry replaces the variable" {
	run -0 oneshot dash lab.conf
	run -0 oneshot dash b.conf
	[ "$(od -An -tx1 -v "$root/$var" | tr -d ' \n')" = "0700000062002e0063006f006e0066000000" ]
}

@test "bad ids and a missing efivarfs are refused with one line" {
	run -2 oneshot dash 'x;reboot'
	[ "$output" = "oneshot.sh: entry id 'x;reboot' has characters other than A-Z a-z 0-9 . _ @ + -" ]
	run -2 oneshot dash ''
	run -2 oneshot dash
	[ "$output" = "usage: oneshot.sh ENTRY" ]
	rm -r "$root/sys/firmware/efi/efivars"
	run -3 oneshot busybox lab.conf
	[ "$output" = "oneshot.sh: no efivarfs at /sys/firmware/efi/efivars (not booted with UEFI, or not mounted)" ]
	[ ! -e "$root/$var" ]
}
