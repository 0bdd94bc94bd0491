# bootab run-watch: follows a boot's run as it goes, one idle connection
# that speaks only when the run does (tail -f of its progress file).
# Usage: sh run-watch.sh DIR FROM LIMIT
# Skips the first FROM lines of DIR/progress, then prints
#   bootab-watch 1
#   line TEXT            each progress line as the run appends it
#   file NAME SIZE       after a "rep ROW REP ..." line: that rep's stdout,
#                        then exactly SIZE bytes and a newline
#   skip NAME SIZE       the same when it is missing (SIZE 0) or larger than LIMIT
#   end                  after the line "done" (or the last line of a finished run)
# A run whose status already says "done" is not followed: what is left of
# its progress file is printed, then "end".
# Exit 3: the run has no progress file; 2: bad arguments; 4: no fifo.
set -u
set -f
if [ $# -ne 3 ]; then
	echo "usage: run-watch.sh DIR FROM LIMIT" >&2
	exit 2
fi
dir=$1
from=$2
limit=$3
case $from$limit in
'' | *[!0-9]*)
	echo "run-watch.sh: bad FROM '$from' or LIMIT '$limit'" >&2
	exit 2
	;;
esac
[ -f "$dir/progress" ] || exit 3
fifo=$dir/watch.$$.tmp
rm -f "$fifo"
mkfifo -m 600 "$fifo" || exit 4
st=
[ -f "$dir/status" ] && IFS= read -r st < "$dir/status"
follow=-f
[ "$st" = 'done' ] && follow=
# shellcheck disable=SC2086 # -f or nothing
tail -n "+$((from + 1))" $follow "$dir/progress" > "$fifo" 2> /dev/null &
tail_pid=$!
# The reader that goes (connection dropped: the next write fails) takes tail with it.
trap 'kill "$tail_pid" 2> /dev/null; rm -f "$fifo"' EXIT
trap 'exit 1' HUP INT TERM PIPE
exec 3< "$fifo"
rm -f "$fifo"
printf 'bootab-watch 1\n'
send() { # NAME
	f=$dir/$1
	size=0
	[ -f "$f" ] && size=$(wc -c < "$f")
	size=$((size + 0))
	if [ ! -f "$f" ] || [ "$size" -gt "$limit" ]; then
		printf 'skip %s %s\n' "$1" "$size"
		return
	fi
	printf 'file %s %s\n' "$1" "$size"
	head -c "$size" "$f"
	printf '\n'
}
line=
while IFS= read -r line <&3; do
	printf 'line %s\n' "$line" || exit 1
	case $line in
	"rep "*)
		# shellcheck disable=SC2086 # the words of the line, globbing is off
		set -- $line
		send "$2.$3.out"
		;;
	done) break ;;
	esac
done
[ "$line" = 'done' ] || [ -z "$follow" ] || exit 1
printf 'end\n'
