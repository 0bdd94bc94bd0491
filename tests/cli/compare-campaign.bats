#!/usr/bin/env bats
# bootab compare on a campaign with several boots per mode (three rounds of
# pt translated off, then pt: tests/fixtures/campaign-abca, made by its
# generate.sh): the boot-level verdict, its CI, sigma_b, sigma_w and the boots
# an effect needs; calibration histories; options.
bats_require_minimum_version 1.5.0

setup() {
	c="$BATS_TEST_DIRNAME/../fixtures/campaign-abca"
	all="$c/pt $c/translated $c/off $c/pt2 $c/translated2 $c/off2 $c/pt3 $c/translated3 $c/off3 $c/pt4"
	# Never the user's own history.
	export XDG_DATA_HOME="$BATS_TEST_TMPDIR/data"
	h="$BATS_TEST_TMPDIR/history.json"
}

# field ROW SIDE COLUMN: one column of compare's CSV
field() {
	awk -F, -v r="$1" -v s="$2" -v c="$3" '
		NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
		$1 == r && $3 == s { print $(col[c]) }' "$BATS_TEST_TMPDIR/out.csv"
}

rounded() {
	field "$@" | awk '{ printf "%.1f\n", $1 }'
}

@test "three rounds: the whole text report" {
	# shellcheck disable=SC2086
	run "$BOOTAB" compare --color never $all
	[ "$status" -eq 0 ]
	diff -u "$BATS_TEST_DIRNAME/expected/campaign-abca.txt" <(printf '%s\n' "$output")
}

@test "three rounds: off counts at the boot level with its CI; translated does not" {
	# shellcheck disable=SC2086
	"$BOOTAB" compare --format csv $all > "$BATS_TEST_TMPDIR/out.csv"
	[ "$(field prefill off test_method)" = boot ]
	[ "$(field prefill off test_verdict)" = counts ]
	[ "$(field prefill off test_boots)" = 3 ]
	[ "$(field prefill off test_boots_first)" = 4 ]
	[ "$(rounded prefill off test_delta_pct)" = 3.8 ]
	[ "$(rounded prefill off ci_lo_pct)" = 2.3 ]
	[ "$(rounded prefill off ci_hi_pct)" = 5.3 ]
	# Welch's t on off's and pt's boots: its Welch-Satterthwaite degrees of freedom.
	[ "$(field prefill off test_df | cut -c1-4)" = 4.73 ]
	[ "$(rounded prefill off sigma_b_pct)" = 0.8 ]
	[ "$(rounded prefill off sigma_w_pct)" = 0.4 ]
	[ "$(field prefill off boots_needed)" = 3 ]
	[ "$(field prefill translated test_verdict)" = within-noise ]
	[ "$(field prefill translated boots_needed)" = 27 ]
	# Later sides of a mode carry no test of their own.
	[ "$(field prefill off2 test_method)" = "" ]
	# The seed rule is still there, with its p.
	[ "$(field prefill off screen_verdict)" = counts ]
	[ "$(field prefill off screen_p | cut -c1-5)" = 0.173 ]
}

