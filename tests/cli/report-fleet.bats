#!/usr/bin/env bats
# bootab report --fleet on campaigns of several machines. The campaigns are
# copies of the fixtures' campaigns (tests/fixtures/campaign-lab is a real
# lab campaign; campaign-abca is in the format bootab run writes), with only
# the machine_id changed where a copy needs to be another machine: so every
# machine measured the same numbers, and the pooled test says the estimates
# do not vary. The pooled statistics themselves are tested in
# tests/unit/test-fleet.c and measured by bench/method/fleet (docs/fleet.md).

bats_require_minimum_version 1.5.0

setup() {
	fx="$BATS_TEST_DIRNAME/../fixtures"
	d="$BATS_TEST_TMPDIR/fleet"
	mkdir -p "$d"
}

# hex_of NAME: eight hex digits of its own (a boot id is hexadecimal).
hex_of() {
	printf '%s' "$1" | md5sum | cut -c1-8
}

# copy_abca NAME MACHINE_ID: another machine's campaign, its own machine and boot ids.
copy_abca() {
	cp -R "$fx/campaign-abca" "$d/$1"
	sed -i -e "s/4c4c4544004a3610804bb7c04f395032/$2/" -e "s/\"boot_id\": \"/&$(hex_of "$1")/" "$d/$1"/*/meta.json
}

@test "three machines: each machine's own verdict, the pooled line, the spread and the heterogeneity test" {
	copy_abca box1 4c4c4544004a3610804bb7c04f395032
	copy_abca box2 11111111111111111111111111111111
	copy_abca box3 22222222222222222222222222222222
	run --separate-stderr "$BOOTAB" report --fleet "$d/box1" "$d/box2" "$d/box3"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "fleet of 3 machines, every mode against pt (+ is better):" ]
	[ "${lines[2]}" = "  box2  machine 11111111111111111111111111111111" ]
	echo "$output" | grep -qx 'prefill  pp512  off vs pt  (t/s, higher is better)'
	[ "$(echo "$output" | grep -cE '^  box[123] +\+3\.8%  \[ +\+2\.3, +\+5\.3\]%  counts \(boot\)$')" -eq 3 ]
	echo "$output" | grep -qx '  pooled: not tested: the 3 machines'"'"' estimates do not vary (+3.8 % on each)'
	echo "$output" | grep -qx '  spread between machines: sd 0.00 %, of which the effect'"'"'s own (tau) 0.00 %'
	echo "$output" | grep -qx '  differs between machines? X = 0.00 on 2 df, p = 1 (Q = 0.00, I2 = 0 %)'
	[ "${lines[${#lines[@]}-1]}" = "summary: 0 better or worse on the fleet, 0 within noise, 0 differ between machines, 4 not tested, of 4" ]
}

@test "the real lab campaign on two machines: one boot per mode, no test of their own" {
	cp -R "$fx/campaign-lab" "$d/lab1"
	cp -R "$fx/campaign-lab" "$d/lab2"
	sed -i "s/\"boot_id\": \"/&$(hex_of lab2)/" "$d/lab2"/*/meta.json
	run --separate-stderr "$BOOTAB" report --fleet "$d/lab1" "$d/lab2"
	[ "$status" -eq 0 ]
	echo "$output" | grep -qx 'randread  randread.iops  passthrough vs translated  (IOPS, higher is better)'
	# The block of the first metric: its two machines, then the pooled line.
	block=$(echo "$output" | sed -n '/^randread  randread.iops /,/^$/p')
	[ "$(echo "$block" | grep -cE '^  lab[12] +\+5\.1% +not tested \(none\)$')" -eq 2 ]
	echo "$block" | grep -qx '  pooled: not tested: the 2 machines'"'"' estimates do not vary (+5.1 % on each)'
	echo "$output" | grep -q 'differs between machines? not tested: every machine needs a test of its own on 4 or more degrees of freedom'
}

@test "rounds = auto campaigns: each judged at the level it stopped at, the pool at the strictest" {
	copy_abca box1 4c4c4544004a3610804bb7c04f395032
	copy_abca box2 11111111111111111111111111111111
	# The same boots as a rounds = auto campaign that ran to its ceiling of 3.
	sed -i 's/^rounds = 3$/rounds = auto\nmax_rounds = 3/' "$d/box1/plan.ini" "$d/box2/plan.ini"
	level=$("$BOOTAB" plan "$d/box1/plan.ini" | grep -o 'round 3 0\.[0-9]*' | cut -d' ' -f3)
	[ "$level" = 0.0373 ]
	run -0 --separate-stderr "$BOOTAB" report --fleet --format json "$d/box1" "$d/box2"
	[ "$(printf '%s\n' "$output" | jq -r '.alpha * 10000 | round')" = 373 ]
	run -0 --separate-stderr "$BOOTAB" report --fleet "$d/box1" "$d/box2"
	[[ "$output" == *"  machine     delta                96% CI  own verdict"* ]]
	# A machine's own CI is its campaign report's, at the same level.
	run -0 "$BOOTAB" report "$d/box1"
	[[ "$output" == *"alpha 0.0373"* ]]
}

