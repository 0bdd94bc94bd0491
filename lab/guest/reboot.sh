#!/bin/sh
# reboot, poweroff and halt in the lab guest. busybox's `reboot -f` skips
# every shutdown action, so the ESP (mounted read-write at /boot, edited by
# bootab) is flushed and unmounted first; if something holds it open it is
# remounted read-only instead. The action runs detached a second later so
# an SSH session that asked for it returns cleanly instead of hanging on a
# connection whose far end vanished.
case ${0##*/} in
poweroff) action=poweroff ;;
halt) action=halt ;;
*) action=reboot ;;
esac
sync
# shellcheck disable=SC2016 # $1 is for the inner shell
setsid sh -c '
	sleep 1
	sync
	umount /boot 2>/dev/null || mount -o remount,ro /boot 2>/dev/null
	sync
	exec busybox "$1" -f
' lab-"$action" "$action" </dev/null >/dev/null 2>&1 &
echo "bootab-lab: $action in 1 s"
