#!/usr/bin/env bats
# The lab target, for real: QEMU boots OVMF, systemd-boot and the Debian
# kernel; the tests edit the BLS entry over SSH, reboot the guest, and check
# the new boot from /proc and sysfs. Skipped only when QEMU cannot start.
#
# The lab directory: see helpers/lab.bash.

bats_require_minimum_version 1.5.0

load helpers/lab

setup_file() { lab_setup_file; }
teardown_file() { lab_teardown_file; }
teardown() { lab_teardown; }
setup() { lab_setup; }

@test "lab up prints the SSH command and the guest answers with a boot_id" {
	[ "$(cat "$BATS_FILE_TMPDIR/up.out")" = "ssh -F $BOOTAB_LAB_DIR/run/ssh_config bootab-lab" ]
	run -0 "$BOOTAB" lab status
	[[ "$output" =~ boot_id:\ [0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12} ]]
	[ "${lines[0]}" = "running: yes" ]
	run -0 lab_ssh cat /proc/cmdline
	[ "$output" = 'initrd=\initrd console=ttyS0 no_timer_check' ]
}

@test "ssh_config keeps host-key checking strict and pins the lab's host key" {
	run -0 grep -E '^[[:space:]]*(StrictHostKeyChecking|HostKeyAlias|BatchMode|User|HostName)[[:space:]]' \
		"$BOOTAB_LAB_DIR/run/ssh_config"
	[ "$output" = $'\tHostName 127.0.0.1\n\tUser root\n\tHostKeyAlias bootab-lab\n\tStrictHostKeyChecking yes\n\tBatchMode yes' ]
	# A wrong key for the alias is refused, not accepted.
	ssh-keygen -q -t ed25519 -N '' -f "$BATS_TEST_TMPDIR/other"
	echo "bootab-lab $(cut -d' ' -f1,2 "$BATS_TEST_TMPDIR/other.pub")" >"$BATS_TEST_TMPDIR/known_hosts"
	run ssh -F "$BOOTAB_LAB_DIR/run/ssh_config" -o UserKnownHostsFile="$BATS_TEST_TMPDIR/known_hosts" \
		-o LogLevel=INFO bootab-lab true
	[ "$status" -eq 255 ]
	[[ "$output" == *"HOST IDENTIFICATION HAS CHANGED"* ]]
}

@test "the guest sees the translated IOMMU mode and its two disks" {
	run -0 lab_ssh 'cat /sys/kernel/iommu_groups/*/type | sort -u'
	[ "$output" = "DMA-FQ" ]
	run -0 lab_ssh 'mount | grep " /boot "; readlink /dev/lab-data; ls /sys/firmware/efi/efivars | grep -c .'
	[[ "${lines[0]}" == "/dev/vd"?" on /boot type vfat (rw,"* ]]
	[[ "${lines[1]}" == /dev/vd? ]]
	[ "${lines[2]}" -gt 0 ]
}

@test "a BLS edit plus a reboot gives a new boot_id with the arg in /proc/cmdline" {
	local entry=/boot/loader/entries/lab.conf old new
	old=$(lab_ssh cat /proc/sys/kernel/random/boot_id)
	run -0 lab_ssh "sed 's/^options .*/& iommu=pt/' $entry >$entry.tmp && mv $entry.tmp $entry && sync && grep ^options $entry"
	[ "$output" = "options console=ttyS0 no_timer_check iommu=pt" ]
	run -0 lab_ssh reboot
	new=$(wait_new_boot_id "$old")
	[ -n "$new" ]
	run -0 lab_ssh cat /proc/cmdline
	[ "$output" = 'initrd=\initrd console=ttyS0 no_timer_check iommu=pt' ]
	# The reset was seen, and TCG's translations of the last boot dropped.
	run -0 grep -c "reset: translations flushed" "$BOOTAB_LAB_DIR/run/resets"
	[ "$output" = 1 ]
	run -0 lab_ssh 'cat /sys/kernel/iommu_groups/*/type | sort -u'
	[ "$output" = "identity" ]
	# Restore the entry for the next boot.
	run -0 lab_ssh "sed 's/ iommu=pt\$//' $entry >$entry.tmp && mv $entry.tmp $entry && sync && grep ^options $entry"
	[ "$output" = "options console=ttyS0 no_timer_check" ]
}

@test "power-cycle resets the guest through the monitor" {
	local old new
	old=$(lab_ssh cat /proc/sys/kernel/random/boot_id)
	run -0 "$BOOTAB" lab power-cycle
	run -0 --separate-stderr "$BOOTAB" lab wait --since "$old" --timeout 180
	new=$output
	[[ "$new" =~ ^[0-9a-f-]{36}$ ]]
	[ "$new" != "$old" ]
	run -0 lab_ssh cat /proc/cmdline
	[ "$output" = 'initrd=\initrd console=ttyS0 no_timer_check' ]
	# Each reset: flushed at once, then every few seconds until the
	# kernel's "Run /init as init process" came on the console.
	run -0 cat "$BOOTAB_LAB_DIR/run/resets"
	echo "$output"
	[ "${#lines[@]}" -eq 5 ]
	[[ "${lines[0]}" =~ ^[0-9]+\.[0-9]{3}\ watcher\ [0-9]+:\ flushing\ the\ translations\ after\ each\ reset\ and\ kexec$ ]]
	[[ "${lines[3]}" =~ ^[0-9]+\.[0-9]{3}\ reset:\ translations\ flushed$ ]]
	[[ "${lines[4]}" =~ ^[0-9]+\.[0-9]{3}\ reset:\ [0-9]+\ more\ flushes,\ init\ ran\ [0-9]+\.[0-9]\ s\ after\ it$ ]]
}

@test "lab down leaves no QEMU of ours running" {
	run -0 "$BOOTAB" lab down
	[ "$output" = "bootab: lab: stopped" ]
	[ -z "$(our_qemu_pids)" ]
	# The reset watcher ended with QEMU.
	local watcher
	watcher=$(sed -n '1s/^[0-9.]* watcher \([0-9]*\):.*/\1/p' "$BOOTAB_LAB_DIR/run/resets")
	[ -n "$watcher" ]
	for _ in $(seq 50); do
		[ -e "/proc/$watcher" ] || break
		sleep 0.1
	done
	[ ! -e "/proc/$watcher" ]
	run -1 "$BOOTAB" lab status
	[ "$output" = "running: no" ]
	[ ! -e "$BOOTAB_LAB_DIR/run/ssh_config" ]
	run -1 "$BOOTAB" lab ssh true
	[ "$output" = "bootab: lab: not running in '$BOOTAB_LAB_DIR' ('bootab lab up' starts it)" ]
}
