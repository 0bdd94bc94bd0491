# bootab oneshot: makes the boot loader boot ENTRY once, on the next boot
# only; the boot after that returns to the default entry.
# Usage: sh oneshot.sh ENTRY
# GRUB (a grub.cfg and grubenv in /boot/grub, or in /boot/grub2 as Fedora
# and RHEL keep them, and no systemd-boot that announced itself in
# LoaderInfo): ENTRY is a menu entry id, title or number of grub.cfg, or
# SUBMENU>ENTRY, or, where grub.cfg reads the BLS entries (blscfg), the id of
# an entry in /boot/loader/entries; grub-reboot (grub2-reboot) sets
# next_entry in grubenv, which both distributions' grub.cfg uses once and
# clears before it boots the entry. Prints "oneshot<TAB>TOOL<TAB>ENTRY".
# systemd-boot (ENTRY: a loader entry id, "lab.conf"):
# uses bootctl set-oneshot when present, else writes the EFI variable
# LoaderEntryOneShot (Boot Loader Interface, systemd vendor GUID
# 4a67b082-0a4c-41cf-b6c7-440b29bb8c4f) through efivarfs: 4 bytes of
# attributes (0x07: non-volatile, boot and runtime access, little endian),
# then the id in UTF-16LE with a terminating NUL, in a single write.
# Prints "oneshot<TAB>bootctl|efivarfs<TAB>ENTRY".
set -u
ROOT=${ROOT-}
if [ $# -ne 1 ]; then
	echo "usage: oneshot.sh ENTRY" >&2
	exit 2
fi
entry=$1
case $entry in
'' | *[!A-Za-z0-9._@+\>-]*)
	echo "oneshot.sh: entry id '$entry' has characters other than A-Z a-z 0-9 . _ @ + - >" >&2
	exit 2
	;;
esac
cfg='' grubenv='' grub=grub
for d in grub grub2; do
	if [ -f "$ROOT/boot/$d/grub.cfg" ] && [ -f "$ROOT/boot/$d/grubenv" ]; then
		cfg=$ROOT/boot/$d/grub.cfg grubenv=$ROOT/boot/$d/grubenv grub=$d
		break
	fi
done
# grub2-reboot and grub2-editenv where the tree is /boot/grub2 and they exist.
reboot_tool=grub-reboot editenv=grub-editenv
if [ "$grub" = grub2 ]; then
	command -v grub2-reboot >/dev/null 2>&1 && reboot_tool=grub2-reboot
	command -v grub2-editenv >/dev/null 2>&1 && editenv=grub2-editenv
fi
if [ -n "$cfg" ] &&
	[ ! -e "$ROOT/sys/firmware/efi/efivars/LoaderInfo-4a67b082-0a4c-41cf-b6c7-440b29bb8c4f" ]; then
	# Every part must name an entry or submenu of grub.cfg (or of the
	# custom.cfg it sources): an id or title in quotes, or a number.
	rest=$entry
	while :; do
		part=${rest%%>*}
		case $part in
		'' ) echo "oneshot.sh: empty part in GRUB entry '$entry'" >&2; exit 2 ;;
		*[!0-9]*)
			# A BLS entry of its own (not inside a submenu) where grub.cfg runs blscfg.
			if [ "$part" = "$entry" ] && [ -f "$ROOT/boot/loader/entries/$part.conf" ] &&
				grep -qE '^[[:space:]]*blscfg([[:space:]]|$)' "$cfg"; then
				:
			elif ! cat "$cfg" "${cfg%/*}/custom.cfg" 2>/dev/null | grep -E '^[[:space:]]*(menuentry|submenu)[[:space:]]' |
				grep -qF -e "'$part'" -e "--id $part " -e "--id=$part "; then
				echo "oneshot.sh: no GRUB menu entry or submenu '$part' in $cfg" >&2
				exit 3
			fi
			;;
		esac
		[ "$rest" = "${rest#*>}" ] && break
		rest=${rest#*>}
	done
	if [ -z "$ROOT" ] && command -v "$reboot_tool" >/dev/null 2>&1; then
		"$reboot_tool" "$entry" || { echo "oneshot.sh: $reboot_tool failed" >&2; exit 8; }
	elif command -v "$editenv" >/dev/null 2>&1; then
		"$editenv" "$grubenv" set "next_entry=$entry" || { echo "oneshot.sh: $editenv failed" >&2; exit 8; }
	else
		echo "oneshot.sh: neither $reboot_tool nor $editenv is installed" >&2
		exit 127
	fi
	if ! "$editenv" "$grubenv" list 2>/dev/null | grep -qxF "next_entry=$entry"; then
		echo "oneshot.sh: $grubenv does not hold next_entry=$entry after $reboot_tool" >&2
		exit 8
	fi
	printf 'oneshot\t%s\t%s\n' "$reboot_tool" "$entry"
	exit 0
fi
case $entry in
*\>*)
	echo "oneshot.sh: '$entry' is a GRUB entry path, and this box does not boot through GRUB" >&2
	exit 2
	;;
esac
if [ -z "$ROOT" ] && command -v bootctl >/dev/null 2>&1; then
	if bootctl set-oneshot "$entry"; then
		printf 'oneshot\tbootctl\t%s\n' "$entry"
		exit 0
	fi
	echo "oneshot.sh: bootctl set-oneshot failed, writing the variable directly" >&2
fi
dir=$ROOT/sys/firmware/efi/efivars
var=$dir/LoaderEntryOneShot-4a67b082-0a4c-41cf-b6c7-440b29bb8c4f
if [ ! -d "$dir" ]; then
	echo "oneshot.sh: no efivarfs at /sys/firmware/efi/efivars (not booted with UEFI, or not mounted)" >&2
	exit 3
fi
tmp=$(mktemp) || exit 4
trap 'rm -f "$tmp"' EXIT
{
	printf '\007\000\000\000'
	rest=$entry
	while [ -n "$rest" ]; do
		c=${rest%"${rest#?}"}
		rest=${rest#?}
		printf '%s\000' "$c"
	done
	printf '\000\000'
} >"$tmp"
if [ -e "$var" ]; then
	# Already asked for (a retried reboot): nothing to change, and no need
	# for chattr, which a minimal system may lack.
	if cmp -s "$tmp" "$var"; then
		printf 'oneshot\tefivarfs\t%s\n' "$entry"
		exit 0
	fi
	# efivarfs marks existing variables immutable; lift that before replacing.
	if command -v chattr >/dev/null 2>&1; then
		chattr -i "$var" 2>/dev/null || true
	fi
	if ! rm -f "$var" 2>/dev/null || [ -e "$var" ]; then
		echo "oneshot.sh: cannot replace $var (immutable, and no working chattr -i)" >&2
		exit 4
	fi
fi
# cat copies the few bytes in one write(), which efivarfs requires.
if ! cat "$tmp" >"$var"; then
	echo "oneshot.sh: writing $var failed" >&2
	exit 4
fi
printf 'oneshot\tefivarfs\t%s\n' "$entry"
