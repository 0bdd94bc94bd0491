# bootab reboot: reboots this box, detached from the SSH session so that
# the session ending does not stop it. Uses systemctl where systemd runs,
# else reboot. Prints "rebooting<TAB>COMMAND" first.
set -u
sync
if command -v systemctl >/dev/null 2>&1 && [ -d /run/systemd/system ]; then
	how='systemctl reboot'
else
	how='reboot'
fi
printf 'rebooting\t%s\n' "$how"
# One second lets the answer above reach the controller before the
# network goes down.
if command -v setsid >/dev/null 2>&1; then
	setsid sh -c "sleep 1; exec $how" </dev/null >/dev/null 2>&1 &
else
	nohup sh -c "sleep 1; exec $how" </dev/null >/dev/null 2>&1 &
fi
exit 0
