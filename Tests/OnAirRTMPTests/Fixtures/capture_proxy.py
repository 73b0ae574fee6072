#!/usr/bin/env python3
"""Loopback TCP proxy that records the bytes of ONE RTMP session.

Usage: capture_proxy.py LISTEN_PORT UPSTREAM_PORT SERVER_TO_CLIENT_FILE [CLIENT_TO_SERVER_FILE]
Accepts one client on 127.0.0.1:LISTEN_PORT, connects to 127.0.0.1:UPSTREAM_PORT, relays both
directions unchanged and writes every byte the server sends (and, if a second file is given, every
byte the client sends) until either side closes.
"""
import socket, sys, threading

listen_port, upstream_port, output = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
client_output = sys.argv[4] if len(sys.argv) > 4 else "/dev/null"
server = socket.socket()
server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
server.bind(("127.0.0.1", listen_port))
server.listen(1)
client, _ = server.accept()
upstream = socket.create_connection(("127.0.0.1", upstream_port))

def pump(src, dst, path):
    with open(path, "wb") as sink:
        while True:
            try:
                data = src.recv(65536)
            except ConnectionResetError:
                break
            if not data:
                break
            sink.write(data)
            try:
                dst.sendall(data)
            except OSError:
                break
    for s in (src, dst):
        try:
            s.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass

threads = [threading.Thread(target=pump, args=(client, upstream, client_output)),
           threading.Thread(target=pump, args=(upstream, client, output))]
for t in threads: t.start()
for t in threads: t.join()
