#!/usr/bin/env bats
# bootab run of a fleet plan: every box's campaign side by side, one process
# each, under one fleet directory; one box that fails stops no other; the
# fleet resumes every box where it stopped; the pooled report at the end.
# The boxes here are --root trees (BOOTAB_TEST_FLEET_ROOTS: box NAME is
# target = local in the tree DIR/NAME), each "rebooted" by
# tests/cli/helpers/fake-boot.sh into the sysfs captured on the QEMU lab, as
# in local-run.bats; what is tested is the fleet: the processes, the layout,
# the outcomes, the resume and the pooled report.

bats_require_minimum_version 1.5.0

setup() {
	fixtures="$BATS_TEST_DIRNAME/../fixtures/sysfs"
	roots="$BATS_TEST_TMPDIR/roots"
	data="$BATS_TEST_TMPDIR/data"
	meet="$BATS_TEST_TMPDIR/meet"
	mkdir -p "$roots" "$data" "$meet"
	for box in box1 box2 box3; do
		make_tree "$roots/$box"
		od -An -N16 -tx1 /dev/urandom | tr -d ' \n' >"$roots/$box/etc/machine-id"
	done
	export BOOTAB_TEST_FLEET_ROOTS="$roots"
	export BOOTAB_TEST_LOCAL_REBOOT="exec sh '$BATS_TEST_DIRNAME/helpers/fake-boot.sh' \"\$BOOTAB_TEST_ROOT\" '$fixtures'"
	export XDG_DATA_HOME="$BATS_TEST_TMPDIR/xdg"
	unset SUDO_USER
	cat >"$BATS_TEST_TMPDIR/fleet.ini" <<-EOF
	[campaign]
	targets = root@box1 root@box2 root@box3
	backend = bls
	oneshot = off
	order = translated passthrough translated
	boot_timeout = 30
	poll = 1
	history = off

	[mode "translated"]
	args =

	[mode "passthrough"]
	args = iommu=pt

	[idle]
	load = 100
	checks = 1
	interval = 1

	[check "meet"]
	command = echo "\$\$" >>"$meet/arrived"; n=0; while [ "\$(grep -c '' "$meet/arrived")" -lt 2 ] && [ \$n -lt 600 ]; do sleep 0.1; n=\$((n + 1)); done; [ "\$(grep -c '' "$meet/arrived")" -ge 2 ]

	[row "answer"]
	command = echo \$((40 + \$(od -An -N1 -tu1 /dev/urandom) % 7))
	parser = number
	reps = 2
	EOF
}

make_tree() {
	mkdir -p "$1/boot/loader/entries" "$1/etc"
	cp -R "$fixtures/lab-translated/." "$1/"
	printf 'default lab.conf\ntimeout 0\n' >"$1/boot/loader/loader.conf"
	printf 'title bootab lab\nlinux /vmlinuz\ninitrd /initrd\noptions console=ttyS0 no_timer_check\n' \
		>"$1/boot/loader/entries/lab.conf"
}

