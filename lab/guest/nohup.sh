#!/bin/sh
# nohup for the lab guest (busybox-static has no nohup applet): ignore
# SIGHUP, send terminal output to nohup.out, run the command.
if [ $# -eq 0 ]; then
	echo "usage: nohup COMMAND [ARG...]" >&2
	exit 125
fi
trap '' HUP
if [ -t 1 ]; then
	exec >>nohup.out
fi
if [ -t 2 ]; then
	exec 2>&1
fi
exec "$@"
