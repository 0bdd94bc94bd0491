# bootab inventory: the device inventory, kernel error and warning lines and
# failed units of this boot (snapshot.sh's records inventory, pci, node,
# netif, kmsg*, units_source, unit_failed; docs/target.md). It runs right
# after snapshot.sh, whose output it completes: a second script, because
# dropbear takes a command of at most 9000 bytes.
# Usage: sh inventory.sh [nolog]
set -u
ROOT=${ROOT-}
LC_ALL=C
export LC_ALL
nolog=
[ "${1-}" = nolog ] && nolog=1

rec() {
	printf '%s' "$1"
	shift
	for field in "$@"; do
		printf '\t%s' "$field"
	done
	printf '\n'
}

first_line() {
	head -c 4096 "$1" 2>/dev/null | head -n 1 | tr -d '\000-\037\177'
}

# The control characters first_line drops; a value holding none of them
# is read with builtins (no fork), one that does goes the long way.
CTL=$(printf '\001\002\003\004\005\006\007\010\011\012\013\014\015\016\017\020\021\022\023\024\025\026\027\030\031\032\033\034\035\036\037\177')

# The one check of every file read under ROOT: inside ROOT once its links
# are resolved, and a regular file (a FIFO would block the read, a device
# stream). Else the script ends naming it; a missing one is just absent.
RR=
[ -z "$ROOT" ] || RR=$(cd "$ROOT" 2>/dev/null && pwd -P) || RR=/nonexistent
HERE=$PWD
inside_root() {
	[ -z "$RR" ] && return 0
	# cd -P resolves a directory and every link on the way to it; a
	# file that is itself a link takes readlink.
	q=
	if [ -d "$1" ]; then
		q=$1
	elif [ ! -h "$1" ]; then
		q=${1%/*}
	fi
	if [ -n "$q" ] && cd -P -- "$q" 2>/dev/null; then
		q=$PWD
		cd "$HERE" || exit 1
	else
		q=$(readlink -f -- "$1" 2>/dev/null)
	fi
	case $q in
	"$RR" | "$RR"/*) return 0 ;;
	esac
	return 1
}
readable() {
	[ -e "$1" ] || return 1
	[ -z "$RR" ] && { [ -r "$1" ]; return; }
	if ! inside_root "$1"; then
		printf "'%s' under the root is a link out of it: refused\\n" "${1#"$ROOT"}" >&2
		exit 5
	fi
	[ ! -d "$1" ] || return 1
	if [ ! -f "$1" ]; then
		printf "'%s' under the root is not a regular file: refused\\n" "${1#"$ROOT"}" >&2
		exit 6
	fi
	[ -r "$1" ]
}

# L: the last name of a link's target, or "-" when it is no link. A link
# to a directory (every sysfs link this reads) is resolved by cd -P, with
# no process; readlink only for one that does not resolve.
link_of() {
	L=
	[ -h "$1" ] || { L=-; return 0; }
	if cd -P -- "$1" 2>/dev/null; then
		L=${PWD##*/}
		cd "$HERE" || exit 1
	else
		L=$(readlink "$1" 2>/dev/null) || L=
		L=${L##*/}
	fi
	case $L in *[$CTL]*) L=$(printf '%s' "$L" | tr -d '\000-\037\177') ;; esac
	[ -n "$L" ] || L=-
}

# L: the value of KEY=VALUE in the first 64 lines of a uevent file, read
# with builtins; a line with a control character or over 4 KiB the long way.
uevent_of() {
	L=
	readable "$1" || return 0
	n=0
	while [ "$n" -lt 64 ] && { IFS= read -r line || [ -n "$line" ]; }; do
		n=$((n + 1))
		case $line in
		"$2"=*)
			L=${line#"$2"=}
			break
			;;
		esac
	done 2>/dev/null <"$1"
	if [ ${#L} -le 4096 ]; then
		case $L in *[$CTL]*) ;; *) return 0 ;; esac
	fi
	L=$(head -c 4096 "$1" 2>/dev/null | sed -n "s/^$2=//p" | head -n 1 | tr -d '\000-\037\177')
}

