#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The documentation builds: Documentation/*.rst through docutils, the man
# page through groff, and kernel-doc over the sources, each without a
# warning (the same checks as make check, run here so make test has them).
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
for c in docs man kernel-doc; do
	if out=$("$top/scripts/check.sh" "$c" 2>&1); then
		echo "PASS: docs: $c ($(echo "$out" | sed -n "s/^  $c *PASS *//p"))"
	else
		echo "$out" | tail -15 | sed 's/^/# /'
		echo "FAIL: docs: $c (see above)"
	fi
done
