#!/usr/bin/env bats
# bootab compare on bad input: every problem is one line naming the file (and
bats_require_minimum_version 1.5.0
# line, column or field), the rest still prints, and the exit code says what
# happened (0 compared, 1 nothing to compare, 2 usage or I/O error).

setup() {
	d="$BATS_TEST_TMPDIR"
	mkdir -p "$d/a" "$d/b" "$d/a2" "$d/empty"
	printf '100\n101\n99\n' > "$d/a/x.txt"
	printf '110\n111\n109\n' > "$d/b/x.txt"
	printf '100.5\n101.5\n99.5\n' > "$d/a2/x.txt"
}

@test "a missing directory is an error naming it; the rest still compares; exit 2" {
	run --separate-stderr "$BOOTAB" compare "$d/a" "$d/missing" "$d/b" "$d/a2"
	[ "$status" -eq 2 ]
	[ "$stderr" = "bootab: cannot read side directory '$d/missing': No such file or directory" ]
	[[ "$output" == *"+10.0%"*"+0.5%"*"counts"* ]]
}

@test "an empty directory is named; with nothing comparable the exit is 1" {
	run --separate-stderr "$BOOTAB" compare "$d/empty" "$d/a"
	[ "$status" -eq 1 ]
	[ "$output" = "" ]
	diff -u - <(printf '%s\n' "$stderr") <<-EOT
	bootab: warning: $d/empty: no results in this directory
	bootab: warning: row 'x' is present on a only
	bootab: no metric is present on the first side and another: nothing could be compared
	EOT
}

@test "one directory is a usage error" {
	run --separate-stderr "$BOOTAB" compare "$d/a"
	[ "$status" -eq 2 ]
	[[ "$stderr" == "bootab: compare needs at least two side directories"* ]]
}

@test "unrecognised files, JSON errors with line and column, non-numeric samples, zero means, one-sided rows" {
	printf 'some notes\nabout this boot\n' > "$d/a/notes.md"
	printf '{"n_prompt": 512, "n_gen": 0,\n "avg_ts": oops}\n' > "$d/b/bad.jsonl"
	printf '{"n_prompt": 512, "n_gen": 0,\n "avg_ts": 1}\n' > "$d/a/bad.jsonl"
	printf '1.0\nabc\n' > "$d/a2/y.txt"
	printf '1.0\n2.0\n' > "$d/a/y.txt"
	printf '0\n0\n' > "$d/a/z.txt"
	printf '3\n4\n' > "$d/b/z.txt"
	printf '5\n' > "$d/b/only.txt"
	run --separate-stderr "$BOOTAB" compare "$d/a" "$d/b" "$d/a2"
	[ "$status" -eq 0 ]
	diff -u - <(printf '%s\n' "$stderr") <<-EOT
	bootab: warning: $d/a/bad.jsonl:1:1: llama-bench result without model_type, ignoring the file
	bootab: warning: $d/a/notes.md: not a benchmark output bootab recognises, ignoring
	bootab: warning: $d/b/bad.jsonl:2:15: invalid JSON: invalid token near 'oops', ignoring the file
	bootab: warning: $d/a2/y.txt:2:1: not a number: 'abc', ignoring the file
	bootab: warning: row 'y' is present on a only
	bootab: warning: row 'z' on a: mean is zero or negative, no percentage can be computed, ignoring it there
	bootab: warning: row 'z' is present on b only
	bootab: warning: row 'only' is present on b only
	EOT
	# x still compares.
	[[ "$output" == *"  b   "*"+10.0%"*"+0.5%"*"counts"* ]]
}

