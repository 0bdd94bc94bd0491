#!/usr/bin/env bats
# bench/method on a few null cells (no true effect), through compare_sides():
# the boot-level test claims falsely about 5 % of the time and the history
# t about as often, at most 10 % when the box got noisier than its history
# (then it is undecided); the seed rule about a quarter of the time with one repeat boot
# when boot noise dominates, and the naive pair far more. Seeds are fixed per cell.

# rate METHOD: the claim rate of METHOD in the last run's CSV
rate() {
	awk -F, -v m="$1" '$7 == m { print $9 }' "$BATS_TEST_TMPDIR/out.csv"
}

between() {
	awk -v x="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(x >= lo && x <= hi) }'
}

@test "one boot per mode, boot noise dominating: history about 5 %, seed rule ~26 %, naive pair worse" {
	"$METHOD_BENCH" --cell 3,0.5,5,1,0 --null-draws 4096 > "$BATS_TEST_TMPDIR/out.csv"
	[ "$(head -1 "$BATS_TEST_TMPDIR/out.csv")" = "stress,sigma_b_pct,sigma_w_pct,reps,boots,delta_pct,method,draws,claim_rate,mc_se,power,wrong_sign,exaggeration,ci_coverage" ]
	[ "$(awk -F, 'NR > 1 { print $7 }' "$BATS_TEST_TMPDIR/out.csv" | tr '\n' ' ')" = "naive seed history equiv answer history-unchecked noisier wild headline headline-report " ]
	# The box is checked against its history over the campaign's 16 metrics:
	# on a box that did not change it is rarely called noisier (256 campaigns).
	between "$(rate history)" 0.02 0.07
	between "$(rate noisier)" 0 0.10
	between "$(rate seed)" 0.20 0.32
	between "$(rate naive)" 0.5 1
}

@test "a box 2x and 3x noisier than its history: at most 10 % false claims; unchecked, far more" {
	for s in history-2x-quieter history-3x-quieter; do
		"$METHOD_BENCH" --stress "$s" --cell 3,0.5,5,1,0 --null-draws 4096 > "$BATS_TEST_TMPDIR/out.csv"
		[ "$(awk -F, '$7 == "history" { print $1 }' "$BATS_TEST_TMPDIR/out.csv")" = "$s" ]
		between "$(rate history)" 0 0.10
		between "$(rate noisier)" 0.8 1
		between "$(rate history-unchecked)" 0.2 1
	done
}

@test "a 3 sigma_b effect with a history of 10 A/A pairs: the check costs the history t little power" {
	"$METHOD_BENCH" --cell 3,0.5,5,1,9 --draws 4096 > "$BATS_TEST_TMPDIR/out.csv"
	between "$(rate history)" 0.5 0.65
	between "$(awk -v a="$(rate history)" -v b="$(rate history-unchecked)" 'BEGIN { print b - a }')" 0 0.03
	# The unchecked history t is the bound of any test on 11 df (method --bound), within its Monte-Carlo error.
	b=$("$METHOD_BENCH" --bound --cell 3,0.5,5,1,9 | awk -F, '$5 == 11 { print $7 }')
	between "$(rate history-unchecked)" "$(awk -v b="$b" 'BEGIN { print b - 0.025 }')" "$(awk -v b="$b" 'BEGIN { print b + 0.025 }')"
}

@test "a history of 10 A/A pairs: no test reaches 60 % at 3 sigma_b; the history t measures at its bound" {
	"$METHOD_BENCH" --bound --cell 3,0.5,5,1,9 > "$BATS_TEST_TMPDIR/bound.csv"
	bound() { awk -F, -v df="$1" '$5 == df { print $7 }' "$BATS_TEST_TMPDIR/bound.csv"; }
	# The history t's 11 df (10 pairs and the campaign's A vs A2): below 60 %, and so is 10.
	between "$(bound 11)" 0.55 0.59
	between "$(bound 10)" 0.54 "$(bound 11)"
	# A variance known exactly would give 1.96 - d; 60 % needs 19 df.
	between "$(bound inf)" 0.64 0.655
	[ "$(awk -F, '/fewest df/ { print $5 }' "$BATS_TEST_TMPDIR/bound.csv")" = 19 ]
}

