#!/bin/sh
# Captures, from a running box, the procfs and sysfs files bootab's
# snapshot script (src/target/snapshot.sh) reads, into a fixture tree that
# `bootab snapshot --root TREE`, `bootab iommu-map --root TREE` and
# `bootab verify --root TREE` read as they read the live box.
#
# Usage: tools/capture-sysfs.sh [--target lab|local|DEST] [--root DIR]
#                               [--param MOD.PARAM]... OUTDIR
#   --target lab     the QEMU lab (default): ssh -F "$BOOTAB_LAB_DIR/run/ssh_config" bootab-lab
#   --target DEST    an SSH destination (BatchMode, the user's config and keys)
#   --target local   this machine; with --root DIR, a tree under DIR
#   --param M.P      also capture /sys/module/M/parameters/P (repeatable)
#
# What the tree holds (nothing else):
#   proc/cmdline, proc/loadavg, proc/sys/kernel/{random/boot_id,osrelease,hostname}
#   etc/machine-id, var/lib/dbus/machine-id (those that exist)
#   proc/sys/kernel/version, sys/kernel/notes, boot/config-RELEASE (what
#     kernel-id.sh reads)
#   sys/devices/system/cpu/cpufreq/policy*/scaling_governor
#   sys/class/thermal/thermal_zone* (links) and their type and temp
#   sys/devices/system/cpu/vulnerabilities/*
#   sys/class/iommu/* (links) and the directories they point to
#   sys/kernel/iommu_groups/N/type, and N/devices/* (links) to the device
#     directories with vendor, device, class and the subsystem, driver and
#     iommu_group links; the directories those links point to exist too
#   sys/module/M/parameters/P for every --param
#   what the parameter proofs read: sys/devices/system/cpu/smt/{control,active},
#     isolated, nohz_full, intel_pstate/status, amd_pstate/status, the cpufreq
#     policies' scaling_driver, sys/kernel/mm/transparent_hugepage/enabled,
#     sys/kernel/mm/hugepages/*/nr_hugepages, sys/kernel/debug/sched/preempt,
#     proc/sys/kernel/{numa_balancing,version}, proc/cpuinfo, proc/meminfo,
#     and the _text line of proc/kallsyms
#   sys/bus/pci/devices/* (links) to the device directories, as above
#   sys/class/{accel,drm,nvme,block,vfio,net}/* (links) and the directories they
#     point to, with uevent, operstate, carrier and the device link
#   var/log/dmesg: the kernel-log lines about the IOMMU and the proofs'
#     evidence lines and the kernel's refusals of args (the same filters as snapshot.sh, plus the kernel's
#     command-line echo, which snapshot.sh must leave out) and every line at error or warning level, in dmesg -r
#     form (<LEVEL>[SECONDS] TEXT), from dmesg -r, else journalctl -k -b;
#     absent when neither answers (not root)
#   var/log/failed-units: systemctl list-units --failed --plain --no-legend,
#     where systemd runs
#   capture.txt: when, from where, and the kernel log's source
# Symlinks are copied as symlinks with their original (relative) targets,
# so they resolve inside the tree as they do under /sys. Directories that
# would be empty get a .keep file (git keeps no empty directory;
# snapshot.sh never reads dot files).
#
# The part that runs on the box is this same file, sent on ssh's stdin and
# run as `sh -s -- --target-side ARGS`: it needs a POSIX sh, head, readlink,
# mktemp and tar (busybox has them all). It writes a tar stream on stdout.
set -eu

# ---------------------------------------------------------------- box side

# copy REL: the file $ROOT/REL, bounded, into the staging tree.
copy() {
	[ -f "$ROOT/$1" ] && [ -r "$ROOT/$1" ] || return 0
	mkdir -p "$stage/${1%/*}"
	head -c 65536 "$ROOT/$1" >"$stage/$1" 2>/dev/null || rm -f "$stage/$1"
}

# link REL: the symlink $ROOT/REL as a symlink with the same target.
link() {
	[ -L "$ROOT/$1" ] || return 0
	mkdir -p "$stage/${1%/*}"
	[ -L "$stage/$1" ] || ln -s "$(readlink "$ROOT/$1")" "$stage/$1"
}

