# bootab batch: runs the scripts bootab sends on stdin, in one session,
# each as it comes (bootab decides on one's output before it sends the
# next: a verify before the start of the rows), or several at once.
# Usage: sh batch.sh SHELL    (SHELL runs each script)
# Prints "bootab-batch 1" once, then for each request on stdin
#   run NAME HOW NARGS NTEXT NDATA LASTNL
#   NARGS lines: the script's arguments, one a line
#   NTEXT lines: the script
#   NDATA lines: its stdin (LASTNL 0: the last line without its newline)
# runs SHELL -c SCRIPT bootab-NAME ARGS... < STDIN, under sudo -n when
# HOW is sudo (as the login user when it is user), and prints
#   bootab-batch RC OUTSIZE ERRSIZE
# then its stdout (OUTSIZE bytes) and stderr (ERRSIZE bytes). A request
# "bg" with the fields of "run" starts its script in the background and
# answers nothing; "join" waits for every script started so since the
# last join and answers each as "run" would, in the order they started.
# Ends at the end of stdin. Exit 2: a request that is not one; 4: no
# temporary directory.
set -u
set -f
if [ $# -ne 1 ]; then
	echo "usage: batch.sh SHELL" >&2
	exit 2
fi
sh=$1
d=$(mktemp -d "${TMPDIR:-/tmp}/bootab-batch.XXXXXX") || exit 4
trap 'rm -rf "$d"' EXIT
trap 'exit 2' HUP INT TERM
nl='
'
# count N: N is a number.
count() {
	case $1 in
	'' | *[!0-9]*) return 1 ;;
	esac
}
# answer N: the answer of the script whose files are $d/*.N, exit code $rc.
answer() {
	o=$(wc -c < "$d/out.$1")
	e=$(wc -c < "$d/err.$1")
	echo "bootab-batch $rc ${o##* } ${e##* }"
	cat "$d/out.$1" "$d/err.$1"
}
echo "bootab-batch 1"
jobs=0
pids=
while IFS=' ' read -r op name how nargs ntext ndata lastnl; do
	if [ "$op" = join ] && [ -z "$name" ]; then
		j=0
		for p in $pids; do
			j=$((j + 1))
			wait "$p"
			rc=$?
			answer "$j"
		done
		jobs=0
		pids=
		continue
	fi
	if { [ "$op" != run ] && [ "$op" != bg ]; } || ! count "$nargs" || ! count "$ntext" || ! count "$ndata"; then
		echo "batch.sh: not a request: '$op $name'" >&2
		exit 2
	fi
	case $how in
	user | sudo) ;;
	*)
		echo "batch.sh: bad HOW '$how'" >&2
		exit 2
		;;
	esac
	set --
	i=0
	while [ "$i" -lt "$nargs" ]; do
		IFS= read -r a || exit 2
		set -- "$@" "$a"
		i=$((i + 1))
	done
	text=
	i=0
	while [ "$i" -lt "$ntext" ]; do
		IFS= read -r l || exit 2
		text=$text$l$nl
		i=$((i + 1))
	done
	n=0
	[ "$op" = run ] || n=$((jobs + 1))
	i=0
	while [ "$i" -lt "$ndata" ]; do
		IFS= read -r l || exit 2
		i=$((i + 1))
		if [ "$i" -lt "$ndata" ] || [ "$lastnl" = 1 ]; then
			printf '%s\n' "$l"
		else
			printf '%s' "$l"
		fi
	done > "$d/in.$n" || exit 4
	# The files are the batch's own (the login user's): only the script runs as root.
	if [ "$how" = sudo ]; then
		set -- sudo -n -- "$sh" -c "$text" "bootab-$name" "$@"
	else
		set -- "$sh" -c "$text" "bootab-$name" "$@"
	fi
	# A run is a script started as a bg one is, then waited for at once.
	# shellcheck disable=SC2024
	"$@" < "$d/in.$n" > "$d/out.$n" 2> "$d/err.$n" &
	if [ "$op" = run ]; then
		wait "$!"
		rc=$?
		answer 0
		continue
	fi
	jobs=$n
	pids="$pids $!"
done
# A batch ended without its join still waits for what it started.
wait
