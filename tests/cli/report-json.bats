#!/usr/bin/env bats
# report.json against its documented schema (docs/report.schema.json,
# docs/report-json.md), validated with python3-jsonschema; the raw samples
# it carries; report.csv's documented columns; and bootab report's -o, csv
# and terminal behaviour.
bats_require_minimum_version 1.5.0

setup() {
	schema="$BATS_TEST_DIRNAME/../../docs/report.schema.json"
	doc="$BATS_TEST_DIRNAME/../../docs/report-json.md"
	validate="$BATS_TEST_DIRNAME/helpers/report-schema.py"
	r1="$BATS_TEST_DIRNAME/../../examples/case-study/round1"
	r2="$BATS_TEST_DIRNAME/../../examples/case-study/round2"
	c="$BATS_TEST_DIRNAME/../fixtures/campaign-abca"
	k="$BATS_TEST_DIRNAME/../fixtures/kernel-patch"
	lab="$BATS_TEST_DIRNAME/../fixtures/campaign-lab"
	all="$c/pt $c/translated $c/off $c/pt2 $c/translated2 $c/off2 $c/pt3 $c/translated3 $c/off3 $c/pt4"
	export XDG_DATA_HOME="$BATS_TEST_TMPDIR/data"
	out="$BATS_TEST_TMPDIR/json"
	mkdir -p "$out"
}

