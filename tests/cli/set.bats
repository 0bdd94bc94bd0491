#!/usr/bin/env bats
# bootab set on copies of the fixture trees under tests/fixtures/boot.

bats_require_minimum_version 1.5.0

FIX="$BATS_TEST_DIRNAME/../fixtures/boot"
MANAGED="iommu=pt amd_iommu=off iommu.strict=1"

setup() {
	ROOT="$BATS_TEST_TMPDIR/root"
	mkdir -p "$ROOT"
	# The fixture trees carry stand-ins for update-grub, grubby and kernel-install.
	export BOOTAB_TEST_ROOT_TOOLS=1
}

use() {
	cp -a "$FIX/$1/." "$ROOT/"
}

# Compares $output with the expected text on stdin, as a unified diff.
expect_output() {
	diff -u - <(printf '%s\n' "$output")
}

# The tree is byte for byte the fixture (tool logs aside).
unchanged() {
	diff -r -x tool.log -x linux "$FIX/$1" "$ROOT"
}

@test "bls: Fedora entries get the mode on every entry, other keys untouched" {
	use bls-fedora
	run --separate-stderr "$BOOTAB" set --root "$ROOT" --managed "$MANAGED" --args amd_iommu=off
	[ "$status" -eq 0 ]
	[ "$stderr" = "bootab: set: backend bls (found 3 entries in /boot/loader/entries)" ]
	expect_output <<'EOF'
backend: bls
note: /boot/loader/entries/2b7ea7f7d3c64e5fa2ae4e0c3a1f5b61-6.5.6-300.fc39.x86_64.conf: options use GRUB variables (kept, not expanded)
note: 3 entries in /boot/loader/entries
note: default entry 2b7ea7f7d3c64e5fa2ae4e0c3a1f5b61-6.5.6-300.fc39.x86_64.conf (grubenv saved_entry=2b7ea7f7d3c64e5fa2ae4e0c3a1f5b61-6.5.6-300.fc39.x86_64)
changed /boot/loader/entries/2b7ea7f7d3c64e5fa2ae4e0c3a1f5b61-0-rescue.conf
changed /boot/loader/entries/2b7ea7f7d3c64e5fa2ae4e0c3a1f5b61-5.0.9-301.fc30.x86_64.conf
changed /boot/loader/entries/2b7ea7f7d3c64e5fa2ae4e0c3a1f5b61-6.5.6-300.fc39.x86_64.conf
changed /etc/kernel/cmdline
default entry: /boot/loader/entries/2b7ea7f7d3c64e5fa2ae4e0c3a1f5b61-6.5.6-300.fc39.x86_64.conf (grubenv saved_entry=2b7ea7f7d3c64e5fa2ae4e0c3a1f5b61-6.5.6-300.fc39.x86_64)
  args: root=UUID=3f1c0b9e-8d2a-4c55-9a31-6a2e0f4b7d10 ro rootflags=subvol=root rhgb quiet ttm.pages_limit=31457280 $tuned_params amd_iommu=off
other entry: /boot/loader/entries/2b7ea7f7d3c64e5fa2ae4e0c3a1f5b61-0-rescue.conf
  args: root=UUID=3f1c0b9e-8d2a-4c55-9a31-6a2e0f4b7d10 ro rootflags=subvol=root rhgb quiet amd_iommu=off
other entry: /boot/loader/entries/2b7ea7f7d3c64e5fa2ae4e0c3a1f5b61-5.0.9-301.fc30.x86_64.conf
  args: root=UUID=3f1c0b9e-8d2a-4c55-9a31-6a2e0f4b7d10 ro rootflags=subvol=root rhgb quiet amd_iommu=off
next kernel install inherits: /etc/kernel/cmdline
  args: root=UUID=3f1c0b9e-8d2a-4c55-9a31-6a2e0f4b7d10 ro rootflags=subvol=root rhgb quiet ttm.pages_limit=31457280 amd_iommu=off
check: ok: the entries and the inherited args carry 'amd_iommu=off' and no other managed arg
EOF
	# Only the options lines changed.
	run diff -r "$FIX/bls-fedora" "$ROOT"
	expect_output <<EOF
diff -r $FIX/bls-fedora/boot/loader/entries/2b7ea7f7d3c64e5fa2ae4e0c3a1f5b61-0-rescue.conf $ROOT/boot/loader/entries/2b7ea7f7d3c64e5fa2ae4e0c3a1f5b61-0-rescue.conf
5c5
< options root=UUID=3f1c0b9e-8d2a-4c55-9a31-6a2e0f4b7d10 ro rootflags=subvol=root rhgb quiet
---
> options root=UUID=3f1c0b9e-8d2a-4c55-9a31-6a2e0f4b7d10 ro rootflags=subvol=root rhgb quiet amd_iommu=off
diff -r $FIX/bls-fedora/boot/loader/entries/2b7ea7f7d3c64e5fa2ae4e0c3a1f5b61-5.0.9-301.fc30.x86_64.conf $ROOT/boot/loader/entries/2b7ea7f7d3c64e5fa2ae4e0c3a1f5b61-5.0.9-301.fc30.x86_64.conf
5c5
< options root=UUID=3f1c0b9e-8d2a-4c55-9a31-6a2e0f4b7d10 ro rootflags=subvol=root rhgb quiet amd-iommu=off
---
> options root=UUID=3f1c0b9e-8d2a-4c55-9a31-6a2e0f4b7d10 ro rootflags=subvol=root rhgb quiet amd_iommu=off
diff -r $FIX/bls-fedora/boot/loader/entries/2b7ea7f7d3c64e5fa2ae4e0c3a1f5b61-6.5.6-300.fc39.x86_64.conf $ROOT/boot/loader/entries/2b7ea7f7d3c64e5fa2ae4e0c3a1f5b61-6.5.6-300.fc39.x86_64.conf
5c5
< options root=UUID=3f1c0b9e-8d2a-4c55-9a31-6a2e0f4b7d10 ro rootflags=subvol=root rhgb quiet ttm.pages_limit=31457280 iommu=pt \$tuned_params
---
> options root=UUID=3f1c0b9e-8d2a-4c55-9a31-6a2e0f4b7d10 ro rootflags=subvol=root rhgb quiet ttm.pages_limit=31457280 \$tuned_params amd_iommu=off
diff -r $FIX/bls-fedora/etc/kernel/cmdline $ROOT/etc/kernel/cmdline
1c1
< root=UUID=3f1c0b9e-8d2a-4c55-9a31-6a2e0f4b7d10 ro rootflags=subvol=root rhgb quiet ttm.pages_limit=31457280 iommu=pt
---
> root=UUID=3f1c0b9e-8d2a-4c55-9a31-6a2e0f4b7d10 ro rootflags=subvol=root rhgb quiet ttm.pages_limit=31457280 amd_iommu=off
EOF
	# Setting the same mode again changes nothing.
	run --separate-stderr "$BOOTAB" set --root "$ROOT" --managed "$MANAGED" --args amd_iommu=off --dry-run
	[ "$status" -eq 0 ]
	[ "${lines[4]}" = "nothing to change" ]
}

