#!/usr/bin/env bats
# Two named lab boxes at once (bootab lab --name) from one lab build, and a
# fleet campaign on both (targets = lab:b1 lab:b2): each box its own QEMU,
# port, monitor, state and Host alias, its own copy of the disks and its own
# machine-id; the fleet's two campaigns run side by side on the two guests
# and their pooled report names both machines. Kept short: two boots per
# box, one short row. Skipped only when QEMU cannot start.

bats_require_minimum_version 1.5.0
load ../helpers/lab

# pids whose command line names box $1's pid file.
box_qemu_pids() {
	local pidfile p
	pidfile="$(lab_dir)/boxes/$1/run/qemu.pid"
	for p in /proc/[0-9]*; do
		if tr '\0' '\n' <"$p/cmdline" 2>/dev/null | grep -qxF "$pidfile"; then
			echo "${p#/proc/}"
		fi
	done
}

box_ssh() { # BOX COMMAND...
	local box=$1
	shift
	timeout 20 ssh -F "$(lab_dir)/boxes/$box/run/ssh_config" -o ConnectTimeout=5 "bootab-lab-$box" "$@"
}

setup_file() {
	lab_usable || return 0
	"$BOOTAB" lab build >"$BATS_FILE_TMPDIR/build.out" 2>&1 || {
		cat "$BATS_FILE_TMPDIR/build.out" >&3
		return 1
	}
	# Both boxes come up at once.
	"$BOOTAB" lab --name b1 up >"$BATS_FILE_TMPDIR/up-b1.out" 2>"$BATS_FILE_TMPDIR/up-b1.err" &
	local p1=$!
	"$BOOTAB" lab up --name b2 >"$BATS_FILE_TMPDIR/up-b2.out" 2>"$BATS_FILE_TMPDIR/up-b2.err" &
	local p2=$!
	wait "$p1" || { cat "$BATS_FILE_TMPDIR/up-b1.err" >&3; return 1; }
	wait "$p2" || { cat "$BATS_FILE_TMPDIR/up-b2.err" >&3; return 1; }
}

teardown_file() {
	[ -n "${LAB_SKIP-}" ] && return 0
	for box in b1 b2; do
		BOOTAB_LAB_DIR=$(lab_dir) "$BOOTAB" lab --name "$box" down >/dev/null 2>&1 || true
	done
}

setup() {
	lab_setup
}

@test "two lab boxes at once: each its own QEMU, port, monitor, state, Host alias and machine-id, from one build" {
	local lab=$BOOTAB_LAB_DIR
	# What up printed: the box's own ssh_config and Host alias.
	[ "$(cat "$BATS_FILE_TMPDIR/up-b1.out")" = "ssh -F $lab/boxes/b1/run/ssh_config bootab-lab-b1" ]
	[ "$(cat "$BATS_FILE_TMPDIR/up-b2.out")" = "ssh -F $lab/boxes/b2/run/ssh_config bootab-lab-b2" ]
	grep -q "^bootab lab: box b1 made from $lab in [0-9]* ms: " "$BATS_FILE_TMPDIR/up-b1.err"
	cat "$BATS_FILE_TMPDIR/up-b1.err" "$BATS_FILE_TMPDIR/up-b2.err" >&3
	run -0 "$BOOTAB" lab --name b1 status --json
	s1=$output
	run -0 "$BOOTAB" lab status --name b2 --json
	s2=$output
	[ "$(jq -r .ssh_host <<<"$s1")" = bootab-lab-b1 ]
	[ "$(jq -r .ssh_host <<<"$s2")" = bootab-lab-b2 ]
	[ "$(jq -r .dir <<<"$s1")" = "$lab/boxes/b1" ]
	[ "$(jq .port <<<"$s1")" != "$(jq .port <<<"$s2")" ]
	[ "$(box_qemu_pids b1)" = "$(jq .pid <<<"$s1")" ]
	[ "$(box_qemu_pids b2)" = "$(jq .pid <<<"$s2")" ]
	# The lab itself is not running: the boxes are QEMUs of their own.
	run -1 "$BOOTAB" lab status
	[ -z "$(our_qemu_pids)" ]
	# Each box's monitor is its own.
	[ -S "$lab/boxes/b1/run/monitor.sock" ] && [ -S "$lab/boxes/b2/run/monitor.sock" ]
	# Its own disks, copied from the lab's build; what is only read is linked.
	for f in esp.img vars.fd data.img; do
		[ -f "$lab/boxes/b1/$f" ] && [ ! -L "$lab/boxes/b1/$f" ]
	done
	[ "$(readlink "$lab/boxes/b1/keys")" = ../../keys ]
	cmp "$lab/stamp" "$lab/boxes/b2/stamp"
	# Each guest has its box's machine-id: a fleet sees two machines.
	id1=$(box_ssh b1 cat /etc/machine-id)
	id2=$(box_ssh b2 cat /etc/machine-id)
	[ "$id1" = "$(cat "$lab/boxes/b1/machine-id")" ]
	[ "$id2" = "$(cat "$lab/boxes/b2/machine-id")" ]
	[ "$id1" != "$id2" ]
	run -0 "$BOOTAB" lab --name b2 ssh cat /etc/machine-id
	[ "$output" = "$id2" ]
	# A box that was never made is not running; a name is checked.
	run -1 "$BOOTAB" lab --name b3 ssh true
	[ "$output" = "bootab: lab: box b3 is not running in '$lab/boxes/b3' ('bootab lab --name b3 up' starts it)" ]
	run -2 "$BOOTAB" lab --name B1 status
	[[ "$output" == "bootab: lab: --name wants 1 to 32 of a-z 0-9 - (not starting with -), not 'B1'"* ]]
}

