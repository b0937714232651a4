#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The lifecycle table (tests/lifecycle.tsv): every ordering of up/down,
# XDP attach/replace/detach, -G, -L, MTU, the relaxed-ordering flags and
# rmmod/unbind/PCI remove, quiet and under traffic, in one boot (about
# 330 s of rows under TCG on 2 vCPUs).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
with_xdp_objs
run_guest lifecycle --timeout 600
