# bootab snapshot: what this boot is, read from procfs and sysfs.
#
# Usage: sh snapshot.sh [nolog] [param:MODULE.PARAM]... [file:/sys/PATH]...
# nolog: leave the kernel log out (log_source skipped).
# ROOT (default empty) is prefixed to every path read (/proc, /sys, /etc,
# /var), so the same script reads a captured tree.
#
# Output: one record per line, fields separated by one TAB, the first
# field naming the record. Values never hold a TAB, a newline or another
# control character (C0, DEL, C1 in UTF-8: they are removed here), and every file is read with
# a bounded read. Records, in this order:
#   bootab-snapshot 1              format version, always first
#   time VALUE                     the target's clock (date +%Y-%m-%dT%H:%M:%S%z)
#   boot_id VALUE | kernel VALUE | hostname VALUE | cmdline VALUE | loadavg VALUE
#   machine_id VALUE               /etc/machine-id, else /var/lib/dbus/machine-id
#                                  (first line, as read; absent when neither is readable)
#   governor POLICY VALUE          one per cpufreq policy
#   thermal ZONE TYPE MILLIDEGREES one per thermal zone
#   vuln NAME VALUE                one per /sys/devices/system/cpu/vulnerabilities entry
#   param MODULE.PARAM VALUE       a module parameter asked for, or
#   param_absent MODULE.PARAM
#   file PATH VALUE                a file asked for (first line), or
#   file_absent PATH
#   iommu_class NAME               one per /sys/class/iommu entry
#   group N TYPE                   one per IOMMU group, then its devices:
#   device N NAME BUS VENDOR DEVICE CLASS DRIVER   ("-" where absent)
#   log_source journalctl|dmesg|file|absent|skipped
#   log LINE                       kernel-log lines about the IOMMU (at most 2000)
#   log_count N                    how many such lines the log held
#   end                            always last: the output is complete
set -u
ROOT=${ROOT-}
LC_ALL=C
export LC_ALL

# Prints a record: its fields joined by TABs.
rec() {
	printf '%s' "$1"
	shift
	for field in "$@"; do
		printf '\t%s' "$field"
	done
	printf '\n'
}

# C1 controls in UTF-8 (U+0080-U+009F; U+009B is CSI to many terminals), as a sed command.
C1_STRIP="s/$(printf '\302')[$(printf '\200')-$(printf '\237')]//g"

# With a ROOT (a captured tree), every path read must resolve inside it: a
# symlink in the tree (absolute, or climbing out with ..) never makes this
# script read a file of the machine it runs on.
REAL_ROOT=
if [ -n "$ROOT" ]; then
	REAL_ROOT=$(cd "$ROOT" 2>/dev/null && pwd -P) || REAL_ROOT=/nonexistent-root
fi
inside_root() {
	[ -z "$REAL_ROOT" ] && return 0
	resolved=$(readlink -f -- "$1" 2>/dev/null) || return 1
	case $resolved in
	"$REAL_ROOT" | "$REAL_ROOT"/*) return 0 ;;
	esac
	return 1
}

# Whether a file can be read: readable, inside ROOT, and with a ROOT a
# regular file (a FIFO in a tree would block the read).
readable() {
	[ -r "$1" ] && inside_root "$1" && { [ -z "$REAL_ROOT" ] || [ -f "$1" ]; }
}

# The first line of a file, at most 4096 bytes, without control characters.
# Nothing from a path outside ROOT, nor from anything but a regular file (a
# FIFO would block the read).
first_line() {
	inside_root "$1" || return 0
	[ -z "$REAL_ROOT" ] || [ -f "$1" ] || return 0
	head -c 4096 "$1" 2>/dev/null | head -n 1 | tr -d '\000-\037\177' | sed "$C1_STRIP"
}

# The last component of a symlink's target, or "-".
link_name() {
	target=$(readlink "$1" 2>/dev/null) || target=
	if [ -n "$target" ]; then
		printf '%s' "${target##*/}" | tr -d '\000-\037\177' | sed "$C1_STRIP"
	else
		printf -- '-'
	fi
}

# The first line of a file, or "-" when it is absent or empty.
field() {
	if readable "$1"; then
		v=$(first_line "$1")
		[ -n "$v" ] && { printf '%s' "$v"; return; }
	fi
	printf -- '-'
}

rec bootab-snapshot 1
rec time "$(date +%Y-%m-%dT%H:%M:%S%z)"
for key in boot_id:sys/kernel/random/boot_id kernel:sys/kernel/osrelease \
	hostname:sys/kernel/hostname cmdline:cmdline loadavg:loadavg; do
	path="$ROOT/proc/${key#*:}"
	if readable "$path"; then
		rec "${key%%:*}" "$(first_line "$path")"
	fi
done
# machine-id(5): systemd's file, else the older D-Bus one. The value is
# passed on as read; the controller decides whether it is an id.
for path in "$ROOT/etc/machine-id" "$ROOT/var/lib/dbus/machine-id"; do
	if readable "$path" && [ ! -d "$path" ]; then
		rec machine_id "$(first_line "$path")"
		break
	fi