# L: first_line of a readable file ("" when it is not).
line_of() {
	L=
	readable "$1" || return 0
	IFS= read -r L 2>/dev/null <"$1"
	[ ${#L} -le 4096 ] || L=$(first_line "$1")
	case $L in *[$CTL]*) L=$(first_line "$1") ;; esac
}

# L: that, or "-" when empty.
field_of() {
	line_of "$1"
	[ -n "$L" ] || L=-
}

# The device inventory: what users of this boot depend on, read so that a
# device that lost its driver, a node or an interface that went away shows.
rec inventory 1
for d in "$ROOT"/sys/bus/pci/devices/*; do
	[ -e "$d" ] || [ -L "$d" ] || continue
	link_of "$d/iommu_group"
	group=$L
	field_of "$d/vendor"
	vendor=$L
	field_of "$d/device"
	device=$L
	field_of "$d/class"
	cls=$L
	link_of "$d/driver"
	rec pci "${d##*/}" "$vendor" "$device" "$cls" "$L" "$group"
done
# Device nodes, from the class entries udev makes them from (DEVNAME in
# uevent, Documentation/ABI/testing/sysfs-uevent). Loop, RAM and zram disks
# and network block devices come and go with their users: left out.
for class in accel drm nvme block vfio; do
	for e in "$ROOT/sys/class/$class"/*; do
		[ -d "$e" ] || continue
		case $class:${e##*/} in
		block:loop* | block:ram* | block:zram* | block:nbd*) continue ;;
		esac
		uevent_of "$e/uevent" DEVNAME
		devname=$L
		[ -n "$devname" ] || continue
		link_of "$e/device"
		rec node "$class" "${e##*/}" "$devname" "$L"
	done
done
for e in "$ROOT"/sys/class/net/*; do
	[ -d "$e" ] || continue
	# carrier cannot be read on an interface that is down (EINVAL).
	line_of "$e/carrier"
	carrier=$L
	case $carrier in
	0 | 1) ;;
	*) carrier=- ;;
	esac
	field_of "$e/operstate"
	state=$L
	link_of "$e/device"
	rec netif "${e##*/}" "$state" "$carrier" "$L"
done

# Kernel-log lines at error and warning level, with the kernel's own
# priorities: dmesg -r prints each record as "<LEVEL>[SECONDS] TEXT"
# (facility 0 only: userspace writes to /dev/kmsg with another facility).
# Without dmesg (or its permission) the source is absent: nothing is judged.
ksource=absent
kraw=
if [ -n "$nolog" ]; then
	ksource=skipped
elif [ -n "$ROOT" ]; then
	if readable "$ROOT/var/log/dmesg"; then
		kraw=$(head -c 16777216 "$ROOT/var/log/dmesg")
		ksource='file'
	fi
else
	if command -v dmesg >/dev/null 2>&1; then
		kraw=$(dmesg -r 2>/dev/null | head -c 67108864) || kraw=
		[ -n "$kraw" ] && ksource=dmesg
	fi
fi
rec kmsg_source "$ksource"
if [ "$ksource" != absent ] && [ "$ksource" != skipped ]; then
	# One pass: tabs as spaces, other controls dropped, records of levels 0 to 4, at most 2000, and their count.
	printf '%s\n' "$kraw" | awk 'BEGIN {
		for (i = 1; i < 32; i++)
			if (i != 9 && i != 10)
				ctl = ctl sprintf("%c", i)
		ctl = "[" ctl sprintf("%c", 127) "]"
	}
	{
		gsub(/\t/, " ")
		gsub(ctl, "")
		if (match($0, /^<[0-4]>\[ *[0-9]+\.[0-9]+\] ?/)) {
			t = substr($0, 4, RLENGTH - 3)
			sub(/^\[ */, "", t)
			sub(/\] ?$/, "", t)
			l = "kmsg\t" substr($0, 2, 1) "\t" t "\t" substr($0, RLENGTH + 1)
		} else if ($0 ~ /^<[0-4]>/) {
			l = "kmsg\t" substr($0, 2, 1) "\t-\t" substr($0, 4)
		} else {
			next
		}
		if (++n <= 2000)
			print l
	}
	END { print "kmsg_count\t" n + 0 }'
fi

# Failed units (systemctl(1) list-units --failed), where systemd runs
# (sd_booted(3): /run/systemd/system exists).
usource=absent
if [ -n "$ROOT" ]; then
	if readable "$ROOT/var/log/failed-units"; then
		usource='file'
		units=$(head -c 1048576 "$ROOT/var/log/failed-units")
	fi
elif [ -d /run/systemd/system ] && command -v systemctl >/dev/null 2>&1; then
	usource=systemctl
	units=$(systemctl list-units --failed --plain --no-legend --no-pager --full 2>/dev/null |
		head -c 1048576)
fi
rec units_source "$usource"
if [ "$usource" != absent ]; then
	printf '%s\n' "$units" | tr -d '\000-\010\013-\037\177' | while read -r unit rest; do
		[ -n "$unit" ] && rec unit_failed "$unit"
	done
fi
exit 0
