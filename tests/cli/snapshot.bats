#!/usr/bin/env bats
# bootab snapshot on the fixture trees: meta.json, meta.txt, and the script stored with them.

bats_require_minimum_version 1.5.0

load helpers/target

# meta.txt without the two lines that carry the time of the run
stable() {
	sed -e '1d' -e '/^target clock /d' "$1"
}

@test "the off box: meta.txt in the case study's layout, whole output" {
	for sh in dash busybox; do
		use_shell "$sh"
		rm -rf "$BATS_TEST_TMPDIR/s"
		run "$BOOTAB" snapshot --root "$fixtures/seed-off" --managed "amd_iommu=off ttm.pages_limit=31457280" -o "$BATS_TEST_TMPDIR/s"
		[ "$status" -eq 0 ]
		[ "$output" = "bootab: snapshot of local in $BATS_TEST_TMPDIR/s: kernel 7.2.9-300.fc45.x86_64, iommu group types: no IOMMU groups" ]
		stable "$BATS_TEST_TMPDIR/s/meta.txt" | diff -u - <(cat <<'TXT'
7.2.9-300.fc45.x86_64
BOOT_IMAGE=(hd0,gpt2)/vmlinuz-7.2.9-300.fc45.x86_64 root=UUID=4d1c7f2a-6a3e-4b8e-9a51-0c2f3e5d7b19 ro rootflags=subvol=root rhgb quiet ttm.pages_limit=31457280 ttm.page_pool_size=31457280 amdgpu.lockup_timeout=10000,60000,10000,10000 amd_iommu=off
boot_id 79060c21-363e-4a3a-aa1b-4c3911e5e399
target local host a9-mega
machine_id 4c4c4544004a3610804bb7c04f395032
iommu group types: no IOMMU groups
iommu units: 0
iommu log lines: 3 (file; evidence, not proof)
[    0.312807] iommu: Default domain type: Translated
load 0.12 0.07 0.02 1/601 2574
governor performance (4 cpufreq policies)
temperatures acpitz 45.0 C
cpu vulnerabilities: 3 affected of 14
  spec_store_bypass: Mitigation: Speculative Store Bypass disabled via prctl
  spectre_v1: Mitigation: usercopy/swapgs barriers and __user pointer sanitization
  spectre_v2: Mitigation: Enhanced / Automatic IBRS; IBPB: conditional; STIBP: always-on; RSB filling; PBRSB-eIBRS: Not affected; BHI: Not affected
param ttm.pages_limit=31457280
devices: 43 PCI (15 without a driver), 8 device nodes, 3 network interfaces
kernel errors and warnings: 6 (file)
failed units: 0
TXT
)
		# first line: the controller's time, ISO 8601
		head -n 1 "$BATS_TEST_TMPDIR/s/meta.txt" | grep -Eq '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}[+-][0-9]{2}:[0-9]{2}$'
	done
}

@test "meta.json holds the map, the summary, the log evidence and the parameters" {
	"$BOOTAB" snapshot --root "$fixtures/seed-translated" --param ttm.pages_limit --param amdgpu.lockup_timeout -o "$BATS_TEST_TMPDIR/s" 2>/dev/null
	j="$BATS_TEST_TMPDIR/s/meta.json"
	grep -q '"summary": "1 DMA, 32 DMA-FQ, 2 identity"' "$j"
	grep -q '"boot_id": "3f6c2a1e-58b7-4d0e-9c41-7a2b9e0d4c11"' "$j"
	grep -q '"machine_id": "4c4c4544004a3610804bb7c04f395032"' "$j"
	grep -q '"kernel": "7.2.9-300.fc45.x86_64"' "$j"
	grep -q '"name": "MSFT0201:00"' "$j"
	grep -q '"source": "file"' "$j"
	grep -q '"count": 49' "$j"
	grep -q '"ttm.pages_limit": "31457280"' "$j"
	grep -q '"amdgpu.lockup_timeout": "10000,60000,10000,10000"' "$j"
	grep -q '"spectre_v1": "Mitigation: usercopy/swapgs barriers and __user pointer sanitization"' "$j"
	grep -q '"celsius": 45.0' "$j"
	# iommu.txt: one line per device, then the summary
	[ "$(wc -l < "$BATS_TEST_TMPDIR/s/iommu.txt")" -eq 45 ]
	[ "$(tail -n 1 "$BATS_TEST_TMPDIR/s/iommu.txt")" = "iommu group types: 1 DMA, 32 DMA-FQ, 2 identity" ]
}