@test "the same machine twice, different baselines, one campaign: refused" {
	copy_abca box1 4c4c4544004a3610804bb7c04f395032
	copy_abca box2 4c4c4544004a3610804bb7c04f395032
	run --separate-stderr "$BOOTAB" report --fleet "$d/box1" "$d/box2"
	[ "$status" -eq 2 ]
	[ "$stderr" = "bootab: $d/box1 and $d/box2 are the same machine (machine_id 4c4c4544004a3610804bb7c04f395032): a fleet pools different machines" ]
	cp -R "$fx/campaign-lab" "$d/lab1"
	run --separate-stderr "$BOOTAB" report --fleet "$d/box1" "$d/lab1"
	[ "$status" -eq 2 ]
	[ "$stderr" = "bootab: lab1 starts with mode 'translated' where box1 starts with 'pt': a fleet pools one baseline" ]
	run --separate-stderr "$BOOTAB" report --fleet "$d/box1"
	[ "$status" -eq 2 ]
	[ "$stderr" = "bootab: --fleet: the campaign directories of two or more machines; see 'bootab help report'" ]
	run --separate-stderr "$BOOTAB" report --fleet "$d/box1" "$d/nothing"
	[ "$status" -eq 2 ]
	[[ "$stderr" == "bootab: $d/nothing: "* ]]
}

@test "one campaign named twice (dir, dir/, dir//, a link, a copy) with no machine_id: refused, never pooled as two" {
	copy_abca box1 4c4c4544004a3610804bb7c04f395032
	copy_abca box2 11111111111111111111111111111111
	sed -i '/"machine_id"/d' "$d"/box1/*/meta.json "$d"/box2/*/meta.json
	ln -s box1 "$d/link1"
	run -0 --separate-stderr "$BOOTAB" report --fleet "$d/box1" "$d/box2"
	grep -q '^fleet of 2 machines' <<<"$output"
	for other in "$d/box1/" "$d/box1//" "$d/link1" "$d/./box1"; do
		run -2 --separate-stderr "$BOOTAB" report --fleet "$d/box1" "$d/box2" "$other"
		[ "$stderr" = "bootab: $d/box1 and $other are the same directory ($(realpath "$d/box1")): a fleet pools each campaign once" ]
		[ "$output" = "" ]
	done
	# A copy holds the same boots.
	cp -R "$d/box1" "$d/copy1"
	run -2 --separate-stderr "$BOOTAB" report --fleet "$d/box1" "$d/box2" "$d/copy1"
	[ "$stderr" = "bootab: $d/box1 and $d/copy1 hold the same boot (boot_id $(hex_of box1)b1, pt and pt): one campaign twice, a fleet pools each once" ]
	[ "$output" = "" ]
}

