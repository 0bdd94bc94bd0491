# bootab io: the file operations the bootloader backends need on a target.
# Usage:
#   sh io.sh write PATH MODE    stdin replaces PATH atomically (a temporary
#                               file in PATH's directory, then mv); an
#                               existing PATH keeps its permission bits,
#                               a new one gets octal MODE
#   sh io.sh rename FROM TO     mv -f FROM TO
#   sh io.sh remove PATH        exit 3 when PATH does not exist
#   sh io.sh list DIR           every name in DIR, each followed by a NUL;
#                               exit 3 when DIR is not a directory
#   sh io.sh exists PATH        exit 0 when PATH exists, 1 when not
#   sh io.sh islink PATH        exit 0 when PATH is a symbolic link, 1 when not
#   sh io.sh run PROGRAM ARG... runs PROGRAM (no shell); exit 127 with
#                               "io.sh: not found" when it is not there
#   sh io.sh dump SPEC...       what each SPEC names, in one go: e:PATH what
#                               PATH is, f:PATH also its bytes, n:PATH also
#                               a directory's names (as list gives them),
#                               d:PATH those and each entry as f: gives it;
#                               records PATH NUL TYPE NUL SIZE NUL BYTES,
#                               TYPE of e (exists), h (symlink), f (regular
#                               file), d (directory), x (leads out of ROOT),
#                               SIZE - when no bytes follow (over 1 MiB)
# Every PATH is absolute and taken under ROOT (default empty).
set -u
ROOT=${ROOT-}
nl='
'
op=${1-}
[ $# -ge 1 ] && shift
abs() {
	case $1 in
	/*) ;;
	*)
		echo "io.sh: '$1' is not an absolute path" >&2
		exit 2
		;;
	esac
}
# Under a ROOT (a captured tree on the controller), no path may lead out
# of it through a symlink: inroot checks PATH itself (followed), inroot_dir
# the directory PATH is in (PATH itself is what gets replaced or removed).
inroot() {
	[ -n "$ROOT" ] || return 0
	[ -e "$1" ] || [ -h "$1" ] || return 0
	root=$(readlink -f -- "$ROOT") || exit 2
	real=$(readlink -f -- "$1") || real=
	case $real in
	"$root" | "$root"/*) ;;
	*)
		echo "io.sh: '${1#"$ROOT"}' leads out of the root" >&2
		exit 5
		;;
	esac
}
inroot_dir() {
	inroot "${1%/*}"
}
# names DIR: every name in DIR, each followed by a NUL
names() {
	for f in "$1"/* "$1"/.*; do
		name=${f##*/}
		case $name in . | .. | '*' | '.*') [ -e "$f" ] || continue ;; esac
		case $name in . | ..) continue ;; esac
		printf '%s\000' "$name"
	done
}
# record PATH e|f|n|d: one record of dump (names with a newline are left
# out). Its line is kept as _p_N, _t_N and _c_N (the copy of its bytes
# that dump_out prints, or nothing): a file costs one head, a directory's
# names no process, and the sizes come from one wc for every record.
record() {
	t=
	if [ -n "$ROOT" ] && ! (inroot "$ROOT$1") 2>/dev/null; then
		t=x
	else
		[ -e "$ROOT$1" ] && t=${t}e
		[ -h "$ROOT$1" ] && t=${t}h
		[ -f "$ROOT$1" ] && t=${t}f
		[ -d "$ROOT$1" ] && t=${t}d
	fi
	nrec=$((nrec + 1))
	eval "_p_$nrec=\$1 _t_$nrec=\$t _c_$nrec="
	case $2:$t in
	[fd]:*f*) ;;
	[dn]:*d*) ;;
	*) return ;;
	esac
	if [ -z "$tmp" ]; then
		tmp=$(mktemp -d) || exit 4
		trap 'rm -rf "$tmp"' EXIT
	fi
	case $t in
	*f*) head -c 1048577 "$ROOT$1" >"$tmp/$nrec" 2>/dev/null || : >"$tmp/$nrec" ;;
	*) names "$ROOT$1" >"$tmp/$nrec" ;;
	esac
	eval "_c_$nrec=\$nrec"
	copies="$copies $nrec"
}
# dump_out: every record in order, the bytes of all by one cat, each
# record's header (PATH NUL TYPE NUL SIZE NUL) a file of its own in $tmp.
dump_out() {
	if [ -z "$copies" ]; then
		i=0
		while [ "$i" -lt "$nrec" ]; do
			i=$((i + 1))
			eval "printf '%s\\000%s\\000-\\000' \"\$_p_$i\" \"\$_t_$i\""
		done
		return
	fi
	# Names relative to $tmp, which may hold any byte.
	# shellcheck disable=SC2086 # the copies' names are numbers
	set -- $copies
	(cd "$tmp" && exec wc -c -- "$@") >"$tmp/=sizes" || exit 4
	# shellcheck disable=SC2034 # s is read by the eval below
	while [ $# -gt 0 ] && read -r s n; do
		[ "$n" = "$1" ] || continue
		shift
		eval "_s_${n##*/}=\$s"
	done <"$tmp/=sizes"
	[ $# -eq 0 ] || exit 4
	list=
	j=0
	: >"$tmp/=0"
	i=0
	while [ "$i" -lt "$nrec" ]; do
		i=$((i + 1))
		eval "p=\$_p_$i t=\$_t_$i c=\$_c_$i"
		size=-
		[ -z "$c" ] || eval "size=\$_s_$i"
		[ "$size" = - ] || [ "$size" -le 1048576 ] || size=-
		printf '%s\000%s\000%s\000' "$p" "$t" "$size" >>"$tmp/=$j"
		if [ "$size" != - ]; then
			list="$list =$j $c"
			j=$((j + 1))
			: >"$tmp/=$j"
		fi
	done
	# shellcheck disable=SC2086
	(cd "$tmp" && exec cat -- $list "=$j")
}
case $op in
write)
	[ $# -eq 2 ] || exit 2
	abs "$1"
	case $2 in '' | *[!0-7]*) exit 2 ;; esac
	f=$ROOT$1
	dir=${f%/*}
	inroot_dir "$f"
	tmp=$(mktemp "$dir/.bootab-io.XXXXXX") || exit 4
	if ! cat > "$tmp"; then
		rm -f "$tmp"
		exit 4
	fi
	mode=$2
	if [ -e "$f" ]; then
		mode=$(stat -c %a "$f" 2>/dev/null) || mode=$2
	fi
	if ! chmod "$mode" "$tmp" || ! sync || ! mv -f "$tmp" "$f"; then
		rm -f "$tmp"
		exit 4
	fi
	sync
	;;
rename)
	[ $# -eq 2 ] || exit 2
	abs "$1"
	abs "$2"
	inroot_dir "$ROOT$1"
	inroot_dir "$ROOT$2"
	mv -f "$ROOT$1" "$ROOT$2" || exit 4
	# On the boot partition (often FAT) the new name must be on disk before a power cycle.
	sync
	;;
remove)
	[ $# -eq 1 ] || exit 2
	abs "$1"
	inroot_dir "$ROOT$1"
	[ -e "$ROOT$1" ] || [ -h "$ROOT$1" ] || exit 3
	rm -f "$ROOT$1" || exit 4
	;;
list)
	[ $# -eq 1 ] || exit 2
	abs "$1"
	inroot "$ROOT$1"
	[ -d "$ROOT$1" ] || exit 3
	names "$ROOT$1"
	;;
dump)
	tmp=
	copies=
	nrec=0
	for spec in "$@"; do
		abs "${spec#?:}"
	done
	for spec in "$@"; do
		p=${spec#?:}
		record "$p" "${spec%%:*}"
		if [ "${spec%%:*}" = d ] && [ -d "$ROOT$p" ] && { [ -z "$ROOT" ] || (inroot "$ROOT$p") 2>/dev/null; }; then
			for f in "$ROOT$p"/* "$ROOT$p"/.*; do
				name=${f##*/}
				case $name in . | .. | '*' | '.*') [ -e "$f" ] || continue ;; esac
				case $name in . | .. | *"$nl"*) continue ;; esac
				record "$p/$name" f
			done
		fi
	done
	dump_out
	;;
exists)
	[ $# -eq 1 ] || exit 2
	abs "$1"
	inroot "$ROOT$1"
	[ -e "$ROOT$1" ]
	;;
islink)
	[ $# -eq 1 ] || exit 2
	abs "$1"
	[ -h "$ROOT$1" ]
	;;
run)
	[ $# -ge 1 ] || exit 2
	if ! command -v "$1" >/dev/null 2>&1; then
		echo "io.sh: not found" >&2
		exit 127
	fi
	exec "$@"
	;;
*)
	echo "usage: io.sh write|rename|remove|list|exists|islink|run|dump ..." >&2
	exit 2
	;;
esac
