#!/usr/bin/env bats
# The parameter proofs on real boots of the lab, in one session of three
# boots. The lab starts with --smt: the guest's two CPUs are two threads of
# one core under Intel's vendor string, so SMT exists, PTI is on by default
# (meltdown: Mitigation: PTI) and MDS and others read affected.
#   1 the standing boot (lab up): bootab plan --target lab says what each
#     mode can change, and warns where nothing (pti=on, THP always)
#   2 pti=on nosmt transparent_hugepage=never hugepagesz=2M hugepages=16
#     default_hugepagesz=1G (args that do not interfere, in one boot):
#     every one proven; the same proofs as the tree captured from such a boot
#   3 mitigations=off: proven; the pti flag is gone, so pti=on fails there
# The trees under tests/fixtures/sysfs/lab-smt-* were captured from these
# boots with tools/capture-sysfs.sh. Skipped only when QEMU cannot start.

bats_require_minimum_version 1.5.0

load helpers/lab

managed="pti=on nosmt transparent_hugepage=never hugepagesz=2M hugepages=16 default_hugepagesz=1G mitigations=off"
boot2="pti=on nosmt transparent_hugepage=never hugepagesz=2M hugepages=16 default_hugepagesz=1G"
fixtures="$BATS_TEST_DIRNAME/../fixtures/sysfs"

setup_file() {
	export LAB_UP_ARGS=--smt
	lab_setup_file
	date +%s >"$BATS_FILE_TMPDIR/started"
}

# Leaves the lab's default entry as the builder made it.
teardown_file() {
	if [ -z "${LAB_SKIP-}" ]; then
		BOOTAB_LAB_DIR=$(lab_dir) "$BOOTAB" set --target lab --managed "$managed" --args "" >/dev/null 2>&1 || true
		echo "# lab-proof: $(($(date +%s) - $(cat "$BATS_FILE_TMPDIR/started"))) s after lab up" >&3
	fi
	lab_teardown_file
}

setup() { lab_setup; }
teardown() { lab_teardown; }

# The proof lines of a verify ($output), the boot's id and the log's source left out.
proofs() {
	sed -e '1d' -e 's/ (dmesg)$/ (log)/' -e 's/ (file)$/ (log)/' <<<"$output"
}

@test "standing boot: what each mode can change, a warning where it can change nothing" {
	run --separate-stderr -0 "$BOOTAB" plan --target lab "$BATS_TEST_DIRNAME/../fixtures/proof/touch.ini"
	echo "$output"
	[[ "$output" == *"  mode pti            pti=on: nothing: the standing boot is already so: pti flag set (meltdown: Mitigation: PTI) (/proc/cpuinfo)"* ]]
	[[ "$output" == *"  mode nopti          pti=off: can change: now pti flag set"* ]]
	[[ "$output" == *"  mode nosmt          nosmt: can change: now control on, active 1"* ]]
	[[ "$output" == *"  mode thp            transparent_hugepage=always: nothing: the standing boot is already so: always ([always] madvise never)"* ]]
	[[ "$output" == *"  mode mitigations    mitigations=off: can change: now "*"meltdown: Mitigation: PTI"* ]]
	[[ "$output" == *"  mode pt             iommu=pt: can change: now 5 DMA-FQ"* ]]
	[ "${#stderr_lines[@]}" -eq 2 ]
	[[ "${stderr_lines[0]}" == "bootab: warning: mode pti: pti=on can change nothing on this box: "* ]]
	[[ "${stderr_lines[1]}" == "bootab: warning: mode thp: transparent_hugepage=always can change nothing on this box: "* ]]
}

@test "set -> reboot -> verify: pti, nosmt, THP and huge pages proven, as in the captured tree" {
	run -0 "$BOOTAB" set --target lab --managed "$managed" --args "$boot2"
	run -0 "$BOOTAB" reboot --target lab --timeout 480
	run -0 "$BOOTAB" verify --target lab --managed "$managed" --args "$boot2"
	echo "$output"
	[[ "$output" == *"ok    proven        nosmt: control off, active 0 "* ]]
	[[ "$output" == *"ok    proven        hugepages=16: 16 pages (/sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages)"* ]]
	[ "${lines[-2]}" = "proof: proven (pti=on proven, nosmt proven, transparent_hugepage=never proven, hugepagesz=2M proven, hugepages=16 proven, default_hugepagesz=1G proven)" ]
	proofs >"$BATS_TEST_TMPDIR/live"
	run -0 "$BOOTAB" verify --root "$fixtures/lab-smt-nosmt" --managed "$managed" --args "$boot2"
	proofs | diff -u - "$BATS_TEST_TMPDIR/live"
}

@test "set -> reboot -> verify: mitigations=off proven; pti=on fails on that boot, the flag is gone" {
	run -0 "$BOOTAB" set --target lab --managed "$managed" --args "mitigations=off"
	run -0 "$BOOTAB" reboot --target lab --timeout 480
	run -0 "$BOOTAB" verify --target lab --managed "$managed" --args "mitigations=off"
	echo "$output"
	[[ "$output" == *"ok    proven        mitigations=off: 9 affected, none mitigated (/sys/devices/system/cpu/vulnerabilities)"* ]]
	run -1 "$BOOTAB" verify --target lab --args "pti=on"
	[[ "$output" == *"FAIL  proven        pti=on
      expected: the pti flag
      found:    no pti flag (meltdown: Vulnerable)"* ]]
}
