#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The DUT under a strict emulated Intel IOMMU: no DMAR faults.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
exec "$top/scripts/vm.sh" --name iommu --iommu \
	${RONIC_RESULTS_DIR:+--results "$RONIC_RESULTS_DIR"} \
	-- "$top/tests/guest/iommu.sh"
