#!/bin/sh
# Whether two builds of bootab read the same snapshot: `bootab snapshot
# --root TREE` of every captured tree in tests/fixtures/sysfs, under dash,
# busybox sh and bash, with OLD and with NEW; their snapshot.out must be
# identical but for the "time" record. Prints each tree and shell that
# differs, then the count.
#   usage: bench/snapshot-same.sh OLD_BOOTAB NEW_BOOTAB
set -u
old=$1
new=$2
top=$(cd "$(dirname "$0")/.." && pwd)
d=$(mktemp -d /tmp/bootab-snapsame.XXXXXX)
trap 'rm -rf "$d"' EXIT INT TERM
ln -s "$(command -v busybox)" "$d/sh"
fail=0
n=0
for t in "$top"/tests/fixtures/sysfs/*/; do
	t=${t%/}
	for sh in dash "$d/sh" bash; do
		for b in old new; do
			if [ "$b" = old ]; then bin=$old; else bin=$new; fi
			rm -rf "${d:?}/$b"
			BOOTAB_TARGET_SH=$sh "$bin" snapshot --root "$t" --managed "iommu=pt iommu.strict=1" -o "$d/$b" \
				> /dev/null 2> "$d/$b.err" || echo "$b ${t##*/} $sh: exit $?: $(tail -n 1 "$d/$b.err")"
			grep -v '^time	' "$d/$b/snapshot.out" > "$d/$b.out" 2> /dev/null
		done
		n=$((n + 1))
		if ! cmp -s "$d/old.out" "$d/new.out" || [ ! -s "$d/new.out" ]; then
			fail=$((fail + 1))
			echo "differs: ${t##*/} ($sh)"
			diff "$d/old.out" "$d/new.out" | head -n 5
		fi
	done
done
echo "$n snapshots compared, $fail differ"
[ "$fail" -eq 0 ]
