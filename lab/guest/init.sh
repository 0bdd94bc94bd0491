#!/bin/sh
# /init of the lab guest (busybox): mounts the kernel file systems, loads
# the modules, mounts the ESP read-write at /boot and efivarfs, installs
# the lab's /etc/machine-id from the ESP, brings up
# the static network of QEMU's user-mode net, then hands over to busybox
# init, which respawns dropbear (/etc/inittab).
export PATH=/usr/sbin:/usr/bin:/sbin:/bin

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mkdir -p /dev/pts /dev/shm
mount -t devpts devpts /dev/pts
mount -t tmpfs -o mode=755 tmpfs /run
mount -t tmpfs -o mode=1777 tmpfs /tmp
hostname bootab-lab
echo "bootab-lab: init"

# The virtio RNG (1af4:1044) goes to vfio-pci, as a device passed through
# to a VM is; driver_override keeps virtio-pci off it. vfio-pci binds only
# where the device has an IOMMU group: with intel_iommu=off its probe fails
# (-22) and the device stays without a driver.
for d in /sys/bus/pci/devices/*; do
	if [ "$(cat "$d/vendor")" = 0x1af4 ] && [ "$(cat "$d/device")" = 0x1044 ]; then
		echo vfio-pci >"$d/driver_override"
	fi
done
read -r modules </etc/lab-modules
for m in $modules; do
	modprobe "$m" || echo "bootab-lab: modprobe $m failed"
done

if [ -d /sys/firmware/efi/efivars ]; then
	mount -t efivarfs efivarfs /sys/firmware/efi/efivars ||
		echo "bootab-lab: cannot mount efivarfs"
fi

# The disks are told apart by their virtio serial numbers (set on the QEMU
# command line), not by probe order.
disk_by_serial() {
	for d in /sys/block/vd*; do
		[ -r "$d/serial" ] || continue
		if [ "$(cat "$d/serial")" = "$1" ]; then
			echo "/dev/${d##*/}"
			return 0
		fi
	done
	return 1
}
tries=0
until esp=$(disk_by_serial bootab-esp); do
	tries=$((tries + 1))
	if [ "$tries" -gt 50 ]; then
		echo "bootab-lab: no ESP disk (serial bootab-esp)"
		break
	fi
	sleep 0.1
done
if [ -n "$esp" ]; then
	# codepage/iocharset: the FAT defaults in Debian's kernel name
	# modules (cp437, iso8859-1) this initramfs loads explicitly.
	mount -t vfat -o rw,codepage=437,iocharset=iso8859-1 "$esp" /boot ||
		echo "bootab-lab: cannot mount $esp at /boot"
fi
# machine-id(5): the lab's id, made once by the builder and kept on the
# ESP, so every boot is the same machine. Anything but 32 lowercase hex
# digits is not installed.
if id=$(head -c 64 /boot/machine-id 2>/dev/null | head -n 1) &&
	printf '%s\n' "$id" | grep -qxE '[0-9a-f]{32}'; then
	printf '%s\n' "$id" >/etc/machine-id
else
	echo "bootab-lab: no machine id on the ESP (/boot/machine-id)"
fi
if data=$(disk_by_serial bootab-data); then
	ln -sf "$data" /dev/lab-data
fi

ip link set lo up
ip link set eth0 up
ip addr add 10.0.2.15/24 dev eth0
ip route add default via 10.0.2.2

echo "bootab-lab: ready boot_id=$(cat /proc/sys/kernel/random/boot_id)"
exec /sbin/init
