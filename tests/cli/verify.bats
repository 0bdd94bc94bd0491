#!/usr/bin/env bats
# bootab verify on the fixture trees: sysfs decides, never the kernel log.

load helpers/target

managed="iommu=pt amd_iommu=off ttm.pages_limit=31457280"

@test "amd_iommu=off boot: off, proven from sysfs, the Translated log line shown as untrusted" {
	for sh in dash busybox; do
		use_shell "$sh"
		run "$BOOTAB" verify --root "$fixtures/seed-off" --managed "$managed" \
			--args "amd_iommu=off ttm.pages_limit=31457280"
		[ "$status" -eq 0 ]
		diff -u - <(printf '%s\n' "$output") <<'OUT'
boot 79060c21-363e-4a3a-aa1b-4c3911e5e399, kernel 7.2.9-300.fc45.x86_64, on local
ok    cmdline only  cmdline: amd_iommu=off: present (/proc/cmdline)
ok    cmdline only  cmdline: ttm.pages_limit=31457280: present (/proc/cmdline)
ok    cmdline only  cmdline: no other managed arg: none of iommu (/proc/cmdline)
ok    proven        amd_iommu=off: no IOMMU groups, no IOMMU units (/sys/kernel/iommu_groups, /sys/class/iommu)
ok    proven        ttm.pages_limit=31457280: 31457280 (/sys/module/ttm/parameters/pages_limit)
note  evidence      kernel log (not trusted): Default domain type: Translated (file)
proof: proven (amd_iommu=off proven, ttm.pages_limit=31457280 proven)
verify: all 5 checks passed
OUT
	done
}

@test "asking the off boot for passthrough fails and says what, found and where" {
	run "$BOOTAB" verify --root "$fixtures/seed-off" --managed "$managed" --args "iommu=pt"
	[ "$status" -eq 1 ]
	diff -u - <(printf '%s\n' "$output") <<'OUT'
boot 79060c21-363e-4a3a-aa1b-4c3911e5e399, kernel 7.2.9-300.fc45.x86_64, on local
FAIL  cmdline only  cmdline: iommu=pt
      expected: iommu=pt
      found:    no iommu on the command line
      where:    /proc/cmdline
FAIL  cmdline only  cmdline: no ttm.pages_limit=31457280
      expected: absent (a managed arg this mode does not ask for, or a leftover)
      found:    ttm.pages_limit=31457280
      where:    /proc/cmdline
FAIL  cmdline only  cmdline: no amd_iommu=off
      expected: absent (a managed arg this mode does not ask for, or a leftover)
      found:    amd_iommu=off
      where:    /proc/cmdline
FAIL  proven        iommu=pt
      expected: IOMMU groups exist and are identity
      found:    no IOMMU groups (the IOMMU is off or absent)
      where:    /sys/kernel/iommu_groups/*/type
note  evidence      kernel log (not trusted): Default domain type: Translated (file)
proof: proven (iommu=pt proven)
verify: 4 of 4 checks failed: this is not the boot asked for
OUT
}

@test "passthrough: identity groups, the device the kernel keeps strict is listed, not failed" {
	run "$BOOTAB" verify --root "$fixtures/seed-passthrough" --managed "iommu=pt amd_iommu=off" --args "iommu=pt"
	[ "$status" -eq 0 ]
	[ "${lines[3]}" = "ok    proven        iommu=pt: 1 DMA, 34 identity; kept translated by the kernel: group 18 DMA: 0000:c2:00.0 (/sys/kernel/iommu_groups/*/type)" ]
	[ "${lines[-1]}" = "verify: all 3 checks passed" ]
}

