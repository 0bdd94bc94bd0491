#!/usr/bin/env bats
# Options and values that were taken silently or read wrong: each is said
# or refused now. The sides are the lab campaign fixture's
# (tests/fixtures/campaign-lab, recorded from a real lab run).
bats_require_minimum_version 1.5.0

setup() {
	c="$BATS_TEST_DIRNAME/../fixtures/campaign-lab"
	export XDG_DATA_HOME="$BATS_TEST_TMPDIR/data"
}

@test "--equivalence ROW=PCT naming no row is refused naming it; a margin is decimal, 0x10% is no 16%" {
	run -2 "$BOOTAB" compare "$c/passthrough" "$c/translated" --equivalence nosuchrow=2%
	[ "$output" = "bootab: --equivalence 'nosuchrow=2%': no row 'nosuchrow' in the results; see 'bootab help compare'" ]
	for bad in 0x10% 0x10 1e1 inf 1.2.3 . 2%%; do
		run -2 "$BOOTAB" compare "$c/passthrough" "$c/translated" --equivalence "$bad"
		[ "$output" = "bootab: --equivalence: '$bad' is not a margin in % above 0 and at most 50 (or ROW=PCT); see 'bootab help compare'" ]
		run -2 "$BOOTAB" compare "$c/passthrough" "$c/translated" --equivalence "randread=$bad"
	done
	# What it takes: a row of the results, a decimal with or without %.
	run -0 "$BOOTAB" compare "$c/passthrough" "$c/translated" --equivalence randread=2% --equivalence 2.5
}

@test "KTAP nested 33 levels keeps its failed test, named by its path" {
	# The KUnit suite of tests/fixtures/kernel-patch, its failing test put
	# 33 levels deep (each level a '# Subtest:' block, as KUnit nests them).
	k="$BATS_TEST_DIRNAME/../fixtures/kernel-patch"
	mkdir -p "$BATS_TEST_TMPDIR/old" "$BATS_TEST_TMPDIR/new"
	cp "$k/old/dma.txt" "$k/old/kunit.txt" "$BATS_TEST_TMPDIR/old/"
	cp "$k/new/dma.txt" "$BATS_TEST_TMPDIR/new/"
	awk 'BEGIN {
		print "KTAP version 1"; print "1..1";
		for (i = 1; i < 33; i++) {
			ind = sprintf("%*s", 4 * i, "");
			print ind "KTAP version 1"; print ind "# Subtest: s" i; print ind "1..1";
		}
		printf "%*snot ok 1 unmap_partial\n", 4 * 33, "";
		for (i = 32; i >= 1; i--)
			printf "%*snot ok 1 s%d\n", 4 * (i - 1), "", i;
	}' > "$BATS_TEST_TMPDIR/new/kunit.txt"
	run --separate-stderr -0 "$BOOTAB" compare "$BATS_TEST_TMPDIR/old" "$BATS_TEST_TMPDIR/new"
	[ "$stderr" = "" ]
	path=$(seq -f 's%g' 1 32 | paste -sd.).unmap_partial
	[[ "$(tr -d '\n ' <<<"$output")" == *"kunit:1of1testfailed($path)"* ]]
}

@test "a reboot_s that overflows a sum is said and not used: no 'at infs'" {
	cp -r "$c" "$BATS_TEST_TMPDIR/c"
	sed -i 's/"reboot_s": [0-9.e+]*/"reboot_s": 1e308/' "$BATS_TEST_TMPDIR/c"/*/meta.json
	run --separate-stderr -0 "$BOOTAB" plan --effect 2% --from "$BATS_TEST_TMPDIR/c" "$BATS_TEST_TMPDIR/c/plan.ini"
	[[ "$stderr" == *"passthrough/meta.json: reboot_s: not a number of seconds from 0 to 31622400, ignoring it"* ]]
	[[ "$output" == *"(2 reboots at about 90s, "* ]]
	[[ "$output" != *inf* ]] || false
}

@test "a history whose boot means or reps overflow a variance prints '-' in the plan's sd columns, not 'inf%'" {
	# A history file is the user's to edit: mean_log and ss_log need only be
	# finite. Two boots 1e300 apart make the boot variance of prefill inf
	# (sigma_b); two ss_log of 1e308 make the rep variance of latency inf
	# (sigma_w).
	cat > "$BATS_TEST_TMPDIR/h.json" <<-'EOF'
	{"format": "bootab-history", "format_version": 1, "machine_id": "4c4c4544004a3610804bb7c04f395032", "entries": [{"key": "o1", "recorded": "2025-02-01T10:00:00Z", "kind": "aa", "metrics": [
	 {"row": "prefill", "metric": "pp512", "boots": [{"mean_log": 1e300, "n": 5, "ss_log": 1e-5}, {"mean_log": -1e300, "n": 5, "ss_log": 1e-5}]},
	 {"row": "latency", "metric": "p99_ms", "boots": [{"mean_log": 0.9, "n": 3, "ss_log": 1e308}, {"mean_log": 0.91, "n": 3, "ss_log": 1e308}]}]}]}
	EOF
	run --separate-stderr -0 "$BOOTAB" plan --effect 1 --history "$BATS_TEST_TMPDIR/h.json" "$BATS_TEST_DIRNAME/../fixtures/campaign-abca/plan.ini"
	[[ "$output" == *"  prefill      pp512                   -    0.16%    5      >1000 "* ]]
	[[ "$output" == *"  latency      p99_ms              0.00%        -    3      >1000 "* ]]
	[[ "$output" != *inf* ]] || false
}

@test "an inventory starting with a UTF-8 byte-order mark is read; ansible_port=\" 22\" is refused" {
	cd "$BATS_TEST_TMPDIR"
	printf '[campaign]\ninventory = hosts.ini\n[mode "a"]\nargs =\n[row "x"]\ncommand = true\n' > plan.ini
	printf '\xef\xbb\xbf[web]\nw1 ansible_host=10.0.0.1\nw2 ansible_host=10.0.0.2\n' > hosts.ini
	run --separate-stderr -0 "$BOOTAB" plan plan.ini
	[[ "$output" == *w1*w2* ]]
	for port in '" 22"' '"22 "' '+22' '0x16'; do
		printf '[web]\nw1 ansible_host=10.0.0.1 ansible_port=%s\nw2 ansible_host=10.0.0.2\n' "$port" > hosts.ini
		run -2 "$BOOTAB" plan plan.ini
		[ "$output" = "bootab: hosts.ini:2: ansible_port: '$(tr -d '"' <<<"$port")' is not a port from 1 to 65535" ]
	done
}
