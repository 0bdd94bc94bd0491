#!/bin/sh
# The main job: bring the QEMU lab up, run the campaign of
# examples/lab-iommu.ini against it (two IOMMU modes and pti=on, two rounds;
# bootab run prints the report at the end), and bring the lab down again,
# whatever happens on the way.
#   usage: tools/demo.sh [DATA_DIR]
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
bootab=$here/build/bootab
data=${1:-$here/runs}
# The plan's power-cycle command is "bootab lab power-cycle".
PATH=$here/build:$PATH
export PATH

# shellcheck disable=SC2317 # called through the trap
cleanup() {
	"$bootab" lab down >/dev/null 2>&1 || true
}
trap cleanup EXIT
trap 'exit 130' INT TERM

"$bootab" lab up || exit 1
"$bootab" run --data "$data" "$here/examples/lab-iommu.ini"
