#!/usr/bin/env bats
# bootab compare reaches, on the case study's tables rebuilt as llama-bench
# JSONL side directories (examples/case-study), each verdict its author reached.

setup() {
	ex="$BATS_TEST_DIRNAME/../../examples/case-study"
	r2="$ex/round2"
	r1="$ex/round1"
}

# field ROW METRIC SIDE COLUMN: one column of compare's CSV
field() {
	awk -F, -v r="$1" -v m="$2" -v s="$3" -v c="$4" '
		NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
		$1 == r && $2 == m && $3 == s { print $(col[c]) }' "$BATS_TEST_TMPDIR/out.csv"
}

# rounded ROW METRIC SIDE COLUMN: the column rounded to one decimal
rounded() {
	field "$@" | awk '{ printf "%.1f\n", $1 }'
}

round2() {
	"$BOOTAB" compare --format csv --by-run strata-prefill --by-run strata-decode \
		"$r2/pt" "$r2/translated" "$r2/off" "$r2/pt2" > "$BATS_TEST_TMPDIR/out.csv"
}

@test "round two: amd_iommu=off counts on gpt-oss ROCm and Flash-Next 64k prefill" {
	round2
	[ "$(field gptoss-rocm 'pp512 @ d65536' off screen_verdict)" = counts ]
	[ "$(rounded gptoss-rocm 'pp512 @ d65536' off delta_pct)" = 4.2 ]
	[ "$(rounded gptoss-rocm 'pp512 @ d65536' off drift_pct)" = 0.2 ]
	[ "$(field fn-vk 'pp512 @ d65536' off screen_verdict)" = counts ]
	[ "$(rounded fn-vk 'pp512 @ d65536' off delta_pct)" = 2.6 ]
}

@test "round two: gpt-oss ROCm decode +0.6 % counts" {
	round2
	[ "$(field gptoss-rocm 'tg128 @ d65536' off screen_verdict)" = counts ]
}

@test "round two: Flash-Next decode is not twice its drift" {
	round2
	[ "$(field fn-vk 'tg128 @ d32768' off screen_verdict)" = within-noise ]
	[ "$(field fn-vk 'tg128 @ d65536' off screen_verdict)" = within-noise ]
}

@test "round two: translated vs pt claims nothing; Vulkan 32k moved less than its drift" {
	round2
	[ "$(field gptoss-rocm 'pp512 @ d65536' translated screen_verdict)" = within-noise ]
	[ "$(field fn-vk 'pp512 @ d65536' translated screen_verdict)" = within-noise ]
	[ "$(field gptoss-vk 'pp512 @ d32768' translated screen_verdict)" = within-noise ]
	[ "$(rounded gptoss-vk 'pp512 @ d32768' translated drift_pct)" = -2.8 ]
}

@test "round two: gpt-oss Vulkan 64k is too loud to judge" {
	round2
	[ "$(field gptoss-vk 'pp512 @ d65536' off screen_verdict)" = loud ]
	[ "$(field gptoss-vk 'pp512 @ d65536' translated screen_verdict)" = loud ]
}

@test "round two: Strata run by run counts for off, +4.6 to +5.0 % against -1.0 to -0.7 %" {
	round2
	[ "$(field strata-prefill value off screen_verdict)" = counts ]
	[ "$(rounded strata-prefill value off delta_lo_pct)" = 4.6 ]
	[ "$(rounded strata-prefill value off delta_hi_pct)" = 5.0 ]
	[ "$(rounded strata-prefill value off drift_lo_pct)" = -1.0 ]
	[ "$(rounded strata-prefill value off drift_hi_pct)" = -0.7 ]
	[ "$(field strata-decode value off screen_verdict)" = counts ]
	[ "$(field strata-prefill value translated screen_verdict)" = within-noise ]
}

@test "round two: without --by-run Strata's cold first run makes it loud" {
	"$BOOTAB" compare --format csv "$r2/pt" "$r2/translated" "$r2/off" "$r2/pt2" > "$BATS_TEST_TMPDIR/out.csv"
	[ "$(field strata-prefill value off screen_verdict)" = loud ]
}

@test "round two: the NPU check's failure is printed as the cost of off" {
	run "$BOOTAB" compare "$r2/pt" "$r2/translated" "$r2/off" "$r2/pt2"
	[ "$status" -eq 0 ]
	[[ "$output" == *"off         mode off            cost: npu-validate failed, rc=1"* ]]
}

