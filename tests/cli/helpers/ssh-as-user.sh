#!/bin/sh
# Stands in for ssh(1) in the sudo-password tests: instead of connecting,
# it runs the remote command line as the destination's user (USER@HOST) on
# this machine, the way sshd would: in a new session without a controlling
# terminal, through sh -c, with stdin, stdout and stderr passed through.
# A control master (-N) and control commands (-O) succeed at once. Every
# argv is appended to $STANDIN_SSH_LOG, so a test can check what bootab
# handed to ssh. Needs root (runuser).
set -eu
printf '%s\n' "$*" >> "${STANDIN_SSH_LOG:-/dev/null}"
master=no
while [ $# -gt 0 ]; do
	case $1 in
	--) shift; break ;;
	-N) master=yes; shift ;;
	-O) exit 0 ;;
	-o|-F) shift 2 ;;
	*) shift ;;
	esac
done
[ "$master" = no ] || exit 0
destination=$1
shift
user=${destination%@*}
exec setsid -w runuser -u "$user" -- /bin/sh -c "$*"
