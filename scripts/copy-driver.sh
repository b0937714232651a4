#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Copy what kbuild needs to build ronic (the one list of it) into a
# folder: for builds in a scratch tree (the debug kernel's, the cross
# compilers', the kernel source tree's drivers/net/ethernet/ronic).
#
#   scripts/copy-driver.sh DEST
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
dest=$1
mkdir -p "$dest/scripts"
cp -a "$top"/{Kbuild,Kconfig,Makefile,VERSION,src,include} "$dest/"
cp -a "$top/scripts/gen-compat.sh" "$dest/scripts/"
# Objects of a build in the repo are not the scratch build's.
find "$dest/src" \( -name '*.o' -o -name '.*.cmd' \) -delete
