#!/usr/bin/env bats
# The kernel developer's lab kernel, captured for real: Debian's
# linux-source-6.1 with KUnit and the DMA map benchmark, four boots on the
# lab's machine (tests/fixtures/kernel-dev-lab/README.md: how). 6.1 has no
# KUnit test that prints a new,old table, so these boots give KUnit results
# and dma_map_benchmark rows, not the paired table (tests/cli/kernel-dev.bats
# has that). KDEV_LAB_BOOTS names another capture's directory
# (`make check-kernel-dev` passes the one it has just made).
bats_require_minimum_version 1.5.0

setup() {
	kl=${KDEV_LAB_BOOTS:-$BATS_TEST_DIRNAME/../fixtures/kernel-dev-lab}
	d="$BATS_TEST_TMPDIR"
}

# mean FILE FIELD: the mean of the tool's "average FIELD latency(us):" over its runs.
mean() {
	awk -F'[:( ]+' -v f="$2" '$1 == "average" && $2 == f { s += $5; n++ } END { printf "%.4f\n", s / n }' "$1"
}

# ktap_total FILE: the leaf results of a KTAP file (lines of result at depth 1).
ktap_total() {
	grep -cE '^    (not )?ok [0-9]+ ' "$1"
}

@test "each real boot is read whole: the kernel log, the KUnit KTAP, the benchmark, no warning" {
	for b in b1 b2 b3 b4; do
		[ -s "$kl/$b/kernel.txt" ] && [ -s "$kl/$b/kunit.ktap" ] && [ -s "$kl/$b/dma.txt" ]
		grep -q 'DMAR: dmar0: Using Queued invalidation' "$kl/$b/kernel.txt"
		grep -q '^\[ *[0-9.]*\] KTAP version 1$' "$kl/$b/kernel.txt"
		other=b1
		[ "$b" != b1 ] || other=b2
		run --separate-stderr "$BOOTAB" compare --json "$kl/$b" "$kl/$other"
		[ "$status" -eq 0 ]
		[ "$stderr" = "" ]
		[ "$(jq -r '.warnings | length' <<<"$output")" = 0 ]
		[ "$(jq -r '.costs | length' <<<"$output")" = 0 ]
		[ "$(jq -r '[.comparisons[] | select(.row == "dma") | .metric] | unique | join(",")' <<<"$output")" = \
			"map latency,map stddev,unmap latency,unmap stddev" ]
		[ "$(jq -r '.new_old | length' <<<"$output")" = 0 ]
	done
}

@test "bootab compare b1 b2 b3 b4 on the four real boots: each side's benchmark as the tool printed it" {
	run --separate-stderr "$BOOTAB" compare --json "$kl"/b{1,2,3,4}
	[ "$status" -eq 0 ]
	[ "$stderr" = "" ]
	[ "$(jq -r '[.sides[].label] | join(",")' <<<"$output")" = "b1,b2,b3,b4" ]
	runs=$(grep -c '^dma mapping benchmark:' "$kl/b1/dma.txt")
	[ "$runs" -ge 2 ]
	for b in b1 b2 b3 b4; do
		for f in map unmap; do
			got=$(jq -r --arg m "$f latency" --arg b "$b" \
				'.comparisons[] | select(.row == "dma" and .metric == $m and .side == $b) | "\(.n) \(.value)"' <<<"$output")
			[ "${got%% *}" = "$(grep -c '^dma mapping benchmark:' "$kl/$b/dma.txt")" ]
			[ "$(printf '%.4f\n' "${got#* }")" = "$(mean "$kl/$b/dma.txt" "$f")" ]
		done
	done
	# 6.1's KUnit prints no new,old table: nothing is paired, and the text report says nothing of it.
	[ "$(jq -r '.new_old | length' <<<"$output")" = 0 ]
	run --separate-stderr "$BOOTAB" compare --color never "$kl"/b{1,2,3,4}
	[ "$status" -eq 0 ]
	[[ "$output" == *"dma  map latency  (us, mean, lower is better)"* ]]
	[[ "$output" != *"new against old"* ]]
}

@test "a KUnit failure in a real capture is the side's cost, named by its path, in either form" {
	for f in kunit.ktap kernel.txt; do
		rm -rf "$d/b2"
		cp -r "$kl/b2" "$d/b2"
		sed -i 's/^\(\[ *[0-9.]*\] \)\{0,1\}\(    \)ok \([0-9]*\) list_test_list_init$/\1\2not ok \3 list_test_list_init/' "$d/b2/$f"
		[ "$(grep -c 'not ok [0-9]* list_test_list_init$' "$d/b2/$f")" = 1 ]
		run --separate-stderr "$BOOTAB" compare --json "$kl/b1" "$d/b2"
		[ "$status" -eq 0 ]
		[ "$(jq -r '.costs[] | "\(.side) \(.row) \(.tests_total) \(.tests_failed | join(","))"' <<<"$output")" = \
			"b2 ${f%.*} $(ktap_total "$kl/b2/kunit.ktap") list-kunit-test.list_test_list_init" ]
	done
}