@test "meta.json: mode, versions that differ, check rows, bad fields named by path" {
	mkdir -p "$d/base" "$d/test" "$d/again"
	cat > "$d/base/meta.json" <<-'EOT'
	{"format": "bootab-results", "format_version": 1, "mode": "pt",
	 "versions": {"llama.cpp": "79e2e74eb"},
	 "rows": [{"name": "bench", "kind": "bench", "rc": 0,
	           "metrics": [{"name": "lat", "better": "lower", "unit": "ms", "samples": [10, 10.1, 9.9]}]},
	          {"name": "npu", "kind": "check", "rc": 0}]}
	EOT
	cat > "$d/test/meta.json" <<-'EOT'
	{"mode": "off", "versions": {"llama.cpp": "80aa11bb2"},
	 "rows": [{"name": "bench", "metrics": [{"name": "lat", "better": "lower", "unit": "ms", "samples": [9, 9.1, 8.9]}]},
	          {"name": "npu", "kind": "check", "rc": 1},
	          {"name": "broken", "metrics": [{"name": "m", "samples": [1, "two"]}]}]}
	EOT
	cat > "$d/again/meta.json" <<-'EOT'
	{"mode": "pt", "versions": {"llama.cpp": "79e2e74eb"},
	 "rows": [{"name": "bench", "metrics": [{"name": "lat", "better": "lower", "unit": "ms", "samples": [10.1, 10.2, 10.0]}]},
	          {"name": "npu", "kind": "check", "rc": 0}]}
	EOT
	# A recorded row that cannot be read stops the report, naming it.
	run --separate-stderr "$BOOTAB" compare --color never "$d/base" "$d/test" "$d/again"
	[ "$status" -eq 2 ]
	[ -z "$output" ]
	diff -u - <(printf '%s\n' "$stderr") <<-EOT
	bootab: warning: $d/test/meta.json: rows[2].metrics[0].samples[1]: not a number: row 'broken' cannot be read
	bootab: 1 recorded row of '$d/test' cannot be read: no report without it
	EOT
	jq 'del(.rows[2])' "$d/test/meta.json" > "$d/test/meta.json.new" && mv "$d/test/meta.json.new" "$d/test/meta.json"
	run --separate-stderr "$BOOTAB" compare --color never "$d/base" "$d/test" "$d/again"
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	# The headline first: one boot of off is not tested, whatever the screen says of its 10 % less time;
	# the check that failed is its cost.
	[ "${lines[0]}" = "off vs pt: not tested (one boot of off: 2 boots per mode, or a history of this box, would test it);" ]
	[ "${lines[1]}" = "    4 boots per mode would detect 2 %; npu failed, rc=1 (cost)" ]
	[[ "${lines[4]}" == "  test   mode off            cost: npu failed, rc=1" ]]
	[[ "${lines[5]}" == "  again  mode pt             repeat of base: its delta is the drift" ]]
	[ "${lines[6]}" = "versions differ: llama.cpp: base=79e2e74eb test=80aa11bb2 again=79e2e74eb" ]
	# 10 % less latency prints as +10 % (+ is better); drift is -1 %.
	[[ "$output" == *"  test    "*"9.00 ± 0.10"*"+10.0%"*"-1.0%"*"counts"* ]]
}

@test "a JSON syntax error in meta.json names file, line and column" {
	printf '{"mode": "pt",\n "rows": [}\n' > "$d/a/meta.json"
	run --separate-stderr "$BOOTAB" compare "$d/a" "$d/b" "$d/a2"
	[ "$status" -eq 0 ]
	[ "$stderr" = "bootab: warning: $d/a/meta.json:2:11: unexpected token near '}', ignoring the file" ]
}

@test "formats: csv header, json fields, md table; bad options are usage errors" {
	run "$BOOTAB" compare --format csv "$d/a" "$d/b" "$d/a2"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "row,metric,side,mode,stat,unit,better,value,spread,spread_pct,n,delta_pct,drift_pct,delta_lo_pct,delta_hi_pct,drift_lo_pct,drift_hi_pct,q,screen_p,screen_verdict,sigma_b_pct,sigma_w_pct,icc,test_method,test_boots,test_boots_first,test_delta_pct,ci_lo_pct,ci_hi_pct,test_p,test_df,fdr_q,test_verdict,boots_needed,answer,margin_pct,equiv_ci_lo_pct,equiv_ci_hi_pct,boots_to_decide,kernel,kernel_build_id,boot,config_from,config_to,found" ]
	# One boot of b and no history: the boot level is not tested, but says what it would need.
	[ "${lines[2]}" = "x,value,b,b,mean,,higher,110,1,0.9090909091,3,10,0.5,,,,,20,0.0275492351,counts,0,0.9689720573,0,none,1,2,9.726643657,,,,,,untested,2,not-tested,,,,,,,,,," ]
	run "$BOOTAB" compare --json "$d/a" "$d/b" "$d/a2"
	[ "$status" -eq 0 ]
	for key in row metric side mode stat value spread_pct n delta_pct drift_pct screen_verdict screen_p test_verdict; do
		[[ "$output" == *"\"$key\":"* ]]
	done
	# The reps-as-independent pair is no test: it is not in the report.
	[[ "$output" != *'"rep_p"'* ]]
	run "$BOOTAB" compare --format md "$d/a" "$d/b" "$d/a2"
	[[ "$output" == *"| x | value | b | 110.0 | 1.0 | 0.9% | 3 | +10.0% | +0.5% | 20.0 | counts |"* ]]
	run "$BOOTAB" compare --format xml "$d/a" "$d/b"
	[ "$status" -eq 2 ]
	[ "${lines[0]}" = "bootab: --format: 'xml' is not txt, md, csv, json, html or mail; see 'bootab help compare'" ]
	run "$BOOTAB" compare --stat mode "$d/a" "$d/b"
	[ "$status" -eq 2 ]
}

