#!/usr/bin/env bats
# bootab plan: a valid plan prints the campaign; an invalid one is one line
# naming the file, the line and the key.

@test "the lab plan: order, managed args, rows, estimate" {
	cd "$BATS_TEST_DIRNAME/../.."
	run "$BOOTAB" plan examples/lab-iommu.ini
	[ "$status" -eq 0 ]
	diff -u tests/cli/expected/plan-lab-iommu.txt <(printf '%s\n' "$output")
}

@test "errors name file, line and key" {
	f="$BATS_TEST_TMPDIR/bad.ini"
	printf '[mode "pt"]\nargs = iommu=pt\n\n[row "r"]\ncommand = true\nreps = lots\n' > "$f"
	run "$BOOTAB" plan "$f"
	[ "$status" -eq 2 ]
	[ "$output" = "bootab: $f:6: reps: 'lots' is not a whole number from 1 to 10000" ]
}

@test "shell metacharacters in args are refused before anything runs" {
	f="$BATS_TEST_TMPDIR/bad.ini"
	printf '[mode "pt"]\nargs = iommu=pt;reboot\n' > "$f"
	run "$BOOTAB" plan "$f"
	[ "$status" -eq 2 ]
	[[ "$output" == "bootab: $f:2: args: invalid kernel argument 'iommu=pt;reboot': "* ]]
}

@test "a missing plan file" {
	run "$BOOTAB" plan /nonexistent/plan.ini
	[ "$status" -eq 2 ]
	[ "$output" = "bootab: /nonexistent/plan.ini: No such file or directory" ]
}
