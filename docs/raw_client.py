"""A raw Hong Wu LAN client written from PROTOCOL.md alone: a socket and msgpack, no project
imports.

It connects to a host, says ``hello`` as an observer, ``sit``s in the first empty seat, says
``ready``, plays one 红五 hand to its settlement and says ``bye``. It speaks protocol version 1
(PROTOCOL.md section 3: a full ``view`` before every ``turn``), so it never folds events.

The host does not send the legal plays (PROTOCOL.md section 6, ``View``), so the client
proposes candidates built from RULES.md §5 (which cards are trumps) and the lead's shape, and
moves to the next candidate when the host answers ``ILLEGAL_ACTION`` (section 8, "Coded
refusals"). A single card can always be led; when a follow runs out of candidates the client
turns auto-play on for the rest of the hand (method ``auto``) rather than keep the table waiting.

Usage: ``python raw_client.py HOST PORT [NAME]``. Prints one line when the hand is settled,
``settled: dealer D final F game points [...] (refused plays R, auto-play off)``, and exits 0; exits 1 on a protocol error or
when nothing has happened for ``IDLE_S`` seconds.
"""
from __future__ import annotations

import itertools
import socket
import sys
from collections import Counter

import msgpack

IDLE_S = 60.0          # give up when the host sends nothing for this long
MAX_TRIES = 60         # candidate plays per turn before turning auto-play on
RED_FIVE = "5H"
SAME_COLOUR = {"S": "C", "C": "S", "H": "D", "D": "H"}


def rank_suit(card: str) -> tuple[str, str]:
    """``"10H"`` -> ``("10", "H")``; jokers (``BJ``, ``SJ``) -> (``card``, ``""``)."""
    if card in ("BJ", "SJ"):
        return card, ""
    return card[:-1], card[-1]


def suit_of(card: str, trump: str | None) -> str:
    """The effective suit (RULES.md §5): ``"trump"`` or the printed suit letter."""
    rank, suit = rank_suit(card)
    if card in ("BJ", "SJ", RED_FIVE) or rank == "2" or suit == trump:
        return "trump"
    if rank == "3" and trump is not None and suit in (trump, SAME_COLOUR[trump]):
        return "trump"
    return suit


def follow_candidates(hand: list[str], lead: list[str], trump: str | None):
    """Follows to ``lead`` worth trying, most likely legal first (RULES.md §6–§9 in short:
    as many cards as led, the led suit first, its pairs and triples for the lead's)."""
    n = len(lead)
    suit = suit_of(lead[0], trump)
    same = [c for c in hand if suit_of(c, trump) == suit]
    others = [c for c in hand if suit_of(c, trump) != suit]
    if len(same) <= n:                          # short: all of the suit, then anything
        yield same + others[: n - len(same)]
        return
    lead_groups = sorted(Counter(lead).values(), reverse=True)    # e.g. [2, 2] for 77 88
    held = Counter(same)
    seen = set()
    # choose identical groups (pairs, triples) from the suit for the lead's groups
    for size in (3, 2):
        wanted = sum(1 for g in lead_groups if g >= size)
        groups = [c for c, k in held.items() if k >= size]
        for pick in itertools.combinations(groups, min(wanted, len(groups))):
            play = [c for c in pick for _ in range(size)][:n]
            rest = Counter(same) - Counter(play)
            play += list(rest.elements())[: n - len(play)]
            key = tuple(sorted(play))
            if len(play) == n and key not in seen:
                seen.add(key)
                yield play
    for play in itertools.combinations(same, n):  # anything else of the suit
        key = tuple(sorted(play))
        if key not in seen:
            seen.add(key)
            yield list(play)


