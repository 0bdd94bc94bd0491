# bootab run-start: installs one boot's generated script and starts it
# detached, so a dropped SSH connection does not end it.
# Usage: sh run-start.sh DIR UNIT    (the script arrives on stdin)
# DIR is created (mode 0700); the script is written to DIR/run.sh and runs
# with DIR as its working directory, writing DIR/status and DIR/progress
# as it goes. A DIR that already has a status is never started twice (exit 7).
# systemd-run --unit UNIT is used where systemd runs and we are root, else
# setsid. Exit 2: bad arguments; 4: cannot create DIR or the script.
set -u
if [ $# -ne 2 ]; then
	echo "usage: run-start.sh DIR UNIT" >&2
	exit 2
fi
dir=$1
unit=$2
case $dir in
/*) ;;
*)
	echo "run-start.sh: '$dir' is not an absolute path" >&2
	exit 2
	;;
esac
case $unit in
'' | *[!A-Za-z0-9_.-]*)
	echo "run-start.sh: bad unit name '$unit'" >&2
	exit 2
	;;
esac
umask 077
mkdir -p "$dir" || exit 4
if [ -e "$dir/status" ]; then
	echo "run-start.sh: $dir was already started (status: $(head -c 200 "$dir/status"))" >&2
	exit 7
fi
cat > "$dir/run.sh.tmp" && mv "$dir/run.sh.tmp" "$dir/run.sh" || exit 4
printf 'starting\n' > "$dir/status.tmp" && mv "$dir/status.tmp" "$dir/status" || exit 4
# The file run-watch.sh follows, there before the run says anything.
: >> "$dir/progress" || exit 4
if [ "$(id -u)" = 0 ] && command -v systemd-run >/dev/null 2>&1 && [ -d /run/systemd/system ]; then
	if systemd-run --unit "$unit" --collect --quiet --working-directory "$dir" sh "$dir/run.sh"; then
		echo "started systemd unit $unit"
		exit 0
	fi
fi
cd "$dir" || exit 4
if command -v setsid >/dev/null 2>&1; then
	setsid sh "$dir/run.sh" </dev/null >/dev/null 2>&1 &
else
	nohup sh "$dir/run.sh" </dev/null >/dev/null 2>&1 &
fi
echo "started process $!"
