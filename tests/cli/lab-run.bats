#!/usr/bin/env bats
# bootab run against the real QEMU lab: a whole campaign from a plan, the
# controller killed with SIGKILL while a row runs and the campaign resumed,
# and a boot whose verify fails. Skipped only when QEMU cannot start.

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
}

@test "a campaign survives SIGKILL of the controller while a row runs, and --resume finishes it" {
	write_plan "$BATS_TEST_TMPDIR/aba.ini" "translated passthrough translated"
	"$BOOTAB" run --data "$data" "$BATS_TEST_TMPDIR/aba.ini" >"$BATS_TEST_TMPDIR/run1.out" 2>"$BATS_TEST_TMPDIR/run1.err" &
	pid=$!
	# Kill it once the second boot's rows have started on the target.
	for _ in $(seq 600); do
		dir=$(campaign_dir aba)
		if [ -n "$dir" ] && grep -q '^boot 2 passthrough started' "$dir/journal" 2>/dev/null; then
			break
		fi
		kill -0 "$pid" 2>/dev/null || break
		sleep 1
	done
	run kill -9 "$pid"
	[ "$status" -eq 0 ]
	wait "$pid" || true
	[ -f "$dir/translated/meta.json" ]
	[ ! -f "$dir/passthrough/meta.json" ]

	[ ! -e "$XDG_DATA_HOME/bootab" ]
	run --separate-stderr "$BOOTAB" run --resume "$dir"
	echo "$stderr" >&3
	[ "$status" -eq 0 ]
	[[ "$stderr" == *"boot 2/3 passthrough: resuming on the same boot"* ]]
	grep -qx finished "$dir/journal"
	# Every side names the guest's machine, the one id the lab keeps across reboots.
	mid=$(lab_ssh cat /etc/machine-id)
	[[ "$mid" =~ ^[0-9a-f]{32}$ ]]
	for s in translated passthrough translated2; do
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
	# Three boots, each rebooted once: the resume did not reboot again.
	[ "$(grep -c ' rebooted ' "$dir/journal")" -eq 3 ]
	# Every side is a different boot, proven and recorded.
	ids=$(for s in translated passthrough translated2; do
		grep -m1 '"boot_id"' "$dir/$s/meta.json"
	done | sort -u | wc -l)
	[ "$ids" -eq 3 ]
	for s in translated passthrough translated2; do
		grep -q '"verify": "ok' "$dir/$s/meta.json"
		[ -f "$dir/$s/rows/randread/rep-1.out" ]
		[ -f "$dir/$s/rows/randread/rep-2.out" ]
		[ -f "$dir/$s/scripts/run.sh" ]
	done
	# The report shows each side's verified IOMMU types and compares the rows.
	grep -q '^  translated     5 DMA-FQ; 0000:00:02.0: DMA-FQ$' "$dir/report.txt"
	grep -q '^  passthrough    5 identity; 0000:00:02.0: identity$' "$dir/report.txt"
	grep -q '^randread  randread.iops  (IOPS, mean, higher is better)$' "$dir/report.txt"
	# bootab run writes the page too, with a chart per metric.
	[ "$(grep -c '<svg class="chart" [^>]*data-metric="randread randread\.' "$dir/report.html")" -eq 4 ]
	run "$BOOTAB" compare --format csv "$dir/translated" "$dir/passthrough" "$dir/translated2"
	[ "$status" -eq 0 ]
	[[ "$output" == *"randread,randread.iops,passthrough,passthrough,mean,IOPS,higher,"*",2,"* ]]
	# The box is back on its standing config.
	run -0 lab_ssh cat /proc/cmdline
	[ "$output" = 'initrd=\initrd console=ttyS0 no_timer_check' ]
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
	[ "$output" = "lab.conf" ]
}
