#!/usr/bin/env bats
# The scripts bootab runs on a target share one table of exit codes
# (src/target/exit-codes.h): every code a script exits with has one
# meaning, and the C code reads them by name.

src="$BATS_TEST_DIRNAME/../../src"

# The numbers of the table, one a line.
table_codes() {
	sed -n 's/^[[:space:]]*TARGET_EXIT_[A-Z_]* = \([0-9]*\),.*/\1/p' "$src/target/exit-codes.h"
}

@test "the table gives each code one name" {
	codes=$(table_codes)
	[ "$(printf '%s\n' "$codes" | wc -l)" -ge 8 ]
	[ -z "$(printf '%s\n' "$codes" | sort | uniq -d)" ]
}

@test "every exit code a target script uses is in the table" {
	codes=$(table_codes)
	n=0
	for f in "$src"/target/*.sh; do
		for code in $(grep -o 'exit [0-9][0-9]*' "$f" | cut -d' ' -f2); do
			n=$((n + 1))
			if ! printf '%s\n' "$codes" | grep -qx "$code"; then
				echo "${f##*/}: exit $code is not in src/target/exit-codes.h" >&2
				return 1
			fi
		done
	done
	# The scripts exit with codes at all (the pattern matched something).
	[ "$n" -ge 30 ]
}

@test "C reads script exit codes by name, not by number" {
	# Exit codes other than success (0) and ssh's own failure (255) are
	# compared by name wherever a script's result is read.
	run grep -rnE 'exit_code (==|!=) [1-9][0-9]?\b|case [1-9]:' "$src/target" "$src/campaign" "$src/fleet" "$src/lava" "$src/boot"
	[ "$status" -eq 1 ]
}

@test "the scripts that read under a root share one check, word for word" {
	# From its comment to the end of readable(): the same text in each.
	guard() {
		sed -n '/^# The one check of every file read under ROOT/,/^}$/p;/^readable() {$/,/^}$/p' "$src/target/$1.sh" |
			awk '/^readable\(\) \{$/ { r = 1 } { print } r && /^}$/ { exit }'
	}
	want=$(guard snapshot)
	[ "$(printf '%s\n' "$want" | grep -c '^readable() {$')" -eq 1 ]
	[ "$(guard kernel-id)" = "$want" ]
	[ "$(guard inventory)" = "$want" ]
	# And no file under ROOT is read past it: no bare -r test of a ROOT path.
	run grep -n '\[ -r "\$ROOT' "$src/target/snapshot.sh" "$src/target/kernel-id.sh" "$src/target/inventory.sh"
	[ "$status" -eq 1 ]
}
