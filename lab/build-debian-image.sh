# The system image of the Debian lab guest: sourced by build-debian.sh,
# which sets the variables used here (tree layout, kernels, mirrors, the
# image's directory). Its hash, with lab/guest-debian/*, is part of the
# image's key: editing it rebuilds the image, editing build-debian.sh only
# the labs' disks.
# shellcheck shell=bash disable=SC2154 # the variables are build-debian.sh's
# Runs "$@" with every descriptor above 2 closed.
without_inherited_fds() {
	(
		for fd in /proc/self/fd/*; do
			fd=${fd##*/}
			[ "$fd" -gt 2 ] 2>/dev/null && eval "exec $fd>&-"
		done
		exec "$@"
	)
}

build_image() {
	local work tree mm_mirrors=() line
	work=$(mktemp -d "$debs/debian/build.XXXXXX")
	# shellcheck disable=SC2064 # the path is fixed now
	trap "rm -rf '$work'" EXIT
	tree=$work/tree
	while read -r line; do
		mm_mirrors+=("deb ${line% *} ${line#* } main")
	done <<<"$mirrors"
	say "building the Debian image with mmdebstrap ($k61 $v61, $k612 $v612)"
	# shellcheck disable=SC2086 # one package per word
	# mmdebstrap hands apt a hook "cat >&FD" run by /bin/sh (dash), which
	# takes only one-digit descriptors: with many inherited ones open (bats
	# holds 3 to 11) FD became 12 and the download failed ("Bad fd
	# number"). It runs with none but 0-2.
	if ! without_inherited_fds mmdebstrap --variant=apt --include="$(echo $packages | tr ' ' ',')" \
		bookworm "$tree" "${mm_mirrors[@]}" >"$work/mmdebstrap.log" 2>&1; then
		tail -n 20 "$work/mmdebstrap.log" >&2
		die "mmdebstrap failed (full log above, last 20 lines)"
	fi
	for f in "vmlinuz-$kver61" "vmlinuz-$kver612" "initrd.img-$kver61" "initrd.img-$kver612"; do
		[ -s "$tree/boot/$f" ] || die "mmdebstrap's tree lacks /boot/$f"
	done
	rm -f "$tree"/boot/*.dpkg-bak "$tree"/boot/*.new

	local g=$here/guest-debian
	# Host keys are the lab's (written per lab); the ones the package made go.
	rm -f "$tree"/etc/ssh/ssh_host_*
	install -m 644 "$g/sshd-lab.conf" "$tree/etc/ssh/sshd_config.d/lab.conf"
	# A reboot must go through the firmware and GRUB: no kexec on reboot.
	sed -i 's/^LOAD_KEXEC=.*/LOAD_KEXEC=false/' "$tree/etc/default/kexec"
	mkdir -p "$tree/etc/default/grub.d"
	install -m 644 "$g/grub-lab.cfg" "$tree/etc/default/grub.d/lab.cfg"
	install -m 644 "$g/10-lab.network" "$tree/etc/systemd/network/10-lab.network"
	install -m 644 "$g/70-lab-data.rules" "$tree/etc/udev/rules.d/70-lab-data.rules"
	install -m 644 "$g/bootab-lab-firstboot.service" "$g/bootab-lab-ready.service" "$tree/etc/systemd/system/"
	install -m 440 "$g/sudoers-benchnp" "$tree/etc/sudoers.d/benchnp"
	mkdir -p "$tree/etc/systemd/system.conf.d"
	install -m 644 "$g/system-lab.conf" "$tree/etc/systemd/system.conf.d/lab.conf"
	printf 'bootab-lab\n' >"$tree/etc/hostname"
	printf '127.0.0.1 localhost\n10.0.2.15 bootab-lab\n' >"$tree/etc/hosts"
	# The ESP is not needed to boot or to run (GRUB's image is only read by
	# the firmware): mounted on demand, never a reason for emergency mode.
	printf 'UUID=%s / ext4 errors=remount-ro 0 1\nUUID=%s-%s /boot/efi vfat umask=0077,noauto,nofail 0 0\n' \
		"$ROOT_UUID" "${ESP_ID:0:4}" "${ESP_ID:4:4}" >"$tree/etc/fstab"
	mkdir -p "$tree/boot/efi"
	: >"$tree/etc/machine-id"
	chroot "$tree" systemctl enable -q systemd-networkd bootab-lab-firstboot.service bootab-lab-ready.service
	chroot "$tree" systemctl set-default -q multi-user.target
	# Less to start on every boot under TCG; kexec-tools' own scripts
	# (kexec on reboot) are off: bootab runs kexec itself.
	chroot "$tree" systemctl mask -q apt-daily.timer apt-daily-upgrade.timer man-db.timer \
		e2scrub_all.timer e2scrub_reap.service fstrim.timer systemd-timesyncd.service \
		systemd-binfmt.service proc-sys-fs-binfmt_misc.automount kexec.service kexec-load.service
	install -m 644 "$g/modprobe-lab.conf" "$tree/etc/modprobe.d/lab.conf"
	chroot "$tree" useradd -m -s /bin/bash -G sudo bench
	chroot "$tree" useradd -m -s /bin/bash benchnp
	chroot "$tree" usermod -p '*' benchnp
	for home in root home/bench home/benchnp; do
		install -d -m 700 "$tree/$home/.ssh"
	done
	chroot "$tree" chown bench:bench /home/bench/.ssh
	chroot "$tree" chown benchnp:benchnp /home/benchnp/.ssh
	# What grub-install does for EFI, without the block device it probes:
	# the modules under /boot/grub, an environment block, and an EFI image
	# whose built-in config finds the root by UUID and reads grub.cfg.
	mkdir -p "$tree/boot/grub"
	cp -a "$tree/usr/lib/grub/x86_64-efi" "$tree/boot/grub/"
	chroot "$tree" grub-editenv /boot/grub/grubenv create
	cat >"$tree/tmp/early.cfg" <<CFG
search --no-floppy --fs-uuid --set=root $ROOT_UUID
set prefix=(\$root)/boot/grub
if [ -s \$prefix/grub.cfg ]; then
	configfile \$prefix/grub.cfg
fi
echo "bootab-lab: no /boot/grub/grub.cfg yet: first boot, update-grub writes it"
linux /boot/vmlinuz-$kver61 root=UUID=$ROOT_UUID ro console=ttyS0 no_timer_check
initrd /boot/initrd.img-$kver61
boot
CFG
	chroot "$tree" grub-mkimage -O x86_64-efi -o /tmp/BOOTX64.EFI -p /boot/grub -c /tmp/early.cfg \
		part_gpt fat ext2 normal configfile search search_fs_uuid linux echo test \
		loadenv gzio serial terminal efi_gop all_video reboot halt
	mv "$tree/tmp/BOOTX64.EFI" "$work/BOOTX64.EFI"
	rm -f "$tree/tmp/early.cfg"
	chroot "$tree" apt-get clean
	rm -rf "$tree"/var/lib/apt/lists/* "$tree"/var/log/*.log "$tree"/var/cache/debconf/*-old
	cp "$tree/etc/shadow" "$work/shadow"
	awk -F: '$1 == "shadow" { print $3 }' "$tree/etc/group" >"$work/shadow-gid"
	grep -qxE '[0-9]+' "$work/shadow-gid" || die "no shadow group in the image's /etc/group"

	# --- the disk: GPT, ESP, root ---
	truncate -s "${DISK_MIB}M" "$work/disk.img"
	sfdisk -q "$work/disk.img" <<PT >/dev/null
label: gpt
start=$ESP_START, size=$((ESP_MIB * 2048)), type=C12A7328-F81F-11D2-BA4B-00A0C93EC93B, name="EFI system partition"
start=$ROOT_START, size=$ROOT_SECTORS, type=4F68BCE3-E8CD-4DB1-96E7-FBCAF984B709, name="root"
PT
	mkfs.vfat -C -F 32 -i "$ESP_ID" -n BOOTAB-ESP "$work/esp.img" $((ESP_MIB * 1024)) >/dev/null
	MTOOLS_SKIP_CHECK=1 mmd -i "$work/esp.img" ::/EFI ::/EFI/BOOT
	MTOOLS_SKIP_CHECK=1 mcopy -i "$work/esp.img" "$work/BOOTX64.EFI" ::/EFI/BOOT/BOOTX64.EFI
	dd if="$work/esp.img" of="$work/disk.img" bs=512 seek="$ESP_START" conv=notrunc status=none
	mke2fs -q -F -t ext4 -U "$ROOT_UUID" -L bootab-root -d "$tree" -E offset=$((ROOT_START * 512)) \
		"$work/disk.img" $((ROOT_SECTORS / 2))k
	printf '%s\n%s\n' "$kver61" "$kver612" >"$work/kernels"
	mkdir "$work/out"
	mv "$work/disk.img" "$work/shadow" "$work/shadow-gid" "$work/kernels" "$work/out/"
	rm -rf "$image"
	mv "$work/out" "$image"
	rm -rf "$work"
	trap - EXIT
	# Older images are of no further use.
	find "$debs/debian" -mindepth 1 -maxdepth 1 -type d ! -name "$key" -exec rm -rf {} +
}