# physical REL: prints the path, relative to ROOT, of the directory REL
# leads to once every symlink is resolved; fails when it is not one.
physical() {
	_p=$(cd -P "$ROOT/$1" 2>/dev/null && pwd -P) || return 1
	case $_p in
	"$rootp"/*) printf '%s\n' "${_p#"$rootp"/}" ;;
	*) return 1 ;;
	esac
}

# dir_of_link REL: the symlink REL, and the directory it points to (made
# in the tree, and printed). Helpers use _names: sh has no local variables.
dir_of_link() {
	link "$1"
	if _d=$(physical "$1"); then
		mkdir -p "$stage/$_d"
		printf '%s\n' "$_d"
	else
		return 1
	fi
}

target_side() {
	ROOT=${ROOT-}
	LC_ALL=C
	export LC_ALL
	if [ -n "$ROOT" ]; then
		rootp=$(cd -P "$ROOT" && pwd -P)
	else
		rootp=
	fi
	stage=$(mktemp -d)
	trap 'rm -rf "$stage"' EXIT
	for f in proc/cmdline proc/loadavg proc/sys/kernel/random/boot_id \
		proc/sys/kernel/osrelease proc/sys/kernel/hostname \
		etc/machine-id var/lib/dbus/machine-id proc/sys/kernel/version sys/kernel/notes; do
		copy "$f"
	done
	release=$(head -c 256 "$ROOT/proc/sys/kernel/osrelease" 2>/dev/null | tr -d '\n')
	case $release in
	'' | */* | .*) ;;
	*)
		if [ -f "$ROOT/boot/config-$release" ]; then
			mkdir -p "$stage/boot"
			head -c 4194304 "$ROOT/boot/config-$release" >"$stage/boot/config-$release"
		fi
		;;
	esac
	for p in "$ROOT"/sys/devices/system/cpu/cpufreq/policy*; do
		[ -e "$p" ] || continue
		copy "${p#"$ROOT"/}/scaling_governor"
	done
	for z in "$ROOT"/sys/class/thermal/thermal_zone*; do
		[ -e "$z" ] || continue
		rel=${z#"$ROOT"/}
		if [ -L "$z" ]; then
			d=$(dir_of_link "$rel") || continue
		else
			d=$rel
		fi
		copy "$d/type"
		copy "$d/temp"
	done
	for v in "$ROOT"/sys/devices/system/cpu/vulnerabilities/*; do
		[ -e "$v" ] || continue
		copy "${v#"$ROOT"/}"
	done
	mkdir -p "$stage/sys/class/iommu" "$stage/sys/kernel/iommu_groups"
	for c in "$ROOT"/sys/class/iommu/*; do
		[ -e "$c" ] || [ -L "$c" ] || continue
		dir_of_link "${c#"$ROOT"/}" >/dev/null || true
	done
	for g in "$ROOT"/sys/kernel/iommu_groups/*; do
		case ${g##*/} in
		'' | *[!0-9]*) continue ;;
		esac
		rel=${g#"$ROOT"/}
		mkdir -p "$stage/$rel/devices"
		copy "$rel/type"
		for dev in "$g"/devices/*; do
			[ -e "$dev" ] || [ -L "$dev" ] || continue
			d=$(dir_of_link "${dev#"$ROOT"/}") || continue
			for f in vendor device class; do
				copy "$d/$f"
			done
			for l in subsystem driver iommu_group; do
				dir_of_link "$d/$l" >/dev/null || true
			done
		done
	done
	# device_dir REL: the device directory REL (resolved), its ids and links.
	device_dir() {
		for f in vendor device class; do
			copy "$1/$f"
		done
		for l in subsystem driver iommu_group; do
			dir_of_link "$1/$l" >/dev/null || true
		done
	}
	for dev in "$ROOT"/sys/bus/pci/devices/*; do
		[ -e "$dev" ] || [ -L "$dev" ] || continue
		d=$(dir_of_link "${dev#"$ROOT"/}") || continue
		device_dir "$d"
	done
	for class in accel drm nvme block vfio net; do
		for e in "$ROOT/sys/class/$class"/*; do
			[ -e "$e" ] || [ -L "$e" ] || continue
			rel=${e#"$ROOT"/}
			if [ -L "$e" ]; then
				d=$(dir_of_link "$rel") || continue
			else
				d=$rel
				mkdir -p "$stage/$d"
			fi
			for f in uevent operstate carrier; do
				copy "$d/$f"
			done
			if dd=$(dir_of_link "$d/device"); then
				device_dir "$dd"
			fi
		done
	done
	# What the parameter proofs read (snapshot.sh's state records).
	for f in sys/devices/system/cpu/smt/control sys/devices/system/cpu/smt/active \
		sys/kernel/mm/transparent_hugepage/enabled sys/devices/system/cpu/isolated \
		sys/devices/system/cpu/nohz_full proc/sys/kernel/numa_balancing \
		sys/devices/system/cpu/intel_pstate/status sys/devices/system/cpu/amd_pstate/status \
		sys/kernel/debug/sched/preempt proc/sys/kernel/version proc/cpuinfo proc/meminfo; do
		copy "$f"
	done
	for p in "$ROOT"/sys/devices/system/cpu/cpufreq/policy*; do
		[ -e "$p" ] || continue
		copy "${p#"$ROOT"/}/scaling_driver"
	done
	for h in "$ROOT"/sys/kernel/mm/hugepages/hugepages-*; do
		[ -e "$h" ] || continue
		copy "${h#"$ROOT"/}/nr_hugepages"
	done
	# Of /proc/kallsyms only the line snapshot.sh reads (root sees the address).
	if [ -r "$ROOT/proc/kallsyms" ]; then
		mkdir -p "$stage/proc"
		sed -n '/ _text$/{p;q;}' "$ROOT/proc/kallsyms" 2>/dev/null | head -c 200 >"$stage/proc/kallsyms"
		[ -s "$stage/proc/kallsyms" ] || rm -f "$stage/proc/kallsyms"
	fi
	for arg in "$@"; do
		case $arg in
		param:*.*)
			name=${arg#param:}
			copy "sys/module/${name%%.*}/parameters/${name#*.}"
			;;
		*)
			echo "capture-sysfs: unknown argument '$arg'" >&2
			exit 2
			;;
		esac
	done
	source='absent'
	klog=
	if [ -n "$ROOT" ]; then
		if [ -r "$ROOT/var/log/dmesg" ]; then
			klog=$(head -c 16777216 "$ROOT/var/log/dmesg")
			source='file'
		fi
	else
		if command -v dmesg >/dev/null 2>&1; then
			klog=$(dmesg -r 2>/dev/null | head -c 67108864) || klog=
			[ -n "$klog" ] && source='dmesg'
		fi
		if [ "$source" = absent ] && command -v journalctl >/dev/null 2>&1; then
			# Levels as snapshot.sh gives them: 0-3 as 3, 4 as 4.
			klog=$( { journalctl -k -b --no-pager -q 2>/dev/null
				journalctl -k -b -q --no-pager -o short-monotonic -p 0..3 2>/dev/null |
					sed 's/^\(\[ *[0-9]*\.[0-9]*\]\) [^ ]* kernel: /<3>\1 /'
				journalctl -k -b -q --no-pager -o short-monotonic -p 4..4 2>/dev/null |
					sed 's/^\(\[ *[0-9]*\.[0-9]*\]\) [^ ]* kernel: /<4>\1 /'; } | head -c 67108864) || klog=
			[ -n "$klog" ] && source='journalctl'
		fi
	fi
	if [ "$source" != absent ]; then
		mkdir -p "$stage/var/log"
		printf '%s\n' "$klog" |
			grep -E '^<[0-4]>|[Ii][Oo][Mm][Mm][Uu]|AMD-Vi|DMAR|Default domain type|Command line: |page tables isolation|Dynamic Preempt|mem auto-init|nknown (kernel c|option|parameter|user sp)|Malformed early|invalid (for p|option)|Unsupported mit|Ignoring unknown|isolcpus: |Housekeeping: |cannot parse|HugeTLB: (uns|hugepages=)|parse numa|Invalid option str' \
				>"$stage/var/log/dmesg" || true
	fi
	if [ -n "$ROOT" ]; then
		[ -r "$ROOT/var/log/failed-units" ] && copy var/log/failed-units
	elif [ -d /run/systemd/system ] && command -v systemctl >/dev/null 2>&1; then
		mkdir -p "$stage/var/log"
		systemctl list-units --failed --plain --no-legend --no-pager --full 2>/dev/null |
			head -c 65536 >"$stage/var/log/failed-units" || true
	fi
	{
		printf 'captured %s\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)"
		printf 'host %s\n' "$(head -c 256 "$ROOT/proc/sys/kernel/hostname" 2>/dev/null | tr -d '\n')"
		printf 'kernel %s\n' "$(head -c 256 "$ROOT/proc/sys/kernel/osrelease" 2>/dev/null | tr -d '\n')"
		printf 'kernel log %s\n' "$source"
	} >"$stage/capture.txt"
	# Directories git would drop.
	find "$stage" -type d -empty -exec touch '{}/.keep' ';'
	tar -C "$stage" -cf - .
}

# -------------------------------------------------------- controller side

die() {
	echo "capture-sysfs: $*" >&2
	exit 2
}

usage() {
	sed -n '7,12s/^# \{0,1\}//p' "$0" >&2
	exit 2
}

if [ "${1-}" = --target-side ]; then
	shift
	target_side "$@"
	exit 0
fi

target=lab
root=
params=
while [ $# -gt 0 ]; do
	case $1 in
	--target)
		[ $# -ge 2 ] || usage
		target=$2
		shift 2
		;;
	--root)
		[ $# -ge 2 ] || usage
		root=$2
		shift 2
		;;
	--param)
		[ $# -ge 2 ] || usage
		case $2 in
		*[!A-Za-z0-9_.-]* | *.*.* | .* | *.) die "--param '$2': give MODULE.PARAM" ;;
		*.*) ;;
		*) die "--param '$2': give MODULE.PARAM" ;;
		esac
		params="$params param:$2"
		shift 2
		;;
	-h | --help) usage ;;
	-*) die "unknown option '$1'" ;;
	*) break ;;
	esac
done
[ $# -eq 1 ] || usage
out=$1
[ -n "$root" ] && [ "$target" != local ] && die "--root works with --target local only"
case $target in
-* | *[[:space:]]* | '') die "refusing target '$target'" ;;
esac
if [ -e "$out" ] && [ ! -e "$out/capture.txt" ] && [ -n "$(ls -A "$out" 2>/dev/null)" ]; then
	die "'$out' exists and is not a captured tree (no capture.txt): not replacing it"
fi

parent=$(dirname "$out")
mkdir -p "$parent"
tmp=$(mktemp -d "$parent/.capture.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# $params holds words checked above: split on purpose.
# shellcheck disable=SC2086
case $target in
local)
	ROOT=$root sh "$0" --target-side $params >"$tmp/tree.tar" ||
		die "capturing local${root:+ tree $root} failed"
	;;
lab)
	labdir=${BOOTAB_LAB_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/bootab/lab}
	[ -r "$labdir/run/ssh_config" ] ||
		die "the lab is not running (no '$labdir/run/ssh_config'); start it with 'bootab lab up'"
	timeout 120 ssh -F "$labdir/run/ssh_config" bootab-lab sh -s -- --target-side $params \
		<"$0" >"$tmp/tree.tar" || die "capturing the lab failed"
	;;
*)
	timeout 120 ssh -o BatchMode=yes -o ConnectTimeout=5 -T -- "$target" \
		sh -s -- --target-side $params <"$0" >"$tmp/tree.tar" ||
		die "capturing '$target' failed"
	;;
esac
mkdir "$tmp/tree"
tar -C "$tmp/tree" -xf "$tmp/tree.tar" || die "the tar stream from '$target' is not readable"
[ -e "$tmp/tree/capture.txt" ] || die "the capture from '$target' is incomplete (no capture.txt)"
printf 'target %s\n' "$target" >>"$tmp/tree/capture.txt"
rm -rf "$out"
mv "$tmp/tree" "$out"
echo "capture-sysfs: $target -> $out: $(find "$out" -type f | wc -l) files, $(find "$out" -type l | wc -l) links"
