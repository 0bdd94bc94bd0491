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

# series DIR N: sides DIR/run1 ... DIR/runN, one number per line, run10 10 % faster
series() {
	for i in $(seq 1 "$2"); do
		mkdir -p "$1/run$i"
		v=$((1000 + i)); [ "$i" -eq 10 ] && v=1100; [ "$i" -eq 5 ] && v=1040
		printf '%s\n%s\n%s\n' $((v - 3)) "$v" $((v + 3)) > "$1/run$i/x.txt"
	done
}

@test "run1 ... run12 is a series of twelve modes: run10 is no repeat of run1, run5's +4 % is not noise's" {
	series "$d/s" 12
	run --separate-stderr "$BOOTAB" compare --json "$d"/s/run{1..12}
	[ "$status" -eq 0 ]
	[ "$(jq -r '[.sides[] | select(.repeat) | .label] | length' <<<"$output")" = 0 ]
	[ "$(jq -r '[.sides[] | .mode] | unique | length' <<<"$output")" = 12 ]
	[ "$(jq -r '.comparisons[] | select(.side == "run10") | .drift_pct' <<<"$output")" = null ]
	[ "$(jq -r '.comparisons[] | select(.side == "run5") | .delta_pct | floor' <<<"$output")" = 3 ]
}

@test "a numbered series beside its stem, and labels read as repeats, are said first" {
	series "$d/s" 3
	mkdir "$d/s/run" && cp "$d/s/run1/x.txt" "$d/s/run/"
	run --separate-stderr "$BOOTAB" compare --color never "$d/s/run" "$d"/s/run{1..3}
	[ "$status" -eq 0 ]
	[ "$stderr" = "bootab: warning: sides run1, run2, run3 are a numbered series from 1: each is a mode of its own, not a repeat; --mode LABEL=MODE says otherwise" ]
	mkdir -p "$d/p"
	for s in pt translated pt2 pt3; do cp -r "$d/s/run1" "$d/p/$s"; done
	run --separate-stderr "$BOOTAB" compare --color never "$d"/p/{pt,translated,pt2,pt3}
	[ "$stderr" = "bootab: warning: taken as repeats from their labels: pt2 of pt, pt3 of pt; --mode LABEL=MODE says otherwise" ]
	# One numbered label is read by the rule alone.
	run --separate-stderr "$BOOTAB" compare --color never "$d"/p/{pt,translated,pt2}
	[ "$stderr" = "" ]
	[[ "$output" == *"pt2         mode pt             repeat of pt"* ]]
}

