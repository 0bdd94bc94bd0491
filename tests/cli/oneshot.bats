#!/usr/bin/env bats
# src/target/oneshot.sh on a tree (ROOT): the LoaderEntryOneShot variable
# it writes through efivarfs, byte for byte, under dash and busybox sh, and
# next_entry in GRUB's grubenv (grub-editenv). (The labs boot both for
# real: lab-verify.bats, lab-debian.bats.)

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
	[ "$output" = "oneshot.sh: entry id 'x;reboot' has characters other than A-Z a-z 0-9 . _ @ + - >" ]
	run -2 oneshot dash ''
	run -2 oneshot dash
	[ "$output" = "usage: oneshot.sh ENTRY" ]
	rm -r "$root/sys/firmware/efi/efivars"
	run -3 oneshot busybox lab.conf
	[ "$output" = "oneshot.sh: no efivarfs at /sys/firmware/efi/efivars (not booted with UEFI, or not mounted)" ]
	[ ! -e "$root/$var" ]
}

# A GRUB tree: grub.cfg as Debian's update-grub writes it (the entry lines
# of the Debian lab guest's), and an environment block.
grub_tree() {
	mkdir -p "$root/boot/grub"
	cat >"$root/boot/grub/grub.cfg" <<'CFG'
### BEGIN /etc/grub.d/10_linux ###
menuentry 'Debian GNU/Linux' --class debian --class gnu-linux --class gnu --class os $menuentry_id_option 'gnulinux-simple-0b0a' {
	linux	/boot/vmlinuz-6.12.117+deb12-amd64 root=UUID=0b0a ro console=ttyS0
}
submenu 'Advanced options for Debian GNU/Linux' $menuentry_id_option 'gnulinux-advanced-0b0a' {
	menuentry 'Debian GNU/Linux, with Linux 6.1.0-57-amd64' --class debian $menuentry_id_option 'gnulinux-6.1.0-57-amd64-advanced-0b0a' {
		linux	/boot/vmlinuz-6.1.0-57-amd64 root=UUID=0b0a ro console=ttyS0
	}
}
### BEGIN /etc/grub.d/41_custom ###
if [ -f  ${config_directory}/custom.cfg ]; then
  source ${config_directory}/custom.cfg
fi
CFG
	grub-editenv "$root/boot/grub/grubenv" create
}

@test "GRUB: next_entry in grubenv names the entry, submenu path and all, under dash and busybox sh" {
	command -v grub-editenv >/dev/null || skip "grub-editenv not installed (grub-common)"
	grub_tree
	for sh in dash busybox; do
		run -0 oneshot "$sh" 'gnulinux-advanced-0b0a>gnulinux-6.1.0-57-amd64-advanced-0b0a'
		[ "$output" = $'oneshot\tgrub-reboot\tgnulinux-advanced-0b0a>gnulinux-6.1.0-57-amd64-advanced-0b0a' ]
		run -0 grub-editenv "$root/boot/grub/grubenv" list
		[ "$output" = "next_entry=gnulinux-advanced-0b0a>gnulinux-6.1.0-57-amd64-advanced-0b0a" ]
	done
	# An entry of custom.cfg (sourced by grub.cfg at boot) counts too.
	printf "menuentry 'test' --id bootab-hang {\n}\n" >"$root/boot/grub/custom.cfg"
	run -0 oneshot dash bootab-hang
	[ "$(grub-editenv "$root/boot/grub/grubenv" list)" = "next_entry=bootab-hang" ]
	# A number is GRUB's too, unchecked.
	run -0 oneshot dash '1>0'
}

@test "GRUB: an entry grub.cfg does not have is refused, grubenv untouched" {
	command -v grub-editenv >/dev/null || skip "grub-editenv not installed (grub-common)"
	grub_tree
	cp "$root/boot/grub/grubenv" "$BATS_TEST_TMPDIR/env"
	run -3 oneshot dash 'gnulinux-advanced-0b0a>gnulinux-9.9-advanced-0b0a'
	[ "$output" = "oneshot.sh: no GRUB menu entry or submenu 'gnulinux-9.9-advanced-0b0a' in $root/boot/grub/grub.cfg" ]
	run -2 oneshot dash 'gnulinux-advanced-0b0a>'
	[ "$output" = "oneshot.sh: empty part in GRUB entry 'gnulinux-advanced-0b0a>'" ]
	cmp "$root/boot/grub/grubenv" "$BATS_TEST_TMPDIR/env"
	# On a systemd-boot box an entry path is no entry id.
	rm -r "$root/boot/grub"
	run -2 oneshot dash 'a>b'
	[ "$output" = "oneshot.sh: 'a>b' is a GRUB entry path, and this box does not boot through GRUB" ]
}

# Fedora's tree (tests/fixtures/boot/bls-fedora: BLS entries, grubenv in
# /boot/grub2) with the grub.cfg its grub2-mkconfig writes since Fedora 30:
# the entries are not menuentry lines but read at boot by blscfg.
@test "GRUB in /boot/grub2 with BLS entries (Fedora): next_entry names the entry, grub/ is not needed" {
	command -v grub-editenv >/dev/null || skip "grub-editenv not installed (grub-common)"
	cp -r "$BATS_TEST_DIRNAME/../fixtures/boot/bls-fedora/boot" "$root/"
	printf '### BEGIN /etc/grub.d/10_linux ###\ninsmod blscfg\nblscfg\n### END /etc/grub.d/10_linux ###\n' \
		>"$root/boot/grub2/grub.cfg"
	id=2b7ea7f7d3c64e5fa2ae4e0c3a1f5b61-5.0.9-301.fc30.x86_64
	for sh in dash busybox; do
		run -0 oneshot "$sh" "$id"
		[ "$output" = $'oneshot\tgrub-reboot\t'"$id" ]
		run -0 grub-editenv "$root/boot/grub2/grubenv" list
		[[ "$output" == *$'\n'"next_entry=$id"* ]]
		[[ "$output" == *"saved_entry=2b7ea7f7d3c64e5fa2ae4e0c3a1f5b61-6.5.6-300.fc39.x86_64"* ]]
	done
	# The EFI variable is not what GRUB reads: it stays unwritten.
	[ ! -e "$root/$var" ]
	# An id with no entry file is refused, and so is a BLS id where grub.cfg has no blscfg.
	run -3 oneshot dash 2b7ea7f7d3c64e5fa2ae4e0c3a1f5b61-9.9.9
	[ "$output" = "oneshot.sh: no GRUB menu entry or submenu '2b7ea7f7d3c64e5fa2ae4e0c3a1f5b61-9.9.9' in $root/boot/grub2/grub.cfg" ]
	printf 'menuentry "x" {\n}\n' >"$root/boot/grub2/grub.cfg"
	run -3 oneshot dash "$id"
}
