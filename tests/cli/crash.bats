#!/usr/bin/env bats
# kill -9 of bootab while it writes, many times at random moments: boot
# entries (bootab set on copies of the fixture trees) and snapshot output
# directories. After every kill each file is the old or the new version
# byte for byte, a temporary left behind is never taken for an entry, and
# the next bootab set completes.
#
# BOOTAB_TEST_WRITE_DELAY_US makes every write pause between its parts so
# that the kills land inside writes. The kill times come from bash's
# RANDOM seeded with BOOTAB_TEST_KILL_SEED (printed on failure, with the
# kill that failed; set it to replay); BOOTAB_TEST_KILL_ITERATIONS sets
# the number of kills of every test (by default 40 for bls, and fewer
# where one run is slow: 15 for grub, whose update-grub is a shell script,
# and 15 for snapshot, whose script reads a whole sysfs tree). The C
# harness in tests/unit/test-crash.c kills the writers themselves many
# more times.

bats_require_minimum_version 1.5.0
load helpers/target

BOOT_FIX="$BATS_TEST_DIRNAME/../fixtures/boot"
MANAGED="iommu=pt amd_iommu=off iommu.strict=1"

setup() {
	# A SIGKILL leaves the page cache as it is: what a kill can tear is the
	# same on tmpfs, and tmpfs keeps the disk's sync time out of the loop.
	WORK=$(mktemp -d /dev/shm/bootab-crash-XXXXXX 2>/dev/null) || WORK=$(mktemp -d "$BATS_TEST_TMPDIR/w-XXXXXX")
	# The grub fixture's /etc/default/grub asks lsb_release, a Python
	# program that takes a second to start: the loops use a stand-in.
	mkdir -p "$WORK/bin"
	printf '#!/bin/sh\necho Debian\n' >"$WORK/bin/lsb_release"
	chmod +x "$WORK/bin/lsb_release"
	PATH="$WORK/bin:$PATH"
	# The fixture trees carry stand-ins for update-grub and the like.
	export BOOTAB_TEST_ROOT_TOOLS=1
	SEED=${BOOTAB_TEST_KILL_SEED:-$(( $(date +%s) % 100000 ))}
	RANDOM=$SEED
}

# The number of kills: BOOTAB_TEST_KILL_ITERATIONS, else $1.
kills() {
	KILLS=${BOOTAB_TEST_KILL_ITERATIONS:-$1}
	echo "BOOTAB_TEST_KILL_SEED=$SEED, $KILLS kills"
}

teardown() {
	rm -rf "$WORK"
}

# Microseconds since the epoch.
now_us() {
	local t=${EPOCHREALTIME/./}
	echo "$((10#$t))"
}

# Runs "$@" and kills its process group with SIGKILL after $1 microseconds.
kill_after() {
	local us=$1
	shift
	# The subshell (not replaced by timeout: it has more to do) takes
	# bash's "Killed" notice, and its stderr goes nowhere.
	(timeout -s KILL "$(printf '%d.%06d' $((us / 1000000)) $((us % 1000000)))" "$@" >/dev/null 2>&1 || true) 2>/dev/null
}

# "path md5" for every regular file of a tree (tool logs aside), sorted.
tree_sums() {
	(cd "$1" && find . -type f ! -name tool.log -print0 | sort -z | xargs -0 -r md5sum) |
		awk '{ print substr($2, 3), $1 }'
}

# Checks the tree $1 against the sums of the old ($2) and new ($3) trees.
# Prints one line per problem; the last line is the state: old, new or
# mixed (some files old, some new), with "+temporaries" when some are left.
check_tree() {
	tree_sums "$1" | awk -v oldf="$2" -v newf="$3" '
	BEGIN {
		while ((getline l < oldf) > 0) { split(l, f, " "); old[f[1]] = f[2] }
		while ((getline l < newf) > 0) { split(l, f, " "); new[f[1]] = f[2] }
	}
	{
		p = $1; s = $2; seen[p] = 1
		if ((p in old) || (p in new)) {
			if (s == old[p] && s == new[p]) next
			if (s == old[p]) { n_old++; next }
			if (s == new[p]) { n_new++; next }
			print "torn: " p " is neither the old nor the new version"; bad++
		} else if (p ~ /\.tmp-[A-Za-z0-9][A-Za-z0-9][A-Za-z0-9][A-Za-z0-9][A-Za-z0-9][A-Za-z0-9]$/ || p ~ /\.bootab-new$/ || p ~ /^boot\/grub\/grub\.cfg\.new$/) {
			temps++
		} else {
			print "stray: " p; bad++
		}
	}
	END {
		for (p in old) if ((p in new) && !(p in seen)) { print "lost: " p; bad++ }
		if (bad) exit 1
		state = n_old && n_new ? "mixed" : n_new ? "new" : "old"
		print state (temps ? "+temporaries" : "")
	}'
}

