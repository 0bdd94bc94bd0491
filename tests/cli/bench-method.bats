#!/usr/bin/env bats
# bench/method on a few null cells (no true effect), through compare_sides():
# the boot-level test claims falsely about 5 % of the time and the history
# t (behind its drift gate) less, also when the machine got noisier than its
# history says; the seed rule about a quarter of the time with one repeat boot
# when boot noise dominates, and the naive pair far more. Seeds are fixed per cell.

# rate METHOD: the claim rate of METHOD in the last run's CSV
rate() {
	awk -F, -v m="$1" '$7 == m { print $9 }' "$BATS_TEST_TMPDIR/out.csv"
}

between() {
	awk -v x="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(x >= lo && x <= hi) }'
}

@test "one boot per mode, boot noise dominating: history at most 5 %, seed rule ~26 %, naive pair worse" {
	"$METHOD_BENCH" --cell 3,0.5,5,1,0 --null-draws 3072 > "$BATS_TEST_TMPDIR/out.csv"
	[ "$(head -1 "$BATS_TEST_TMPDIR/out.csv")" = "stress,sigma_b_pct,sigma_w_pct,reps,boots,delta_pct,method,draws,claim_rate,mc_se,power,wrong_sign,exaggeration,ci_coverage" ]
	[ "$(awk -F, 'NR > 1 { print $7 }' "$BATS_TEST_TMPDIR/out.csv" | tr '\n' ' ')" = "naive seed history equiv answer minp " ]
	# The drift gate makes it conservative on a machine that did not change (about 3 %).
	between "$(rate history)" 0.015 0.05
	between "$(rate seed)" 0.20 0.32
	between "$(rate naive)" 0.5 1
}

@test "a history recorded while the machine was 3x quieter: at most 10 % false claims" {
	# Without the drift gate the history t claims falsely about 40 % of the time here.
	"$METHOD_BENCH" --stress history-3x-quieter --cell 1,0.5,5,1,0 --null-draws 4096 > "$BATS_TEST_TMPDIR/out.csv"
	[ "$(awk -F, '$7 == "history" { print $1 }' "$BATS_TEST_TMPDIR/out.csv")" = history-3x-quieter ]
	between "$(rate history)" 0.05 0.11
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

@test "bad arguments" {
	run "$METHOD_BENCH" --cell 1,2,3
	[ "$status" -eq 2 ]
	[ "$output" = "method: --cell: expected SB,SW,REPS,BOOTS,DELTA (%, reps >= 2)" ]
	run "$METHOD_BENCH" --draws 10
	[ "$status" -eq 2 ]
	run "$METHOD_BENCH" --sequential --cell 1,1,5,1,0
	[ "$status" -eq 2 ]
	[ "$output" = "method: --sequential: the ceiling (BOOTS) is 2 to 20 rounds" ]
}
