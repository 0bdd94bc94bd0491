#!/bin/sh
# bats-negations.sh FILE...: every command in a bats file that starts with
# a bare "!", as "FILE:LINE: ...". Bash ignores errexit for a negated
# command, so such a line fails a test only when it is the test's last:
# write "run -1 CMD" and assert, or end the command with "|| false" (or
# "|| return 1" in a helper function). A command continued over several
# lines (ending in \, |, && or ||) is judged by its last line.
# Exits 1 when there is one, so `make lint` refuses it.
set -eu
[ $# -ge 1 ] || { echo "usage: bats-negations.sh FILE..." >&2; exit 2; }
awk '
	FNR == 1 { cmd = "" }
	cmd == "" && /^[ \t]*![ \t]/ { cmd = $0; line = FNR }
	cmd != "" && FNR != line { cmd = cmd " " $0 }
	cmd != "" {
		if ($0 ~ /(\\|\||&&)[ \t]*$/)
			next
		if (cmd !~ /\|\|[ \t]*(false|return 1)[ \t]*$/) {
			printf "%s:%d: a bare \"!\" cannot fail the test: use run -1 and assert, or end it with || false\n", FILENAME, line
			bad = 1
		}
		cmd = ""
	}
	END { exit bad }
' "$@"
