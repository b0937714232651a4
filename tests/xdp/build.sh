#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Compile the XDP test programs for the guest (on the host, where clang
# is) into results/xdp-objs and print the main object's path; beside it
# the rx metadata program (ronic_meta.o) and its loader (devbound_load),
# and the AF_XDP tool (xsk_tool) with its program (xsk_redirect.o),
# which the guest runs from there.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
objdir=$top/results/xdp-objs
mkdir -p "$objdir"
clang -O2 -g -target bpf -I"/usr/include/$(gcc -dumpmachine)" \
	-c "$top/tests/xdp/ronic_test_progs.bpf.c" -o "$objdir/ronic_test_progs.o"
clang -O2 -g -target bpf -I"/usr/include/$(gcc -dumpmachine)" \
	-c "$top/tests/xdp/ronic_meta.bpf.c" -o "$objdir/ronic_meta.o"
gcc -O2 -Wall -Wextra -Werror "$top/tests/xdp/devbound_load.c" \
	-o "$objdir/devbound_load" -lbpf
clang -O2 -g -target bpf -I"/usr/include/$(gcc -dumpmachine)" \
	-c "$top/tests/xdp/xsk_redirect.bpf.c" -o "$objdir/xsk_redirect.o"
gcc -O2 -Wall -Wextra -Werror "$top/tests/xdp/xsk_tool.c" \
	-o "$objdir/xsk_tool" -lbpf
echo "$objdir/ronic_test_progs.o"