# Waits until no program started from the tree $1 runs any more: bootab
# runs update-grub in a process group of its own, so a kill -9 of bootab
# leaves it running to its end, as on a real box.
wait_orphans() {
	local n
	for n in $(seq 200); do
		pgrep -f "$1/usr/sbin/" >/dev/null || return 0
		sleep 0.05
	done
	echo "programs from $1 still run"
	return 1
}

# kill_set_loop FIXTURE ARGS FOUND DELAY_US: kills bootab set --root COPY
# ... --args ARGS $KILLS times on fresh copies, checks each tree, then sets
# again. FOUND is what set says it found.
kill_set_loop() {
	local fixture=$1 args=$2 found=$3 delay=$4 window t0 kill_no us state rc
	local -A states=()

	mkdir -p "$WORK/new"
	cp -a "$BOOT_FIX/$fixture/." "$WORK/new/"
	"$BOOTAB" set --root "$WORK/new" --managed "$MANAGED" --args "$args" >/dev/null 2>&1
	tree_sums "$BOOT_FIX/$fixture" >"$WORK/old.sums"
	tree_sums "$WORK/new" >"$WORK/new.sums"
	# The new version differs from the old one.
	run ! cmp -s "$WORK/old.sums" "$WORK/new.sums"

	# The kills spread over the time of one delayed set, and a third past it.
	mkdir -p "$WORK/cal"
	cp -a "$BOOT_FIX/$fixture/." "$WORK/cal/"
	t0=$(now_us)
	BOOTAB_TEST_WRITE_DELAY_US=$delay "$BOOTAB" set --root "$WORK/cal" --managed "$MANAGED" --args "$args" >/dev/null 2>&1
	window=$(( ($(now_us) - t0) * 3 / 2 ))
	echo "kill window ${window} us"

	for ((kill_no = 1; kill_no <= KILLS; kill_no++)); do
		rm -rf "$WORK/copy"
		mkdir "$WORK/copy"
		cp -a "$BOOT_FIX/$fixture/." "$WORK/copy/"
		us=$(( (RANDOM * 32768 + RANDOM) % window ))
		BOOTAB_TEST_WRITE_DELAY_US=$delay kill_after "$us" "$BOOTAB" set --root "$WORK/copy" --managed "$MANAGED" --args "$args"
		wait_orphans "$WORK/copy"
		if ! state=$(check_tree "$WORK/copy" "$WORK/old.sums" "$WORK/new.sums"); then
			echo "seed $SEED, kill $kill_no after $us us:"
			echo "$state"
			return 1
		fi
		states[$state]=$(( ${states[$state]:-0} + 1 ))
		# The next set completes, takes no temporary for an entry, and leaves the new version.
		run --separate-stderr "$BOOTAB" set --root "$WORK/copy" --managed "$MANAGED" --args "$args"
		if [ "$status" -ne 0 ] || [[ "$stderr" != *"$found"* ]] || [[ "$output" != *"check: ok"* ]]; then
			echo "seed $SEED, kill $kill_no after $us us ($state): the next set failed ($status): $stderr"
			echo "$output"
			return 1
		fi
		rc=0
		state=$(check_tree "$WORK/copy" "$WORK/old.sums" "$WORK/new.sums") || rc=1
		if [ "$rc" -ne 0 ] || [ "${state%+temporaries}" != new ]; then
			echo "seed $SEED, kill $kill_no after $us us: after the next set: $state"
			return 1
		fi
	done
	for state in "${!states[@]}"; do
		echo "$state: ${states[$state]}"
	done
	# The kills landed inside the writes, not only before or after them.
	[ $(( ${states[mixed]:-0} + ${states[mixed+temporaries]:-0} + ${states[old+temporaries]:-0} + ${states[new+temporaries]:-0} )) -gt 0 ]
}

@test "bls: kill -9 during bootab set leaves every entry old or new, and the next set completes" {
	kills 40
	kill_set_loop bls-fedora amd_iommu=off "backend bls (found 3 entries in /boot/loader/entries)" 2000
}

@test "grub: kill -9 during bootab set (and update-grub) leaves every file old or new, and the next set completes" {
	kills 15
	# Long pauses: the one file bootab writes takes as long as update-grub.
	kill_set_loop grub-debian12 amd_iommu=off "backend grub (found /etc/default/grub)" 50000
}

