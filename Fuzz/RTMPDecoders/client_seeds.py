"""Seed scripts for FuzzClientConnection (its step table is in FuzzClientConnection.swift).

Each seed is a server's side of a session OnAir's publisher or player has: the handshake, connect and
createStream answered, publish or play started, media, pings, window and chunk-size changes, rejections,
silence until the response timeout, and the several ways a connection ends. Called by seed-corpora.py.
"""


def step(action, argument=0):
    return bytes([(argument << 3) | action])


def call(which, number=0):
    return step(4, which) + bytes([number])


def reply(which, transaction, number=0):
    return step(3, which) + bytes([transaction, number & 0xFF])


def clock(amount):
    return step(5) + bytes([amount])


CONNECTED = bytes([20]) + step(0) + call(0) + reply(1, 1) + call(1) + reply(0, 2, 1)


def client_scripts():
    publish = CONNECTED + call(2, 1) + reply(3, 2) + call(4) + call(7, 64)
    for k in range(6):
        publish += call(5, 20 + k) + call(6, 5) + reply(4, k) + reply(9, k)
    play = CONNECTED + call(3, 1) + reply(3, 4) + reply(5, 1) + reply(10, 3, 7) + reply(11, 0) + reply(8, 3, 40) + reply(11, 1)
    seeds = {
        "publish": publish + step(7, 2),
        "play": play + reply(6, 3) + reply(7, 9) + step(7, 0),
        "rejected": bytes([20]) + step(0) + call(0) + reply(2, 1, -1) + clock(255),
        "bad-name": CONNECTED + call(2, 1) + reply(3, 3, -1) + step(7, 1),
        "silent": CONNECTED + call(2, 1) + call(3, 1) + clock(200) + clock(200),
        "reconnect": publish + reply(3, 7) + step(7, 3),
        "stalled-reader": publish + step(6, 0) + reply(4, 1) * 40 + step(6, 1) + clock(10),
    }
    return sorted(seeds.items())
