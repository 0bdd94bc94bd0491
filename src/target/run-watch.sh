# bootab run-watch: follows a boot's run as it goes, one idle connection
# that speaks only when the run does.
# Usage: sh run-watch.sh DIR FROM LIMIT [FETCH_LIMIT]
# Skips the first FROM lines of DIR/progress, then prints
#   bootab-watch 1
#   line TEXT            each progress line as the run appends it
#   file NAME SIZE       after a "rep ROW REP ..." line: that rep's stdout,
#                        then exactly SIZE bytes and a newline
#   skip NAME SIZE       the same when it is missing (SIZE 0) or larger than LIMIT
#   end                  after the line "done" (or the last line of a finished run)
# and, with FETCH_LIMIT, then the run's results as run-fetch.sh DIR
# FETCH_LIMIT prints them (bootab-fetch 1, file/skip NAME SIZE, end), in
# the same session.
# A run whose status already says "done" is not followed: what is left of
# its progress file is printed, then "end".
# The wait is event-driven: the watch makes a fifo DIR/watch.PID.tmp and
# blocks reading it; the run (runner-helpers.sh, wake_watchers) writes a
# newline to every such fifo after each progress line, opening it
# read-write so that a fifo whose watch is gone never blocks the run (one
# the watch removed in between can be left as an empty regular file: the
# fetch skips *.tmp, the next watch removes it). Between lines nothing on
# the box wakes. A run whose run.sh does not wake its
# watchers (one started by an older bootab) is looked at once a second.
# Exit 3: the run has no progress file; 2: bad arguments; 4: no fifo.
set -u
set -f
if [ $# -ne 3 ] && [ $# -ne 4 ]; then
	echo "usage: run-watch.sh DIR FROM LIMIT [FETCH_LIMIT]" >&2
	exit 2
fi
dir=$1
from=$2
limit=$3
fetch=${4-}
case $from$limit${4-0} in
'' | *[!0-9]*)
	echo "run-watch.sh: bad FROM '$from', LIMIT '$limit' or FETCH_LIMIT '$fetch'" >&2
	exit 2
	;;
esac
[ -f "$dir/progress" ] || exit 3
# The wake fifo is there before the file is first read: a line appended
# after that read leaves its newline in the fifo, so no line is missed.
wake=$dir/watch.$$.tmp
rm -f "$wake"
mkfifo -m 600 "$wake" || exit 4
ticker=
trap '[ -z "$ticker" ] || kill "$ticker" 2> /dev/null; rm -f "$wake"' EXIT
trap 'exit 1' HUP INT TERM PIPE
exec 3<> "$wake"
# The fifos of watches killed before they could remove theirs.
set +f
for f in "$dir"/watch.*.tmp; do
	p=${f##*/watch.}
	p=${p%.tmp}
	case $p in '' | *[!0-9]*) continue ;; esac
	[ "$p" = "$$" ] || kill -0 "$p" 2> /dev/null || rm -f "$f"
done
set -f
st=
[ -f "$dir/status" ] && IFS= read -r st < "$dir/status"
follow=y
[ "$st" = 'done' ] && follow=
if [ -n "$follow" ] && ! grep -q '^wake_watchers()' "$dir/run.sh" 2> /dev/null; then
	(exec 5<> "$wake" && while sleep 1; do printf '\n' >&5 || exit 0; done) < /dev/null > /dev/null 2>&1 &
	ticker=$!
fi
exec 4< "$dir/progress"
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
n=0
part=
line=
finished=
while :; do
	# Every whole line appended since the last look; a line still being
	# written waits in part for its end.
	while :; do
		chunk=
		if ! IFS= read -r chunk <&4; then
			part=$part$chunk
			break
		fi
		line=$part$chunk
		part=
		n=$((n + 1))
		[ "$n" -gt "$from" ] || continue
		printf 'line %s\n' "$line" || exit 1
		case $line in
		"rep "*)
			# shellcheck disable=SC2086 # the words of the line, globbing is off
			set -- $line
			send "$2.$3.out"
			;;
		done)
			finished=y
			break 2
			;;
		esac
	done
	[ -n "$follow" ] || break
	IFS= read -r _ <&3 || exit 1
done
[ -n "$finished" ] || [ -z "$follow" ] || exit 1
printf 'end\n'
[ -n "$fetch" ] || exit 0
# The fetch, as run-fetch.sh sends it (send-files.sh).
# shellcheck disable=SC1091 # send-files.sh is checked on its own
. "${0%/*}/send-files.sh"
printf 'bootab-fetch 1\n'
send_files "$dir" "$fetch"
printf 'end\n'