@test "--stat median and min, per row" {
	printf '100\n100\n130\n' > "$d/b/x.txt"
	run "$BOOTAB" compare --format csv --stat median "$d/a" "$d/b" "$d/a2"
	[[ "${lines[2]}" == "x,value,b,b,median,,higher,100,"* ]]
	run "$BOOTAB" compare --format csv --stat x=min "$d/a" "$d/b" "$d/a2"
	[[ "${lines[1]}" == "x,value,a,a,min,,higher,99,"* ]]
}

@test "colour only on request or a terminal; NO_COLOR wins over auto" {
	run "$BOOTAB" compare "$d/a" "$d/b" "$d/a2"
	[[ "$output" != *$'\033['* ]]
	run "$BOOTAB" compare --color always "$d/a" "$d/b" "$d/a2"
	[[ "$output" == *$'\033[32mcounts\033[0m'* ]]
}

@test "metric names over 200 bytes and in UTF-8 are written and read the same; control characters are refused" {
	long=$(printf 'hyperfine --warmup 3 %0.s--export-json out.json ' $(seq 1 8))
	[ "${#long}" -gt 200 ]
	for s in a b a2; do
		mkdir -p "$d/$s"
		jq -n --arg long "$long" --arg v "$s" '{mode: ($v | sub("2$"; "")), rows: [{name: "h", kind: "bench",
			metrics: [{name: $long, better: "lower", unit: "s", samples: (if $v == "b" then [2, 2.1, 1.9] else [1, 1.1, 0.9] end)},
			          {name: "débit → ✓", better: "higher", unit: "Mo/s", samples: [5, 5.1, 4.9]}]}]}' > "$d/$s/meta.json"
	done
	run --separate-stderr "$BOOTAB" compare --format csv "$d/a" "$d/b" "$d/a2"
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	[[ "$output" == *"h,$long,b,"* ]]
	[[ "$output" == *"h,débit → ✓,b,"* ]]
	# A control character in a name is refused where it is read, naming the row.
	jq '.rows[0].metrics[1].name = "bad\u001b[2Jname"' "$d/b/meta.json" > "$d/b/m" && mv "$d/b/m" "$d/b/meta.json"
	run --separate-stderr "$BOOTAB" compare "$d/a" "$d/b" "$d/a2"
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"$d/b/meta.json: rows[0].metrics[1].name: missing, or not UTF-8 text of at most 4096 bytes without control characters: row 'h' cannot be read"* ]]
}

@test "a benchmark output whose metric name holds a control character is refused, the name escaped" {
	mkdir -p "$d/p" "$d/q"
	for s in p q; do
		printf '{"results": [{"command": "sleep\\u001b[1A 1", "mean": 1, "stddev": 0.1, "median": 1, "user": 0, "system": 0, "min": 1, "max": 1.1, "times": [1, 1.1, 0.9]}]}\n' > "$d/$s/h.json"
	done
	run --separate-stderr "$BOOTAB" compare "$d/p" "$d/q"
	[[ "$stderr" == *"$d/p/h.json: metric name 'sleep\x1b[1A 1"*"' is not UTF-8 text of at most 4096 bytes without control characters, ignoring the file"* ]]
	[[ "$stderr" != *$'\e'* ]]
}

