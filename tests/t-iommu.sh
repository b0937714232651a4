#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The DUT under a strict emulated Intel IOMMU: no DMAR faults.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
run_guest iommu --iommu
