#!/bin/sh
# Stands in for the firmware, the boot loader and the kernel of a --root
# tree when bootab run (target = local) reboots it: the tree "boots" the
# default BLS entry, or once the entry named in the EFI variable
# LoaderEntryOneShot when the tree has one, which it then deletes, as
# systemd-boot does. Its /proc and /sys become those captured on the QEMU
# lab booted with the same IOMMU args (tests/fixtures/sysfs/lab-*; a tree's
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
entry=$(sed -n 's/^default[[:space:]]*//p' "$tree/boot/loader/loader.conf")
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
if [ -n "$keep" ]; then
	mkdir -p "${efivars%/*}"
	mv "$keep" "$efivars"
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
