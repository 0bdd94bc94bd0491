#!/bin/bash
# Builds the kernel developer's lab kernel and captures its output on
# several boots: Debian's linux-source-6.1 configured as `make tinyconfig`
# plus kernel.config (KUnit with a few built-in suites, the DMA map
# benchmark, the Intel IOMMU the lab emulates: options Debian's kernels do
# not set), a busybox initramfs whose /init (init.sh) runs
# dma_map_benchmark against the lab's virtio RNG, and one QEMU boot per side
# on the lab's machine (q35, TCG, intel-iommu with interrupt remapping, the
# lab's PCI devices). Each boot leaves a side directory:
#
#   OUT/bN/kernel.txt   the kernel log as dmesg prints it (KUnit's KTAP inside)
#   OUT/bN/kunit.ktap   the KUnit suites' KTAP from /sys/kernel/debug/kunit
#   OUT/bN/dma.txt      dma_map_benchmark's output, one run a rep
#   OUT/guest-bN.txt    the device, its IOMMU group type, uname, /proc/cmdline
#   OUT/capture.log     what was built and booted, and the wall time of each step
#
# usage: capture.sh OUT [BOOTS]   (BOOTS: 4 unless given)
#
# Environment: BOOTAB_KDEV_DIR (build directory, default
# ${XDG_CACHE_HOME:-$HOME/.cache}/bootab/kernel-dev), BOOTAB_KDEV_SOURCE
# (default /usr/src/linux-source-6.1.tar.xz, from the linux-source-6.1
# package), BOOTAB_KDEV_JOBS (make -j, default 2; the build runs under
# nice -n 19), BOOTAB_KDEV_RUNS (dma_map_benchmark runs per boot, default 3),
# BOOTAB_LAB_LOCK (a file to flock(1) while QEMU runs, when several users
# share the machine). The kernel is rebuilt when kernel.config or the
# source changes (a stamp of both).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
kdev=${BOOTAB_KDEV_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/bootab/kernel-dev}
source_tar=${BOOTAB_KDEV_SOURCE:-/usr/src/linux-source-6.1.tar.xz}
jobs=${BOOTAB_KDEV_JOBS:-2}
runs=${BOOTAB_KDEV_RUNS:-3}

die() { echo "bootab-kernel-dev: $*" >&2; exit 1; }
say() { echo "bootab-kernel-dev: $*" >&2; }

[ $# -ge 1 ] || die "usage: capture.sh OUT [BOOTS]"
out=$1
boots=${2:-4}
case $boots in '' | *[!0-9]*) die "BOOTS: not a number: $boots" ;; esac
[ -r "$source_tar" ] || die "$source_tar: not found (apt-get install linux-source-6.1)"
for t in qemu-system-x86_64 cpio gzip busybox gcc make flex bison bc; do
	command -v "$t" >/dev/null || die "$t: not found"
done
mkdir -p "$kdev" "$out"
log=$out/capture.log
: >"$log"
note() { echo "$*" | tee -a "$log" >&2; }

# build_kernel: bzImage from the source tarball, unless the stamp matches.
build_kernel() {
	local stamp t0 src
	stamp=$(cat "$here/kernel.config" "$source_tar" | sha256sum | cut -d' ' -f1)
	if [ -f "$kdev/bzImage" ] && [ "$(cat "$kdev/stamp" 2>/dev/null)" = "$stamp" ]; then
		note "kernel: $kdev/bzImage is current (stamp $stamp)"
		return
	fi
	t0=$(date +%s)
	rm -rf "$kdev/src" "$kdev/obj" "$kdev/stamp"
	mkdir -p "$kdev/src" "$kdev/obj"
	nice -n 19 tar xJf "$source_tar" -C "$kdev/src" --strip-components=1
	src=$kdev/src
	nice -n 19 make -s -C "$src" O="$kdev/obj" ARCH=x86_64 tinyconfig >/dev/null
	"$src/scripts/kconfig/merge_config.sh" -m -O "$kdev/obj" "$kdev/obj/.config" "$here/kernel.config" >/dev/null
	nice -n 19 make -s -C "$src" O="$kdev/obj" ARCH=x86_64 olddefconfig
	for o in KUNIT KUNIT_DEBUGFS DMA_MAP_BENCHMARK INTEL_IOMMU IRQ_REMAP; do
		grep -qx "CONFIG_$o=y" "$kdev/obj/.config" || die "kernel config: CONFIG_$o is not set"
	done
	nice -n 19 make -s -C "$src" O="$kdev/obj" ARCH=x86_64 -j"$jobs" bzImage
	cp "$kdev/obj/arch/x86/boot/bzImage" "$kdev/bzImage"
	cp "$kdev/obj/.config" "$kdev/config"
	echo "$stamp" >"$kdev/stamp"
	note "kernel: built in $(($(date +%s) - t0)) s (make -j$jobs under nice -n 19), stamp $stamp"
}

