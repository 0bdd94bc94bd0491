#!/usr/bin/env bats
# The command table: help, version, unknown and prefix-only command names.

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
