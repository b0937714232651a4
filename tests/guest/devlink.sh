#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# devlink dev info of ronic (run from basic.sh, in its boot): NIC A bound
# to ronic, NIC B to igb. The driver is ronic; the serial number is the
# PCI DSN or, without one (QEMU), the permanent MAC; versions.running has
# "driver" equal to the module's version and "fw" equal to the EEPROM
# image version word as igb's "ethtool -e" shows it on the other NIC (the
# same model, the same EEPROM template), which ethtool -i also reports.
set -uo pipefail
# shellcheck source=scripts/guest/lib.sh
. "$RONIC_TOP/scripts/guest/lib.sh"
plan 6

if [ "$RONIC_DUT" != ronic ]; then
	log "devlink: skipped, the DUT ($RONIC_DUT) registers no devlink instance"
	finish
fi
if ! pair_up ronic igb; then
	fail "devlink: pair up ronic/igb" "pair_up failed"
	finish
fi

info=$(devlink -j dev info "pci/$BDF_A" 2>&1)
printf '%s\n' "$info" | sed 's/^/#   /' >&2
field() {
	jq -r --arg h "pci/$BDF_A" ".info[\$h]$1 // empty" <<< "$info" 2>/dev/null
}

drv=$(field .driver)
if [ "$drv" = ronic ]; then
	pass "devlink: driver is ronic"
else
	fail "devlink: driver is ronic" "driver '$drv'"
fi

serial=$(field .serial_number)
perm=$(ethtool -P "$NIC_A" | sed 's/.*: //; s/://g')
dsn=$(lspci -s "$BDF_A" -vv 2>/dev/null |
      sed -n 's/.*Device Serial Number \(.*\)/\1/p' | tr -d '-')
want=${dsn:-$perm}
if [ -n "$serial" ] && [ "$serial" = "$want" ]; then
	pass "devlink: serial number is the ${dsn:+DSN}${dsn:-permanent MAC} ($serial)"
else
	fail "devlink: serial number is the DSN or the MAC" "'$serial' != '$want'"
fi

modver=$(modinfo -F version ronic)
drvver=$(field .versions.running.driver)
if [ -n "$modver" ] && [ "$drvver" = "$modver" ]; then
	pass "devlink: versions.running.driver is modinfo's $modver"
else
	fail "devlink: versions.running.driver is modinfo's version" \
		"'$drvver' != '$modver'"
fi

# EEPROM word 0x05 (bytes 10, 11, little endian) through igb on NIC B:
# major 15:12, minor 11:4 (BCD), image id 3:0.
word=$(ip netns exec "$PEER_NS" ethtool -e "$NIC_B" offset 10 length 2 raw on |
       od -An -tu2 | tr -d ' ')
fw=$(field .versions.running.fw)
if [ -n "$word" ]; then
	nvm=$(printf '%u.%x.%u' $((word >> 12)) $(((word >> 4) & 0xff)) $((word & 0xf)))
else
	nvm=
fi
if [ -n "$nvm" ] && [ "$fw" = "$nvm" ]; then
	pass "devlink: versions.running.fw is the EEPROM image version $fw (word $(printf 0x%04x "$word"))"
else
	fail "devlink: versions.running.fw is the EEPROM image version" \
		"'$fw' != '$nvm' (word '$word')"
fi
ethfw=$(ethtool -i "$NIC_A" | sed -n 's/^firmware-version: //p')
if [ "$ethfw" = "$fw" ]; then
	pass "devlink: ethtool -i firmware-version matches ($ethfw)"
else
	fail "devlink: ethtool -i firmware-version matches" "'$ethfw' != '$fw'"
fi

port=$(devlink -j port show 2>/dev/null |
       jq -r --arg h "pci/$BDF_A" '.port | to_entries[] |
	  select(.key | startswith($h + "/")) | .value.netdev // empty')
if [ "$port" = "$NIC_A" ]; then
	pass "devlink: the physical port is linked to $NIC_A"
else
	fail "devlink: the physical port is linked to $NIC_A" "port netdev '$port'"
fi
pair_down
finish
