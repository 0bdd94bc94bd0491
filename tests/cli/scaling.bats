#!/usr/bin/env bats
# Readers that once grew as n^2 (a box with many fio jobs or IOMMU groups
# could stall bootab for minutes): four times the input must cost about four
# times the time, not sixteen. The bound (9x) leaves room for a loaded machine;
# bench/scaling.sh measures the medians.

setup() {
	if [ "${BOOTAB_TEST_NO_LAB:-}" = check-valgrind ]; then
		skip "timing under valgrind says nothing about the algorithm"
	fi
	d="$BATS_TEST_TMPDIR"
}

# seconds CMD...: wall time of one run of CMD, which must succeed.
seconds() {
	local start end
	start=$(date +%s.%N)
	"$@" > /dev/null 2>&1
	end=$(date +%s.%N)
	echo "$start $end" | awk '{ printf "%.3f\n", $2 - $1 }'
}

# ratio_below A B LIMIT: B / A < LIMIT
ratio_below() {
	awk -v a="$1" -v b="$2" -v l="$3" 'BEGIN { exit !(b / (a > 0.01 ? a : 0.01) < l) }'
}

fio_json() {
	awk -v n="$1" 'BEGIN {
		printf "{\"fio version\": \"fio-3.33\", \"jobs\": [";
		for (i = 0; i < n; i++)
			printf "%s{\"jobname\": \"job\", \"error\": 0, \"read\": {\"io_bytes\": 4096, \"total_ios\": 1, \"iops\": %d, \"bw\": 4000, \"clat_ns\": {\"mean\": 50000}}}",
				i ? ", " : "", 1000 + i % 7;
		print "]}";
	}'
}

snapshot_json() {
	awk -v n="$1" -v type="$2" 'BEGIN {
		printf "{\"bootab_snapshot\": 1, \"kernel\": \"6.1.0\", \"cmdline\": \"\", \"boot_id\": \"fe8d3a22-208d-46fb-9c1f-2119ca9cb152\", \"iommu\": {\"summary\": \"\", \"classes\": [], \"groups\": [";
		for (i = 0; i < n; i++)
			printf "%s{\"group\": %d, \"type\": \"%s\", \"devices\": [{\"name\": \"0000:%02x:%02x.%d\", \"bus\": \"pci\", \"vendor\": \"0x8086\", \"device\": \"0x29c0\", \"class\": \"0x060000\", \"driver\": null, \"description\": null}]}",
				i ? ", " : "", i, type, int(i / 2048), int(i / 8) % 256, i % 8;
		print "]}}";
	}'
}

# inventory_ini N [CYCLE]: an Ansible inventory of N groups, each the child of
# the one before it, written deepest first (the order that made each pass of
# the old depth search move one group), each with a host, its vars and a
# 560-byte comment (999 groups: about 650 KB); CYCLE: the last group's child
# is the first.
inventory_ini() {
	awk -v n="$1" -v cyc="${2:-}" 'BEGIN {
		pad = sprintf("%560s", ""); gsub(/ /, "x", pad);
		for (i = n - 1; i >= 0; i--) {
			printf "# %s\n[g%d]\nh%d ansible_host=10.0.%d.%d\n", pad, i, i, int(i / 256), i % 256;
			if (i + 1 < n) printf "[g%d:children]\ng%d\n", i, i + 1;
			else if (cyc != "") printf "[g%d:children]\ng0\n", i;
			printf "[g%d:vars]\nansible_user=u%d\n", i, i;
		}
	}'
}

