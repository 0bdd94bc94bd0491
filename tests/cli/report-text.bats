#!/usr/bin/env bats
# The text and Markdown reports as a reader meets them: the headline first,
# on the lab campaign fixture (tests/fixtures/campaign-lab, recorded from a
# real lab run) and the case study.
bats_require_minimum_version 1.5.0

setup() {
	camp="$BATS_TEST_TMPDIR/campaign"
	cp -r "$BATS_TEST_DIRNAME/../fixtures/campaign-lab" "$camp"
	rm -f "$camp"/report.*
	export XDG_DATA_HOME="$BATS_TEST_TMPDIR/data"
}

@test "lab campaign: report.txt and report.md open with the headline, then the campaign's lines" {
	run -0 "$BOOTAB" report "$camp"
	diff -u - <(sed '/^campaign /,$d' "$camp/report.txt") <<-'EOT'
	passthrough vs translated: not tested (one boot per mode: 2 boots per mode, or a history of this
	    box, would test it)

	EOT
	sed -n '4p' "$camp/report.txt" | grep -q '^campaign .*: 2 of 2 boots recorded$'
	diff -u - <(sed '/^campaign /,$d' "$camp/report.md") <<-'EOT'
	- **passthrough vs translated:** not tested (one boot per mode: 2 boots per mode, or a history of this box, would test it)

	EOT
	[ "$(jq -r '.headline[0].text' "$camp/report.json")" = \
		"passthrough vs translated: not tested (one boot per mode: 2 boots per mode, or a history of this box, would test it)" ]
	[ "$(jq -r '.headline[0].null' "$camp/report.json")" = not-tested ]
	[ "$(jq -r '[.answers[].answer] | unique | join(" ")' "$camp/report.json")" = not-tested ]
}

# widest FILE: the widest line of FILE in columns (UTF-8 characters)
widest() {
	python3 -c 'import sys; print(max(len(l) for l in open(sys.argv[1], encoding="utf-8").read().split("\n")))' "$1"
}

@test "text fits 100 columns: the lab campaign and the case study, compare and report alike; --legend is the long form" {
	r2="$BATS_TEST_DIRNAME/../../examples/case-study/round2"
	r1="$BATS_TEST_DIRNAME/../../examples/case-study/round1"
	abca="$BATS_TEST_DIRNAME/../fixtures/campaign-abca"
	run -0 "$BOOTAB" report "$camp"
	[ "$(widest "$camp/report.txt")" -le 100 ]
	"$BOOTAB" compare --color never --by-run strata-prefill --by-run strata-decode \
		"$r2/pt" "$r2/translated" "$r2/off" "$r2/pt2" > "$BATS_TEST_TMPDIR/r2.txt"
	[ "$(widest "$BATS_TEST_TMPDIR/r2.txt")" -le 100 ]
	"$BOOTAB" compare --color never "$r1/off" "$r1/on" "$r1/off2" "$r1/on2" > "$BATS_TEST_TMPDIR/r1.txt"
	[ "$(widest "$BATS_TEST_TMPDIR/r1.txt")" -le 100 ]
	"$BOOTAB" compare --color never "$abca"/{pt,translated,off,pt2,translated2,off2,pt3,translated3,off3,pt4} \
		> "$BATS_TEST_TMPDIR/abca.txt"
	[ "$(widest "$BATS_TEST_TMPDIR/abca.txt")" -le 100 ]
	# The short legend, once, at the end; the long one on request.
	[ "$(grep -c "^legend: " "$BATS_TEST_TMPDIR/r2.txt")" -eq 1 ]
	tail -5 "$BATS_TEST_TMPDIR/r2.txt" | grep -q "^legend: + is better"
	run -1 grep -q '^q = |delta|/|drift|' "$BATS_TEST_TMPDIR/r2.txt"
	run -0 "$BOOTAB" compare --legend --color never "$r2/pt" "$r2/translated" "$r2/off" "$r2/pt2"
	[[ "$output" == *"q = |delta|/|drift|; p = 1 - (2/pi) atan(q/sqrt(0.75))"* ]]
	[[ "$output" != *"legend: + is better"* ]]
}

# on80 FILE ARG...: bootab ARG... in an 80-column terminal (a pseudo-terminal
# from script(1), COLUMNS=80), its output into FILE without the carriage returns
on80() {
	local f=$1 cmd
	shift
	printf -v cmd '%q ' "$BOOTAB" "$@"
	COLUMNS=80 script -qec "$cmd" /dev/null | tr -d '\r' > "$f"
}

