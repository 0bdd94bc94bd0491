# bootab run-fetch: prints every file of a boot's run directory in one
# stream the controller checks before it keeps anything:
#   bootab-fetch 1
#   file NAME SIZE       then exactly SIZE bytes of the file and a newline
#   skip NAME SIZE       a file larger than LIMIT bytes: not sent, never cut
#   ...
#   end
# Only regular files directly in DIR whose names are made of letters,
# digits, '.', '_' and '-' are sent, each whole. The controller writes the
# stream to disk as it comes, so its size is not bounded by memory.
# send-files.sh says how (a handful of processes, however many files).
# Usage: sh run-fetch.sh DIR LIMIT
set -u
if [ $# -ne 2 ]; then
	echo "usage: run-fetch.sh DIR LIMIT" >&2
	exit 2
fi
dir=$1
limit=$2
case $limit in
'' | *[!0-9]*)
	echo "run-fetch.sh: bad limit '$limit'" >&2
	exit 2
	;;
esac
[ -d "$dir" ] || exit 3
# shellcheck disable=SC1091 # send-files.sh is checked on its own
. "${0%/*}/send-files.sh"
printf 'bootab-fetch 1\n'
send_files "$dir" "$limit"
printf 'end\n'
