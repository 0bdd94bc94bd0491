#!/usr/bin/env bats
# What a mode broke, found without a check row: the case study's box on its
# pt, translated, off and pt2 boots (tests/fixtures/sysfs/seed-*, made by
# make-seed-trees.sh), each side recorded by `bootab snapshot -o` from its
# tree, with the benchmark output of examples/case-study and no check row.

bats_require_minimum_version 1.5.0

load helpers/target

setup() {
	d="$BATS_TEST_TMPDIR/sides"
	mkdir -p "$d"
	for s in pt:seed-passthrough translated:seed-translated off:seed-off pt2:seed-passthrough2; do
		label=${s%%:*}
		"$BOOTAB" snapshot --root "$fixtures/${s#*:}" -o "$d/$label" 2>/dev/null
		cp "$BATS_TEST_DIRNAME/../../examples/case-study/round2/$label/gptoss-rocm.jsonl" "$d/$label/"
	done
}

sides() {
	echo "$d/pt" "$d/translated" "$d/off" "$d/pt2"
}

@test "the off boot: the NPU lost its driver, /dev/accel/accel0 and the amdxdna errors, with no check row" {
	# shellcheck disable=SC2046
	run -0 "$BOOTAB" compare $(sides)
	sed -n '/^sides/,/^$/p' <<<"$output" | diff -u - <(cat <<'TXT'
sides (every side against pt; + is better):
  pt          mode pt             first side
  translated  mode translated
  off         mode off            5 costs found by bootab
  pt2         mode pt             repeat of pt: its delta is the drift
kernel: 7.2.9-300.fc45.x86_64 on every side
args against pt, IOMMU group types, load at start:
  pt          args (the first side's); iommu 1 DMA, 34 identity; load 0.12 0.07 0.02 1/601 2574
  translated  args -iommu=pt; iommu 1 DMA, 32 DMA-FQ, 2 identity; load 0.12 0.07 0.02 1/601 2574
  off         args -iommu=pt +amd_iommu=off; iommu no IOMMU groups; load 0.12 0.07 0.02 1/601 2574
  pt2         args the same; iommu 1 DMA, 34 identity; load 0.12 0.07 0.02 1/601 2574
costs found by bootab (every side against every boot of pt: pt, pt2):
  translated: nothing lost
  off: cost: 0000:c7:00.1 Signal processing controller [1022:17f0]: no driver (amdxdna bound on pt, pt2)
  off: cost: /dev/accel/accel0 gone (present on pt, pt2)
  off: cost: new kernel error: amdxdna 0000:c7:00.1: [drm] *ERROR* aie2_init: Running without IOMMU not supported
  off: cost: new kernel error: amdxdna 0000:c7:00.1: [drm] *ERROR* amdxdna_probe: Hardware init failed, ret -22
  off: cost: new kernel error: amdxdna 0000:c7:00.1: probe with driver amdxdna failed with error -22
  baseline noise, blamed on no mode: the boots of pt differ in 2 kernel lines, 1 failed unit
    kernel: perf: interrupt took too long (2513 > 2500), lowering kernel.perf_event_max_sample_rate to 79500
    kernel: usb 5-1: device descriptor read/64, error -71
    failed unit fwupd-refresh.service

TXT
)
	# the gain is still judged beside the costs
	[[ "$output" == *"  off "*"429.6 ± 5.2   1.2%   5   +4.2%   +0.2%  21.0  counts"* ]]
	# no check row was involved
	run -1 grep -rl 'npu' "$d"/*/*.jsonl
}

@test "a proven side's costs are a note of their own beside its proof" {
	jq '.proof = {"level": "proven", "args": [{"arg": "amd_iommu=off", "level": "proven"}]}' "$d/off/meta.json" >"$d/meta.tmp"
	mv "$d/meta.tmp" "$d/off/meta.json"
	# shellcheck disable=SC2046
	run -0 "$BOOTAB" compare $(sides)
	grep -qx '  off         mode off            proof: proven; 5 costs found by bootab' <<<"$output"
}

@test "the baseline's own noise blames no mode: pt2 and off share a USB warning pt lacks, a failed unit too" {
	run -0 "$BOOTAB" compare --json "$d/pt" "$d/off" "$d/pt2"
	j=$output
	# only the NPU's costs; the USB warning, the unit and the timing warning are noise
	[ "$(jq -r '.found.costs[].text' <<<"$j" | grep -c .)" -eq 5 ]
	run -1 grep -q 'usb 5-1\|fwupd\|perf' <(jq -r '.found.costs[].text' <<<"$j")
	[ "$(jq '.found.baseline_noise.kernel_lines' <<<"$j")" -eq 2 ]
	[ "$(jq '.found.baseline_noise.units' <<<"$j")" -eq 1 ]
	# with one baseline boot, the USB warning is on no baseline boot: then it is a cost
	run -0 "$BOOTAB" compare --json "$d/pt" "$d/off"
	jq -r '.found.costs[].text' <<<"$output" | grep -qx 'new kernel warning: usb 5-1: device descriptor read/64, error -71'
	# the reverse of a failed unit: failed on every baseline boot (pt2 alone here) and not
	# on the side, it is the side's gain, in the text and in report.json, never dropped
	run -0 "$BOOTAB" compare "$d/pt2" "$d/off"
	grep -qx '  off: gain: unit fwupd-refresh.service did not fail (failed on pt2)' <<<"$output"
	run -0 "$BOOTAB" compare --json "$d/pt2" "$d/off"
	[ "$(jq -c '.found.costs[] | select(.kind == "unit-recovered") | [.side, .gain, .subject]' <<<"$output")" = '["off",true,"fwupd-refresh.service"]' ]
}

@test "json, md, csv, html and mail carry the same costs, marked as found by bootab and apart from check rows" {
	# shellcheck disable=SC2046
	run -0 "$BOOTAB" compare --json $(sides)
	j=$output
	[ "$(jq -r '.found.baseline' <<<"$j")" = "pt, pt2" ]
	[ "$(jq -r '[.found.judged[]] | join(" ")' <<<"$j")" = "translated off" ]
	[ "$(jq '.costs | length' <<<"$j")" -eq 0 ]
	[ "$(jq -r '.found.costs[0] | [.side, .found_by, .kind, .address, .baseline, (.value // "none")] | join(" ")' <<<"$j")" = \
		"off bootab driver 0000:c7:00.1 amdxdna none" ]
	[ "$(jq -r '.found.costs[4] | [.kind, .level_name, .time, .count] | join(" ")' <<<"$j")" = \
		"kernel-log err 9.872201 1" ]
	# shellcheck disable=SC2046
	run -0 "$BOOTAB" compare --format md $(sides)
	[[ "$output" == *"## Costs found by bootab"* ]]
	[[ "$output" == *'- off: cost: /dev/accel/accel0 gone \(present on pt, pt2\)'* ]]
	# shellcheck disable=SC2046
	run -0 "$BOOTAB" compare --format html $(sides)
	[[ "$output" == *'<span class="chip v-loss" data-summary="found_costs"><b>5</b> costs found by bootab</span>'* ]]
	[[ "$output" == *'<span class="c" data-found="driver" data-side="off">cost: 0000:c7:00.1 Signal processing controller [1022:17f0]: no driver (amdxdna bound on pt, pt2)</span>'* ]]
	[[ "$output" == *'<span class="cost">cost found by bootab: /dev/accel/accel0 gone (present on pt, pt2)</span>'* ]]
	[ "$(grep -o 'data-found="kernel-log"' <<<"$output" | wc -l)" -eq 3 ]
	# shellcheck disable=SC2046
	"$BOOTAB" compare --format csv $(sides) >"$BATS_TEST_TMPDIR/out.csv"
	# a row each, every row as wide as the header, the finding in the last
	# column; the case study's metric rows are still there, their found empty
	python3 - "$BATS_TEST_TMPDIR/out.csv" <<-'EOF'
	import csv, sys
	rows = list(csv.reader(open(sys.argv[1], newline="")))
	head = rows[0]
	assert head[-1] == "found", head
	assert {len(r) for r in rows} == {len(head)}, {len(r) for r in rows}
	found = [r for r in rows if r[0] == "found-by-bootab"]
	got = [(r[1], r[2], r[3], r[-1]) for r in found]
	assert got[:2] == [
	    ("driver", "off", "off", "0000:c7:00.1 Signal processing controller [1022:17f0]: no driver (amdxdna bound on pt, pt2)"),
	    ("node-gone", "off", "off", "/dev/accel/accel0 gone (present on pt, pt2)"),
	], got
	assert [g[0] for g in got[2:]] == ["kernel-log"] * 3, got
	assert got[4][3] == "new kernel error: amdxdna 0000:c7:00.1: probe with driver amdxdna failed with error -22", got
	assert all(c == "" for r in found for c in r[4:-1]), found
	metric = [r for r in rows[1:] if r[0] == "gptoss-rocm"]
	assert metric and all(r[-1] == "" for r in metric), metric
	EOF
	# shellcheck disable=SC2046
	run -0 "$BOOTAB" compare --format mail $(sides)
	[[ "$output" == *"cost found by bootab: /dev/accel/accel0 gone (present on pt, pt2)"* ]]
	[ "$(grep -c '^cost found by bootab: ' <<<"$output")" -eq 5 ]
}

@test "a check row's failure stays a check row's: both are printed, each marked" {
	echo 1 > "$d/off/npu-validate.rc"
	echo 0 > "$d/pt/npu-validate.rc"
	echo 0 > "$d/pt2/npu-validate.rc"
	# shellcheck disable=SC2046
	run -0 "$BOOTAB" compare $(sides)
	[[ "$output" == *"  off         mode off            cost: npu-validate failed, rc=1; 5 costs found by bootab"* ]]
	# shellcheck disable=SC2046
	run -0 "$BOOTAB" compare --json $(sides)
	[ "$(jq -r '.costs[0].row' <<<"$output")" = npu-validate ]
	[ "$(jq '.found.costs | length' <<<"$output")" -eq 5 ]
}

@test "--ignore and the plan's ignore drop findings by their subject" {
	# shellcheck disable=SC2046
	run -0 "$BOOTAB" compare --ignore '^amdxdna ' --ignore 'accel' $(sides)
	[[ "$output" == *"  off: cost: 0000:c7:00.1 Signal processing controller [1022:17f0]: no driver (amdxdna bound on pt, pt2)
  baseline noise"* ]]
	[[ "$output" == *"  4 findings matched an ignore pattern"* ]]
	run -2 "$BOOTAB" compare --ignore 'a(' "$d/pt" "$d/off"
	[ "$output" = "bootab: --ignore: 'a(' is not an extended regular expression: Unmatched ( or \\(; see 'bootab help compare'" ]
	# A back-reference: not POSIX ERE, and exponential on a long log line. Refused at once.
	run -2 timeout 10 "$BOOTAB" compare --ignore '((a+)+)+\2b' "$d/pt" "$d/off"
	[ "$output" = "bootab: --ignore: '((a+)+)+\\2b' is not an extended regular expression: the pattern holds a back-reference ('\\2'): POSIX extended patterns have none, and matching one can take exponential time; see 'bootab help compare'" ]

	# a campaign directory: bootab report judges with the plan's patterns
	c="$BATS_TEST_TMPDIR/camp"
	mkdir -p "$c"
	cp -r "$d"/pt "$d"/translated "$d"/off "$d"/pt2 "$c"/
	cat > "$c/plan.ini" <<'INI'
[campaign]
target = box
ignore = ^amdxdna 0000:c7:00\.1: \[drm\]
[mode "pt"]
args = iommu=pt
[mode "translated"]
[mode "off"]
args = amd_iommu=off
[row "gptoss-rocm"]
command = true
INI
	run -0 "$BOOTAB" report "$c"
	[[ "$(cat "$c/report.txt")" == *"  off: cost: new kernel error: amdxdna 0000:c7:00.1: probe with driver amdxdna failed with error -22
  baseline noise"* ]]
	[[ "$(cat "$c/report.txt")" == *"  2 findings matched an ignore pattern"* ]]
	printf '[campaign]\ntarget = box\nignore = a(\n[mode "a"]\n[row "r"]\ncommand = true\n' > "$BATS_TEST_TMPDIR/bad.ini"
	run -2 "$BOOTAB" plan "$BATS_TEST_TMPDIR/bad.ini"
	[[ "$output" == *"bad.ini:3: ignore: 'a(' is not an extended regular expression"* ]]
}

@test "sides without an inventory (plain benchmark output) are compared as before, with no costs section" {
	ex="$BATS_TEST_DIRNAME/../../examples/case-study/round2"
	run -0 "$BOOTAB" compare "$ex/pt" "$ex/off" "$ex/pt2"
	[[ "$output" != *"costs found by bootab"* ]]
	run -0 "$BOOTAB" compare --json "$ex/pt" "$ex/off" "$ex/pt2"
	[ "$(jq '.found.costs | length' <<<"$output")" -eq 0 ]
	[ "$(jq '.found.judged | length' <<<"$output")" -eq 0 ]
}

@test "a meta.json with a bad inventory is named in one warning and the rest still loads" {
	jq '.kernel_log.lines[0].level = 9' "$d/off/meta.json" > "$d/off/meta.json.new"
	mv "$d/off/meta.json.new" "$d/off/meta.json"
	run -0 "$BOOTAB" compare "$d/pt" "$d/off" "$d/pt2"
	[[ "$output" == *"bootab: warning: $d/off/meta.json: kernel_log.lines[0]: bad line, ignoring the device inventory and kernel log"* ]]
	[[ "$output" != *"off: cost"* ]]
	[[ "$output" == *"429.6 ± 5.2"* ]]
}
