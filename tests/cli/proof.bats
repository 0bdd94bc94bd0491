#!/usr/bin/env bats
# The parameter proofs (docs/proof.md) on trees captured from real lab boots
# (lab-smt-*: bootab lab up --smt) and on hand-made trees for what the lab
# cannot show (box-*: make-proof-trees.sh), each with a lie that must fail;
# and the touch map of bootab plan --target and of bootab run's preflight.

bats_require_minimum_version 1.5.0

load helpers/target

lab_managed="pti=on nosmt transparent_hugepage=never hugepagesz=2M hugepages=16 default_hugepagesz=1G mitigations=off"
lab_args="pti=on nosmt transparent_hugepage=never hugepagesz=2M hugepages=16 default_hugepagesz=1G"
box_args="intel_pstate=passive cpufreq.default_governor=schedutil isolcpus=domain,2-3 nohz_full=2-3 preempt=full numa_balancing=disable"

# lie TREE ARGS: a copy of TREE whose /proc/cmdline also says ARGS; prints its path.
lie() {
	local t="$BATS_TEST_TMPDIR/lie-${1##*/}"
	cp -R "$1" "$t"
	printf '%s %s\n' "$(cat "$1/proc/cmdline")" "$2" >"$t/proc/cmdline"
	echo "$t"
}

@test "a real nosmt boot: pti, SMT, THP and huge pages proven from procfs and sysfs, under dash and busybox sh" {
	for sh in dash busybox; do
		use_shell "$sh"
		run -0 "$BOOTAB" verify --root "$fixtures/lab-smt-nosmt" --managed "$lab_managed" --args "$lab_args"
		diff -u - <(printf '%s\n' "$output") <<'OUT'
boot 3df80073-e0f1-4031-8e7e-d805498f3d6e, kernel 6.1.0-57-amd64, on local
ok    cmdline only  cmdline: pti=on: present (/proc/cmdline)
ok    cmdline only  cmdline: nosmt: present (/proc/cmdline)
ok    cmdline only  cmdline: transparent_hugepage=never: present (/proc/cmdline)
ok    cmdline only  cmdline: hugepagesz=2M: present (/proc/cmdline)
ok    cmdline only  cmdline: hugepages=16: present (/proc/cmdline)
ok    cmdline only  cmdline: default_hugepagesz=1G: present (/proc/cmdline)
ok    cmdline only  cmdline: no other managed arg: none of mitigations (/proc/cmdline)
ok    proven        pti=on: pti flag set (meltdown: Mitigation: PTI) (/proc/cpuinfo)
note  evidence      pti=on: Kernel/User page tables isolation: enabled (file)
ok    proven        nosmt: control off, active 0 (/sys/devices/system/cpu/smt/control, /sys/devices/system/cpu/smt/active)
ok    proven        transparent_hugepage=never: never (always madvise [never]) (/sys/kernel/mm/transparent_hugepage/enabled)
ok    proven        hugepagesz=2M: a pool of 16 pages (/sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages)
ok    proven        hugepages=16: 16 pages (/sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages)
ok    proven        default_hugepagesz=1G: 1048576 kB (/proc/meminfo (Hugepagesize))
proof: proven (pti=on proven, nosmt proven, transparent_hugepage=never proven, hugepagesz=2M proven, hugepages=16 proven, default_hugepagesz=1G proven)
verify: all 13 checks passed
OUT
	done
}

