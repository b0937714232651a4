#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Malformed frames from outside the guest, into the test bed's wire.

  inject-frames.py --port PORT --dst MAC --src MAC --ip-dst A --ip-src B
                   [--ip6-dst A6 --ip6-src B6] [--seed N] KIND=COUNT...

scripts/vm.sh --injector joins a QEMU dgram netdev to the NICs' hub; each
UDP datagram sent to 127.0.0.1:PORT is one Ethernet frame on the wire (no
FCS: QEMU adds none). A Linux peer pads short frames and fixes what it
sends; this sends what a broken or hostile station would. Kinds:

  runt          a 42-byte frame (the minimum is 60 before the FCS)
  oversize      a 9500-byte frame (over any MTU's longest frame here)
  bad-ip-csum   IPv4/UDP, IPv4 header checksum wrong
  bad-tcp-csum  IPv4/TCP SYN to port 9, TCP checksum wrong
  bad-udp-csum  IPv4/UDP to port 9, UDP checksum wrong (not zero)
  ip-options    IPv4 with a 4-byte NOP option, UDP to port 9, all valid
  ipv6-ext      IPv6 with a hop-by-hop header, UDP to port 9, all valid
  truncated     IPv4 whose total length (1000) is past the frame's end
  qinq          802.1ad outer tag (0x88a8), 802.1Q inner, then IPv4/UDP
  vlan-in-vlan  two 802.1Q tags, then IPv4/UDP
  random        random bytes after the addresses (never an IP or VLAN
                EtherType), 14 to 1514 bytes long

Frames go to --dst (the port under test) from --src. Prints one line per
kind, "KIND COUNT", then "short N": the frames under 60 bytes (what a
receiver counts as undersize; a TCP SYN without options is 54 bytes).
"""
import argparse
import ipaddress
import random
import socket
import struct
import time

ETH_IP, ETH_IP6, ETH_8021Q, ETH_8021AD = 0x0800, 0x86DD, 0x8100, 0x88A8


def csum(data):
    """The Internet checksum (RFC 1071) of data."""
    if len(data) % 2:
        data += b"\0"
    s = sum(struct.unpack(f"!{len(data) // 2}H", data))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return ~s & 0xFFFF


def ipv4(args, proto, payload, options=b"", total=None, bad=False):
    ihl = 5 + len(options) // 4
    total = total or ihl * 4 + len(payload)
    hdr = struct.pack("!BBHHHBBH4s4s", 0x40 | ihl, 0, total, 0x1234, 0x4000,
                      64, proto, 0, args.ip_src.packed, args.ip_dst.packed)
    hdr += options
    c = csum(hdr) ^ (0x5555 if bad else 0)
    return hdr[:10] + struct.pack("!H", c) + hdr[12:] + payload


def l4(args, proto, hdr, payload, src, dst, bad=False):
    """hdr with its checksum field (at 6 for UDP, 16 for TCP) zero."""
    seg = hdr + payload
    pseudo = src.packed + dst.packed
    if src.version == 4:
        pseudo += struct.pack("!BBH", 0, proto, len(seg))
    else:
        pseudo += struct.pack("!IxxxB", len(seg), proto)
    c = csum(pseudo + seg) or 0xFFFF
    if bad:
        c = (c ^ 0x5555) or 0x1111
    at = 6 if proto == socket.IPPROTO_UDP else 16
    return seg[:at] + struct.pack("!H", c) + seg[at + 2:]


def udp(args, dport=9, src=None, dst=None, bad=False, size=32):
    src, dst = src or args.ip_src, dst or args.ip_dst
    payload = bytes(i & 0xFF for i in range(size))
    hdr = struct.pack("!HHHH", 40000, dport, 8 + size, 0)
    return l4(args, socket.IPPROTO_UDP, hdr, payload, src, dst, bad)


def tcp_syn(args, bad=False):
    hdr = struct.pack("!HHIIBBHHH", 40000, 9, 1, 0, 5 << 4, 0x02, 65535, 0, 0)
    return l4(args, socket.IPPROTO_TCP, hdr, b"", args.ip_src, args.ip_dst, bad)


def eth(args, ethertype, payload, tags=()):
    frame = args.dst + args.src
    for tpid, vid in tags:
        frame += struct.pack("!HH", tpid, vid)
    return frame + struct.pack("!H", ethertype) + payload


def frames(args, kind, rng):
    """One frame of kind (random ones differ each call)."""
    if kind == "runt":
        return eth(args, 0x88B5, bytes(28))
    if kind == "oversize":
        return eth(args, ETH_IP, ipv4(args, socket.IPPROTO_UDP, udp(args, size=9450)))
    if kind == "bad-ip-csum":
        return eth(args, ETH_IP, ipv4(args, socket.IPPROTO_UDP, udp(args), bad=True))
    if kind == "bad-tcp-csum":
        return eth(args, ETH_IP, ipv4(args, socket.IPPROTO_TCP, tcp_syn(args, bad=True)))
    if kind == "bad-udp-csum":
        return eth(args, ETH_IP, ipv4(args, socket.IPPROTO_UDP, udp(args, bad=True)))
    if kind == "ip-options":
        return eth(args, ETH_IP, ipv4(args, socket.IPPROTO_UDP, udp(args),
                                      options=b"\x01\x01\x01\x00"))
    if kind == "ipv6-ext":
        body = udp(args, src=args.ip6_src, dst=args.ip6_dst)
        hbh = struct.pack("!BB6s", socket.IPPROTO_UDP, 0, b"\x01\x04\0\0\0\0")
        hdr = struct.pack("!IHBB16s16s", 6 << 28, len(hbh) + len(body), 0, 64,
                          args.ip6_src.packed, args.ip6_dst.packed)
        return eth(args, ETH_IP6, hdr + hbh + body)
    if kind == "truncated":
        return eth(args, ETH_IP, ipv4(args, socket.IPPROTO_UDP, udp(args), total=1000))
    if kind == "qinq":
        return eth(args, ETH_IP, ipv4(args, socket.IPPROTO_UDP, udp(args)),
                   tags=((ETH_8021AD, 100), (ETH_8021Q, 200)))
    if kind == "vlan-in-vlan":
        return eth(args, ETH_IP, ipv4(args, socket.IPPROTO_UDP, udp(args)),
                   tags=((ETH_8021Q, 100), (ETH_8021Q, 200)))
    if kind == "random":
        ethertype = ETH_IP
        while ethertype in (ETH_IP, ETH_IP6, ETH_8021Q, ETH_8021AD, 0x0806):
            ethertype = rng.randrange(0x0600, 0x10000)
        body = rng.randbytes(rng.randrange(0, 1501))
        return eth(args, ethertype, body)
    raise SystemExit(f"unknown kind {kind}")


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--dst", required=True)
    ap.add_argument("--src", required=True)
    ap.add_argument("--ip-dst", type=ipaddress.ip_address, required=True)
    ap.add_argument("--ip-src", type=ipaddress.ip_address, required=True)
    ap.add_argument("--ip6-dst", type=ipaddress.ip_address, default="fd00::1")
    ap.add_argument("--ip6-src", type=ipaddress.ip_address, default="fd00::2")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("kinds", nargs="+", metavar="KIND=COUNT")
    args = ap.parse_args()
    args.dst = bytes.fromhex(args.dst.replace(":", ""))
    args.src = bytes.fromhex(args.src.replace(":", ""))
    rng = random.Random(args.seed)
    short = 0
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        for spec in args.kinds:
            kind, count = spec.split("=")
            for _ in range(int(count)):
                frame = frames(args, kind, rng)
                short += len(frame) < 60
                s.sendto(frame, ("127.0.0.1", args.port))
                time.sleep(0.002)
            print(kind, count)
    print("short", short)


if __name__ == "__main__":
    main()