done

for p in "$ROOT"/sys/devices/system/cpu/cpufreq/policy*; do
	inside_root "$p" || continue
	readable "$p/scaling_governor" || continue
	rec governor "${p##*/}" "$(first_line "$p/scaling_governor")"
done

for z in "$ROOT"/sys/class/thermal/thermal_zone*; do
	inside_root "$z" || continue
	readable "$z/temp" || continue
	rec thermal "${z##*/}" "$(field "$z/type")" "$(field "$z/temp")"
done

for v in "$ROOT"/sys/devices/system/cpu/vulnerabilities/*; do
	inside_root "$v" || continue
	readable "$v" || continue
	rec vuln "${v##*/}" "$(first_line "$v")"
done

nolog=
for arg in "$@"; do
	case $arg in
	nolog) nolog=1 ;;
	param:*)
		name=${arg#param:}
		mod=${name%%.*}
		par=${name#*.}
		case $name:$mod:$par in
		*.*:?*:?*) ;;
		*)
			echo "snapshot.sh: bad module parameter '$name'" >&2
			exit 2
			;;
		esac
		case $mod$par in
		*[!A-Za-z0-9_-]*)
			echo "snapshot.sh: bad module parameter '$name'" >&2
			exit 2
			;;
		esac
		path="$ROOT/sys/module/$mod/parameters/$par"
		if readable "$path"; then
			rec param "$name" "$(first_line "$path")"
		else
			rec param_absent "$name"
		fi
		;;
	file:*)
		path=${arg#file:}
		case $path in
		*/../* | */.. | *[!A-Za-z0-9_./:+@,=-]*) bad=1 ;;
		/sys/* | /proc/*) bad= ;;
		*) bad=1 ;;
		esac
		if [ -n "$bad" ]; then
			echo "snapshot.sh: refusing to read '$path': only /sys and /proc paths" >&2
			exit 2
		fi
		if readable "$ROOT$path" && [ ! -d "$ROOT$path" ]; then
			rec file "$path" "$(first_line "$ROOT$path")"
		else
			rec file_absent "$path"
		fi
		;;
	*)
		echo "snapshot.sh: unknown argument '$arg'" >&2
		exit 2
		;;
	esac
done

# Entries here are named, not read: links to devices a tree need not hold.
# The directory itself must be the tree's.
inside_root "$ROOT/sys/class/iommu" || iommu_classes_outside=1
for c in "$ROOT"/sys/class/iommu/*; do
	[ -z "${iommu_classes_outside:-}" ] || break
	[ -e "$c" ] || [ -L "$c" ] || continue
	rec iommu_class "${c##*/}"
done

# Group directories are numbers; anything else found there is skipped.
for g in "$ROOT"/sys/kernel/iommu_groups/*; do
	n=${g##*/}
	case $n in
	'' | *[!0-9]*) continue ;;
	esac
	inside_root "$g" || continue
	rec group "$n" "$(field "$g/type")"
	for d in "$g"/devices/*; do
		[ -e "$d" ] || [ -L "$d" ] || continue
		rec device "$n" "${d##*/}" "$(link_name "$d/subsystem")" \
			"$(field "$d/vendor")" "$(field "$d/device")" \
			"$(field "$d/class")" "$(link_name "$d/driver")"
	done
done

# The kernel log is evidence, not proof: bootab records the IOMMU lines and
# their count. The kernel echoes its command line, which names iommu
# parameters, so that line is left out.
source='absent'
klog=
if [ -n "$nolog" ]; then
	source='skipped'
elif [ -n "$ROOT" ]; then
	if readable "$ROOT/var/log/dmesg"; then
		klog=$(head -c 16777216 "$ROOT/var/log/dmesg")
		source='file'
	fi
else
	if command -v journalctl >/dev/null 2>&1; then
		klog=$(journalctl -k -b --no-pager -q 2>/dev/null | head -c 67108864) || klog=
		[ -n "$klog" ] && source='journalctl'
	fi
	if [ "$source" = absent ] && command -v dmesg >/dev/null 2>&1; then
		klog=$(dmesg 2>/dev/null | head -c 67108864) || klog=
		[ -n "$klog" ] && source='dmesg'
	fi
fi
rec log_source "$source"
if [ "$source" != absent ] && [ "$source" != skipped ]; then
	lines=$(printf '%s\n' "$klog" | grep -i -E 'iommu|AMD-Vi|DMAR|Default domain type' |
		grep -v -E '(Kernel c|C)ommand line: ' | tr -d '\000-\011\013-\037\177' | sed "$C1_STRIP")
	count=0
	if [ -n "$lines" ]; then
		count=$(printf '%s\n' "$lines" | wc -l)
		printf '%s\n' "$lines" | head -n 2000 | while IFS= read -r line; do
			rec log "$line"
		done
	fi
	rec log_count "$((count + 0))"
fi
rec end