@test "bls: --dry-run shows every change and changes nothing" {
	use kernel-install
	run --separate-stderr "$BOOTAB" set --root "$ROOT" --backend bls --managed "$MANAGED" --args iommu.strict=1 --dry-run
	[ "$status" -eq 0 ]
	[ "$stderr" = "" ]
	expect_output <<'EOF'
backend: bls
note: 2 entries in /boot/loader/entries
note: default entry 8c5b1f3e0a7d4e6b9f2c1d0e3a4b5c6d-6.1.0-18-amd64.conf (/boot/loader/loader.conf default 8c5b1f3e0a7d4e6b9f2c1d0e3a4b5c6d-*)
write /boot/loader/entries/8c5b1f3e0a7d4e6b9f2c1d0e3a4b5c6d-6.1.0-17-amd64.conf
  @@ line 5 @@
  -options    root=UUID=5e0d7c1a-2f43-4b8e-9a61-0c7d2e9f1b34 ro quiet iommu=pt systemd.machine_id=8c5b1f3e0a7d4e6b9f2c1d0e3a4b5c6d
  +options    root=UUID=5e0d7c1a-2f43-4b8e-9a61-0c7d2e9f1b34 ro quiet systemd.machine_id=8c5b1f3e0a7d4e6b9f2c1d0e3a4b5c6d iommu.strict=1
write /boot/loader/entries/8c5b1f3e0a7d4e6b9f2c1d0e3a4b5c6d-6.1.0-18-amd64.conf
  @@ line 5 @@
  -options    root=UUID=5e0d7c1a-2f43-4b8e-9a61-0c7d2e9f1b34 ro quiet iommu=pt systemd.machine_id=8c5b1f3e0a7d4e6b9f2c1d0e3a4b5c6d
  +options    root=UUID=5e0d7c1a-2f43-4b8e-9a61-0c7d2e9f1b34 ro quiet systemd.machine_id=8c5b1f3e0a7d4e6b9f2c1d0e3a4b5c6d iommu.strict=1
write /etc/kernel/cmdline
  @@ line 1 @@
  -root=UUID=5e0d7c1a-2f43-4b8e-9a61-0c7d2e9f1b34 ro quiet iommu=pt
  +root=UUID=5e0d7c1a-2f43-4b8e-9a61-0c7d2e9f1b34 ro quiet iommu.strict=1
dry run: nothing was changed
EOF
	unchanged kernel-install
}

