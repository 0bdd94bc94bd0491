#!/usr/bin/env bats
# `bootab lab` without QEMU: paths, usage errors, a lab that is not running.

bats_require_minimum_version 1.5.0

setup() {
	export BOOTAB_LAB_DIR="$BATS_TEST_TMPDIR/lab"
}

@test "lab path prints BOOTAB_LAB_DIR, else the XDG cache default" {
	run -0 "$BOOTAB" lab path
	[ "$output" = "$BATS_TEST_TMPDIR/lab" ]
	BOOTAB_LAB_DIR= XDG_CACHE_HOME=/c run -0 "$BOOTAB" lab path
	[ "$output" = "/c/bootab/lab" ]
	unset BOOTAB_LAB_DIR
	XDG_CACHE_HOME= HOME=/h run -0 "$BOOTAB" lab path
	[ "$output" = "/h/.cache/bootab/lab" ]
}

@test "an unknown lab subcommand or option is a usage error naming it" {
	run -2 --separate-stderr "$BOOTAB" lab frob
	[ "${stderr_lines[0]}" = "bootab: lab: unknown subcommand 'frob'; see 'bootab help lab'" ]
	run -2 --separate-stderr "$BOOTAB" lab up --fast
	[ "${stderr_lines[0]}" = "bootab: lab up: unknown argument '--fast'; see 'bootab help lab'" ]
	run -2 --separate-stderr "$BOOTAB" lab up --timeout 0
	[ "$stderr" = "bootab: lab: --timeout '0': not a number of seconds; see 'bootab help lab'" ]
	run -2 --separate-stderr "$BOOTAB" lab
	[ "${stderr_lines[0]}" = "bootab: lab: missing subcommand; see 'bootab help lab'" ]
}

@test "a lab that is not running: status says so, ssh and power-cycle refuse, down is a no-op" {
	run -1 --separate-stderr "$BOOTAB" lab status
	[ "$output" = "running: no" ]
	run -1 --separate-stderr "$BOOTAB" lab status --json
	[ "$output" = "{
  \"running\": false,
  \"dir\": \"$BOOTAB_LAB_DIR\"
}" ]
	run -1 "$BOOTAB" lab ssh true
	[ "$output" = "bootab: lab: not running in '$BOOTAB_LAB_DIR' ('bootab lab up' starts it)" ]
	run -1 "$BOOTAB" lab power-cycle
	[ "$output" = "bootab: lab: not running in '$BOOTAB_LAB_DIR' ('bootab lab up' starts it)" ]
	run -0 "$BOOTAB" lab down
	[ "$output" = "bootab: lab: was not running" ]
}

@test "lab up names the missing builder when BOOTAB_LAB_SOURCE holds none" {
	BOOTAB_LAB_SOURCE="$BATS_TEST_TMPDIR" run -2 "$BOOTAB" lab up
	[ "$output" = "bootab: lab: cannot find lab/build.sh next to the binary; set BOOTAB_LAB_SOURCE to the lab/ directory of bootab's source" ]
}

@test "lab --name: the box's directory, usage errors, a box that is not running, target lab:NAME" {
	run -0 "$BOOTAB" lab --name b1 path
	[ "$output" = "$BOOTAB_LAB_DIR/boxes/b1" ]
	run -0 "$BOOTAB" lab path --name web-2
	[ "$output" = "$BOOTAB_LAB_DIR/boxes/web-2" ]
	run -2 --separate-stderr "$BOOTAB" lab --name B1 path
	[ "$stderr" = "bootab: lab: --name wants 1 to 32 of a-z 0-9 - (not starting with -), not 'B1'; see 'bootab help lab'" ]
	run -2 --separate-stderr "$BOOTAB" lab --name
	[ "$stderr" = "bootab: lab: --name wants 1 to 32 of a-z 0-9 - (not starting with -), not ''; see 'bootab help lab'" ]
	run -2 --separate-stderr "$BOOTAB" lab --guest debian --name b1 up
	[ "$stderr" = "bootab: lab: --name boxes are busybox guests (the Debian guest keeps its machine-id on its root file system); see 'bootab help lab'" ]
	run -1 "$BOOTAB" lab --name b1 ssh true
	[ "$output" = "bootab: lab: box b1 is not running in '$BOOTAB_LAB_DIR/boxes/b1' ('bootab lab --name b1 up' starts it)" ]
	run -1 "$BOOTAB" lab --name b1 status
	[ "$output" = "running: no" ]
	run -2 "$BOOTAB" verify --target lab:b1 --args ""
	[[ "$output" == *"lab box b1 is not running (no '$BOOTAB_LAB_DIR/boxes/b1/run/ssh_config'); start it with 'bootab lab --name b1 up'"* ]]
	run -2 "$BOOTAB" verify --target root@lab:b1 --args ""
	[[ "$output" == *"lab box b1 is not running"* ]]
	run -2 "$BOOTAB" verify --target lab:B1 --args ""
	[[ "$output" == *"'lab:B1' is not a lab box (lab:NAME, NAME 1 to 32 of a-z 0-9 -)"* ]]
}