class Conn:
    """One connection: requests out, responses and notifications in (PROTOCOL.md §1–§2)."""

    def __init__(self, host: str, port: int):
        self.sock = socket.create_connection((host, port), timeout=IDLE_S)
        self.unpacker = msgpack.Unpacker(raw=False)
        self.msgid = 0
        self.notes: list[list] = []           # notifications read while awaiting a response

    def read(self) -> list:
        """The next message; raises ``EOFError`` when the host closed the connection."""
        while True:
            for msg in self.unpacker:
                return msg
            data = self.sock.recv(65536)
            if not data:
                raise EOFError("the host closed the connection")
            self.unpacker.feed(data)

    def call(self, method: str, params: dict):
        """Send a request and return ``(error, result)``; notifications that arrive first
        are kept in ``self.notes`` in order."""
        self.msgid += 1
        self.sock.sendall(msgpack.packb([0, self.msgid, method, params]))
        while True:
            msg = self.read()
            if msg[0] == 1 and msg[1] == self.msgid:
                return msg[2], msg[3]
            if msg[0] == 2:
                self.notes.append(msg)

    def next_note(self) -> list:
        return self.notes.pop(0) if self.notes else self.read()


def play_turn(conn: Conn, view: dict, stats: Counter) -> None:
    """Answer the seat's turn in ``view`` (a protocol-1 ``View``); counts refused plays and
    auto-play in ``stats``."""
    phase, hand = view["phase"], list(view["hand"])
    if phase == "bid":
        conn.call("bid", {"amount": None})                   # always pass
    elif phase == "trump":
        conn.call("trump", {"suit": "S"})
    elif phase == "bury":
        conn.call("bury", {"cards": hand[: view["bury_count"]]})
    elif phase == "play":
        if not view["current_trick"]:                         # leading: one card
            conn.call("play", {"cards": [hand[0]]})
            return
        lead = view["current_trick"][0][1]
        for play in itertools.islice(follow_candidates(hand, lead, view["trump"]), MAX_TRIES):
            err, _ = conn.call("play", {"cards": play})
            if err is None:
                return
            if err["name"] != "ILLEGAL_ACTION":
                raise RuntimeError(f"play refused: {err}")
            stats["refused"] += 1
        stats["auto"] += 1
        conn.call("auto", {"on": True})                       # out of ideas: let the host play


def main(argv: list[str]) -> int:
    host, port = argv[0], int(argv[1])
    name = argv[2] if len(argv) > 2 else "raw"
    conn = Conn(host, port)
    err, welcome = conn.call("hello", {"protocol": 1, "name": name, "observer": True,
                                       "client": "raw_client.py/1"})
    if err:
        print(f"hello refused: {err}", file=sys.stderr)
        return 1
    seats = welcome["snapshot"]["table"]["seats"]
    free = [s["seat"] for s in seats if s["kind"] == "empty"]
    if not free:
        print("no empty seat", file=sys.stderr)
        return 1
    err, seated = conn.call("sit", {"seat": free[0]})
    if err:
        print(f"sit refused: {err}", file=sys.stderr)
        return 1
    me = seated["seat"]
    err, _ = conn.call("ready", {"ready": True})
    if err:
        print(f"ready refused: {err}", file=sys.stderr)
        return 1
    view = None
    stats: Counter = Counter()
    try:
        while True:
            kind, method, params = conn.next_note()
            if method == "view":
                view = params["view"]
            elif method == "goodbye":
                print(f"goodbye: {params['error']}", file=sys.stderr)
                return 1
            elif method == "turn":
                turn = params["turn"]
                if turn["phase"] == "settle" and view and view["settlement"]:
                    s = view["settlement"]
                    print(f"settled: dealer {s['dealer']} final {s['dealer_final']:+d} "
                          f"game points {s['game_points']} (refused plays {stats['refused']}, "
                          f"auto-play {'on' if stats['auto'] else 'off'})", flush=True)
                    conn.call("bye", {})
                    return 0
                if turn["seat"] == me and not turn["auto"] and view is not None:
                    play_turn(conn, view, stats)
    except (EOFError, OSError) as exc:
        print(f"connection lost: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
