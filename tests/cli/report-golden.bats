#!/usr/bin/env bats
# Whole outputs, txt, md and mail, of three campaigns made the way users have
# their data, one per kind of answer:
#   screen only:  the case study's round two (llama-bench JSONL and plain
#                 numbers, one boot per mode): every line "not tested";
#   boot-level:   tests/fixtures/campaign-hyperfine (hyperfine JSON, three
#                 boots per mode): a boot t claim, as a factor past 2x;
#   history:      tests/fixtures/campaign-abca's last round (one boot per
#                 mode) with the machine's A/A history: the history t.
# The expected files are bootab's output, checked by eye when they change
# (tests/cli/expected/golden-*). The html of those three, and every report
# format of the fixture campaigns (campaign-lab, a real lab run, and
# campaign-abca: report-*), are written by
# tests/cli/expected/make-report-goldens.sh, which says how to regenerate
# them.
bats_require_minimum_version 1.5.0

setup() {
	r2="$BATS_TEST_DIRNAME/../../examples/case-study/round2"
	hf="$BATS_TEST_DIRNAME/../fixtures/campaign-hyperfine"
	abca="$BATS_TEST_DIRNAME/../fixtures/campaign-abca"
	hist="$BATS_TEST_DIRNAME/../fixtures/history/abca-noisy-aa.json"
	expected="$BATS_TEST_DIRNAME/expected"
	export XDG_DATA_HOME="$BATS_TEST_TMPDIR/data"
}

# golden NAME ARG...: compare ARG... in txt, md and mail is expected/golden-NAME.txt, .md and -mail.txt
golden() {
	local name=$1 f
	shift
	for f in txt md mail; do
		run --separate-stderr "$BOOTAB" compare --color never --format "$f" "$@"
		[ "$status" -eq 0 ] || { echo "$f: exit $status: $stderr"; return 1; }
		case $f in
		txt) diff -u "$expected/golden-$name.txt" - <<<"$output" || return 1 ;;
		md) diff -u "$expected/golden-$name.md" - <<<"$output" || return 1 ;;
		mail) diff -u "$expected/golden-$name-mail.txt" - <<<"$output" || return 1 ;;
		esac
	done
}

@test "golden, screen only: the case study's round two, llama-bench JSONL and plain numbers, not tested" {
	golden screen --by-run strata-prefill --by-run strata-decode "$r2/pt" "$r2/translated" "$r2/off" "$r2/pt2"
	# The answer is "not tested", whatever the screen column counts.
	grep -q '^off vs pt: not tested (one boot of off: 2 boots per mode, or a history of this box, would test it);$' \
		"$expected/golden-screen.txt"
	grep -q '  off            429.6 ± 5.2   1.2%   5   +4.2%   +0.2%  21.0  counts$' "$expected/golden-screen.txt"
}

@test "golden, boot-level tested: hyperfine JSON, three boots per mode, a claim told as a factor" {
	golden hyperfine "$hf/a" "$hf/b" "$hf/a2" "$hf/b2" "$hf/a3" "$hf/b3"
	grep -Eq '^b vs a: sleep sleep [0-9]+\.[0-9]x slower \[[0-9.]+x, [0-9.]+x\] \(boot t, 3 \+ 3 boots\)$' \
		"$expected/golden-hyperfine.txt"
	# The mail keeps + is better percentages in its tables.
	grep -Eq '^sleep sleep \(s\) +[0-9.]+ +[0-9.]+ +-[0-9]+\.[0-9]+ ' "$expected/golden-hyperfine-mail.txt"
}

@test "golden, history: one boot per mode, judged by the box's A/A history" {
	golden history --history "$hist" "$abca/pt3" "$abca/translated3" "$abca/off3" "$abca/pt4"
	grep -q 'history t, df 4' "$expected/golden-history.txt"
	grep -q '^translated vs pt: no difference shown; ' "$expected/golden-history.txt"
}