@test "report.json: every kind of report bootab writes validates against docs/report.schema.json" {
	# Plain side directories, by-run rows, a cost (the case study, both rounds).
	"$BOOTAB" compare --json --by-run strata-prefill --by-run strata-decode \
		"$r2/pt" "$r2/translated" "$r2/off" "$r2/pt2" > "$out/round2.json" 2>/dev/null
	"$BOOTAB" compare --json "$r1/off" "$r1/on" "$r1/off2" "$r1/on2" > "$out/round1.json" 2>/dev/null
	# Boot-level tests with Welch, paired and boots needed; several statistics; equivalence.
	# shellcheck disable=SC2086
	"$BOOTAB" compare --json $all > "$out/abca.json"
	# shellcheck disable=SC2086
	"$BOOTAB" compare --json --stat mean,min --equivalence 1% $all > "$out/abca-eq.json"
	# The machine's history judging a one-round campaign.
	"$BOOTAB" compare --history "$BATS_TEST_TMPDIR/h.json" --record-history "$c/pt" "$c/translated" "$c/off" "$c/pt2" \
		> /dev/null 2>&1
	"$BOOTAB" compare --json --history "$BATS_TEST_TMPDIR/h.json" "$c/pt3" "$c/translated3" "$c/off3" "$c/pt4" \
		> "$out/history.json"
	[ "$(jq '[.boot_level[] | select(.history)] | length' "$out/history.json")" -gt 0 ]
	# A test suite's failures as costs, min and mean.
	"$BOOTAB" compare --json --stat mean,min "$k/old" "$k/new" "$k/old2" > "$out/kernel.json"
	[ "$(jq '[.costs[] | select(.tests_failed)] | length' "$out/kernel.json")" -gt 0 ]
	# A recorded lab campaign (meta.json, kernels, proof), written by bootab report.
	cp -r "$lab" "$BATS_TEST_TMPDIR/lab"
	"$BOOTAB" report "$BATS_TEST_TMPDIR/lab" > /dev/null
	cp "$BATS_TEST_TMPDIR/lab/report.json" "$out/lab.json"
	# A side with a warning.
	mkdir -p "$BATS_TEST_TMPDIR/w/a" "$BATS_TEST_TMPDIR/w/a2"
	printf '1\n2\n3\n' > "$BATS_TEST_TMPDIR/w/a/x.txt"
	printf '1\n2\n4\n' > "$BATS_TEST_TMPDIR/w/a2/x.txt"
	printf 'not a result\n' > "$BATS_TEST_TMPDIR/w/a2/junk.txt"
	"$BOOTAB" compare --json "$BATS_TEST_TMPDIR/w/a" "$BATS_TEST_TMPDIR/w/a2" > "$out/warn.json" 2>/dev/null
	[ "$(jq '.warnings | length' "$out/warn.json")" -gt 0 ]
	run -0 /usr/bin/python3 "$validate" "$schema" "$out"/*.json
	[ "$output" = "" ]
	# What each says it is.
	for f in "$out"/*.json; do
		[ "$(jq -r '"\(.format) \(.format_version)"' "$f")" = "bootab-report 2" ]
		[ "$(jq -r .bootab_version "$f")" = "$("$BOOTAB" --version | sed 's/^bootab //')" ]
	done
}

@test "report.json: the schema refuses what is not a report" {
	"$BOOTAB" compare --json "$r2/pt" "$r2/translated" "$r2/off" "$r2/pt2" > "$out/good.json" 2>/dev/null
	run -0 /usr/bin/python3 "$validate" "$schema" "$out/good.json"
	jq 'del(.format_version)' "$out/good.json" > "$out/no-version.json"
	jq '.comparisons[1].screen_verdict = "better"' "$out/good.json" > "$out/verdict.json"
	jq '.comparisons[0].samples[0] = "603.8"' "$out/good.json" > "$out/sample.json"
	jq '.generated = "yesterday"' "$out/good.json" > "$out/time.json"
	jq '.headline_of_sorts = 1' "$out/good.json" > "$out/extra.json"
	for f in no-version verdict sample time extra; do
		run -1 /usr/bin/python3 "$validate" "$schema" "$out/$f.json"
		[ "${#lines[@]}" -eq 1 ]
		[[ "$output" == "$out/$f.json: "* ]]
	done
}

@test "report.json: the raw samples of every boot, as its files hold them" {
	"$BOOTAB" compare --json --by-run strata-prefill --by-run strata-decode \
		"$r2/pt" "$r2/translated" "$r2/off" "$r2/pt2" > "$out/r2.json" 2>/dev/null
	# Strata's runs are one number per line: the samples are those lines, in order.
	[ "$(jq -c '.comparisons[] | select(.row == "strata-prefill" and .side == "off") | .samples' "$out/r2.json")" = \
	  "$(grep -v '^#' "$r2/off/strata-prefill.txt" | jq -sc .)" ]
	# Every boot's mean and n are its samples' (the comparison's statistic is the mean).
	jq -e '[.comparisons[] | select(.value != null)] | length > 0 and all(
		(.samples | length) == .n and
		(((.samples | add) / (.samples | length)) - .value | fabs) <= 1e-9 * (.value | fabs))' "$out/r2.json" > /dev/null
	# The kernel patch's dma_map_benchmark: five runs per boot, min is their smallest.
	"$BOOTAB" compare --json --stat mean,min "$k/old" "$k/new" "$k/old2" > "$out/k.json"
	jq -e '[.comparisons[] | select(.stats)] | length > 0 and all(
		(.samples | min) == (.stats[] | select(.stat == "min") | .value))' "$out/k.json" > /dev/null
}

@test "report.json: docs/report-json.md names every field of the schema, and report.csv's every column" {
	fields=$(jq -r '[.. | objects | .properties? // empty | keys[]] | unique | .[]' "$schema")
	[ "$(printf '%s\n' "$fields" | wc -l)" -gt 80 ]
	for f in $fields; do
		grep -q "\`$f\`" "$doc" || { echo "docs/report-json.md does not name $f"; return 1; }
	done
	"$BOOTAB" compare --format csv "$r2/pt" "$r2/pt2" > "$BATS_TEST_TMPDIR/out.csv" 2>/dev/null
	head -1 "$BATS_TEST_TMPDIR/out.csv" | tr ',' '\n' > "$BATS_TEST_TMPDIR/columns"
	[ "$(wc -l < "$BATS_TEST_TMPDIR/columns")" -eq 45 ]
	# The csv section's table lists the columns in order.
	diff -u "$BATS_TEST_TMPDIR/columns" <(sed -n '/^## report.csv/,$p' "$doc" | grep '^| `' |
		sed 's/ | [^|]*|$//; s/^| //' | tr -d '`' | sed 's/, /\n/g')
}

@test "report.json: each real at the fewest digits that read back as the double, the samples as their files write them" {
	"$BOOTAB" compare --json --by-run strata-prefill --by-run strata-decode \
		"$r2/pt" "$r2/translated" "$r2/off" "$r2/pt2" > "$out/r2.json" 2>/dev/null
	# The samples' text is the file's lines (640.15, not 640.14999999999998).
	[ "$(jq -c '.comparisons[] | select(.row == "strata-prefill" and .side == "off") | .samples' "$out/r2.json" |
		tr -d '[]' | tr , '\n')" = "$(grep -v '^#' "$r2/off/strata-prefill.txt")" ]
	# The levels as the plan and the defaults give them.
	# shellcheck disable=SC2086
	"$BOOTAB" compare --json $all > "$out/abca.json" 2>/dev/null
	grep -qx '  "alpha": 0.05,' "$out/abca.json"
	grep -qx '      "power": 0.8,' "$out/abca.json"
	# Every real in both: the shortest decimal that reads back as its double (Python's repr is that decimal).
	/usr/bin/python3 -c '
import decimal, re, sys
for path in sys.argv[1:]:
    text = re.sub(r"\"(?:[^\"\\]|\\.)*\"", "\"\"", open(path).read())
    reals = [t for t in re.findall(r"-?[0-9][0-9.eE+-]*", text) if re.search("[.eE]", t)]
    bad = [t for t in reals if decimal.Decimal(t) != decimal.Decimal(repr(float(t)))]
    assert len(reals) > 100 and not bad, (path, len(reals), bad[:5])
' "$out/r2.json" "$out/abca.json"
}

@test "bootab report -o FILE: one file, the campaign directory untouched" {
	d="$BATS_TEST_TMPDIR/lab"
	cp -r "$lab" "$d"
	find "$d" -exec touch -d '2026-11-30 01:50:00' {} +
	before=$(cd "$d" && find . -printf '%p %s %T@\n' | sort | sha256sum)
	run -0 --separate-stderr "$BOOTAB" report "$d" -o "$BATS_TEST_TMPDIR/page.html"
	[ "$output" = "" ]
	[ "$(cd "$d" && find . -printf '%p %s %T@\n' | sort | sha256sum)" = "$before" ]
	# The extension names the format; --format wins over it.
	head -1 "$BATS_TEST_TMPDIR/page.html" | grep -qx '<!DOCTYPE html>'
	"$BOOTAB" report --format json "$d" -o "$BATS_TEST_TMPDIR/report.txt"
	jq -e '.format == "bootab-report"' "$BATS_TEST_TMPDIR/report.txt" > /dev/null
	"$BOOTAB" report "$d" --output "$BATS_TEST_TMPDIR/out.csv"
	head -1 "$BATS_TEST_TMPDIR/out.csv" | grep -q '^row,metric,side,mode,stat,'
	"$BOOTAB" report --format md -o "$BATS_TEST_TMPDIR/out.any" "$d"
	grep -q '^| side | mode | note |$' "$BATS_TEST_TMPDIR/out.any"
	# - is stdout; the txt report is the one report.txt holds, up to its time-free content.
	run -0 "$BOOTAB" report -o - "$d"
	diff -u <(printf '%s\n' "$output") <(sed "s:/tmp/runs/mini-20261130-014214:$d:" "$lab/report.txt")
	[ "$(cd "$d" && find . -printf '%p %s %T@\n' | sort | sha256sum)" = "$before" ]
	# A file that cannot be written: an error naming it, nothing half written.
	run -2 "$BOOTAB" report "$d" -o "$BATS_TEST_TMPDIR/no/such/dir/x.html"
	[[ "$output" == "bootab: cannot write $BATS_TEST_TMPDIR/no/such/dir/x.html: "* ]]
	run -2 "$BOOTAB" report "$d" -o
	[ "$output" = "bootab: -o needs a value; see 'bootab help report'" ]
}

@test "bootab report --format csv prints the csv; html is not dumped to a terminal" {
	d="$BATS_TEST_TMPDIR/lab"
	cp -r "$lab" "$d"
	rm -f "$d"/report.*
	run -0 --separate-stderr "$BOOTAB" report --format csv "$d"
	[ "${lines[0]%%,stat,*}" = "row,metric,side,mode" ]
	[ "${#lines[@]}" -eq 9 ]
	# The campaign's reports are written as always; no report.csv among them.
	[ "$(cd "$d" && echo report.*)" = "report.html report.json report.md report.txt" ]
	# On a terminal, the page's path instead of the page.
	run -0 script -qec "$BOOTAB report --format html $d" /dev/null
	[[ "$output" == "bootab: wrote $d/report.html (open it in a browser; -o FILE writes it elsewhere)"* ]]
	[[ "$output" != *"<html"* ]]
	# Piped, the page as before.
	"$BOOTAB" report --format html "$d" | cmp - "$d/report.html"
}

@test "SOURCE_DATE_EPOCH is the time report.json says it was generated: one input, one report" {
	# shellcheck disable=SC2086
	SOURCE_DATE_EPOCH=1764590400 "$BOOTAB" compare --json $all > "$out/a.json" 2>/dev/null
	[ "$(jq -r .generated "$out/a.json")" = "2025-12-01T12:00:00Z" ]
	sleep 1.1
	# shellcheck disable=SC2086
	SOURCE_DATE_EPOCH=1764590400 "$BOOTAB" compare --json $all > "$out/b.json" 2>/dev/null
	cmp "$out/a.json" "$out/b.json"
	# A campaign's reports written again: report.json byte for byte (the page has no time in it).
	d="$BATS_TEST_TMPDIR/lab"
	cp -r "$lab" "$d"
	SOURCE_DATE_EPOCH=0 "$BOOTAB" report "$d" > /dev/null
	cp "$d/report.json" "$out/first.json"
	cp "$d/report.html" "$out/first.html"
	sleep 1.1
	SOURCE_DATE_EPOCH=0 "$BOOTAB" report "$d" > /dev/null
	[ "$(jq -r .generated "$d/report.json")" = "1970-01-01T00:00:00Z" ]
	cmp "$out/first.json" "$d/report.json"
	cmp "$out/first.html" "$d/report.html"
	# Not a whole number of seconds: ignored, the time now.
	# shellcheck disable=SC2086
	SOURCE_DATE_EPOCH=soon "$BOOTAB" compare --json $all > "$out/c.json" 2>/dev/null
	[ "$(jq -r .generated "$out/c.json")" != "1970-01-01T00:00:00Z" ]
	[[ "$(jq -r .generated "$out/c.json")" == "$(date -u +%Y-%m-)"* ]]
	/usr/bin/python3 "$validate" "$schema" "$out/a.json" "$d/report.json"
}

@test "a side booted by kexec is marked in every format: txt, md, html, json, csv and mail" {
	d="$BATS_TEST_TMPDIR/kexec"
	cp -r "$lab" "$d"
	jq '.boot_method = "reboot"' "$lab/translated/meta.json" >"$d/translated/meta.json"
	jq '.boot_method = "kexec"' "$lab/passthrough/meta.json" >"$d/passthrough/meta.json"
	run -0 "$BOOTAB" compare "$d/translated" "$d/passthrough"
	[[ "$output" == *$'\n  translated   mode translated     first side\n'* ]]
	[[ "$output" == *$'\n  passthrough  mode passthrough    kexec boot\n'* ]]
	run -0 "$BOOTAB" compare --format md "$d/translated" "$d/passthrough"
	[[ "$output" == *$'\n| translated | translated | first side |\n| passthrough | passthrough | kexec boot |\n'* ]]
	run -0 "$BOOTAB" compare --format html "$d/translated" "$d/passthrough"
	[ "$(grep -c 'kexec boot' <<<"$output")" -eq 1 ]
	"$BOOTAB" compare --json "$d/translated" "$d/passthrough" >"$out/kexec.json"
	[ "$(jq -c '[.sides[] | [.label, .kexec]]' "$out/kexec.json")" = '[["translated",false],["passthrough",true]]' ]
	run -0 /usr/bin/python3 "$validate" "$schema" "$out/kexec.json"
	run -0 "$BOOTAB" compare --format csv "$d/translated" "$d/passthrough"
	[ "$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "boot") c = i; next } { print $3 "=" $c }' <<<"$output" | sort -u | tr '\n' ' ')" = "passthrough=kexec translated= " ]
	run -0 "$BOOTAB" compare --format mail "$d/translated" "$d/passthrough"
	[ "$(grep -c '^bootab: kexec boot (no firmware reset): passthrough$' <<<"$output")" -eq 1 ]
	# Without boot_method (a plain directory, an older campaign) nothing is marked.
	run -0 "$BOOTAB" compare "$lab/translated" "$lab/passthrough"
	[[ "$output" != *"kexec"* ]]
}

@test "the [prepare] the boots ran is named in txt, md, html and json: once when alike, else each side's; escaped; a bad one warned" {
	d="$BATS_TEST_TMPDIR/prepare"
	cp -r "$lab" "$d"
	# A command with an escape sequence and a backtick, as a box could have recorded it.
	prep='[{"command": "echo 3 > /proc/sys/vm/drop_caches", "rc": 0, "output": ""}, {"command": "printf \u001b[2J `x`", "rc": 0, "output": "x"}]'
	for s in translated passthrough; do
		jq --argjson p "$prep" '.prepare = $p' "$lab/$s/meta.json" >"$d/$s/meta.json"
	done
	run -0 "$BOOTAB" compare "$d/translated" "$d/passthrough"
	[[ "$output" == *$'\nprepare as root on every boot, after verify and before the rows:\n  rc=0   echo 3 > /proc/sys/vm/drop_caches\n  rc=0   printf \\x1b[2J `x`\n'* ]]
	[[ "$output" != *$'\033'* ]]
	run -0 "$BOOTAB" compare --format md "$d/translated" "$d/passthrough"
	[[ "$output" == *$'\n**prepare as root on every boot, after verify and before the rows:**\n\n- `echo 3 > /proc/sys/vm/drop_caches` rc=0\n- `` printf \\x1b[2J `x` `` rc=0\n'* ]]
	run -0 "$BOOTAB" compare --format html "$d/translated" "$d/passthrough"
	[ "$(grep -c 'id="prepare">prepare as root on every boot' <<<"$output")" -eq 1 ]
	[ "$(grep -o '<td class="mono">echo 3 &gt; /proc/sys/vm/drop_caches</td><td class="num">0</td>' <<<"$output" | wc -l)" -eq 1 ]
	"$BOOTAB" compare --json "$d/translated" "$d/passthrough" >"$out/prepare.json"
	[ "$(jq -c '[.sides[].prepare[1] | [.command, .rc]]' "$out/prepare.json")" = '[["printf \\x1b[2J `x`",0],["printf \\x1b[2J `x`",0]]' ]
	run -0 /usr/bin/python3 "$validate" "$schema" "$out/prepare.json"

	# Another prepare on one boot: each side's own.
	jq '.prepare = [{"command": "cpupower frequency-set -g performance", "rc": 0, "output": ""}]' "$lab/passthrough/meta.json" >"$d/passthrough/meta.json"
	run -0 "$BOOTAB" compare "$d/translated" "$d/passthrough"
	[[ "$output" == *$'\nprepare as root after verify and before the rows, not the same on every boot:\n  translated   rc=0   echo 3 > /proc/sys/vm/drop_caches\n  translated   rc=0   printf \\x1b[2J `x`\n  passthrough  rc=0   cpupower frequency-set -g performance\n'* ]]
	run -0 "$BOOTAB" compare --format md "$d/translated" "$d/passthrough"
	[[ "$output" == *$'\n- passthrough: `cpupower frequency-set -g performance` rc=0\n'* ]]
	run -0 "$BOOTAB" compare --format html "$d/translated" "$d/passthrough"
	[ "$(grep -o '<tr><td>passthrough</td><td class="mono">cpupower frequency-set -g performance</td>' <<<"$output" | wc -l)" -eq 1 ]
	# A boot without one, beside one with.
	cp "$lab/passthrough/meta.json" "$d/passthrough/meta.json"
	run -0 "$BOOTAB" compare "$d/translated" "$d/passthrough"
	[[ "$output" == *$'\n  passthrough  (none recorded)\n'* ]]
	"$BOOTAB" compare --json "$d/translated" "$d/passthrough" >"$out/prepare.json"
	[ "$(jq -c '[.sides[] | .prepare | length]' "$out/prepare.json")" = '[2,0]' ]

	# What is not a prepare: one line naming the file and field; the rest still reports.
	jq '.prepare = [{"command": "a", "rc": 300}, {"command": 7, "rc": 0}, {"command": "sync", "rc": 0}]' "$lab/passthrough/meta.json" >"$d/passthrough/meta.json"
	run --separate-stderr -0 "$BOOTAB" compare "$d/translated" "$d/passthrough"
	[[ "$stderr" == *"passthrough/meta.json: prepare[0].rc: not an exit code from 0 to 255, ignoring that command"* ]]
	[[ "$stderr" == *"passthrough/meta.json: prepare[1].command: not a string of 1 to 4096 bytes, ignoring that command"* ]]
	[[ "$output" == *$'\n  passthrough  rc=0   sync\n'* ]]
	jq '.prepare = "sync"' "$lab/passthrough/meta.json" >"$d/passthrough/meta.json"
	run --separate-stderr -0 "$BOOTAB" compare "$d/translated" "$d/passthrough"
	[[ "$stderr" == *"passthrough/meta.json: prepare: not an array, ignoring it"* ]]
	# Without a prepare recorded (an older campaign) nothing is said.
	run -0 "$BOOTAB" compare "$lab/translated" "$lab/passthrough"
	[[ "$output" != *"prepare"* ]]
}

@test "report.json: design_cost says what the txt summary's cost line says" {
	# shellcheck disable=SC2086
	run --separate-stderr "$BOOTAB" compare --color never $all
	[ "$status" -eq 0 ]
	line=$(printf '%s\n' "$output" | sed -n '/^cost: /,/^[a-z]/p' | sed '$d' | tr -s ' \n' ' ')
	# shellcheck disable=SC2086
	"$BOOTAB" compare --json $all > "$out/abca.json"
	expect=$(jq -r '.design_cost | def d: round | if . >= 3600 then "\(. / 3600 | floor)h\(. % 3600 / 60 | floor | tostring | if length < 2 then "0" + . else . end)m"
		else "\(. / 60 | floor)m\(. % 60 | tostring | if length < 2 then "0" + . else . end)s" end;
		"cost: \(.boots) boots over \(.modes) modes, \(.box_s | d) of box time (reboots and timed reps); the cheapest design that finds its claim with \(.cheapest.power * 100)% power: \(.cheapest.boots_per_mode) boots per mode (rounds = \(.cheapest.boots_per_mode)), " +
		(.cheapest.rows | map("reps = \(.reps) in [row \"\(.row)\"]") | join(", ")) + ", \(.cheapest.box_s | d) "' "$out/abca.json")
	[ "$line" = "$expect" ] || { printf '%s\n%s\n' "$line" "$expect"; false; }
	# The recorded lab campaign: timed, no claim, so no cheapest design; a side with no time, none at all.
	[ "$(jq -c '.design_cost | [.boots, .modes, .cheapest]' "$lab/report.json")" = "[2,2,null]" ]
	grep -q '^cost: 2 boots over 2 modes, 4m31s of box time' "$lab/report.txt"
	[ "$(jq '.design_cost.box_s | round' "$lab/report.json")" -eq 271 ]
}
