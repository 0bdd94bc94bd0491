#!/usr/bin/env bats
# bootab iommu-map on the fixture trees modelled on the case study's box.

load helpers/target

@test "the seed box's map, whole output, under dash and busybox sh" {
	for sh in dash busybox; do
		use_shell "$sh"
		run "$BOOTAB" iommu-map --root "$fixtures/seed-translated"
		[ "$status" -eq 0 ]
		check_output "$expected/iommu-map-seed-translated.txt"
	done
}

@test "the summary line has the case study's form" {
	run "$BOOTAB" iommu-map --root "$fixtures/seed-translated"
	[ "${lines[-1]}" = "iommu group types: 1 DMA, 32 DMA-FQ, 2 identity" ]
	run "$BOOTAB" iommu-map --root "$fixtures/seed-passthrough"
	[ "${lines[-1]}" = "iommu group types: 1 DMA, 34 identity" ]
}

@test "the platform device stays in the map by its sysfs name" {
	run "$BOOTAB" iommu-map --root "$fixtures/seed-translated" --device MSFT0201:00
	[ "$status" -eq 0 ]
	[ "$output" = "  0  DMA-FQ    MSFT0201:00   (platform device)  -" ]
}

@test "--device takes lspci's short address" {
	run "$BOOTAB" iommu-map --root "$fixtures/seed-translated" --device c6:00.0
	[ "$status" -eq 0 ]
	[ "$output" = " 22  identity  0000:c6:00.0  Display controller: Advanced Micro Devices, Inc. [AMD/ATI] Device 1586  amdgpu" ]
}

@test "--device --json gives the device with its group and type" {
	run "$BOOTAB" iommu-map --root "$fixtures/seed-translated" --device 0000:c2:00.0 --json
	[ "$status" -eq 0 ]
	diff -u - <(printf '%s\n' "$output") <<'JSON'
{
  "bus": "pci",
  "class": "0xff0000",
  "description": "Unassigned class [ff00]: Realtek Semiconductor Co., Ltd. RTS525A PCI Express Card Reader",
  "device": "0x525a",
  "driver": "rtsx_pci",
  "group": 18,
  "name": "0000:c2:00.0",
  "type": "DMA",
  "vendor": "0x10ec"
}
JSON
}

@test "an unknown device is not found, and says so" {
	run "$BOOTAB" iommu-map --root "$fixtures/seed-translated" --device 0000:ff:00.0
	[ "$status" -eq 1 ]
	[ "$output" = "bootab: no device '0000:ff:00.0' in any IOMMU group (1 DMA, 32 DMA-FQ, 2 identity)" ]
}

@test "no groups is said plainly" {
	run "$BOOTAB" iommu-map --root "$fixtures/seed-off"
	[ "$status" -eq 0 ]
	[ "$output" = "iommu group types: no IOMMU groups" ]
	run "$BOOTAB" iommu-map --root "$fixtures/seed-off" --json
	[ "$output" = '{
  "groups": [],
  "summary": "no IOMMU groups"
}' ]
}

@test "--diff: translated to passthrough, whole output" {
	"$BOOTAB" snapshot --root "$fixtures/seed-translated" -o "$BATS_TEST_TMPDIR/a" 2>/dev/null
	"$BOOTAB" snapshot --root "$fixtures/seed-passthrough" -o "$BATS_TEST_TMPDIR/b" 2>/dev/null
	run "$BOOTAB" iommu-map --diff "$BATS_TEST_TMPDIR/a" "$BATS_TEST_TMPDIR/b/meta.json"
	[ "$status" -eq 0 ]
	check_output "$expected/iommu-map-diff-pt.txt"
	# the GPU, the NPU and the card reader kept their type: not listed
	[[ "$output" != *c6:00.0* && "$output" != *c7:00.1* && "$output" != *c2:00.0* ]]
}

