# bootab batch: runs the scripts bootab sends on stdin, in one session,
# each as it comes (bootab decides on one's output before it sends the
# next: a verify before the start of the rows), or several at once.
# Usage: sh batch.sh SHELL    (SHELL runs each script)
# Prints "bootab-batch 2" once (or "bootab-batch 0" and ends where there
# is no dd or the temporary directory's name cannot be sourced as it is:
# bootab then runs each script in a session of its own), then for each
# request on stdin
#   run NAME HOW NARGS NTEXT NDATA
#   NARGS lines: the script's arguments, one a line
#   then the script and its stdin: NTEXT and NDATA bytes, read by dd a
#   block at a time
# runs SHELL -c '. SCRIPT' bootab-NAME ARGS... < STDIN (the script sourced
# from a file in the batch's directory), under sudo -n when HOW is sudo
# (as the login user when it is user), and prints
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
# Bytes where dd can read them and the directory's name can be sourced as it is.
case $d in
*[!A-Za-z0-9/._-]*) v=0 ;;
*) if command -v dd >/dev/null 2>&1; then v=2; else v=0; fi ;;
esac
# count N: N is a number.
count() {
	case $1 in
	'' | *[!0-9]*) return 1 ;;
	esac
}
# take N FILE: N bytes of stdin into FILE, by dd; a read that came short
# (the rest not yet there) is measured by wc and the rest read after it.
take() {
	: >"$2" || exit 4
	left=$1
	while [ "$left" -gt 0 ]; do
		LC_ALL=C dd bs="$left" count=1 2>"$d/dd" >>"$2" || exit 4
		IFS= read -r got <"$d/dd" || got=
		case $got in
		1+0' '*) left=0 ;;
		0+1' '*)
			got=$(wc -c <"$2") || exit 4
			left=$(($1 - got))
			;;
		*) exit 2 ;;
		esac
	done
}
# answer J...: the answers of the scripts J (their files $d/*.J, exit
# codes $rc_J), in that order: their sizes by one wc and all of them, each
# answer's line a file, by one cat; no process when every one is empty.
answer() {
	empty=y
	for j in "$@"; do
		[ ! -s "$d/out.$j" ] && [ ! -s "$d/err.$j" ] || empty=
	done
	if [ -n "$empty" ]; then
		for j in "$@"; do
			eval "echo \"bootab-batch \$rc_$j 0 0\""
		done
		return 0
	fi
	for j in "$@"; do
		set -- "$@" "out.$j" "err.$j"
		shift
	done
	(cd "$d" && exec wc -c -- "$@") >"$d/sizes" || exit 4
	list=
	# shellcheck disable=SC2034 # o and e are read by the eval below
	while [ $# -gt 0 ] && read -r o f; do
		[ "$f" = "$1" ] || continue
		read -r e f || exit 4
		[ "$f" = "$2" ] || exit 4
		j=${1#out.}
		shift 2
		eval "printf 'bootab-batch %s %s %s\\n' \"\$rc_$j\" \"\$o\" \"\$e\"" >"$d/head.$j"
		list="$list head.$j out.$j err.$j"
	done <"$d/sizes"
	[ $# -eq 0 ] || exit 4
	# shellcheck disable=SC2086 # the names hold no space
	(cd "$d" && exec cat -- $list)
}
echo "bootab-batch $v"
[ "$v" = 2 ] || exit 0
jobs=0
pids=
while IFS=' ' read -r op name how nargs ntext ndata extra; do
	if [ "$op" = join ] && [ -z "$name" ]; then
		j=0
		set --
		for p in $pids; do
			j=$((j + 1))
			wait "$p"
			eval "rc_$j=\$?"
			set -- "$@" "$j"
		done
		[ $# -eq 0 ] || answer "$@"
		jobs=0
		pids=
		continue
	fi
	if { [ "$op" != run ] && [ "$op" != bg ]; } || ! count "$nargs" || ! count "$ntext" || ! count "$ndata" ||
		[ -n "$extra" ]; then
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
	n=0
	[ "$op" = run ] || n=$((jobs + 1))
	take "$ntext" "$d/text.$n"
	take "$ndata" "$d/in.$n"
	text=". $d/text.$n"
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
		# shellcheck disable=SC2034 # read by answer, through eval
		rc_0=$?
		answer 0
		continue
	fi
	jobs=$n
	pids="$pids $!"
done
# A batch ended without its join still waits for what it started.
wait