@test "text fits an 80-column terminal: headline, tables, boot-level tables and legend; a file gets 100" {
	r2="$BATS_TEST_DIRNAME/../../examples/case-study/round2"
	abca="$BATS_TEST_DIRNAME/../fixtures/campaign-abca"
	on80 "$BATS_TEST_TMPDIR/r2.txt" compare --color never --by-run strata-prefill --by-run strata-decode \
		"$r2/pt" "$r2/translated" "$r2/off" "$r2/pt2"
	on80 "$BATS_TEST_TMPDIR/abca.txt" compare --color never "$abca"/{pt,translated,off,pt2,translated2,off2,pt3,translated3,off3,pt4}
	for f in r2 abca; do
		[ "$(widest "$BATS_TEST_TMPDIR/$f.txt")" -le 80 ] || { echo "$f: $(widest "$BATS_TEST_TMPDIR/$f.txt") columns"; false; }
		[ "$(grep -c '^legend: ' "$BATS_TEST_TMPDIR/$f.txt")" -eq 1 ]
	done
	# The same words as into a file, wrapped: the answer and the boot-level table are whole.
	grep -q '^off vs pt: prefill pp512 +3.8 % \[+2.3, +5.3\] faster (boot t, 3 + 4 boots)$' "$BATS_TEST_TMPDIR/abca.txt"
	grep -q '^  off            3/4  +3.8%  +2.3 to +5.3%  0.002  boot t, df 5  counts$' "$BATS_TEST_TMPDIR/abca.txt"
	# Into a file: 100 columns, and the same lines where they fit.
	"$BOOTAB" compare --color never "$abca"/{pt,translated,off,pt2,translated2,off2,pt3,translated3,off3,pt4} \
		> "$BATS_TEST_TMPDIR/abca-file.txt"
	[ "$(widest "$BATS_TEST_TMPDIR/abca-file.txt")" -gt 80 ]
	[ "$(widest "$BATS_TEST_TMPDIR/abca-file.txt")" -le 100 ]
	grep -q '^  off            3/4  +3.8%  +2.3 to +5.3%  0.002  boot t, df 5  counts$' "$BATS_TEST_TMPDIR/abca-file.txt"
}

@test "--legend and bootab report fit an 80-column terminal; report.txt keeps the 100 columns of a file" {
	command -v script > /dev/null || skip "script(1) is not installed"
	abca="$BATS_TEST_DIRNAME/../fixtures/campaign-abca"
	hist="$BATS_TEST_DIRNAME/../fixtures/history/abca-noisy-aa.json"
	# Every entry of the long legend: the boot t's, the margins' and the history t's.
	on80 "$BATS_TEST_TMPDIR/legend.txt" compare --legend --color never --equivalence 1% \
		"$abca"/{pt,translated,off,pt2,translated2,off2,pt3,translated3,off3,pt4}
	on80 "$BATS_TEST_TMPDIR/legend-h.txt" compare --legend --color never --history "$hist" \
		"$abca"/{pt3,translated3,off3,pt4}
	for f in legend legend-h; do
		[ "$(widest "$BATS_TEST_TMPDIR/$f.txt")" -le 80 ] || { echo "$f: $(widest "$BATS_TEST_TMPDIR/$f.txt") columns"; false; }
	done
	grep -q "^boot t: Welch's t on boot means, each mode against pt" "$BATS_TEST_TMPDIR/legend.txt"
	grep -q '^same within ±M%: ' "$BATS_TEST_TMPDIR/legend.txt"
	grep -q '^history t: ' "$BATS_TEST_TMPDIR/legend-h.txt"
	# The history design's boot-level table: too wide for 80, each verdict opens its notes' line.
	grep -q '^  off            1/2  +3.9%  -2.5 to +10.8%  0.172  history t, df 4$' "$BATS_TEST_TMPDIR/legend-h.txt"
	grep -q '^      within noise; 6 boots per mode for 80% power at +3.9%$' "$BATS_TEST_TMPDIR/legend-h.txt"
	grep -q '^FDR: Benjamini-Hochberg over this report.s tests at q = 0.05' "$BATS_TEST_TMPDIR/legend.txt"
	# Into a file the legend takes 100 columns.
	"$BOOTAB" compare --legend --color never --equivalence 1% "$abca"/{pt,translated,off,pt2,translated2,off2,pt3,translated3,off3,pt4} \
		> "$BATS_TEST_TMPDIR/legend-file.txt"
	[ "$(widest "$BATS_TEST_TMPDIR/legend-file.txt")" -gt 80 ]
	[ "$(widest "$BATS_TEST_TMPDIR/legend-file.txt")" -le 100 ]
	# bootab report on a terminal: the report at its width, short legend or long; the file stays at 100.
	on80 "$BATS_TEST_TMPDIR/report.txt" report "$camp"
	on80 "$BATS_TEST_TMPDIR/report-legend.txt" report --legend "$camp"
	for f in report report-legend; do
		[ "$(widest "$BATS_TEST_TMPDIR/$f.txt")" -le 80 ] || { echo "$f: $(widest "$BATS_TEST_TMPDIR/$f.txt") columns"; false; }
	done
	[ "$(widest "$camp/report.txt")" -gt 80 ]
	[ "$(widest "$camp/report.txt")" -le 100 ]
	# The same report, wrapped: its lines' words are the file's (a narrow screen column says "no drift").
	diff -u <(sed 's/no drift measured$/no drift/' "$camp/report.txt" | tr -s ' \n' '  ') \
		<(tr -s ' \n' '  ' < "$BATS_TEST_TMPDIR/report.txt")
	grep -q '^legend: + is better' "$BATS_TEST_TMPDIR/report.txt"
	grep -q '^loud: the side.s, the first side.s or the drift repeat.s spread' "$BATS_TEST_TMPDIR/report-legend.txt"
	# In a pipe, bootab report prints report.txt as it is.
	"$BOOTAB" report "$camp" | diff -u "$camp/report.txt" -
}

