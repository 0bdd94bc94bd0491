#!/usr/bin/env bats
bats_require_minimum_version 1.5.0
# bootab plan: a valid plan prints the campaign; an invalid one is one line
# naming the file, the line and the key.

@test "the lab plan: order, managed args, rows, estimate" {
	cd "$BATS_TEST_DIRNAME/../.."
	run "$BOOTAB" plan examples/lab-iommu.ini
	[ "$status" -eq 0 ]
	diff -u tests/cli/expected/plan-lab-iommu.txt <(printf '%s\n' "$output")
}

@test "errors name file, line and key" {
	f="$BATS_TEST_TMPDIR/bad.ini"
	printf '[mode "pt"]\nargs = iommu=pt\n\n[row "r"]\ncommand = true\nreps = lots\n' > "$f"
	run "$BOOTAB" plan "$f"
	[ "$status" -eq 2 ]
	[ "$output" = "bootab: $f:6: reps: 'lots' is not a whole number from 1 to 10000" ]
	printf '[campaign]\nequivalence = 2%%\n[mode "pt"]\nargs = iommu=pt\n\n[row "r"]\ncommand = true\nequivalence = 60%%\n' > "$f"
	run "$BOOTAB" plan "$f"
	[ "$status" -eq 2 ]
	[ "$output" = "bootab: $f:8: equivalence: '60%' is not a margin in % above 0 and at most 50" ]
	printf '[campaign]\nequivalence = two\n[mode "pt"]\nargs = iommu=pt\n' > "$f"
	run "$BOOTAB" plan "$f"
	[ "$output" = "bootab: $f:2: equivalence: 'two' is not a margin in % above 0 and at most 50" ]
}

@test "shell metacharacters in args are refused before anything runs" {
	f="$BATS_TEST_TMPDIR/bad.ini"
	printf '[mode "pt"]\nargs = iommu=pt;reboot\n' > "$f"
	run "$BOOTAB" plan "$f"
	[ "$status" -eq 2 ]
	[[ "$output" == "bootab: $f:2: args: invalid kernel argument 'iommu=pt;reboot': "* ]]
}

@test "a value the kernel does not take is refused before the first reboot, naming what it takes" {
	f="$BATS_TEST_TMPDIR/bad.ini"
	printf '[campaign]\ntarget = lab\n[mode "translated"]\nargs =\n[mode "pt"]\nargs = amd_iommu=pt\n' > "$f"
	run "$BOOTAB" plan "$f"
	[ "$status" -eq 2 ]
	[ "$output" = "bootab: $f:6: args: amd_iommu: the kernel does not take 'pt': it takes a comma-separated list of fullflush, off, force_enable, force_isolation, pgtbl_v1, pgtbl_v2, irtcachedis, nohugepages, v2_pgsizes_only (kernel-parameters.txt (amd_iommu=); drivers/iommu/amd/init.c parse_amd_iommu_options())" ]
	# On a continuation line: the line that completes the arg list.
	printf '[mode "pt"]\nargs = iommu=pt\n  isolcpus=nohz,domain,1-3 nosmt=on\n' > "$f"
	run "$BOOTAB" plan "$f"
	[ "$status" -eq 2 ]
	[ "$output" = "bootab: $f:3: args: nosmt: the kernel does not take 'on': it takes no value, or one of force (kernel-parameters.txt (nosmt); kernel/cpu.c smt_cmdline_disable())" ]
	# Lists, CPU lists, sizes and booleans the kernel takes pass; managed args are names.
	printf '[campaign]\ntarget = lab\n[mode "a"]\nargs = amd_iommu=fullflush,force_isolation isolcpus=nohz,domain,1-3 hugepagesz=1G hugepages=2 iommu.strict=y quiet\n[mode "b"]\nargs = iommu.passthrough=on intel_iommu=on,sm_on\n[row "r"]\ncommand = true\nparser = fio\n' > "$f"
	run -0 "$BOOTAB" plan "$f"
	[[ "$output" == *$'\nmanaged args: amd_iommu isolcpus hugepagesz hugepages iommu.strict quiet iommu.passthrough intel_iommu\n'* ]]
}

@test "a missing plan file" {
	run "$BOOTAB" plan /nonexistent/plan.ini
	[ "$status" -eq 2 ]
	[ "$output" = "bootab: /nonexistent/plan.ini: No such file or directory" ]
}