@test "three boots per mode: the boot-level test claims falsely about 5 %" {
	"$METHOD_BENCH" --cell 2,1,3,3,0 --null-draws 3072 > "$BATS_TEST_TMPDIR/out.csv"
	between "$(rate boot)" 0.035 0.065
	# Its 95 % CI covers the truth about 95 % of the time.
	between "$(awk -F, '$7 == "boot" { print $14 }' "$BATS_TEST_TMPDIR/out.csv")" 0.935 0.965
}

@test "an effect of 8 % with 4 boots per mode is found, with the right sign" {
	"$METHOD_BENCH" --cell 2,1,5,4,8 --draws 2048 > "$BATS_TEST_TMPDIR/out.csv"
	between "$(awk -F, '$7 == "boot" { print $11 }' "$BATS_TEST_TMPDIR/out.csv")" 0.8 1
	[ "$(awk -F, '$7 == "boot" { print $12 }' "$BATS_TEST_TMPDIR/out.csv")" = 0.0000 ]
}

@test "rounds = auto, no effect, at most 4 rounds: the boundary keeps false claims near 5 %; peeking at 0.05 does not" {
	"$METHOD_BENCH" --sequential --cell 2,2,5,4,0 --null-draws 4096 > "$BATS_TEST_TMPDIR/out.csv"
	[ "$(head -1 "$BATS_TEST_TMPDIR/out.csv")" = "stress,sigma_b_pct,sigma_w_pct,reps,max_rounds,delta_pct,method,draws,claim_rate,mc_se,mean_rounds,fixed_rounds,fixed_power_at_max,ci_coverage" ]
	[ "$(awk -F, 'NR > 1 { print $7 }' "$BATS_TEST_TMPDIR/out.csv" | tr '\n' ' ')" = "seq seq-equiv peek " ]
	between "$(rate seq)" 0.035 0.07
	between "$(rate peek)" 0.09 0.15
}

@test "rounds = auto with a 3 % effect: found as often as by 6 fixed rounds, in fewer rounds" {
	"$METHOD_BENCH" --sequential --cell 1,1,5,6,3 --draws 2048 > "$BATS_TEST_TMPDIR/out.csv"
	between "$(rate seq)" 0.95 1
	line=$(awk -F, '$7 == "seq"' "$BATS_TEST_TMPDIR/out.csv")
	rounds=$(echo "$line" | cut -d, -f11)
	fixed=$(echo "$line" | cut -d, -f12)
	between "$rounds" 2 "$(awk -v f="$fixed" 'BEGIN { print f - 1 }')"
}

@test "the tested mode 3x noisier than the first: each comparison with its two modes' variance holds alpha" {
	# With the variance pooled over every mode this cell claimed falsely 9.4 % with a CI covering 90.6 %.
	"$METHOD_BENCH" --stress tested-3x-noisier --cell 1,0.5,5,4,0 --null-draws 4096 > "$BATS_TEST_TMPDIR/out.csv"
	between "$(rate answer)" 0.035 0.07
	between "$(awk -F, '$7 == "answer" { print $14 }' "$BATS_TEST_TMPDIR/out.csv")" 0.93 0.97
}

@test "the tested mode 3x noisier, one boot per mode: rounds = auto with the history claims after a second boot, near alpha" {
	# One fixed round with the history claims falsely 39.1 % here (bench/method/history-check.csv).
	"$METHOD_BENCH" --sequential --history --stress tested-3x-noisier --cell 3,0.5,5,6,0 --null-draws 1024 > "$BATS_TEST_TMPDIR/out.csv"
	[ "$(awk -F, 'NR == 2 { print $1 }' "$BATS_TEST_TMPDIR/out.csv")" = tested-3x-noisier ]
	between "$(rate seq-history)" 0.03 0.11
	between "$(rate peek-history)" 0.3 0.6
}

@test "a noisy third mode does not hide another mode's effect" {
	# Pooled over every mode, c's noise cost b's 5 % effect: 17.9 % power here; with a's and b's alone, 50.9 %.
	"$METHOD_BENCH" --stress third-mode-3x-noisier --cell 3,0.5,5,4,5 --draws 2048 > "$BATS_TEST_TMPDIR/out.csv"
	between "$(awk -F, '$7 == "answer" { print $11 }' "$BATS_TEST_TMPDIR/out.csv")" 0.4 0.65
}

