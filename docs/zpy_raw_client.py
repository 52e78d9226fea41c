"""A raw 找朋友 client: plays one seat of a ``hongwu host --ruleset zhaopengyou`` table with
nothing but a TCP socket and msgpack, written from PROTOCOL.md alone (no project code).

    python docs/zpy_raw_client.py HOST PORT [--name NAME] [--seat N] [--hands N] [--timeout S]

It speaks protocol 3: hello, ready, then for every ``view`` notification in which it is to
act: pass every deal window and counter turn, call the first friend call offered, bury the
first 7 cards, play the host's ``suggested_play``. It prints one line per settled hand and
exits 0 after ``--hands`` hands (1 by default), 1 on a refusal or when ``--timeout`` seconds
(default 120) pass first. Needs only ``pip install msgpack``.
"""
from __future__ import annotations

import argparse
import socket
import sys
import time

import msgpack

REQUEST, RESPONSE, NOTIFICATION = 0, 1, 2


class Conn:
    """One connection: msgpack documents written back to back in both directions."""

    def __init__(self, host: str, port: int, timeout: float) -> None:
        self.sock = socket.create_connection((host, port), timeout=10)
        self.unpacker = msgpack.Unpacker(raw=False)
        self.msgid = 0
        self.deadline = time.monotonic() + timeout

    def send(self, method: str, params: dict) -> int:
        """Send a request; returns its msgid."""
        self.msgid += 1
        self.sock.sendall(msgpack.packb([REQUEST, self.msgid, method, params]))
        return self.msgid

    def messages(self):
        """Every message from the host, as it arrives (stops at the deadline)."""
        while True:
            for doc in self.unpacker:
                yield doc
            left = self.deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("out of time")
            self.sock.settimeout(min(left, 5.0))
            try:
                data = self.sock.recv(65536)
            except socket.timeout:
                continue
            if not data:
                raise ConnectionError("the host closed the connection")
            self.unpacker.feed(data)


def decide(view: dict) -> tuple[str, dict]:
    """The request for a view in which this seat is to act (PROTOCOL.md "Turn kinds")."""
    phase = view["phase"]
    if phase in ("deal", "counter"):
        return "pass", {}
    if phase == "call_friend":
        card, nth = view["friend_calls"][0]
        return "call_friend", {"card": card, "nth": nth}
    if phase == "bury":
        return "bury", {"cards": view["hand"][: view["bury_count"]]}
    return "play", {"cards": view["suggested_play"]}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("host")
    p.add_argument("port", type=int)
    p.add_argument("--name", default="raw")
    p.add_argument("--seat", type=int, default=None)
    p.add_argument("--hands", type=int, default=1)
    p.add_argument("--timeout", type=float, default=120.0)
    ns = p.parse_args(argv)

    conn = Conn(ns.host, ns.port, ns.timeout)
    hello = {"protocol": 3, "name": ns.name, "client": "zpy_raw_client/1"}
    if ns.seat is not None:
        hello["seat"] = ns.seat
    hello_id = conn.send("hello", hello)
    seat = None
    acted = set()  # (hand_no, events) of the views already answered
    settled = set()
    try:
        for msg in conn.messages():
            if msg[0] == RESPONSE:
                _, msgid, error, result = msg
                if msgid == hello_id:
                    if error is not None:
                        print(f"refused: {error['name']}: {error['message']}", file=sys.stderr)
                        return 1
                    seat = result["seat"]
                    print(f"seat {seat} at table {result['snapshot']['table']['name']!r}")
                    conn.send("ready", {"ready": True})
                elif error is not None and error["name"] not in ("NOT_YOUR_TURN", "NO_HAND"):
                    print(f"request {msgid}: {error['name']}: {error['message']}", file=sys.stderr)
                continue
            if msg[0] != NOTIFICATION:
                continue
            method, params = msg[1], msg[2]
            if method == "goodbye":
                print(f"goodbye: {params['error']['name']}", file=sys.stderr)
                return 1
            if method != "view":
                continue
            view, key = params["view"], (params["hand_no"], params["events"])
            if view["phase"] == "settle":
                if params["hand_no"] not in settled:
                    settled.add(params["hand_no"])
                    s = view["settlement"]
                    print(f"hand {params['hand_no']} settled: {s['winner']} win, catchers "
                          f"{s['catcher_points']}, levels {s['levels_before']} -> {s['levels']}")
                    if len(settled) >= ns.hands:
                        conn.send("bye", {})
                        return 0
                    conn.send("ready", {"ready": True})
                continue
            if view["to_act"] == seat and key not in acted:
                acted.add(key)
                method, req = decide(view)
                conn.send(method, req)
    except (TimeoutError, ConnectionError, OSError) as exc:
        print(f"stopped: {exc}", file=sys.stderr)
        return 1
    return 1


if __name__ == "__main__":
    sys.exit(main())
