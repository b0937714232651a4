#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The bed-hang rule (scripts/bed-hang.sh) on real kernel logs of this bed:
# tests/unit/hang/outside-*.txt are hangs it must excuse (a 72-vCPU
# rcu_barrier under "ip link set netns"; an RCU timer stall at boot before
# ronic loaded), inside-*.txt are logs with ronic frames it must not.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=scripts/bed-hang.sh
. "$top/scripts/bed-hang.sh"

rc=0
for f in "$top"/tests/unit/hang/*.txt; do
	name=$(basename "$f" .txt)
	if ronic_hang_outside_dut "$f" ronic; then got=outside; else got=inside; fi
	if [ "$got" = "${name%%-*}" ]; then
		echo "PASS: bed-hang rule: $name is $got ronic"
	else
		echo "FAIL: bed-hang rule: $name is ${name%%-*} ronic, the rule says $got"
		rc=1
	fi
done
# The DUT's name is the module the frames must not name.
if ronic_hang_outside_dut "$top/tests/unit/hang/inside-probe-stack.txt" igb; then
	echo "PASS: bed-hang rule: with igb as the DUT, ronic frames do not count"
else
	echo "FAIL: bed-hang rule: with igb as the DUT, ronic frames counted"
	rc=1
fi
# The halted vCPU (three RCU stall reports): the lifecycle boot whose
# CPU 1 stopped taking timer interrupts is one, the others are not.
for f in "$top"/tests/unit/hang/*.txt; do
	name=$(basename "$f" .txt)
	if ronic_halted_vcpu "$f"; then got=halted; else got=not; fi
	case $name in
	*halted-vcpu) want=halted ;;
	*) want=not ;;
	esac
	if [ "$got" = "$want" ]; then
		echo "PASS: halted vCPU: $name is $want"
	else
		echo "FAIL: halted vCPU: $name is $want, the rule says $got"
		rc=1
	fi
done
# A failed attempt's check lines reach the test's output, under set -e
# too (the tests through tests/lib.sh's run_guest run with it): a fake
# vm.sh beside a copy of the script prints two lines and fails.
fake=$(mktemp -d)
mkdir "$fake/scripts"
cp "$top/scripts/bed-hang.sh" "$fake/scripts/"
printf '#!/bin/bash\necho "PASS: fake a"\necho "FAIL: fake b"\nexit 1\n' > "$fake/scripts/vm.sh"
chmod +x "$fake/scripts/vm.sh"
out=$(bash -c 'set -euo pipefail; . "$1/scripts/bed-hang.sh"; ronic_vm_retry_bed_hang "$1/res" --name fake' _ "$fake" 2>&1)
status=$?
rm -rf "$fake"
if [ "$status" -eq 1 ] && grep -q '^PASS: fake a' <<< "$out" && grep -q '^FAIL: fake b' <<< "$out"; then
	echo "PASS: bed-hang retry: a failed attempt's lines are printed under set -e (status 1)"
else
	echo "FAIL: bed-hang retry: a failed attempt's lines under set -e (status $status): $(echo "$out" | tr '\n' ' ')"
	rc=1
fi
exit $rc
