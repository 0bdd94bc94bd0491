#!/usr/bin/env bats
# set -> reboot -> verify on the lab, for real: bootab edits systemd-boot's
# entries over SSH, reboots the guest, and proves each boot from the IOMMU
# group types in sysfs. Six boots in all:
#   1 translated (lab up): verify passes, verify --args iommu=pt fails and says why
#   2 passthrough (iommu=pt)
#   3 intel_iommu=pt amd_iommu=pt nosuchparam=1 quiet: the kernel's own
#     refusals in its log fail verify, quiet passes
#   4 strict (iommu.strict=1)
#   5 off (intel_iommu=off), a one-shot entry for this boot only
#   6 a one-shot entry that hangs the kernel; after the forced power cycle
#     the box is back on its default entry (translated)
# Skipped only when QEMU cannot start. The lab directory: see helpers/lab.bash.

bats_require_minimum_version 1.5.0

load helpers/lab

managed="iommu=pt iommu.strict=1 intel_iommu=off"
entries=/boot/loader/entries
base='initrd=\initrd console=ttyS0 no_timer_check'
efivars=/sys/firmware/efi/efivars
loader_guid=4a67b082-0a4c-41cf-b6c7-440b29bb8c4f

setup_file() { lab_setup_file; }

# Leaves the lab's boot entries as the builder made them, so a lab directory
# given in BOOTAB_TEST_LAB_DIR boots the default mode next time.
teardown_file() {
	if [ -z "${LAB_SKIP-}" ]; then
		export BOOTAB_LAB_DIR
		BOOTAB_LAB_DIR=$(lab_dir)
		lab_ssh "rm -f $entries/bootab-*.conf; sync" >/dev/null 2>&1 || true
		"$BOOTAB" set --target lab --managed "$managed" --args "" >/dev/null 2>&1 || true
	fi
	lab_teardown_file
}

setup() { lab_setup; }
teardown() { lab_teardown; }

boot_id() {
	lab_ssh cat /proc/sys/kernel/random/boot_id
}

# The first line of a verify: which boot, which kernel.
verify_head() {
	echo "boot $(boot_id), kernel $(lab_ssh uname -r), on lab"
}

# Checks bootab reboot's stdout ($output) for a new boot after boot_id $1 and
# records how long it took; "$2" is the note after the time, if any.
check_rebooted() {
	local re="^rebooted lab in ([0-9]+\.[0-9]) s${2-}: boot_id $1 -> ([0-9a-f-]{36})$"
	[[ "${lines[0]}" =~ $re ]] || {
		echo "unexpected: ${lines[0]}"
		return 1
	}
	[ "${BASH_REMATCH[2]}" != "$1" ]
	[ "${BASH_REMATCH[2]}" = "$(boot_id)" ]
	echo "${BASH_REMATCH[1]}" >>"$BATS_FILE_TMPDIR/reboot-seconds"
}

# The lab's second kernel's entry (lab/build.sh writes one entry per kernel).
second_entry() {
	echo "lab-$(sed -n 2p "$BOOTAB_LAB_DIR/kernels").conf"
}

# bootab set's stdout on the lab for mode args $1 ("" = none).
set_output() {
	cat <<OUT
backend: bls
note: 2 entries in $entries
note: default entry lab.conf (/boot/loader/loader.conf default lab.conf)
changed $entries/$(second_entry)
changed $entries/lab.conf
default entry: $entries/lab.conf (/boot/loader/loader.conf default lab.conf)
  args: console=ttyS0 no_timer_check${1:+ $1}
other entry: $entries/$(second_entry)
  args: console=ttyS0 no_timer_check${1:+ $1}
next kernel install inherits: /proc/cmdline
  note: no /etc/kernel/cmdline: a new kernel inherits the command line of the boot that installs it
OUT
	if [ -n "$1" ]; then
		echo "check: ok: the entries carry '$1' and no other managed arg"
	else
		echo "check: ok: the entries carry no managed arg"
	fi
}

# set ARGS over SSH, checked before the reboot.
set_mode() {
	run -0 --separate-stderr "$BOOTAB" set --target lab --managed "$managed" --args "$1"
	diff -u <(set_output "$1") <(printf '%s\n' "$output")
	[ "$stderr" = "bootab: set: backend bls (found 2 entries in $entries)" ]
	run -0 lab_ssh grep '^options' "$entries/lab.conf"
	[ "$output" = "options console=ttyS0 no_timer_check${1:+ $1}" ]
	run -0 lab_ssh grep '^options' "$entries/$(second_entry)"
	[ "$output" = "options console=ttyS0 no_timer_check${1:+ $1}" ]
}