@test "round one: +14.7 % against a 6.2 % drift is not claimed; 32k's sign agrees in both pairs" {
	"$BOOTAB" compare --format csv "$r1/off" "$r1/on" "$r1/off2" "$r1/on2" > "$BATS_TEST_TMPDIR/out.csv"
	[ "$(rounded gptoss-vk 'pp512 @ d65536' on delta_pct)" = 14.7 ]
	[ "$(rounded gptoss-vk 'pp512 @ d65536' on drift_pct)" = 6.2 ]
	[ "$(field gptoss-vk 'pp512 @ d65536' on screen_verdict)" = loud ]
	[ "$(field gptoss-vk 'pp512 @ d65536' on screen_p | cut -c1-5)" = 0.222 ]
	[ "$(field gptoss-vk 'pp512 @ d32768' on screen_verdict)" = within-noise ]
	run "$BOOTAB" compare "$r1/off" "$r1/on" "$r1/off2" "$r1/on2"
	[[ "$output" == *"sign agrees in 2 of 2 pairs"* ]]
}

@test "round two: the whole text report" {
	run "$BOOTAB" compare --color never --by-run strata-prefill --by-run strata-decode \
		"$r2/pt" "$r2/translated" "$r2/off" "$r2/pt2"
	[ "$status" -eq 0 ]
	diff -u "$BATS_TEST_DIRNAME/expected/case-study-round2.txt" <(printf '%s\n' "$output")
}

@test "round two: the headline, whole, in txt and md, and in report.json" {
	run "$BOOTAB" compare --color never --by-run strata-prefill --by-run strata-decode \
		"$r2/pt" "$r2/translated" "$r2/off" "$r2/pt2"
	[ "$status" -eq 0 ]
	# The headline is everything before the first blank line.
	diff -u "$BATS_TEST_DIRNAME/expected/headline-case-study.txt" <(printf '%s\n' "$output" | sed '/^$/,$d')
	run "$BOOTAB" compare --format md --by-run strata-prefill --by-run strata-decode \
		"$r2/pt" "$r2/translated" "$r2/off" "$r2/pt2"
	diff -u "$BATS_TEST_DIRNAME/expected/headline-case-study.md" <(printf '%s\n' "$output" | sed '/^$/,$d')
	run "$BOOTAB" compare --json --by-run strata-prefill --by-run strata-decode \
		"$r2/pt" "$r2/translated" "$r2/off" "$r2/pt2"
	[ "$(jq -r '.headline[] | .mode + " " + .null + " " + ([.items[].kind] | join(","))' <<<"$output")" = \
		"translated not-tested 
off not-tested cost" ]
	# One boot per mode: no answer is a claim, whatever the screen column says of off.
	[ "$(jq -r '[.answers[] | .answer] | unique | join(" ")' <<<"$output")" = not-tested ]
	[ "$(jq -r '[.answers[] | select(.one_boot)] | length' <<<"$output")" = "$(jq -r '.answers | length' <<<"$output")" ]
	[ "$(jq -c '.answer_summary' <<<"$output")" = '{"claims":0,"not_after_fdr":0,"same":0,"undecided":0,"not_shown":0,"not_tested":18}' ]
	# The one delta of off on gptoss-rocm pp512: json's answer is the boot-level table's, in txt and md.
	delta=$(jq -r '.answers[] | select(.mode == "off" and .row == "gptoss-rocm" and .metric == "pp512 @ d65536")
		| "\(.delta_pct * 10 | round / 10)"' <<<"$output")
	[ "$delta" = 4.1 ]
	grep -q '^  off           1/2  +4.1%             -     not tested$' \
		"$BATS_TEST_DIRNAME/expected/case-study-round2.txt"
	run "$BOOTAB" compare --format md --by-run strata-prefill --by-run strata-decode \
		"$r2/pt" "$r2/translated" "$r2/off" "$r2/pt2"
	[[ "$output" == *"| gptoss-rocm | pp512 @ d65536 | 0.00% | 1.20% | 0.00 | off | 1/2 | +4.1% |  |  | - | not tested |"* ]]
	run "$BOOTAB" compare --json --by-run strata-prefill --by-run strata-decode \
		"$r2/pt" "$r2/translated" "$r2/off" "$r2/pt2"
	for m in "gptoss-rocm|pp512 @ d65536" "fn-vk|pp512 @ d65536" "gptoss-rocm|tg128 @ d65536" "strata-prefill|value"; do
		[ "$(jq -r --arg r "${m%%|*}" --arg m "${m#*|}" \
			'.comparisons[] | select(.row == $r and .metric == $m and .side == "off") | .screen_verdict' <<<"$output")" = counts ]
	done
}
