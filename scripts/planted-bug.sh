#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Show that the debug run catches the bugs it is there for: plant one
# (tests/planted/NAME.patch: a missing unmap, a double free, an unmap with
# the wrong direction) in a scratch copy of the driver, run the debug
# kernel's test (tests/run-debug.sh, without the fault-injection phase and
# with one load cycle, about 4 minutes) on the copy, and report whether it
# failed and with what. The repo itself is never patched.
#
#   scripts/planted-bug.sh [NAME...]     (default: every tests/planted/*.patch)
#
# Prints "CAUGHT: NAME: <first FAIL line>" or "MISSED: NAME" per bug and
# exits 1 if any bug was missed or its patch no longer applies.
set -uo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
run=$top/results/planted-$(date +%Y%m%d-%H%M%S)
mkdir -p "$run"

names=("$@")
if [ ${#names[@]} -eq 0 ]; then
	for p in "$top"/tests/planted/*.patch; do
		names+=("$(basename "$p" .patch)")
	done
fi

missed=0
for name in "${names[@]}"; do
	patch=$top/tests/planted/$name.patch
	copy=$run/$name/tree
	mkdir -p "$copy"
	cp -r "$top"/{Kbuild,Makefile,VERSION,include,src,scripts,tests} "$copy/"
	find "$copy" -name '*.o' -delete
	if ! patch -d "$copy" -p1 --quiet < "$patch"; then
		echo "MISSED: $name (the patch no longer applies)"
		missed=$((missed + 1))
		continue
	fi
	echo "# planted-bug.sh: $name: $(sed -n 's/^Subject: //p; /^$/q' "$patch")"
	RONIC_DEBUG_FAULTS=0 RONIC_DEBUG_CYCLES=1 \
		"$copy/tests/run-debug.sh" --results "$run/$name/debug" \
		> "$run/$name/debug.log" 2>&1
	first=$(grep -m1 '^FAIL: ' "$run/$name/debug.log")
	# A run that never got to boot the bug proves nothing.
	if grep -qE '^FAIL: debug: (debug kernel build|ronic(_kunit)?\.ko builds)' "$run/$name/debug.log"; then
		echo "MISSED: $name (the debug run did not build: ${first#FAIL: })"
		missed=$((missed + 1))
	elif [ -n "$first" ]; then
		echo "CAUGHT: $name: ${first#FAIL: }"
		grep -aE 'DMA-API|KASAN|BUG:' "$run/$name/debug.log" | head -3 | sed 's/^/#   /'
	else
		echo "MISSED: $name (the debug run passed; see $run/$name/debug.log)"
		missed=$((missed + 1))
	fi
done
echo "# planted-bug.sh: ${#names[@]} planted, $missed missed; logs in $run"
[ "$missed" -eq 0 ]
