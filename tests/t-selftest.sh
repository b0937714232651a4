#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ethtool -t (online and offline) on the DUT against an igb peer: every
# result 0, the port's settings and traffic as they were afterwards, under
# a ping flood and on a port that is down. The XDP test programs are
# compiled here, for the XDP program the offline test must keep.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
with_xdp_objs
run_guest selftest
