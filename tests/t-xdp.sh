#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# XDP on ronic: every action, errors, attach under traffic, redirect in
# from veth. The test programs are compiled here, on the host.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
objdir=$top/results/xdp-objs
mkdir -p "$objdir"
clang -O2 -g -target bpf -I"/usr/include/$(gcc -dumpmachine)" \
	-c "$top/tests/xdp/ronic_test_progs.bpf.c" -o "$objdir/ronic_test_progs.o"
RONIC_XDP_OBJ=$objdir/ronic_test_progs.o \
exec "$top/scripts/vm.sh" --name xdp ${RONIC_RESULTS_DIR:+--results "$RONIC_RESULTS_DIR"} \
	-- "$top/tests/guest/xdp.sh"
