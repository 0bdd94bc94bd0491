#!/usr/bin/env bats
# Bash completion (completion/bootab.bash), driven as bash drives it: set
# COMP_WORDS and COMP_CWORD, call the completion function, read COMPREPLY.

setup() {
	# shellcheck source=../../completion/bootab.bash
	source "$BATS_TEST_DIRNAME/../../completion/bootab.bash"
	tmp=$(mktemp -d)
	cd "$tmp"
}

teardown() {
	cd /
	rm -rf "$tmp"
}

# complete BIN WORD... : the candidates for the last WORD, sorted, one a line.
complete_line() {
	COMP_WORDS=("$@")
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	COMP_LINE="${COMP_WORDS[*]}"
	COMP_POINT=${#COMP_LINE}
	COMPREPLY=()
	_bootab
	if ((${#COMPREPLY[@]})); then
		printf '%s\n' "${COMPREPLY[@]}" | LC_ALL=C sort
	fi
}

# A stand-in binary whose help shows forms the real commands use: several
# synopsis forms, subcommands, "-o, --output DIR", an option with two values.
fake_bootab() {
	cat >"$tmp/fake" <<'EOF'
#!/bin/sh
case "$1 ${2-}" in
"help --commands") printf '%s\n' lab map ;;
"help lab") cat <<'TEXT'
usage: bootab lab build [--force]
       bootab lab up [--timeout SECONDS]
       bootab lab power-cycle

  build        build the files
  --timeout S  give up after S seconds
TEXT
;;
"help map") cat <<'TEXT'
usage: bootab map [--json] [-o DIR] [--format a|bb|c] [--expect EXPR]...
       bootab map --diff A B
       bootab map --resume DIR

  -o, --output DIR   write there
  --diff A B         compare two
                     snapshots
  --json             JSON
  --speed S          fast (default), slow-ish or off (see below); more text
  --limit N          the limit, 5 (default) or more
  --device ADDR      only this device (a, b or c)
TEXT
;;
*) exit 2 ;;
esac
EOF
	chmod +x "$tmp/fake"
}

@test "the first word: every command of the binary" {
	run complete_line "$BOOTAB" ""
	[ "$status" -eq 0 ]
	[ "$output" = "$("$BOOTAB" help --commands | LC_ALL=C sort)" ]
	for c in compare help plan set version; do
		[[ $'\n'"$output"$'\n' == *$'\n'"$c"$'\n'* ]]
	done
}

@test "a command name is completed from its start" {
	run complete_line "$BOOTAB" comp
	[ "$output" = "compare" ]
	run complete_line "$BOOTAB" --
	[ "$output" = $'--help\n--version' ]
}

@test "compare: its options, from its help text" {
	run complete_line "$BOOTAB" compare --
	[ "$output" = "$(printf '%s\n' --alpha --baseline --by-run --color --equivalence --fdr --format --help --history --ignore --json --legend --loud --mode --no-history --record-history --side --stat)" ]
	run complete_line "$BOOTAB" compare --fo
	[ "$output" = "--format" ]
}

@test "compare: option values, also after --opt=" {
	run complete_line "$BOOTAB" compare --format ""
	[ "$output" = "$(printf '%s\n' csv html json mail md txt)" ]
	run complete_line "$BOOTAB" compare --stat m
	[ "$output" = "$(printf '%s\n' max mean median min)" ]
	run complete_line "$BOOTAB" compare --color = ""
	[ "$output" = "$(printf '%s\n' always auto never)" ]
	run complete_line "$BOOTAB" compare --loud ""
	[ "$output" = "" ]
}

@test "compare: side directories, not files, also after an option's value" {
	mkdir pt pt2 off
	touch pt.txt
	run complete_line "$BOOTAB" compare --by-run strata pt
	[ "$output" = $'pt\npt2' ]
	run complete_line "$BOOTAB" compare pt ""
	[ "$output" = $'off\npt\npt2' ]
}

@test "plan: plan files and directories, one plan only" {
	mkdir plans
	touch lab.ini notes.txt
	run complete_line "$BOOTAB" plan ""
	[ "$output" = $'lab.ini\nplans' ]
	run complete_line "$BOOTAB" plan lab.ini ""
	[ "$output" = "" ]
}

@test "run: plan files, its options, campaign directories for --resume and --data" {
	mkdir runs
	touch lab.ini
	run complete_line "$BOOTAB" run ""
	[ "$output" = $'lab.ini\nruns' ]
	run complete_line "$BOOTAB" run --
	[ "$output" = "$(printf '%s\n' --data --dry-run --help --resume --root)" ]
	run complete_line "$BOOTAB" run --resume ""
	[ "$output" = "runs" ]
	run complete_line "$BOOTAB" run --root r
	[ "$output" = "runs" ]
	run complete_line "$BOOTAB" run --data r
	[ "$output" = "runs" ]
}