# A lab directory with the outputs of a build, made by hand (an ESP that is
# a real FAT image with a machine-id), and a builder that does nothing: what
# is tested is lab/box.sh.
fake_built_lab() {
	local lab=$1
	mkdir -p "$lab/keys" "$BATS_TEST_TMPDIR/src"
	mkfs.vfat -C "$lab/esp.img" 4096 >/dev/null
	echo 0123456789abcdef0123456789abcdef >"$lab/keys/machine-id"
	mcopy -i "$lab/esp.img" "$lab/keys/machine-id" ::/machine-id
	head -c 65536 /dev/urandom >"$lab/vars.fd"
	truncate -s 64M "$lab/data.img"
	for f in vmlinuz initrd kernel-release kernels keys/id_ed25519 known_hosts; do echo "$f" >"$lab/$f"; done
	echo stamp-1 >"$lab/stamp"
	printf '#!/bin/sh\nexit 0\n' >"$BATS_TEST_TMPDIR/src/build.sh"
	cp "$BATS_TEST_DIRNAME/../../lab/box.sh" "$BATS_TEST_TMPDIR/src/box.sh"
}

@test "lab --name build makes a box from the lab's build: copied disks, its own machine-id, links; kept until the lab is rebuilt" {
	command -v mcopy >/dev/null && command -v mkfs.vfat >/dev/null || skip "mtools and dosfstools make the lab"
	local lab=$BOOTAB_LAB_DIR box=$BOOTAB_LAB_DIR/boxes/b1
	fake_built_lab "$lab"
	export BOOTAB_LAB_SOURCE="$BATS_TEST_TMPDIR/src"
	run -0 --separate-stderr "$BOOTAB" lab --name b1 build
	[[ "$stderr" =~ ^bootab\ lab:\ box\ b1\ made\ from\ $lab\ in\ [0-9]+\ ms:\ [0-9]+\ KiB\ of\ disks,\ [0-9]+\ KiB\ on\ disk$ ]]
	for f in vars.fd data.img; do
		[ ! -L "$box/$f" ] && cmp "$lab/$f" "$box/$f"
	done
	# data.img stays sparse.
	[ "$(du -k "$box/data.img" | cut -f1)" -lt 1024 ]
	for f in vmlinuz initrd kernel-release kernels keys known_hosts; do
		[ "$(readlink "$box/$f")" = "../../$f" ]
	done
	[ "$(cat "$box/name")" = b1 ]
	cmp "$lab/stamp" "$box/stamp"
	# The box's ESP holds its own machine-id; the lab's keeps the lab's.
	grep -qxE '[0-9a-f]{32}' "$box/machine-id"
	[ "$(mtype -i "$box/esp.img" ::/machine-id)" = "$(cat "$box/machine-id")" ]
	[ "$(mtype -i "$lab/esp.img" ::/machine-id)" = 0123456789abcdef0123456789abcdef ]
	# Made once: the box keeps its disks while the lab's build is the same.
	echo changed >"$box/vars.fd"
	run -0 --separate-stderr "$BOOTAB" lab build --name b1
	[ -z "$stderr" ]
	[ "$(cat "$box/vars.fd")" = changed ]
	# The lab rebuilt: the box is made anew, with the machine-id it had.
	id=$(cat "$box/machine-id")
	echo stamp-2 >"$lab/stamp"
	run -0 --separate-stderr "$BOOTAB" lab --name b1 build
	cmp "$lab/vars.fd" "$box/vars.fd"
	[ "$(mtype -i "$box/esp.img" ::/machine-id)" = "$id" ]
	# The Debian guest has no boxes.
	echo debian >"$lab/guest"
	run -2 --separate-stderr "$BOOTAB" lab --name b2 build
	[ "$stderr" = "bootab: lab: '$lab' holds the Debian guest; --name boxes are busybox guests" ]
}

@test "lab build --guest debian without its tools: one line naming the packages to install, nothing built" {
	# Every command of this machine but mmdebstrap and mtools' mcopy and mmd.
	farm="$BATS_TEST_TMPDIR/bin"
	mkdir "$farm"
	for d in /usr/local/sbin /usr/local/bin /usr/sbin /usr/bin /sbin /bin; do
		for f in "$d"/*; do
			case ${f##*/} in mmdebstrap | mcopy | mmd) continue ;; esac
			[ -x "$f" ] && [ ! -e "$farm/${f##*/}" ] && ln -s "$f" "$farm/${f##*/}"
		done
	done
	PATH=$farm run -2 --separate-stderr "$BOOTAB" lab --guest debian build
	echo "$stderr"
	# The other packages it names, if any, are ones this machine lacks too.
	[[ "${stderr_lines[0]}" == "bootab-lab-build: the Debian guest needs packages that are not installed: apt-get install mmdebstrap "* ]]
	[[ " ${stderr_lines[0]} " == *" mtools "* ]]
	[ "${stderr_lines[1]}" = "bootab: lab: building the lab in '$BOOTAB_LAB_DIR' failed (exit 1)" ]
	[ "${#stderr_lines[@]}" -eq 2 ]
	[ ! -e "$BOOTAB_LAB_DIR/stamp" ] && [ ! -e "$BOOTAB_LAB_DIR/disk.img" ]
	run -1 "$BOOTAB" lab --guest debian status
}