@test "a fleet: boxes side by side, one failing box stops no other, the pooled report of those that finished" {
	# box3 has no boot loader entries: its campaign stops before anything changes.
	rm -r "$roots/box3/boot/loader"
	run --separate-stderr "$BOOTAB" run --data "$data" "$BATS_TEST_TMPDIR/fleet.ini"
	echo "$stderr"
	[ "$status" -eq 1 ]
	fleet=$(echo "$data"/fleet-*)
	[ -d "$fleet" ]
	[[ "$stderr" == *"bootab: fleet $BATS_TEST_TMPDIR/fleet.ini: 3 boxes side by side, data in $fleet"* ]]
	# Every box's lines carry its name; box3 names its problem and ends alone.
	grep -q '^bootab: box1: campaign box1-[0-9-]*: 3 boots on local' <<<"$stderr"
	grep -q '^bootab: box2: .*boot 3/3 translated2: done' <<<"$stderr"
	grep -q '^bootab: box3: ' <<<"$stderr"
	grep -qx 'bootab: box1: campaign finished' <<<"$stderr"
	grep -qx 'bootab: box2: campaign finished' <<<"$stderr"
	grep -q '^bootab: box3: boot 1 translated: setting mode translated failed: no boot entries' <<<"$stderr"
	grep -qx 'bootab: box3: campaign stopped (resumable)' <<<"$stderr"
	[[ "$stderr" == *"bootab: the fleet stopped with 2 of 3 boxes finished; continue the boxes that did not finish with: bootab run --resume $fleet"* ]]
	# The layout: the fleet's plan and boxes, each box's plan and campaign.
	[ "$(head -n 1 "$fleet/boxes")" = "bootab-fleet 2" ]
	[ "$(sed -n 2,4p "$fleet/boxes" | tr '\n' ';')" = "box1 root@box1;box2 root@box2;box3 root@box3;" ]
	cmp "$BATS_TEST_TMPDIR/fleet.ini" "$fleet/plan.ini"
	for box in box1 box2; do
		grep -qx 'target = local' "$fleet/box/$box/$box.ini"
		grep -qx finished "$fleet/box/$box"/$box-*/journal
		[ "$(cut -d' ' -f1 "$roots/$box/boots.log" | tr '\n' ' ')" = "translated passthrough translated " ]
		# The meeting check passed on every boot: each waited for the other box's campaign.
		[ "$(jq -r '.rows[] | select(.name == "meet") | .rc' "$fleet/box/$box"/$box-*/passthrough/meta.json)" = 0 ]
	done
	[ ! -e "$roots/box3/boots.log" ]
	# The pooled report (bootab report --fleet over the finished boxes), on stdout and in the fleet.
	[ "$output" = "$(cat "$fleet/report.txt")" ]
	# The same verdicts as bootab report --fleet of the two campaigns; the machines named by their boxes.
	"$BOOTAB" report --fleet "$fleet"/box/box1/box1-* "$fleet"/box/box2/box2-* >"$BATS_TEST_TMPDIR/by-hand.txt" 2>/dev/null
	diff <(grep -E '^  (pooled|spread|differs)' "$BATS_TEST_TMPDIR/by-hand.txt") <(grep -E '^  (pooled|spread|differs)' "$fleet/report.txt")
	grep -q '^  pooled: ' "$fleet/report.txt"
	grep -Eq "^  box1 +machine $(cat "$roots/box1/etc/machine-id")$" "$fleet/report.txt"
	grep -Eq "^  box2 +machine $(cat "$roots/box2/etc/machine-id")$" "$fleet/report.txt"
	! grep -q 'box3' "$fleet/report.txt" || false

	# box3 mended, the fleet resumed: box1 and box2 are left as they were, box3 runs, the report pools three.
	make_tree "$roots/box3"
	before=$(cat "$roots/box1/boots.log" "$roots/box2/boots.log")
	run --separate-stderr "$BOOTAB" run --resume "$fleet"
	echo "$stderr"
	[ "$status" -eq 0 ]
	grep -q "^bootab: box1: campaign finished before, in $fleet/box/box1/box1-" <<<"$stderr"
	grep -qx 'bootab: box3: campaign finished' <<<"$stderr"
	[ "$(cat "$roots/box1/boots.log" "$roots/box2/boots.log")" = "$before" ]
	[ "$(cut -d' ' -f1 "$roots/box3/boots.log" | tr '\n' ' ')" = "translated passthrough translated " ]
	grep -Eq "^  box3 +machine $(cat "$roots/box3/etc/machine-id")$" "$fleet/report.txt"
	grep -q '^fleet of 3 machines' "$fleet/report.txt"
	[ "$output" = "$(cat "$fleet/report.txt")" ]
}

