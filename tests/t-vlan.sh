#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# VLAN strip and insert offloads on a VLAN subinterface, against igb.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
run_guest vlan
