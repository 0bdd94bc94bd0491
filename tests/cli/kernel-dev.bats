#!/usr/bin/env bats
# The kernel developer's new,old table (seed 004) on several boots: read
# from dmesg, journalctl -k and KTAP with kunit_info's prefix, new paired
# with old inside each boot, judged across the boots
# (tests/fixtures/kernel-dev: how the four boots were made).
bats_require_minimum_version 1.5.0

setup() {
	kd="$BATS_TEST_DIRNAME/../fixtures/kernel-dev"
	d="$BATS_TEST_TMPDIR"
}

# pct TABLE PGSZ STAT: 100 (1 - exp(mean over the boots of log(new / old)))
# of the fixture's own lines, each read past its prefix.
pct() {
	for b in b1 b2 b3 b4; do
		sed -n "/# test_map_unmap_benchmark: $1\$/,/ok 1\|unmap_pages\$/p" "$kd/$b/kernel.txt" |
			sed 's/.*test_map_unmap_benchmark: //' | grep "^$2,"
	done | awk -F'[ ,]+' -v stat="$3" '{
		n = stat == "avg" ? $2 : $4; o = stat == "avg" ? $3 : $5; s += log(n / o); k++ }
		END { printf "%.1f\n", 100 * (1 - exp(s / k)) }'
}

@test "each kernel log form gives the table: dmesg, journalctl -k, KTAP, prefixed lines alone" {
	for b in b1 b2 b3 b4; do
		run --separate-stderr "$BOOTAB" compare --json "$kd/$b" "$kd/b1"
		[ "$status" -eq 0 ]
		[ "$stderr" = "" ]
		[ "$(jq -r '[.comparisons[].metric | select(endswith(" new") or endswith(" old"))] | unique | length' <<<"$output")" = 24 ]
	done
}

@test "four boots: new against old per table and row, avg and min, boot-level CI and verdict" {
	run --separate-stderr "$BOOTAB" compare --json "$kd"/b{1,2,3,4}
	[ "$status" -eq 0 ]
	[ "$(jq -r '[.new_old[] | .table + " " + .size] | join(",")' <<<"$output")" = \
		"map_pages 2^12,map_pages 2^21,map_pages 2^30,unmap_pages 2^12,unmap_pages 2^21,unmap_pages 2^30" ]
	[ "$(jq -r '[.new_old[] | .avg.boots, .min.boots] | unique | join(",")' <<<"$output")" = 4 ]
	for row in "map_pages 2^12" "map_pages 2^30" "unmap_pages 2^21"; do
		read -r table size <<<"$row"
		for stat in avg min; do
			[ "$(printf '%.1f\n' "$(jq -r --arg n "$row" --arg s "$stat" '.new_old[] | select(.name == $n) | .[$s].pct' <<<"$output")")" = "$(pct "$table" "$size" "$stat")" ]
		done
	done
	# The verdict is the CI's: below 0 slower, above faster, across 0 within noise.
	[ "$(jq -r '[.new_old[] | .min | (if .hi_pct < 0 then "slower" elif .lo_pct > 0 then "faster" else "within noise" end) == .verdict] | all' <<<"$output")" = true ]
	[ "$(jq -r '[.new_old[] | .min.verdict] | join(",")' <<<"$output")" = "slower,slower,within noise,slower,slower,faster" ]
	run --separate-stderr "$BOOTAB" compare --color never "$kd"/b{1,2,3,4}
	diff -u - <(sed -n '1,/^$/p' <<<"$output") <<-'EOT'
	new against old, paired in each boot: 4 boots, ns, + is better, 95% CI of the boots
	                    avg new,old      % CI                       min new,old      % CI
	  map_pages 2^12        339,255  -32.9 [-34.7, -31.2]   slower      295,219  -34.9 [-36.6, -33.2]   slower
	  map_pages 2^21        344,248  -38.6 [-41.6, -35.6]   slower      314,227  -38.5 [-41.7, -35.4]   slower
	  map_pages 2^30        232,243   +4.9 [-0.8, +10.2]    noise       210,220   +4.5 [-1.7, +10.3]    noise
	  unmap_pages 2^12      396,278  -42.1 [-45.2, -39.1]   slower      353,242  -45.8 [-49.0, -42.6]   slower
	  unmap_pages 2^21      328,267  -22.7 [-25.2, -20.2]   slower      303,244  -24.0 [-26.2, -21.8]   slower
	  unmap_pages 2^30      241,257   +6.1 [+2.6, +9.5]     faster      217,233   +6.6 [+3.4, +9.8]     faster

	EOT
}

