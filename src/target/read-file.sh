# bootab read-file: prints at most LIMIT bytes of PATH (under ROOT).
# Usage: sh read-file.sh PATH LIMIT
# Exit 3: PATH does not exist; 4: not a regular file; 2: bad arguments.
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
[ -e "$f" ] || exit 3
[ -f "$f" ] || exit 4
exec head -c "$2" "$f"
