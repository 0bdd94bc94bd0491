#!/usr/bin/env bats
# The command table: help, version, unknown and prefix-only command names;
# the first plan README.md shows.

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

@test "-V and --version print the version" {
	run -0 --separate-stderr "$BOOTAB" -V
	[[ "$output" =~ ^bootab\ [0-9]+\.[0-9]+\.[0-9]+$ ]]
	[ "$output" = "$("$BOOTAB" --version)" ]
	[ "$output" = "$("$BOOTAB" version)" ]
}

@test "short options: -h, -V and -o only, the same everywhere (bootab(1) OPTIONS)" {
	# Every short option a usage text shows is one of the table's (ssh -F in prose is not bootab's).
	for cmd in $("$BOOTAB" help --commands); do
		# The synopsis (up to the first blank line) and the option list items.
		shown=$("$BOOTAB" help "$cmd" | awk '!s && /^$/ { s = 1 } !s { print } s && /^  -/ { print $1 }' |
			grep -oE '(^|[ [|])-[A-Za-z]\b' | grep -oE -- '-[A-Za-z]' | sort -u | tr '\n' ' ')
		case "$cmd" in
		report|snapshot) [ "$shown" = "-o " ] ;;
		help) [ "$shown" = "" ] ;;
		version) [ "$shown" = "-V " ] ;;
		*) [ "$shown" = "" ] || { echo "$cmd shows $shown"; false; } ;;
		esac
	done
	# And no command takes a short option its text does not show.
	for cmd in compare iommu-map plan reboot report run set snapshot verify; do
		for l in {a..z} {A..Z}; do
			[ "$l" = h ] && continue
			run -2 --separate-stderr "$BOOTAB" "$cmd" "-$l"
			if [ "$l" = o ] && { [ "$cmd" = report ] || [ "$cmd" = snapshot ]; }; then
				[ "$stderr" = "bootab: -o needs a value; see 'bootab help $cmd'" ]
			else
				[ "$stderr" = "bootab: unknown option '-$l'; see 'bootab help $cmd'" ] || { echo "$cmd -$l: $stderr"; false; }
			fi
		done
	done
}

@test "usage errors are one line with a hint, not the whole help" {
	for cmd in compare iommu-map plan reboot report run set snapshot verify; do
		run -2 --separate-stderr "$BOOTAB" "$cmd" --frob
		[ "$stderr" = "bootab: unknown option '--frob'; see 'bootab help $cmd'" ]
	done
	run -2 --separate-stderr "$BOOTAB" compare --stat
	[ "$stderr" = "bootab: --stat needs a value; see 'bootab help compare'" ]
	run -2 --separate-stderr "$BOOTAB" compare --json=yes a b
	[ "$stderr" = "bootab: '--json=yes': unknown option, or one that takes no value; see 'bootab help compare'" ]
	run -2 --separate-stderr "$BOOTAB" compare "$BATS_TEST_TMPDIR"
	[ "$stderr" = "bootab: compare needs at least two side directories; see 'bootab help compare'" ]
	run -2 --separate-stderr "$BOOTAB" compare --loud x a b
	[ "$stderr" = "bootab: --loud: 'x' is not a percentage; see 'bootab help compare'" ]
	run -2 --separate-stderr "$BOOTAB" plan
	[ "$stderr" = "bootab: no plan file given; see 'bootab help plan'" ]
	run -2 --separate-stderr "$BOOTAB" run a.ini b.ini
	[ "$stderr" = "bootab: one plan file only; see 'bootab help run'" ]
}

@test "README's first plan is one bootab plan accepts: two boots of every mode" {
	# The first ```ini block of README.md, as a user would copy it.
	awk '/^```ini$/ { inside = 1; next } inside && /^```$/ { exit } inside' \
		"$BATS_TEST_DIRNAME/../../README.md" > "$BATS_TEST_TMPDIR/my-plan.ini"
	run -0 --separate-stderr "$BOOTAB" plan "$BATS_TEST_TMPDIR/my-plan.ini"
	[[ "$output" == *"target: me@my-box"* ]]
	[[ "$output" == *"boot order (5 boots):
   1  translated       (the standing kernel defaults)
   2  passthrough      iommu=pt
   3  translated2      (the standing kernel defaults)
   4  passthrough2     iommu=pt
   5  translated3      (the standing kernel defaults)"* ]]
	[[ "$output" == *"row   randread         fio --name=randread "*"parser fio"* ]]
}