@test "an Ansible inventory of 4x the child groups takes about 4x the time; a cycle is an error naming its groups" {
	for n in 250 999; do
		inventory_ini "$n" > "$d/inv$n.ini"
		printf '[campaign]\ninventory = inv%s.ini\n[mode "a"]\nargs =\n' "$n" > "$d/plan$n.ini"
	done
	run "$BOOTAB" plan "$d/plan999.ini"
	[ "$status" -eq 0 ]
	[[ "$output" == *"h998"* ]]
	small=$(seconds "$BOOTAB" plan "$d/plan250.ini")
	large=$(seconds "$BOOTAB" plan "$d/plan999.ini")
	echo "# 250 groups: $small s, 999 groups: $large s" >&3
	ratio_below "$small" "$large" 9
	inventory_ini 999 cycle > "$d/inv999.ini"
	run timeout 60 "$BOOTAB" plan "$d/plan999.ini"
	[ "$status" -eq 2 ]
	[ "$output" = "bootab: $d/inv999.ini:4: children: the groups' children form a cycle: g998 -> g0 -> g1 -> g2 -> g3 -> g4 -> g5 -> ... -> g998 (999 groups)" ]
}

@test "fio output with 4x the jobs (one name, each labelled #N) takes about 4x the time" {
	for n in 2000 8000; do
		mkdir -p "$d/$n/a" "$d/$n/b"
		fio_json "$n" > "$d/$n/a/fio.json"
		cp "$d/$n/a/fio.json" "$d/$n/b/fio.json"
	done
	# The labels are whole: the last job of 8000 is job#8000.
	run "$BOOTAB" compare --format csv "$d/8000/a" "$d/8000/b"
	[ "$status" -eq 0 ]
	[[ "$output" == *"job#8000.iops,b,"* ]]
	small=$(seconds "$BOOTAB" compare --format csv "$d/2000/a" "$d/2000/b")
	large=$(seconds "$BOOTAB" compare --format csv "$d/8000/a" "$d/8000/b")
	echo "# 2000 jobs: $small s, 8000 jobs: $large s" >&3
	ratio_below "$small" "$large" 9
}

@test "iommu-map --diff with 4x the groups takes about 4x the time" {
	for n in 12500 50000; do
		snapshot_json "$n" DMA > "$d/a$n.json"
		snapshot_json "$n" identity > "$d/b$n.json"
	done
	run "$BOOTAB" iommu-map --diff "$d/a50000.json" "$d/b50000.json"
	[ "$status" -eq 0 ]
	[ "$(printf '%s\n' "$output" | grep -c ' DMA -> identity ')" -eq 50000 ]
	small=$(seconds "$BOOTAB" iommu-map --diff "$d/a12500.json" "$d/b12500.json")
	large=$(seconds "$BOOTAB" iommu-map --diff "$d/a50000.json" "$d/b50000.json")
	echo "# 12500 groups: $small s, 50000 groups: $large s" >&3
	ratio_below "$small" "$large" 9
}

# sides DIR N: N side directories m1 ... mN under DIR, one number each (a
# numbered series: N modes of one side each).
sides() {
	mkdir -p "$1"
	(cd "$1" && seq -f 'm%g' 1 "$2" | xargs mkdir &&
		awk -v n="$2" 'BEGIN { for (i = 1; i <= n; i++) { f = "m" i "/x.txt"; print 100 + i % 7 > f; close(f) } }')
}

@test "compare over 4x the sides (a numbered series of modes) takes about 4x the time" {
	sides "$d/2000" 2000
	sides "$d/8000" 8000
	cd "$d/8000"
	# shellcheck disable=SC2046 # one word per side
	run "$BOOTAB" compare --format csv $(seq -f 'm%g' 1 8000)
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 8001 ]
	[ "${lines[8000]}" = "x,value,m8000,m8000,mean,,higher,106,,,1,4.95049505,,,,,,,,no-drift,,,,none,1,1,4.95049505,,,,,,untested,,not-tested,,,,,,,,,," ]
	# shellcheck disable=SC2046 # one word per side
	small=$(cd "$d/2000" && seconds "$BOOTAB" compare --format csv $(seq -f 'm%g' 1 2000))
	# shellcheck disable=SC2046 # one word per side
	large=$(seconds "$BOOTAB" compare --format csv $(seq -f 'm%g' 1 8000))
	echo "# 2000 sides: $small s, 8000 sides: $large s" >&3
	ratio_below "$small" "$large" 9
}