@test "bls: temporaries left in loader/entries are not entries and are left alone" {
	local entries="$WORK/root/boot/loader/entries" f
	mkdir -p "$WORK/root"
	cp -a "$BOOT_FIX/bls-fedora/." "$WORK/root/"
	for f in a.conf.bootab-new a.conf.tmp-Ab3dE9 a.conf.bootab-new.tmp-x1Y2z3; do
		printf 'title stray\noptions iommu=pt\n' >"$entries/$f"
	done
	run --separate-stderr "$BOOTAB" set --root "$WORK/root" --managed "$MANAGED" --args amd_iommu=off
	[ "$status" -eq 0 ]
	[ "$stderr" = "bootab: set: backend bls (found 3 entries in /boot/loader/entries)" ]
	[[ "$output" != *"a.conf"* ]]
	for f in a.conf.bootab-new a.conf.tmp-Ab3dE9 a.conf.bootab-new.tmp-x1Y2z3; do
		[ "$(cat "$entries/$f")" = "$(printf 'title stray\noptions iommu=pt')" ]
	done
}

# meta.json of a snapshot without the controller's and the target's clock.
stable_json() {
	jq -S 'del(.time, .target_time)' "$1"
}

# A snapshot's text file without the lines that carry a clock.
stable() {
	case $1 in
	*/meta.txt) sed -e 1d -e '/^target clock /d' "$1" ;;
	*/snapshot.out) grep -v "^time$(printf '\t')" "$1" ;;
	*) cat "$1" ;;
	esac
}

@test "snapshot -o: kill -9 while it writes leaves meta.json absent or complete, with every file it stands for" {
	local tree="$fixtures/seed-off" out="$WORK/out" kill_no us pid f
	local delay=30000 window absent=0 complete=0 kept=0
	kills 15
	# One write is two halves and a rename, each after a pause: the kills
	# spread over the five files' writes and a third past them.
	window=$((5 * 3 * delay * 4 / 3))
	"$BOOTAB" snapshot --root "$tree" -o "$WORK/ref" 2>/dev/null
	stable_json "$WORK/ref/meta.json" >"$WORK/ref.json"
	for ((kill_no = 1; kill_no <= KILLS; kill_no++)); do
		rm -rf "$out"
		# Every other kill hits a directory that holds a complete snapshot already.
		[ $((kill_no % 2)) -eq 0 ] && cp -a "$WORK/ref" "$out"
		# bash tells of a job killed by a signal on its own stderr: not here.
		exec 8>&2 2>/dev/null
		BOOTAB_TEST_WRITE_DELAY_US=$delay "$BOOTAB" snapshot --root "$tree" -o "$out" >/dev/null &
		pid=$!
		# The script's run is not what this is about: the clock starts at the first write.
		until compgen -G "$out/scripts/*.tmp-*" >/dev/null || compgen -G "$out/*.tmp-*" >/dev/null; do
			kill -0 "$pid" 2>/dev/null || break
			sleep 0.005
		done
		us=$(( (RANDOM * 32768 + RANDOM) % window ))
		sleep "$(printf '%d.%06d' $((us / 1000000)) $((us % 1000000)))"
		kill -9 "$pid" || true
		wait "$pid" || true
		exec 2>&8 8>&-
		if [ ! -e "$out/meta.json" ]; then
			if [ $((kill_no % 2)) -eq 0 ]; then
				echo "seed $SEED, kill $kill_no after $us us: the complete snapshot's meta.json is gone"
				return 1
			fi
			absent=$((absent + 1))
			continue
		fi
		[ $((kill_no % 2)) -eq 0 ] && kept=$((kept + 1)) || complete=$((complete + 1))
		if ! stable_json "$out/meta.json" | cmp -s - "$WORK/ref.json"; then
			echo "seed $SEED, kill $kill_no after $us us: meta.json is not a complete snapshot"
			return 1
		fi
		# meta.json is written last: every other file is there, whole.
		for f in iommu.txt snapshot.out scripts/snapshot.sh meta.txt; do
			if ! stable "$out/$f" | cmp -s - <(stable "$WORK/ref/$f"); then
				echo "seed $SEED, kill $kill_no after $us us: $f is not a whole run's"
				return 1
			fi
		done
	done
	echo "new directory: meta.json absent $absent times, complete $complete times; over a complete snapshot: complete $kept times"
	# The kills landed inside the writes.
	[ "$absent" -gt 0 ]
}
