# Shared set-up for the target-side CLI tests: fixture trees, pci.ids, and
# a busybox "sh" so every test can run the embedded scripts under dash
# and under busybox sh.
fixtures="$BATS_TEST_DIRNAME/../fixtures/sysfs"
expected="$BATS_TEST_DIRNAME/expected"
export BOOTAB_PCI_IDS="$BATS_TEST_DIRNAME/../fixtures/pci.ids"

# use_shell dash|busybox: the program that runs target scripts
use_shell() {
	case $1 in
	dash) export BOOTAB_TARGET_SH=dash ;;
	busybox)
		mkdir -p "$BATS_TEST_TMPDIR/bb"
		ln -sf "$(command -v busybox)" "$BATS_TEST_TMPDIR/bb/sh"
		export BOOTAB_TARGET_SH="$BATS_TEST_TMPDIR/bb/sh"
		;;
	esac
}

# check_output FILE: $output must equal FILE's content exactly
check_output() {
	diff -u "$1" <(printf '%s\n' "$output")
}
