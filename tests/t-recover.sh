#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# PCI error recovery, function reset, the device's sleep and wake-up
# path (the test module tests/modules/ronic_sleep.c), Wake-on-LAN
# settings, malformed frames from the wire (tests/guest/wire.sh, through
# vm.sh --injector) and hot-unplug, under sha256-checked traffic
# (tests/guest/recover.sh).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
with_guest_test_modules recover
with_xdp_objs
run_guest recover --injector
