#!/bin/sh
# Writes bootab(1) on stdout from man/bootab.1.in and the binary's own help.
#
# usage: gen-man.sh BOOTAB TEMPLATE
#
# Each command's usage text (the usage string at the top of
# src/cmd-NAME.c, printed by 'bootab help NAME') is the one source of its
# documentation: this script turns it into that command's section of the
# COMMANDS part, so 'bootab help NAME' and the man page say the same thing.
# The usage text follows the layout described in src/commands.h.
#
# In the template:
#   .\" @commands            replaced by one section per command
#   .\" @if NAME ... .\" @endif
#                           kept only when the binary has command NAME
#   @VERSION@                replaced by the binary's version
set -eu

if [ $# -ne 2 ]; then
	echo "usage: gen-man.sh BOOTAB TEMPLATE" >&2
	exit 2
fi
bootab=$1
template=$2

commands=$("$bootab" help --commands | LC_ALL=C sort)
version=$("$bootab" --version)
version=${version#bootab }

# One usage text on stdin, man(7) on stdout.
usage_to_man() {
	LC_ALL=C awk -v cmd="$1" '
	# Escape text for troff: backslashes, a dash that starts a word (an
	# option: \- keeps it an ASCII hyphen-minus for copy and paste), and a
	# line that would start with a control character.
	function esc(s,    out, i, c, prev, dash) {
		out = ""
		prev = " "
		dash = 0
		for (i = 1; i <= length(s); i++) {
			c = substr(s, i, 1)
			if (c == "\\") {
				out = out "\\e"
				dash = 0
			} else if (c == "-" && (dash || index(" [(|/,=\"'\''", prev))) {
				out = out "\\-"
				dash = 1
			} else {
				out = out c
				dash = 0
			}
			prev = c
		}
		return out
	}
	function line(s) {
		if (s ~ /^[.'\'']/)
			s = "\\&" s
		print s
	}
	# A list term: the first word, every word after a comma ("-o, --output",
	# "iommu=pt, iommu.passthrough=1") and every option in bold.
	function term(s,    n, w, i, out, tail, comma) {
		n = split(s, w, " ")
		out = ""
		comma = 0
		for (i = 1; i <= n; i++) {
			tail = ""
			if (i == 1 || comma || w[i] ~ /^-/) {
				comma = w[i] ~ /,$/
				if (w[i] ~ /,$/) {
					tail = ","
					w[i] = substr(w[i], 1, length(w[i]) - 1)
				}
				w[i] = "\\fB" esc(w[i]) "\\fR" tail
			} else {
				comma = 0
				w[i] = esc(w[i])
			}
			out = out (i > 1 ? " " : "") w[i]
		}
		return out
	}
	BEGIN {
		print ".SS \"bootab " cmd "\""
		state = "synopsis"
		print ".nf"
	}
	state == "synopsis" {
		if ($0 == "") {
			print ".fi"
			state = "blank"
			next
		}
		s = $0
		if (s ~ /^usage: /)
			s = substr(s, 8)
		else if (s ~ /^       /)
			s = substr(s, 8)
		if (s ~ /^bootab [^ ]+/) {
			match(s, /^bootab [^ ]+/)
			line("\\fB" esc(substr(s, 1, RLENGTH)) "\\fR" esc(substr(s, RLENGTH + 1)))
		} else {
			line(esc(s))
		}
		next
	}
	$0 == "" {
		state = "blank"
		next
	}
	# A list item: two spaces, a term, two or more spaces, its description.
	/^  [^ ]/ {
		s = substr($0, 3)
		gap = index(s, "  ")
		print ".TP"
		if (gap) {
			line(term(substr(s, 1, gap - 1)))
			d = substr(s, gap)
			sub(/^ +/, "", d)
			line(esc(d))
		} else {
			line(term(s))
		}
		state = "item"
		next
	}
	# Deeper indentation continues the item (or paragraph) above.
	/^   / {
		s = $0
		sub(/^ +/, "", s)
		if (state == "blank") {
			print ".PP"
			state = "prose"
		}
		line(esc(s))
		next
	}
	{
		if (state != "prose")
			print ".PP"
		state = "prose"
		line(esc($0))
	}
	END {
		if (state == "synopsis")
			print ".fi"
	}'
}

sections=$(mktemp)
trap 'rm -f "$sections"' EXIT
for c in $commands; do
	"$bootab" help "$c" | usage_to_man "$c"
done > "$sections"

LC_ALL=C awk -v commands=" $(echo "$commands" | tr "\n" " ") " -v version="$version" -v sections="$sections" '
	/^\.\\" @if / {
		depth++
		if (skip == 0 && index(commands, " " $3 " ") == 0)
			skip = depth
		next
	}
	/^\.\\" @endif/ {
		if (skip == depth)
			skip = 0
		depth--
		next
	}
	skip { next }
	/^\.\\" @commands/ {
		while ((getline l < sections) > 0)
			print l
		next
	}
	{
		gsub(/@VERSION@/, version)
		print
	}
	END {
		if (depth) {
			print "gen-man.sh: @if without @endif" > "/dev/stderr"
			exit 1
		}
	}' "$template"