@test "report --legend prints the long legend; the campaign's report files keep the short one" {
	run -0 --separate-stderr "$BOOTAB" report --legend "$camp"
	[[ "$output" == *"q = |delta|/|drift|; p = 1 - (2/pi) atan(q/sqrt(0.75))"* ]]
	[[ "$output" != *"legend: + is better"* ]]
	grep -q "^legend: + is better" "$camp/report.txt"
	run -1 grep -q '^q = |delta|/|drift|' "$camp/report.txt"
	run -0 --separate-stderr "$BOOTAB" report --legend --format md -o - "$camp"
	[[ "$output" == *"q = |delta|/|drift|"* ]]
	run -2 --separate-stderr "$BOOTAB" report --legend --format json "$camp"
	[ "$stderr" = "bootab: --legend: only txt and md have a legend, not json; see 'bootab help report'" ]
}

@test "COLUMNS is honoured on a terminal only" {
	r2="$BATS_TEST_DIRNAME/../../examples/case-study/round2"
	COLUMNS=60 "$BOOTAB" compare --color never "$r2/pt" "$r2/translated" "$r2/off" "$r2/pt2" > "$BATS_TEST_TMPDIR/pipe.txt"
	diff -u "$BATS_TEST_TMPDIR/pipe.txt" <("$BOOTAB" compare --color never "$r2/pt" "$r2/translated" "$r2/off" "$r2/pt2")
	command -v script > /dev/null || skip "script(1) is not installed"
	COLUMNS=60 script -qec "$BOOTAB compare --color never $r2/pt $r2/translated $r2/off $r2/pt2" /dev/null |
		tr -d '\r' > "$BATS_TEST_TMPDIR/tty.txt"
	# The headline wraps at 60 there; at 100 in a pipe.
	[ "$(sed '/^$/,$d' "$BATS_TEST_TMPDIR/tty.txt" | python3 -c 'import sys; print(max(len(l) for l in sys.stdin.read().split("\n")))')" -le 60 ]
	[ "$(sed '/^$/,$d' "$BATS_TEST_TMPDIR/pipe.txt" | python3 -c 'import sys; print(max(len(l) for l in sys.stdin.read().split("\n")))')" -gt 60 ]
}

