#!/usr/bin/env bats
# iommu-map, snapshot and verify on the lab's real sysfs, captured from the
# running QEMU guest with tools/capture-sysfs.sh in its four IOMMU modes
# (tests/fixtures/sysfs/lab-*). No QEMU needed: these run everywhere.
#   lab-translated  no args            5 groups DMA-FQ
#   lab-strict      iommu.strict=1     5 groups DMA
#   lab-passthrough iommu=pt           5 groups identity
#   lab-off         intel_iommu=off    no groups, the kernel still logs "Translated"

bats_require_minimum_version 1.5.0

load helpers/target

managed="iommu=pt iommu.strict=1 intel_iommu=off"
capture="$BATS_TEST_DIRNAME/../../tools/capture-sysfs.sh"

# mode name -> its args
mode_args() {
	case $1 in
	translated) echo "" ;;
	strict) echo "iommu.strict=1" ;;
	passthrough) echo "iommu=pt" ;;
	off) echo "intel_iommu=off" ;;
	esac
}

boot_of() {
	case $1 in
	translated) echo bcfe97db-c16a-4430-8bf9-7340a3e6426f ;;
	strict) echo 177376f7-73eb-403b-aa9c-a99274096b1e ;;
	passthrough) echo 2a6da177-2e87-41c4-b85f-41c644fc62b7 ;;
	off) echo 3ca27b63-b58f-43d4-9bec-a1a8728b97d2 ;;
	esac
}

@test "iommu-map of the translated lab, whole output, under dash and busybox sh" {
	for sh in dash busybox; do
		use_shell "$sh"
		run -0 "$BOOTAB" iommu-map --root "$fixtures/lab-translated"
		check_output "$expected/iommu-map-lab-translated.txt"
	done
}

@test "summary lines of the four modes" {
	local m want
	for m in translated strict passthrough off; do
		case $m in
		translated) want="5 DMA-FQ" ;;
		strict) want="5 DMA" ;;
		passthrough) want="5 identity" ;;
		off) want="no IOMMU groups" ;;
		esac
		run -0 "$BOOTAB" iommu-map --root "$fixtures/lab-$m"
		[ "${lines[-1]}" = "iommu group types: $want" ]
	done
	run -0 "$BOOTAB" iommu-map --root "$fixtures/lab-off"
	[ "${#lines[@]}" -eq 1 ]
	run -0 "$BOOTAB" iommu-map --root "$fixtures/lab-passthrough" --device 0000:00:02.0
	[ "$output" = "  2  identity  0000:00:02.0  SCSI storage controller: Red Hat, Inc. Virtio 1.0 block device  virtio-pci" ]
}

@test "--diff between the lab's boots: every device changes, or vanishes" {
	"$BOOTAB" snapshot --root "$fixtures/lab-translated" -o "$BATS_TEST_TMPDIR/t" 2>/dev/null
	"$BOOTAB" snapshot --root "$fixtures/lab-strict" -o "$BATS_TEST_TMPDIR/s" 2>/dev/null
	"$BOOTAB" snapshot --root "$fixtures/lab-off" -o "$BATS_TEST_TMPDIR/o" 2>/dev/null
	run -0 "$BOOTAB" iommu-map --diff "$BATS_TEST_TMPDIR/t" "$BATS_TEST_TMPDIR/s"
	diff -u - <(printf '%s\n' "$output") <<'OUT'
0000:00:00.0  DMA-FQ -> DMA  (group 0)
0000:00:01.0  DMA-FQ -> DMA  (group 1)
0000:00:02.0  DMA-FQ -> DMA  (group 2)
0000:00:03.0  DMA-FQ -> DMA  (group 3)
0000:00:1f.0  DMA-FQ -> DMA  (group 4)
0000:00:1f.2  DMA-FQ -> DMA  (group 4)
0000:00:1f.3  DMA-FQ -> DMA  (group 4)
a: 5 DMA-FQ
b: 5 DMA
OUT
	run -0 "$BOOTAB" iommu-map --diff "$BATS_TEST_TMPDIR/s" "$BATS_TEST_TMPDIR/o"
	[ "${lines[2]}" = "0000:00:02.0  vanished: was DMA (group 2)" ]
	[ "${lines[-1]}" = "b: no IOMMU groups" ]
}

