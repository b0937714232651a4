#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Compile the XDP test programs for the guest (on the host, where clang
# is) into results/xdp-objs and print the object's path.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
objdir=$top/results/xdp-objs
mkdir -p "$objdir"
clang -O2 -g -target bpf -I"/usr/include/$(gcc -dumpmachine)" \
	-c "$top/tests/xdp/ronic_test_progs.bpf.c" -o "$objdir/ronic_test_progs.o"
echo "$objdir/ronic_test_progs.o"