@test "units as people read them: one per table in txt and md, the raw value in json and csv" {
	run -0 "$BOOTAB" compare --color never "$camp/translated" "$camp/passthrough"
	[[ "$output" == *"randread  randread.clat_mean_ns  (ms, mean, lower is better)"* ]]
	[[ "$output" == *"  translated     36.12 ± 4.59  12.7%   2"* ]]
	[[ "$output" == *"randread  randread.bw_kib  (MiB/s, mean, higher is better)"* ]]
	run -0 "$BOOTAB" compare --format md "$camp/translated" "$camp/passthrough"
	[[ "$output" == *"| randread | randread.clat_mean_ns (ms) | translated | 36.12 | 4.59 | 12.7% | 2 |"* ]]
	run -0 "$BOOTAB" compare --json "$camp/translated" "$camp/passthrough"
	[ "$(jq -r '.comparisons[] | select(.metric == "randread.clat_mean_ns" and .side == "translated") | .unit + " " + (.value | floor | tostring)' <<<"$output")" = "ns 36120947" ]
	# Rates and counts: four digits exact, k from 10 000 (fio's own IOPS=9990, IOPS=12.2k).
	mkdir -p "$BATS_TEST_TMPDIR/u/a" "$BATS_TEST_TMPDIR/u/b"
	cp "$BATS_TEST_DIRNAME/../fixtures/parsers/fio/randrw.json" "$BATS_TEST_TMPDIR/u/a/rw.json"
	cp "$BATS_TEST_TMPDIR/u/a/rw.json" "$BATS_TEST_TMPDIR/u/b/rw.json"
	run -0 "$BOOTAB" compare --color never "$BATS_TEST_TMPDIR/u/a" "$BATS_TEST_TMPDIR/u/b"
	[[ "$output" == *"rw  mixed.write.iops  (IOPS, mean, higher is better)"* ]]
	[[ "$output" == *"  a           7775 ± -          1"* ]]
	[[ "$output" == *"rw  mixed.read.iops  (k IOPS, mean, higher is better)"* ]]
	[[ "$output" == *"  a          18.30 ± -          1"* ]]
}

@test "README's worked example is what compare prints on the case study, line for line" {
	readme="$BATS_TEST_DIRNAME/../../README.md"
	r2="$BATS_TEST_DIRNAME/../../examples/case-study/round2"
	run -0 "$BOOTAB" compare --color never --by-run strata-prefill --by-run strata-decode \
		"$r2/pt" "$r2/translated" "$r2/off" "$r2/pt2"
	printf '%s\n' "$output" > "$BATS_TEST_TMPDIR/out.txt"
	# The section's first block is the case study's output.
	sed -n '/^## A worked example/,/^## /p' "$readme" | awk '/^```$/ { n++; next } n == 1' > "$BATS_TEST_TMPDIR/excerpt"
	[ "$(wc -l < "$BATS_TEST_TMPDIR/excerpt")" -gt 30 ]
	while IFS= read -r line; do
		[ -z "$line" ] && continue
		grep -qxF -- "$line" "$BATS_TEST_TMPDIR/out.txt" || { echo "not in the output: $line"; false; }
	done < "$BATS_TEST_TMPDIR/excerpt"
	# It opens as the output does: the headline first.
	[ "$(head -1 "$BATS_TEST_TMPDIR/excerpt")" = "$(head -1 "$BATS_TEST_TMPDIR/out.txt")" ]
}

@test "README's lab excerpt is what bootab report prints on the recorded lab campaign, line for line" {
	readme="$BATS_TEST_DIRNAME/../../README.md"
	# As README says to run it, from the top of the tree; -o - writes nothing into the campaign.
	cd "$BATS_TEST_DIRNAME/../.."
	run -0 --separate-stderr "$BOOTAB" report tests/fixtures/campaign-lab -o -
	printf '%s\n' "$output" > "$BATS_TEST_TMPDIR/out.txt"
	git status --porcelain -- tests/fixtures/campaign-lab > "$BATS_TEST_TMPDIR/status" 2>/dev/null || true
	[ ! -s "$BATS_TEST_TMPDIR/status" ]
	# The demo section's first block, but for the "..." that stands for the tables left out.
	sed -n '/^## The demo campaign/,/^## /p' "$readme" | awk '/^```$/ { n++; next } n == 1' > "$BATS_TEST_TMPDIR/excerpt"
	[ "$(wc -l < "$BATS_TEST_TMPDIR/excerpt")" -gt 20 ]
	grep -q '^campaign tests/fixtures/campaign-lab: 2 of 2 boots recorded$' "$BATS_TEST_TMPDIR/excerpt"
	while IFS= read -r line; do
		[ -z "$line" ] || [ "$line" = "..." ] && continue
		grep -qxF -- "$line" "$BATS_TEST_TMPDIR/out.txt" || { echo "not in the output: $line"; false; }
	done < "$BATS_TEST_TMPDIR/excerpt"
	[ "$(head -1 "$BATS_TEST_TMPDIR/excerpt")" = "$(head -1 "$BATS_TEST_TMPDIR/out.txt")" ]
}
