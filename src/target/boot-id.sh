# bootab boot-id: prints this boot's id. It changes on every boot and
# ignores clocks, so a new value proves a reboot happened.
set -u
ROOT=${ROOT-}
head -c 64 "$ROOT/proc/sys/kernel/random/boot_id"