@test "report: the formats its synopsis lists, then a campaign directory" {
	mkdir runs
	run complete_line "$BOOTAB" report --format ""
	[ "$output" = "$(printf '%s\n' csv html json mail md txt)" ]
	run complete_line "$BOOTAB" report --format md ""
	[ "$output" = "runs" ]
}

@test "set: backends; nothing is guessed for kernel args" {
	run complete_line "$BOOTAB" set --backend ""
	[ "$output" = "$(printf '%s\n' auto bls grub grubby kernel-cmdline kexec)" ]
	run complete_line "$BOOTAB" set --managed iommu=pt --args ""
	[ "$output" = "" ]
	run complete_line "$BOOTAB" set --dry-run --js
	[ "$output" = "--json" ]
}

@test "help: command names" {
	run complete_line "$BOOTAB" help ""
	[ "$output" = "$("$BOOTAB" help --commands | LC_ALL=C sort)" ]
}

@test "targets: local, the lab when the binary has it, and ssh_config hosts" {
	mkdir -p home/.ssh/conf.d
	cat >home/.ssh/config <<'EOF'
# a comment
Host gpu-box npu-box
    HostName 10.0.0.2
Host *.example.org !bad
Host=bmc
  Include conf.d/*.conf
EOF
	printf 'host lab-rack\nHost rack-?\n' >home/.ssh/conf.d/rack.conf
	expected=local
	if "$BOOTAB" help --commands | grep -qx lab; then
		expected=$'lab\nlocal'
	fi
	HOME=$tmp/home run _bootab_targets "$BOOTAB"
	[ "$status" -eq 0 ]
	[ "$(printf '%s\n' "$output" | LC_ALL=C sort)" = "$(printf '%s\n' $expected bmc gpu-box lab-rack npu-box | LC_ALL=C sort)" ]

	HOME=$tmp/home
	COMP_WORDS=(bootab verify --target g)
	COMPREPLY=()
	_bootab_option_value "$BOOTAB" verify --target g
	[ "${COMPREPLY[*]}" = "gpu-box" ]
}

@test "targets without an ssh config: local (and lab)" {
	HOME=$tmp run _bootab_targets "$BOOTAB"
	[[ "$output" == local* ]]
	[[ "$output" != *$'\n'[!l]* ]]
}

@test "--mode: the modes of the plan file on the line" {
	cp "$BATS_TEST_DIRNAME/../../examples/lab-iommu.ini" plan.ini
	COMP_WORDS=(bootab run plan.ini --mode "")
	COMPREPLY=()
	_bootab_option_value "$BOOTAB" run --mode ""
	[ "$(printf '%s\n' "${COMPREPLY[@]}")" = "$(printf '%s\n' translated passthrough pti)" ]
	COMP_WORDS=(bootab run --mode "")
	COMPREPLY=()
	_bootab_option_value "$BOOTAB" run --mode ""
	[ "${#COMPREPLY[@]}" -eq 0 ]
}

@test "help parsing: subcommands, -o/--output, an option with two values" {
	fake_bootab
	run complete_line "$tmp/fake" lab ""
	[ "$output" = "$(printf '%s\n' build power-cycle up)" ]
	run complete_line "$tmp/fake" lab up --
	[ "$output" = "$(printf '%s\n' --force --help --timeout)" ]
	run complete_line "$tmp/fake" map -
	[ "$output" = "$(printf '%s\n' --device --diff --expect --format --help --json --limit --output --resume --speed -o)" ]
	run complete_line "$tmp/fake" map --format ""
	[ "$output" = "$(printf '%s\n' a bb c)" ]
	run complete_line "$tmp/fake" map --speed ""
	[ "$output" = "$(printf '%s\n' fast off slow-ish)" ]
	run complete_line "$tmp/fake" map --limit ""
	[ "$output" = "" ]
	run complete_line "$tmp/fake" map --device ""
	[ "$output" = "" ]
	run complete_line "$tmp/fake" map --expect x --js
	[ "$output" = "--json" ]
	mkdir snapA
	touch snapA.json other.txt
	run complete_line "$tmp/fake" map --diff snapA s
	[ "$output" = $'snapA\nsnapA.json' ]
	run complete_line "$tmp/fake" map -o ""
	[ "$output" = "snapA" ]
}

@test "after 'lab ssh' the words are the guest's" {
	fake_bootab
	run complete_line "$tmp/fake" lab ssh ""
	[ "$output" = "" ]
}