@test "three rounds: json carries the tests, rounds from meta.json, and the FDR summary" {
	# shellcheck disable=SC2086
	run "$BOOTAB" compare --json $all
	[ "$status" -eq 0 ]
	[[ "$output" == *'"rounds_inferred": false'* ]]
	[[ "$output" == *'"method": "boot"'* ]]
	[[ "$output" == *'"survives_fdr": true'* ]]
	[[ "$output" == *'"paired": {'* ]]
	[[ "$output" == *'"test_summary": {
    "tests": 4,
    "claims": 1,
    "survive_fdr": 1,
    "unusual": 0,
    "history_drift": 0,
    "same": 0,
    "undecided": 0
  }'* ]]
}

@test "--alpha and --fdr change the level, the CI and the claims" {
	# shellcheck disable=SC2086
	run "$BOOTAB" compare --color never --alpha 0.01 --fdr 0.05 $all
	[ "$status" -eq 0 ]
	[[ "$output" == *"99% CI"* ]]
	[[ "$output" == *"boot level: 4 tests at alpha = 0.01, 1 claim; 1 survives Benjamini-Hochberg at q = 0.05"* ]]
	run "$BOOTAB" compare --alpha 0.7 $all
	[ "$status" -eq 2 ]
	[ "${lines[0]}" = "bootab: --alpha: '0.7' is not a level between 0 and 0.5; see 'bootab help compare'" ]
	run "$BOOTAB" compare --fdr x $all
	[ "$status" -eq 2 ]
}

@test "history: an A/A campaign recorded, then a one-repeat campaign tested against it" {
	run --separate-stderr "$BOOTAB" compare --history "$h" --record-history "$c/pt" "$c/pt2" "$c/pt3" "$c/pt4"
	[ "$status" -eq 0 ]
	[ "$stderr" = "bootab: recorded 4 boots of pt in $h (1 entries)" ]
	[[ "$output" == *"boot level: every side is pt (an A/A campaign): nothing to test;
  its boots measure the machine's noise floor"* ]]
	grep -q '"kind": "aa"' "$h"
	grep -q '"machine_id": "4c4c4544004a3610804bb7c04f395032"' "$h"
	# Recording the same boots again replaces the entry.
	"$BOOTAB" compare --history "$h" --record-history "$c/pt" "$c/pt2" "$c/pt3" "$c/pt4" > /dev/null 2>&1
	[ "$(grep -c '"key"' "$h")" = 1 ]
	# pt3 and pt4 are in that history: a campaign never calibrates against its own
	# boots, not even a subset of a recorded one (left out by boot_id).
	"$BOOTAB" compare --format csv --history "$h" "$c/pt3" "$c/translated3" "$c/off3" "$c/pt4" > "$BATS_TEST_TMPDIR/out.csv"
	[ "$(field prefill off3 test_method)" = none ]
	# A history of other boots (pt and pt2): one A/A pair, one degree of
	# freedom. The campaign's own A/A (pt3, pt4) varies about as much (0.99x
	# over both metrics), but a history this short cannot rule out a box 3x
	# noisier: the history tests are undecided, none decides on df 1.
	"$BOOTAB" compare --history "$h" --record-history "$c/pt" "$c/pt2" > /dev/null 2>&1
	"$BOOTAB" compare --format csv --history "$h" "$c/pt3" "$c/translated3" "$c/off3" "$c/pt4" > "$BATS_TEST_TMPDIR/out.csv"
	[ "$(field prefill off3 test_method)" = history ]
	[ "$(field prefill off3 test_verdict)" = undecided ]
	run "$BOOTAB" compare --color never --history "$h" "$c/pt3" "$c/translated3" "$c/off3" "$c/pt4"
	[[ "$output" == *"  history: 1 entries, 1 df, boot-to-boot sd 0.77%; this campaign's variance is 1.2x it (p 0.470)"* ]]
	[[ "$output" == *"  undecided: the history is too short to vouch for this box (1 df; drift 1.2% vs expected 1.1%);
    one more round would decide"* ]]
	# (the summary line wrapped to the report's width)
	[[ "$output" == *"history check: over 2 metrics the repeat boots vary 0.99x the history's (expected 1.80x on 1.0 df;"*"the history is too short to tell, the history"*"tests are undecided;"*"one more round, or more A/A history, would decide"* ]]
	# Not an equivalence question: no margin was asked for.
	[[ "$output" != *"equivalence:"* ]]
	# A noisier history (three A/A pairs 3 % apart in logs): the campaign's
	# variance is well inside it, and the history t judges, df = 3 + 1.
	printf '{"format": "bootab-history", "format_version": 1, "machine_id": "4c4c4544004a3610804bb7c04f395032", "entries": [' > "$h"
	for k in 1 2 3; do
		[ "$k" = 1 ] || printf ',' >> "$h"
		printf '{"key": "o%s", "recorded": "2025-02-0%sT10:00:00Z", "kind": "aa", "metrics": [{"row": "prefill", "metric": "pp512", "boots": [{"mean_log": 6.0, "n": 5, "ss_log": 1e-5}, {"mean_log": 6.03, "n": 5, "ss_log": 1e-5}]}]}' "$k" "$k" >> "$h"
	done
	printf ']}\n' >> "$h"
	"$BOOTAB" compare --format csv --history "$h" "$c/pt3" "$c/translated3" "$c/off3" "$c/pt4" > "$BATS_TEST_TMPDIR/out.csv"
	[ "$(field prefill off3 test_method)" = history ]
	[ "$(field prefill off3 test_df)" = 4 ]
	[ "$(field prefill translated3 test_verdict)" = within-noise ]
	run "$BOOTAB" compare --color never --history "$h" "$c/pt3" "$c/translated3" "$c/off3" "$c/pt4"
	[[ "$output" == *"  history: 3 entries, 3 df, boot-to-boot sd 2.12%; this campaign's variance is 0.2x it (p 0.715)"* ]]
	[[ "$output" == *"history check: over 1 metric the repeat boots vary 0.16x the history's (expected 1.80x on 1.0 df;"*"the history judges"* ]]
	[[ "$output" != *"undecided"* ]]
}

@test "history: a claim on one boot of a mode says once what it assumes, and only such a claim" {
	# A history of eight A/A pairs of prefill 1.2 % apart in logs (sd 0.85 %),
	# written by hand in the format --record-history writes.
	printf '{"format": "bootab-history", "format_version": 1, "machine_id": "4c4c4544004a3610804bb7c04f395032", "entries": [' > "$h"
	for k in 1 2 3 4 5 6 7 8; do
		[ "$k" = 1 ] || printf ',' >> "$h"
		printf '{"key": "q%s", "recorded": "2025-03-0%sT10:00:00Z", "kind": "aa", "metrics": [{"row": "prefill", "metric": "pp512", "boots": [{"mean_log": 6.0, "n": 5, "ss_log": 1e-5}, {"mean_log": 6.012, "n": 5, "ss_log": 1e-5}]}]}' "$k" "$k" >> "$h"
	done
	printf ']}\n' >> "$h"
	# One boot per mode: the history t claims off's +4.5 % on one boot of off,
	# which has no variance of its own; the line says so, once, in every format.
	set -- "$c/pt3" "$c/translated3" "$c/off3"
	run -0 --separate-stderr "$BOOTAB" compare --format md --history "$h" "$@"
	[[ "$output" == *"
- **off vs pt:** prefill pp512 +4.5 % [+1.7, +7.5] faster (history t, 1 + 1 boots); this assumes off varies from boot to boot as pt does (one boot cannot show it); one more round, or rounds = auto with the history, tests off on its own boots; 1 metric not tested (one boot per mode: 2 boots per mode, or a history of this box, would test it)
"* ]]
	[ "$(grep -c 'this assumes' <<<"$output")" -eq 1 ]
	run -0 --separate-stderr "$BOOTAB" compare --color never --history "$h" "$@"
	[ "$(grep -c 'this assumes off varies from boot to boot as pt does' <<<"$output")" -eq 1 ]
	run -0 --separate-stderr "$BOOTAB" compare --format html --history "$h" "$@"
	[ "$(grep -c 'this assumes off varies from boot to boot as pt does' <<<"$output")" -eq 1 ]
	"$BOOTAB" compare --format json --history "$h" "$@" > "$BATS_TEST_TMPDIR/one.json" 2>/dev/null
	[ "$(jq -c '[.headline[] | [.mode, .assumes_same_noise, (.text | test("this assumes"))]]' "$BATS_TEST_TMPDIR/one.json")" = \
		'[["translated",false,false],["off",true,true]]' ]
	/usr/bin/python3 "$BATS_TEST_DIRNAME/helpers/report-schema.py" "$BATS_TEST_DIRNAME/../../docs/report.schema.json" \
		"$BATS_TEST_TMPDIR/one.json"
	# Not otherwise. A history claim on two boots of off (pooled with its own
	# variance); the same boots without a history (not tested); three rounds
	# with the history (the boot t claims).
	for args in "--history $h $c/pt3 $c/off3 $c/off" "--no-history $c/pt3 $c/translated3 $c/off3" \
		"--history $h $c/pt $c/translated $c/off $c/pt2 $c/translated2 $c/off2 $c/pt3 $c/translated3 $c/off3 $c/pt4"; do
		# shellcheck disable=SC2086
		"$BOOTAB" compare --format json $args > "$BATS_TEST_TMPDIR/not.json" 2>/dev/null
		[ "$(jq -c '[.headline[] | .assumes_same_noise, (.text | test("this assumes"))] | unique' \
			"$BATS_TEST_TMPDIR/not.json")" = '[false]' ]
	done
	[ "$(jq -r '.headline[0].text' "$BATS_TEST_TMPDIR/not.json")" = "translated vs pt: no difference shown; 4 boots per mode would detect 2 %" ]
	"$BOOTAB" compare --format json --history "$h" "$c/pt3" "$c/off3" "$c/off" > "$BATS_TEST_TMPDIR/not.json" 2>/dev/null
	[[ "$(jq -r '.headline[0].text' "$BATS_TEST_TMPDIR/not.json")" == "off vs pt: prefill pp512 +4.4 % ["*"] faster (history t, 2 + 1 boots); 1 metric not tested"* ]]
}

@test "history: eight writers of one history at once each keep their entry" {
	# Eight campaigns of other boots (the pt boots by twos and threes), recorded at
	# once; each write is slowed (BOOTAB_TEST_WRITE_DELAY_US) so that they overlap.
	sets=("pt pt2" "pt pt3" "pt pt4" "pt2 pt3" "pt2 pt4" "pt3 pt4" "pt pt2 pt3" "pt pt2 pt4")
	pids=()
	for i in "${!sets[@]}"; do
		args=()
		for s in ${sets[$i]}; do args+=("$c/$s"); done
		BOOTAB_TEST_WRITE_DELAY_US=100000 "$BOOTAB" compare --history "$h" --record-history "${args[@]}" \
			>/dev/null 2>"$BATS_TEST_TMPDIR/err$i" &
		pids+=("$!")
	done
	for pid in "${pids[@]}"; do wait "$pid"; done
	[ "$(jq '.entries | length' "$h")" -eq 8 ]
	[ "$(jq -r '[.entries[].key] | sort | unique | length' "$h")" -eq 8 ]
	[ "$(cat "$BATS_TEST_TMPDIR"/err* | grep -c '^bootab: recorded ')" -eq 8 ]
	# The lock beside the history is empty and stays.
	[ -f "$BATS_TEST_TMPDIR/.history.json.lock" ] && [ ! -s "$BATS_TEST_TMPDIR/.history.json.lock" ]
}

@test "history: the default file of the machine, a directory, and --no-history" {
	mkdir -p "$XDG_DATA_HOME/bootab/history"
	"$BOOTAB" compare --history "$XDG_DATA_HOME/bootab/history" --record-history \
		"$c/pt" "$c/pt2" > /dev/null 2>&1
	[ -f "$XDG_DATA_HOME/bootab/history/4c4c4544004a3610804bb7c04f395032.json" ]
	# Read by default: its one A/A pair is too short to vouch for this
	# box, so the history test is undecided; without it, nothing is tested.
	"$BOOTAB" compare --format csv "$c/pt3" "$c/off3" "$c/pt4" > "$BATS_TEST_TMPDIR/out.csv"
	[ "$(field prefill off3 test_method)" = history ]
	[ "$(field prefill off3 test_verdict)" = undecided ]
	"$BOOTAB" compare --format csv --no-history "$c/pt3" "$c/off3" "$c/pt4" > "$BATS_TEST_TMPDIR/out.csv"
	[ "$(field prefill off3 test_method)" = none ]
}

@test "history: bad files and impossible requests are one-line errors" {
	printf '{"format": "bootab-history",\n "entries": [}\n' > "$h"
	run "$BOOTAB" compare --history "$h" "$c/pt" "$c/off" "$c/pt2"
	[ "$status" -eq 2 ]
	[ "${lines[0]}" = "bootab: $h:2:14: unexpected token near '}'" ]
	printf '{"format": "bootab-history", "format_version": 1, "machine_id": "00ff", "entries": []}\n' > "$h"
	run "$BOOTAB" compare --history "$h" "$c/pt" "$c/off" "$c/pt2"
	[ "$status" -eq 2 ]
	[ "${lines[0]}" = "bootab: $h is the history of machine 00ff, but the sides ran on 4c4c4544004a3610804bb7c04f395032" ]
	run "$BOOTAB" compare --no-history --record-history "$c/pt" "$c/pt2"
	[ "$status" -eq 2 ]
	[ "${lines[0]}" = "bootab: --no-history cannot go with --history or --record-history; see 'bootab help compare'" ]
	# Plain directories do not say which machine they ran on.
	mkdir -p "$BATS_TEST_TMPDIR/a" "$BATS_TEST_TMPDIR/a2"
	printf '1\n2\n' > "$BATS_TEST_TMPDIR/a/x.txt"
	printf '1\n2\n' > "$BATS_TEST_TMPDIR/a2/x.txt"
	run "$BOOTAB" compare --record-history "$BATS_TEST_TMPDIR/a" "$BATS_TEST_TMPDIR/a2"
	[ "$status" -eq 2 ]
	[ "${lines[0]}" = "bootab: --record-history: the sides do not name their machine (meta.json machine_id); give --history FILE" ]
	run "$BOOTAB" compare --history "$BATS_TEST_TMPDIR" "$BATS_TEST_TMPDIR/a" "$BATS_TEST_TMPDIR/a2"
	[ "$status" -eq 2 ]
	[ "${lines[0]}" = "bootab: --history $BATS_TEST_TMPDIR: a directory needs the sides' machine_id (meta.json); name a file instead" ]
}

# A one-round campaign directory from the fixture's third round (pt translated off pt2).
one_round_campaign() { # DIR [PLAN LINE]
	mkdir -p "$1"
	{ grep -v '^rounds' "$c/plan.ini" | sed '/^\[campaign\]$/q'; [ -n "${2-}" ] && echo "$2"
	  grep -v '^rounds' "$c/plan.ini" | sed '1,/^\[campaign\]$/d'; } >"$1/plan.ini"
	cp -r "$c/pt3" "$1/pt"
	cp -r "$c/translated3" "$1/translated"
	cp -r "$c/off3" "$1/off"
	cp -r "$c/pt4" "$1/pt2"
}

@test "bootab report: a one-repeat campaign judged with the machine's history; report records nothing" {
	d="$BATS_TEST_TMPDIR/campaign"
	one_round_campaign "$d"
	mf="$XDG_DATA_HOME/bootab/history/4c4c4544004a3610804bb7c04f395032.json"
	# No history yet: nothing tested at the boot level, and none is made.
	run -0 "$BOOTAB" report "$d"
	[[ "$output" == *"boot level: nothing tested: a mode has one boot and there is no history"* ]]
	[ ! -e "$XDG_DATA_HOME/bootab" ]
	# The machine's history, from other boots of it (the first round's pt and its repeat).
	"$BOOTAB" compare --record-history "$c/pt" "$c/translated" "$c/off" "$c/pt2" >/dev/null 2>&1
	[ -f "$mf" ]
	sum=$(sha256sum <"$mf")
	run -0 "$BOOTAB" report "$d"
	# One A/A pair of history (1 df) cannot vouch for the box: the history
	# tests are undecided (1.2x and 0.8x its variance).
	[[ "$output" == *"  history: 1 entries, 1 df, boot-to-boot sd 0.77%; this campaign's variance is 1.2x it (p 0.470)"* ]]
	[[ "$output" == *"  off           1/2  +3.9%  -0.4 to +8.5%  0.061  history t, df 2  undecided"* ]]
	[[ "$output" == *"boot level: 4 tests at alpha = 0.05, 0 claims"* ]]
	[[ "$output" == *"history check: over 2 metrics"* ]]
	[ "$(grep -c '"drift": true' "$d/report.json")" -eq 2 ]
	# bootab report recorded nothing: recording is bootab run's, once.
	[ "$(sha256sum <"$mf")" = "$sum" ]
	[ "$(ls "$XDG_DATA_HOME/bootab/history")" = 4c4c4544004a3610804bb7c04f395032.json ]
}

@test "bootab report: [campaign] history = off uses none, history = FILE that one, a bad one is a warning" {
	"$BOOTAB" compare --history "$h" --record-history "$c/pt" "$c/translated" "$c/off" "$c/pt2" >/dev/null 2>&1
	one_round_campaign "$BATS_TEST_TMPDIR/file" "history = $h"
	run -0 "$BOOTAB" report "$BATS_TEST_TMPDIR/file"
	[ "$(grep -c '"history": {' "$BATS_TEST_TMPDIR/file/report.json")" -eq 2 ]
	# The same history as the machine's default: off leaves it unread.
	mkdir -p "$XDG_DATA_HOME/bootab/history"
	cp "$h" "$XDG_DATA_HOME/bootab/history/4c4c4544004a3610804bb7c04f395032.json"
	one_round_campaign "$BATS_TEST_TMPDIR/off" "history = off"
	run -0 "$BOOTAB" report "$BATS_TEST_TMPDIR/off"
	[ "$(grep -c '"history": {' "$BATS_TEST_TMPDIR/off/report.json")" -eq 0 ]
	[[ "$output" == *"boot level: nothing tested"* ]]
	# A history file that does not parse: the report is written without it.
	printf '{"format": "bootab-history",\n "entries": [}\n' >"$BATS_TEST_TMPDIR/bad.json"
	one_round_campaign "$BATS_TEST_TMPDIR/bad" "history = $BATS_TEST_TMPDIR/bad.json"
	run -0 --separate-stderr "$BOOTAB" report "$BATS_TEST_TMPDIR/bad"
	[[ "$stderr" == *"bootab: warning: $BATS_TEST_TMPDIR/bad/plan.ini: [campaign] history $BATS_TEST_TMPDIR/bad.json: $BATS_TEST_TMPDIR/bad.json:2:"*", ignoring the history"* ]]
	[ "$(grep -c '"history": {' "$BATS_TEST_TMPDIR/bad/report.json")" -eq 0 ]
}

@test "equivalence: --equivalence, per row, and the plan's keys in bootab report" {
	# shellcheck disable=SC2086
	run -0 "$BOOTAB" compare --color never --equivalence 1% $all
	# off: its 90% CI lies inside -/+ 1 % on latency, and it counts on prefill.
	[[ "$output" == *"  off            3/4  +0.3%  -0.3 to +1.0%  0.215  boot t, df 5  same within ±1%
      90% CI -0.1 to +0.8%
"* ]]
	[[ "$output" == *"  translated     3/4  -0.6%  -2.5 to +1.3%  0.402  boot t, df 4  undecided
      90% CI -2.1 to +0.8%; about 27 boots per mode would decide it
"* ]]
	[[ "$output" == *"  off            3/4  +3.8%  +2.3 to +5.3%  0.002  boot t, df 5  counts
      90% CI +2.6 to +5.0%; survives FDR"* ]]
	[[ "$output" == *"equivalence: 1 the same within their margin, 2 undecided"* ]]
	# shellcheck disable=SC2086
	run -0 --separate-stderr "$BOOTAB" compare --legend --color never --equivalence 1% $all
	[[ "$output" == *"same within ±M%: a row's equivalence margin M; two one-sided tests at alpha 0.05, that is"* ]]
	# A row's own margin; the others have none.
	# shellcheck disable=SC2086
	"$BOOTAB" compare --format csv --equivalence latency=0.5% $all > "$BATS_TEST_TMPDIR/out.csv"
	[ "$(field latency translated test_verdict)" = undecided ]
	[ "$(field latency translated margin_pct)" = 0.5 ]
	[ -n "$(field latency translated boots_to_decide)" ]
	[ "$(field prefill translated test_verdict)" = within-noise ]
	[ -z "$(field prefill translated margin_pct)" ]
	# shellcheck disable=SC2086
	run -0 "$BOOTAB" compare --json --equivalence 1 $all
	[[ "$output" == *'"equivalence": {
            "margin_pct": 1.0,
            "level": 0.9,'* ]]
	# shellcheck disable=SC2086
	run -2 "$BOOTAB" compare --equivalence 0 $all
	[ "${lines[0]}" = "bootab: --equivalence: '0' is not a margin in % above 0 and at most 50 (or ROW=PCT); see 'bootab help compare'" ]
	# shellcheck disable=SC2086
	run -2 "$BOOTAB" compare --equivalence =2 $all
	# The plan: equivalence in [campaign], and a row's own.
	d="$BATS_TEST_TMPDIR/campaign"
	cp -r "$c" "$d"
	sed -i 's/^reps = 5$/reps = 5\nequivalence = 1%/; s/^reps = 3$/reps = 3\nequivalence = 0.5/' "$d/plan.ini"
	run -0 "$BOOTAB" report "$d"
	[[ "$output" == *"equivalence: 0 the same within their margin, 3 undecided"* ]]
	[ "$(jq '[.boot_level[].tests[].equivalence.margin_pct | select(. == 1)] | length' "$d/report.json")" -eq 2 ]
	[ "$(jq '[.boot_level[].tests[].equivalence.margin_pct | select(. == 0.5)] | length' "$d/report.json")" -eq 2 ]
	# The headline says the same: neither a difference nor the same, within the wider margin.
	[ "$(jq -r '.headline[0].null, .headline[0].margin_pct' "$d/report.json")" = "undecided
1" ]
}

@test "three rounds: the headline, whole: the boot t's claim with its CI, the null with the boots that would detect 2 %" {
	# shellcheck disable=SC2086
	run -0 "$BOOTAB" compare --color never $all
	diff -u - <(printf '%s\n' "$output" | sed '/^$/,$d') <<-'EOT'
	translated vs pt: no difference shown; 4 boots per mode would detect 2 %
	off vs pt: prefill pp512 +3.8 % [+2.3, +5.3] faster (boot t, 3 + 4 boots)
	EOT
}
