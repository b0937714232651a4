#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# PCI error recovery, function reset, system sleep and Wake-on-LAN
# settings, under sha256-checked traffic (tests/guest/recover.sh).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
with_xdp_objs
run_guest recover