# verify of the translated mode: no managed arg, the groups DMA-FQ.
verify_translated() {
	local head
	head=$(verify_head)
	run -0 "$BOOTAB" verify --target lab --managed "$managed" --args "" \
		--expect iommu.groups=5 --expect 'iommu.type(0000:00:02.0)=DMA-FQ'
	diff -u - <(printf '%s\n' "$output") <<OUT
$head
ok    cmdline only  cmdline: no other managed arg: none of iommu iommu.strict intel_iommu (/proc/cmdline)
ok    proven        iommu.groups=5: 5 (5 DMA-FQ) (/sys/kernel/iommu_groups)
ok    proven        iommu.type(0000:00:02.0)=DMA-FQ: DMA-FQ (/sys/kernel/iommu_groups/2/type)
verify: all 3 checks passed
OUT
}

@test "translated boot: verify proves it from the group types" {
	run -0 lab_ssh cat /proc/cmdline
	[ "$output" = "$base" ]
	verify_translated
}

@test "a verify that fails on purpose: iommu=pt asked of the translated boot" {
	local head
	head=$(verify_head)
	run -1 "$BOOTAB" verify --target lab --managed "$managed" --args "iommu=pt"
	diff -u - <(printf '%s\n' "$output") <<OUT
$head
FAIL  cmdline only  cmdline: iommu=pt
      expected: iommu=pt
      found:    no iommu on the command line
      where:    /proc/cmdline
ok    cmdline only  cmdline: no other managed arg: none of iommu.strict intel_iommu (/proc/cmdline)
FAIL  proven        iommu=pt
      expected: IOMMU groups exist and are identity
      found:    5 DMA-FQ; translated: group 0 DMA-FQ: 0000:00:00.0; group 1 DMA-FQ: 0000:00:01.0; group 2 DMA-FQ: 0000:00:02.0; group 3 DMA-FQ: 0000:00:03.0, 0000:00:03.1; group 4 DMA-FQ: 0000:00:1f.0, 0000:00:1f.2, 0000:00:1f.3
      where:    /sys/kernel/iommu_groups/*/type
note  evidence      kernel log (not trusted): Default domain type: Translated (dmesg)
proof: proven (iommu=pt proven)
verify: 2 of 3 checks failed: this is not the boot asked for
OUT
}

@test "tools/capture-sysfs.sh: the captured tree answers as the live guest does" {
	local params=(--param printk.time --param virtio_blk.queue_depth)
	run -0 "$BATS_TEST_DIRNAME/../../tools/capture-sysfs.sh" "${params[@]}" "$BATS_TEST_TMPDIR/tree"
	[[ "$output" == "capture-sysfs: lab -> $BATS_TEST_TMPDIR/tree: "* ]]
	"$BOOTAB" snapshot --target lab "${params[@]}" -o "$BATS_TEST_TMPDIR/live" 2>/dev/null
	"$BOOTAB" snapshot --root "$BATS_TEST_TMPDIR/tree" "${params[@]}" -o "$BATS_TEST_TMPDIR/copy" 2>/dev/null
	# The clock and the load moved on; the log comes from a file, not dmesg.
	diff -u <(grep -v -E '^(time|loadavg|log_source|kmsg_source)	' "$BATS_TEST_TMPDIR/live/snapshot.out") \
		<(grep -v -E '^(time|loadavg|log_source|kmsg_source)	' "$BATS_TEST_TMPDIR/copy/snapshot.out")
	grep -qx 'param	printk.time	Y' "$BATS_TEST_TMPDIR/copy/snapshot.out"
	diff -u "$BATS_TEST_TMPDIR/live/iommu.txt" "$BATS_TEST_TMPDIR/copy/iommu.txt"
	# real links: the data disk's group link leads to its device directory
	[ "$(readlink "$BATS_TEST_TMPDIR/tree/sys/kernel/iommu_groups/2/devices/0000:00:02.0")" = \
		"../../../../devices/pci0000:00/0000:00:02.0" ]
	[ "$(cat "$BATS_TEST_TMPDIR/tree/sys/kernel/iommu_groups/2/devices/0000:00:02.0/vendor")" = 0x1af4 ]
}

@test "set -> reboot -> verify: passthrough (iommu=pt), all groups identity" {
	local before head
	set_mode "iommu=pt"
	before=$(boot_id)
	run -0 --separate-stderr "$BOOTAB" reboot --target lab
	check_rebooted "$before"
	[ "${lines[1]}" = "cmdline: $base iommu=pt" ]
	head=$(verify_head)
	run -0 "$BOOTAB" verify --target lab --managed "$managed" --args "iommu=pt"
	diff -u - <(printf '%s\n' "$output") <<OUT
$head
ok    cmdline only  cmdline: iommu=pt: present (/proc/cmdline)
ok    cmdline only  cmdline: no other managed arg: none of iommu.strict intel_iommu (/proc/cmdline)
ok    proven        iommu=pt: 5 identity (/sys/kernel/iommu_groups/*/type)
note  evidence      kernel log (not trusted): Default domain type: Passthrough (set via kernel command line) (dmesg)
proof: proven (iommu=pt proven)
verify: all 3 checks passed
OUT
}

