#!/usr/bin/env bash
# Makes a named lab box (bootab lab --name NAME): one more guest beside the
# lab in BOOTAB_LAB_DIR, from the same build. BOOTAB_LAB_BOX is the box's
# directory (BOOTAB_LAB_DIR/boxes/NAME), BOOTAB_LAB_BOX_NAME its name.
#
# The box gets a copy of each disk the guest writes (the ESP with its boot
# entries, the firmware's variables, the data disk), sparse and, where the
# file system can, copy-on-write (cp --reflink=auto), and its own
# machine-id(5) on its ESP, so a fleet sees two machines. What is only read
# is linked: the controller key and known_hosts (the guest's host key is
# the lab's), the kernel list, the kernel and initramfs. A box keeps its
# disks across up and down, as a machine does; it is made anew from the lab
# when the lab was rebuilt since (its stamp differs) or with --force.
# Disks are copied only while the lab itself is down
# (BOOTAB_LAB_RUNNING=1 says it is up): a running guest's disks are not a
# consistent copy.
set -euo pipefail

lab=${BOOTAB_LAB_DIR:?BOOTAB_LAB_DIR is the lab directory}
box=${BOOTAB_LAB_BOX:?BOOTAB_LAB_BOX is the box directory}
name=${BOOTAB_LAB_BOX_NAME:?BOOTAB_LAB_BOX_NAME is the box name}
force=0
[ "${1-}" = --force ] && force=1

say() { printf 'bootab lab: %s\n' "$*" >&2; }
die() { say "$*"; exit 1; }

[ ! -e "$lab/guest" ] ||
	die "named boxes are busybox guests: the Debian guest keeps its machine-id on its root file system"
for f in vmlinuz initrd esp.img vars.fd data.img stamp kernel-release kernels keys/id_ed25519 known_hosts; do
	[ -e "$lab/$f" ] || die "the lab in $lab is not built (no $f)"
done
if [ "$force" = 0 ] && [ -f "$box/stamp" ] && cmp -s "$lab/stamp" "$box/stamp" && [ -f "$box/name" ]; then
	exit 0
fi
[ "${BOOTAB_LAB_RUNNING-}" != 1 ] ||
	die "the lab in $lab is running: its disks are copied for box $name only while it is down (bootab lab down)"
command -v mcopy >/dev/null || die "mcopy (mtools) is needed to give box $name its machine-id"

start=$(date +%s%N)
mkdir -p "$box"
rm -f "$box/stamp"
for f in esp.img vars.fd data.img; do
	cp --sparse=always --reflink=auto "$lab/$f" "$box/$f.tmp"
done
# machine-id(5): the box's own, made once and kept; the guest's /init
# installs it from the ESP on every boot.
id=$box/machine-id
if ! grep -qxE '[0-9a-f]{32}' "$id" 2>/dev/null; then
	od -An -tx1 -N16 /dev/urandom | tr -d ' \n' >"$id.tmp"
	echo >>"$id.tmp"
	grep -qxE '[0-9a-f]{32}' "$id.tmp" || die "cannot make a machine id from /dev/urandom"
	mv "$id.tmp" "$id"
fi
mcopy -o -i "$box/esp.img.tmp" "$id" ::/machine-id
for f in esp.img vars.fd data.img; do
	mv "$box/$f.tmp" "$box/$f"
done
# The box sits at LAB/boxes/NAME: links relative to it survive a moved lab.
for f in vmlinuz initrd kernel-release kernels keys known_hosts; do
	rm -rf "${box:?}/$f"
	ln -s "../../$f" "$box/$f"
done
printf '%s\n' "$name" >"$box/name.tmp" && mv "$box/name.tmp" "$box/name"
cp "$lab/stamp" "$box/stamp.tmp" && mv "$box/stamp.tmp" "$box/stamp"
end=$(date +%s%N)
say "box $name made from $lab in $(( (end - start) / 1000000 )) ms: $(du -sk --apparent-size "$box" | cut -f1) KiB of disks, $(du -sk "$box" | cut -f1) KiB on disk"