@test "the stored scripts rerun by hand and give the same records" {
	"$BOOTAB" snapshot --root "$fixtures/seed-translated" -o "$BATS_TEST_TMPDIR/s" 2>/dev/null
	sc=$BATS_TEST_TMPDIR/s/scripts
	[ "$(cd "$sc" && echo *)" = "inventory.sh kernel-id.sh snapshot.sh" ]
	# snapshot.sh, kernel-id.sh, inventory.sh in that order; snapshot.sh's
	# closing "end" comes last
	{
		sh "$sc/snapshot.sh" | sed '$d'
		sh "$sc/kernel-id.sh"
		sh "$sc/inventory.sh"
		echo end
	} >"$BATS_TEST_TMPDIR/again.out"
	diff -u <(grep -v '^time' "$BATS_TEST_TMPDIR/s/snapshot.out") <(grep -v '^time' "$BATS_TEST_TMPDIR/again.out")
	# the inventory's records are there, not only snapshot.sh's
	grep -qx 'pci	0000:00:01.0	0x1022	0x1507	0x060000	-	0' "$BATS_TEST_TMPDIR/again.out"
	grep -q '^kmsg	3	' "$BATS_TEST_TMPDIR/again.out"
	for f in snapshot kernel-id inventory; do
		head -n 1 "$sc/$f.sh" | grep -qx "ROOT='$fixtures/seed-translated'"
	done
}

@test "a box without dd: no batch, each script a session of its own, the same records" {
	"$BOOTAB" snapshot --root "$fixtures/seed-translated" -o "$BATS_TEST_TMPDIR/with" 2>/dev/null
	# Every program of this machine but dd, and a shell that logs how it was asked to run a script.
	nodd=$BATS_TEST_TMPDIR/nodd
	mkdir -p "$nodd"
	for d in /usr/local/bin /usr/bin /bin; do
		for f in "$d"/*; do
			[ "${f##*/}" = dd ] || [ -e "$nodd/${f##*/}" ] || ln -s "$f" "$nodd/${f##*/}"
		done
	done
	log=$BATS_TEST_TMPDIR/sh.log
	# (a script the batch runs is its shell's child, dash; one of its own bootab's)
	printf '#!/bin/sh\ncase $2 in ". "*) how=sourced ;; *) how=whole ;; esac\n[ "$(cat /proc/$PPID/comm)" = dash ] && by=batch || by=own\necho "$3 $how $by" >> %s\nexec %s "$@"\n' \
		"'$log'" "$(command -v dash)" > "$BATS_TEST_TMPDIR/logsh"
	chmod +x "$BATS_TEST_TMPDIR/logsh"
	PATH=$nodd BOOTAB_TARGET_SH=$BATS_TEST_TMPDIR/logsh run "$BOOTAB" snapshot --root "$fixtures/seed-translated" -o "$BATS_TEST_TMPDIR/without"
	[ "$status" -eq 0 ]
	# The batch says it cannot run here; each script then runs whole, as its own command.
	[ "$(sort "$log" | tr '\n' ,)" = "bootab-batch whole own,bootab-inventory whole own,bootab-kernel-id whole own,bootab-snapshot whole own," ]
	diff -u <(grep -v '^time' "$BATS_TEST_TMPDIR/with/snapshot.out") <(grep -v '^time' "$BATS_TEST_TMPDIR/without/snapshot.out")
	# With dd, the same shell runs the three through the batch (sourced from its files).
	rm "$log"
	BOOTAB_TARGET_SH=$BATS_TEST_TMPDIR/logsh "$BOOTAB" snapshot --root "$fixtures/seed-translated" -o "$BATS_TEST_TMPDIR/again" 2>/dev/null
	[ "$(sort "$log" | tr '\n' ,)" = "bootab-batch whole own,bootab-inventory sourced batch,bootab-kernel-id sourced batch,bootab-snapshot sourced batch," ]
}

@test "without -o, meta.txt goes to stdout; --json gives meta.json" {
	run "$BOOTAB" snapshot --root "$fixtures/seed-passthrough"
	[ "$status" -eq 0 ]
	[ "${lines[1]}" = "7.2.9-300.fc45.x86_64" ]
	[[ "$output" == *"iommu group types: 1 DMA, 34 identity"* ]]
	[[ "$output" == *"[    0.312807] iommu: Default domain type: Passthrough (set via kernel command line)"* ]]
	run "$BOOTAB" snapshot --root "$fixtures/seed-passthrough" --json
	[ "$status" -eq 0 ]
	[[ "$output" == *'"summary": "1 DMA, 34 identity"'* ]]
}

