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
	passthrough vs translated: nothing judged (no repeat boot of translated and no history);
	    largest delta randread bw_kib +14.4 %

	EOT
	sed -n '4p' "$camp/report.txt" | grep -q '^campaign .*: 2 of 2 boots recorded$'
	diff -u - <(sed '/^campaign /,$d' "$camp/report.md") <<-'EOT'
	- **passthrough vs translated:** nothing judged (no repeat boot of translated and no history); largest delta randread bw_kib +14.4 %

	EOT
	[ "$(jq -r '.headline[0].text' "$camp/report.json")" = \
		"passthrough vs translated: nothing judged (no repeat boot of translated and no history); largest delta randread bw_kib +14.4 %" ]
	[ "$(jq -r '.headline[0].null' "$camp/report.json")" = not-judged ]
}
