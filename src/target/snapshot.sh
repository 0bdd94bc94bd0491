# bootab snapshot: what this boot is, read from procfs and sysfs.
#
# Usage: sh snapshot.sh [nolog] [param:MODULE.PARAM]... [file:/sys/PATH]...
# nolog: leave the kernel log out (log_source skipped).
# ROOT (default empty) is prefixed to every path read (/proc, /sys, /etc,
# /var), so the same script reads a captured tree.
#
# Output: one record per line, fields separated by one TAB, the first
# field naming the record (docs/target.md lists them: bootab-snapshot 1
# first, end last). Values never hold a TAB, a newline or another control
# character (they are removed here), and every file is read with a
# bounded read. The script stays under 8000 bytes: dropbear refuses a
# command longer than 9000.
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

# The first line of a file, at most 4096 bytes, without control characters.
first_line() {
	head -c 4096 "$1" 2>/dev/null | head -n 1 | tr -d '\000-\037\177'
}

# The last component of a symlink's target, or "-".
link_name() {
	target=$(readlink "$1" 2>/dev/null) || target=
	if [ -n "$target" ]; then
		printf '%s' "${target##*/}" | tr -d '\000-\037\177'
	else
		printf -- '-'
	fi
}

# The first line of a file, or "-" when it is absent or empty.
field() {
	if [ -r "$1" ]; then
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
	if [ -r "$path" ]; then
		rec "${key%%:*}" "$(first_line "$path")"
	fi
done
# machine-id(5): systemd's file, else the older D-Bus one. The value is
# passed on as read; the controller decides whether it is an id.
for path in "$ROOT/etc/machine-id" "$ROOT/var/lib/dbus/machine-id"; do
	if [ -r "$path" ] && [ ! -d "$path" ]; then
		rec machine_id "$(first_line "$path")"
		break
	fi
done

for p in "$ROOT"/sys/devices/system/cpu/cpufreq/policy*; do
	[ -r "$p/scaling_governor" ] || continue
	rec governor "${p##*/}" "$(first_line "$p/scaling_governor")"
done

for z in "$ROOT"/sys/class/thermal/thermal_zone*; do
	[ -r "$z/temp" ] || continue
	rec thermal "${z##*/}" "$(field "$z/type")" "$(field "$z/temp")"
done

for v in "$ROOT"/sys/devices/system/cpu/vulnerabilities/*; do
	[ -r "$v" ] || continue
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
		if [ -r "$path" ]; then
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
		if [ -r "$ROOT$path" ] && [ ! -d "$ROOT$path" ]; then
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

# What the parameter proofs read (src/kernel/proof.c, docs/proof.md).
for rel in sys/devices/system/cpu/smt/control sys/devices/system/cpu/smt/active \
	sys/kernel/mm/transparent_hugepage/enabled sys/devices/system/cpu/isolated \
	sys/devices/system/cpu/nohz_full proc/sys/kernel/numa_balancing \
	sys/devices/system/cpu/intel_pstate/status sys/devices/system/cpu/amd_pstate/status \
	sys/kernel/debug/sched/preempt proc/sys/kernel/version; do
	if [ -f "$ROOT/$rel" ] && [ -r "$ROOT/$rel" ]; then
		rec state "/$rel" "$(first_line "$ROOT/$rel")"
	fi
done
# Every policy has the same driver: the first one's is enough.
for p in "$ROOT"/sys/devices/system/cpu/cpufreq/policy*; do
	[ -r "$p/scaling_driver" ] || continue
	rec state "/sys/devices/system/cpu/cpufreq/${p##*/}/scaling_driver" \
		"$(first_line "$p/scaling_driver")"
	break
done
for h in "$ROOT"/sys/kernel/mm/hugepages/hugepages-*; do
	[ -r "$h/nr_hugepages" ] || continue
	rec state "/sys/kernel/mm/hugepages/${h##*/}/nr_hugepages" "$(first_line "$h/nr_hugepages")"
done
# One line of a file: "flags : fpu vme ..." as "fpu vme ...". The
# first CPU's flags line comes within the first few kilobytes.
if [ -r "$ROOT/proc/cpuinfo" ]; then
	v=$(head -c 65536 "$ROOT/proc/cpuinfo" | sed -n '/^flags[[:space:]]*:/{p;q;}' |
		head -c 8000 | tr -d '\000-\037\177')
	[ -n "$v" ] && rec state /proc/cpuinfo:flags "${v#*: }"
fi
if [ -r "$ROOT/proc/meminfo" ]; then
	head -c 65536 "$ROOT/proc/meminfo" | grep -E '^(Hugepagesize|HugePages_Total):' |
		tr -d '\000-\011\013-\037\177' | while IFS= read -r line; do
		v=${line#*:}
		v=${v#"${v%%[! ]*}"}
		rec state "/proc/meminfo:${line%%:*}" "$v"
	done
fi
# Where a kernel sits (nokaslr): only root reads the address, others read zeros.
if [ -r "$ROOT/proc/kallsyms" ]; then
	v=$(sed -n '/ _text$/{p;q;}' "$ROOT/proc/kallsyms" 2>/dev/null | head -c 200 |
		tr -d '\000-\037\177')
	v=${v%% *}
	case $v in
	*[!0-9a-f]*) v= ;;
	*[1-9a-f]*) ;;
	*) v= ;;
	esac
	[ -n "$v" ] && rec state /proc/kallsyms:_text "$v"
fi

for c in "$ROOT"/sys/class/iommu/*; do
	[ -e "$c" ] || [ -L "$c" ] || continue
	rec iommu_class "${c##*/}"
done

# Group directories are numbers; anything else found there is skipped.
for g in "$ROOT"/sys/kernel/iommu_groups/*; do
	n=${g##*/}
	case $n in
	'' | *[!0-9]*) continue ;;
	esac
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
	if [ -r "$ROOT/var/log/dmesg" ]; then
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
		grep -v -E '(Kernel c|C)ommand line: ' | tr -d '\000-\011\013-\037\177')
	count=0
	if [ -n "$lines" ]; then
		count=$(printf '%s\n' "$lines" | wc -l)
		printf '%s\n' "$lines" | head -n 2000 | while IFS= read -r line; do
			rec log "$line"
		done
	fi
	rec log_count "$((count + 0))"
	# What some parameters leave in the log and nowhere else: evidence.
	printf '%s\n' "$klog" | grep -E 'page tables isolation|Dynamic Preempt|mem auto-init' |
		tr -d '\000-\011\013-\037\177' | head -n 200 | while IFS= read -r line; do
		rec klog "$line"
	done
fi
rec end