@test "a missing log is recorded as absent, not as zero lines" {
	cp -a "$fixtures/seed-off" "$BATS_TEST_TMPDIR/tree"
	rm "$BATS_TEST_TMPDIR/tree/var/log/dmesg"
	run "$BOOTAB" snapshot --root "$BATS_TEST_TMPDIR/tree"
	[[ "$output" == *"iommu log lines: absent (no journalctl or dmesg output)"* ]]
	run "$BOOTAB" snapshot --root "$BATS_TEST_TMPDIR/tree" --json
	[[ "$output" == *'"source": "absent"'* ]]
	[[ "$output" == *'"count": null'* ]]
}

@test "a tree that is not a snapshot source: clear error naming the output and line" {
	mkdir -p "$BATS_TEST_TMPDIR/bad/proc/sys/kernel/random"
	printf 'not-a-uuid\n' > "$BATS_TEST_TMPDIR/bad/proc/sys/kernel/random/boot_id"
	run "$BOOTAB" snapshot --root "$BATS_TEST_TMPDIR/bad"
	[ "$status" -eq 2 ]
	[ "$output" = "bootab: snapshot output from 'local':3: boot_id 'not-a-uuid' is not a boot id (a lowercase UUID)" ]
}

@test "bad --param, unwritable -o" {
	run "$BOOTAB" snapshot --root "$fixtures/seed-off" --param '../../etc.x'
	[ "$status" -eq 2 ]
	[ "$output" = "bootab: --param '../../etc.x': write MODULE.PARAM; see 'bootab help snapshot'" ]
	touch "$BATS_TEST_TMPDIR/file"
	run "$BOOTAB" snapshot --root "$fixtures/seed-off" -o "$BATS_TEST_TMPDIR/file/x"
	[ "$status" -eq 2 ]
	[[ "$output" == "bootab: failed to create '$BATS_TEST_TMPDIR/file/x/scripts': "* ]]
}

@test "--root is a root: a file that links out of the tree (absolute or by ..) is refused by name, never read" {
	tree="$BATS_TEST_TMPDIR/tree"
	printf 'controller-secret\n' > "$BATS_TEST_TMPDIR/secret"
	g=$(ls "$BATS_TEST_DIRNAME/../fixtures/sysfs/lab-translated/sys/kernel/iommu_groups" | head -1)
	for f in proc/loadavg proc/sys/kernel/hostname "sys/kernel/iommu_groups/$g/type" proc/cmdline; do
		rm -rf "$tree"
		cp -R "$fixtures/lab-translated/." "$tree/"
		rm -f "$tree/$f"
		case $f in
		proc/sys/kernel/hostname) ln -s ../../../../secret "$tree/$f" ;;
		*) ln -s "$BATS_TEST_TMPDIR/secret" "$tree/$f" ;;
		esac
		for sh in dash busybox; do
			use_shell "$sh"
			run -2 timeout 60 "$BOOTAB" snapshot --root "$tree" --json
			[[ "$output" == "bootab: snapshot on 'local' failed (exit 5): '/$f' under the root is a link out of it: refused" ]]
			[[ "$output" != *controller-secret* ]]
		done
	done
}

@test "--root: a FIFO in the tree is refused by name (no wait)" {
	tree="$BATS_TEST_TMPDIR/tree"
	cp -R "$fixtures/lab-translated/." "$tree/"
	rm -f "$tree/proc/loadavg"
	mkfifo "$tree/proc/loadavg"
	run -2 timeout 20 "$BOOTAB" snapshot --root "$tree" --json
	[ "$output" = "bootab: snapshot on 'local' failed (exit 6): '/proc/loadavg' under the root is not a regular file: refused" ]
}

