# bootab reboot: reboots this box, detached from the SSH session so that
# the session ending does not stop it. Uses systemctl where systemd runs,
# else reboot. Prints "rebooting<TAB>COMMAND" first.
# Usage: sh reboot.sh [reboot|kexec]   kexec: boot the kernel kexec -l
# loaded (systemctl kexec where systemd runs, else kexec -e).
set -u
what=${1:-reboot}
sync
if command -v systemctl >/dev/null 2>&1 && [ -d /run/systemd/system ]; then
	how="systemctl $what"
elif [ "$what" = kexec ]; then
	how='kexec -e'
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
