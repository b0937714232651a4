#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Link, ethtool -i, IPv4/IPv6 ping: the DUT against itself and igb.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
run_guest basic