@test "text, md and csv reports escape control characters and bidi overrides from names and directories" {
	esc=$'\e'
	a="$d/base${esc}[2K${esc}[1A"
	b="$d/test"$'\r'"x"
	mkdir -p "$a" "$b" "$d/again"
	for s in "$a" "$b" "$d/again"; do
		v=1; [ "$s" = "$b" ] && v=2
		# U+202E RIGHT-TO-LEFT OVERRIDE in a metric name: valid UTF-8, printed as an escape.
		jq -n --argjson v "$v" '{mode: "m", rows: [{name: "r", kind: "bench",
			metrics: [{name: "lat\u202eytic", better: "lower", unit: "ms", samples: [$v, ($v * 1.01), ($v * 0.99)]}]}]}' > "$s/meta.json"
	done
	jq '.mode = "t"' "$b/meta.json" > "$b/m" && mv "$b/m" "$b/meta.json"
	for format in text md csv; do
		run --separate-stderr "$BOOTAB" compare --format "$format" --color always "$a" "$b" "$d/again"
		[ "$status" -eq 0 ]
		# No raw ESC (colour aside), CR, or U+202E reaches the output.
		! printf '%s' "$output" | sed 's/\x1b\[[0-9]*m//g' | grep -q $'[\e\r]' || false
		! printf '%s' "$output" | grep -q $'\u202e' || false
		[[ "$output" == *'base\x1b[2K\x1b[1A'* ]]
		[[ "$output" == *'test\x0dx'* ]]
		[[ "$output" == *'lat\u{202E}ytic'* ]]
		! printf '%s' "$stderr" | grep -q $'[\e\r]' || false
	done
	# CSV quoting still holds: one header and one line per side and metric.
	run "$BOOTAB" compare --format csv "$a" "$b" "$d/again"
	[ "${#lines[@]}" -eq 4 ]
}

@test "finite samples too large to compute with are refused, naming file and field" {
	mkdir -p "$d/p" "$d/q" "$d/p2"
	for s in p q p2; do printf '1e308\n1e308\n1e308\n' > "$d/$s/big.txt"; done
	run --separate-stderr "$BOOTAB" compare "$d/p" "$d/q" "$d/p2"
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"bootab: warning: $d/p/big.txt: metric 'value' sample 1 is 1e+308: beyond what bootab computes with (|x| <= 1e+100), ignoring the file"* ]]
	[[ "$output$stderr" != *inf* ]]
	for s in p q p2; do
		rm "$d/$s/big.txt"
		jq -n '{mode: "m", rows: [{name: "r", kind: "bench", metrics: [{name: "x", unit: "s", samples: [1e308, 1e308, 1e308]}]}]}' > "$d/$s/meta.json"
	done
	run --separate-stderr "$BOOTAB" compare "$d/p" "$d/q" "$d/p2"
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"bootab: warning: $d/p/meta.json: rows[0].metrics[0].samples[0]: 1e+308 is beyond what bootab computes with (|x| <= 1e+100): row 'r' cannot be read"* ]]
	[[ "$output$stderr" != *inf* ]]
}

@test "--by-run for a row no side has is an error; --history on a device says it is not a file" {
	c="$BATS_TEST_DIRNAME/../fixtures/campaign-abca"
	run --separate-stderr "$BOOTAB" compare --by-run prefil "$c/pt" "$c/off" "$c/pt2"
	[ "$status" -eq 2 ]
	[ -z "$output" ]
	[ "$stderr" = "bootab: --by-run prefil: no side has a row called 'prefil'; see 'bootab help compare'" ]
	run --separate-stderr "$BOOTAB" compare --by-run prefill "$c/pt" "$c/off" "$c/pt2"
	[ "$status" -eq 0 ]
	run --separate-stderr "$BOOTAB" compare --history /dev/zero "$c/pt" "$c/off" "$c/pt2"
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"/dev/zero: not a regular file: a history is a JSON file"* ]]
}

