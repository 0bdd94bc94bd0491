#!/bin/sh
# Scaling of the readers a hostile or very large box once made
# quadratic: fio JSON with many jobs (`bootab compare` of two sides, one
# fio output each, every job named alike so each needs a "#N" label) and
# `bootab iommu-map --diff` of two snapshots with many IOMMU groups (one
# device each, every group's type changed), an Ansible inventory of nested
# groups, a new,old table of many rows (two sides) and compare over many
# sides (one number file each, a numbered series of modes). For each size it prints the
# median wall time over RUNS runs and the ratio to the size before: about
# 2 per doubling is linear (or n log n), about 4 is quadratic.
#   usage: bench/scaling.sh [BOOTAB] [RUNS]
set -eu
bootab=${1:-./bootab}
# The sides series runs from its own directory: a relative path is made absolute.
case $bootab in
*/*) bootab=$(cd "$(dirname "$bootab")" && pwd)/$(basename "$bootab") ;;
esac
runs=${2:-5}
dir=$(mktemp -d /tmp/bootab-scaling.XXXXXX)
trap 'rm -rf "$dir"' EXIT INT TERM

# median_s CMD...: the median wall time of RUNS runs of CMD, in seconds.
median_s() {
	i=0
	: > "$dir/times"
	while [ "$i" -lt "$runs" ]; do
		start=$(date +%s.%N)
		"$@" > /dev/null 2>&1 || true
		end=$(date +%s.%N)
		echo "$start $end" | awk '{ printf "%.4f\n", $2 - $1 }' >> "$dir/times"
		i=$((i + 1))
	done
	sort -n "$dir/times" | awk '{ t[NR] = $1 } END { print (NR % 2) ? t[(NR + 1) / 2] : (t[NR / 2] + t[NR / 2 + 1]) / 2 }'
}

# fio_json N SEED: fio --output-format=json of N jobs named "job".
fio_json() {
	awk -v n="$1" -v seed="$2" 'BEGIN {
		srand(seed);
		printf "{\"fio version\": \"fio-3.33\", \"jobs\": [";
		for (i = 0; i < n; i++)
			printf "%s{\"jobname\": \"job\", \"error\": 0, \"read\": {\"io_bytes\": 4096, \"total_ios\": 1, \"iops\": %.2f, \"bw\": %.1f, \"clat_ns\": {\"mean\": %.1f, \"percentile\": {\"99.000000\": %d}}}}",
				i ? ", " : "", 1000 + rand() * 10, 4000 + rand() * 40, 50000 + rand() * 500, 90000;
		print "]}";
	}'
}

# snapshot_json N TYPE: a meta.json with N IOMMU groups of TYPE, one device each.
snapshot_json() {
	awk -v n="$1" -v type="$2" 'BEGIN {
		printf "{\"bootab_snapshot\": 1, \"kernel\": \"6.1.0\", \"cmdline\": \"\", \"boot_id\": \"fe8d3a22-208d-46fb-9c1f-2119ca9cb152\", \"iommu\": {\"summary\": \"\", \"classes\": [], \"groups\": [";
		for (i = 0; i < n; i++)
			printf "%s{\"group\": %d, \"type\": \"%s\", \"devices\": [{\"name\": \"0000:%02x:%02x.%d\", \"bus\": \"pci\", \"vendor\": \"0x8086\", \"device\": \"0x29c0\", \"class\": \"0x060000\", \"driver\": null, \"description\": null}]}",
				i ? ", " : "", i, type, int(i / 2048), int(i / 8) % 256, i % 8;
		print "]}}";
	}'
}

# new_old_table N SEED: the kernel's new,old table (drivers/iommu/generic_pt's
# format, as tests/fixtures/parsers/new-old-table holds it) of N page sizes.
new_old_table() {
	awk -v n="$1" -v seed="$2" 'BEGIN {
		srand(seed);
		print "map_pages";
		print "   pgsz  ,avg new,old ns, min new,old ns  , min % (+ve is better)";
		for (i = 0; i < n; i++)
			printf "%d*2^12, %d,%d , %d,%d , %.2f\n", i + 1, 300 + int(rand() * 50), 250 + int(rand() * 50), 280, 210, -35.35;
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

echo "fio jobs (bootab compare of two sides), median of $runs runs:"
echo "     jobs     bytes   median_s   ratio"
prev=
for n in 1000 2000 4000 8000; do
	mkdir -p "$dir/fio$n/a" "$dir/fio$n/b"
	fio_json "$n" 1 > "$dir/fio$n/a/fio.json"
	fio_json "$n" 2 > "$dir/fio$n/b/fio.json"
	t=$(median_s "$bootab" compare --format csv "$dir/fio$n/a" "$dir/fio$n/b")
	size=$(wc -c < "$dir/fio$n/a/fio.json")
	printf '%9d %9d %10s %7s\n' "$n" "$size" "$t" "$(awk -v a="$t" -v b="${prev:-0}" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }')"
	prev=$t
done

echo "IOMMU groups (bootab iommu-map --diff), median of $runs runs:"
echo "   groups     bytes   median_s   ratio"
prev=
for n in 6250 12500 25000 50000; do
	snapshot_json "$n" DMA > "$dir/a$n.json"
	snapshot_json "$n" identity > "$dir/b$n.json"
	t=$(median_s "$bootab" iommu-map --diff "$dir/a$n.json" "$dir/b$n.json")
	size=$(wc -c < "$dir/a$n.json")
	printf '%9d %9d %10s %7s\n' "$n" "$size" "$t" "$(awk -v a="$t" -v b="${prev:-0}" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }')"
	prev=$t
done

echo "Ansible inventory child groups (bootab plan), median of $runs runs:"
echo "   groups     bytes   median_s   ratio"
prev=
for n in 125 250 500 999; do
	inventory_ini "$n" > "$dir/inv$n.ini"
	printf '[campaign]\ninventory = inv%s.ini\n[mode "a"]\nargs =\n' "$n" > "$dir/plan$n.ini"
	t=$(median_s "$bootab" plan "$dir/plan$n.ini")
	size=$(wc -c < "$dir/inv$n.ini")
	printf '%9d %9d %10s %7s\n' "$n" "$size" "$t" "$(awk -v a="$t" -v b="${prev:-0}" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }')"
	prev=$t
done

echo "new,old table rows (bootab compare of two sides), median of $runs runs:"
echo "     rows     bytes   median_s   ratio"
prev=
for n in 2500 5000 10000 20000; do
	mkdir -p "$dir/table$n/a" "$dir/table$n/b"
	new_old_table "$n" 1 > "$dir/table$n/a/table.txt"
	new_old_table "$n" 2 > "$dir/table$n/b/table.txt"
	t=$(median_s "$bootab" compare --format csv "$dir/table$n/a" "$dir/table$n/b")
	size=$(wc -c < "$dir/table$n/a/table.txt")
	printf '%9d %9d %10s %7s\n' "$n" "$size" "$t" "$(awk -v a="$t" -v b="${prev:-0}" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }')"
	prev=$t
done

echo "sides (bootab compare m1 ... mN, one number each), median of $runs runs:"
echo "    sides   median_s   ratio"
prev=
for n in 1000 2000 4000 8000; do
	mkdir -p "$dir/sides$n"
	i=1
	while [ "$i" -le "$n" ]; do
		mkdir "$dir/sides$n/m$i"
		echo $((100 + i % 7)) > "$dir/sides$n/m$i/x.txt"
		i=$((i + 1))
	done
	t=$(cd "$dir/sides$n" && median_s "$bootab" compare --format csv $(seq -f 'm%g' 1 "$n"))
	printf '%9d %10s %7s\n' "$n" "$t" "$(awk -v a="$t" -v b="${prev:-0}" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }')"
	prev=$t
done
