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
# Each output is written beside its name and renamed into place, so a
# guest of another test lane (tests/run.sh) reading the same folder never
# sees a half-written file.
bpf_obj() {
	clang -O2 -g -target bpf -I"/usr/include/$(gcc -dumpmachine)" \
		-c "$top/tests/xdp/$1.bpf.c" -o "$objdir/$2.tmp.$$"
	mv -f "$objdir/$2.tmp.$$" "$objdir/$2"
}
user_tool() {
	gcc -O2 -Wall -Wextra -Werror "$top/tests/xdp/$1.c" \
		-o "$objdir/$1.tmp.$$" -lbpf
	mv -f "$objdir/$1.tmp.$$" "$objdir/$1"
}
bpf_obj ronic_test_progs ronic_test_progs.o
bpf_obj ronic_meta ronic_meta.o
user_tool devbound_load
bpf_obj xsk_redirect xsk_redirect.o
user_tool xsk_tool
echo "$objdir/ronic_test_progs.o"
