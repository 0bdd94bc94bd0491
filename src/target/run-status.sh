# bootab run-status: prints the status line of a boot's run (bounded).
# Usage: sh run-status.sh DIR
# Exit 3: the run was never started in DIR; 2: bad arguments.
set -u
if [ $# -ne 1 ]; then
	echo "usage: run-status.sh DIR" >&2
	exit 2
fi
[ -f "$1/status" ] || exit 3
head -c 1024 "$1/status"
