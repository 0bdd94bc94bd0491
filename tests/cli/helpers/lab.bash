# Shared set-up for the test files that boot the QEMU lab for real.
#
# Each file gets its own lab directory: $BOOTAB_TEST_LAB_DIR when set, else
# a new one per run under the file's temporary directory (test suites
# running at the same time on one machine must not share a lab), apart from
# the user's own lab. The kernel package download is shared through
# ${XDG_CACHE_HOME:-$HOME/.cache}/bootab/deb-cache.
#
# Every test gets a private XDG_DATA_HOME: a campaign that finishes records
# the machine's calibration history there, never in the user's home.
#
# A file uses it as
#   load helpers/lab
#   setup_file()    { lab_setup_file; }
#   teardown_file() { lab_teardown_file; }
#   setup()         { lab_setup; }
#   teardown()      { lab_teardown; }
# LAB_UP_ARGS (set before lab_setup_file) are passed to bootab lab up
# (--smt: the guest's CPUs as two threads of one core).

lab_dir() {
	echo "${BOOTAB_TEST_LAB_DIR:-$BATS_FILE_TMPDIR/lab}"
}

# Can this machine start a QEMU at all? (The one reason to skip.)
qemu_probe() {
	command -v qemu-system-x86_64 >/dev/null || {
		echo "qemu-system-x86_64 not installed (apt-get install qemu-system-x86)"
		return 1
	}
	local out
	if ! out=$(echo quit | timeout 30 qemu-system-x86_64 -M q35,accel=tcg -nodefaults \
		-display none -S -monitor stdio 2>&1 >/dev/null); then
		echo "qemu-system-x86_64 cannot start: ${out:-no message}"
		return 1
	fi
}

# A bounded SSH attempt: the connect timeout plus a ceiling on the whole
# command, because QEMU's port forward accepts connections while the guest
# is down and ssh would then wait for a banner.
lab_ssh() {
	timeout 20 ssh -F "$(lab_dir)/run/ssh_config" -o ConnectTimeout=5 bootab-lab "$@"
}

# Waits for a boot_id other than $1: at most 40 attempts 2 s apart.
wait_new_boot_id() {
	local old=$1 id
	for _ in $(seq 40); do
		if id=$(lab_ssh cat /proc/sys/kernel/random/boot_id 2>/dev/null) &&
			[[ "$id" =~ ^[0-9a-f-]{36}$ ]] && [ "$id" != "$old" ]; then
			echo "$id"
			return 0
		fi
		sleep 2
	done
	return 1
}

# pids whose command line names this lab's pid file: our QEMU, nothing else.
our_qemu_pids() {
	local pidfile p
	pidfile="$(lab_dir)/run/qemu.pid"
	for p in /proc/[0-9]*; do
		if tr '\0' '\n' <"$p/cmdline" 2>/dev/null | grep -qxF "$pidfile"; then
			echo "${p#/proc/}"
		fi
	done
}

# Records in LAB_SKIP why this machine cannot run the file's lab and
# returns 1, or exports the lab's directories and returns 0.
# LAB_GUEST=debian (set by the file): the Debian guest, built as root.
lab_usable() {
	local why
	if [ -n "${BOOTAB_TEST_NO_LAB-}" ]; then
		export LAB_SKIP="lab tests run in the plain pass of make check, not under $BOOTAB_TEST_NO_LAB"
		return 1
	fi
	if ! why=$(qemu_probe); then
		export LAB_SKIP="$why"
		return 1
	fi
	if [ "${LAB_GUEST-}" = debian ] && [ "$(id -u)" != 0 ]; then
		export LAB_SKIP="the Debian guest is built as root (mmdebstrap); CI runs as root"
		return 1
	fi
	export BOOTAB_LAB_DIR BOOTAB_LAB_DEB_CACHE
	BOOTAB_LAB_DIR=$(lab_dir)
	BOOTAB_LAB_DEB_CACHE=${BOOTAB_LAB_DEB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/bootab/deb-cache}
}

# Starts the file's lab, or records why this machine cannot run one.
lab_setup_file() {
	lab_usable || return 0
	"$BOOTAB" lab down >/dev/null 2>&1 || true
	# shellcheck disable=SC2086
	"$BOOTAB" lab ${LAB_GUEST:+--guest "$LAB_GUEST"} up ${LAB_UP_ARGS-} >"$BATS_FILE_TMPDIR/up.out" 2>"$BATS_FILE_TMPDIR/up.err" || {
		cat "$BATS_FILE_TMPDIR/up.err" >&3
		return 1
	}
}

lab_teardown_file() {
	[ -n "${LAB_SKIP-}" ] && return 0
	BOOTAB_LAB_DIR=$(lab_dir) "$BOOTAB" lab down >/dev/null 2>&1 || true
}

# lab_teardown: after a test that failed, the guest's last console lines
# and the reset watcher's log (control characters shown as ^X), so that a
# boot that hung or crawled says where it stopped.
lab_teardown() {
	[ -n "${LAB_SKIP-}" ] || [ -n "${BATS_TEST_COMPLETED-}" ] && return 0
	local run
	run=$(lab_dir)/run
	if [ -s "$run/serial.log" ]; then
		echo "# the guest's console, its last 40 lines ($run/serial.log):"
		tail -n 40 "$run/serial.log" | tr -d '\r' | cat -v
	fi
	if [ -s "$run/resets" ]; then
		echo "# the reset watcher ($run/resets):"
		tail -n 10 "$run/resets" | cat -v
	fi
	return 0
}

lab_setup() {
	if [ -n "${LAB_SKIP-}" ]; then
		skip "$LAB_SKIP"
	fi
	export BOOTAB_LAB_DIR XDG_DATA_HOME
	BOOTAB_LAB_DIR=$(lab_dir)
	XDG_DATA_HOME=$BATS_TEST_TMPDIR/data
}
