#!/usr/bin/env bats
# bootab run against the real QEMU lab: a whole campaign from a plan, the
# controller killed with SIGKILL at each step (after verify, during the
# fetch, while the side is written, before the journal says done, while a
# row runs) and the campaign resumed, a data disk that fills up between two
# boots, a full or read-only data directory at the start, a boot whose
# verify fails, a kernel that never comes up, a [prepare] step, perf in
# the guest. Skipped only when QEMU cannot start.

bats_require_minimum_version 1.5.0
load helpers/lab

setup_file() {
	lab_setup_file
}

teardown_file() {
	lab_teardown_file
}

setup() {
	lab_setup
	data="$BATS_FILE_TMPDIR/runs"
}

write_plan() { # FILE ORDER [EXTRA MODE SECTION]
	cat >"$1" <<-EOT
	[campaign]
	target = lab
	backend = bls
	order = $2
	boot_timeout = ${BOOT_TIMEOUT:-300}
	power_cycle = $BOOTAB lab power-cycle
	watch = 0000:00:02.0
	reps = 2
	poll = 2
	# timing warnings TCG prints now and then, on any boot
	ignore = ^hpet: Lost [0-9]+ RTC interrupts
	ignore = ^hrtimer: interrupt took

	[mode "translated"]
	args =
	expect = iommu.type(0000:00:02.0)=DMA-FQ

	[mode "passthrough"]
	args = iommu=pt
	expect = iommu.type(0000:00:02.0)=identity

	${3-}

	[row "randread"]
	command = lab-fio --name=randread --filename=/dev/lab-data --rw=randread --bs=4k --direct=1 --ioengine=libaio --iodepth=32 --runtime=3 --time_based --output-format=json
	parser = fio
	timeout = 120

	[check "data-disk"]
	command = dd if=/dev/lab-data of=/dev/null bs=4096 count=64 iflag=direct

	[version "kernel"]
	command = uname -r

	[idle]
	load = 100
	checks = 1
	interval = 1
	EOT
}

# The campaign directory a run created under $data.
campaign_dir() {
	local d
	for d in "$data"/"$1"-*; do
		[ -d "$d" ] && echo "$d"
	done
	# None yet (the run that makes it may still be starting) is an empty answer, not a failure.
	return 0
}

# Waits (at most $1 seconds, polling every $2) until the command after
# them holds, while bootab ($pid) runs.
wait_until() {
	local end=$((SECONDS + $1)) step=$2
	shift 2
	until "$@"; do
		if ! kill -0 "$pid" 2>/dev/null; then
			"$@" && return 0
			echo "bootab ended before: $*"
			return 1
		fi
		[ "$SECONDS" -lt "$end" ] || { echo "waited in vain for: $*"; return 1; }
		sleep "$step"
	done
}

# The journal holds whole lines of bootab's own, but for a last line a
# kill may have cut short (the reader drops it; the next append cuts it).
journal_sane() { # DIR
	local j=$1/journal bad
	bad=$(head -n "$(wc -l <"$j")" "$j" |
		grep -v -E '^(bootab-journal 1 campaign [^ ]+ boots [0-9]+|boot [0-9]+ [a-z0-9]+ (begin|set|rebooted [0-9a-f-]+ [0-9.]+ [0-9a-f-]+|verified|started /var/tmp/bootab/[^ ]+|progress [0-9]+ [0-9.]+|done|failed [a-z-]+)|finished)$' || true)
	[ -z "$bad" ] || { echo "not a journal line: $bad"; return 1; }
}

# Starts bootab run --resume DIR in the background (stderr to $2), sets pid.
resume_bg() { # DIR ERRFILE [ENV=VALUE...]
	local dir=$1 err=$2
	shift 2
	env "$@" "$BOOTAB" run --resume "$dir" >/dev/null 2>"$err" &
	pid=$!
}

# kill -9 of $pid, and the journal still reads.
kill_controller() {
	kill -9 "$pid"
	wait "$pid" || true
	journal_sane "$dir"
}

