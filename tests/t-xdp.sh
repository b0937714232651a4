#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# XDP on ronic: every action, errors, attach under traffic, redirect in
# from veth. The test programs are compiled here, on the host.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
with_xdp_objs
run_guest xdp
