#!/bin/sh
# /init of the kernel-dev guest (busybox, everything built into the
# kernel): binds the lab's virtio RNG (the device no driver of the lab
# uses, behind the emulated IOMMU) to dma_map_benchmark by driver_override,
# runs the benchmark, and writes the kernel log (dmesg), each KUnit suite's
# KTAP from debugfs and the benchmark's output to the second serial port,
# between "==> NAME" lines, then powers the machine off (QEMU -no-reboot).
export PATH=/bin

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mount -t debugfs debugfs /sys/kernel/debug
runs=$(sed -n 's/.*bootab.dma_runs=\([0-9]*\).*/\1/p' /proc/cmdline)

dev=
for d in /sys/bus/pci/devices/*; do
	if [ "$(cat "$d/vendor")" = 0x1af4 ] && [ "$(cat "$d/device")" = 0x1044 ]; then
		dev=${d##*/}
	fi
done
if [ -n "$dev" ]; then
	echo dma_map_benchmark >"/sys/bus/pci/devices/$dev/driver_override"
	if [ -e "/sys/bus/pci/devices/$dev/driver" ]; then
		echo "$dev" >"/sys/bus/pci/devices/$dev/driver/unbind"
	fi
	echo "$dev" >/sys/bus/pci/drivers/dma_map_benchmark/bind
fi
i=0
while [ "$i" -lt "${runs:-3}" ]; do
	/bin/dma_map_benchmark -t 1 -s 5 >>/tmp/dma.txt 2>&1
	i=$((i + 1))
done

stty -F /dev/ttyS1 raw -echo 2>/dev/null
{
	echo "==> device"
	echo "$dev $(cat "/sys/bus/pci/devices/$dev/iommu_group/type" 2>/dev/null)"
	echo "==> uname"
	uname -r -v
	echo "==> cmdline"
	cat /proc/cmdline
	echo "==> dma_map_benchmark"
	cat /tmp/dma.txt
	for s in /sys/kernel/debug/kunit/*/results; do
		echo "==> ktap $(basename "$(dirname "$s")")"
		cat "$s"
	done
	echo "==> dmesg"
	dmesg
	echo "==> end"
} >/dev/ttyS1
sync
poweroff -f