@test "--diff: to an IOMMU-off boot every device vanished" {
	"$BOOTAB" snapshot --root "$fixtures/seed-translated" -o "$BATS_TEST_TMPDIR/a" 2>/dev/null
	"$BOOTAB" snapshot --root "$fixtures/seed-off" -o "$BATS_TEST_TMPDIR/c" 2>/dev/null
	run "$BOOTAB" iommu-map --diff "$BATS_TEST_TMPDIR/a" "$BATS_TEST_TMPDIR/c"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "0000:00:01.0  vanished: was DMA-FQ (group 0)" ]
	[ "${#lines[@]}" -eq 46 ]
	[ "${lines[-1]}" = "b: no IOMMU groups" ]
}

@test "--diff of a snapshot with itself: nothing changed" {
	"$BOOTAB" snapshot --root "$fixtures/seed-translated" -o "$BATS_TEST_TMPDIR/a" 2>/dev/null
	run "$BOOTAB" iommu-map --diff "$BATS_TEST_TMPDIR/a" "$BATS_TEST_TMPDIR/a"
	[ "$output" = "no device changed IOMMU domain
a: 1 DMA, 32 DMA-FQ, 2 identity
b: 1 DMA, 32 DMA-FQ, 2 identity" ]
}

@test "--diff with a file that is not a snapshot names the file" {
	printf '{"x": 1}\n' > "$BATS_TEST_TMPDIR/x.json"
	run "$BOOTAB" iommu-map --diff "$BATS_TEST_TMPDIR/x.json" "$BATS_TEST_TMPDIR/x.json"
	[ "$status" -eq 2 ]
	[ "$output" = "bootab: $BATS_TEST_TMPDIR/x.json: not a bootab snapshot (no \"bootab_snapshot\" key)" ]
	printf '{"x": ' > "$BATS_TEST_TMPDIR/cut.json"
	run "$BOOTAB" iommu-map --diff "$BATS_TEST_TMPDIR/cut.json" "$BATS_TEST_TMPDIR/x.json"
	[ "$status" -eq 2 ]
	[[ "$output" == "bootab: $BATS_TEST_TMPDIR/cut.json:1:"* ]]
	run "$BOOTAB" iommu-map --diff "$BATS_TEST_TMPDIR/missing" "$BATS_TEST_TMPDIR/x.json"
	[ "$status" -eq 2 ]
	[ "$output" = "bootab: failed to read '$BATS_TEST_TMPDIR/missing': No such file or directory" ]
	# Read as every side is: a key twice is refused, as side_load() refuses it.
	printf '{"bootab_snapshot": 1,\n "bootab_snapshot": 1}\n' > "$BATS_TEST_TMPDIR/twice.json"
	run "$BOOTAB" iommu-map --diff "$BATS_TEST_TMPDIR/twice.json" "$BATS_TEST_TMPDIR/x.json"
	[ "$status" -eq 2 ]
	[[ "$output" == "bootab: $BATS_TEST_TMPDIR/twice.json:2:"*"duplicate object key"* ]]
}

@test "targets that are refused" {
	run "$BOOTAB" iommu-map --target -oProxyCommand=touch
	[ "$status" -eq 2 ]
	[ "$output" = "bootab: refusing target '-oProxyCommand=touch': an SSH destination may not start with '-' or hold spaces or control characters" ]
	run "$BOOTAB" iommu-map --target 'host; reboot'
	[ "$status" -eq 2 ]
	run "$BOOTAB" iommu-map --target box.example --root "$fixtures/seed-off"
	[ "$status" -eq 2 ]
	[ "$output" = "bootab: --root works with --target local only, not 'box.example'" ]
	run "$BOOTAB" iommu-map --root "$BATS_TEST_TMPDIR/nonexistent"
	[ "$status" -eq 2 ]
	[ "$output" = "bootab: --root '$BATS_TEST_TMPDIR/nonexistent' is not a directory" ]
}

@test "the lab target without a running lab says how to start it" {
	BOOTAB_LAB_DIR="$BATS_TEST_TMPDIR/nolab" run "$BOOTAB" iommu-map --target lab
	[ "$status" -eq 2 ]
	[ "$output" = "bootab: the lab is not running (no '$BATS_TEST_TMPDIR/nolab/run/ssh_config'); start it with 'bootab lab up'" ]
}
