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
# (tests/cli/expected/golden-*).
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
