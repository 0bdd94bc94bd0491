# bootab read-file: prints at most LIMIT bytes of PATH (under ROOT).
# Usage: sh read-file.sh PATH LIMIT
# Exit 3: PATH does not exist; 6: not a regular file; 5: a symlink leads
# out of ROOT; 2: bad arguments.
set -u
ROOT=${ROOT-}
if [ $# -ne 2 ]; then
	echo "usage: read-file.sh PATH LIMIT" >&2
	exit 2
fi
case $2 in
'' | *[!0-9]*)
	echo "read-file.sh: bad limit '$2'" >&2
	exit 2
	;;
esac
case $1 in
/*) ;;
*)
	echo "read-file.sh: '$1' is not an absolute path" >&2
	exit 2
	;;
esac
f=$ROOT$1
# Under a ROOT (a captured tree on the controller), a symlink must not
# lead out of it to the controller's own files.
if [ -n "$ROOT" ] && [ -e "$f" ]; then
	root=$(readlink -f -- "$ROOT") || exit 2
	real=$(readlink -f -- "$f") || exit 2
	case $real in
	"$root"/*) ;;
	*)
		echo "read-file.sh: '$1' leads out of the root" >&2
		exit 5
		;;
	esac
fi
[ -e "$f" ] || exit 3
[ -f "$f" ] || exit 6
exec head -c "$2" "$f"
