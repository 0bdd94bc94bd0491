#!/usr/bin/env bats
# The lab target, for real: QEMU boots OVMF, systemd-boot and the Debian
# kernel; the tests edit the BLS entry over SSH, reboot the guest, and check
# the new boot from /proc and sysfs. Skipped only when QEMU cannot start.
#
# The lab directory is $BOOTAB_TEST_LAB_DIR, by default a new one per run
# (test suites running at the same time on one machine must not share a
# lab), apart from the user's own lab. The kernel package download is
# shared through ${XDG_CACHE_HOME:-$HOME/.cache}/bootab/deb-cache.

bats_require_minimum_version 1.5.0

lab_dir() {
	echo "${BOOTAB_TEST_LAB_DIR:-$BATS_FILE_TMPDIR/lab}"
}

# Can this machine start a QEMU at all? (The one reason to skip.)
qemu_probe() {
	command -v qemu-system-x86_64 >/dev/null || {
		echo "qemu-system-x86_64 not installed (apt-get install qemu-system-x86)"
		return 1
	}
	local out
	if ! out=$(echo quit | timeout 30 qemu-system-x86_64 -M q35,accel=tcg -nodefaults \
		-display none -S -monitor stdio 2>&1 >/dev/null); then
		echo "qemu-system-x86_64 cannot start: ${out:-no message}"
		return 1
	fi
}

# A bounded SSH attempt: the connect timeout plus a ceiling on the whole
# command, because QEMU's port forward accepts connections while the guest
# is down and ssh would then wait for a banner.
lab_ssh() {
	timeout 20 ssh -F "$(lab_dir)/run/ssh_config" -o ConnectTimeout=5 bootab-lab "$@"
}

# Waits for a boot_id other than $1: at most 40 attempts 2 s apart.
wait_new_boot_id() {
	local old=$1 id
	for _ in $(seq 40); do
		if id=$(lab_ssh cat /proc/sys/kernel/random/boot_id 2>/dev/null) &&
			[[ "$id" =~ ^[0-9a-f-]{36}$ ]] && [ "$id" != "$old" ]; then
			echo "$id"
			return 0
		fi
		sleep 2
	done
	return 1
}

# pids whose command line names this lab's pid file: our QEMU, nothing else.
our_qemu_pids() {
	local pidfile p
	pidfile="$(lab_dir)/run/qemu.pid"
	for p in /proc/[0-9]*; do
		if tr '\0' '\n' <"$p/cmdline" 2>/dev/null | grep -qxF "$pidfile"; then
			echo "${p#/proc/}"
		fi
	done
}

setup_file() {
	local why
	if [ -n "${BOOTAB_TEST_NO_LAB-}" ]; then
		export LAB_SKIP="lab tests run in the plain pass of make check, not under $BOOTAB_TEST_NO_LAB"
		return 0
	fi
	if ! why=$(qemu_probe); then
		export LAB_SKIP="$why"
		return 0
	fi
	export BOOTAB_LAB_DIR BOOTAB_LAB_DEB_CACHE
	BOOTAB_LAB_DIR=$(lab_dir)
	BOOTAB_LAB_DEB_CACHE=${BOOTAB_LAB_DEB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/bootab/deb-cache}
	"$BOOTAB" lab down >/dev/null 2>&1 || true
	"$BOOTAB" lab up >"$BATS_FILE_TMPDIR/up.out" 2>"$BATS_FILE_TMPDIR/up.err" || {
		cat "$BATS_FILE_TMPDIR/up.err" >&3
		return 1
	}
}

teardown_file() {
	[ -n "${LAB_SKIP-}" ] && return 0
	BOOTAB_LAB_DIR=$(lab_dir) "$BOOTAB" lab down >/dev/null 2>&1 || true
}

setup() {
	if [ -n "${LAB_SKIP-}" ]; then
		skip "$LAB_SKIP"
	fi
	export BOOTAB_LAB_DIR
	BOOTAB_LAB_DIR=$(lab_dir)
}

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
}

@test "lab down leaves no QEMU of ours running" {
	run -0 "$BOOTAB" lab down
	[ "$output" = "bootab: lab: stopped" ]
	[ -z "$(our_qemu_pids)" ]
	run -1 "$BOOTAB" lab status
	[ "$output" = "running: no" ]
	[ ! -e "$BOOTAB_LAB_DIR/run/ssh_config" ]
	run -1 "$BOOTAB" lab ssh true
	[ "$output" = "bootab: lab: not running in '$BOOTAB_LAB_DIR' ('bootab lab up' starts it)" ]
}