@test "a real boot with values the kernel refuses: intel_iommu=pt, amd_iommu=pt and an unknown name fail; quiet passes" {
	local before head
	# bootab set refuses these values: the entry is edited over SSH.
	lab_ssh "sed -i 's/^options .*/options console=ttyS0 no_timer_check intel_iommu=pt amd_iommu=pt nosuchparam=1 quiet/' $entries/lab.conf && sync"
	before=$(boot_id)
	run -0 --separate-stderr "$BOOTAB" reboot --target lab
	check_rebooted "$before"
	head=$(verify_head)
	run -1 "$BOOTAB" verify --target lab --managed "intel_iommu amd_iommu" --args "intel_iommu=pt amd_iommu=pt nosuchparam=1 quiet"
	lab_ssh "sed -i 's/^options .*/options console=ttyS0 no_timer_check/' $entries/lab.conf && sync"
	diff -u - <(printf '%s\n' "$output") <<OUT
$head
ok    cmdline only  cmdline: intel_iommu=pt: present (/proc/cmdline)
ok    cmdline only  cmdline: amd_iommu=pt: present (/proc/cmdline)
ok    cmdline only  cmdline: nosuchparam=1: present (/proc/cmdline)
ok    cmdline only  cmdline: quiet: present (/proc/cmdline)
note  cmdline only  intel_iommu=pt: no built-in proof for this parameter (an expect line can add one) (/proc/cmdline)
note  cmdline only  amd_iommu=pt: no built-in proof for this parameter (an expect line can add one) (/proc/cmdline)
note  cmdline only  nosuchparam=1: no built-in proof for this parameter (an expect line can add one) (/proc/cmdline)
note  cmdline only  quiet: no built-in proof for this parameter (an expect line can add one) (/proc/cmdline)
FAIL  evidence      intel_iommu=pt
      expected: the kernel takes it
      found:    the kernel log says: DMAR: Unknown option - 'pt'
      where:    dmesg
FAIL  evidence      amd_iommu=pt
      expected: the kernel takes it
      found:    the kernel log says: AMD-Vi: Unknown option - 'pt'
      where:    dmesg
FAIL  evidence      nosuchparam=1
      expected: the kernel takes it
      found:    the kernel log says: Unknown kernel command line parameters "nosuchparam=1", will be passed to user space.
      where:    dmesg
note  evidence      kernel log (not trusted): Default domain type: Translated (dmesg)
proof: cmdline only (intel_iommu=pt evidence, amd_iommu=pt evidence, nosuchparam=1 evidence, quiet cmdline only)
verify: 3 of 7 checks failed: this is not the boot asked for
OUT
}

