#!/bin/sh
# Stands in for the firmware, the boot loader and the kernel of a --root
# tree when bootab run (target = local) reboots it: the tree "boots" the
# default BLS entry. Its /proc and /sys become those captured on the QEMU
# lab booted with the same IOMMU args (tests/fixtures/sysfs/lab-*), its
# /proc/cmdline the entry's options, its kernel release the entry's
# `version` line (else what its vmlinuz-RELEASE name says; else the
# captured one), its boot_id a new one; then bootab
# gets SIGTERM, as from a shutdown. Each boot is logged in TREE/boots.log
# (kind, boot_id, release).
# Usage (as BOOTAB_TEST_LOCAL_REBOOT): sh fake-boot.sh TREE FIXTURES
set -eu
tree=$1
fixtures=$2
entries=$tree/boot/loader/entries
default=$(sed -n 's/^default[[:space:]]*//p' "$tree/boot/loader/loader.conf")
opts=$(sed -n 's/^options[[:space:]]*//p' "$entries/$default")
case " $opts " in
*" iommu=pt "*) kind=passthrough ;;
*" iommu.strict=1 "*) kind=strict ;;
*" intel_iommu=off "*) kind=off ;;
*) kind=translated ;;
esac
rm -rf "$tree/proc" "$tree/sys"
cp -R "$fixtures/lab-$kind/proc" "$fixtures/lab-$kind/sys" "$tree/"
printf 'initrd=\\initrd %s\n' "$opts" >"$tree/proc/cmdline"
release=$(sed -n 's/^version[[:space:]]*//p' "$entries/$default")
[ -n "$release" ] || release=$(sed -n 's|^linux[[:space:]].*/vmlinuz-||p' "$entries/$default")
[ -z "$release" ] || printf '%s\n' "$release" >"$tree/proc/sys/kernel/osrelease"
cat /proc/sys/kernel/random/uuid >"$tree/proc/sys/kernel/random/boot_id"
printf '%s %s %s\n' "$kind" "$(cat "$tree/proc/sys/kernel/random/boot_id")" \
	"$(cat "$tree/proc/sys/kernel/osrelease")" >>"$tree/boots.log"
kill -TERM "$PPID"
