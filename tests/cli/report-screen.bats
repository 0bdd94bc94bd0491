#!/usr/bin/env bats
# A screening campaign's report: the factors' answers in the headline,
# report.txt, report.md, report.json and report.html, on a campaign
# recorded on the QEMU lab (tests/fixtures/campaign-screen-lab, its README
# says how): three factors, full factorial 2^3, 9 boots; pti=on makes
# syscalls about ten times slower under TCG, iommu=pt and init_on_free=1
# do nothing to them.
bats_require_minimum_version 1.5.0

setup() {
	camp="$BATS_TEST_TMPDIR/campaign"
	cp -r "$BATS_TEST_DIRNAME/../fixtures/campaign-screen-lab" "$camp"
	export XDG_DATA_HOME="$BATS_TEST_TMPDIR/data"
	schema="$BATS_TEST_DIRNAME/../../docs/report.schema.json"
	validate="$BATS_TEST_DIRNAME/helpers/report-schema.py"
}

@test "screening campaign: the headline answers per factor, ranked; no design run is a mode to test" {
	run -0 "$BOOTAB" report "$camp"
	# pti=on first, the one that matters, as a factor with its CI; the others within noise.
	[[ "${lines[0]}" =~ ^factors:\ pti=on\ ([0-9]+\.[0-9])x\ slower\ \[([0-9.]+)x,\ ([0-9.]+)x\]\ on\ syscalls ]] || false
	factor=${BASH_REMATCH[1]} lo=${BASH_REMATCH[2]}
	awk -v f="$factor" -v lo="$lo" 'BEGIN { exit !(f > 5 && lo > 2) }'
	# The line as one, its wrap undone.
	[[ "$(printf '%s\n' "$output" | sed -n '1,/^$/p' | sed 's/^    //' | tr '\n' ' ')" == \
		*"on syscalls 60000 syscalls; iommu=pt, init_on_free=1: within noise "* ]] || false
	# No line of a design run against off, in any file.
	run grep -c ' vs off' "$camp/report.txt" "$camp/report.md"
	[ "$output" = "$camp/report.txt:0
$camp/report.md:0" ]
	run grep -c 'not tested (one boot of run' "$camp/report.txt"
	[ "$output" = 0 ]
	grep -q '^summary: no mode tested: the design.s runs are answered per factor;$' "$camp/report.txt"
	grep -q '^- factors: pti=on .* on syscalls 60000 syscalls; iommu=pt, init_on_free=1: within noise$' "$camp/report.md"
}

@test "screening campaign: report.txt's factors, ranked, with the interactions a full factorial estimates and the costs" {
	"$BOOTAB" report "$camp" > /dev/null
	sed -n '/^factors (/,/^$/p' "$camp/report.txt" > "$BATS_TEST_TMPDIR/f"
	head -1 "$BATS_TEST_TMPDIR/f" | grep -q '^factors (full factorial 2^3, 8 runs): main effect of each'
	grep -q '^  syscalls 60000 syscalls (lower is better; 9 boots):$' "$BATS_TEST_TMPDIR/f"
	# Ranked: pti worse first, then the two within noise.
	[ "$(grep -E '^    [a-z]+ \(' "$BATS_TEST_TMPDIR/f" | awk '{ print $1, $NF }' | tr '\n' ' ')" = \
		"pti worse iommu noise initfree noise " ]
	# Every two-factor interaction, each within noise (none was put in).
	grep -q '^    two-factor interactions (clear of the main effects; CI from a fit with them, df 2):$' "$BATS_TEST_TMPDIR/f"
	[ "$(grep -cE '^      [a-z]+ x [a-z]+ .*within noise$' "$BATS_TEST_TMPDIR/f")" -eq 3 ]
	# No factor is aliased in a full factorial.
	run grep -c alias "$BATS_TEST_TMPDIR/f"
	[ "$output" = 0 ]
	# The lab's boots lost nothing: no cost is a factor's.
	grep -q '^  costs: none seen only with a factor on$' "$BATS_TEST_TMPDIR/f"
}

@test "screening campaign: report.json's factors validate against the schema and agree with report.txt" {
	"$BOOTAB" report "$camp" > /dev/null
	run -0 /usr/bin/python3 "$validate" "$schema" "$camp/report.json"
	[ "$output" = "" ]
	j="$camp/report.json"
	[ "$(jq -r '.factors.design' "$j")" = "full factorial 2^3, 8 runs" ]
	[ "$(jq -r '.factors.resolution' "$j")" = full ]
	[ "$(jq -r '[.factors.factors[] | "\(.name)=\(.args)"] | join(" ")' "$j")" = "pti=pti=on iommu=iommu=pt initfree=init_on_free=1" ]
	[ "$(jq '.factors.sides | length' "$j")" -eq 9 ]
	[ "$(jq -r '[.factors.metrics[0].effects[] | "\(.name):\(.verdict)"] | join(" ")' "$j")" = \
		"pti:worse iommu:within-noise initfree:within-noise" ]
	jq -e '.factors.metrics[0].effects[0] | .direction == "slower" and .factor > 5 and .ci_hi_pct < 0' "$j" > /dev/null
	[ "$(jq '.factors.metrics[0].interactions | length' "$j")" -eq 3 ]
	[ "$(jq '.factors.costs | length' "$j")" -eq 0 ]
	# The headline of report.txt, and no mode line or answer of a design run.
	[ "$(jq -r '.factors.headline' "$j")" = "$(sed -n '/^factors:/,/^$/p' "$camp/report.txt" | sed 's/^    //' | tr '\n' ' ' | sed 's/  *$//')" ]
	[ "$(jq '.headline | length' "$j")" -eq 0 ]
	[ "$(jq '.answers | length' "$j")" -eq 0 ]
}

@test "screening campaign: report.html's answer and its factors section" {
	"$BOOTAB" report "$camp" > /dev/null
	h="$camp/report.html"
	grep -q '<p class="hl" data-null="factors">factors: pti=on .* within noise</p>' "$h"
	run grep -c 'data-mode="run0' "$h"
	[ "$output" = 0 ]
	sed -n '/<section id="factors">/,/<\/section>/p' "$h" > "$BATS_TEST_TMPDIR/s"
	grep -q '<h2>Factors</h2>' "$BATS_TEST_TMPDIR/s"
	# Ranked as report.txt ranks them, the interactions after the main effects.
	[ "$(sed -n 's/^<tr[^>]* data-verdict="\([a-z-]*\)"><td>\([a-z]*\)[ <].*/\1 \2/p' "$BATS_TEST_TMPDIR/s" | head -3 | tr '\n' ' ')" = \
		"worse pti within-noise iommu within-noise initfree " ]
	[ "$(grep -c 'data-verdict="within-noise"><td>[a-z]* x ' "$BATS_TEST_TMPDIR/s")" -eq 3 ]
	grep -q '<p>None: no failed check or cost bootab found' "$BATS_TEST_TMPDIR/s"
}

# tests/fixtures/campaign-screen-fold (its README says how it was made):
# twelve factors, a Plackett-Burman design of 20 runs and, in round 2, its
# fold-over; audit=0 takes 0.8 times the time, idle=poll and nowatchdog
# together make an interaction the design alone mixes into the others'
# main effects.
@test "screening campaign with its fold-over: main effects from all 41 boots, no alias, the planted effect found; before the fold-over, its aliases said" {
	fold="$BATS_TEST_TMPDIR/fold"
	cp -r "$BATS_TEST_DIRNAME/../fixtures/campaign-screen-fold" "$fold"
	run -0 --separate-stderr "$BOOTAB" report "$fold"
	head=${lines[0]} all=$output
	sed -n '/^factors (/,/^$/p' "$fold/report.txt" > "$BATS_TEST_TMPDIR/f"
	head -1 "$BATS_TEST_TMPDIR/f" | grep -q '^factors (Plackett-Burman, 20 runs, with its fold-over: 40 runs, resolution IV): main effect of each'
	grep -q '^  build time (lower is better; 41 boots):$' "$BATS_TEST_TMPDIR/f"
	# audit=0 first, better, its CI holding the planted 0.8 times (+20 %, + is better); the other eleven within noise.
	[[ "$(sed -n 3p "$BATS_TEST_TMPDIR/f")" =~ ^\ \ \ \ audit\ \(audit=0\)\ +\+([0-9.]+)%\ \[\+([0-9.]+),\ \+([0-9.]+)\]\ \ better$ ]] || false
	awk -v lo="${BASH_REMATCH[2]}" -v hi="${BASH_REMATCH[3]}" 'BEGIN { exit !(lo < 20 && hi > 20) }'
	[ "$(grep -cE '^    [a-z_]+ \(.*  within noise$' "$BATS_TEST_TMPDIR/f")" -eq 11 ]
	run grep -c alias "$BATS_TEST_TMPDIR/f"
	[ "$output" = 1 ]
	grep -q '^    two-factor interactions: not estimated, the design with its fold-over (resolution IV) aliases them with each other$' "$BATS_TEST_TMPDIR/f"
	[[ "$head" == "factors: audit=0 +"*" faster on build time;" ]] || false
	[[ "$all" != *"could be an alias"* ]] || false
	run -0 /usr/bin/python3 "$validate" "$schema" "$fold/report.json"
	[ "$(jq -r '.factors.design' "$fold/report.json")" = "Plackett-Burman, 20 runs, with its fold-over: 40 runs, resolution IV" ]
	[ "$(jq '[.factors.factors[] | .aliased] | any' "$fold/report.json")" = false ]
	[ "$(jq '[.factors.metrics[0].effects[] | .alias] | any' "$fold/report.json")" = false ]
	[ "$(jq -r '.factors.metrics[0].resolution' "$fold/report.json")" = IV ]
	[ "$(jq '.factors.sides | length' "$fold/report.json")" -eq 41 ]
	[ "$(grep -c "fold-over's runs are not all booted" "$fold/report.html")" -eq 0 ]

	# The same campaign before its fold-over (its 20 fold-over boots taken out): the interaction
	# passes for part of audit's effect (the CI misses +20 %), and every main effect is flagged.
	rm -r "$fold"/fold[0-9]*
	run -0 --separate-stderr "$BOOTAB" report "$fold"
	head=${lines[0]}
	sed -n '/^factors (/,/^$/p' "$fold/report.txt" > "$BATS_TEST_TMPDIR/f"
	grep -q '^  build time (lower is better; 21 boots):$' "$BATS_TEST_TMPDIR/f"
	grep -q "^    the fold-over's runs are not all booted: the design's aliases hold$" "$BATS_TEST_TMPDIR/f"
	[[ "$(sed -n 4p "$BATS_TEST_TMPDIR/f")" =~ ^\ \ \ \ audit\ \(audit=0\)\ +\+([0-9.]+)%\ \[\+([0-9.]+),\ \+([0-9.]+)\]\ \ better\ \(could\ be\ an\ alias ]] || false
	awk -v lo="${BASH_REMATCH[2]}" 'BEGIN { exit !(lo > 20) }'
	[ "$(grep -c '(could be an alias: the design mixes it with two-factor interactions)$' "$BATS_TEST_TMPDIR/f")" -eq 12 ]
	grep -q '^    two-factor interactions: not estimated, the design (resolution III) aliases them with the main effects$' "$BATS_TEST_TMPDIR/f"
	[[ "$head" == *"(could be an alias);" ]] || false
	# report.html says it beside the metric's table, as report.txt does.
	grep -q "^<p>The fold-over's runs are not all booted: the design's aliases hold (resolution III).</p>$" "$fold/report.html"
	# report.json: the design as planned, each metric as its boots resolve it.
	run -0 /usr/bin/python3 "$validate" "$schema" "$fold/report.json"
	[ "$(jq -r '.factors.resolution' "$fold/report.json")" = IV ]
	[ "$(jq -r '.factors.metrics[0].resolution' "$fold/report.json")" = III ]
	[ "$(jq '[.factors.metrics[0].effects[] | .alias] | all' "$fold/report.json")" = true ]
}