@test "set -> reboot -> verify: strict (iommu.strict=1), all groups DMA" {
	local before head
	set_mode "iommu.strict=1"
	before=$(boot_id)
	run -0 --separate-stderr "$BOOTAB" reboot --target lab
	check_rebooted "$before"
	[ "${lines[1]}" = "cmdline: $base iommu.strict=1" ]
	head=$(verify_head)
	run -0 "$BOOTAB" verify --target lab --managed "$managed" --args "iommu.strict=1"
	diff -u - <(printf '%s\n' "$output") <<OUT
$head
ok    cmdline only  cmdline: iommu.strict=1: present (/proc/cmdline)
ok    cmdline only  cmdline: no other managed arg: none of iommu intel_iommu (/proc/cmdline)
ok    proven        iommu.strict=1: 5 DMA (/sys/kernel/iommu_groups/*/type)
note  evidence      kernel log (not trusted): Default domain type: Translated (dmesg)
proof: proven (iommu.strict=1 proven)
verify: all 3 checks passed
OUT
	# the passthrough boot's verify now fails, naming what it found
	run -1 "$BOOTAB" verify --target lab --managed "$managed" --args "iommu=pt"
	[[ "$output" == *"FAIL  proven        iommu=pt
      expected: IOMMU groups exist and are identity
      found:    5 DMA; translated: group 0 DMA: 0000:00:00.0;"* ]]
}

@test "one-shot: an entry with intel_iommu=off boots once, proven off" {
	local before head
	# the standing config back to translated, then a second entry
	set_mode ""
	run -0 lab_ssh "sed -e 's/^title .*/title bootab test: IOMMU off/' -e 's/^options .*/& intel_iommu=off/' \
		$entries/lab.conf >$entries/bootab-test.conf.tmp && mv $entries/bootab-test.conf.tmp $entries/bootab-test.conf && sync"
	before=$(boot_id)
	run -0 --separate-stderr "$BOOTAB" reboot --target lab --oneshot bootab-test.conf
	[ "$stderr" = "bootab: rebooting lab, next boot only: bootab-test.conf; waiting for a new boot_id" ]
	check_rebooted "$before"
	[ "${lines[1]}" = "cmdline: $base intel_iommu=off" ]
	head=$(verify_head)
	run -0 "$BOOTAB" verify --target lab --managed "$managed" --args "intel_iommu=off"
	diff -u - <(printf '%s\n' "$output") <<OUT
$head
ok    cmdline only  cmdline: intel_iommu=off: present (/proc/cmdline)
ok    cmdline only  cmdline: no other managed arg: none of iommu iommu.strict (/proc/cmdline)
ok    proven        intel_iommu=off: no IOMMU groups, no IOMMU units (/sys/kernel/iommu_groups, /sys/class/iommu)
note  evidence      kernel log (not trusted): Default domain type: Translated (dmesg)
proof: proven (intel_iommu=off proven)
verify: all 3 checks passed
OUT
	# systemd-boot took the one-shot variable and says which entry it booted
	run -0 lab_ssh "ls $efivars | grep -c '^LoaderEntryOneShot-' || true; tr -d '\\000' <$efivars/LoaderEntrySelected-$loader_guid | tail -c +2"
	[ "$output" = $'0\nbootab-test.conf' ]
	run -0 lab_ssh cat /boot/loader/loader.conf
	[ "${lines[0]}" = "default lab.conf" ]
}

@test "one-shot that hangs: after the forced power cycle the default entry comes back" {
	local before serial offset limit pc
	# An entry whose kernel finds no init and panics, and stays down (panic=0).
	run -0 lab_ssh "sed -e 's/^title .*/title bootab test: hangs/' -e 's|^options .*|& rdinit=/bootab-no-such-init panic=0|' \
		$entries/lab.conf >$entries/bootab-hang.conf.tmp && mv $entries/bootab-hang.conf.tmp $entries/bootab-hang.conf && sync"
	# The power-cycle command: wait until that kernel has panicked (so
	# systemd-boot has surely used the one-shot variable), then reset.
	serial="$BOOTAB_LAB_DIR/run/serial.log"
	offset=$(stat -c %s "$serial")
	pc="$BATS_TEST_TMPDIR/power-cycle"
	cat >"$pc" <<'SH'
#!/bin/sh
# power-cycle SERIAL_LOG OFFSET BOOTAB: reset once a panic is logged past OFFSET
i=0
while [ "$i" -lt 50 ]; do
	if tail -c +"$(($2 + 1))" "$1" | grep -q 'Kernel panic'; then
		exec "$3" lab power-cycle
	fi
	sleep 2
	i=$((i + 1))
done
echo "power-cycle: no kernel panic in $1" >&2
exit 1
SH
	chmod +x "$pc"
	# Long enough for any normal boot on this host: twice the slowest so far.
	limit=$(sort -n "$BATS_FILE_TMPDIR/reboot-seconds" 2>/dev/null | tail -n 1)
	limit=$(awk -v s="${limit:-60}" 'BEGIN { t = int(2 * s + 1); print (t < 60 ? 60 : t) }')
	before=$(boot_id)
	run -0 --separate-stderr "$BOOTAB" reboot --target lab --oneshot bootab-hang.conf \
		--timeout "$limit" --power-cycle "'$pc' '$serial' $offset '$BOOTAB'"
	[ "${stderr_lines[1]}" = "bootab: warning: lab did not come back within $limit s: the power-cycle command ran" ]
	check_rebooted "$before" " \\(after a power cycle\\)"
	[ "${lines[1]}" = "cmdline: $base" ]
	# the hung boot really ran the one-shot entry
	# The printk time stamp is 0.000000 only while the kernel has no early
	# clock; a TSC calibrated early (a fast, quiet host) gives a later one.
	run -0 bash -c "tail -c +$((offset + 1)) '$serial' | tr -d '\\r' | grep -a -E 'Kernel command line|Kernel panic - not syncing' | sed -E 's/^\\[ *[0-9]+\\.[0-9]+\\] //'"
	printf 'serial: %s\n' "${lines[@]}"
	[ "${lines[0]}" = "Kernel command line: $base rdinit=/bootab-no-such-init panic=0" ]
	[[ "${lines[1]}" == *"Kernel panic - not syncing: VFS: Unable to mount root fs on unknown-block(0,0)" ]]
	[[ "${lines[-1]}" == *"Kernel command line: $base" ]]
	verify_translated
}
