#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Send or count raw Ethernet frames of one EtherType, for the tests.

  rawframes.py send DEV COUNT ETHERTYPE [DSTMAC]
      COUNT frames of 100 bytes from DEV, to DSTMAC (DEV's own address
      unless given), each with its sequence number.
  rawframes.py count DEV ETHERTYPE SECS [READYFILE STOPFILE]
      Listen on DEV for SECS seconds, or until STOPFILE exists, and print
      how many frames of that EtherType arrived (the ones DEV sent itself
      are not counted). READYFILE is created once the socket listens: a
      sender that waits for it loses no frame to a slow start.

ETHERTYPE is a number, such as 0x88b5 (IEEE local experimental).
"""
import os
import socket
import struct
import sys
import time


def mac_of(dev):
    with open(f"/sys/class/net/{dev}/address", encoding="ascii") as f:
        return bytes.fromhex(f.read().strip().replace(":", ""))


def send(dev, count, ethertype, dst=None):
    src = mac_of(dev)
    dst = bytes.fromhex(dst.replace(":", "")) if dst else src
    with socket.socket(socket.AF_PACKET, socket.SOCK_RAW) as s:
        s.bind((dev, 0))
        for seq in range(count):
            payload = struct.pack("!I", seq).ljust(86, b"\xa5")
            s.send(dst + src + struct.pack("!H", ethertype) + payload)
            time.sleep(0.002)


def count(dev, ethertype, secs, ready=None, stop=None):
    got = 0
    end = time.monotonic() + secs
    with socket.socket(socket.AF_PACKET, socket.SOCK_RAW,
                       socket.htons(ethertype)) as s:
        s.bind((dev, ethertype))
        if ready:
            with open(ready, "w", encoding="ascii"):
                pass
        while (left := end - time.monotonic()) > 0:
            # Told to stop: what already arrived is still counted.
            stopping = stop and os.path.exists(stop)
            s.settimeout(0 if stopping else min(left, 0.2))
            try:
                _, addr = s.recvfrom(2048)
            except (socket.timeout, BlockingIOError):
                if stopping:
                    break
                continue
            if addr[2] != socket.PACKET_OUTGOING:
                got += 1
    print(got)


def main():
    args = sys.argv[1:]
    if len(args) >= 4 and args[0] == "send":
        send(args[1], int(args[2]), int(args[3], 0),
             args[4] if len(args) > 4 else None)
    elif len(args) in (4, 6) and args[0] == "count":
        count(args[1], int(args[2], 0), float(args[3]), *args[4:])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