@test "grub: the drop-in that sets GRUB_CMDLINE_LINUX last gets the mode; a real sh agrees" {
	use grub-debian12
	run --separate-stderr "$BOOTAB" set --root "$ROOT" --managed "$MANAGED" --args amd_iommu=off
	[ "$status" -eq 0 ]
	[ "$stderr" = "bootab: set: backend grub (found /etc/default/grub)" ]
	expect_output <<'EOF'
backend: grub
note: GRUB_CMDLINE_LINUX set last in /etc/default/grub.d/50-iommu.cfg
changed /etc/default/grub.d/50-iommu.cfg
ran update-grub
default entry: Debian GNU/Linux (GRUB_DEFAULT=0 in /boot/grub/grub.cfg)
  args: root=UUID=5e0d7c1a-2f43-4b8e-9a61-0c7d2e9f1b34 ro  console=ttyS0,115200n8 amd_iommu=off quiet
other entry: Debian GNU/Linux, with Linux 6.1.0-18-amd64
  args: root=UUID=5e0d7c1a-2f43-4b8e-9a61-0c7d2e9f1b34 ro  console=ttyS0,115200n8 amd_iommu=off quiet
other entry: Debian GNU/Linux, with Linux 6.1.0-18-amd64 (recovery mode)
  args: root=UUID=5e0d7c1a-2f43-4b8e-9a61-0c7d2e9f1b34 ro single  console=ttyS0,115200n8 amd_iommu=off
other entry: Debian GNU/Linux, with Linux 6.1.0-17-amd64
  args: root=UUID=5e0d7c1a-2f43-4b8e-9a61-0c7d2e9f1b34 ro  console=ttyS0,115200n8 amd_iommu=off quiet
other entry: Debian GNU/Linux, with Linux 6.1.0-17-amd64 (recovery mode)
  args: root=UUID=5e0d7c1a-2f43-4b8e-9a61-0c7d2e9f1b34 ro single  console=ttyS0,115200n8 amd_iommu=off
next kernel install inherits: GRUB_CMDLINE_LINUX GRUB_CMDLINE_LINUX_DEFAULT
  args:  console=ttyS0,115200n8 amd_iommu=off quiet
check: ok: the entries and the inherited args carry 'amd_iommu=off' and no other managed arg
EOF
	# Debian's shipped file is untouched; the drop-in keeps its idiom.
	cmp "$FIX/grub-debian12/etc/default/grub" "$ROOT/etc/default/grub"
	run cat "$ROOT/etc/default/grub.d/50-iommu.cfg"
	expect_output <<'EOF'
# IOMMU passthrough for the GPU, and the serial console.
GRUB_CMDLINE_LINUX="$GRUB_CMDLINE_LINUX console=ttyS0,115200n8 amd_iommu=off"
EOF
	run sh -c '. "$1/etc/default/grub"; for x in "$1"/etc/default/grub.d/*.cfg; do . "$x"; done; printf %s "$GRUB_CMDLINE_LINUX"' sh "$ROOT"
	[ "$output" = " console=ttyS0,115200n8 amd_iommu=off" ]

	# Back to translated: nothing added, and the shipped file gets no line.
	run --separate-stderr "$BOOTAB" set --root "$ROOT" --managed "$MANAGED" --args ""
	[ "$status" -eq 0 ]
	[ "${lines[-1]}" = "check: ok: the entries and the inherited args carry no managed arg" ]
	run sh -c '. "$1/etc/default/grub"; . "$1/etc/default/grub.d/50-iommu.cfg"; printf %s "$GRUB_CMDLINE_LINUX"' sh "$ROOT"
	[ "$output" = " console=ttyS0,115200n8" ]
}

