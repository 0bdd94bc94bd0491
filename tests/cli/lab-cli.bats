#!/usr/bin/env bats
# `bootab lab` without QEMU: paths, usage errors, a lab that is not running.

bats_require_minimum_version 1.5.0

setup() {
	export BOOTAB_LAB_DIR="$BATS_TEST_TMPDIR/lab"
}

@test "lab path prints BOOTAB_LAB_DIR, else the XDG cache default" {
	run -0 "$BOOTAB" lab path
	[ "$output" = "$BATS_TEST_TMPDIR/lab" ]
	BOOTAB_LAB_DIR= XDG_CACHE_HOME=/c run -0 "$BOOTAB" lab path
	[ "$output" = "/c/bootab/lab" ]
	unset BOOTAB_LAB_DIR
	XDG_CACHE_HOME= HOME=/h run -0 "$BOOTAB" lab path
	[ "$output" = "/h/.cache/bootab/lab" ]
}

@test "an unknown lab subcommand or option is a usage error naming it" {
	run -2 --separate-stderr "$BOOTAB" lab frob
	[ "${stderr_lines[0]}" = "bootab: lab: unknown subcommand 'frob'; see 'bootab help lab'" ]
	run -2 --separate-stderr "$BOOTAB" lab up --fast
	[ "${stderr_lines[0]}" = "bootab: lab up: unknown argument '--fast'; see 'bootab help lab'" ]
	run -2 --separate-stderr "$BOOTAB" lab up --timeout 0
	[ "$stderr" = "bootab: lab: --timeout '0': not a number of seconds; see 'bootab help lab'" ]
	run -2 --separate-stderr "$BOOTAB" lab
	[ "${stderr_lines[0]}" = "bootab: lab: missing subcommand; see 'bootab help lab'" ]
}

@test "a lab that is not running: status says so, ssh and power-cycle refuse, down is a no-op" {
	run -1 --separate-stderr "$BOOTAB" lab status
	[ "$output" = "running: no" ]
	run -1 --separate-stderr "$BOOTAB" lab status --json
	[ "$output" = "{
  \"running\": false,
  \"dir\": \"$BOOTAB_LAB_DIR\"
}" ]
	run -1 "$BOOTAB" lab ssh true
	[ "$output" = "bootab: lab: not running in '$BOOTAB_LAB_DIR' ('bootab lab up' starts it)" ]
	run -1 "$BOOTAB" lab power-cycle
	[ "$output" = "bootab: lab: not running in '$BOOTAB_LAB_DIR' ('bootab lab up' starts it)" ]
	run -0 "$BOOTAB" lab down
	[ "$output" = "bootab: lab: was not running" ]
}

@test "lab up names the missing builder when BOOTAB_LAB_SOURCE holds none" {
	BOOTAB_LAB_SOURCE="$BATS_TEST_TMPDIR" run -2 "$BOOTAB" lab up
	[ "$output" = "bootab: lab: cannot find lab/build.sh next to the binary; set BOOTAB_LAB_SOURCE to the lab/ directory of bootab's source" ]
}
