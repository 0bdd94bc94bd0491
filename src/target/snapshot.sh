# bootab snapshot: this boot, from procfs and sysfs (records: docs/target.md).
# Usage: sh snapshot.sh [nolog] [param:MOD.PARAM]... [file:/sys/PATH]...
# ROOT (default empty) prefixes every path: a captured tree. Values hold no
# control character; reads are bounded. Under 8000 bytes quoted: dropbear
# refuses a command over 9000.
set -u
ROOT=${ROOT-}
LC_ALL=C
export LC_ALL

# A record: fields joined by TABs.
rec() {
	printf '%s' "$1"
	shift
	for field in "$@"; do
		printf '\t%s' "$field"
	done
	printf '\n'
}

# Strips C1 controls (UTF-8).
C1="s/$(printf '\302')[$(printf '\200')-$(printf '\237')]//g"

# A ROOT: no path out of it, no non-regular file.
RR=
[ -z "$ROOT" ] || RR=$(cd "$ROOT" 2>/dev/null && pwd -P) || RR=/nonexistent
inside_root() {
	[ -z "$RR" ] && return 0
	case $(readlink -f -- "$1" 2>/dev/null) in
	"$RR" | "$RR"/*) return 0 ;;
	esac
	return 1
}
readable() {
	[ -r "$1" ] && inside_root "$1" && { [ -z "$RR" ] || [ -f "$1" ]; }
}

# First line of a file, bounded, no control characters.
first_line() {
	readable "$1" || return 0
	head -c 4096 "$1" 2>/dev/null | head -n 1 | tr -d '\000-\037\177' | sed "$C1"
}

# A link target's last component, or "-".
link_name() {
	target=$(readlink "$1" 2>/dev/null) || target=
	if [ -n "$target" ]; then
		printf '%s' "${target##*/}" | tr -d '\000-\037\177' | sed "$C1"
	else
		printf -- '-'
	fi
}

# First line of a file, or "-".
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
# machine-id(5), else D-Bus's; the controller checks the value.
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

# What the parameter proofs read (src/kernel/proof.c, docs/proof.md).
for rel in sys/devices/system/cpu/smt/control sys/devices/system/cpu/smt/active \
	sys/kernel/mm/transparent_hugepage/enabled sys/devices/system/cpu/isolated \
	sys/devices/system/cpu/nohz_full proc/sys/kernel/numa_balancing \
	sys/devices/system/cpu/intel_pstate/status sys/devices/system/cpu/amd_pstate/status \
	sys/kernel/debug/sched/preempt proc/sys/kernel/version; do
	if readable "$ROOT/$rel"; then
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
# The first CPU's "flags : fpu ..." as "fpu ...", in the first KBs.
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

# Named only: the directory must be in the tree.
inside_root "$ROOT/sys/class/iommu" || cx=1
for c in "$ROOT"/sys/class/iommu/*; do
	[ -z "${cx:-}" ] || break
	[ -e "$c" ] || [ -L "$c" ] || continue
	rec iommu_class "${c##*/}"
done

# Group directories are numbers; others are skipped.
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

# The kernel log is evidence: IOMMU lines and their count, without the
# echoed command line (it names iommu parameters).
source='absent'
klog=
if [ -n "$nolog" ]; then
	source='skipped'
elif [ -n "$ROOT" ]; then
	if readable "$ROOT/var/log/dmesg"; then
		klog=$(head -c 16777216 "$ROOT/var/log/dmesg" | sed 's/^<[0-9]*>//')
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
		grep -v -E '(Kernel c|C)ommand line: ' | tr -d '\000-\011\013-\037\177' | sed "$C1")
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