@test "a fleet stopped part-way resumes every box where it stopped, repeating no boot" {
	run --separate-stderr env BOOTAB_TEST_STOP_AFTER="boot 2 started" "$BOOTAB" run --data "$data" "$BATS_TEST_TMPDIR/fleet.ini"
	echo "$stderr"
	[ "$status" -eq 1 ]
	fleet=$(echo "$data"/fleet-*)
	for box in box1 box2 box3; do
		grep -qx "bootab: $box: campaign stopped (resumable)" <<<"$stderr"
		[ "$(grep -c '' "$roots/$box/boots.log")" -eq 2 ]
	done
	[ ! -e "$fleet/report.txt" ]
	[[ "$stderr" == *"no pooled report: 0 of 3 boxes finished"* ]]

	run --separate-stderr "$BOOTAB" run --resume "$fleet"
	echo "$stderr"
	[ "$status" -eq 0 ]
	for box in box1 box2 box3; do
		grep -qx "bootab: $box: campaign finished" <<<"$stderr"
		# Three boots in all, each once: boot 1 was not made again.
		[ "$(cut -d' ' -f1 "$roots/$box/boots.log" | tr '\n' ' ')" = "translated passthrough translated " ]
		[ "$(grep -c ' rebooted ' "$fleet/box/$box"/$box-*/journal)" -eq 3 ]
	done
	grep -q '^fleet of 3 machines' "$fleet/report.txt"
	# A finished fleet, resumed, runs nothing and reports again.
	run --separate-stderr "$BOOTAB" run --resume "$fleet"
	[ "$status" -eq 0 ]
	[ "$(grep -c 'finished before' <<<"$stderr")" -eq 3 ]
	# A fleet directory of format 1 (each box's directory beside the fleet's files) resumes in its layout.
	mv "$fleet"/box/box[123] "$fleet"/
	rmdir "$fleet/box"
	sed -i '1s/.*/bootab-fleet 1/' "$fleet/boxes"
	rm "$fleet"/report.*
	run --separate-stderr "$BOOTAB" run --resume "$fleet"
	[ "$status" -eq 0 ]
	grep -q "^bootab: box1: campaign finished before, in $fleet/box1/box1-" <<<"$stderr"
	[ "$(grep -c 'finished before' <<<"$stderr")" -eq 3 ]
	grep -q '^fleet of 3 machines' "$fleet/report.txt"
	[ ! -e "$fleet/box" ]
}

@test "hosts named as the fleet's own files (report.txt, plan.ini, boxes) run, and the pooled report is written" {
	for box in report.txt plan.ini boxes; do
		make_tree "$roots/$box"
		od -An -N16 -tx1 /dev/urandom | tr -d ' \n' >"$roots/$box/etc/machine-id"
	done
	printf 'report.txt\nplan.ini\nboxes\n' >"$BATS_TEST_TMPDIR/hosts.ini"
	sed -i -e 's/^targets = .*/inventory = hosts.ini/' -e 's/^order = .*/order = translated passthrough/' \
		"$BATS_TEST_TMPDIR/fleet.ini"
	run --separate-stderr "$BOOTAB" run --data "$data" "$BATS_TEST_TMPDIR/fleet.ini"
	echo "$stderr"
	[ "$status" -eq 0 ]
	fleet=$(echo "$data"/fleet-*)
	for box in report.txt plan.ini boxes; do
		grep -qx "bootab: $box: campaign finished" <<<"$stderr"
		grep -qx finished "$fleet/box/$box"/$box-*/journal
	done
	cmp "$BATS_TEST_TMPDIR/fleet.ini" "$fleet/plan.ini"
	[ "$(head -n 1 "$fleet/boxes")" = "bootab-fleet 2" ]
	grep -q '^fleet of 3 machines' "$fleet/report.txt"
	[ "$output" = "$(cat "$fleet/report.txt")" ]
}