@test "each mode's tree passes verify for its own mode, with the group types as proof" {
	local m
	for m in translated strict passthrough off; do
		run -0 "$BOOTAB" verify --root "$fixtures/lab-$m" --managed "$managed" --args "$(mode_args "$m")"
		[ "${lines[0]}" = "boot $(boot_of "$m"), kernel 6.1.0-57-amd64, on local" ]
	done
	run -0 "$BOOTAB" verify --root "$fixtures/lab-passthrough" --managed "$managed" --args "iommu=pt"
	[ "${lines[3]}" = "ok    proven        iommu=pt: 5 identity (/sys/kernel/iommu_groups/*/type)" ]
	[ "${lines[4]}" = "note  evidence      kernel log (not trusted): Default domain type: Passthrough (set via kernel command line) (file)" ]
	run -0 "$BOOTAB" verify --root "$fixtures/lab-strict" --managed "$managed" --args "iommu.strict=1"
	[ "${lines[3]}" = "ok    proven        iommu.strict=1: 5 DMA (/sys/kernel/iommu_groups/*/type)" ]
	# The kernel prints "Translated " with a trailing blank; the note drops it.
	[ "${lines[4]}" = "note  evidence      kernel log (not trusted): Default domain type: Translated (file)" ]
	run -0 "$BOOTAB" verify --root "$fixtures/lab-off" --managed "$managed" --args "intel_iommu=off"
	[ "${lines[3]}" = "ok    proven        intel_iommu=off: no IOMMU groups, no IOMMU units (/sys/kernel/iommu_groups, /sys/class/iommu)" ]
	# translated has no arg of its own: --expect brings the group types in
	run -0 "$BOOTAB" verify --root "$fixtures/lab-translated" --managed "$managed" --args "" \
		--expect iommu.groups=5 --expect 'iommu.type(0000:00:02.0)=DMA-FQ'
	diff -u - <(printf '%s\n' "$output") <<'OUT'
boot bcfe97db-c16a-4430-8bf9-7340a3e6426f, kernel 6.1.0-57-amd64, on local
ok    cmdline only  cmdline: no other managed arg: none of iommu iommu.strict intel_iommu (/proc/cmdline)
ok    proven        iommu.groups=5: 5 (5 DMA-FQ) (/sys/kernel/iommu_groups)
ok    proven        iommu.type(0000:00:02.0)=DMA-FQ: DMA-FQ (/sys/kernel/iommu_groups/2/type)
verify: all 3 checks passed
OUT
	run -0 "$BOOTAB" verify --root "$fixtures/lab-translated" --managed "$managed" --args ""
	[ "${lines[-1]}" = "verify: the 1 check passed" ]
}

