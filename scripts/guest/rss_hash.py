#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The Toeplitz hash an RSS device computes for an IPv4 flow.

  rss_hash.py KEY SRC DST [SPORT DPORT]

KEY is the hash key as ethtool -x prints it (hex bytes, colons); SRC and
DST the addresses of the received frame, SPORT and DPORT its ports when
the hash covers them. Prints the hash in decimal.
"""
import ipaddress
import sys


def toeplitz(key, data):
    """Microsoft's RSS hash of data under key (at least len(data) + 4 bytes)."""
    bits = len(key) * 8
    k = int.from_bytes(key, "big")
    result = 0
    for i, byte in enumerate(data):
        for b in range(8):
            if byte & (0x80 >> b):
                result ^= (k >> (bits - 32 - (i * 8 + b))) & 0xFFFFFFFF
    return result


def main():
    args = sys.argv[1:]
    if len(args) not in (3, 5):
        sys.exit(__doc__)
    key = bytes.fromhex(args[0].replace(":", ""))
    data = ipaddress.IPv4Address(args[1]).packed
    data += ipaddress.IPv4Address(args[2]).packed
    if len(args) == 5:
        data += int(args[3]).to_bytes(2, "big") + int(args[4]).to_bytes(2, "big")
    print(toeplitz(key, data))


if __name__ == "__main__":
    main()
