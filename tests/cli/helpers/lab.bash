# Shared by the bats files that need the real QEMU lab. Each file brings up
# its own lab in $BOOTAB_TEST_LAB_DIR (default: a new directory under the
# file's temporary directory), so suites running at once never share one.
# The kernel package download is shared through the user's cache.

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

# For setup_file: the lab up, or LAB_SKIP set to why it cannot be.
lab_setup_file() {
	local why
	if [ -n "${BOOTAB_TEST_NO_LAB-}" ]; then
		export LAB_SKIP="lab tests run in the plain pass of make check, not under $BOOTAB_TEST_NO_LAB"
		return 0
	fi
	if ! why=$(qemu_probe); then
		export LAB_SKIP="$why"
		return 0
	fi
	export BOOTAB_LAB_DIR BOOTAB_LAB_DEB_CACHE
	BOOTAB_LAB_DIR=$(lab_dir)
	BOOTAB_LAB_DEB_CACHE=${BOOTAB_LAB_DEB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/bootab/deb-cache}
	"$BOOTAB" lab down >/dev/null 2>&1 || true
	"$BOOTAB" lab up >"$BATS_FILE_TMPDIR/up.out" 2>"$BATS_FILE_TMPDIR/up.err" || {
		cat "$BATS_FILE_TMPDIR/up.err" >&3
		return 1
	}
}

lab_teardown_file() {
	[ -n "${LAB_SKIP-}" ] && return 0
	BOOTAB_LAB_DIR=$(lab_dir) "$BOOTAB" lab down >/dev/null 2>&1 || true
}

lab_setup() {
	if [ -n "${LAB_SKIP-}" ]; then
		skip "$LAB_SKIP"
	fi
	export BOOTAB_LAB_DIR
	BOOTAB_LAB_DIR=$(lab_dir)
}

# A bounded SSH command in the lab.
lab_ssh() {
	timeout 30 ssh -F "$(lab_dir)/run/ssh_config" -o ConnectTimeout=5 bootab-lab "$@"
}