@test "a fleet plan's errors: a bad inventory line, --root and --dry-run" {
	printf '[campaign]\ninventory = hosts.ini\n[mode "a"]\nargs =\n' >"$BATS_TEST_TMPDIR/inv.ini"
	printf '[web]\nw1 ansible_host=a@b\nw2\n' >"$BATS_TEST_TMPDIR/hosts.ini"
	run "$BOOTAB" run --data "$data" "$BATS_TEST_TMPDIR/inv.ini"
	[ "$status" -eq 2 ]
	[[ "$output" == *"bootab: $BATS_TEST_TMPDIR/hosts.ini:2: ansible_host: 'a@b' is not a host name or address ssh can be given"* ]]
	[ -z "$(ls "$data")" ]
	run "$BOOTAB" run --dry-run "$BATS_TEST_TMPDIR/fleet.ini"
	[ "$status" -eq 2 ]
	[ "$output" = "bootab: $BATS_TEST_TMPDIR/fleet.ini: a fleet runs on its targets: no --dry-run (bootab plan lists its boxes)" ]
}

@test "box_timeout: a box that hangs is stopped, the fleet ends and reports the others; resumed, the box finishes" {
	release="$BATS_TEST_TMPDIR/release"
	# Long enough for box1 and box2 to finish their two boots (valgrind runs them far slower).
	limit=45
	[ -z "${BOOTAB_VALGRIND_BIN-}" ] || limit=150
	sed -i -e "s/^boot_timeout = 30\$/boot_timeout = 30\nbox_timeout = $limit/" \
		-e 's/^order = .*/order = translated passthrough/' "$BATS_TEST_TMPDIR/fleet.ini"
	# box3's check waits until $release exists: its campaign hangs in its first boot.
	cat >>"$BATS_TEST_TMPDIR/fleet.ini" <<-EOF

	[check "hang"]
	command = case "\$BOOTAB_TEST_ROOT" in */box3) while [ ! -e '$release' ]; do sleep 0.2; done ;; esac
	EOF
	start=$SECONDS
	run --separate-stderr "$BOOTAB" run --data "$data" "$BATS_TEST_TMPDIR/fleet.ini"
	took=$((SECONDS - start))
	touch "$release"
	echo "$stderr"
	[ "$status" -eq 1 ]
	fleet=$(echo "$data"/fleet-*)
	grep -qx "bootab: box3: its campaign has not ended within box_timeout ($limit s): stopping it" <<<"$stderr"
	grep -qx 'bootab: box3: campaign stopped (resumable)' <<<"$stderr"
	! grep -q 'box[12]: its campaign has not ended' <<<"$stderr" || false
	grep -qx 'bootab: box1: campaign finished' <<<"$stderr"
	grep -qx 'bootab: box2: campaign finished' <<<"$stderr"
	# Told at box_timeout, box3 stopped at its next safe point: before the kill 60 s later.
	[ "$took" -ge "$limit" ] && [ "$took" -lt $((limit + 55)) ]
	# The others' pooled report, without box3.
	grep -q '^fleet of 2 machines' "$fleet/report.txt"
	! grep -q 'box3' "$fleet/report.txt" || false
	[ "$output" = "$(cat "$fleet/report.txt")" ]
	# The same report as Markdown and JSON beside it.
	[ "$(head -n 1 "$fleet/report.md")" = "# Fleet of 2 machines, every mode against translated (+ is better)" ]
	[ "$(jq -r '[.machines[].name] | join(" ")' "$fleet/report.json")" = "box1 box2" ]
	[ "$(jq -r '.metrics[0].pooled.words' "$fleet/report.json")" = "$(sed -n 's/^  pooled: //p' "$fleet/report.txt" | head -n 1)" ]
	# The box plans carry no box_timeout: it bounds the fleet's boxes, not a campaign.
	! grep -q box_timeout "$fleet/box/box1/box1.ini" || false

	# Released and resumed, box3 finishes where it stopped and the report pools three.
	run --separate-stderr "$BOOTAB" run --resume "$fleet"
	echo "$stderr"
	[ "$status" -eq 0 ]
	grep -qx 'bootab: box3: campaign finished' <<<"$stderr"
	[ "$(cut -d' ' -f1 "$roots/box3/boots.log" | tr '\n' ' ')" = "translated passthrough " ]
	grep -q '^fleet of 3 machines' "$fleet/report.txt"
}

