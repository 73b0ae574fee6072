#!/usr/bin/env python3
"""A client that asks for protocol answers and never reads them (GitHub issue 14 item 3).

usage: unread_answers.py PORT

Connects with a 4 KiB receive buffer, then sends 60 `play` commands on one message stream and pings at 80 a
second (inside the relay's request budget and play limits), reading nothing, and exits when the relay closes
the connection or after 20 s. RelayControlQueueTests runs it against a relay with a small control-answer cap.
"""
import os
import socket
import struct
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import rtmp  # noqa: E402


def main():
    conn = rtmp.Connection(int(sys.argv[1]), receive_buffer=4096)
    conn.create_stream()
    ping = rtmp.chunks(2, 4, 0, 0, struct.pack(">HI", 6, 0), 128)
    play = conn.message(20, rtmp.command("play", 0, rtmp.amf_string("unread")), msid=1, csid=8)
    deadline = time.time() + 20
    try:
        for _ in range(60):
            conn.send(play + ping * 6)
            time.sleep(0.05)
        while time.time() < deadline:
            conn.send(ping)
            time.sleep(0.0125)          # 80 a second: inside the relay's budget of 100
    except OSError as error:
        print(f"closed by the relay: {error}")
        return
    print("still open after 20 s")


if __name__ == "__main__":
    main()