@test "grub: GRUB_CMDLINE_LINUX in Debian's own file when no drop-in sets it" {
	use grub-debian12
	rm "$ROOT/etc/default/grub.d/50-iommu.cfg"
	BOOTAB_ROOT="$ROOT" "$ROOT/usr/sbin/update-grub"
	run --separate-stderr "$BOOTAB" set --root "$ROOT" --backend grub --managed "$MANAGED" --args "iommu=pt iommu.strict=1"
	[ "$status" -eq 0 ]
	run diff "$FIX/grub-debian12/etc/default/grub" "$ROOT/etc/default/grub"
	expect_output <<'EOF'
10c10
< GRUB_CMDLINE_LINUX=""
---
> GRUB_CMDLINE_LINUX="iommu=pt iommu.strict=1"
EOF
	run sh -c '. "$1/etc/default/grub"; printf %s "$GRUB_CMDLINE_LINUX"' sh "$ROOT"
	[ "$output" = "iommu=pt iommu.strict=1" ]
}

@test "check: a read-back where args bootab does not manage moved fails" {
	use grub-debian12
	# grub.cfg still holds the drop-in's console=: update-grub drops it.
	rm "$ROOT/etc/default/grub.d/50-iommu.cfg"
	run --separate-stderr "$BOOTAB" set --root "$ROOT" --managed "$MANAGED" --args iommu=pt
	[ "$status" -eq 1 ]
	[ "${#stderr_lines[@]}" -eq 6 ]
	[ "${stderr_lines[1]}" = "bootab: set: check failed: entry Debian GNU/Linux: args bootab does not manage changed (was 'root=UUID=5e0d7c1a-2f43-4b8e-9a61-0c7d2e9f1b34 ro  iommu=pt console=ttyS0,115200n8 quiet', now 'root=UUID=5e0d7c1a-2f43-4b8e-9a61-0c7d2e9f1b34 ro iommu=pt quiet')" ]
}

@test "check: a mode the boot loader did not take fails" {
	use grub-debian12
	# An update-grub that leaves grub.cfg alone: the entries keep iommu=pt.
	printf '#!/bin/sh\nexit 0\n' > "$ROOT/usr/sbin/update-grub"
	run --separate-stderr "$BOOTAB" set --root "$ROOT" --managed "$MANAGED" --args amd_iommu=off
	[ "$status" -eq 1 ]
	[ "${stderr_lines[1]}" = "bootab: set: check failed: entry Debian GNU/Linux: missing amd_iommu=off" ]
	[ "${stderr_lines[2]}" = "bootab: set: check failed: entry Debian GNU/Linux: still has iommu=pt" ]
}