@test "box_timeout is a fleet's: in a one-box plan it is refused with file, line and key" {
	printf '[campaign]\ntarget = local\nbox_timeout = 60\n[mode "a"]\nargs =\n' >"$BATS_TEST_TMPDIR/one.ini"
	run "$BOOTAB" run --data "$data" "$BATS_TEST_TMPDIR/one.ini"
	[ "$status" -eq 2 ]
	[ "$output" = "bootab: $BATS_TEST_TMPDIR/one.ini:3: box_timeout: takes a fleet (targets or inventory): one box's campaign is bounded by boot_timeout and each row's timeout" ]
	sed -i 's/^boot_timeout = 30$/boot_timeout = 30\nbox_timeout = 5/' "$BATS_TEST_TMPDIR/fleet.ini"
	run "$BOOTAB" run --data "$data" "$BATS_TEST_TMPDIR/fleet.ini"
	[ "$status" -eq 2 ]
	[ "$output" = "bootab: $BATS_TEST_TMPDIR/fleet.ini:7: box_timeout: '5' is not a whole number from 10 to 2592000" ]
	[ -z "$(ls "$data")" ]
}

# The directories a run of plan fleet.ini would be given in the next 30
# seconds are taken (those still free), as by a fleet started in the same
# second.
take_next_names() {
	local now t d
	now=$(date +%s)
	for t in $(seq "$now" $((now + 30))); do
		d="$data/fleet-$(date -u -d "@$t" +%Y%m%d-%H%M%S)"
		[ ! -e "$d" ] || continue
		mkdir -p "$d"
		echo 'the other fleet' >"$d/plan.ini"
		printf 'bootab-fleet 1\nx root@x\ny root@y\n' >"$d/boxes"
	done
}

@test "runs started in the same second from plans of one name never share a directory" {
	take_next_names
	taken=$(ls "$data")
	sed -i 's/^order = .*/order = translated passthrough/' "$BATS_TEST_TMPDIR/fleet.ini"
	run --separate-stderr "$BOOTAB" run --data "$data" "$BATS_TEST_TMPDIR/fleet.ini"
	echo "$stderr"
	[ "$status" -eq 0 ]
	# The fleet took a name of its own; what the other fleets had is as it was.
	fleet=$(comm -13 <(echo "$taken") <(ls "$data"))
	[[ "$fleet" =~ ^fleet-[0-9]{8}-[0-9]{6}-2$ ]]
	grep -q '^fleet of 3 machines' "$data/$fleet/report.txt"
	cmp "$BATS_TEST_TMPDIR/fleet.ini" "$data/$fleet/plan.ini"
	for d in $taken; do
		[ "$(ls "$data/$d" | tr '\n' ' ')" = "boxes plan.ini " ]
		[ "$(cat "$data/$d/plan.ini")" = 'the other fleet' ]
		[ "$(sed -n 2p "$data/$d/boxes")" = 'x root@x' ]
	done

	# A one-box campaign of a plan of the same name: a directory of its own too. The names
	# are taken again from now: the fleet may have run for more than 30 seconds.
	mkdir "$BATS_TEST_TMPDIR/one"
	sed 's/^targets = .*/target = local/' "$BATS_TEST_TMPDIR/fleet.ini" >"$BATS_TEST_TMPDIR/one/fleet.ini"
	take_next_names
	taken=$(ls "$data")
	BOOTAB_TEST_ROOT="$roots/box1" run --separate-stderr "$BOOTAB" run --data "$data" --root "$roots/box1" "$BATS_TEST_TMPDIR/one/fleet.ini"
	echo "$stderr"
	one=$(comm -13 <(echo "$taken") <(ls "$data"))
	[[ "$one" =~ ^fleet-[0-9]{8}-[0-9]{6}-[23]$ ]]
	grep -q '^bootab-journal 1 campaign '"$one"' boots 2$' "$data/$one/journal"
	for d in $taken; do
		[ "$d" = "$fleet" ] && continue
		[ "$(ls "$data/$d" | tr '\n' ' ')" = "boxes plan.ini " ]
	done
}