@test "each tree fails verify for every other mode" {
	local m w
	for m in translated strict passthrough off; do
		for w in strict passthrough off; do
			[ "$m" = "$w" ] && continue
			run -1 "$BOOTAB" verify --root "$fixtures/lab-$m" --managed "$managed" --args "$(mode_args "$w")"
			[[ "${lines[-1]}" == "verify: "*" checks failed: this is not the boot asked for" ]]
		done
	done
	# a translated expectation of a strict boot fails on the device's type
	run -1 "$BOOTAB" verify --root "$fixtures/lab-strict" --managed "$managed" --args "iommu.strict=1" \
		--expect 'iommu.type(0000:00:02.0)=DMA-FQ'
	[[ "$output" == *"FAIL  proven        iommu.type(0000:00:02.0)=DMA-FQ
      expected: DMA-FQ
      found:    DMA
      where:    /sys/kernel/iommu_groups/2/type"* ]]
	[ "${lines[-1]}" = "verify: 1 of 4 checks failed: this is not the boot asked for" ]
}

@test "the off boot asked to be strict: what was expected, what sysfs said, where" {
	run -1 "$BOOTAB" verify --root "$fixtures/lab-off" --managed "$managed" --args "iommu.strict=1"
	diff -u - <(printf '%s\n' "$output") <<'OUT'
boot 3ca27b63-b58f-43d4-9bec-a1a8728b97d2, kernel 6.1.0-57-amd64, on local
FAIL  cmdline only  cmdline: iommu.strict=1
      expected: iommu.strict=1
      found:    no iommu.strict on the command line
      where:    /proc/cmdline
FAIL  cmdline only  cmdline: no intel_iommu=off
      expected: absent (a managed arg this mode does not ask for, or a leftover)
      found:    intel_iommu=off
      where:    /proc/cmdline
FAIL  proven        iommu.strict=1
      expected: translated groups are DMA (strict), none DMA-FQ
      found:    no IOMMU groups (the IOMMU is off or absent)
      where:    /sys/kernel/iommu_groups/*/type
note  evidence      kernel log (not trusted): Default domain type: Translated (file)
proof: proven (iommu.strict=1 proven)
verify: 3 of 3 checks failed: this is not the boot asked for
OUT
}

@test "the passthrough boot asked to be off: groups and the IOMMU unit are named" {
	run -1 "$BOOTAB" verify --root "$fixtures/lab-passthrough" --managed "$managed" --args "intel_iommu=off"
	[[ "$output" == *"FAIL  proven        intel_iommu=off
      expected: no IOMMU groups and /sys/class/iommu empty
      found:    5 identity; IOMMU units: dmar0
      where:    /sys/kernel/iommu_groups, /sys/class/iommu"* ]]
}

@test "module parameters read from the captured tree: Y is 1, 0 is not 64" {
	run -1 "$BOOTAB" verify --root "$fixtures/lab-strict" --managed "" \
		--args "printk.time=1 virtio_blk.queue_depth=64" --expect 'sysfs(/sys/module/virtio_net/parameters/napi_tx)=Y'
	[[ "$output" == *"ok    proven        printk.time=1: Y (/sys/module/printk/parameters/time)"* ]]
	[[ "$output" == *"FAIL  proven        virtio_blk.queue_depth=64
      expected: 64
      found:    0
      where:    /sys/module/virtio_blk/parameters/queue_depth"* ]]
	[[ "$output" == *"ok    proven        sysfs(/sys/module/virtio_net/parameters/napi_tx)=Y: Y (/sys/module/virtio_net/parameters/napi_tx)"* ]]
}

@test "snapshot of the off boot: no groups, and the kernel log still says Translated" {
	run -0 "$BOOTAB" snapshot --root "$fixtures/lab-off" --managed "$managed" -o "$BATS_TEST_TMPDIR/s"
	sed -e '1d' -e '/^target clock /d' "$BATS_TEST_TMPDIR/s/meta.txt" | diff -u - <(cat <<'TXT'
6.1.0-57-amd64
initrd=\initrd console=ttyS0 no_timer_check intel_iommu=off
boot_id 3ca27b63-b58f-43d4-9bec-a1a8728b97d2
target local host bootab-lab
iommu group types: no IOMMU groups
iommu units: 0
iommu log lines: 11 (file; evidence, not proof)
[    2.803126] iommu: Default domain type: Translated 
load 1.10 0.31 0.11 1/59 249
cpu vulnerabilities: 2 affected of 17
  spectre_v1: Mitigation: usercopy/swapgs barriers and __user pointer sanitization
  spectre_v2: Mitigation: Retpolines; STIBP: disabled; RSB filling; PBRSB-eIBRS: Not affected; BHI: Not affected
devices: 0 PCI (0 without a driver), 0 device nodes, 0 network interfaces
kernel errors and warnings: 0 (file)
TXT
)
	# the kernel's command-line echo names intel_iommu but is left out
	grep -q 'Command line: .*intel_iommu=off' "$fixtures/lab-off/var/log/dmesg"
	run -1 grep -q 'Command line' "$BATS_TEST_TMPDIR/s/meta.json"
}

@test "capture-sysfs: a tree captured from a tree answers the same, links and all" {
	local t
	for t in lab-translated seed-translated; do
		rm -rf "$BATS_TEST_TMPDIR/copy" "$BATS_TEST_TMPDIR/a" "$BATS_TEST_TMPDIR/b"
		run -0 "$capture" --target local --root "$fixtures/$t" --param printk.time \
			--param ttm.pages_limit "$BATS_TEST_TMPDIR/copy"
		[[ "$output" == "capture-sysfs: local -> $BATS_TEST_TMPDIR/copy: "*" files, "*" links" ]]
		"$BOOTAB" snapshot --root "$fixtures/$t" --param printk.time --param ttm.pages_limit \
			-o "$BATS_TEST_TMPDIR/a" 2>/dev/null
		"$BOOTAB" snapshot --root "$BATS_TEST_TMPDIR/copy" --param printk.time --param ttm.pages_limit \
			-o "$BATS_TEST_TMPDIR/b" 2>/dev/null
		diff -u <(grep -v '^time	' "$BATS_TEST_TMPDIR/a/snapshot.out") \
			<(grep -v '^time	' "$BATS_TEST_TMPDIR/b/snapshot.out")
	done
	# the seed's links kept their relative targets
	[ "$(readlink "$BATS_TEST_TMPDIR/copy/sys/kernel/iommu_groups/22/devices/0000:c6:00.0")" = \
		"../../../../devices/pci0000:00/0000:00:08.1/0000:c6:00.0" ]
	[ "$(readlink "$BATS_TEST_TMPDIR/copy/sys/devices/pci0000:00/0000:00:08.1/0000:c6:00.0/driver")" = \
		"../../../../bus/pci/drivers/amdgpu" ]
	[ "$(sed -n 's/^target //p' "$BATS_TEST_TMPDIR/copy/capture.txt")" = local ]
}

@test "capture-sysfs: bad input is refused with one line" {
	run -2 "$capture" --target local --param 'ttm;reboot' "$BATS_TEST_TMPDIR/x"
	[ "$output" = "capture-sysfs: --param 'ttm;reboot': give MODULE.PARAM" ]
	run -2 "$capture" --target lab --root "$fixtures/lab-off" "$BATS_TEST_TMPDIR/x"
	[ "$output" = "capture-sysfs: --root works with --target local only" ]
	run -2 "$capture" --target -oProxyCommand=x "$BATS_TEST_TMPDIR/x"
	[ "$output" = "capture-sysfs: refusing target '-oProxyCommand=x'" ]
	mkdir -p "$BATS_TEST_TMPDIR/precious"
	echo keep >"$BATS_TEST_TMPDIR/precious/file"
	run -2 "$capture" --target local --root "$fixtures/lab-off" "$BATS_TEST_TMPDIR/precious"
	[ "$output" = "capture-sysfs: '$BATS_TEST_TMPDIR/precious' exists and is not a captured tree (no capture.txt): not replacing it" ]
	[ "$(cat "$BATS_TEST_TMPDIR/precious/file")" = keep ]
	BOOTAB_LAB_DIR="$BATS_TEST_TMPDIR/nolab" run -2 "$capture" "$BATS_TEST_TMPDIR/x"
	[ "$output" = "capture-sysfs: the lab is not running (no '$BATS_TEST_TMPDIR/nolab/run/ssh_config'); start it with 'bootab lab up'" ]
	[ ! -e "$BATS_TEST_TMPDIR/x" ]
}
