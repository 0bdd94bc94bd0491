#!/bin/sh
# long-functions.sh MAX FILE...: every C function whose body (the lines
# between its opening and closing brace, each alone on a line at column 0)
# is longer than MAX lines, as "FILE:LINE: NAME: N lines", longest first.
# Exits 1 when there is one, so `make lint` keeps functions short.
set -eu
[ $# -ge 2 ] || { echo "usage: long-functions.sh MAX FILE..." >&2; exit 2; }
max=$1
shift
found=$(awk -v max="$max" '
	FNR == 1 { head = ""; inside = 0 }
	/^[A-Za-z_]/ && !inside { head = $0; headline = FNR }
	/^\{$/ && !inside { inside = 1; start = FNR; next }
	/^\}/ && inside {
		inside = 0
		n = FNR - start - 1
		if (n > max) {
			name = head
			sub(/\(.*/, "", name)
			sub(/.*[ *]/, "", name)
			printf "%d %s:%d: %s: %d lines\n", n, FILENAME, headline, name, n
		}
	}
' "$@" | sort -rn | cut -d ' ' -f 2-)
[ -z "$found" ] && exit 0
printf '%s\n' "$found"
exit 1