@test "a fleet campaign on two lab boxes side by side, and its pooled report" {
	data="$BATS_TEST_TMPDIR/runs"
	cat >"$BATS_TEST_TMPDIR/lab-fleet.ini" <<-EOF
	[campaign]
	targets = lab:b1 lab:b2
	backend = bls
	order = translated passthrough
	boot_timeout = 300
	box_timeout = 1500
	watch = 0000:00:02.0
	reps = 2
	poll = 2
	history = off
	ignore = ^hpet: Lost [0-9]+ RTC interrupts
	ignore = ^hrtimer: interrupt took

	[mode "translated"]
	args =
	expect = iommu.type(0000:00:02.0)=DMA-FQ

	[mode "passthrough"]
	args = iommu=pt
	expect = iommu.type(0000:00:02.0)=identity

	[row "randread"]
	command = lab-fio --name=randread --filename=/dev/lab-data --rw=randread --bs=4k --direct=1 --ioengine=libaio --iodepth=16 --runtime=2 --time_based --output-format=json
	parser = fio
	timeout = 120

	[idle]
	load = 100
	checks = 1
	interval = 1
	EOF
	run --separate-stderr "$BOOTAB" run --data "$data" "$BATS_TEST_TMPDIR/lab-fleet.ini"
	echo "$stderr"
	[ "$status" -eq 0 ]
	fleet=$(echo "$data"/lab-fleet-*)
	[ "$(sed -n 2,3p "$fleet/boxes" | tr '\n' ';')" = "lab_b1 lab:b1;lab_b2 lab:b2;" ]
	# Both campaigns ran at once: each box's boot 1 began before either's boot 2.
	first2=$(grep -n -E '^bootab: lab_b[12]: .*boot 2/2 ' <<<"$stderr" | head -n 1 | cut -d: -f1)
	for box in lab_b1 lab_b2; do
		n=$(grep -n -E "^bootab: $box: .*boot 1/2 " <<<"$stderr" | head -n 1 | cut -d: -f1)
		[ -n "$n" ] && [ "$n" -lt "$first2" ]
		grep -qx "bootab: $box: campaign finished" <<<"$stderr"
		grep -qx "target = lab:${box#lab_}" "$fleet/box/$box/$box.ini"
		# Two boots, each a reboot of that box's guest into its mode, proven.
		[ "$(grep -c ' rebooted ' "$fleet/box/$box"/$box-*/journal)" -eq 2 ]
		jq -r .verify "$fleet/box/$box"/$box-*/passthrough/meta.json | grep -Eqx "ok \([0-9]+ checks\)"
	done
	# The pooled report names the two guests by their boxes and machine-ids.
	[ "$output" = "$(cat "$fleet/report.txt")" ]
	grep -q '^fleet of 2 machines' "$fleet/report.txt"
	grep -Eq "^  lab_b1 +machine $(cat "$BOOTAB_LAB_DIR/boxes/b1/machine-id")$" "$fleet/report.txt"
	grep -Eq "^  lab_b2 +machine $(cat "$BOOTAB_LAB_DIR/boxes/b2/machine-id")$" "$fleet/report.txt"
	grep -q '^  pooled: ' "$fleet/report.txt"
	cat "$fleet/report.txt" >&3
}

@test "lab --name down stops that box only, and then nothing of the boxes runs" {
	run -0 "$BOOTAB" lab --name b1 down
	[ "$output" = "bootab: lab: stopped" ]
	[ -z "$(box_qemu_pids b1)" ]
	[ -n "$(box_qemu_pids b2)" ]
	run -0 box_ssh b2 true
	run -0 "$BOOTAB" lab --name b2 down
	[ -z "$(box_qemu_pids b2)" ]
	[ ! -e "$BOOTAB_LAB_DIR/boxes/b2/run/ssh_config" ]
}