@test "compare DIR/*: off sorts first, the hint names pt; --baseline pt judges against it" {
	run --separate-stderr "$BOOTAB" compare --color never "$seed"/*/
	[ "$status" -eq 0 ]
	[ "$stderr" = "bootab: warning: off, the first side, has no repeat, so nothing can be judged against it; pt has one: --baseline pt compares every side with it" ]
	run --separate-stderr "$BOOTAB" compare --color never --baseline pt "$seed"/*/
	[ "$status" -eq 0 ]
	[ "$stderr" = "" ]
	[ "$(sed -n '/^sides/,/^kernel/p' <<<"$output")" = "sides (every side against pt; + is better):
  pt          mode pt             first side
  off         mode off            cost: npu-flm-validate failed, rc=1
  pt2         mode pt             repeat of pt: its delta is the drift
  translated  mode translated
kernel: 7.2.9-300.fc45.x86_64 on every side" ]
	# One boot of off: the answer is not tested, whatever the screen column says of its +4.2 %.
	[[ "$output" == "off vs pt: not tested (one boot of off: 2 boots per mode, or a history of this box, would test it)"* ]]
	run --separate-stderr "$BOOTAB" compare --baseline nosuch "$seed"/*/
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"--baseline nosuch: no side is labelled 'nosuch'"* ]]
}

@test "bootab report on side directories without plan.ini says what is missing" {
	run --separate-stderr "$BOOTAB" report "$seed"
	[ "$status" -ne 0 ]
	[ "$stderr" = "bootab: $seed: no plan.ini, so not a campaign directory of bootab run; to compare side directories (one per boot), run bootab compare on them (bootab compare --baseline LABEL $seed/*)" ]
	run --separate-stderr "$BOOTAB" report "$d/nosuch"
	[ "$stderr" = "bootab: $d/nosuch: no such directory" ]
}

@test "llama-bench's default markdown table is refused with the -o jsonl hint" {
	f="$BATS_TEST_DIRNAME/../fixtures/parsers/llama-bench/markdown.md"
	mkdir "$d/a" "$d/b"
	cp "$f" "$d/a/gptoss-vk.md"
	cp "$seed/pt/gptoss-vk.jsonl" "$d/a/"
	cp "$seed/off/gptoss-vk.jsonl" "$d/b/"
	run --separate-stderr "$BOOTAB" compare --color never "$d/a" "$d/b"
	[ "$status" -eq 0 ]
	[ "$stderr" = "bootab: warning: $d/a/gptoss-vk.md:1:1: llama-bench's markdown table (its default output) has no per-rep samples: run llama-bench with -o jsonl, ignoring the file" ]
}

# rebuilt DIR: the seed's sides with llama.cpp rebuilt before off (its JSONL
# build_commit and meta.txt build line), translated run with -t 8, and off
# booted twice (off2), so that off's rows are tested and claimed
rebuilt() {
	cp -r "$seed" "$1"
	sed -i 's/"build_commit": "79e2e74eb"/"build_commit": "8a1b2c3d4"/' "$1/off/gptoss-rocm.jsonl"
	sed -i 's/^79e2e74eb 2026-10-09$/8a1b2c3d4 2026-10-13/' "$1/off/meta.txt"
	sed -i 's/"n_threads": 16/"n_threads": 8/' "$1/translated/fn-vk.jsonl"
	cp -r "$1/off" "$1/off2"
}

@test "a rebuild in the middle: per side and row, and in the headline beside the claim it touches" {
	rebuilt "$d/r"
	# Three claims of 2 + 2 boots: q 0.06 by Benjamini-Hochberg over the
	# seven tests, so q = 0.10 makes them claims the note can stand beside.
	run --separate-stderr "$BOOTAB" compare --color never --fdr 0.10 "$d"/r/{pt,translated,off,pt2,off2}
	[ "$status" -eq 0 ]
	head=$(sed -n '1,/^$/p' <<<"$output" | tr '\n' ' ' | tr -s ' ')
	[[ "$head" == *"gptoss-rocm pp512@d65536 +4.1 % [+2.8, +5.4] faster, not comparable on off: build_commit 8a1b2c3d4 (pt: 79e2e74eb)"* ]]
	[[ "$head" == *"fn-vk pp512@d65536 +2.5 % [+1.9, +3.2] faster, not comparable on off: build 1 8a1b2c3d4 2026-10-13 (pt: 79e2e74eb 2026-10-09)"* ]]
	diff -u - <(grep -E '^(versions differ|not comparable)' <<<"$output") <<-'EOT'
	versions differ: build 1: pt=79e2e74eb 2026-10-09 translated=79e2e74eb 2026-10-09 off=8a1b2c3d4 2026-10-13 pt2=79e2e74eb 2026-10-09 off2=8a1b2c3d4 2026-10-13
	not comparable with pt: translated fn-vk: n_threads 8 (pt: 16)
	not comparable with pt: off gptoss-rocm: build_commit 8a1b2c3d4 (pt: 79e2e74eb)
	not comparable with pt: off2 gptoss-rocm: build_commit 8a1b2c3d4 (pt: 79e2e74eb)
	EOT
	run "$BOOTAB" compare --json "$d"/r/{pt,translated,off,pt2,off2}
	[ "$(jq -c '.not_comparable[:2]' <<<"$output")" = '[{"side":"translated","row":"fn-vk","what":"n_threads 8 (pt: 16)"},{"side":"off","row":"gptoss-rocm","what":"build_commit 8a1b2c3d4 (pt: 79e2e74eb)"}]' ]
	# The same sides unchanged compare with nothing flagged.
	run "$BOOTAB" compare --json "$seed"/{pt,translated,off,pt2}
	[ "$(jq -c '.not_comparable' <<<"$output")" = '[]' ]
	[[ "$output" != *"not comparable"* ]]
}

@test "fio: another fio version or job option on a side is named per row" {
	f="$BATS_TEST_DIRNAME/../fixtures/parsers/fio/randread.json"
	mkdir "$d/a" "$d/b" "$d/a2"
	cp "$f" "$d/a/disk.json"
	cp "$f" "$d/a2/disk.json"
	sed 's/"fio version" : "fio-3.33"/"fio version" : "fio-3.36"/; s/"iodepth" : "[0-9]*"/"iodepth" : "64"/' "$f" > "$d/b/disk.json"
	run --separate-stderr "$BOOTAB" compare --color never "$d/a" "$d/b" "$d/a2"
	[ "$status" -eq 0 ]
	[ "$(grep '^not comparable' <<<"$output")" = "not comparable with a: b disk: fio version fio-3.36 (a: fio-3.33), iodepth 64 (a: $(jq -r '.jobs[0]["job options"].iodepth' "$f"))" ]
}
