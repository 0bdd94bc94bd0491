#!/bin/sh
# Stands in for the firmware, the boot loader and the kernel of a --root
# tree when bootab run (target = local) reboots it: the tree "boots" the
# default BLS entry, or once the entry named in the EFI variable
# LoaderEntryOneShot when the tree has one, which it then deletes, as
# systemd-boot does; a tree with /boot/grub2/grubenv and no loader.conf
# boots as Fedora's GRUB does (next_entry once, else saved_entry). Its /proc and /sys become those captured on the QEMU
# lab booted with the same IOMMU args (tests/fixtures/sysfs/lab-*; with
# nosuchparam=1, lab-refused-6.1 and its kernel log; a tree's
# sys/firmware/efi/efivars is kept), its /proc/cmdline the entry's options,
# its kernel release the entry's `version` line (else what its
# vmlinuz-RELEASE name says; else the captured one), its boot_id a new one;
# then bootab gets SIGTERM, as from a shutdown. Each boot is logged in
# TREE/boots.log: kind, boot_id, entry, release.
# Usage (as BOOTAB_TEST_LOCAL_REBOOT): sh fake-boot.sh TREE FIXTURES
set -eu
tree=$1
fixtures=$2
entries=$tree/boot/loader/entries
efivars=$tree/sys/firmware/efi/efivars
oneshot=$efivars/LoaderEntryOneShot-4a67b082-0a4c-41cf-b6c7-440b29bb8c4f
grubenv=$tree/boot/grub2/grubenv
if [ ! -f "$tree/boot/loader/loader.conf" ] && [ -f "$grubenv" ]; then
	# GRUB reading the BLS entries (blscfg; an entry's id is its file name
	# without .conf): next_entry once, cleared before it boots as
	# 00_header's save_env does, else saved_entry.
	entry=$(sed -n 's/^next_entry=//p' "$grubenv")
	if [ -n "$entry" ]; then
		body=$(grep -v -e '^#' -e '^next_entry=' "$grubenv" || true)
		printf '# GRUB Environment Block\n%s\n' "$body" >"$grubenv.new"
		n=$(wc -c <"$grubenv.new")
		head -c $((1024 - n)) /dev/zero | tr '\0' '#' >>"$grubenv.new"
		mv "$grubenv.new" "$grubenv"
	else
		entry=$(sed -n 's/^saved_entry=//p' "$grubenv")
	fi
	entry=$entry.conf
else
	entry=$(sed -n 's/^default[[:space:]]*//p' "$tree/boot/loader/loader.conf")
fi
if [ -f "$oneshot" ]; then
	# 4 bytes of attributes, then the entry id in UTF-16LE (ASCII here).
	entry=$(tail -c +5 "$oneshot" | tr -d '\000')
	rm -f "$oneshot"
fi
opts=$(sed -n 's/^options[[:space:]]*//p' "$entries/$entry")
case " $opts " in
*" iommu=pt "*) kind=passthrough ;;
*" iommu.strict=1 "*) kind=strict ;;
*" intel_iommu=off "*) kind=off ;;
*" nosuchparam=1 "*) kind=refused-6.1 ;;
*) kind=translated ;;
esac
keep=
if [ -d "$efivars" ]; then
	keep=$tree/efivars.kept
	rm -rf "$keep"
	mv "$efivars" "$keep"
fi
rm -rf "$tree/proc" "$tree/sys"
cp -R "$fixtures/lab-$kind/proc" "$fixtures/lab-$kind/sys" "$tree/"
# The boot whose kernel refused args: its kernel log too.
[ "$kind" != refused-6.1 ] || cp "$fixtures/lab-$kind/var/log/dmesg" "$tree/var/log/dmesg"
if [ -n "$keep" ]; then
	mkdir -p "${efivars%/*}"
	mv "$keep" "$efivars"
fi
# A tree's RAPL zones (TREE/powercap, tests/fixtures/powercap) are the
# hardware's counters: the same across its boots.
if [ -d "$tree/powercap" ]; then
	mkdir -p "$tree/sys/class"
	rm -rf "$tree/sys/class/powercap"
	ln -s ../../powercap "$tree/sys/class/powercap"
fi
printf 'initrd=\\initrd %s\n' "$opts" >"$tree/proc/cmdline"
release=$(sed -n 's/^version[[:space:]]*//p' "$entries/$entry")
[ -n "$release" ] || release=$(sed -n 's|^linux[[:space:]].*/vmlinuz-||p' "$entries/$entry")
[ -z "$release" ] || printf '%s\n' "$release" >"$tree/proc/sys/kernel/osrelease"
cat /proc/sys/kernel/random/uuid >"$tree/proc/sys/kernel/random/boot_id"
printf '%s %s %s %s
' "$kind" "$(cat "$tree/proc/sys/kernel/random/boot_id")" "$entry" \
	"$(cat "$tree/proc/sys/kernel/osrelease")" >>"$tree/boots.log"
kill -TERM "$PPID"