@test "a wild rep (plain numbers, one rep 35 % slow) is named in txt, md and mail, listed in report.json, drawn as such in html" {
	w="$BATS_TEST_TMPDIR/w"
	mkdir -p "$w/a" "$w/b" "$w/a2" "$w/b2"
	printf '100\n101\n99\n100\n100.5\n' > "$w/a/x.txt"
	printf '100.2\n100.8\n99.5\n65\n100.1\n' > "$w/b/x.txt"
	printf '100.3\n100.9\n99.4\n100.2\n100\n' > "$w/a2/x.txt"
	printf '100\n101.1\n99.2\n100.4\n100\n' > "$w/b2/x.txt"
	run -0 --separate-stderr "$BOOTAB" compare --color never "$w/a" "$w/b" "$w/a2" "$w/b2"
	[[ "$output" == *"  b      93.12 ± 15.73  16.9%   5   -7.0%   +0.1% 116.3  loud: not judged
      sign agrees in 2 of 2 pairs; wild rep #4 (65.00): left out of the boot mean"* ]]
	# The answer stands on the boot means without it: no claim of the -7 % the mean shows.
	[ "${lines[0]}" = "b vs a: no difference shown; 2 boots per mode would detect 2 %" ]
	run -0 --separate-stderr "$BOOTAB" compare --format md "$w/a" "$w/b" "$w/a2" "$w/b2"
	[[ "$output" == *"| loud: not judged; sign agrees in 2 of 2 pairs; wild rep #4 (65.00): left out of the boot mean |"* ]]
	run -0 --separate-stderr "$BOOTAB" compare --format mail "$w/a" "$w/b" "$w/a2" "$w/b2"
	[[ "$output" == *"
  b: wild rep #4 (65.00): left out of the boot mean
"* ]]
	# The mail's noise is the screen's bar: the larger spread of the two sides (b's 16.9 %).
	[[ "$output" == *"or the spread of either side"* ]]
	[[ "$output" == *" 16.89  loud"* ]]
	"$BOOTAB" compare --format json "$w/a" "$w/b" "$w/a2" "$w/b2" > "$BATS_TEST_TMPDIR/w.json" 2>/dev/null
	[ "$(jq -c '[.comparisons[] | select(.wild) | {side, wild}]' "$BATS_TEST_TMPDIR/w.json")" = '[{"side":"b","wild":[3]}]' ]
	/usr/bin/python3 "$BATS_TEST_DIRNAME/helpers/report-schema.py" "$BATS_TEST_DIRNAME/../../docs/report.schema.json" \
		"$BATS_TEST_TMPDIR/w.json"
	run -0 --separate-stderr "$BOOTAB" compare --format html "$w/a" "$w/b" "$w/a2" "$w/b2"
	[ "$(grep -o '<circle class="rep wild" data-side="b"' <<<"$output" | wc -l)" -eq 1 ]
	[[ "$output" == *"<title>b rep 4: 65.00 (wild: left out of the boot mean)</title>"* ]]
}

@test "one delta per mode: the hyperfine campaign's claim reads the same in headline, txt, md, html, csv, json and mail" {
	set -- "$hf/a" "$hf/b" "$hf/a2" "$hf/b2" "$hf/a3" "$hf/b3"
	"$BOOTAB" compare --format json "$@" > "$BATS_TEST_TMPDIR/a.json" 2>/dev/null
	# The answer of b: a time about 4x longer, told as a factor with its CI (1 - pct/100 for a time).
	a=$(jq -c '[.answers[] | select(.mode == "b")] | .[0]' "$BATS_TEST_TMPDIR/a.json")
	[ "$(jq -r '.answer + " " + .shown_as' <<<"$a")" = "claim factor" ]
	effect=$(jq -r '"\(.factor * 10 | round / 10)x slower"' <<<"$a")
	ci=$(jq -r '"\(1 - .ci_hi_pct / 100 | . * 10 | round / 10)x, \(1 - .ci_lo_pct / 100 | . * 10 | round / 10)x"' <<<"$a")
	pct=$(jq -r '"\(.delta_pct * 100 | round / 100)"' <<<"$a")
	[[ "$effect" == [0-9]*.[0-9]x\ slower && "$ci" == [0-9]*.[0-9]x,\ [0-9]*.[0-9]x ]]
	run -0 --separate-stderr "$BOOTAB" compare --color never "$@"
	[ "${lines[0]}" = "b vs a: sleep sleep $effect [$ci] (boot t, 3 + 3 boots)" ]
	[[ "$output" == *"  b       3/3  $effect  ${ci/, / to }  "* ]]
	run -0 --separate-stderr "$BOOTAB" compare --format md "$@"
	[[ "$output" == *"| b | 3/3 | $effect | ${ci/, / to } |"* ]]
	run -0 --separate-stderr "$BOOTAB" compare --format html "$@"
	[[ "$output" == *"$effect [$ci]"* ]]
	run -0 --separate-stderr "$BOOTAB" compare --format csv "$@"
	[ "$(awk -F, '$3 == "b" { printf "%.2f %s\n", $27, $35 }' <<<"$output")" = "$pct claim" ]
	# The mail keeps the list's + is better percentages: the same delta.
	run -0 --separate-stderr "$BOOTAB" compare --format mail "$@"
	[[ "$output" == *"sleep sleep (s)             $pct  "* ]]
}

@test "golden reports of the fixture campaigns in every format, and the html of the three goldens above, whole" {
	out="$BATS_TEST_TMPDIR/goldens"
	mkdir "$out"
	run -0 sh "$expected/make-report-goldens.sh" "$BOOTAB" "$out"
	[ "$(cd "$out" && echo *)" = "golden-history.html golden-hyperfine.html golden-screen.html$(for c in abca lab; do
		for f in csv html json mail md txt; do printf ' report-%s.%s' "$c" "$f"; done; done)" ]
	for f in "$out"/*; do
		diff -u "$expected/${f##*/}" "$f" || return 1
	done
	# What the goldens must say, whatever else moves: each campaign's answer.
	grep -q '^- \*\*passthrough vs translated:\*\* not tested (one boot per mode' "$expected/report-lab.md"
	grep -q '^- \*\*off vs pt:\*\* prefill pp512 +3.8 % \[+2.3, +5.3\] faster (boot t, 3 + 4 boots)$' "$expected/report-abca.md"
	grep -q '^campaign DIR/campaign-abca: 10 of 10 boots recorded$' "$expected/report-abca.md"
	grep -q 'off vs pt:.*prefill pp512 +3.8 % \[+2.3, +5.3\] faster' "$expected/report-abca.html"
	# Nothing of the machine that wrote them.
	run grep -l -e /tmp/ -e "$HOME" "$expected"/report-*.* "$expected"/*.html
	[ "$status" -eq 1 ]
}