# Each progress line of a boot's rows shown exactly once in the files
# (the runs of one campaign, a resume after a kill or a reconnect after a
# cut included): none lost, none doubled.
rows_told_once() { # "K/N LABEL" FILE...
	local boot=$1 line n
	shift
	for line in "gate randread" "row randread 1/2" "row randread 1/2: randread.iops * IOPS (+3 more)" \
		"row randread 2/2" "row randread 2/2: randread.iops * IOPS (+3 more)" "check data-disk 1/1" \
		"check data-disk 1/1: passed" "done"; do
		n=$(cat "$@" | sed -n "s|^bootab: \[[0-9:]*\] boot $boot: ||p" | sed 's/ (ETA [0-9:]*)$//; s/ ([0-9]* s)$//' |
			while IFS= read -r l; do
				# shellcheck disable=SC2053 # a pattern: the IOPS vary
				[[ "$l" == $line ]] && echo x
			done | wc -l)
		[ "$n" -eq 1 ] || { echo "boot $boot: '$line' shown $n times"; return 1; }
	done
}

teardown() {
	lab_teardown
	# A campaign a failed test left running in the background is stopped,
	# so that the next test has the box to itself.
	if [ -n "${pid-}" ] && kill -0 "$pid" 2>/dev/null; then
		kill -TERM "$pid" 2>/dev/null || true
		timeout 120 tail --pid="$pid" -f /dev/null || kill -KILL "$pid" 2>/dev/null || true
	fi
	if [ -n "${SMALL_DATA-}" ]; then
		umount "$SMALL_DATA"
		SMALL_DATA=
	fi
}

