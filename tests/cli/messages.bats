#!/usr/bin/env bats
# Options and values that were taken silently or read wrong: each is said
# or refused now. The sides are the lab campaign fixture's
# (tests/fixtures/campaign-lab, recorded from a real lab run).
bats_require_minimum_version 1.5.0

setup() {
	c="$BATS_TEST_DIRNAME/../fixtures/campaign-lab"
	export XDG_DATA_HOME="$BATS_TEST_TMPDIR/data"
}

@test "--equivalence ROW=PCT naming no row is refused naming it; a margin is decimal, 0x10% is no 16%" {
	run -2 "$BOOTAB" compare "$c/passthrough" "$c/translated" --equivalence nosuchrow=2%
	[ "$output" = "bootab: --equivalence 'nosuchrow=2%': no row 'nosuchrow' in the results; see 'bootab help compare'" ]
	for bad in 0x10% 0x10 1e1 inf 1.2.3 . 2%%; do
		run -2 "$BOOTAB" compare "$c/passthrough" "$c/translated" --equivalence "$bad"
		[ "$output" = "bootab: --equivalence: '$bad' is not a margin in % above 0 and at most 50 (or ROW=PCT); see 'bootab help compare'" ]
		run -2 "$BOOTAB" compare "$c/passthrough" "$c/translated" --equivalence "randread=$bad"
	done
	# What it takes: a row of the results, a decimal with or without %.
	run -0 "$BOOTAB" compare "$c/passthrough" "$c/translated" --equivalence randread=2% --equivalence 2.5
}
