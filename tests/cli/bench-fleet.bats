#!/usr/bin/env bats
# bench/method/fleet on a few cells, through compare_sides() and
# fleet_judge() (the code bootab report --fleet reports from): with no
# effect on any machine the pooled CI claims falsely about 5 % of the time
# and covers the truth about 95 %; with the same effect on every machine the
# heterogeneity test (at 1 %) seldom says it differs; an effect on a third of
# the machines only is found to differ. Seeds are fixed per cell.

# rate METHOD [FIELD]: a field of METHOD's row in the last run's CSV (claim rate by default)
rate() {
	awk -F, -v m="$1" -v f="${2:-8}" '$6 == m { print $f }' "$BATS_TEST_TMPDIR/out.csv"
}

between() {
	awk -v x="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(x >= lo && x <= hi) }'
}

@test "six machines of mixed noise, three boots per mode, no effect: pooled and heterogeneity within their levels" {
	"$FLEET_BENCH" --cell 6,3,mixed,equal,0 --draws 2048 > "$BATS_TEST_TMPDIR/out.csv"
	[ "$(head -1 "$BATS_TEST_TMPDIR/out.csv")" = "machines,boots,noise,effect,delta_pct,method,draws,claim_rate,mc_se,ci_coverage" ]
	[ "$(awk -F, 'NR > 1 { print $6 }' "$BATS_TEST_TMPDIR/out.csv" | tr '\n' ' ')" = "pooled heterogeneity any " ]
	between "$(rate pooled)" 0.01 0.065
	between "$(rate pooled 10)" 0.935 0.99
	between "$(rate heterogeneity)" 0 0.025
	between "$(rate any)" 0.01 0.07
}

@test "twelve machines, one boot per mode each: the pooled CI on 11 df holds its level" {
	"$FLEET_BENCH" --cell 12,1,equal,equal,0 --draws 2048 > "$BATS_TEST_TMPDIR/out.csv"
	between "$(rate pooled)" 0.035 0.065
	between "$(rate pooled 10)" 0.935 0.965
	# No machine has a test of its own: heterogeneity is not tested.
	[ -z "$(rate heterogeneity)" ]
}

@test "8 % on a third of the machines: it differs between machines" {
	"$FLEET_BENCH" --cell 6,3,equal,split,0 --draws 1024 > "$BATS_TEST_TMPDIR/out.csv"
	between "$(rate heterogeneity)" 0.95 1
}

@test "bad arguments" {
	run "$FLEET_BENCH" --cell 1,2,equal,equal,0
	[ "$status" -eq 2 ]
	[ "$output" = "fleet: --cell: expected K,BOOTS,equal|mixed,equal|spread|split,DELTA" ]
	run "$FLEET_BENCH" --draws 3
	[ "$status" -eq 2 ]
}