@test "a campaign survives SIGKILL of the controller at each step, and a full disk between boots; --resume finishes it" {
	# off: the guest's vfio-pci device (the virtio RNG) needs an IOMMU group,
	# so this mode breaks it; the report must find that with no check row.
	write_plan "$BATS_TEST_TMPDIR/aba.ini" "translated passthrough off translated" '[mode "off"]
args = intel_iommu=off'
	# The data on an 80 MiB tmpfs (when root may mount one), to fill it between two boots.
	mkdir -p "$data"
	if mount -t tmpfs -o size=80m tmpfs "$data" 2>/dev/null; then
		SMALL_DATA=$data
	fi
	"$BOOTAB" run --data "$data" "$BATS_TEST_TMPDIR/aba.ini" >"$BATS_TEST_TMPDIR/run1.out" 2>"$BATS_TEST_TMPDIR/run1.err" &
	pid=$!

	# 1. Right after the first boot is verified, before its rows start.
	wait_until 1200 1 eval 'dir=$(campaign_dir aba); [ -n "$dir" ] && grep -q "^boot 1 translated verified$" "$dir/journal" 2>/dev/null'
	kill_controller
	[ ! -e "$dir/translated/meta.json" ]

	# 2. While the results are fetched (writes paused, so the kill lands in them).
	resume_bg "$dir" "$BATS_TEST_TMPDIR/run2.err" BOOTAB_TEST_WRITE_DELAY_US=300000
	wait_until 900 0.2 grep -q 'boot 1/4 translated: fetching results' "$BATS_TEST_TMPDIR/run2.err"
	kill_controller
	[ ! -e "$dir/translated/meta.json" ]

	# 3. While the side directory is written, before its meta.json.
	resume_bg "$dir" "$BATS_TEST_TMPDIR/run3.err" BOOTAB_TEST_WRITE_DELAY_US=300000
	# This run's own writes: the kill of step 2 may have left the rows directory.
	wait_until 300 0.1 grep -q 'boot 1/4 translated: fetching results' "$BATS_TEST_TMPDIR/run3.err"
	wait_until 300 0.1 test -d "$dir/translated/rows/randread"
	kill_controller
	[ ! -e "$dir/translated/meta.json" ]
	grep -q 'resuming on the same boot' "$BATS_TEST_TMPDIR/run3.err"

	# 4. After meta.json, before the journal says the boot is done.
	resume_bg "$dir" "$BATS_TEST_TMPDIR/run4.err" BOOTAB_TEST_WRITE_DELAY_US=300000
	wait_until 300 0.1 test -e "$dir/translated/meta.json"
	kill_controller
	jq -e .boot_id "$dir/translated/meta.json" >/dev/null
	grep -q '^boot 1 translated done$' "$dir/journal" && landed=no || landed=yes
	echo "kill 4 before the journal said done: $landed" >&3

	# 5. The resume takes the side as it is (it is whole) and stops once boot 1 is done.
	run --separate-stderr env BOOTAB_TEST_STOP_AFTER="boot 1 done" "$BOOTAB" run --resume "$dir"
	[ "$status" -eq 1 ]
	if [ "$landed" = yes ]; then
		[[ "$stderr" == *"boot 1/4 translated: results already in $dir/translated (written before the campaign stopped)"* ]]
	fi
	grep -q '^boot 1 translated done$' "$dir/journal"
	journal_sane "$dir"
	boot1=$(jq -r .boot_id "$dir/translated/meta.json")

	# 6. The data disk fills up between two boots: a clear stop before anything changes on the box.
	if [ -n "${SMALL_DATA-}" ]; then
		dd if=/dev/zero of="$data/filler" bs=1M count=30 2>/dev/null
		cp "$dir/journal" "$BATS_TEST_TMPDIR/journal.before"
		run --separate-stderr "$BOOTAB" run --resume "$dir"
		[ "$status" -eq 2 ]
		[[ "$stderr" == *"the data directory $dir has "*" MiB free, less than the 64 MiB a boot's results may need: stopping before anything on the target changes"* ]]
		cmp "$dir/journal" "$BATS_TEST_TMPDIR/journal.before"
		run -0 lab_ssh cat /proc/sys/kernel/random/boot_id
		[ "$output" = "$boot1" ]
		rm "$data/filler"
	fi

	# 7. While a row of the second boot runs: its first rep told, the second running.
	resume_bg "$dir" "$BATS_TEST_TMPDIR/run7.err"
	wait_until 1200 0.2 grep -q 'boot 2/4 passthrough: row randread 1/2: ' "$BATS_TEST_TMPDIR/run7.err"
	kill_controller
	[ -f "$dir/translated/meta.json" ]
	[ ! -f "$dir/passthrough/meta.json" ]

	[ ! -e "$XDG_DATA_HOME/bootab" ]
	run --separate-stderr "$BOOTAB" run --resume "$dir"
	echo "$stderr" >&3
	[ "$status" -eq 0 ]
	[[ "$stderr" == *"boot 2/4 passthrough: resuming on the same boot"* ]]
	# The resumed watch went on from the line the killed one had shown last.
	printf '%s\n' "$stderr" >"$BATS_TEST_TMPDIR/run8.err"
	rows_told_once "2/4 passthrough" "$BATS_TEST_TMPDIR/run7.err" "$BATS_TEST_TMPDIR/run8.err"
	rows_told_once "4/4 translated2" "$BATS_TEST_TMPDIR/run8.err"
	grep -qx finished "$dir/journal"
	journal_sane "$dir"
	# Every side names the guest's machine, the one id the lab keeps across reboots.
	mid=$(lab_ssh cat /etc/machine-id)
	[[ "$mid" =~ ^[0-9a-f]{32}$ ]]
	for s in translated passthrough off translated2; do
		grep -qF "\"machine_id\": \"$mid\"" "$dir/$s/meta.json"
		grep -qx "machine_id $mid" "$dir/$s/meta.txt"
	done
	# The finished campaign recorded its first mode's boots in the machine's history.
	hist="$XDG_DATA_HOME/bootab/history/$mid.json"
	[[ "$stderr" == *"calibration history: recorded 2 boots of translated in $hist (1 entries)"* ]]
	grep -q '"kind": "repeat"' "$hist"
	grep -qF "\"machine_id\": \"$mid\"" "$hist"
	# bootab report reads it and records nothing more.
	sum=$(sha256sum <"$hist")
	"$BOOTAB" report "$dir" >/dev/null 2>&1
	[ "$(sha256sum <"$hist")" = "$sum" ]
	# Four boots, each rebooted once: no resume rebooted again.
	[ "$(grep -c ' rebooted ' "$dir/journal")" -eq 4 ]
	# Every side is a different boot, proven and recorded.
	ids=$(for s in translated passthrough off translated2; do
		grep -m1 '"boot_id"' "$dir/$s/meta.json"
	done | sort -u | wc -l)
	[ "$ids" -eq 4 ]
	for s in translated passthrough off translated2; do
		grep -q '"verify": "ok' "$dir/$s/meta.json"
		[ -f "$dir/$s/rows/randread/rep-1.out" ]
		[ -f "$dir/$s/rows/randread/rep-2.out" ]
		[ -f "$dir/$s/scripts/run.sh" ]
	done
	# Nothing was set aside: every resume continued on the boot it found.
	[ "$(cd "$dir" && echo *)" = "journal off passthrough plan.ini report.html report.json report.md report.txt touch.txt translated translated2" ]
	# The report shows each side's verified IOMMU types and compares the rows.
	grep -q '^  translated     5 DMA-FQ; 0000:00:02.0: DMA-FQ$' "$dir/report.txt"
	grep -q '^  passthrough    5 identity; 0000:00:02.0: identity$' "$dir/report.txt"
	# The unit is scaled to the largest side's mean: a boot at 10,000 IOPS or more makes it k IOPS.
	grep -Eq '^randread  randread\.iops  \((k |M )?IOPS, mean, higher is better\)$' "$dir/report.txt"
	# bootab run writes the page too, with a chart per metric.
	[ "$(grep -c '<svg class="chart" [^>]*data-metric="randread randread\.' "$dir/report.html")" -eq 4 ]
	run "$BOOTAB" compare --format csv "$dir/translated" "$dir/passthrough" "$dir/translated2"
	[ "$status" -eq 0 ]
	[[ "$output" == *"randread,randread.iops,passthrough,passthrough,mean,IOPS,higher,"*",2,"* ]]
	# What off broke, found from the boots' inventories with no check row for it:
	# the RNG the guest hands to vfio-pci lost its driver, its /dev/vfio node is
	# gone, and the kernel said why. No other side lost anything of the device.
	sed -n '/^costs found by bootab/,/^$/p' "$dir/report.txt" >&3
	grep -qE '^  off: cost: 0000:00:03\.1 .*: no driver \(vfio-pci bound on translated, translated2\)$' "$dir/report.txt"
	grep -qx '  off: cost: /dev/vfio/3 gone (present on translated, translated2)' "$dir/report.txt"
	grep -qx '  off: cost: new kernel warning: vfio-pci: probe of 0000:00:03.1 failed with error -22' "$dir/report.txt"
	[ "$(grep -c '^  [a-z0-9]*: cost: .*\(0000:00:03\.1\|vfio\)' "$dir/report.txt")" -eq 3 ]
	run -1 grep -E '^  passthrough: cost: (0000:|/dev/|interface )' "$dir/report.txt"
	[ "$(jq -r '[.found.costs[] | select(.kind == "driver" or .kind == "node-gone") | .side] | unique | join(" ")' "$dir/report.json")" = off ]
	# the raw source of those facts is kept with the side
	grep -qx 'pci	0000:00:03.1	0x1af4	0x1044	0x00ff00	-	-' "$dir/off/snapshot.out"
	grep -qx 'pci	0000:00:03.1	0x1af4	0x1044	0x00ff00	vfio-pci	3' "$dir/translated/snapshot.out"
	# The box is back on its standing config.
	run -0 lab_ssh cat /proc/cmdline
	[ "$output" = 'initrd=\initrd console=ttyS0 no_timer_check' ]
}

@test "a full or read-only data directory: bootab run stops before the box changes or reboots" {
	local small="$BATS_TEST_TMPDIR/small"
	mkdir -p "$small"
	mount -t tmpfs -o size=2m tmpfs "$small" 2>/dev/null || skip "cannot mount a tmpfs (needs root)"
	SMALL_DATA=$small
	write_plan "$BATS_TEST_TMPDIR/full.ini" "translated passthrough"
	run -0 lab_ssh cat /proc/sys/kernel/random/boot_id
	boot=$output
	run -0 lab_ssh cat /boot/loader/entries/lab.conf
	entry=$output

	run --separate-stderr "$BOOTAB" run --data "$small" "$BATS_TEST_TMPDIR/full.ini"
	[ "$status" -eq 2 ]
	[[ "$stderr" == "bootab: the data directory $small/full-"*" has 2.0 MiB free, less than the 64 MiB a boot's results may need: stopping before anything on the target changes"* ]]
	mount -o remount,ro "$small"
	run --separate-stderr "$BOOTAB" run --data "$small" "$BATS_TEST_TMPDIR/full.ini"
	[ "$status" -eq 2 ]
	[[ "$stderr" == "bootab: cannot create the campaign directory $small/full-"*": Read-only file system" ]]

	# The box did not reboot and its entries are as they were.
	run -0 lab_ssh cat /proc/sys/kernel/random/boot_id
	[ "$output" = "$boot" ]
	run -0 lab_ssh cat /boot/loader/entries/lab.conf
	[ "$output" = "$entry" ]
	run -0 lab_ssh ls /boot/loader/entries
	[ "$output" = "lab-$(sed -n 2p "$BOOTAB_LAB_DIR/kernels").conf
lab.conf" ]
}

@test "SSH cut while a row runs: the row completes and its data arrives; a boot whose verify fails benchmarks nothing" {
	write_plan "$BATS_TEST_TMPDIR/bad.ini" "translated wrong" '[mode "wrong"]
args = iommu=pt
expect = iommu.groups=0'
	"$BOOTAB" run --data "$data" "$BATS_TEST_TMPDIR/bad.ini" >"$BATS_TEST_TMPDIR/bad.out" 2>"$BATS_TEST_TMPDIR/bad.err" &
	pid=$!
	for _ in $(seq 600); do
		dir=$(campaign_dir bad)
		if [ -n "$dir" ] && grep -q '^boot 1 translated started' "$dir/journal" 2>/dev/null; then
			break
		fi
		sleep 1
	done
	# Every SSH connection to the box ends (the guest's init starts a new listener).
	before=$(lab_ssh pidof dropbear)
	lab_ssh 'kill $(pidof dropbear)' || true
	status=0
	wait "$pid" || status=$?
	stderr=$(cat "$BATS_TEST_TMPDIR/bad.err")
	echo "$stderr" >&3
	[ "$status" -eq 1 ]
	# The cut happened (a new listener), and the rows went on regardless.
	[ -n "$before" ]
	[ "$(lab_ssh pidof dropbear)" != "$before" ]
	# The watch of the rows dropped with it, came back, and told every line once.
	[[ "$stderr" == *"boot 1 translated: the watch of the rows ended ("* ]]
	rows_told_once "1/2 translated" "$BATS_TEST_TMPDIR/bad.err"
	[ "$(grep -c '^rep randread 1 0 \|^rep randread 2 0 ' "$dir/translated/scripts/results")" -eq 2 ]
	grep -q '"samples"' "$dir/translated/meta.json"
	# Boot 2 is not the boot asked for.
	[[ "$stderr" == *"boot 2 wrong: verify failed: iommu.groups=0: expected 0"* ]]
	[[ "$stderr" == *"nothing is benchmarked on it"* ]]
	[[ "$stderr" == *"continue it with: bootab run --resume $dir"* ]]
	grep -q '^boot 2 wrong failed verify$' "$dir/journal"
	[ -f "$dir/translated/meta.json" ]
	[ ! -e "$dir/wrong" ]
	run -0 lab_ssh cat /proc/cmdline
	[ "$output" = 'initrd=\initrd console=ttyS0 no_timer_check' ]
	run -0 lab_ssh grep ^options /boot/loader/entries/lab.conf
	[ "$output" = "options console=ttyS0 no_timer_check" ]
}

@test "a mode whose kernel never comes up: one-shot boot, power cycle, back on the standing config, clear stop" {
	# Without its init the kernel panics and waits forever: it never answers.
	BOOT_TIMEOUT=150 write_plan "$BATS_TEST_TMPDIR/hang.ini" "translated hang" '[mode "hang"]
args = rdinit=/bootab-no-such-init'
	run --separate-stderr "$BOOTAB" run --data "$data" "$BATS_TEST_TMPDIR/hang.ini"
	echo "$stderr" >&3
	[ "$status" -eq 1 ]
	dir=$(campaign_dir hang)
	[[ "$stderr" == *"test modes boot one-shot"* ]]
	[[ "$stderr" == *"boot 2 hang: mode hang did not come up within 150 s; after the power cycle the box is on its standing config (mode translated, boot_id "* ]]
	grep -q '^boot 2 hang failed reboot$' "$dir/journal"
	# Nothing recorded is lost, and the box is as it was.
	[ -f "$dir/translated/meta.json" ]
	run -0 lab_ssh cat /proc/cmdline
	[ "$output" = 'initrd=\initrd console=ttyS0 no_timer_check' ]
	run -0 lab_ssh ls /boot/loader/entries
	[ "$output" = "lab-$(sed -n 2p "$BOOTAB_LAB_DIR/kernels").conf
lab.conf" ]
}

# examples/lab-kernels.ini with the lab's own two releases ($BOOTAB_LAB_DIR/kernels).
kernels_plan() { # OUT [NEW-RELEASE]
	local old new
	old=$(sed -n 1p "$BOOTAB_LAB_DIR/kernels")
	new=${2:-$(sed -n 2p "$BOOTAB_LAB_DIR/kernels")}
	sed -e "s/^kernel = 6\.1\..*/kernel = $old/" -e "s/^kernel = 6\.12\..*/kernel = $new/" \
		-e "s|^power_cycle = bootab |power_cycle = $BOOTAB |" -e "s/^boot_timeout = .*/boot_timeout = ${BOOT_TIMEOUT:-600}/" \
		"$BATS_TEST_DIRNAME/../../examples/lab-kernels.ini" >"$1"
}

# What on the box a campaign could change: the entries, loader.conf, the one-shot variable.
box_state() {
	lab_ssh 'cd /boot/loader && md5sum loader.conf entries/*; ls /sys/firmware/efi/efivars | grep -c LoaderEntryOneShot || true'
}

@test "kernels are modes: a kernel that is not installed is refused with nothing changed; old, new and new with iommu=pt, each proven by release and build id; the report names the kernels and lists their config differences" {
	local old new before after boot_id dir
	old=$(sed -n 1p "$BOOTAB_LAB_DIR/kernels")
	new=$(sed -n 2p "$BOOTAB_LAB_DIR/kernels")

	# A plan error (exit 2), before anything on the box changes, naming the kernels it has.
	kernels_plan "$BATS_TEST_TMPDIR/missing.ini" 6.99.0-1-amd64
	before=$(box_state)
	boot_id=$(lab_ssh cat /proc/sys/kernel/random/boot_id)
	run --separate-stderr "$BOOTAB" run --data "$data" "$BATS_TEST_TMPDIR/missing.ini"
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"kernels installed (bls backend): $new, $old"* ]]
	[[ "$stderr" == *"mode new: kernel 6.99.0-1-amd64 is not installed; the bls boot loader boots $new, $old"* ]]
	[[ "$stderr" == *"mode new-pt: kernel 6.99.0-1-amd64 is not installed"* ]]
	[[ "$stderr" == *"nothing on the box was changed"* ]]
	after=$(box_state)
	[ "$before" = "$after" ]
	[ "$(lab_ssh cat /proc/sys/kernel/random/boot_id)" = "$boot_id" ]

	# The campaign: old, new, new-pt, old2.
	kernels_plan "$BATS_TEST_TMPDIR/kernels.ini"
	SECONDS=0
	run --separate-stderr "$BOOTAB" run --data "$data" "$BATS_TEST_TMPDIR/kernels.ini"
	echo "# kernels campaign: ${SECONDS}s" >&3
	if [ "$status" -eq 0 ]; then
		echo "$stderr" | grep -E 'up in|verified' >&3
	else
		echo "$stderr" >&3
	fi
	[ "$status" -eq 0 ]
	dir=$(campaign_dir kernels)
	grep -qx "standing-kernel $old" "$dir/journal"
	# Each side ran the kernel asked for: release, build id, config, verified by uname -r.
	for side in old new new-pt old2; do
		want=$old
		[ "${side#new}" != "$side" ] && want=$new
		[ "$(jq -r .kernel "$dir/$side/meta.json")" = "$want" ]
		jq -r .kernel_build_id "$dir/$side/meta.json" | grep -Eqx '[0-9a-f]{40}'
		[ "$(jq -r .kernel_config.source "$dir/$side/meta.json")" = "/boot/config-$want" ]
		jq -r .verify "$dir/$side/meta.json" | grep -Eqx "ok \([0-9]+ checks\)"
		grep -q '^CONFIG_INTEL_IOMMU=y$' "$dir/$side/kernel-config"
	done
	# One build per kernel: the repeat is the same build, the new kernel another.
	[ "$(jq -r .kernel_build_id "$dir/old/meta.json")" = "$(jq -r .kernel_build_id "$dir/old2/meta.json")" ]
	[ "$(jq -r .kernel_build_id "$dir/new/meta.json")" = "$(jq -r .kernel_build_id "$dir/new-pt/meta.json")" ]
	[ "$(jq -r .kernel_build_id "$dir/old/meta.json")" != "$(jq -r .kernel_build_id "$dir/new/meta.json")" ]
	[ "$(jq -r .kernel_config.sha256 "$dir/old/meta.json")" != "$(jq -r .kernel_config.sha256 "$dir/new/meta.json")" ]
	# The args still hold on the new kernel: iommu=pt gave identity groups.
	jq -r .cmdline "$dir/new-pt/meta.json" | grep -q ' iommu=pt'
	[ "$(jq -r .iommu.summary "$dir/new-pt/meta.json" | grep -c DMA)" -eq 0 ]
	# The report names the kernels and lists the config options that differ, in every format.
	grep -q "^kernels:$" "$dir/report.txt"
	# The releases as extended regular expressions: 6.12.117+deb12-amd64 holds a '+'.
	old_re=$(printf '%s' "$old" | sed 's/[.+]/\\&/g')
	new_re=$(printf '%s' "$new" | sed 's/[.+]/\\&/g')
	grep -Eq "^  new-pt +$new_re \\(build [0-9a-f]{12}\\)$" "$dir/report.txt"
	grep -Eq "^config differences, $old_re \\(old\\) -> $new_re \\(new\\): [0-9]+ options \\([0-9]+ changed, [0-9]+ unset, [0-9]+ added\\)$" "$dir/report.txt"
	grep -Eq '^  CONFIG_[A-Z0-9_]+ .+ -> .+$' "$dir/report.txt"
	n=$(jq '.kernels.config_differences[0].differences | length' "$dir/report.json")
	[ "$n" -gt 0 ]
	[ "$(jq -r '.kernels.sides.new.release' "$dir/report.json")" = "$new" ]
	grep -q '^\*\*config differences\*\*' "$dir/report.md"
	"$BOOTAB" compare --format csv "$dir/old" "$dir/new" "$dir/new-pt" "$dir/old2" >"$BATS_TEST_TMPDIR/report.csv"
	[ "$(grep -c '^kernel-config,CONFIG_' "$BATS_TEST_TMPDIR/report.csv")" -eq "$n" ]
	grep -q '<section id="kernels">' "$dir/report.html"
	# Back on the standing kernel, its entries as they were.
	[ "$(lab_ssh uname -r)" = "$old" ]
	after=$(box_state)
	[ "$before" = "$after" ]
}

@test "[prepare] on the lab: as root after verify, caches dropped and a marker the row reads on every boot; a failed prepare benchmarks nothing" {
	cat >"$BATS_TEST_TMPDIR/prep.ini" <<-'EOT'
	[campaign]
	target = lab
	backend = bls
	order = translated translated
	boot_timeout = 300
	poll = 2
	ignore = ^hpet: Lost [0-9]+ RTC interrupts
	ignore = ^hrtimer: interrupt took

	[mode "translated"]
	args =

	[idle]
	load = 100
	checks = 1
	interval = 1

	[prepare]
	command = sync; echo 3 > /proc/sys/vm/drop_caches && echo dropped
	command = cat /proc/sys/kernel/random/boot_id > /tmp/bootab-prepared; id -u

	[row "marker"]
	command = if [ "$(cat /tmp/bootab-prepared)" = "$(cat /proc/sys/kernel/random/boot_id)" ]; then echo 1; else echo 0; fi
	parser = number
	reps = 1
	EOT
	run --separate-stderr "$BOOTAB" run --data "$data" "$BATS_TEST_TMPDIR/prep.ini"
	echo "$stderr" >&3
	[ "$status" -eq 0 ]
	[[ "$stderr" != *"prepare.json"* ]]
	dir=$(campaign_dir prep)
	for s in translated translated2; do
		# The row ran after this boot's prepare; the prepare ran as root.
		[ "$(jq -c '.rows[0].metrics[0].samples' "$dir/$s/meta.json")" = '[1]' ]
		[ "$(jq -c '[.prepare[] | [.rc, .output]]' "$dir/$s/meta.json")" = '[[0,"dropped\n"],[0,"0\n"]]' ]
	done

	# A prepare that fails: boot 1 benchmarks nothing and the campaign stops.
	sed -i 's/^command = sync; .*/command = echo no such governor; exit 3/' "$BATS_TEST_TMPDIR/prep.ini"
	cp "$BATS_TEST_TMPDIR/prep.ini" "$BATS_TEST_TMPDIR/fail.ini"
	run --separate-stderr "$BOOTAB" run --data "$data" "$BATS_TEST_TMPDIR/fail.ini"
	echo "$stderr" >&3
	[ "$status" -ne 0 ]
	[[ "$stderr" == *"boot 1 translated: prepare 1 failed (rc=3): no such governor: nothing is benchmarked on this boot"* ]]
	dir=$(campaign_dir fail)
	grep -qx 'boot 1 translated failed prepare' "$dir/journal"
	[ ! -e "$dir/translated/meta.json" ]
	[ "$(jq -c '.[0] | [.rc, .output]' "$dir/translated/prepare.json")" = '[3,"no such governor\n"]' ]
}

@test "perf on the lab: each rep under the guest's perf stat, as root; pti=on's task-clock and page faults judged like the row" {
	cat >"$BATS_TEST_TMPDIR/perf.ini" <<-'EOT'
	[campaign]
	target = lab
	backend = bls
	order = translated pti
	boot_timeout = 300
	poll = 2
	ignore = ^hpet: Lost [0-9]+ RTC interrupts
	ignore = ^hrtimer: interrupt took

	[mode "translated"]
	args =

	[mode "pti"]
	args = pti=on

	[idle]
	load = 100
	checks = 1
	interval = 1

	[row "syscalls"]
	command = dd if=/dev/zero of=/dev/null bs=1 count=20000 2>/dev/null; echo 1
	parser = number
	reps = 3
	perf = task-clock,context-switches,page-faults
	EOT
	run --separate-stderr "$BOOTAB" run --data "$data" "$BATS_TEST_TMPDIR/perf.ini"
	echo "$stderr" >&3
	[ "$status" -eq 0 ]
	dir=$(campaign_dir perf)
	for s in translated pti; do
		# perf stat -j's own output beside each rep; every event counted, the kernel's share too (root: no :u).
		grep -q '"event" : "task-clock"' "$dir/$s/rows/syscalls/rep-3.perf"
		[ "$(jq -c '[.rows[0].reps[0].counters[] | [.event, .state, .user_only]]' "$dir/$s/meta.json")" = \
			'[["task-clock",null,null],["context-switches",null,null],["page-faults",null,null]]' ]
		[ "$(jq -c '[.rows[0].metrics[] | select(.counter == "perf") | [.name, (.samples | length), (.samples | all(. > 0))]]' "$dir/$s/meta.json")" = \
			'[["task-clock",3,true],["context-switches",3,true],["page-faults",3,true]]' ]
		grep -qx 'counters syscalls (its command): task-clock, context-switches, page-faults' "$dir/$s/meta.txt"
	done
	# pti=on switches page tables on every kernel entry and exit: under TCG each switch flushes
	# QEMU's software TLB, so the same 40000 syscalls take far more CPU time (judged like the row).
	jq -e '.comparisons[] | select(.counter and .side == "pti" and .metric == "task-clock") | .delta_pct < -50' "$dir/report.json"
	[ "$(jq -r '[.comparisons[] | select(.counter and .side == "pti") | .metric] | join(" ")' "$dir/report.json")" = "task-clock context-switches page-faults" ]
	grep -q '^syscalls  task-clock  (msec, mean, lower is better)$' "$dir/report.txt"
	grep -q '^syscalls  page-faults  (mean, lower is better)$' "$dir/report.txt"
}
