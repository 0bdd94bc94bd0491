#!/bin/sh
# Writes a man page on stdout from one of the Markdown docs, so the doc is
# the one source of both: man/bootab-plan.5 is docs/plan.md, and
# man/bootab-results.5 is docs/results-format.md (`make man-pages` writes
# them, `make lint` checks they are up to date).
#
# usage: md2man.sh DOC.md
#
# The doc starts with an HTML comment (GitHub does not show it) that gives
# the page's header, one "field: value" a line:
#   <!-- man
#   page: bootab-plan 5
#   name: the plan file of a bootab campaign
#   synopsis: plan.ini                  (repeatable; *x* is italic)
#   see: bootab(1), bootab-results(5)
#   -->
# Then: "# Title" is dropped (NAME says it); the text before the first
# "##" is DESCRIPTION; "## X" is a section (.SH, upper case), "###" and
# "####" subsections (.SS). Paragraphs, "- " and "1. " lists, fenced and
# indented code blocks, and tables: each row an item whose tag is the first
# cell (a lone `key` becomes ".B key"), the middle cells "header: value"
# lines, the last cell its text. Inline: `code` bold, **bold**, *italic*,
# [text](link) as text (a web link's address follows it).
set -eu

if [ $# -ne 1 ]; then
	echo "usage: md2man.sh DOC.md" >&2
	exit 2
fi

LC_ALL=C awk -v src="$1" '
# Text for troff: a backslash, a dash that starts a word (or every dash in
# code, so that options and names copy as typed) and the few non-ASCII
# characters the docs use. code: 1 in a code block, 2 in inline code
# (where a line may also break after a comma).
function esc(s, code,    out, i, c, prev) {
	out = ""
	prev = " "
	for (i = 1; i <= length(s); i++) {
		c = substr(s, i, 1)
		if (c == "\\")
			out = out "\\e"
		else if (c == "-" && (code || prev == "-" || index(" ([|/,=\"", prev)))
			out = out "\\-"
		else if (c == "," && code == 2)
			out = out ",\\:"
		else if (c == "\302" && substr(s, i + 1, 1) == "\261") {
			out = out "\\(+-"
			i++
		} else if (c == "\302" && substr(s, i + 1, 1) == "\267") {
			out = out "\\(md"
			i++
		} else
			out = out c
		prev = c
	}
	return out
}

# Markdown inline markup to troff fonts.
function inl(s,    out, i, c, n, j, rest, m, text, url, after) {
	out = ""
	i = 1
	while (i <= length(s)) {
		c = substr(s, i, 1)
		rest = substr(s, i)
		if (c == "`") {
			n = 1
			while (substr(s, i + n, 1) == "`")
				n++
			after = substr(rest, n + 1)
			j = index(after, substr(rest, 1, n))
			if (j) {
				out = out "\\fB" esc(substr(after, 1, j - 1), 2) "\\fR"
				i += n + j - 1 + n
				continue
			}
		} else if (c == "[" && match(rest, /^\[([^][]|\[[^][]*\])*\]\([^ ()]*\)/)) {
			m = substr(rest, 1, RLENGTH)
			j = index(m, "](")
			text = substr(m, 2, j - 2)
			url = substr(m, j + 2, length(m) - j - 2)
			out = out inl(text)
			if (url ~ /^https?:/)
				out = out " <" esc(url, 1) ">"
			i += RLENGTH
			continue
		} else if (c == "*" && substr(s, i + 1, 1) == "*" && (j = index(substr(s, i + 2), "**"))) {
			out = out "\\fB" inl(substr(s, i + 2, j - 1)) "\\fR"
			i += j + 3
			continue
		} else if (c == "*" && substr(s, i + 1, 1) ~ /[^ *]/ && (j = index(substr(s, i + 1), "*")) > 1) {
			out = out "\\fI" inl(substr(s, i + 1, j - 1)) "\\fR"
			i += j + 1
			continue
		} else if (c == "\\" && substr(s, i + 1, 1) ~ /[][\\`*_|#<>()-]/) {
			out = out esc(substr(s, i + 1, 1), 0)
			i += 2
			continue
		}
		# Plain text up to the next markup character.
		j = i + 1
		while (j <= length(s) && index("`[*\\", substr(s, j, 1)) == 0)
			j++
		out = out esc(substr(s, i, j - i), 0)
		i = j
	}
	return out
}

# The words of a heading, without markup.
function plain(s,    m) {
	gsub(/`|\*\*/, "", s)
	while (match(s, /\[[^]]*\]\([^)]*\)/)) {
		m = substr(s, RSTART, RLENGTH)
		sub(/\]\(.*/, "", m)
		s = substr(s, 1, RSTART - 1) substr(m, 2) substr(s, RSTART + RLENGTH)
	}
	return s
}

function quoted(s) {
	s = esc(s, 0)
	gsub(/"/, "\\(dq", s)
	return "\"" s "\""
}

# The text of a heading (the macro joins its arguments with one space).
function heading(s) {
	s = esc(s, 0)
	gsub(/"/, "\\(dq", s)
	return s
}

# One output line; a line that starts with a control character is text.
function line(s) {
	if (s ~ /^[.'\'']/)
		s = "\\&" s
	print s
}

# Text of a paragraph or list item, joined (a code span may cross lines),
# then wrapped again at spaces.
function flush() {
	if (buf == "")
		return
	wrap(inl(buf))
	buf = ""
}

function wrap(out,    n, w, i, cur) {
	n = split(out, w, " ")
	cur = ""
	for (i = 1; i <= n; i++) {
		if (cur != "" && length(cur) + 1 + length(w[i]) > 78) {
			line(cur)
			cur = ""
		}
		cur = (cur == "" ? w[i] : cur " " w[i])
	}
	if (cur != "")
		line(cur)
}

function text(s) {
	sub(/^[ \t]+/, "", s)
	buf = (buf == "" ? s : buf " " s)
}

# Ends a block: a paragraph, a table, a code block, a list.
function end_block() {
	flush()
	if (state == "code")
		print ".EE\n.RE"
	if (state == "list")
		print ".RE"
	state = "none"
}

function para() {
	if (!fresh)
		print ".PP"
	fresh = 0
}

# A table row: its cells, without the outer bars; "\|" is a bar in a cell.
function cells(s, out,    n, i, c, cur) {
	sub(/^\|/, "", s)
	sub(/\|[ \t]*$/, "", s)
	n = 0
	cur = ""
	for (i = 1; i <= length(s); i++) {
		c = substr(s, i, 1)
		if (c == "\\" && substr(s, i + 1, 1) == "|") {
			cur = cur "|"
			i++
		} else if (c == "|") {
			out[++n] = cur
			cur = ""
		} else
			cur = cur c
	}
	out[++n] = cur
	for (i = 1; i <= n; i++) {
		sub(/^[ \t]+/, "", out[i])
		sub(/[ \t]+$/, "", out[i])
	}
	return n
}

function table_row(s,    c, n, i, t) {
	n = cells(s, c)
	if (table_rows++ == 0) {
		for (i = 1; i <= n; i++)
			head[i] = c[i]
		return
	}
	if (c[1] ~ /^:?-+:?$/)
		return
	print ".TP"
	t = c[1]
	if (t ~ /^`[^`]+`$/) {
		t = substr(t, 2, length(t) - 2)
		print ".B " (t ~ /[ "]/ ? quoted(t) : esc(t, 1))
	} else
		line(inl(t))
	for (i = 2; i < n; i++) {
		if (c[i] == "")
			continue
		wrap("\\fI" esc(plain(head[i]), 0) ":\\fR " inl(c[i]))
		print ".br"
	}
	if (n > 1)
		wrap(inl(c[n]))
}

BEGIN {
	state = "none"
	meta = 0
	fresh = 1
}

# The header comment.
NR == 1 && /^<!-- man/ {
	meta = 1
	next
}
meta {
	if (/^-->/) {
		meta = 0
		split(page, p, " ")
		print ".\\\" " p[1] "(" p[2] "): made from " src " by tools/md2man.sh; edit that file."
		print ".TH " toupper(esc(p[1], 1)) " " p[2] " \"\" \"bootab\" \"bootab manual\""
		print ".\\\" No hyphenation or justification: names and paths stay whole."
		print ".nr HY 0"
		print ".nh"
		print ".ad l"
		print ".SH NAME"
		print esc(p[1], 1) " \\- " esc(name, 0)
		if (nsyn) {
			print ".SH SYNOPSIS"
			print ".nf"
			for (i = 1; i <= nsyn; i++)
				line(inl(syn[i]))
			print ".fi"
		}
		print ".SH DESCRIPTION"
		fresh = 1
		next
	}
	f = $0
	sub(/:.*/, "", f)
	v = $0
	sub(/^[^:]*: */, "", v)
	if (f == "page")
		page = v
	else if (f == "name")
		name = v
	else if (f == "synopsis")
		syn[++nsyn] = v
	else if (f == "see")
		see = v
	next
}

# Fenced code.
/^```/ {
	if (state == "fence") {
		print ".EE\n.RE"
		state = "none"
	} else {
		end_block()
		para()
		print ".RS\n.EX"
		state = "fence"
	}
	next
}
state == "fence" {
	line(esc($0, 1))
	next
}

/^[ \t]*$/ {
	if (state == "code") {
		blanks++
		next
	}
	flush()
	if (state != "list")
		end_block()
	else
		list_blank = 1
	if (state == "none" && !fresh)
		gap = 1
	next
}

# Indented code: four spaces after a blank line or more of it.
/^    / && (state == "code" || (state == "none" && buf == "" && (gap || fresh))) {
	if (state != "code") {
		para()
		print ".RS\n.EX"
		state = "code"
	}
	for (; blanks > 0; blanks--)
		print ""
	line(esc(substr($0, 5), 1))
	gap = 0
	next
}
state == "code" {
	end_block()
	gap = blanks > 0
	blanks = 0
}

/^#+ / {
	end_block()
	level = index($0, " ") - 1
	h = substr($0, level + 2)
	if (level == 1)
		next
	if (level == 2)
		print ".SH " heading(toupper(plain(h)))
	else
		print ".SS " heading(plain(h))
	fresh = 1
	gap = 0
	next
}

/^\|/ {
	if (state != "table") {
		end_block()
		state = "table"
		table_rows = 0
		fresh = 0
	}
	table_row($0)
	gap = 0
	next
}
state == "table" {
	end_block()
	gap = 1
}

# A list item: "- text" or "1. text"; deeper lines continue it.
/^[-*] / || /^[0-9]+\. / {
	if (state != "list") {
		end_block()
		para()
		print ".RS 2"
		state = "list"
	}
	flush()
	mark = $1
	if (mark ~ /^[-*]$/)
		print ".IP \\(bu 2"
	else
		print ".IP " mark " 4"
	s = $0
	sub(/^[^ ]+ +/, "", s)
	text(s)
	list_blank = 0
	gap = 0
	next
}
state == "list" && /^  / {
	if (list_blank) {
		flush()
		print ".IP \"\" 2"
	}
	list_blank = 0
	text($0)
	next
}
state == "list" {
	end_block()
	gap = 1
}

{
	if (state == "none" && buf == "")
		para()
	state = "none"
	gap = 0
	text($0)
}

END {
	end_block()
	if (see != "") {
		print ".SH SEE ALSO"
		n = split(see, w, ", *")
		for (i = 1; i <= n; i++) {
			if (match(w[i], /\([0-9]\)$/))
				print ".BR " esc(substr(w[i], 1, RSTART - 1), 1) " " substr(w[i], RSTART) (i < n ? "," : "")
			else
				line(esc(w[i], 0) (i < n ? "," : ""))
		}
	}
}' "$1"