@test "one rep 35 % slow: flagged, left out, no claim; no wild rep is flagged rarely" {
	# Before the flag, one boot per mode with a history claimed falsely 28-69 % here and the screen 55-100 %.
	"$METHOD_BENCH" --stress wild-rep --cell 1,0.5,5,1,0 --null-draws 2048 > "$BATS_TEST_TMPDIR/out.csv"
	between "$(rate wild)" 0.99 1
	between "$(rate answer)" 0.01 0.06
	[ "$(rate seed)" = 0.0000 ]
	"$METHOD_BENCH" --cell 1,0.5,5,2,0 --null-draws 4096 > "$BATS_TEST_TMPDIR/out.csv"
	between "$(rate wild)" 0 0.01
	# The one verdict holds alpha; a reader picking the smallest of its p and the paired p does not.
	between "$(rate answer)" 0.025 0.06
	between "$(rate minp)" 0.06 0.10
}

@test "rounds = auto with a history: round 1 is looked at too, false claims stay near 5 %" {
	"$METHOD_BENCH" --sequential --history --cell 3,0.5,5,3,0 --null-draws 2048 > "$BATS_TEST_TMPDIR/out.csv"
	[ "$(awk -F, 'NR > 1 { print $7 }' "$BATS_TEST_TMPDIR/out.csv" | tr '\n' ' ')" = "seq-history seq-equiv-history peek-history " ]
	between "$(rate seq-history)" 0.025 0.07
}

@test "what the headline claims, read through answer_of(): at most alpha per metric and per report of 16, each design" {
	# One boot per mode, no history: nothing is tested, so nothing is claimed.
	"$METHOD_BENCH" --stress no-history --cell 1,0.5,5,1,0 --null-draws 4096 > "$BATS_TEST_TMPDIR/out.csv"
	[ "$(rate headline)" = 0.0000 ]
	[ "$(rate headline-report)" = 0.0000 ]
	# Each metric's screen still "counts" now and then: it is no claim.
	between "$(rate seed)" 0.1 0.4
	# One boot per mode with a history, two and three rounds: 1024 reports each.
	for c in 3,0.5,5,1,0 1,0.5,5,2,0 1,2,5,3,0; do
		"$METHOD_BENCH" --cell "$c" --null-draws 16384 > "$BATS_TEST_TMPDIR/out.csv"
		[ "$(awk -F, '$7 == "headline-report" { print $8 }' "$BATS_TEST_TMPDIR/out.csv")" -ge 1024 ]
		# Benjamini-Hochberg at the report's default q = 0.05 bounds the share of
		# do-nothing reports whose headline claims by alpha: 2.5-5.7 % on the full grid.
		between "$(rate headline-report)" 0.01 0.075
		# A claim survives the correction over the report's metrics: fewer per metric than the one verdict.
		between "$(rate headline)" 0 "$(rate answer)"
		between "$(rate headline)" 0 0.01
		cp "$BATS_TEST_TMPDIR/out.csv" "$BATS_TEST_TMPDIR/default-$c.csv"
	done
	# The default is --fdr 0.05: the same reports claim, to the last draw; at 0.10 more do.
	"$METHOD_BENCH" --fdr 0.05 --cell 3,0.5,5,1,0 --null-draws 16384 > "$BATS_TEST_TMPDIR/out.csv"
	diff -u "$BATS_TEST_TMPDIR/default-3,0.5,5,1,0.csv" "$BATS_TEST_TMPDIR/out.csv"
	"$METHOD_BENCH" --fdr 0.10 --cell 3,0.5,5,1,0 --null-draws 16384 > "$BATS_TEST_TMPDIR/out.csv"
	between "$(rate headline-report)" 0.075 0.13
}

@test "bad arguments" {
	run "$METHOD_BENCH" --cell 1,2,3
	[ "$status" -eq 2 ]
	[ "$output" = "method: --cell: expected SB,SW,REPS,BOOTS,DELTA (%, reps >= 2)" ]
	run "$METHOD_BENCH" --draws 10
	[ "$status" -eq 2 ]
	run "$METHOD_BENCH" --fdr 1
	[ "$status" -eq 2 ]
	[ "$output" = "method: --fdr: expected a level between 0 and 1" ]
	run "$METHOD_BENCH" --sequential --cell 1,1,5,1,0
	[ "$status" -eq 2 ]
	[ "$output" = "method: --sequential: the ceiling (BOOTS) is 2 to 20 rounds" ]
}
