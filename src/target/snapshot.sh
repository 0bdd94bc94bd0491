# bootab snapshot: this boot from procfs and sysfs (docs/target.md).
# Usage: sh snapshot.sh [nolog] [param:MOD.PARAM]... [file:/sys/PATH]...
# ROOT prefixes every path. No control characters; bounded reads. Under
# 8000 bytes quoted (dropbear refuses 9000).
set -u
ROOT=${ROOT-}
LC_ALL=C
export LC_ALL

# Fields joined by TABs.
rec() {
	printf %s "$1"
	shift
	for field in "$@"; do
		printf '\t%s' "$field"
	done
	echo
}

C1=$(printf 's/\302[\200-\237]//g')

# Builtin reads; a control, \302 (UTF-8 C1) or 4 KiB: the long way.
CTL=$(awk 'BEGIN{for(i=1;i<32;i++)if(i!=10)printf "%c",i;printf "\177\302"}')
nl='
'

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
# First line, bounded, no controls.
first_line() {
	readable "$1" || return 0
	head -c 4096 "$1" 2>/dev/null | head -n 1 | tr -d '\000-\037\177' | sed "$C1"
}
# Into L.
line_of() {
	L=
	readable "$1" || return 0
	IFS= read -r L <"$1" 2>/dev/null
	[ ${#L} -le 4096 ] || L=$(first_line "$1")
	case $L in *[$CTL]*) L=$(first_line "$1") ;; esac
}
# rec FIELDS... of the line of a file.
lrec() {
	line_of "$1"
	shift
	rec "$@" "$L"
}
# L: that, or "-".
field_of() {
	line_of "$1"
	[ -n "$L" ] || L=-
}

# L: a link target's last name, or "-".
link_of() {
	L=-
	[ -h "$1" ] || return 0
	if cd -P -- "$1" 2>/dev/null; then
		L=${PWD##*/}
		cd "$HERE" || exit 1
	else
		L=$(readlink "$1" 2>/dev/null) || L=
		L=${L##*/}
	fi
	case $L in *[$CTL]*) L=$(printf %s "$L" | tr -d '\000-\037\177' | sed "$C1") ;; esac
	[ -n "$L" ] || L=-
}

rec bootab-snapshot 1
rec time "$(date +%Y-%m-%dT%H:%M:%S%z)"
for key in boot_id:sys/kernel/random/boot_id kernel:sys/kernel/osrelease \
	hostname:sys/kernel/hostname cmdline:cmdline loadavg:loadavg; do
	path="$ROOT/proc/${key#*:}"
	if readable "$path"; then
		lrec "$path" "${key%%:*}"
	fi
done
# machine-id(5), else D-Bus.
for path in "$ROOT/etc/machine-id" "$ROOT/var/lib/dbus/machine-id"; do
	if readable "$path" && [ ! -d "$path" ]; then
		lrec "$path" machine_id
		break
	fi
done

for p in "$ROOT"/sys/devices/system/cpu/cpufreq/policy*; do
	inside_root "$p" || continue
	readable "$p/scaling_governor" || continue
	lrec "$p/scaling_governor" governor "${p##*/}"
done

for z in "$ROOT"/sys/class/thermal/thermal_zone*; do
	inside_root "$z" || continue
	readable "$z/temp" || continue
	field_of "$z/type"
	t=$L
	field_of "$z/temp"
	rec thermal "${z##*/}" "$t" "$L"
done

for v in "$ROOT"/sys/devices/system/cpu/vulnerabilities/*; do
	inside_root "$v" || continue
	readable "$v" || continue
	lrec "$v" vuln "${v##*/}"
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
			lrec "$path" param "$name"
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
			lrec "$ROOT$path" file "$path"
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
		lrec "$ROOT/$rel" state "/$rel"
	fi
done
# The first policy's driver.
for p in "$ROOT"/sys/devices/system/cpu/cpufreq/policy*; do
	readable "$p/scaling_driver" || continue
	lrec "$p/scaling_driver" state "${p#"$ROOT"}/scaling_driver"
	break
done
for h in "$ROOT"/sys/kernel/mm/hugepages/hugepages-*; do
	readable "$h/nr_hugepages" || continue
	lrec "$h/nr_hugepages" state "${h#"$ROOT"}/nr_hugepages"
done
# CPU 0: "flags : fpu vme" as "fpu vme". Read: the first 100 lines.
if readable "$ROOT/proc/cpuinfo"; then
	v=
	i=0
	while [ "$i" -lt 100 ] && IFS= read -r line; do
		i=$((i + 1))
		case $line in
		flags*:*)
			k=${line%%:*}
			case ${k#flags} in *[![:space:]]*) continue ;; esac
			v=${line#*: }
			case $v in *[$CTL]*) v=x ;; esac
			[ ${#line} -le 7900 ] || v=x
			break
			;;
		esac
	done <"$ROOT/proc/cpuinfo" 2>/dev/null
	if [ "$v" = x ] || [ "$i" -ge 100 ]; then
		v=$(head -c 65536 "$ROOT/proc/cpuinfo" | sed -n '/^flags[[:space:]]*:/{p;q;}' |
			head -c 8000 | tr -d '\000-\037\177')
		v=${v#*: }
	fi
	[ -n "$v" ] && rec state /proc/cpuinfo:flags "$v"
fi
# Read: at most 200 lines, none with a control byte.
if readable "$ROOT/proc/meminfo"; then
	m=
	i=0
	while [ "$i" -lt 200 ] && IFS= read -r line; do
		i=$((i + 1))
		case $line in
		*[$CTL]*) m=x && break ;;
		Hugepagesize:* | HugePages_Total:*)
			v=${line#*:}
			v=${v#"${v%%[! ]*}"}
			m="$m${line%%:*}:$v$nl"
			;;
		esac
	done <"$ROOT/proc/meminfo" 2>/dev/null
	if [ "$m" = x ] || [ "$i" -ge 200 ]; then
		m=$(head -c 65536 "$ROOT/proc/meminfo" | grep -E '^(Hugepagesize|HugePages_Total):' |
			tr -d '\000-\011\013-\037\177' | while IFS= read -r line; do
			v=${line#*:}
			printf '%s:%s\n' "${line%%:*}" "${v#"${v%%[! ]*}"}"
		done)$nl
	fi
	set -f
	IFS=$nl
	for line in $m; do
		rec state "/proc/meminfo:${line%%:*}" "${line#*:}"
	done
	unset IFS
	set +f
fi
# nokaslr: only root reads the address (others: zeros).
if readable "$ROOT/proc/kallsyms"; then
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

# Groups are numbers.
for g in "$ROOT"/sys/kernel/iommu_groups/*; do
	n=${g##*/}
	case $n in
	'' | *[!0-9]*) continue ;;
	esac
	inside_root "$g" || continue
	field_of "$g/type"
	rec group "$n" "$L"
	for d in "$g"/devices/*; do
		[ -e "$d" ] || [ -L "$d" ] || continue
		link_of "$d/subsystem"
		s=$L
		field_of "$d/vendor"
		ve=$L
		field_of "$d/device"
		de=$L
		field_of "$d/class"
		cl=$L
		link_of "$d/driver"
		rec device "$n" "${d##*/}" "$s" "$ve" "$de" "$cl" "$L"
	done
done

# Kernel log evidence: IOMMU lines and count, not the command line.
source=absent
klog=
if [ -n "$nolog" ]; then
	source=skipped
elif [ -n "$ROOT" ]; then
	if readable "$ROOT/var/log/dmesg"; then
		klog=$(head -c 16777216 "$ROOT/var/log/dmesg" | sed 's/^<[0-9]*>//')
		source="file"
	fi
else
	if command -v journalctl >/dev/null 2>&1; then
		klog=$(journalctl -k -b --no-pager -q 2>/dev/null | head -c 67108864) || klog=
		[ -n "$klog" ] && source=journalctl
	fi
	if [ "$source" = absent ] && command -v dmesg >/dev/null 2>&1; then
		klog=$(dmesg 2>/dev/null | head -c 67108864) || klog=
		[ -n "$klog" ] && source=dmesg
	fi
fi
rec log_source "$source"
# One pass: IOMMU lines (not the command line), their count, then what
# some parameters leave and the kernel's refusals of args (kernel/refusal.c);
# bytes, controls and C1 dropped.
if [ "$source" != absent ] && [ "$source" != skipped ]; then
	printf '%s\n' "$klog" | awk 'BEGIN {
	for (i = 1; i < 32; i++) if (i != 10) c = c sprintf("%c", i)
	c = "[" c sprintf("%c", 127) "]"
	for (i = 128; i < 160; i++) d = d sprintf("%c", i)
	d = sprintf("%c", 194) "[" d "]"
}
/page tables isolation|Dynamic Preempt|mem auto-init|nknown (kernel c|option|parameter|user sp)|Malformed early|invalid (for p|option)|Unsupported mit|Ignoring unknown|isolcpus: |Housekeeping: |cannot parse|HugeTLB: (uns|hugepages=)|parse numa|Invalid option str/ && m < 200 { l = $0; gsub(c, "", l); k[++m] = l }
tolower($0) !~ /iommu|amd-vi|dmar|default domain type/ || /(Kernel c|C)ommand line: / { next }
{ gsub(c, ""); gsub(d, ""); if (++n <= 2000) print "log\t" $0 }
END { print "log_count\t" n + 0; for (i = 1; i <= m; i++) print "klog\t" k[i] }'
fi
rec end
