# bootab boot-id: prints this boot's id. It changes on every boot and
# ignores clocks, so a new value proves a reboot happened. Read by the
# shell (no process: the reboot wait asks on every poll), at most 64 bytes
# of its first line.
set -u
ROOT=${ROOT-}
id=
IFS= read -r id <"$ROOT/proc/sys/kernel/random/boot_id" || [ -n "$id" ] || exit 1
printf '%.64s\n' "$id"
