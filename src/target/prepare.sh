# bootab prepare: one command of the plan's [prepare] section, run as root
# on every boot after verify and before the first row (drop caches, pin the
# governor, stop a service).
# Usage: sh prepare.sh COMMAND
# Prints the command's stdout and stderr together and exits with its
# status; stdin is /dev/null. Exit 2: bad arguments.
set -u
if [ $# -ne 1 ]; then
	echo "usage: prepare.sh COMMAND" >&2
	exit 2
fi
exec sh -c "$1" 2>&1 </dev/null