@test "--format mail: the list's own table with a verdict column, names whole, 72 columns" {
	run --separate-stderr "$BOOTAB" compare --format mail "$kd"/b{1,2,3,4}
	[ "$status" -eq 0 ]
	diff -u - <(sed -n '1,/^$/p' <<<"$output") <<-'EOT'
	bootab: new against old, paired in each boot, 4 boots, % +ve is better;
	  verdict avg/min: by the 95% CI of the boots' ratios
	map_pages
	    pgsz, avg new,old ns,  avg %, min new,old ns,  min %, verdict
	    2^12,        339,255, -32.94,        295,219, -34.90, slower/slower
	    2^21,        344,248, -38.60,        314,227, -38.51, slower/slower
	    2^30,        232,243,  +4.86,        210,220,  +4.46, noise/noise
	unmap_pages
	    pgsz, avg new,old ns,  avg %, min new,old ns,  min %, verdict
	    2^12,        396,278, -42.10,        353,242, -45.80, slower/slower
	    2^21,        328,267, -22.71,        303,244, -24.00, slower/slower
	    2^30,        241,257,  +6.11,        217,233,  +6.65, faster/faster

	EOT
	[ "$(awk 'length > 72' <<<"$output")" = "" ]
}

@test "one boot: the pairing is shown, no CI, verdict one boot" {
	mkdir "$d/a" "$d/b"
	cp "$kd/b1/kernel.txt" "$d/a/"
	printf '5\n6\n' > "$d/b/other.txt"
	printf '5\n6\n' > "$d/a/other.txt"
	run --separate-stderr "$BOOTAB" compare --json "$d/a" "$d/b"
	[ "$status" -eq 0 ]
	[ "$(jq -r '.new_old[0].min | [.boots, .verdict, .lo_pct] | map(tostring) | join(" ")' <<<"$output")" = "1 one boot null" ]
}

@test "two kernels booted in turn: each kernel's pairs apart, the A/B across boots as ever" {
	for b in b1 b2 b3 b4; do
		cp -r "$kd/$b" "$d/$b"
		k=6.18.0-old; case $b in b3|b4) k=6.18.0-new;; esac
		printf '2026-01-23T14:00:00+00:00\n%s\nconsole=ttyS0\nstart 2026-01-23T14:00:01+00:00 load 0.1 0.1 0.1 1/100 1\nkernel rc=0 2026-01-23T14:00:02+00:00\nend 2026-01-23T14:00:02+00:00\n' "$k" > "$d/$b/meta.txt"
	done
	run --separate-stderr "$BOOTAB" compare --json --mode b1=old --mode b2=old --mode b3=new --mode b4=new "$d"/b{1,2,3,4}
	[ "$status" -eq 0 ]
	[ "$(jq -r '[.new_old[] | .kernel + " " + (.min.boots | tostring)] | unique | join(",")' <<<"$output")" = "6.18.0-new 2,6.18.0-old 2" ]
	[ "$(jq -r '[.new_old[]] | length' <<<"$output")" = 12 ]
	[ "$(jq -r '[.comparisons[] | select(.metric == "map_pages 2^12 min new")] | length > 0' <<<"$output")" = true ]
}

@test "a bad row in a dmesg capture: the file, its line and the field" {
	mkdir "$d/a"
	sed 's/2^21, 335,243 , 306,222/2^21, 335,x , 306,222/' "$kd/b1/kernel.txt" > "$d/a/kernel.txt"
	run --separate-stderr "$BOOTAB" compare --color never "$d/a" "$kd/b2"
	line=$(grep -n '2^21, 335,x' "$d/a/kernel.txt" | cut -d: -f1)
	[[ "$stderr" == *"$d/a/kernel.txt:$line:"*"avg old 'x' is not a time"* ]]
}