@test "the translated boot is not a passthrough boot, whatever its command line" {
	run "$BOOTAB" verify --root "$fixtures/seed-translated" --args "ttm.pages_limit=31457280" \
		--managed "ttm.pages_limit=31457280 iommu.passthrough=1"
	[ "$status" -eq 0 ]
	run "$BOOTAB" verify --root "$fixtures/seed-translated" --args "iommu.passthrough=1"
	[ "$status" -eq 1 ]
	[[ "$output" == *"FAIL  proven        iommu.passthrough=1
      expected: IOMMU groups exist and are identity
      found:    1 DMA, 32 DMA-FQ, 2 identity; translated: group 0 DMA-FQ: 0000:00:01.0, MSFT0201:00;"* ]]
}

@test "iommu.strict=1 on a lazy (DMA-FQ) boot fails" {
	run "$BOOTAB" verify --root "$fixtures/seed-translated" --args "iommu.strict=1"
	[ "$status" -eq 1 ]
	[[ "$output" == *"FAIL  proven        iommu.strict=1
      expected: translated groups are DMA (strict), none DMA-FQ
      found:    1 DMA, 32 DMA-FQ, 2 identity
      where:    /sys/kernel/iommu_groups/*/type"* ]]
}

@test "mitigations=off fails while entries read Mitigation" {
	run "$BOOTAB" verify --root "$fixtures/seed-translated" --args "mitigations=off"
	[ "$status" -eq 1 ]
	[[ "$output" == *"FAIL  proven        mitigations=off
      expected: every affected entry reads Vulnerable
      found:    spec_store_bypass: Mitigation: Speculative Store Bypass disabled via prctl; spectre_v1:"* ]]
	[[ "$output" == *"where:    /sys/devices/system/cpu/vulnerabilities"* ]]
}

@test "module parameters: equal, booleans normalised, different, absent" {
	run "$BOOTAB" verify --root "$fixtures/seed-translated" --args "ttm.page-pool-size=31457280"
	# the command line has page_pool_size: the kernel treats - and _ alike
	[ "$status" -eq 0 ]
	[[ "$output" == *"ok    proven        ttm.page-pool-size=31457280: 31457280 (/sys/module/ttm/parameters/page_pool_size)"* ]]
	run "$BOOTAB" verify --root "$fixtures/seed-translated" --args "amdgpu.lockup_timeout=1"
	[[ "$output" == *"FAIL  proven        amdgpu.lockup_timeout=1
      expected: 1
      found:    10000,60000,10000,10000
      where:    /sys/module/amdgpu/parameters/lockup_timeout"* ]]
	run "$BOOTAB" verify --root "$fixtures/seed-translated" --args "nosuch.param=Y"
	[[ "$output" == *"found:    absent (module not loaded, or the parameter is not readable)
      where:    /sys/module/nosuch/parameters/param"* ]]
}

@test "--expect: group count, a device's type, a sysfs file" {
	run "$BOOTAB" verify --root "$fixtures/seed-translated" \
		--args "ttm.pages_limit=31457280" \
		--expect iommu.groups=35 \
		--expect 'iommu.type(0000:c6:00.0)=identity' \
		--expect 'iommu.type(c2:00.0)=DMA' \
		--expect 'sysfs(/sys/module/ttm/parameters/pages_limit)=31457280'
	[ "$status" -eq 0 ]
	[ "${lines[3]}" = "ok    proven        iommu.groups=35: 35 (1 DMA, 32 DMA-FQ, 2 identity) (/sys/kernel/iommu_groups)" ]
	[ "${lines[4]}" = "ok    proven        iommu.type(0000:c6:00.0)=identity: identity (/sys/kernel/iommu_groups/22/type)" ]
	[ "${lines[5]}" = "ok    proven        iommu.type(c2:00.0)=DMA: DMA (/sys/kernel/iommu_groups/18/type)" ]
	[ "${lines[6]}" = "ok    proven        sysfs(/sys/module/ttm/parameters/pages_limit)=31457280: 31457280 (/sys/module/ttm/parameters/pages_limit)" ]
	run "$BOOTAB" verify --root "$fixtures/seed-off" --args "" --managed "" \
		--expect iommu.groups=0 --expect 'iommu.type(0000:c6:00.0)=identity' \
		--expect 'sysfs(/sys/module/nosuch/parameters/x)=1'
	[ "$status" -eq 1 ]
	[[ "$output" == *"ok    proven        iommu.groups=0: 0 (no IOMMU groups) (/sys/kernel/iommu_groups)"* ]]
	[[ "$output" == *"FAIL  proven        iommu.type(0000:c6:00.0)=identity
      expected: identity
      found:    none (in no IOMMU group)
      where:    /sys/kernel/iommu_groups/*/devices"* ]]
	[[ "$output" == *"FAIL  proven        sysfs(/sys/module/nosuch/parameters/x)=1
      expected: 1
      found:    absent
      where:    /sys/module/nosuch/parameters/x"* ]]
}

@test "bad --expect, --args and missing --args are usage errors" {
	run "$BOOTAB" verify --root "$fixtures/seed-off" --args "" --expect 'iommu.groups=many'
	[ "$status" -eq 2 ]
	[ "$output" = "bootab: --expect 'iommu.groups=many': the group count must be a number; see 'bootab help verify'" ]
	run "$BOOTAB" verify --root "$fixtures/seed-off" --args "" --expect 'sysfs(/etc/shadow)=x'
	[ "$status" -eq 2 ]
	[ "$output" = "bootab: --expect 'sysfs(/etc/shadow)=x': the path must be under /sys or /proc, without '..'; see 'bootab help verify'" ]
	run "$BOOTAB" verify --root "$fixtures/seed-off" --args "" --expect 'uptime=1'
	[ "$status" -eq 2 ]
	[ "$output" = "bootab: --expect 'uptime': unknown; use iommu.groups=N, iommu.type(ADDR)=TYPE or sysfs(/sys/PATH)=VALUE; see 'bootab help verify'" ]
	run "$BOOTAB" verify --root "$fixtures/seed-off" --args 'iommu=pt;reboot'
	[ "$status" -eq 2 ]
	[[ "$output" == "bootab: --args: invalid kernel argument 'iommu=pt;reboot'"* ]]
	run "$BOOTAB" verify --root "$fixtures/seed-off"
	[ "$status" -eq 2 ]
	[ "$output" = "bootab: --args is required: the kernel args of the mode this boot should be (\"\" for none); see 'bootab help verify'" ]
}

@test "--json carries every check" {
	run "$BOOTAB" verify --root "$fixtures/seed-off" --args "amd_iommu=off" --json
	[ "$status" -eq 0 ]
	[[ "$output" == *'"ok": true'* ]]
	[[ "$output" == *'"status": "note"'* ]]
	[[ "$output" == *'"where": "/sys/kernel/iommu_groups, /sys/class/iommu"'* ]]
}