@test "grub: a failing update-grub leaves every file as it was" {
	use grub-debian12
	BOOTAB_TEST_FAIL=1 run --separate-stderr "$BOOTAB" set --root "$ROOT" --managed "$MANAGED" --args amd_iommu=off
	[ "$status" -eq 2 ]
	[ "$stderr" = "bootab: set: backend grub (found /etc/default/grub)
bootab: set: update-grub: 'update-grub' exited 1: /usr/sbin/grub-probe: error: failed to get canonical path of \`overlay'.; files restored" ]
	unchanged grub-debian12
}

@test "kernel-cmdline: /etc/kernel/cmdline, then kernel-install rebuilds every entry" {
	[ -x /usr/lib/kernel/install.d/90-loaderentry.install ] || skip "systemd's 90-loaderentry.install is not installed"
	use kernel-install
	run --separate-stderr "$BOOTAB" set --root "$ROOT" --backend kernel-cmdline --managed "$MANAGED" --args amd_iommu=off
	[ "$status" -eq 0 ]
	expect_output <<'EOF'
backend: kernel-cmdline
note: 2 installed kernels
changed /etc/kernel/cmdline
ran kernel-install add 6.1.0-17-amd64 /lib/modules/6.1.0-17-amd64/vmlinuz
ran kernel-install add 6.1.0-18-amd64 /lib/modules/6.1.0-18-amd64/vmlinuz
default entry: /boot/loader/entries/8c5b1f3e0a7d4e6b9f2c1d0e3a4b5c6d-6.1.0-18-amd64.conf (/boot/loader/loader.conf default 8c5b1f3e0a7d4e6b9f2c1d0e3a4b5c6d-*)
  args: root=UUID=5e0d7c1a-2f43-4b8e-9a61-0c7d2e9f1b34 ro quiet amd_iommu=off systemd.machine_id=8c5b1f3e0a7d4e6b9f2c1d0e3a4b5c6d
other entry: /boot/loader/entries/8c5b1f3e0a7d4e6b9f2c1d0e3a4b5c6d-6.1.0-17-amd64.conf
  args: root=UUID=5e0d7c1a-2f43-4b8e-9a61-0c7d2e9f1b34 ro quiet amd_iommu=off systemd.machine_id=8c5b1f3e0a7d4e6b9f2c1d0e3a4b5c6d
next kernel install inherits: /etc/kernel/cmdline
  args: root=UUID=5e0d7c1a-2f43-4b8e-9a61-0c7d2e9f1b34 ro quiet amd_iommu=off
check: ok: the entries and the inherited args carry 'amd_iommu=off' and no other managed arg
EOF
}

@test "kernel-cmdline: kernel-install failing on the second kernel restores the first" {
	[ -x /usr/lib/kernel/install.d/90-loaderentry.install ] || skip "systemd's 90-loaderentry.install is not installed"
	use kernel-install
	BOOTAB_TEST_FAIL_KVER=6.1.0-18-amd64 run --separate-stderr "$BOOTAB" set --root "$ROOT" --backend kernel-cmdline --managed "$MANAGED" --args amd_iommu=off
	[ "$status" -eq 2 ]
	[ "${stderr##*$'\n'}" = "bootab: set: kernel-install: 'kernel-install add 6.1.0-18-amd64 /lib/modules/6.1.0-18-amd64/vmlinuz' exited 1: kernel-install: failed to install 6.1.0-18-amd64 (test); files restored" ]
	unchanged kernel-install
}

@test "kexec: the running kernel with the mode's args, init's args kept after --" {
	use kexec
	run --separate-stderr "$BOOTAB" set --root "$ROOT" --backend kexec --managed "$MANAGED" --args iommu=pt
	[ "$status" -eq 0 ]
	expect_output <<'EOF'
backend: kexec
note: kernel 6.1.0-18-amd64 loaded with kexec; 'kexec -e' boots it, a power cycle returns to the standing config
ran kexec -l /boot/vmlinuz-6.1.0-18-amd64 --initrd=/boot/initrd.img-6.1.0-18-amd64 '--append=root=UUID=5e0d7c1a-2f43-4b8e-9a61-0c7d2e9f1b34 ro quiet iommu=pt -- single'
default entry: /boot/vmlinuz-6.1.0-18-amd64 (the kernel loaded for kexec -e)
  args: root=UUID=5e0d7c1a-2f43-4b8e-9a61-0c7d2e9f1b34 ro quiet iommu=pt -- single
next kernel install inherits: nothing (kexec)
  note: kexec changes nothing persistent: the next kernel install and a cold boot use the standing config
check: ok: the entries carry 'iommu=pt' and no other managed arg
EOF
	run cat "$ROOT/tool.log"
	[ "$output" = "[-l] [/boot/vmlinuz-6.1.0-18-amd64] [--initrd=/boot/initrd.img-6.1.0-18-amd64] [--append=root=UUID=5e0d7c1a-2f43-4b8e-9a61-0c7d2e9f1b34 ro quiet iommu=pt -- single] " ]
}

@test "--json: plan, read-back and check in one object" {
	use bls-fedora
	run --separate-stderr "$BOOTAB" set --root "$ROOT" --managed "$MANAGED" --args iommu=pt --json
	[ "$status" -eq 0 ]
	run jq -r '.backend, .dry_run, (.actions | length), .state.default.args, .state.inherit.source, .check.ok' <<<"$output"
	expect_output <<'EOF'
bls
false
3
root=UUID=3f1c0b9e-8d2a-4c55-9a31-6a2e0f4b7d10 ro rootflags=subvol=root rhgb quiet ttm.pages_limit=31457280 $tuned_params iommu=pt
/etc/kernel/cmdline
true
EOF
}

@test "bad input: one line naming what and where, nothing changed" {
	use bls-fedora
	run --separate-stderr "$BOOTAB" set --root "$ROOT" --backend systemd-boot --managed iommu=pt --args ""
	[ "$status" -eq 2 ]
	[ "$stderr" = "bootab: set: unknown backend 'systemd-boot' (auto, grubby, bls, kernel-cmdline, grub, kexec)" ]
	run --separate-stderr "$BOOTAB" set --root "$ROOT" --managed "iommu=pt" --args 'amd_iommu=off;reboot'
	[ "$status" -eq 2 ]
	[ "$stderr" = "bootab: set: --args: invalid kernel argument 'amd_iommu=off;reboot': ';' is not allowed in a value (shell, GRUB and quoting characters are refused) (column 1)" ]
	run --separate-stderr "$BOOTAB" set --root "$ROOT" --managed "intel_iommu" --args 'intel_iommu=pt'
	[ "$status" -eq 2 ]
	[ "$stderr" = "bootab: set: --args: intel_iommu: the kernel does not take 'pt': it takes a comma-separated list of on, off, igfx_off, intgpu_off, forcedac, strict, sp_off, sm_on, sm_off, tboot_noforce (kernel-parameters.txt (intel_iommu=); drivers/iommu/intel/iommu.c intel_iommu_setup())" ]
	run --separate-stderr "$BOOTAB" set --root "$ROOT" --managed 'iommu=pt $(id)' --args ""
	[ "$status" -eq 2 ]
	[ "$stderr" = "bootab: set: --managed: invalid kernel argument '\$(id)': '\$' is not allowed in a parameter name (column 10)" ]
	run --separate-stderr "$BOOTAB" set --root "$ROOT" --managed iommu=pt
	[ "$status" -eq 2 ]
	[ "$stderr" = "bootab: set: --managed and --args are both required (--args \"\" adds nothing); see 'bootab help set'" ]
	run --separate-stderr "$BOOTAB" set --root "$ROOT/nope" --managed iommu=pt --args ""
	[ "$status" -eq 2 ]
	[ "$stderr" = "bootab: set: --root '$ROOT/nope' is not a directory" ]
	unchanged bls-fedora
}

@test "bad input: an entry whose args live in grubenv (\$kernelopts)" {
	use bls-fedora-kernelopts
	run --separate-stderr "$BOOTAB" set --root "$ROOT" --managed iommu=pt --args iommu=pt
	[ "$status" -eq 2 ]
	[ "${stderr##*$'\n'}" = "bootab: set: /boot/loader/entries/2b7ea7f7d3c64e5fa2ae4e0c3a1f5b61-5.3.7-301.fc31.x86_64.conf:5:9: options use \$kernelopts, whose value lives in GRUB's grubenv; use the grubby backend" ]
	unchanged bls-fedora-kernelopts
}

@test "bad input: a drop-in bootab cannot edit safely" {
	use grub-debian12
	printf 'GRUB_CMDLINE_LINUX="$(cat /etc/cmdline.local)"\n' > "$ROOT/etc/default/grub.d/60-local.cfg"
	run --separate-stderr "$BOOTAB" set --root "$ROOT" --managed iommu=pt --args iommu=pt
	[ "$status" -eq 2 ]
	[ "${stderr##*$'\n'}" = "bootab: set: /etc/default/grub.d/60-local.cfg:1:21: value uses shell expansion, which bootab does not edit" ]
	rm "$ROOT/etc/default/grub.d/60-local.cfg"
	unchanged grub-debian12
}

@test "auto: nothing to detect is a clear error" {
	run --separate-stderr "$BOOTAB" set --root "$ROOT" --managed iommu=pt --args iommu=pt
	[ "$status" -eq 2 ]
	[ "$stderr" = "bootab: set: no boot loader backend fits local root $ROOT (looked for grubby, loader/entries, /etc/kernel/cmdline, /etc/default/grub)" ]
}

@test "--root: a tree's own update-grub is not run without the test option; nothing changes" {
	use grub-debian12
	# The tree's stand-in would leave a mark if it ran.
	printf '#!/bin/sh\ntouch "%s/ran"\n' "$BATS_TEST_TMPDIR" > "$ROOT/usr/sbin/update-grub"
	chmod +x "$ROOT/usr/sbin/update-grub"
	cp -a "$ROOT" "$BATS_TEST_TMPDIR/before"
	unset BOOTAB_TEST_ROOT_TOOLS
	run --separate-stderr "$BOOTAB" set --root "$ROOT" --managed "$MANAGED" --args amd_iommu=off
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"bootab: set: update-grub: not run: a --root tree's own tools run only with the test option BOOTAB_TEST_ROOT_TOOLS=1; nothing was changed"* ]]
	[ ! -e "$BATS_TEST_TMPDIR/ran" ]
	diff -r "$BATS_TEST_TMPDIR/before" "$ROOT"
}

@test "bls: an entry that is a symlink inside the root is refused, never replaced by a copy" {
	use bls-fedora
	e="$ROOT/boot/loader/entries/2b7ea7f7d3c64e5fa2ae4e0c3a1f5b61-0-rescue.conf"
	mkdir -p "$ROOT/srv/entries"
	mv "$e" "$ROOT/srv/entries/rescue.conf"
	ln -s ../../../srv/entries/rescue.conf "$e"
	cp -a "$ROOT" "$BATS_TEST_TMPDIR/before"
	run --separate-stderr "$BOOTAB" set --root "$ROOT" --managed "$MANAGED" --args amd_iommu=off
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"/boot/loader/entries/2b7ea7f7d3c64e5fa2ae4e0c3a1f5b61-0-rescue.conf: a symbolic link: bootab replaces files whole and would turn the link into a copy; point the boot loader at the file itself; nothing was changed"* ]]
	[ -L "$e" ]
	diff -r "$BATS_TEST_TMPDIR/before" "$ROOT"
}
