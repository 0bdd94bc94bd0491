#!/bin/sh
# Scaling of the readers a hostile or very large box once made
# quadratic: fio JSON with many jobs (`bootab compare` of two sides, one
# fio output each, every job named alike so each needs a "#N" label) and
# `bootab iommu-map --diff` of two snapshots with many IOMMU groups (one
# device each, every group's type changed), an Ansible inventory of nested
# groups, a new,old table of many rows (two sides) and compare over many
# sides (one number file each, a numbered series of modes). For each size it prints the
# median wall time over RUNS runs and the ratio to the size before: about
# 2 per doubling is linear (or n log n), about 4 is quadratic. With OLD, a
# second binary (one built before a change), each size is run with both,
# in turn, and the line adds OLD's median, its ratio and new / old; the
# table series adds each one's peak memory (GNU time's maximum resident
# set, one more run each) and the bytes per table row it comes to.
# SERIES (comma-separated: fio, iommu, inventory, table, sides) runs those
# alone.
#   usage: bench/scaling.sh [BOOTAB] [RUNS] [OLD] [SERIES]
set -eu
# absolute PATH: the sides series runs from its own directory.
absolute() {
	case $1 in
	*/*) echo "$(cd "$(dirname "$1")" && pwd)/$(basename "$1")" ;;
	*) echo "$1" ;;
	esac
}
bootab=$(absolute "${1:-./bootab}")
runs=${2:-5}
old=${3:-}
[ -z "$old" ] || old=$(absolute "$old")
series=${4:-fio,iommu,inventory,table,sides}
dir=$(mktemp -d /tmp/bootab-scaling.XXXXXX)
trap 'rm -rf "$dir"' EXIT INT TERM

# wanted NAME: whether series NAME is to run.
wanted() {
	case ",$series," in
	*",$1,"*) return 0 ;;
	*) return 1 ;;
	esac
}

# ratio A B: A / B to two places, "-" when B is not positive.
ratio() {
	awk -v a="$1" -v b="${2:-0}" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }'
}

# peak_kb CMD...: the peak resident memory of one run of CMD in KB ("-"
# without GNU time).
peak_kb() {
	if [ -x /usr/bin/time ]; then
		/usr/bin/time -f '%M' -o "$dir/peak" "$@" > /dev/null 2>&1 || true
		tail -n 1 "$dir/peak"
	else
		echo -
	fi
}

# both CMD ARGS...: "NEW_MEDIAN OLD_MEDIAN" of RUNS runs of CMD with the
# binary and with OLD ("-" without OLD), the two taking turns so that a
# load on the machine falls on both alike; CMD is a function that takes
# the binary first.
both() {
	cmd=$1
	shift
	: > "$dir/new"
	: > "$dir/old"
	r=0
	while [ "$r" -lt "$runs" ]; do
		seconds "$cmd" "$bootab" "$@" >> "$dir/new"
		[ -z "$old" ] || seconds "$cmd" "$old" "$@" >> "$dir/old"
		r=$((r + 1))
	done
	if [ -n "$old" ]; then
		echo "$(median "$dir/new") $(median "$dir/old")"
	else
		echo "$(median "$dir/new") -"
	fi
}

# line N BYTES T_NEW T_OLD: one size's line, with the ratios to the size
# before (prev_new, prev_old).
line() {
	printf '%9s %9s %10s %7s' "$1" "$2" "$3" "$(ratio "$3" "${prev_new:-0}")"
	[ -z "$old" ] || printf ' %10s %7s %8s' "$4" "$(ratio "$4" "${prev_old:-0}")" "$(ratio "$3" "$4")"
	prev_new=$3
	prev_old=$4
}

# header WHAT: the series' title and column names.
header() {
	echo "$1, median of $runs runs:"
	printf '%9s %9s %10s %7s' size bytes median_s ratio
	[ -z "$old" ] || printf ' %10s %7s %8s' old_s ratio new/old
	prev_new=
	prev_old=
}

# seconds CMD...: the wall time of one run of CMD.
seconds() {
	start=$(date +%s.%N)
	"$@" > /dev/null 2>&1 || true
	end=$(date +%s.%N)
	echo "$start $end" | awk '{ printf "%.4f\n", $2 - $1 }'
}

# median FILE: the median of FILE's numbers, one a line.
median() {
	sort -n "$1" | awk '{ t[NR] = $1 } END { print (NR % 2) ? t[(NR + 1) / 2] : (t[NR / 2] + t[NR / 2 + 1]) / 2 }'
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

fio_compare() {
	"$1" compare --format csv "$dir/fio$2/a" "$dir/fio$2/b"
}

iommu_diff() {
	"$1" iommu-map --diff "$dir/a$2.json" "$dir/b$2.json"
}

inventory_plan() {
	"$1" plan "$dir/plan$2.ini"
}

table_compare() {
	"$1" compare --format csv "$dir/table$2/a" "$dir/table$2/b"
}

sides_compare() {
	# shellcheck disable=SC2046 # one word per side
	(cd "$dir/sides$2" && "$1" compare --format csv $(seq -f 'm%g' 1 "$2"))
}

if wanted fio; then
	header "fio jobs (bootab compare of two sides)"
	echo
	for n in 1000 2000 4000 8000; do
		mkdir -p "$dir/fio$n/a" "$dir/fio$n/b"
		fio_json "$n" 1 > "$dir/fio$n/a/fio.json"
		fio_json "$n" 2 > "$dir/fio$n/b/fio.json"
		# shellcheck disable=SC2046 # two medians
		line "$n" "$(wc -c < "$dir/fio$n/a/fio.json")" $(both fio_compare "$n")
		echo
	done
fi

if wanted iommu; then
	header "IOMMU groups (bootab iommu-map --diff)"
	echo
	for n in 6250 12500 25000 50000; do
		snapshot_json "$n" DMA > "$dir/a$n.json"
		snapshot_json "$n" identity > "$dir/b$n.json"
		# shellcheck disable=SC2046 # two medians
		line "$n" "$(wc -c < "$dir/a$n.json")" $(both iommu_diff "$n")
		echo
	done
fi

if wanted inventory; then
	header "Ansible inventory child groups (bootab plan)"
	echo
	for n in 125 250 500 999; do
		inventory_ini "$n" > "$dir/inv$n.ini"
		printf '[campaign]\ninventory = inv%s.ini\n[mode "a"]\nargs =\n' "$n" > "$dir/plan$n.ini"
		# shellcheck disable=SC2046 # two medians
		line "$n" "$(wc -c < "$dir/inv$n.ini")" $(both inventory_plan "$n")
		echo
	done
fi

if wanted table; then
	header "new,old table rows (bootab compare of two sides)"
	printf ' %9s %8s' peak_kb B/row
	[ -z "$old" ] || printf ' %9s %8s' old_kb B/row
	echo
	for n in 2500 5000 10000 20000; do
		mkdir -p "$dir/table$n/a" "$dir/table$n/b"
		new_old_table "$n" 1 > "$dir/table$n/a/table.txt"
		new_old_table "$n" 2 > "$dir/table$n/b/table.txt"
		# shellcheck disable=SC2046 # two medians
		line "$n" "$(wc -c < "$dir/table$n/a/table.txt")" $(both table_compare "$n")
		kb=$(peak_kb "$bootab" compare --format csv "$dir/table$n/a" "$dir/table$n/b")
		printf ' %9s %8s' "$kb" "$(awk -v kb="$kb" -v n="$n" 'BEGIN { if (kb + 0 > 0) printf "%.0f", kb * 1024 / n; else print "-" }')"
		if [ -n "$old" ]; then
			kb=$(peak_kb "$old" compare --format csv "$dir/table$n/a" "$dir/table$n/b")
			printf ' %9s %8s' "$kb" "$(awk -v kb="$kb" -v n="$n" 'BEGIN { if (kb + 0 > 0) printf "%.0f", kb * 1024 / n; else print "-" }')"
		fi
		echo
	done
fi

if wanted sides; then
	header "sides (bootab compare m1 ... mN, one number each)"
	echo
	for n in 1000 2000 4000 8000; do
		mkdir -p "$dir/sides$n"
		(cd "$dir/sides$n" && seq -f 'm%g' 1 "$n" | xargs mkdir)
		i=1
		while [ "$i" -le "$n" ]; do
			echo $((100 + i % 7)) > "$dir/sides$n/m$i/x.txt"
			i=$((i + 1))
		done
		# shellcheck disable=SC2046 # two medians
		line "$n" - $(both sides_compare "$n")
		echo
	done
fi
