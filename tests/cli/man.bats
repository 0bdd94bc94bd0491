#!/usr/bin/env bats
# The man pages: groff reads them without a warning, bootab(1)'s command
# sections are the commands' usage texts, the file-format pages are made
# from their docs (tools/md2man.sh) and keep up with the plan parser and the
# results format.

bats_require_minimum_version 1.5.0

setup() {
	src=$BATS_TEST_DIRNAME/../..
	page1=$(dirname "${BOOTAB_VALGRIND_BIN:-$BOOTAB}")/man/bootab.1
	tmp=$(mktemp -d)
}

teardown() {
	rm -rf "$tmp"
}

# The page as a reader sees it, in ASCII. The pages turn hyphenation off, so
# a line that ends in a letter and '-' was broken at a word's own hyphen
# ("DMA-" "FQ"): join those again.
render() {
	LC_ALL=C MANWIDTH=120 man -l "$1" 2>/dev/null | sed -z 's/\([[:alnum:]]-\)\n *\([[:alnum:]]\)/\1\2/g'
}

# Words, one a line.
words() {
	tr -s ' \t\n' '\n\n\n' | sed '/^$/d'
}

@test "groff reads every page without a warning" {
	[ -f "$page1" ]
	for page in "$page1" "$src"/man/*.5; do
		run man --warnings -l "$page"
		[ "$status" -eq 0 ]
		err=$(LC_ALL=C man --warnings -l "$page" 2>&1 >/dev/null)
		if [ -n "$err" ]; then
			echo "$page: $err"
			false
		fi
	done
}

@test "bootab(1) with every conditional part kept reads without a warning" {
	# The parts for commands this binary may not have yet are checked too.
	grep -v '^\.\\" @' "$src/man/bootab.1.in" >"$tmp/all.1"
	grep -q '^\.SH CAMPAIGN' "$tmp/all.1"
	err=$(LC_ALL=C man --warnings -l "$tmp/all.1" 2>&1 >/dev/null)
	[ -z "$err" ] || { echo "$err"; false; }
}

@test "bootab(1) has one section per command, in name order" {
	run sed -n 's/^\.SS "bootab \(.*\)"$/\1/p' "$page1"
	[ "$output" = "$("$BOOTAB" help --commands | LC_ALL=C sort)" ]
}

@test "each command's section says what 'bootab help COMMAND' says" {
	render "$page1" >"$tmp/page"
	for cmd in $("$BOOTAB" help --commands); do
		"$BOOTAB" help "$cmd" | sed '1s/^usage: //' | words >"$tmp/help"
		awk -v h="   bootab $cmd" '
			$0 == h { on = 1; next }
			on && (/^   [^ ]/ || /^[^ ]/) { exit }
			on' "$tmp/page" | words >"$tmp/man"
		[ -s "$tmp/man" ]
		diff -u "$tmp/help" "$tmp/man"
	done
}

@test "'bootab help COMMAND' and 'bootab COMMAND --help' print the same" {
	for cmd in $("$BOOTAB" help --commands); do
		[ "$("$BOOTAB" help "$cmd")" = "$("$BOOTAB" "$cmd" --help)" ]
	done
	run "$BOOTAB" help plan set
	[ "$status" -eq 2 ]
}

@test "gen-man.sh: sections only for commands the binary has; text is escaped" {
	cat >"$tmp/fake" <<'EOF'
#!/bin/sh
case "$1 ${2-}" in
"help --commands") echo zeta; echo alpha ;;
"help alpha") printf '%s\n' 'usage: bootab alpha [-x] FILE' '' \
	'.starts with a dot, has a back\slash' "'starts with a quote" \
	'  -x, --extra N   one -x two' '                  more' 'after the list' ;;
"help zeta") printf '%s\n' 'usage: bootab zeta' ;;
"--version ") echo 'bootab 9.9.9' ;;
*) exit 2 ;;
esac
EOF
	chmod +x "$tmp/fake"
	printf '%s\n' '.TH T 1 "" "bootab @VERSION@"' '.SH COMMANDS' '.\" @commands' \
		'.\" @if alpha' 'has alpha' '.\" @endif' '.\" @if beta' 'has beta' '.\" @if alpha' \
		'nested' '.\" @endif' '.\" @endif' 'end' >"$tmp/t.in"
	run sh "$src/tools/gen-man.sh" "$tmp/fake" "$tmp/t.in"
	[ "$status" -eq 0 ]
	expected='.TH T 1 "" "bootab 9.9.9"
.SH COMMANDS
.SS "bootab alpha"
.nf
\fBbootab alpha\fR [\-x] FILE
.fi
.PP
\&.starts with a dot, has a back\eslash
\&'"'"'starts with a quote
.TP
\fB\-x\fR, \fB\-\-extra\fR N
one \-x two
more
.PP
after the list
.SS "bootab zeta"
.nf
\fBbootab zeta\fR
.fi
has alpha
end'
	diff -u <(printf '%s\n' "$expected") <(printf '%s\n' "$output")

	printf '%s\n' '.\" @if alpha' 'open' >"$tmp/bad.in"
	run sh "$src/tools/gen-man.sh" "$tmp/fake" "$tmp/bad.in"
	[ "$status" -ne 0 ]
	[[ "$output" == *"@if without @endif"* ]]
}

@test "bootab-plan(5) names every section and key the plan parser accepts" {
	page=$src/man/bootab-plan.5
	keys=$(grep -o 'strcmp(key, "[a-z_-]*")' "$src"/src/plan/*.c | sed 's/.*"\(.*\)".*/\1/' | sort -u)
	[ "$(echo "$keys" | wc -l)" -ge 20 ]
	for key in $keys; do
		k=$(printf '%s' "$key" | sed 's/-/\\\\-/g')
		grep -Eq "^\.(B|BI|BR) $k( |$)" "$page" || { echo "key '$key' is not described"; false; }
	done
	for kind in $(grep -o 'strcmp(s->kind, "[a-z]*")' "$src"/src/plan/*.c | sed 's/.*"\(.*\)".*/\1/' | sort -u); do
		grep -Eq "^\.SS .*\[$kind[] ]" "$page" || { echo "section [$kind] is not described"; false; }
	done
}

@test "the example plans of bootab-plan(5) and docs/plan.md are valid plans" {
	sed -n '/^\.SH EXAMPLE/,/^\.EE/p' "$src/man/bootab-plan.5" | sed '1,/^\.EX/d; /^\.EE/d' |
		sed 's/\\-/-/g; s/\\e/\\/g' >"$tmp/man.ini"
	grep -q '^\[campaign\]' "$tmp/man.ini"
	run "$BOOTAB" plan "$tmp/man.ini"
	[ "$status" -eq 0 ]
	[[ "$output" == *"modes 3, rows 2, checks 1, versions 1"* ]]

	sed -n '/^```ini/,/^```/p' "$src/docs/plan.md" | sed '1d;$d' >"$tmp/md.ini"
	run "$BOOTAB" plan "$tmp/md.ini"
	[ "$status" -eq 0 ]
	[[ "$output" == *"modes 3, rows 2, checks 1, versions 1"* ]]
	# The two examples are one plan.
	diff <(grep -v '^#' "$tmp/man.ini") <(grep -v '^#' "$tmp/md.ini")
}

@test "bootab-plan(5) and bootab-results(5) are docs/plan.md and docs/results-format.md (make man-pages)" {
	cd "$src"
	for p in plan:plan results:results-format; do
		sh tools/md2man.sh "docs/${p#*:}.md" >"$tmp/page"
		diff -u "man/bootab-${p%%:*}.5" "$tmp/page"
	done
}

@test "md2man.sh: every kind of block and inline markup the docs use, escaped for troff" {
	cat >"$tmp/t.md" <<'EOF'
<!-- man
page: bootab-t 5
name: a test page
synopsis: *dir/FILE*
see: bootab(1), other
-->
# Title, dropped

Intro with `code-x`, **bold**, *it* and a [link](#x) to
[the site](https://example.org/a).
.starts with a dot, back\slash -opt

## Two words

| key | default | meaning |
|---|---|---|
| `a-b` | 5 | the `x\|y` text, `p,q` |
| `c d`, `e` | | more |

- one
  more
- two

1. first

A paragraph.

    code -x \e
    .dot

### Sub "q"

```ini
[s]
k = a,b
```
EOF
	cat >"$tmp/expected" <<'EOF'
.\" bootab-t(5): made from t.md by tools/md2man.sh; edit that file.
.TH BOOTAB\-T 5 "" "bootab" "bootab manual"
.\" No hyphenation or justification: names and paths stay whole.
.nr HY 0
.nh
.ad l
.SH NAME
bootab\-t \- a test page
.SH SYNOPSIS
.nf
\fIdir/FILE\fR
.fi
.SH DESCRIPTION
Intro with \fBcode\-x\fR, \fBbold\fR, \fIit\fR and a link to the site
<https://example.org/a>. .starts with a dot, back\eslash \-opt
.SH TWO WORDS
.TP
.B a\-b
\fIdefault:\fR 5
.br
the \fBx|y\fR text, \fBp,\:q\fR
.TP
\fBc d\fR, \fBe\fR
more
.PP
.RS 2
.IP \(bu 2
one more
.IP \(bu 2
two
.IP 1. 4
first
.RE
.PP
A paragraph.
.PP
.RS
.EX
code \-x \ee
\&.dot
.EE
.RE
.SS Sub \(dqq\(dq
.RS
.EX
[s]
k = a,b
.EE
.RE
.SH SEE ALSO
.BR bootab (1),
other
EOF
	cd "$tmp"
	run -0 --separate-stderr sh "$src/tools/md2man.sh" t.md
	diff -u "$tmp/expected" - <<<"$output"
	err=$(LC_ALL=C man --warnings -l "$tmp/expected" 2>&1 >/dev/null)
	[ -z "$err" ] || { echo "$err"; false; }
}

@test "bootab-results(5) names every meta.json key of docs/results-format.md" {
	keys=$(sed -n '/^## meta.json/,/^## /p' "$src/docs/results-format.md" |
		grep -o '^| `[a-z_]*`\(, `[a-z_]*`\)*' | grep -o '[a-z_]\+' | sort -u)
	[ "$(echo "$keys" | wc -l)" -ge 15 ]
	render "$src/man/bootab-results.5" >"$tmp/page"
	for key in $keys; do
		grep -Eq "^       ([a-z_]+, )*${key}( |,|$)" "$tmp/page" || { echo "key '$key' missing"; false; }
	done
}

@test "no help text stops mid-sentence: every list item and paragraph ends on a whole phrase" {
	# An item (an option, a subcommand) with its continuation lines, or a
	# paragraph, must not end on a possessive, an article, a preposition or
	# a conjunction ("ROW= sets one row's", "add a mode's"); a heading ends
	# on ":" before its list. Synopses are
	# not prose.
	for cmd in $("$BOOTAB" help --commands); do
		"$BOOTAB" help "$cmd" | awk -v cmd="$cmd" '
			function flush() {
				if (text != "" && text ~ /('\''s|s'\''|[ (](the|a|an|of|to|and|or|with|by|for|from|in|on|its|their|is|are|one|each|every)|[,;(])$/)
					printf "%s: %s\n", cmd, text
				text = ""
			}
			!body { if (/^$/) body = 1; next }
			/^$/ { flush(); next }
			/^  [^ ]/ { flush() }
			/^[^ ]/ && prev_item { flush() }
			{ line = $0; sub(/^ +/, "", line); sub(/ +$/, "", line); text = (text == "" ? line : text " " line)
			  prev_item = /^  /; if (/^[^ ]/) prev_item = 0 }
			END { flush() }'
	done >"$BATS_TEST_TMPDIR/cut"
	diff -u /dev/null "$BATS_TEST_TMPDIR/cut"
}