# The files kernel-id.sh and inventory.sh read under a root: each one a
# link out of the tree, then a FIFO, is refused naming it, in seconds.
@test "--root: kernel-id.sh's and inventory.sh's files (failed units, kernel log, notes, config, dpkg status) linked out or FIFOs are refused by name" {
	tree="$BATS_TEST_TMPDIR/tree"
	printf 'root:$6$controllerhash:19000:0:99999:7:::\n' > "$BATS_TEST_TMPDIR/shadow"
	rel=6.1.0-57-amd64
	for f in var/log/failed-units var/log/dmesg sys/kernel/notes boot/config-$rel var/lib/dpkg/status; do
		for kind in link fifo; do
			rm -rf "$tree"
			cp -R "$fixtures/lab-translated/." "$tree/"
			# What makes kernel-id.sh read the dpkg status: the image's list.
			mkdir -p "$tree/var/lib/dpkg/info" "$tree/var/log" "$tree/sys/kernel" "$tree/boot"
			printf '/boot/vmlinuz-%s\n' "$rel" > "$tree/var/lib/dpkg/info/linux-image-$rel.list"
			rm -f "$tree/$f"
			if [ "$kind" = link ]; then
				ln -s "$BATS_TEST_TMPDIR/shadow" "$tree/$f"
				code=5 why="is a link out of it"
			else
				mkfifo "$tree/$f"
				code=6 why="is not a regular file"
			fi
			# The kernel log is snapshot.sh's to read first.
			case $f in
			var/log/failed-units) script=inventory ;;
			var/log/dmesg) script=snapshot ;;
			*) script=kernel-id ;;
			esac
			run -2 timeout 30 "$BOOTAB" snapshot --root "$tree" --json
			[ "$output" = "bootab: $script on 'local' failed (exit $code): '/$f' under the root $why: refused" ]
			[[ "$output" != *controllerhash* ]]
			# Each script alone refuses the files it reads.
			for script in inventory kernel-id; do
				case $script:$f in
				inventory:var/log/* | kernel-id:[!v]* | kernel-id:var/lib/*)
					run -"$code" --separate-stderr env ROOT="$tree" timeout 30 sh "$BATS_TEST_DIRNAME/../../src/target/$script.sh"
					[ "$stderr" = "'/$f' under the root $why: refused" ]
					[[ "$output" != *controllerhash* ]]
					;;
				esac
			done
		done
	done
	# The same tree with plain files: read as before.
	rm -rf "$tree"
	cp -R "$fixtures/lab-translated/." "$tree/"
	printf 'a.service loaded failed failed A\n' > "$tree/var/log/failed-units"
	run -0 timeout 30 "$BOOTAB" snapshot --root "$tree" --json
	[ "$(printf '%s\n' "$output" | jq -c .failed_units.units)" = '["a.service"]' ]
}

@test "kernel-id.sh reads the release and version with the shell's read, no head per file, and records what the long way gives" {
	local k="$BATS_TEST_DIRNAME/../../src/target/kernel-id.sh" t="$BATS_TEST_TMPDIR/t" bin="$BATS_TEST_TMPDIR/bin" sh
	# A head that logs what it reads, in front of the real one.
	mkdir -p "$bin"
	printf '#!/bin/sh\necho "$*" >> "%s"\nexec %s "$@"\n' "$BATS_TEST_TMPDIR/head.log" "$(command -v head)" >"$bin/head"
	chmod +x "$bin/head"
	mkdir -p "$t/proc/sys/kernel"
	printf '6.1.0-57-amd64\n' >"$t/proc/sys/kernel/osrelease"
	printf '#1 SMP PREEMPT_DYNAMIC Debian 6.1.192-3 (2026-11-26)\n' >"$t/proc/sys/kernel/version"
	run -0 env ROOT="$t" PATH="$bin:$PATH" dash "$k"
	[ "$output" = "kernel_version	#1 SMP PREEMPT_DYNAMIC Debian 6.1.192-3 (2026-11-26)" ]
	[ ! -e "$BATS_TEST_TMPDIR/head.log" ]
	for sh in dash "busybox sh" bash; do
		command -v "${sh%% *}" >/dev/null || continue
		# Control bytes are dropped (the release then names no /boot file), a
		# tab too; backslashes stay; a line with no newline, or over 4096
		# bytes (cut there), or a missing file, as head and tr read them.
		printf '6.1\001x\n' >"$t/proc/sys/kernel/osrelease"
		printf '#1 a\tb \\ c\\n\r\nsecond\n' >"$t/proc/sys/kernel/version"
		run -0 --separate-stderr env ROOT="$t" $sh "$k"
		[ "$output" = "kernel_version	#1 ab \\ c\\n" ]
		printf '#1 x' >"$t/proc/sys/kernel/version"
		run -0 --separate-stderr env ROOT="$t" $sh "$k"
		[ "$output" = "kernel_version	#1 x" ]
		head -c 5000 /dev/zero | tr '\0' a >"$t/proc/sys/kernel/version"
		run -0 --separate-stderr env ROOT="$t" $sh "$k"
		[ "$output" = "kernel_version	$(head -c 4096 /dev/zero | tr '\0' a)" ]
		rm "$t/proc/sys/kernel/version" "$t/proc/sys/kernel/osrelease"
		run -0 --separate-stderr env ROOT="$t" $sh "$k"
		[ -z "$output" ]
		[ -z "$stderr" ]
	done
}

@test "io.sh dump: a path that is absent or asked only for what it is costs no head, wc or cat; a file's bytes as before; n: gives a directory's names alone" {
	local io="$BATS_TEST_DIRNAME/../../src/target/io.sh" t="$BATS_TEST_TMPDIR/t" bin="$BATS_TEST_TMPDIR/bin" sh
	local nul want
	# No wc, head or cat to start (the dump's temporary file and the ROOT check as before).
	mkdir -p "$bin" "$t/boot/loader/entries" "$t/sys/firmware/efi/efivars"
	for s in dash busybox bash mktemp rm readlink; do
		ln -sf "$(command -v "$s")" "$bin/$s"
	done
	printf 'default lab.conf\n' >"$t/boot/loader/loader.conf"
	for sh in dash "busybox sh" bash; do
		command -v "${sh%% *}" >/dev/null || continue
		run -0 --separate-stderr env ROOT="$t" PATH="$bin" $sh "$io" dump f:/etc/default/grub d:/efi/loader/entries \
			e:/sys/firmware/efi/efivars e:/usr/sbin/grubby f:/boot/loader/entries
		[ -z "$stderr" ]
		nul=$(env ROOT="$t" PATH="$bin" $sh "$io" dump f:/etc/default/grub d:/efi/loader/entries \
			e:/sys/firmware/efi/efivars e:/usr/sbin/grubby | tr '\0' '|')
		[ "$nul" = "/etc/default/grub||-|/efi/loader/entries||-|/sys/firmware/efi/efivars|ed|-|/usr/sbin/grubby||-|" ]
		# A file (and a directory where a file is asked) still goes the way of its bytes.
		want="/boot/loader/loader.conf|ef|17|default lab.conf"
		[ "$(env ROOT="$t" $sh "$io" dump f:/boot/loader/loader.conf | tr '\0\n' '|~')" = "$want~" ]
		# n: a directory's names as list gives them, its entries not read; d: those too.
		printf 'title x\n' >"$t/boot/loader/entries/a.conf"
		[ "$(env ROOT="$t" $sh "$io" dump n:/boot/loader/entries n:/boot/loader/loader.conf | tr '\0\n' '|~')" = \
			"/boot/loader/entries|ed|7|a.conf|/boot/loader/loader.conf|ef|-|" ]
		[ "$(env ROOT="$t" $sh "$io" dump d:/boot/loader/entries | tr '\0\n' '|~')" = \
			"/boot/loader/entries|ed|7|a.conf|/boot/loader/entries/a.conf|ef|8|title x~" ]
		rm "$t/boot/loader/entries/a.conf"
	done
}

@test "inventory.sh resolves sysfs links by cd and reads uevent by read: no process for a tree whose links resolve; a dangling link or a control byte the long way, same records" {
	local inv="$BATS_TEST_DIRNAME/../../src/target/inventory.sh" t="$BATS_TEST_TMPDIR/t" bin="$BATS_TEST_TMPDIR/bin" sh
	local dev=sys/devices/pci0000:00/0000:00:03.0 want
	# Only the shells: readlink, head, sed or tr would be "not found".
	mkdir -p "$bin" "$t/$dev" "$t/sys/bus/pci/drivers/virtio-pci" "$t/sys/kernel/iommu_groups/3" \
		"$t/sys/bus/pci/devices" "$t/$dev/virtio1/block/vda" "$t/sys/class/block" "$t/$dev/virtio0/net/eth0" \
		"$t/sys/class/net"
	for s in dash busybox bash; do
		ln -sf "$(command -v "$s")" "$bin/$s"
	done
	printf '0x1af4\n' >"$t/$dev/vendor"
	printf '0x1001\n' >"$t/$dev/device"
	printf '0x010000\n' >"$t/$dev/class"
	ln -s ../../../devices/pci0000:00/0000:00:03.0 "$t/sys/bus/pci/devices/0000:00:03.0"
	ln -s ../../../bus/pci/drivers/virtio-pci "$t/$dev/driver"
	ln -s ../../../kernel/iommu_groups/3 "$t/$dev/iommu_group"
	printf 'MAJOR=254\nMINOR=0\nDEVNAME=vda\nDEVTYPE=disk' >"$t/$dev/virtio1/block/vda/uevent"
	ln -s ../../../virtio1 "$t/$dev/virtio1/block/vda/device"
	ln -s ../../devices/pci0000:00/0000:00:03.0/virtio1/block/vda "$t/sys/class/block/vda"
	printf 'up\n' >"$t/$dev/virtio0/net/eth0/operstate"
	printf '1\n' >"$t/$dev/virtio0/net/eth0/carrier"
	ln -s ../../../virtio0 "$t/$dev/virtio0/net/eth0/device"
	ln -s ../../devices/pci0000:00/0000:00:03.0/virtio0/net/eth0 "$t/sys/class/net/eth0"
	want="inventory	1
pci	0000:00:03.0	0x1af4	0x1001	0x010000	virtio-pci	3
node	block	vda	vda	virtio1
netif	eth0	up	1	virtio0
kmsg_source	skipped
units_source	absent"
	for sh in dash "busybox sh" bash; do
		command -v "${sh%% *}" >/dev/null || continue
		run -0 --separate-stderr env ROOT="$t" PATH="$bin" $sh "$inv" nolog
		[ "$output" = "$want" ]
		[ -z "$stderr" ]
	done
	# A driver link that leads nowhere (readlink names it) and a DEVNAME with
	# a control byte (head, sed and tr drop it): the same records as before.
	rm -r "$t/sys/bus/pci/drivers/virtio-pci"
	printf 'MAJOR=254\nDEVNAME=v\001da\n' >"$t/$dev/virtio1/block/vda/uevent"
	for sh in dash "busybox sh" bash; do
		command -v "${sh%% *}" >/dev/null || continue
		run -0 --separate-stderr env ROOT="$t" $sh "$inv" nolog
		[ "$output" = "$want" ]
		[ -z "$stderr" ]
	done
	# No link at all, and no DEVNAME: "-" and no node.
	rm "$t/$dev/driver" "$t/$dev/iommu_group"
	printf 'MAJOR=254\n' >"$t/$dev/virtio1/block/vda/uevent"
	run -0 --separate-stderr env ROOT="$t" PATH="$bin" dash "$inv" nolog
	[ "$(printf '%s\n' "$output" | sed -n 2,3p)" = "pci	0000:00:03.0	0x1af4	0x1001	0x010000	-	-
netif	eth0	up	1	virtio0" ]
}

@test "io.sh dump: a head a file, then one wc and one cat for every record, the records as before; a name with a newline left out" {
	local io="$BATS_TEST_DIRNAME/../../src/target/io.sh" t="$BATS_TEST_TMPDIR/t" bin="$BATS_TEST_TMPDIR/bin" sh
	local e="$BATS_TEST_TMPDIR/t/boot/loader/entries" want got tmpd="$BATS_TEST_TMPDIR/tmp dir"
	mkdir -p "$bin" "$e" "$tmpd" "$t/etc/default/grub.d"
	# Each of head, wc and cat logs its name before it runs.
	for s in head wc cat; do
		printf '#!/bin/sh\necho %s >> "%s"\nexec %s "$@"\n' "$s" "$BATS_TEST_TMPDIR/calls" "$(command -v "$s")" >"$bin/$s"
		chmod +x "$bin/$s"
	done
	printf 'title a\n' >"$e/a b.conf"
	printf 'title b' >"$e/b.conf"
	: >"$e/empty.conf"
	printf '\001\000z' >"$e/bin"
	head -c 1048577 /dev/zero >"$e/big"
	head -c 1048576 /dev/zero >"$e/fits"
	printf 'x\n' >"$e/$(printf 'new\nline')"
	printf 'GRUB_TIMEOUT=1\n' >"$t/etc/default/grub"
	mkdir "$e/sub"
	for sh in dash "busybox sh" bash; do
		command -v "${sh%% *}" >/dev/null || continue
		rm -f "$BATS_TEST_TMPDIR/calls"
		env ROOT="$t" TMPDIR="$tmpd" PATH="$bin:$PATH" $sh "$io" dump d:/boot/loader/entries f:/etc/default/grub \
			n:/etc/default/grub.d e:/usr/sbin/grubby >"$BATS_TEST_TMPDIR/out"
		# 7 files read (a b.conf, b.conf, big, bin, empty.conf, fits; /etc/default/grub).
		# busybox sh runs its own applets before PATH's: counted under dash and bash.
		if [ "$sh" != "busybox sh" ]; then
			[ "$(grep -c head "$BATS_TEST_TMPDIR/calls")" = 7 ]
			[ "$(grep -c wc "$BATS_TEST_TMPDIR/calls")" = 1 ]
			[ "$(grep -c cat "$BATS_TEST_TMPDIR/calls")" = 1 ]
		fi
		# Nothing left in the temporary directory.
		[ -z "$(ls -A "$tmpd")" ]
		got=$(tr '\0\n\001' '|~^' <"$BATS_TEST_TMPDIR/out")
		want="/boot/loader/entries|ed|53|a b.conf|b.conf|big|bin|empty.conf|fits|new~line|sub|"
		want="$want/boot/loader/entries/a b.conf|ef|8|title a~/boot/loader/entries/b.conf|ef|7|title b"
		want="$want/boot/loader/entries/big|ef|-|/boot/loader/entries/bin|ef|3|^|z"
		want="$want/boot/loader/entries/empty.conf|ef|0|/boot/loader/entries/fits|ef|1048576|"
		[ "${got#"$want"}" != "$got" ]
		got=${got#"$want"}
		# fits' 1 MiB of zeros, then the rest.
		[ "${#got}" -gt 1048576 ]
		[ "${got:1048576}" = "/boot/loader/entries/sub|ed|-|/etc/default/grub|ef|15|GRUB_TIMEOUT=1~/etc/default/grub.d|ed|0|/usr/sbin/grubby||-|" ]
	done
}

@test "kernel-id.sh: the image's package from linux-image-RELEASE's list alone, or from every list when another package owns it" {
	local k="$BATS_TEST_DIRNAME/../../src/target/kernel-id.sh" t="$BATS_TEST_TMPDIR/t" bin="$BATS_TEST_TMPDIR/bin" sh
	mkdir -p "$bin" "$t/proc/sys/kernel" "$t/var/lib/dpkg/info"
	# A grep that logs its arguments, in front of the real one.
	printf '#!/bin/sh\necho "$*" >> "%s"\nexec %s "$@"\n' "$BATS_TEST_TMPDIR/grep.log" "$(command -v grep)" >"$bin/grep"
	chmod +x "$bin/grep"
	printf '6.1.0-57-amd64\n' >"$t/proc/sys/kernel/osrelease"
	printf '/.\n/boot\n/boot/vmlinuz-6.1.0-57-amd64\n' >"$t/var/lib/dpkg/info/linux-image-6.1.0-57-amd64.list"
	printf '/.\n/etc\n' >"$t/var/lib/dpkg/info/base-files.list"
	printf 'Package: linux-image-6.1.0-57-amd64\nVersion: 6.1.192-3\n\nPackage: linux-image-6.1.0-57-amd64-unsigned\nVersion: 6.1.192-4\n' \
		>"$t/var/lib/dpkg/status"
	for sh in dash bash; do
		rm -f "$BATS_TEST_TMPDIR/grep.log"
		run -0 --separate-stderr env ROOT="$t" PATH="$bin:$PATH" $sh "$k" noconfig
		[ "$output" = "kernel_package	dpkg	linux-image-6.1.0-57-amd64 6.1.192-3" ]
		# One grep, of that one list.
		[ "$(wc -l <"$BATS_TEST_TMPDIR/grep.log")" = 1 ]
		[[ "$(cat "$BATS_TEST_TMPDIR/grep.log")" == *"/var/lib/dpkg/info/linux-image-6.1.0-57-amd64.list" ]]
		[ -z "$(grep base-files "$BATS_TEST_TMPDIR/grep.log")" ]
	done
	# The unsigned package owns the image: found among every list.
	mv "$t/var/lib/dpkg/info/linux-image-6.1.0-57-amd64.list" "$t/var/lib/dpkg/info/linux-image-6.1.0-57-amd64-unsigned.list"
	for sh in dash "busybox sh" bash; do
		command -v "${sh%% *}" >/dev/null || continue
		run -0 --separate-stderr env ROOT="$t" $sh "$k" noconfig
		[ "$output" = "kernel_package	dpkg	linux-image-6.1.0-57-amd64-unsigned 6.1.192-4" ]
	done
	# No list owns it: no record.
	rm "$t/var/lib/dpkg/info/linux-image-6.1.0-57-amd64-unsigned.list"
	run -0 --separate-stderr env ROOT="$t" dash "$k" noconfig
	[ -z "$output" ]
}

@test "kernel-id.sh config: one kconfig record per CONFIG_NAME=VALUE line, control bytes dropped, other lines left out, the config's SHA-256 first" {
	local k="$BATS_TEST_DIRNAME/../../src/target/kernel-id.sh" t="$BATS_TEST_TMPDIR/t" sh want sum
	mkdir -p "$t/proc/sys/kernel" "$t/boot"
	printf '6.1.0-57-amd64\n' >"$t/proc/sys/kernel/osrelease"
	printf '#\n# Automatically generated file; DO NOT EDIT.\nCONFIG_CC_VERSION_TEXT="gcc (Debian 12.2.0-14) 12.2.0"\n# CONFIG_EXPERT is not set\nCONFIG_X86_64=y\nCONFIG_=x\nCONFIG_A B=c\nCONFIG_T=a\tb=c\001d\n CONFIG_S=1\nCONFIG_E=\nCONFIG_Q="a=b"\nCONFIG_HZ=250\n' \
		>"$t/boot/config-6.1.0-57-amd64"
	sum=$(sha256sum <"$t/boot/config-6.1.0-57-amd64")
	want=$(printf 'kernel_config\t/boot/config-6.1.0-57-amd64\t%s\n' "${sum%% *}"
		printf 'kconfig\tCONFIG_CC_VERSION_TEXT\t"gcc (Debian 12.2.0-14) 12.2.0"\n'
		printf 'kconfig\tCONFIG_X86_64\ty\nkconfig\tCONFIG_\tx\nkconfig\tCONFIG_T\tab=cd\nkconfig\tCONFIG_E\t\n'
		printf 'kconfig\tCONFIG_Q\t"a=b"\nkconfig\tCONFIG_HZ\t250')
	for sh in dash "busybox sh" bash; do
		command -v "${sh%% *}" >/dev/null || continue
		run -0 --separate-stderr env ROOT="$t" $sh "$k" config
		[ "$output" = "$want" ]
	done
}

# The names of interfaces as the kernel takes them (any bytes but '/', blanks
# and NUL): an ESC sequence, DEL, ethé in UTF-8, a Latin-1 byte, a backslash
# as written. Config values it holds: a Latin-1 byte, 5,000 and 10,000 bytes.
weird_names=("$(printf 'eth\033[31m')" "$(printf 'del\177')" "$(printf 'eth\303\251')" "$(printf 'lat\351')" 'a\x1b')

@test "interfaces and config values bootab cannot print are kept escaped, never a refused snapshot" {
	local t="$BATS_TEST_TMPDIR/t" name long
	cp -R "$fixtures/seed-off" "$t"
	for name in "${weird_names[@]}"; do
		mkdir "$t/sys/class/net/$name"
		echo down >"$t/sys/class/net/$name/operstate"
	done
	mkdir -p "$t/boot"
	long=$(head -c 5000 /dev/zero | tr '\0' x)
	{
		printf 'CONFIG_DEFAULT_HOSTNAME="caf\351"\nCONFIG_LONG="%s"\n' "$long"
		printf 'CONFIG_LONGER="%s%s"\nCONFIG_HZ=250\n' "$long" "$long"
	} >"$t/boot/config-7.2.9-300.fc45.x86_64"
	run --separate-stderr "$BOOTAB" snapshot --root "$t" --json
	echo "$stderr"
	[ "$status" -eq 0 ]
	[ "$(jq -r '[.devices.net[].name] | join(" ")' <<<"$output")" = \
		'a\x5cx1b del\x7f enp195s0 eth\x1b[31m ethé lat\xe9 lo wlp196s0' ]
	[ "$(jq -r '.kernel_config.options' <<<"$output")" = 4 ]
	# The whole chain: a side's kernel-config as a campaign writes it, read back by compare.
	run -0 --separate-stderr "$BOOTAB" snapshot --root "$t" -o "$BATS_TEST_TMPDIR/s"
	grep -q '^devices: 43 PCI (15 without a driver), 8 device nodes, 8 network interfaces$' "$BATS_TEST_TMPDIR/s/meta.txt"
	! grep -q "$(printf '\033')" "$BATS_TEST_TMPDIR/s/meta.txt" "$BATS_TEST_TMPDIR/s/meta.json" || false
}

@test "a real interface named with ESC, DEL and a Latin-1 byte (in a network namespace): the snapshot keeps it escaped" {
	[ "$(id -u)" -eq 0 ] && command -v ip >/dev/null || skip "needs root and ip(8)"
	ns="bootab-test-$$"
	ip netns add "$ns" 2>/dev/null || skip "no network namespaces here"
	ip netns exec "$ns" ip link add "$(printf 'eth\033x')" type veth peer name "$(printf 'lat\351')" &&
		ip netns exec "$ns" ip link add "$(printf 'del\177')" type bridge ||
		{ ip netns del "$ns"; skip "no veth or bridge links here"; }
	run --separate-stderr ip netns exec "$ns" "$BOOTAB" snapshot --json
	ip netns del "$ns"
	[ "$status" -eq 0 ]
	[ "$(jq -r '[.devices.net[].name] | join(" ")' <<<"$output")" = 'del\x7f eth\x1bx lat\xe9 lo' ]
}
