#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The Toeplitz hash an RSS device computes for a flow, and its queue.

  rss_hash.py KEY SRC DST [SPORT DPORT]
  ethtool -x DEV | rss_hash.py --queue SRC DST [SPORT DPORT]

KEY is the hash key as ethtool -x prints it (hex bytes, colons); SRC and
DST the addresses (IPv4 or IPv6) of the received frame, SPORT and DPORT
its ports when the hash covers them. Prints the hash in decimal; with
--queue, the key and the indirection table come from ethtool -x's output
on stdin and the rx queue the flow lands on is printed (the table entry
the hash's low bits pick).
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


def flow_bytes(args):
    """The hashed input: source and destination address, then the ports."""
    data = ipaddress.ip_address(args[0]).packed + ipaddress.ip_address(args[1]).packed
    if len(args) == 4:
        data += int(args[2]).to_bytes(2, "big") + int(args[3]).to_bytes(2, "big")
    return data


def parse_ethtool_x(text):
    """The key and the indirection table of ethtool -x's output."""
    lines = text.splitlines()
    table = []
    key = None
    for i, line in enumerate(lines):
        head, _, rest = line.partition(":")
        if head.strip().isdigit() and rest.split() and all(w.isdigit() for w in rest.split()):
            table += [int(w) for w in rest.split()]
        elif line.startswith("RSS hash key"):
            key = bytes.fromhex(lines[i + 1].strip().replace(":", ""))
    if not table or key is None:
        sys.exit("rss_hash.py: no key or table in ethtool -x's output")
    return key, table


def main():
    args = sys.argv[1:]
    if args and args[0] == "--queue":
        if len(args) not in (3, 5):
            sys.exit(__doc__)
        key, table = parse_ethtool_x(sys.stdin.read())
        print(table[toeplitz(key, flow_bytes(args[1:])) % len(table)])
        return
    if len(args) not in (3, 5):
        sys.exit(__doc__)
    key = bytes.fromhex(args[0].replace(":", ""))
    print(toeplitz(key, flow_bytes(args[1:])))


if __name__ == "__main__":
    main()