@test "--effect from a finished campaign: boots per mode, best reps from measured times" {
	c="$BATS_TEST_DIRNAME/../fixtures/campaign-abca"
	run "$BOOTAB" plan --effect 2% --from "$c" "$c/plan.ini"
	[ "$status" -eq 0 ]
	diff -u - <(printf '%s\n' "$output" | sed -n '/^boots per mode/,$p') <<-EOT
	boots per mode to find +2.0% with 80% power (alpha 0.05, boot-level t over 3 modes),
	from $c:
	  row          metric            sigma_b  sigma_w reps      boots  best reps      boots   boot s    rep s
	  prefill      pp512               0.81%    0.38%    5          4          1          5      144     30.0
	    box time at 80% power: this plan, 4 boots per mode x 5 reps: 1h03m; the cheapest, 4 x 2: 44m19s
	  latency      p99_ms              0.30%    0.39%    3          2          -          -       84        -
	    box time: not estimated (this row's reps were not timed: bootab plan --from a campaign that timed them)
	recommended: the cheapest design that finds +2.0% in every measured row with 80% power: 4 boots per mode, 44m19s of box time, untimed rows' reps not counted; in the plan:
	  [campaign]
	  rounds = 4
	  [row "prefill"]
	  reps = 2
	  [row "latency"]
	  reps = 1
	EOT
}

@test "--effect: the recommended design, copied into the plan, is the plan's own design at 80% power" {
	c="$BATS_TEST_DIRNAME/../fixtures/campaign-abca"
	p="$BATS_TEST_TMPDIR/plan.ini"
	run "$BOOTAB" plan --effect 2% --from "$c" "$c/plan.ini"
	[ "$status" -eq 0 ]
	keys=$(printf '%s\n' "$output" | sed -n '/^recommended: /,$p' | sed 1d)
	[ "$(printf '%s\n' "$keys" | sed -n 2p)" = "  rounds = 4" ]
	# The keys, put in the plan: each row's reps under its [row], rounds in [campaign].
	awk -v k="$keys" 'BEGIN { n = split(k, l, "\n"); for (i = 1; i <= n; i++) { sub(/^  /, "", l[i]); if (l[i] ~ /^\[/) s = l[i]; else v[s] = v[s] l[i] "\n" } }
		/^\[/ { sec = $0; print; printf "%s", v[sec]; v[sec] = ""; next }
		/^(rounds|reps) = / { next } { print }' "$c/plan.ini" > "$p"
	grep -qx 'rounds = 4' "$p" || { cat "$p"; false; }
	run "$BOOTAB" plan --effect 2% --from "$c" "$p"
	[ "$status" -eq 0 ]
	# Now the plan is the cheapest: 4 boots per mode of prefill at 2 reps reach 80 %, in the same box time.
	[[ "$output" == *"  prefill      pp512               0.81%    0.38%    2          4 "* ]]
	[[ "$output" == *"box time at 80% power: this plan, 4 boots per mode x 2 reps: 44m19s; the cheapest, 4 x 2: 44m19s"* ]]
	[[ "$output" == *"  latency      p99_ms              0.30%    0.39%    1          "[234]" "* ]]
	[ "$(printf '%s\n' "$output" | sed -n '/^recommended: /,$p' | sed 1d)" = "$keys" ]
	# abba boots each mode twice a round: 4 boots per mode are 2 rounds.
	sed -i 's/^order = abca$/order = abba/' "$p"
	run "$BOOTAB" plan --effect 2% --from "$c" "$p"
	[ "$status" -eq 0 ]
	[[ "$output" == *$'in the plan:\n  [campaign]\n  rounds = 2\n'* ]]
}

@test "rounds = auto: the looks and their levels, and with --effect the power by the ceiling and the rounds on average" {
	c="$BATS_TEST_DIRNAME/../fixtures/campaign-abca"
	sed 's/^rounds = 3$/rounds = auto\nmax_rounds = 6/' "$c/plan.ini" >"$BATS_TEST_TMPDIR/auto.ini"
	run "$BOOTAB" plan --effect 2% --from "$c" "$BATS_TEST_TMPDIR/auto.ini"
	[ "$status" -eq 0 ]
	[[ "$output" == *"boot order (19 boots, at most: rounds = auto):"* ]]
	[[ "$output" == *"else after round 6 (19 boots)."* ]]
	[[ "$output" == *"(alpha 0.05 over every look): round 1 0.0000, round 2 0.0012, round 3 0.0058, round 4 0.0135, round 5 0.0227, round 6 0.0318."* ]]
	[[ "$output" == *"Fewest boots: 4 (round 1, with a history to test against), else 7 (round 2)."* ]]
	diff -u - <(printf '%s\n' "$output" | sed -n '/^boots per mode/,$p') <<-EOT
	boots per mode to find +2.0% with 80% power (alpha 0.05, boot-level t over 3 modes),
	from $c:
	  row          metric            sigma_b  sigma_w reps      boots  best reps      boots   boot s    rep s
	  prefill      pp512               0.81%    0.38%    5          4          1          5      144     30.0
	    rounds = auto: 99% power by round 6, 3.2 rounds on average (11 boots; normal approximation)
	    box time at 80% power: this plan, 4 boots per mode x 5 reps: 1h03m; the cheapest, 4 x 2: 44m19s
	  latency      p99_ms              0.30%    0.39%    3          2          -          -       84        -
	    rounds = auto: 100% power by round 6, 2.0 rounds on average (7 boots; normal approximation)
	    box time: not estimated (this row's reps were not timed: bootab plan --from a campaign that timed them)
	recommended: the cheapest design that finds +2.0% in every measured row with 80% power: 4 boots per mode, 44m19s of box time, untimed rows' reps not counted; in the plan:
	  [campaign]
	  # rounds = auto with max_rounds = 4 stops earlier when the effect is larger
	  rounds = 4
	  [row "prefill"]
	  reps = 2
	  [row "latency"]
	  reps = 1
	EOT
}

@test "--effect from a history; a tiny effect needs more than 1000 boots" {
	c="$BATS_TEST_DIRNAME/../fixtures/campaign-abca"
	h="$BATS_TEST_TMPDIR/h.json"
	"$BOOTAB" compare --history "$h" --record-history "$c/pt" "$c/pt2" "$c/pt3" "$c/pt4" > /dev/null 2>&1
	run "$BOOTAB" plan --effect 1 --history "$h" "$c/plan.ini"
	[ "$status" -eq 0 ]
	[[ "$output" == *"  prefill      pp512               0.77%    0.39%    5         11          -          -        -        -"* ]]
	[[ "$output" == *"suggested: rounds = 11 "* ]]
	run "$BOOTAB" plan --effect 0.01 --history "$h" "$c/plan.ini"
	[[ "$output" == *"a row needs more than 1000 boots per mode"* ]]
}

@test "--effect: bad values and missing sources are usage errors" {
	c="$BATS_TEST_DIRNAME/../fixtures/campaign-abca"
	run "$BOOTAB" plan --effect 0 --from "$c" "$c/plan.ini"
	[ "$status" -eq 2 ]
	[ "$output" = "bootab: --effect: '0' is not a percentage above 0; see 'bootab help plan'" ]
	run "$BOOTAB" plan --effect 5 "$c/plan.ini"
	[ "$status" -eq 2 ]
	[ "$output" = "bootab: --effect needs the noise it is judged against: --from CAMPAIGN_DIR or --history FILE; see 'bootab help plan'" ]
	run "$BOOTAB" plan --effect 5 --from "$BATS_TEST_TMPDIR" "$c/plan.ini"
	[ "$status" -eq 2 ]
	[ "$output" = "bootab: --from: '$BATS_TEST_TMPDIR' holds 0 side directories with meta.json; it takes two or more" ]
	run "$BOOTAB" plan --effect 5 --history "$BATS_TEST_TMPDIR/none.json" "$c/plan.ini"
	[ "$status" -eq 2 ]
	[ "$output" = "bootab: --history: $BATS_TEST_TMPDIR/none.json: No such file or directory" ]
}

@test "a mode named like another mode's repeat is refused, naming both boots and the mode to rename" {
	f="$BATS_TEST_TMPDIR/tr.ini"
	printf '[mode "tr"]\n\n[mode "tr2"]\nargs = iommu=pt\n\n[row "r"]\ncommand = echo 1\nparser = number\n' > "$f"
	run "$BOOTAB" plan "$f"
	[ "$status" -eq 2 ]
	[ "$output" = "bootab: $f:3: boots 2 and 3 would both be labelled 'tr2' (boot 1 of mode 'tr2' and boot 2 of mode 'tr'): rename mode 'tr2'" ]
}

@test "mode and row names the results layout uses are refused by the plan parser" {
	f="$BATS_TEST_TMPDIR/names.ini"
	for name in . .. journal plan.ini report.txt report.html lock .hidden pt.abandoned-1; do
		printf '[mode "pt"]\nargs = iommu=pt\n[mode "%s"]\n' "$name" > "$f"
		run "$BOOTAB" plan "$f"
		[ "$status" -eq 2 ]
		[[ "$output" == "bootab: $f:3: section [mode \"$name\"]: '$name' cannot name a mode (its boots are directories of the campaign): "* ]]
	done
	printf '[mode "pt"]\n[row ".."]\ncommand = echo 1\n' > "$f"
	run "$BOOTAB" plan "$f"
	[ "$status" -eq 2 ]
	[ "$output" = "bootab: $f:2: section [row \"..\"]: '..' cannot name a row: names starting with '.' are the directory itself, its parent or bootab's temporary files" ]
}

@test "a target ssh would read as an option is refused by bootab plan, not only by run" {
	f="$BATS_TEST_TMPDIR/proxy.ini"
	printf '[campaign]\ntarget = -oProxyCommand=touch${IFS}/tmp/pwned\n[mode "pt"]\n' > "$f"
	run "$BOOTAB" plan "$f"
	[ "$status" -eq 2 ]
	[ "$output" = "bootab: $f:2: target: '-oProxyCommand=touch\${IFS}/tmp/pwned' is not local, lab or an SSH destination (none starts with '-' or holds spaces or control characters)" ]
}

@test "one rep reads '1 rep', more read 'reps'" {
	f="$BATS_TEST_TMPDIR/one.ini"
	sed 's/^reps = 3$/reps = 1/' "$BATS_TEST_DIRNAME/../../examples/lab-iommu.ini" > "$f"
	grep -q '^reps = 1$' "$f"
	run "$BOOTAB" plan "$f"
	[ "$status" -eq 0 ]
	[[ "$output" == *" 1 rep, parser fio, mean, timeout 120s"* ]]
	[[ "$output" != *"1 reps"* ]]
}

@test "a fleet plan lists its boxes from an Ansible inventory; a bad inventory line is named" {
	d=$BATS_TEST_TMPDIR
	cp "$BATS_TEST_DIRNAME/../fixtures/inventories/servers.ini" "$d/hosts.ini"
	printf '[campaign]\ninventory = hosts.ini\ngroup = web\n[mode "a"]\nargs =\n[mode "pt"]\nargs = iommu=pt\n' > "$d/fleet.ini"
	run "$BOOTAB" plan "$d/fleet.ini"
	[ "$status" -eq 0 ]
	[ "${lines[1]}" = "target: a fleet of 4 boxes" ]
	[ "${lines[2]}" = "  box web01: deploy@web01" ]
	[ "${lines[4]}" = "  box web03: deploy@web03" ]
	[ "${lines[5]}" = "  box old.example.com: ssh://admin@old.example.com:2201" ]
	printf '[web]\nweb1\nweb2 ansible_port=22x\n' > "$d/hosts.ini"
	run "$BOOTAB" plan "$d/fleet.ini"
	[ "$status" -eq 2 ]
	[ "$output" = "bootab: $d/hosts.ini:3: ansible_port: '22x' is not a port from 1 to 65535" ]
	# bootab run refuses the same line before it makes anything.
	run "$BOOTAB" run --data "$d/runs" "$d/fleet.ini"
	[ "$status" -eq 2 ]
	[ ! -e "$d/runs" ]
}

@test "the patterns a plan ignores among the costs bootab finds are printed, escaped; none said as none" {
	f="$BATS_TEST_TMPDIR/p.ini"
	printf '[campaign]\ntarget = lab\nignore = ^usb [0-9-]+: device descriptor read\nignore = a\033]0;x\n[mode "a"]\nargs =\n[mode "b"]\nargs = iommu=pt\n' >"$f"
	run "$BOOTAB" plan "$f"
	[ "$status" -eq 0 ]
	diff -u - <(printf '%s\n' "${lines[@]:6:3}") <<-'EOF'
	costs found by bootab: every side against every boot of mode a; not reported when they match:
	  ignore ^usb [0-9-]+: device descriptor read
	  ignore a\x1b]0;x
	EOF
	printf '[campaign]\ntarget = lab\n[mode "a"]\nargs =\n[mode "b"]\nargs = iommu=pt\n' >"$f"
	run "$BOOTAB" plan "$f"
	[ "$status" -eq 0 ]
	[ "${lines[6]}" = "costs found by bootab: every side against every boot of mode a; no ignore patterns" ]
}

@test "--from CAMPAIGN_DIR: the duration estimate from the campaign's measured reboots and reps" {
	c="$BATS_TEST_DIRNAME/../fixtures/campaign-lab"
	run -0 "$BOOTAB" plan "$c/plan.ini"
	[ "${lines[-2]}" = "estimated duration: at least 3m04s (2 reboots at about 90s, 4 idle gates of at least 1s each)" ]
	# reboot_s 131 and 66.8: 99 s a boot; randread's reps took 19, 9, 22 and 15 s (2 a boot), data-disk's 2 and 0 s.
	run -0 "$BOOTAB" plan --from "$c" "$c/plan.ini"
	[ "${lines[-2]}" = "estimated duration: at least 3m22s (2 reboots at 99s, the mean of the 2 measured in $c; 4 idle gates of at least 1s each)" ]
	[ "${lines[-1]}" = "  plus the rows' own time, about 1m08s as their reps took in $c, at most 2h04m by their timeouts" ]
	run -2 --separate-stderr "$BOOTAB" plan --history "$c/none.json" "$c/plan.ini"
	[ "$stderr" = "bootab: --history needs --effect; see 'bootab help plan'" ]
}

@test "warnings before the first reboot: reps that multiply a tool's own runs, one boot per mode with nothing to test it" {
	f="$BATS_TEST_TMPDIR/design.ini"
	# llama-bench repeats itself 5 times when -r is not given; hyperfine -r 3 three.
	printf '[campaign]\nrounds = 2\n[mode "a"]\nargs = pti=on\n[mode "b"]\nargs = pti=off\n[row "llama"]\ncommand = llama-bench -m m.gguf -p 512 -n 0 -o jsonl\nparser = llama-bench\nreps = 5\n[row "hf"]\ncommand = hyperfine -r 3 --export-json - true\nparser = hyperfine\nreps = 2\n[row "once"]\ncommand = llama-bench -m m.gguf -r 1 -o jsonl\nparser = llama-bench\nreps = 5\n' > "$f"
	run -0 --separate-stderr "$BOOTAB" plan "$f"
	[ "${stderr_lines[0]}" = "bootab: warning: row llama: the tool repeats itself (5 runs by its default) and reps = 5: 25 runs a boot; runs of one boot share its offset, so past a few they add time, not power: reps = 1, or fewer runs of the tool (bootab plan --effect gives the best reps)" ]
	[ "${stderr_lines[1]}" = "bootab: warning: row hf: the tool repeats itself (3 runs) and reps = 2: 6 runs a boot; runs of one boot share its offset, so past a few they add time, not power: reps = 1, or fewer runs of the tool (bootab plan --effect gives the best reps)" ]
	# -r 1 with reps = 5: the reps are the runs, nothing multiplies.
	[ "${#stderr_lines[@]}" -eq 2 ]
	# One boot per mode: the box's own history may test it (only a run knows
	# whether it has one); with history = off, nothing can.
	sed -i 's/^rounds = 2$/rounds = 1/' "$f"
	run -0 --separate-stderr "$BOOTAB" plan "$f"
	[ "${#stderr_lines[@]}" -eq 2 ]
	sed -i 's/^rounds = 1$/rounds = 1\nhistory = off/' "$f"
	run -0 --separate-stderr "$BOOTAB" plan "$f"
	[ "${stderr_lines[2]}" = "bootab: warning: one boot per mode and history = off: nothing can test this campaign (it can only be screened); rounds = 2 gives every mode a test of its own" ]
	[ "${#stderr_lines[@]}" -eq 3 ]
}

@test "factors: the design's runs are the modes, with what each sets, the aliases and the cost" {
	cd "$BATS_TEST_DIRNAME/../.."
	run "$BOOTAB" plan examples/lab-screen.ini
	[ "$status" -eq 0 ]
	diff -u tests/cli/expected/plan-lab-screen.txt <(printf '%s\n' "$output")
}

@test "factors: a screen of eight is a resolution IV fraction with its alias chains" {
	f="$BATS_TEST_TMPDIR/screen.ini"
	{
		printf '[campaign]\ntarget = lab\ndesign = screen\n'
		for a in mitigations=off transparent_hugepage=never iommu=pt idle=poll \
			processor.max_cstate=1 intel_pstate=disable nohz_full=1-3 rcu_nocbs=1-3; do
			printf '[factor "%s"]\nargs = %s\n' "${a%%=*}" "$a"
		done
		printf '[row "r"]\ncommand = true\n'
	} > "$f"
	run "$BOOTAB" plan "$f"
	[ "$status" -eq 0 ]
	[[ "$output" == *"design over 8 factors: fractional factorial 2^(8-4), 16 runs, resolution IV"* ]]
	[[ "$output" == *"  generator: processor.max_cstate = transparent_hugepage*iommu*idle"* ]]
	[[ "$output" == *"every main effect clear of two-factor interactions"* ]]
	[[ "$output" == *"interactions aliased: mitigations*transparent_hugepage = processor.max_cstate*intel_pstate = iommu*nohz_full = idle*rcu_nocbs"* ]]
	[[ "$output" == *"cost: 17 boots; one mode per factor: 73 boots"* ]]
	[[ "$output" == *"boot order (17 boots):"* ]]
}

# screen_plan FILE ROUNDS ARGS...: a screening plan of one factor per arg (named by its parameter).
screen_plan() {
	local f=$1 rounds=$2
	shift 2
	{
		printf '[campaign]\ntarget = lab\ndesign = screen\nrounds = %s\n' "$rounds"
		for a in "$@"; do
			printf '[factor "%s"]\nargs = %s\n' "${a%%=*}" "$a"
		done
		printf '[row "r"]\ncommand = true\n'
	} > "$f"
}

@test "factors: rounds = 2 of a Plackett-Burman screen boots its fold-over, every main effect then clear of 2FIs" {
	f="$BATS_TEST_TMPDIR/fold.ini"
	screen_plan "$f" 2 mitigations=off transparent_hugepage=never iommu=pt idle=poll processor.max_cstate=1 \
		intel_pstate=disable nohz_full=1-3 rcu_nocbs=1-3 isolcpus=1-3 nosmt audit=0 nowatchdog
	run "$BOOTAB" plan "$f"
	[ "$status" -eq 0 ]
	diff -u "$BATS_TEST_DIRNAME/expected/plan-fold.txt" <(printf '%s\n' "$output" | sed "s|$f|PLAN|")
	# Round 2 is round 1 with every factor reversed, run for run, off's fold-over every factor on.
	printf '%s\n' "$output" | sed -n '/^design over/,/^  rounds alternate/p' | grep -E '^  (off|run|fold)' > "$BATS_TEST_TMPDIR/runs"
	[ "$(wc -l < "$BATS_TEST_TMPDIR/runs")" -eq 40 ]
	all=" mitigations transparent_hugepage iommu idle processor.max_cstate intel_pstate nohz_full rcu_nocbs isolcpus nosmt audit nowatchdog"
	for r in $(seq 1 20); do
		on=$(sed -n "${r}p" "$BATS_TEST_TMPDIR/runs" | awk '{ $1 = ""; print }' | sed 's/ (every factor off.*//')
		folded=$(sed -n "$((r + 20))p" "$BATS_TEST_TMPDIR/runs" | awk '{ $1 = ""; print }')
		want=""
		for x in $all; do
			[[ " $on " == *" $x "* ]] || want="$want $x"
		done
		[ "$folded" = "$want" ] || { echo "run $r: on '$on', folded '$folded', want '$want'"; false; }
	done
}

@test "factors: rounds = 3 of a fraction with words of odd length alternate it and its fold-over; others repeat" {
	f="$BATS_TEST_TMPDIR/fold.ini"
	screen_plan "$f" 3 mitigations=off transparent_hugepage=never iommu=pt idle=poll processor.max_cstate=1 \
		intel_pstate=disable nohz_full=1-3 rcu_nocbs=1-3 isolcpus=1-3
	run "$BOOTAB" plan "$f"
	[ "$status" -eq 0 ]
	[[ "$output" == *"design over 9 factors: fractional factorial 2^(9-4), 32 runs, with its fold-over: 64 runs, resolution IV"* ]]
	[[ "$output" == *"fold-over: every factor reversed in a second set of runs, the words of odd length leave the defining relation"* ]]
	[[ "$output" == *"cost: 97 boots; one mode per factor: 481 boots"* ]]
	# Rounds 1 and 3 the design, round 2 its fold-over, off opening and closing.
	[ "$(printf '%s\n' "$output" | sed -n '/^boot order/,/^$/p' | awk 'NF >= 2 && $1 ~ /^[0-9]+$/ { print $1, $2 }' |
		awk '$1 == 1 || $1 == 32 || $1 == 33 || $1 == 64 || $1 == 65 || $1 == 97' | tr '\n' ' ')" = \
		"1 off 32 run32 33 fold01 64 fold32 65 off2 97 off3 " ]
	# Eight factors: every word of the defining relation has four letters, the fold-over is the design's own runs.
	screen_plan "$f" 2 mitigations=off transparent_hugepage=never iommu=pt idle=poll processor.max_cstate=1 \
		intel_pstate=disable nohz_full=1-3 rcu_nocbs=1-3
	run "$BOOTAB" plan "$f"
	[ "$status" -eq 0 ]
	[[ "$output" == *"  rounds repeat the design: its fold-over is its own runs (every word of its defining relation has even length)"* ]]
	[[ "$output" != *fold0* ]] || false
	[[ "$output" == *"cost: 33 boots"* ]]
	screen_plan "$f" 2 mitigations=off transparent_hugepage=never iommu=pt
	run "$BOOTAB" plan "$f"
	[ "$status" -eq 0 ]
	[[ "$output" == *"  rounds repeat the design: a full factorial's fold-over is its own runs"* ]]
	[[ "$output" != *fold0* ]] || false
}

@test "factors: errors name file, line and key" {
	f="$BATS_TEST_TMPDIR/bad.ini"
	printf '[factor "a"]\nargs = pti=on\n[factor "b"]\nargs = pti=off\n' > "$f"
	run "$BOOTAB" plan "$f"
	[ "$status" -eq 2 ]
	[ "$output" = "bootab: $f:3: args: 'pti' is set by factor 'a' too: each parameter belongs to one factor" ]
	printf '[campaign]\ndesign = half\n[factor "a"]\nargs = pti=on\n' > "$f"
	run "$BOOTAB" plan "$f"
	[ "$status" -eq 2 ]
	[ "$output" = "bootab: $f:2: design: 'half' is not screen or full" ]
}

@test "the summary and report.json say what the campaign cost and the cheapest design for its claim, as plan --effect prices it" {
	c="$BATS_TEST_DIRNAME/../fixtures/campaign-abca"
	sides=(pt translated off pt2 translated2 off2 pt3 translated3 off3 pt4)
	# Box time from meta.json itself: reboots, idle waits, rep end - start.
	total=$(for s in "${sides[@]}"; do cat "$c/$s/meta.json"; done |
		jq -s '[.[] | .reboot_s, (.rows[] | .idle_wait_s // 0, (.reps // [] | .[] | (.end | fromdate) - (.start | fromdate)))] | add')
	box=$(printf '%dm%02ds' $((total / 60)) $((total % 60)))
	run --separate-stderr "$BOOTAB" compare --color never "${sides[@]/#/$c/}"
	[ "$status" -eq 0 ]
	line=$(printf '%s\n' "$output" | sed -n '/^cost: /,/^[a-z]/p' | sed '$d' | tr -s ' \n' ' ')
	[[ "$line" == "cost: 10 boots over 3 modes, $box of box time (reboots and timed reps); the cheapest design that finds its claim with 80% power: 2 boots per mode (rounds = 2), reps = 2 in [row \"prefill\"], 23m52s " ]] ||
		{ echo "$line"; false; }
	# The one claim is off's prefill pp512 at +3.8%: the same design and time as plan --effect gives that row.
	[[ "$output" == *"off vs pt: prefill pp512 +3.8 % [+2.3, +5.3] faster (boot t, 3 + 4 boots)"$'\n'* ]]
	run "$BOOTAB" plan --effect 3.8% --from "$c" "$c/plan.ini"
	[ "$status" -eq 0 ]
	[[ "$output" == *"the cheapest, 2 x 2: 23m52s"* ]]
	# report.json holds the same.
	run --separate-stderr "$BOOTAB" compare --json "${sides[@]/#/$c/}"
	[ "$status" -eq 0 ]
	[ "$(printf '%s\n' "$output" | jq -c '.design_cost | [.boots, .modes, (.box_s | round), .cheapest.claims, .cheapest.boots_per_mode, .cheapest.rows, (.cheapest.box_s | round)]')" = \
		"[10,3,$total,1,2,[{\"row\":\"prefill\",\"reps\":2}],1432]" ]
	# Without a claim, the cost alone; without timings, no line.
	run --separate-stderr "$BOOTAB" compare --color never "$c/pt" "$c/translated" "$c/pt2" "$c/translated2"
	[ "$status" -eq 0 ]
	[[ "$output" == *"cost: 4 boots over 2 modes, "*" of box time (reboots and timed reps)"$'\n'* ]]
	[[ "$output" != *"cheapest design"* ]]
	run --separate-stderr "$BOOTAB" compare --json "$c/pt" "$c/translated" "$c/pt2" "$c/translated2"
	[ "$(printf '%s\n' "$output" | jq -c '.design_cost | [.boots, .modes, .cheapest]')" = "[4,2,null]" ]
	hf="$BATS_TEST_DIRNAME/../fixtures/campaign-hyperfine"
	run --separate-stderr "$BOOTAB" compare --color never "$hf/a" "$hf/b" "$hf/a2" "$hf/b2" "$hf/a3" "$hf/b3"
	[ "$status" -eq 0 ]
	[[ "$output" == *"boot level: "* ]]
	[[ "$output" != *"cost: "* ]]
	run --separate-stderr "$BOOTAB" compare --json "$hf/a" "$hf/b" "$hf/a2" "$hf/b2" "$hf/a3" "$hf/b3"
	[ "$(printf '%s\n' "$output" | jq -c .design_cost)" = null ]
	# A row name from a box is escaped in Markdown.
	cp -r "$c" "$BATS_TEST_TMPDIR/c"
	sed -i 's/"name": "prefill"/"name": "pre<b>fill<\/b>"/' "$BATS_TEST_TMPDIR"/c/*/meta.json
	run --separate-stderr "$BOOTAB" compare --color never --format md "${sides[@]/#/$BATS_TEST_TMPDIR/c/}"
	[ "$status" -eq 0 ]
	[[ "$output" == *'reps = 2 in [row "pre\<b\>fill\</b\>"]'* ]] || { printf '%s\n' "$output" | grep -A2 '^cost'; false; }
}

@test "the counters each row gets: perf, perf_scope and energy, its own or the campaign's" {
	f="$BATS_TEST_TMPDIR/counters.ini"
	printf '[campaign]\nperf = task-clock,page-faults\nenergy = on\n[mode "a"]\nargs = pti=on\n[mode "b"]\nargs = pti=off\n[row "all"]\ncommand = true\n[row "own"]\ncommand = true\nperf = cycles,instructions\nperf_scope = system\nenergy = off\n[row "none"]\ncommand = true\nperf = off\nenergy = off\n[check "c"]\ncommand = true\n' > "$f"
	run -0 "$BOOTAB" plan "$f"
	[[ "$output" == *$'\n  row   all              true\n'*$'\n                         perf = task-clock,page-faults, perf_scope = command; energy = on\n  row   own '* ]]
	[[ "$output" == *$'\n  row   own              true\n'*$'\n                         perf = cycles,instructions, perf_scope = system; energy = off\n  row   none '* ]]
	[[ "$output" == *$'\n  row   none             true\n'*$'\n                         perf = off; energy = off\n  check c '* ]]
	# A plan without counters says none.
	sed -i '/^perf\|^energy/d' "$f"
	run -0 "$BOOTAB" plan "$f"
	[[ "$output" != *"perf ="* && "$output" != *"energy ="* ]]
}
