#!/usr/bin/env bats
# The command table: help, version, unknown and prefix-only command names.

bats_require_minimum_version 1.5.0

@test "help lists the commands" {
	run "$BOOTAB" help
	[ "$status" -eq 0 ]
	[[ "$output" == *"usage: bootab COMMAND"* ]]
	[[ "$output" == *"version"* ]]
}

@test "unknown command is a usage error naming it" {
	run "$BOOTAB" frobnicate
	[ "$status" -eq 2 ]
	[ "$output" = "bootab: unknown command 'frobnicate'; 'bootab help' lists them" ]
}

@test "a prefix never selects a command" {
	run "$BOOTAB" vers
	[ "$status" -eq 2 ]
}

@test "version prints the version" {
	run "$BOOTAB" --version
	[ "$status" -eq 0 ]
	[[ "$output" =~ ^bootab\ [0-9]+\.[0-9]+\.[0-9]+$ ]]
}

@test "the command table is sorted and every command it lists is found by name" {
	run -0 "$BOOTAB" help --commands
	[ "$output" = "$(printf '%s\n' "$output" | LC_ALL=C sort)" ]
	[ "$(printf '%s\n' "$output" | wc -l)" -ge 12 ]
	for cmd in $output; do
		run -0 "$BOOTAB" "$cmd" --help
		[[ "$output" == "usage: bootab $cmd"* ]]
	done
	run -2 "$BOOTAB" comp
	[ "$output" = "bootab: unknown command 'comp'; 'bootab help' lists them" ]
}