@test "a mode whose args differ and a metric whose unit differs are not pooled: what was left out and why" {
	copy_abca box1 4c4c4544004a3610804bb7c04f395032
	copy_abca box2 11111111111111111111111111111111
	copy_abca box3 22222222222222222222222222222222
	# box2 ran "off" as something else; box3 measured latency in microseconds.
	sed -i 's/^args = amd_iommu=off$/args = iommu.strict=1 nosmt mitigations=off/' "$d/box2/plan.ini"
	sed -i 's/"unit": "ms"/"unit": "us"/' "$d"/box3/*/meta.json
	run -0 --separate-stderr "$BOOTAB" report --fleet --format json "$d/box1" "$d/box2" "$d/box3"
	[ "$stderr" = "bootab: warning: mode off is 'amd_iommu=off' on box1 and 'iommu.strict=1 mitigations=off nosmt' on box2: box2 left out of off's pooled effects
bootab: warning: latency: p99_ms is in 'ms' on box1 and in 'us' on box3: left out on box3" ]
	m='.metrics[] | select(.row == "prefill" and .metric == "pp512" and .mode == "off")'
	[ "$(jq -r "[$m | .machines[] | select(.present) | .machine] | join(\" \")" <<<"$output")" = "box1 box3" ]
	m='.metrics[] | select(.row == "prefill" and .metric == "pp512" and .mode == "translated")'
	[ "$(jq -r "[$m | .machines[] | select(.present) | .machine] | join(\" \")" <<<"$output")" = "box1 box2 box3" ]
	m='.metrics[] | select(.row == "latency" and .mode == "translated")'
	[ "$(jq -r "$m | .unit" <<<"$output")" = ms ]
	[ "$(jq -r "[$m | .machines[] | select(.present) | .machine] | join(\" \")" <<<"$output")" = "box1 box2" ]
	m='.metrics[] | select(.row == "latency" and .mode == "off")'
	[ "$(jq -r "[$m | .machines[] | select(.present) | .machine] | join(\" \")" <<<"$output")" = "box1" ]
	[ "$(jq -r "$m | .pooled.words" <<<"$output")" = "not tested: measured on 1 machine" ]

	# The same args in another order, or the first mode run as another kernel.
	copy_abca box4 33333333333333333333333333333333
	sed -i 's/^args = amd_iommu=off$/args = mitigations=off iommu.strict=1 nosmt/' "$d/box4/plan.ini"
	run -0 --separate-stderr "$BOOTAB" report --fleet "$d/box2" "$d/box4"
	[ "$stderr" = "" ]
	sed -i '/^\[mode "pt"\]/a kernel = 6.1.0-test' "$d/box4/plan.ini"
	run -0 --separate-stderr "$BOOTAB" report --fleet "$d/box2" "$d/box4"
	[ "$stderr" = "bootab: warning: mode pt (the first) is 'iommu=pt' on box2 and 'iommu=pt on kernel 6.1.0-test' on box4: box4 left out of every mode's pooled effects" ]
	[ "$(echo "$output" | grep -c 'pooled: not tested: measured on 1 machine')" -eq 4 ]
}

@test "the fleet report as JSON and Markdown: the same numbers and verdicts as the text" {
	copy_abca box1 4c4c4544004a3610804bb7c04f395032
	copy_abca box2 11111111111111111111111111111111
	copy_abca box3 22222222222222222222222222222222
	run -0 --separate-stderr "$BOOTAB" report --fleet --format json "$d/box1" "$d/box2" "$d/box3"
	json=$output
	[ "$(jq -r .first_mode <<<"$json")" = pt ]
	[ "$(jq -r '[.machines[] | .name + "=" + .machine_id] | join(" ")' <<<"$json")" = \
		"box1=4c4c4544004a3610804bb7c04f395032 box2=11111111111111111111111111111111 box3=22222222222222222222222222222222" ]
	[ "$(jq '.metrics | length' <<<"$json")" -eq 4 ]
	m='.metrics[] | select(.row == "prefill" and .metric == "pp512" and .mode == "off")'
	[ "$(jq -r "$m | .unit + \" \" + .better" <<<"$json")" = "t/s higher" ]
	[ "$(jq -r "[$m | .machines[] | .machine + \" \" + (.delta_pct * 10 | round | tostring) + \" \" + .verdict + \" \" + .method] | join(\";\")" <<<"$json")" = \
		"box1 38 counts boot;box2 38 counts boot;box3 38 counts boot" ]
	[ "$(jq -r "$m | .machines[0].ci_pct | map(. * 10 | round) | join(\",\")" <<<"$json")" = "23,53" ]
	[ "$(jq -r "$m | .pooled.verdict" <<<"$json")" = untested ]
	[ "$(jq -r "$m | .pooled.words" <<<"$json")" = "not tested: the 3 machines' estimates do not vary (+3.8 % on each)" ]
	[ "$(jq -r "$m | .pooled.ci_pct" <<<"$json")" = null ]
	[ "$(jq -r "$m | .pooled.heterogeneity.df" <<<"$json")" = 2 ]
	[ "$(jq -c .summary <<<"$json")" = '{"counts":0,"within_noise":0,"differs":0,"untested":4,"metrics":4}' ]

	run -0 --separate-stderr "$BOOTAB" report --fleet --format md "$d/box1" "$d/box2" "$d/box3"
	[ "${lines[0]}" = "# Fleet of 3 machines, every mode against pt (+ is better)" ]
	grep -qx '| box2 | 11111111111111111111111111111111 |' <<<"$output"
	grep -qx '## prefill pp512: off vs pt (t/s, higher is better)' <<<"$output"
	[ "$(grep -cx '| box[123] | +3.8 % | \[+2.3, +5.3\] % | counts (boot) |' <<<"$output")" -eq 3 ]
	grep -qx "\*\*pooled:\*\* not tested: the 3 machines' estimates do not vary (+3.8 % on each)" <<<"$output"

	run -2 --separate-stderr "$BOOTAB" report --fleet --format html "$d/box1" "$d/box2"
	[ "$stderr" = "bootab: --fleet prints txt, md or json, with no --stat, --legend or -o; see 'bootab help report'" ]
}
