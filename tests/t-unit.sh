#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Unit tests of the driver's pure logic, built in userspace from the
# driver's own sources against the shim headers in tests/unit/shim, and
# of the test bed's own rules (tests/unit/test_*.sh).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

rc=0
for t in "$top"/tests/unit/test_*.c; do
	name=$(basename "$t" .c)
	# Each test_X.c names the driver sources it needs on a "// sources:" line.
	read -r -a srcs <<< "$(sed -n 's|^// sources: ||p' "$t")"
	if ! cc -std=gnu11 -Wall -Wextra -Werror -I "$top/tests/unit/shim" \
		-I "$top/include" -o "$out/$name" "$t" "${srcs[@]/#/$top/}"; then
		echo "FAIL: $name (does not build)"
		rc=1
		continue
	fi
	"$out/$name" || rc=1
done
# Host-side rules of the test bed, in shell (test_*.sh).
for t in "$top"/tests/unit/test_*.sh; do
	bash "$t" || rc=1
done
exit $rc