# The table rows as report.json holds them, in the reports' words:
# "name|new,old|pct|[lo, hi]|verdict", avg then min.
json_rows() {
	jq -r '.new_old[] | [.name] + ([.avg, .min] | map(.new, .old, .pct, .lo_pct, .hi_pct, .verdict) | flatten) | join("\t")' <<<"$1" |
		awk -F'\t' '{ printf "%s", $1
			for (i = 2; i <= NF; i += 6)
				printf "|%.0f,%.0f|%+.1f|[%+.1f, %+.1f]|%s", $i, $(i + 1), $(i + 2), $(i + 3), $(i + 4), $(i + 5)
			print "" }'
}

@test "report.md, report.html and --format csv carry the paired table, as report.json" {
	run --separate-stderr "$BOOTAB" compare --json "$kd"/b{1,2,3,4}
	[ "$status" -eq 0 ]
	want=$(json_rows "$output")
	[ "$(wc -l <<<"$want")" = 6 ]
	json=$output
	run --separate-stderr "$BOOTAB" compare --format md "$kd"/b{1,2,3,4}
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "New against old, paired in each boot: 4 boots, ns, + is better, 95% CI of the boots" ]
	[ "${lines[1]}" = "| row | avg new,old | % | CI | verdict | min new,old | % | CI | verdict |" ]
	# The separator line, then the six rows.
	[ "$(sed -n 4p <<<"$output")" = "|---|---:|---:|---:|---|---:|---:|---:|---|" ]
	diff -u <(printf '%s\n' "$want") <(sed -n '5,10p' <<<"$output" | sed 's/^| //; s/ |$//; s/ | /|/g')
	run --separate-stderr "$BOOTAB" compare --format html "$kd"/b{1,2,3,4}
	[ "$status" -eq 0 ]
	html=$(sed -n '/<section id="new-old">/,/<\/section>/p' <<<"$output")
	diff -u <(printf '%s\n' "$want") <(grep '^<tr><td>' <<<"$html" |
		sed -E 's|<td class="verdict [^"]*">|<td>|g; s|<td class="num">|<td>|g; s|^<tr><td>||; s|</td></tr>$||; s|</td><td>|\||g')
	[ "$(grep -o 'class="verdict v-loss">slower' <<<"$html" | wc -l)" = 8 ]
	[ "$(grep -o 'class="verdict v-gain">faster' <<<"$html" | wc -l)" = 2 ]
	# The section comes before the answer, as in the text report.
	[ "$(grep -n '<section id="new-old">\|<section id="answer"\|<section id="headline"' <<<"$output" | head -1 | grep -c new-old)" = 1 ]
	run --separate-stderr "$BOOTAB" compare --format csv "$kd"/b{1,2,3,4}
	[ "$status" -eq 0 ]
	# Every line has the header's 45 columns; per table row and statistic a new and an old line.
	[ "$(awk -F, '{ print NF }' <<<"$output" | sort -u)" = 45 ]
	[ "$(awk -F, '$24 == "new-old"' <<<"$output" | wc -l)" = 12 ]
	[ "$(awk -F, '$4 == "old" && $11 == 4' <<<"$output" | wc -l)" = 12 ]
	for stat in avg min; do
		got=$(awk -F, -v s="$stat" '$5 == s && $4 == "new" { printf "%s %.4f %.4f %.4f %.4f %s\n", $2, $8, $27, $28, $29, $33 }' <<<"$output")
		exp=$(jq -r --arg s "$stat" '.new_old[] | "\(.name) \(.[$s].new) \(.[$s].pct) \(.[$s].lo_pct) \(.[$s].hi_pct) \(.[$s].verdict)"' <<<"$json" |
			awk '{ printf "%s %s %.4f %.4f %.4f %.4f", $1, $2, $3, $4, $5, $6; for (i = 7; i <= NF; i++) printf " %s", $i; print "" }')
		[ "$got" = "$exp" ]
		got=$(awk -F, -v s="$stat" '$5 == s && $4 == "old" { printf "%s %.4f\n", $2, $8 }' <<<"$output")
		exp=$(jq -r --arg s "$stat" '.new_old[] | "\(.name) \(.[$s].old)"' <<<"$json" | awk '{ printf "%s %s %.4f\n", $1, $2, $3 }')
		[ "$got" = "$exp" ]
	done
}
