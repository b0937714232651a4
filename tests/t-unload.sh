#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# rmmod under traffic, load/unload cycles, autoload by modalias.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
run_guest unload