@test "the standing boot asked to be that boot: every proof fails, the command line aside" {
	run -1 "$BOOTAB" verify --root "$(lie "$fixtures/lab-smt-standing" "nosmt transparent_hugepage=never hugepagesz=2M hugepages=16 default_hugepagesz=1G")" \
		--managed "$lab_managed" --args "nosmt transparent_hugepage=never hugepagesz=2M hugepages=16 default_hugepagesz=1G"
	[ "$(grep -c '^ok    cmdline only  cmdline: ' <<<"$output")" -eq 6 ]
	[[ "$output" == *"FAIL  proven        nosmt
      expected: SMT control off, active 0
      found:    control on, active 1"* ]]
	[[ "$output" == *"FAIL  proven        transparent_hugepage=never
      expected: never
      found:    always ([always] madvise never)"* ]]
	[[ "$output" == *"FAIL  proven        hugepages=16
      expected: 16
      found:    0 pages"* ]]
	[[ "$output" == *"FAIL  proven        default_hugepagesz=1G
      expected: 1048576 kB
      found:    2048 kB"* ]]
	[ "${lines[-1]}" = "verify: 5 of 11 checks failed: this is not the boot asked for" ]
}

@test "pti=on where the flag is absent fails, whatever the command line says" {
	# The mitigations=off boot: PTI off, so no pti flag; its cmdline now also says pti=on.
	run -1 "$BOOTAB" verify --root "$(lie "$fixtures/lab-smt-mitigations-off" pti=on)" --args "pti=on"
	[[ "$output" == *"ok    cmdline only  cmdline: pti=on: present (/proc/cmdline)"* ]]
	[[ "$output" == *"FAIL  proven        pti=on
      expected: the pti flag
      found:    no pti flag (meltdown: Vulnerable)
      where:    /proc/cpuinfo"* ]]
}

@test "what the kernel said it ignored fails the boot: intel_iommu=pt, amd_iommu=pt, an unknown name, a module's (6.1 and 6.12)" {
	# Real boots of the lab with values the kernel refuses (make-refused-trees.sh).
	for k in 6.1 6.12; do
		run -1 "$BOOTAB" verify --root "$fixtures/lab-refused-$k" --managed "iommu intel_iommu amd_iommu" \
			--args "intel_iommu=pt amd_iommu=pt nosuchparam=1"
		[[ "$output" == *"ok    cmdline only  cmdline: intel_iommu=pt: present (/proc/cmdline)"* ]]
		[[ "$output" == *"FAIL  evidence      intel_iommu=pt
      expected: the kernel takes it
      found:    the kernel log says: DMAR: Unknown option - 'pt'
      where:    file"* ]]
		[[ "$output" == *"FAIL  evidence      amd_iommu=pt
      expected: the kernel takes it
      found:    the kernel log says: AMD-Vi: Unknown option - 'pt'"* ]]
		[[ "$output" == *"FAIL  evidence      nosuchparam=1
      expected: the kernel takes it
      found:    the kernel log says: Unknown kernel command line parameters \"nokaslr nospectre_v2 nosuchparam=1 preempt=bogus transparent_hugepage=bogus "*"\", will be passed to user space."* ]]
		[ "${lines[-1]}" = "verify: 3 of 7 checks failed: this is not the boot asked for" ]
	done
	# The early options, the parsers' own lines, a built-in module's bad value and a loaded module's unknown parameter.
	run -1 "$BOOTAB" verify --root "$fixtures/lab-refused-6.1" \
		--args "iommu.passthrough=maybe idle=bogus mitigations=bogus preempt=bogus transparent_hugepage=bogus isolcpus=bogus,1 default_hugepagesz=3M processor.max_cstate=abc nls_ascii.nosuch=1"
	diff -u - <(grep -A2 '^FAIL  evidence' <<<"$output" | grep -E '^FAIL|found:') <<'OUT'
FAIL  evidence      preempt=bogus
      found:    the kernel log says Dynamic Preempt: voluntary
FAIL  evidence      iommu.passthrough=maybe
      found:    the kernel log says: Malformed early option 'iommu.passthrough'
FAIL  evidence      idle=bogus
      found:    the kernel log says: Malformed early option 'idle'
FAIL  evidence      mitigations=bogus
      found:    the kernel log says: Unsupported mitigations=bogus, system may still be vulnerable
FAIL  evidence      preempt=bogus
      found:    the kernel log says: Dynamic Preempt: unsupported mode: bogus
FAIL  evidence      preempt=bogus
      found:    the kernel log says: Unknown kernel command line parameters "nokaslr nospectre_v2 nosuchparam=1 preempt=bogus transparent_hugepage=bogus pti=on spectre_v2=off spec_store_bypass_disable=off", will be passed to user space.
FAIL  evidence      transparent_hugepage=bogus
      found:    the kernel log says: huge_memory: transparent_hugepage= cannot parse, ignored
FAIL  evidence      transparent_hugepage=bogus
      found:    the kernel log says: Unknown kernel command line parameters "nokaslr nospectre_v2 nosuchparam=1 preempt=bogus transparent_hugepage=bogus pti=on spectre_v2=off spec_store_bypass_disable=off", will be passed to user space.
FAIL  evidence      isolcpus=bogus,1
      found:    the kernel log says: isolcpus: Skipped unknown flag bogus
FAIL  evidence      default_hugepagesz=3M
      found:    the kernel log says: HugeTLB: unsupported default_hugepagesz=3M
FAIL  evidence      processor.max_cstate=abc
      found:    the kernel log says: Booting kernel: `abc' invalid for parameter `processor.max_cstate'
FAIL  evidence      nls_ascii.nosuch=1
      found:    the kernel log says: nls_ascii: unknown parameter 'nosuch' ignored
OUT
}

@test "no false alarm: args the kernel took without a trace, or reads itself, pass on the same boots" {
	for k in 6.1 6.12; do
		run -0 "$BOOTAB" verify --root "$fixtures/lab-refused-$k" \
			--args "quiet nowatchdog pti=on nokaslr spectre_v2=off nospectre_v2 spec_store_bypass_disable=off"
		[[ "$output" == *"note  cmdline only  quiet: no built-in proof for this parameter (an expect line can add one) (/proc/cmdline)"* ]]
		[[ "$output" == *"note  cmdline only  nowatchdog: no built-in proof for this parameter (an expect line can add one) (/proc/cmdline)"* ]]
		[[ "$output" == *"ok    proven        pti=on: pti flag set (meltdown: Not affected) (/proc/cpuinfo)"* ]]
		[[ "$output" == *"ok    proven        spectre_v2=off: Vulnerable; "* ]]
		[[ "$output" != *FAIL* ]]
		[ "${lines[-2]}" = "proof: cmdline only (quiet cmdline only, nowatchdog cmdline only, pti=on proven, nokaslr evidence, spectre_v2=off proven, nospectre_v2 proven, spec_store_bypass_disable=off cmdline only)" ]
	done
}

@test "a real mitigations=off boot: every affected entry unmitigated; the mitigated standing boot fails" {
	run -0 "$BOOTAB" verify --root "$fixtures/lab-smt-mitigations-off" --managed "$lab_managed" --args "mitigations=off"
	[[ "$output" == *"ok    proven        mitigations=off: 9 affected, none mitigated (/sys/devices/system/cpu/vulnerabilities)"* ]]
	# The same CPU's standing boot: mitigated, so mitigations=off fails there.
	run -1 "$BOOTAB" verify --root "$(lie "$fixtures/lab-smt-standing" mitigations=off)" --args "mitigations=off"
	[[ "$output" == *"found:    indirect_target_selection: Mitigation: Aligned branch/return thunks; meltdown: Mitigation: PTI; spectre_v1: Mitigation: usercopy"* ]]
}

@test "hand-made boxes: pstate drivers, governor, isolation, preempt, NUMA balancing proven; the lying box fails each" {
	run -0 "$BOOTAB" verify --root "$fixtures/box-intel" --args "$box_args"
	[ "$(grep -c '^ok    proven  ' <<<"$output")" -eq 6 ]
	[[ "$output" == *"ok    proven        preempt=full: full (none voluntary (full) ) (/sys/kernel/debug/sched/preempt)"* ]]
	[[ "$output" == *"ok    proven        isolcpus=domain,2-3: 2-3 (/sys/devices/system/cpu/isolated)"* ]]
	[ "${lines[-2]}" = "proof: proven (intel_pstate=passive proven, cpufreq.default_governor=schedutil proven, isolcpus=domain,2-3 proven, nohz_full=2-3 proven, preempt=full proven, numa_balancing=disable proven)" ]

	run -1 "$BOOTAB" verify --root "$fixtures/box-lie" --args "$box_args"
	[ "$(grep -c '^ok    cmdline only  cmdline: ' <<<"$output")" -eq 6 ]
	[ "$(grep -c '^FAIL  proven  ' <<<"$output")" -eq 6 ]
	[[ "$output" == *"found:    status active, driver intel_pstate"* ]]
	[[ "$output" == *"found:    policy0 powersave, policy1 powersave, policy2 powersave, policy3 powersave"* ]]
	[[ "$output" == *"found:    voluntary (none (voluntary) full )"* ]]
	[ "${lines[-1]}" = "verify: 6 of 12 checks failed: this is not the boot asked for" ]

	# No debugfs: preempt= reaches evidence, from the log line.
	run -0 "$BOOTAB" verify --root "$fixtures/box-amd" --args "amd_pstate=active preempt=none"
	[[ "$output" == *"note  evidence      preempt=none: Dynamic Preempt: none"* ]]
	[ "${lines[-2]}" = "proof: evidence (amd_pstate=active proven, preempt=none evidence)" ]
	run -1 "$BOOTAB" verify --root "$fixtures/box-amd" --args "amd_pstate=passive preempt=full"
	[[ "$output" == *"FAIL  evidence      preempt=full"* ]]
	[[ "$output" == *"FAIL  proven        amd_pstate=passive"* ]]
}

@test "verify --json: the level of every check and the proof per arg" {
	run -0 "$BOOTAB" verify --root "$fixtures/box-amd" --args "amd_pstate=active preempt=none" --json
	[ "$(jq -r '.proof.level' <<<"$output")" = evidence ]
	[ "$(jq -r '.proof.args | map(.arg + " " + .level) | join(", ")' <<<"$output")" = "amd_pstate=active proven, preempt=none evidence" ]
	[ "$(jq -r '[.checks[] | .level] | unique | join(",")' <<<"$output")" = "cmdline only,evidence,proven" ]
	[ "$(jq -r '.checks[] | select(.what == "preempt=none") | .arg' <<<"$output")" = "preempt=none" ]
}

@test "verify --list names every parameter family of the table and its kernel doc" {
	run -0 "$BOOTAB" verify --list
	for p in "iommu=pt" "mitigations=off" "nosmt" "pti=on" "transparent_hugepage=" "hugepages=" "isolcpus=" \
		"intel_pstate=" "cpufreq.default_governor=" "preempt=" "numa_balancing=" "spectre_v2=" "init_on_alloc=" \
		"nokaslr" "MODULE.PARAM"; do
		grep -q -- "$p" <<<"$output" || { echo "missing: $p"; return 1; }
	done
	[ "$(grep -c '^    kernel: kernel-parameters.txt' <<<"$output")" -eq "$(grep -c '^    reads: ' <<<"$output")" ]
}

@test "plan --target: what each mode can change on the standing boot, a warning where nothing" {
	run --separate-stderr -0 "$BOOTAB" plan --target local --root "$fixtures/lab-smt-standing" \
		"$BATS_TEST_DIRNAME/../fixtures/proof/touch.ini"
	sed -n '/^what each mode can change/,$p' <<<"$output" >"$BATS_TEST_TMPDIR/map"
	diff -u - "$BATS_TEST_TMPDIR/map" <<'OUT'
what each mode can change on this box, from its standing boot (boot_id 83ff2c62-8229-483b-8c08-f0213042eeb0, kernel 6.1.0-57-amd64):
  mode base           (no args: the standing kernel defaults)
  mode pti            pti=on: nothing: the standing boot is already so: pti flag set (meltdown: Mitigation: PTI) (/proc/cpuinfo)
  mode nopti          pti=off: can change: now pti flag set (meltdown: Mitigation: PTI) (/proc/cpuinfo)
  mode nosmt          nosmt: can change: now control on, active 1 (/sys/devices/system/cpu/smt/control, /sys/devices/system/cpu/smt/active)
  mode thp            transparent_hugepage=always: nothing: the standing boot is already so: always ([always] madvise never) (/sys/kernel/mm/transparent_hugepage/enabled)
  mode mitigations    mitigations=off: can change: now indirect_target_selection: Mitigation: Aligned branch/return thunks; meltdown: Mitigation: PTI; spectre_v1: Mitigation: usercopy/swapgs barriers and __user pointer sanitization; spectre_v2: Mitigation: Retpolines; STIBP: disabled; RSB filling; PBRSB-eIBRS: Not affected; BHI: Retpoline (/sys/devices/system/cpu/vulnerabilities)
  mode pt             iommu=pt: can change: now 5 DMA-FQ; translated: group 0 DMA-FQ: 0000:00:00.0; group 1 DMA-FQ: 0000:00:01.0; group 2 DMA-FQ: 0000:00:02.0; group 3 DMA-FQ: 0000:00:03.0; group 4 DMA-FQ: 0000:00:1f.0, 0000:00:1f.2, 0000:00:1f.3 (/sys/kernel/iommu_groups/*/type)
warning: mode pti: pti=on can change nothing on this box: the standing boot is already so: pti flag set (meltdown: Mitigation: PTI) (/proc/cpuinfo)
warning: mode thp: transparent_hugepage=always can change nothing on this box: the standing boot is already so: always ([always] madvise never) (/sys/kernel/mm/transparent_hugepage/enabled)
OUT
	[ "${#stderr_lines[@]}" -eq 2 ]
	[[ "${stderr_lines[0]}" == "bootab: warning: mode pti: pti=on can change nothing on this box: "* ]]
}

@test "plan --target: nothing to act on (no SMT, an unaffected CPU, the watched device already identity)" {
	run --separate-stderr -0 "$BOOTAB" plan --target local --root "$fixtures/lab-passthrough" \
		"$BATS_TEST_DIRNAME/../fixtures/proof/touch.ini"
	[[ "$output" == *"  mode pt             iommu=pt: nothing: the watched device is already identity: 5 identity (/sys/kernel/iommu_groups/*/type)"* ]]
	# A tree without the proofs' files: sysfs does not tell, no warning made up.
	[[ "$output" == *"  mode nosmt          nosmt: unknown: sysfs does not tell: absent (this kernel cannot switch SMT)"* ]]
	[ "${#stderr_lines[@]}" -eq 1 ]
	tree="$BATS_TEST_TMPDIR/nosmt"
	cp -R "$fixtures/lab-smt-standing" "$tree"
	echo notsupported >"$tree/sys/devices/system/cpu/smt/control"
	echo 0 >"$tree/sys/devices/system/cpu/smt/active"
	for v in "$tree"/sys/devices/system/cpu/vulnerabilities/*; do echo 'Not affected' >"$v"; done
	run --separate-stderr -0 "$BOOTAB" plan --target local --root "$tree" "$BATS_TEST_DIRNAME/../fixtures/proof/touch.ini"
	[[ "$stderr" == *"mode nosmt: nosmt can change nothing on this box: the CPU has no SMT: control notsupported"* ]]
	[[ "$stderr" == *"mode mitigations: mitigations=off can change nothing on this box: no vulnerabilities entry reads affected: every one of 17 entries reads Not affected"* ]]
}

@test "plan --target: amd_iommu= on the Intel-IOMMU lab, an arg the standing kernel refused: warnings before the first boot" {
	printf '[campaign]\ntarget = local\n[mode "standing"]\nargs =\n[mode "amd"]\nargs = amd_iommu=force_isolation nosuchparam=1 quiet\n[row "r"]\ncommand = true\nparser = number\n' \
		>"$BATS_TEST_TMPDIR/p.ini"
	# The standing boot had nosuchparam=1, and its kernel passed it to user space.
	run --separate-stderr -0 "$BOOTAB" plan --target local --root "$fixtures/lab-refused-6.1" "$BATS_TEST_TMPDIR/p.ini"
	[[ "$stderr" == *"bootab: warning: mode amd: amd_iommu=force_isolation can change nothing on this box: the box's IOMMU is Intel's (dmar units in /sys/class/iommu); amd_iommu= acts on AMD's"* ]]
	[[ "$stderr" == *"bootab: warning: mode amd: nosuchparam=1 can change nothing on this box: the running kernel did not take it on the standing boot: Unknown kernel command line parameters \"nokaslr nospectre_v2 nosuchparam=1 "* ]]
	[[ "$output" == *"  mode amd            quiet: unknown: sysfs does not tell"* ]]
	[ "$(grep -c 'can change nothing' <<<"$stderr")" -eq 2 ]
}

@test "plan: --touch needs the plan's target, --root needs --target" {
	run -2 "$BOOTAB" plan --root "$fixtures/lab-smt-standing" "$BATS_TEST_DIRNAME/../fixtures/proof/touch.ini"
	[[ "$output" == *"--root and --connect-timeout need --target"* ]]
	run -2 "$BOOTAB" plan --touch --target lab "$BATS_TEST_DIRNAME/../fixtures/proof/touch.ini"
	[[ "$output" == *"give one"* ]]
}

@test "every target script fits dropbear's 9000-byte command line, quoted" {
	local sent="$BATS_TEST_TMPDIR/sent"
	for f in "$BATS_TEST_DIRNAME"/../../src/target/*.sh; do
		# What travels: the lines without their indentation, comment lines left out.
		sed -e 's/^[[:space:]]*//' -e '/^#/d' "$f" >"$sent"
		quotes=$(tr -cd "'" <"$sent" | wc -c)
		size=$(($(wc -c <"$sent") + 3 * quotes + 2))
		[ "$size" -lt 8000 ] || { echo "$f: $size bytes quoted"; return 1; }
	done
}
