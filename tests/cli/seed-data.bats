#!/usr/bin/env bats
# bootab on data users already have: the case study's side directories as
# its bench script wrote them (tests/fixtures/seed-bench: meta.txt and
# llama-bench JSONL), rebuilds between boots, the order of the sides.
bats_require_minimum_version 1.5.0

setup() {
	seed="$BATS_TEST_DIRNAME/../fixtures/seed-bench"
	d="$BATS_TEST_TMPDIR"
}

@test "meta.txt: off's rc=1 row is off's cost, in the headline and the sides" {
	run --separate-stderr "$BOOTAB" compare --color never "$seed/pt" "$seed/translated" "$seed/off" "$seed/pt2"
	[ "$status" -eq 0 ]
	[ "$stderr" = "" ]
	[[ "$(sed -n 2,5p <<<"$output")" == *"npu-flm-validate failed, rc=1 (cost)"* ]]
	[[ "$output" == *"  off         mode off            cost: npu-flm-validate failed, rc=1"* ]]
	# The rows whose output is in a file are bench rows; the others checks that passed.
	run "$BOOTAB" compare --json "$seed/pt" "$seed/translated" "$seed/off" "$seed/pt2"
	[ "$(jq -r '[.costs[] | .side + " " + .row + " " + (.rc | tostring)] | join(",")' <<<"$output")" = \
		"off npu-flm-validate 1" ]
}

@test "meta.txt: release, command line, IOMMU group types and start load are each side's" {
	run --separate-stderr "$BOOTAB" compare --color never "$seed/pt" "$seed/translated" "$seed/off" "$seed/pt2"
	[ "$status" -eq 0 ]
	diff -u - <(sed -n '/^kernel: /,/^$/p' <<<"$output") <<-'EOT'
	kernel: 7.2.9-300.fc45.x86_64 on every side
	args against pt, IOMMU group types, load at start:
	  pt          args (the first side's); iommu 1 DMA, 34 identity; load 0.31 0.22 0.09 1/598 2611
	  translated  args -iommu=pt; iommu 1 DMA, 32 DMA-FQ, 2 identity; load 0.18 0.11 0.04 1/603 2580
	  off         args -iommu=pt +amd_iommu=off; iommu no IOMMU groups; load 0.12 0.07 0.02 1/601 2574
	  pt2         args the same; iommu 1 DMA, 34 identity; load 0.22 0.15 0.06 1/597 2598

	EOT
	run "$BOOTAB" compare --json "$seed/pt" "$seed/off"
	[ "$(jq -r '.sides[1] | .kernel + "|" + .iommu_group_types + "|" + .load' <<<"$output")" = \
		"7.2.9-300.fc45.x86_64|no IOMMU groups|0.12 0.07 0.02 1/601 2574" ]
	[[ "$(jq -r '.sides[1].cmdline' <<<"$output")" == "BOOT_IMAGE=(hd0,gpt2)/vmlinuz-7.2.9-300.fc45.x86_64 "*" amd_iommu=off" ]]
}

@test "meta.txt: a bad line is one warning naming file, line and field; the rest loads" {
	for s in pt off; do cp -r "$seed/$s" "$d/"; done
	sed -i 's/^gptoss-rocm rc=0/gptoss-rocm rc=x/; s/^start 2026-10-14T20:35:09+03:00/start yesterday/' "$d/off/meta.txt"
	sed -i '/^end /d' "$d/pt/meta.txt"
	run --separate-stderr "$BOOTAB" compare --color never "$d/pt" "$d/off"
	[ "$status" -eq 0 ]
	diff -u - <(printf '%s\n' "$stderr") <<-EOT
	bootab: warning: $d/pt/meta.txt: no 'end' line: the bench script did not finish, its last row may be missing
	bootab: warning: $d/off/meta.txt:8: start: 'yesterday' is not an RFC 3339 time, ignoring it
	bootab: warning: $d/off/meta.txt:11: rc: 'x 2026-10-14T21:02:19+03:00' is not an exit code (0-255) and a time, ignoring the line
	EOT
	[[ "$output" == *"cost: npu-flm-validate failed, rc=1"* ]]
}

@test "meta.txt beside meta.json is bootab's own and not read again" {
	cp -r "$seed/off" "$d/off"
	printf '{"format": "bootab-results", "format_version": 1, "mode": "off", "rows": []}\n' > "$d/off/meta.json"
	run --separate-stderr "$BOOTAB" compare --color never "$seed/pt" "$d/off"
	[ "$status" -eq 0 ]
	[[ "$output" != *"npu-flm-validate"* ]]
}