@test "edge cases: a constant shift with no boot-to-boot variance; a row only on the first side's repeats" {
	mkdir -p "$d/c/a" "$d/c/b" "$d/c/a2" "$d/c/b2"
	for s in a a2; do printf '100\n100\n' > "$d/c/$s/x.txt"; done
	for s in b b2; do printf '110\n110\n' > "$d/c/$s/x.txt"; done
	run -0 "$BOOTAB" compare "$d/c/a" "$d/c/b" "$d/c/a2" "$d/c/b2"
	[[ "$output" == *"  b        110.0 ± 0.0   0.0%   2  +10.0%   +0.0%   inf  counts"* ]]
	# The screen counts it; the answer is that no test could bound it, and why.
	[[ "$output" == *"  b       2/2  +10.0%             -     not tested
      no boot test: the boot means do not vary (a constant shift of +10.0%), no test can bound it"* ]]
	[[ "$output" == *"summary: 1 not tested;
  the screen column (seed rule, not a test): 2 count, 0 within noise"* ]]
	[[ "$output" == *"b vs a: not tested (the boots of b and a do not vary: no test can bound a difference)
"* ]]
	# y is missing on the first side: the screen cannot judge it, the test still runs.
	printf '50\n51\n' > "$d/c/a2/y.txt"
	printf '50.5\n51.5\n' > "$d/c/b/y.txt"
	printf '50.2\n51.2\n' > "$d/c/b2/y.txt"
	mkdir -p "$d/c/a3"
	printf '100\n100\n' > "$d/c/a3/x.txt"
	printf '50.1\n51.1\n' > "$d/c/a3/y.txt"
	run -0 --separate-stderr "$BOOTAB" compare "$d/c/a" "$d/c/b" "$d/c/a2" "$d/c/b2" "$d/c/a3"
	[[ "$stderr" == *"bootab: warning: row 'y' is missing on the first side a: the screen cannot judge it; the boot level compares with the other boots of a"* ]]
	[[ "$output" == *"  b       2/2  +0.6%  -2.0 to +3.2%  0.272  boot t, df 1  within noise"* ]]
}

@test "modes from labels never guessed: v6.1 v6.8 v6.1-again, run1 run2 run3, a/x b/x" {
	for s in v6.1 v6.8 v6.1-again run1 run2 run3 a/x b/x; do mkdir -p "$d/m/$s"; done
	printf '100\n101\n' > "$d/m/v6.1/r.txt"
	printf '105\n106\n' > "$d/m/v6.8/r.txt"
	printf '100.2\n101.2\n' > "$d/m/v6.1-again/r.txt"
	for s in run1 run2 run3 a/x b/x; do printf '100\n101\n' > "$d/m/$s/r.txt"; done
	# v6.8 is a mode of its own, not a repeat of "v6."; the repeat says which side it repeats.
	run -0 --separate-stderr "$BOOTAB" compare --json "$d/m/v6.1" "$d/m/v6.8" "$d/m/v6.1-again"
	[ "$(jq -r '[.sides[].mode] | join(" ")' <<<"$output")" = "v6.1 v6.8 v6.1" ]
	[ "$(jq -r '.warnings[]' <<<"$output")" = "side v6.1-again: mode 'v6.1' inferred from its label, a repeat of side v6.1" ]
	[ "$(jq -r '.headline[0].null' <<<"$output")" = not-tested ]
	[ "$(jq -r '.answers[0] | "\(.answer) \(.one_boot) \(.boots) \(.boots_first)"' <<<"$output")" = "not-tested true 1 2" ]
	run -0 --separate-stderr "$BOOTAB" compare "$d/m/v6.1" "$d/m/v6.8" "$d/m/v6.1-again"
	[ "$stderr" = "bootab: warning: side v6.1-again: mode 'v6.1' inferred from its label, a repeat of side v6.1" ]
	# run1 run2 run3: no side is called run, so three modes, nothing judged.
	run -0 "$BOOTAB" compare --json "$d/m/run1" "$d/m/run2" "$d/m/run3"
	[ "$(jq -r '[.sides[].mode] | join(" ")' <<<"$output")" = "run1 run2 run3" ]
	[ "$(jq -r '[.headline[].null] | join(" ")' <<<"$output")" = "not-tested not-tested" ]
	# Two sides called x: a warning that names both directories.
	run -0 --separate-stderr "$BOOTAB" compare "$d/m/a/x" "$d/m/b/x"
	[ "$stderr" = "bootab: warning: sides $d/m/a/x and $d/m/b/x are both called 'x': label them apart with --side LABEL=DIR" ]
}

@test "--side LABEL=DIR and --mode LABEL=MODE: the user names sides and modes, nothing inferred" {
	for s in v6.1 v6.8 v6.1-again a/x b/x; do mkdir -p "$d/m/$s"; done
	printf '100\n101\n' > "$d/m/v6.1/r.txt"
	printf '105\n106\n' > "$d/m/v6.8/r.txt"
	printf '100.2\n101.2\n' > "$d/m/v6.1-again/r.txt"
	printf '100\n101\n' > "$d/m/a/x/r.txt"
	printf '103\n104\n' > "$d/m/b/x/r.txt"
	# a/x b/x: without labels one mode (b/x would be a repeat of a/x); with --side two, in the order given.
	run -0 --separate-stderr "$BOOTAB" compare --json "$d/m/a/x" "$d/m/b/x"
	[ "$(jq -r '[.sides[].mode] | join(" ")' <<<"$output")" = "x x" ]
	run -0 --separate-stderr "$BOOTAB" compare --json --side ax="$d/m/a/x" --side bx="$d/m/b/x"
	[ "$stderr" = "" ]
	[ "$(jq -r '[.sides[] | .label + ":" + .mode + ":" + .dir] | join(" ")' <<<"$output")" = "ax:ax:$d/m/a/x bx:bx:$d/m/b/x" ]
	[ "$(jq -r '.headline[0].text' <<<"$output")" = "bx vs ax: not tested (one boot per mode: 2 boots per mode, or a history of this box, would test it)" ]
	# --side mixes with plain directories in order; --mode names modes by label and no inference warns.
	run -0 --separate-stderr "$BOOTAB" compare --json --mode v6.1=old --mode v6.1-again=old "$d/m/v6.1" \
		--side new="$d/m/v6.8" "$d/m/v6.1-again"
	[ "$stderr" = "" ]
	[ "$(jq -r '[.sides[] | .label + ":" + .mode + ":" + (.repeat | tostring)] | join(" ")' <<<"$output")" = \
		"v6.1:old:false new:new:false v6.1-again:old:true" ]
	[ "$(jq -r '.warnings | length' <<<"$output")" = 0 ]
	[ "$(jq -r '.headline[0].null' <<<"$output")" = not-tested ]
	# --mode over meta.json's mode is said.
	printf '{"format": "bootab-results", "mode": "pt"}\n' > "$d/m/v6.8/meta.json"
	run -0 --separate-stderr "$BOOTAB" compare --mode v6.8=new "$d/m/v6.1" "$d/m/v6.8"
	[ "$stderr" = "bootab: warning: side v6.8: mode 'new' from --mode, not meta.json's 'pt'" ]
	# Mistakes are one line each, exit 2.
	run -2 --separate-stderr "$BOOTAB" compare --mode zz=1 "$d/m/v6.1" "$d/m/v6.8"
	[ "$stderr" = "bootab: --mode zz=1: no side is labelled 'zz'; see 'bootab help compare'" ]
	run -2 --separate-stderr "$BOOTAB" compare --mode x=1 "$d/m/a/x" "$d/m/b/x"
	[ "$stderr" = "bootab: --mode x=1: two sides are labelled 'x' ($d/m/a/x and $d/m/b/x): label them apart with --side LABEL=DIR; see 'bootab help compare'" ]
	for bad in "=$d/m/a/x" "ax" "ax="; do
		run -2 --separate-stderr "$BOOTAB" compare --side "$bad" "$d/m/v6.1"
		[ "$stderr" = "bootab: --side: '$bad' is not LABEL=DIR (LABEL: printable, at most 200 bytes); see 'bootab help compare'" ]
	done
	run -2 --separate-stderr "$BOOTAB" compare --mode "v6.1=" "$d/m/v6.1" "$d/m/v6.8"
	[ "$stderr" = "bootab: --mode: 'v6.1=' is not LABEL=MODE (LABEL: printable, at most 200 bytes); see 'bootab help compare'" ]
}

@test "hyperfine run for real: --style none into a file, the human text through a pipe, and a file it overwrote" {
	# hyperfine is in tools/debian-packages-test: the real tool, not a fixture.
	mkdir -p "$d/hf/none" "$d/hf/pipe" "$d/hf/file"
	hyperfine -N --runs 3 --style none --export-json /dev/stdout 'sleep 0.001' 'true' > "$d/hf/none/h.txt" 2>/dev/null
	hyperfine -N --runs 3 --export-json /dev/stdout 'sleep 0.001' 'true' 2>/dev/null | cat > "$d/hf/pipe/h.txt"
	hyperfine -N --runs 3 --export-json /dev/stdout 'sleep 0.001' 'true' > "$d/hf/file/h.txt" 2>/dev/null
	grep -q '^Benchmark 1: sleep 0.001' "$d/hf/pipe/h.txt"
	for s in none pipe; do
		run -0 --separate-stderr "$BOOTAB" compare --json "$d/hf/$s" "$d/hf/$s"
		[ "$stderr" = "" ]
		# Three runs of each command, the interim export of the first not counted again.
		[ "$(jq -r '[.comparisons[] | .metric + ":" + (.n | tostring)] | unique | join(" ")' <<<"$output")" = "sleep 0.001:3 true:3" ]
	done
	run -1 --separate-stderr "$BOOTAB" compare "$d/hf/file" "$d/hf/none"
	[[ "$stderr" == *"$d/hf/file/h.txt:"*"(hyperfine's human text written over its JSON: run it with --style none), ignoring the file"* ]]
}