# build_initrd: busybox, the statically linked dma_map_benchmark, /init.
build_initrd() {
	local root=$kdev/initrd.d inc=$kdev/inc src
	src=$(basename "$source_tar" .tar.xz)
	rm -rf "$root" "$inc"
	mkdir -p "$root/bin" "$root/proc" "$root/sys" "$root/dev" "$root/tmp" "$inc/linux"
	# The tool as its selftest builds it, against the kernel's own
	# include/linux/map_benchmark.h (the ioctl's struct) and the host's
	# uapi headers.
	tar xJf "$source_tar" -C "$kdev" "$src/tools/testing/selftests/dma/dma_map_benchmark.c" \
		"$src/include/linux/map_benchmark.h"
	cp "$kdev/$src/include/linux/map_benchmark.h" "$inc/linux/"
	gcc -static -O2 -I"$inc" -o "$root/bin/dma_map_benchmark" \
		"$kdev/$src/tools/testing/selftests/dma/dma_map_benchmark.c"
	cp "$(command -v busybox)" "$root/bin/busybox"
	for a in sh cat echo sed mount basename dirname uname dmesg stty sync poweroff; do
		ln -s busybox "$root/bin/$a"
	done
	install -m 755 "$here/init.sh" "$root/init"
	(cd "$root" && find . | cpio -o -H newc --quiet) | gzip -9 >"$kdev/initrd"
	note "initrd: busybox $(busybox | head -1 | cut -d' ' -f2), dma_map_benchmark from $src"
}

# boot N: one QEMU boot of the lab's machine; the guest writes its capture
# to the second serial port and powers off.
boot() {
	local n=$1 dir=$out/b$1 t0 rc=0
	# QEMU options are comma lists, not array separators.
	# shellcheck disable=SC2054
	local -a qemu=(qemu-system-x86_64 -machine "q35,accel=tcg,kernel-irqchip=split" -cpu max -smp 2 -m 1024
		-device intel-iommu,intremap=on
		-drive "if=none,id=data,format=raw,file=$kdev/data.img,cache=none,aio=native"
		-device virtio-blk-pci,drive=data,serial=bootab-data,iommu_platform=on,disable-legacy=on
		-netdev user,id=n0 -device virtio-net-pci,netdev=n0,romfile=,addr=03.0,multifunction=on
		-device virtio-rng-pci,disable-legacy=on,addr=03.1
		-display none -vga none -no-reboot
		-kernel "$kdev/bzImage" -initrd "$kdev/initrd"
		-append "console=ttyS0 no_timer_check panic=-1 bootab.dma_runs=$runs"
		-serial "file:$kdev/console.log" -serial "file:$kdev/data.log")

	rm -f "$kdev/console.log" "$kdev/data.log"
	mkdir -p "$dir"
	t0=$(date +%s.%N)
	if [ -n "${BOOTAB_LAB_LOCK:-}" ]; then
		flock "$BOOTAB_LAB_LOCK" timeout 900 "${qemu[@]}" || rc=$?
	else
		timeout 900 "${qemu[@]}" || rc=$?
	fi
	[ "$rc" -eq 0 ] || die "boot $n: QEMU exited with $rc (console: $kdev/console.log)"
	grep -q '^==> end' "$kdev/data.log" || die "boot $n: the guest wrote no capture (console: $kdev/console.log)"
	tr -d '\r' <"$kdev/data.log" | awk -v dir="$dir" -v guest="$out/guest-b$n.txt" '
		/^==> / { f = ""
			  if ($2 == "dmesg") f = dir "/kernel.txt"
			  else if ($2 == "ktap") f = dir "/kunit.ktap"
			  else if ($2 == "dma_map_benchmark") f = dir "/dma.txt"
			  else if ($2 != "end") { f = guest; print $2 ":" >> f }
			  next }
		f != "" { print >> f }'
	note "boot $n: $(awk -v t0="$t0" -v t1="$(date +%s.%N)" 'BEGIN { printf "%.1f", t1 - t0 }') s from QEMU start to power-off (waiting for the lock included)"
}

t_all=$(date +%s)
build_kernel
build_initrd
truncate -s 64M "$kdev/data.img"
note "qemu: $(qemu-system-x86_64 --version | head -1)"
for i in $(seq 1 "$boots"); do
	rm -rf "$out/b$i" "$out/guest-b$i.txt"
	boot "$i"
done
note "total: $(($(date +%s) - t_all)) s"
