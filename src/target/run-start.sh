# bootab run-start: installs one boot's generated script and starts it
# detached, so a dropped SSH connection does not end it.
# Usage: sh run-start.sh DIR UNIT    (the script arrives on stdin)
# DIR is created (mode 0700; the directory two levels above it shared, mode
# 1777); the script is written to DIR/run.sh and runs
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
# DIR is BASE/CAMPAIGN/LABEL. BASE (/var/tmp/bootab) is shared by every
# user who runs campaigns on the box (root for a local campaign, a login
# user's rows over SSH): made like /tmp, sticky and writable by all, so the
# first user's umask does not lock the others out. CAMPAIGN and LABEL are
# the user's own (0700), and must not be another user's or a link.
campaign=${dir%/*}
base=${campaign%/*}
if [ ! -d "$base" ]; then
	mkdir -p "${base%/*}" && { mkdir -m 1777 "$base" 2>/dev/null || [ -d "$base" ]; } || exit 4
fi
if [ ! -w "$base" ]; then
	echo "run-start.sh: $base is not writable by $(id -un) (owner, mode: $(stat -c '%U, %a' "$base" 2>/dev/null || echo unknown)); remove it, or make it mode 1777" >&2
	exit 4
fi
own_dirs() {
	for d in "$campaign" "$dir"; do
		if [ -L "$d" ] || { [ -e "$d" ] && [ ! -O "$d" ]; }; then
			echo "run-start.sh: $d is not $(id -un)'s own directory" >&2
			exit 4
		fi
	done
}
umask 077
own_dirs
mkdir -p "$dir" || exit 4
own_dirs
if [ -e "$dir/status" ]; then
	echo "run-start.sh: $dir was already started (status: $(head -c 200 "$dir/status"))" >&2
	exit 7
fi
cat > "$dir/run.sh.tmp" && mv "$dir/run.sh.tmp" "$dir/run.sh" || exit 4
printf 'starting\n' > "$dir/status.tmp" && mv "$dir/status.tmp" "$dir/status" || exit 4
# The file run-watch.sh follows, there before the run says anything.
: >> "$dir/progress" || exit 4
if [ -d /run/systemd/system ] && command -v systemd-run >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
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
