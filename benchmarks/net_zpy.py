"""找朋友 over loopback: seconds per hand, frames and bytes each client receives, action round trip.

A host (in this process, one 找朋友 table, no timers) and five bot clients on 127.0.0.1 play
one hand per repeat with a seeded player that declares (or counters) with probability
``--declare`` when it may, calls a random friend, buries the first 7 and plays a random legal
play. ``--declare 0`` is the worst case for the deal: nobody declares, so after three redeals
the kitty is flipped and every seat holding level cards is asked after every card. Figures
are medians over the repeats (each repeat a different seed). ``--deal-pace S`` has the host
send the deal a card every S seconds (``TableConfig.deal_card_s``; ``hongwu host`` uses 0.05 at
``--speed normal``); the deal's length is then printed too (client 0's ``hand_started`` to its
``deal_finished``, windows included).

    python benchmarks/net_zpy.py [--repeats 3] [--declare 0.3] [--deal-pace 0.05]
"""
from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import msgpack  # noqa: E402

from net.bot import Bot  # noqa: E402
from net.client import Client  # noqa: E402
from net.server import Timers  # noqa: E402
from net.testing import LOOPBACK, RandomZpyPlayer, fast_table, running_server  # noqa: E402


class Counting(Client):
    """Counts the frames and their encoded bytes."""

    def __init__(self, *a: Any, **kw: Any) -> None:
        super().__init__(*a, **kw)
        self.frames = 0
        self.bytes = 0
        self.deal: list[float] = []  # perf_counter at hand_started and at deal_finished

    def _dispatch(self, doc: Any) -> None:
        self.frames += 1
        self.bytes += len(msgpack.packb(doc))
        if doc[0] == 2 and doc[1] == "event" and doc[2]["event"]["kind"] in ("hand_started",
                                                                           "deal_finished"):
            self.deal.append(time.perf_counter())
        super()._dispatch(doc)


async def one(seed: int, p: float, pace: float = 0.0) -> tuple[float, ...]:
    """One hand: (seconds, frames a client, MB a client, action p50 ms, p99 ms, deal s)."""
    table = fast_table("Z", ruleset="zhaopengyou", seed=seed, max_hands=1, deal_card_s=pace,
                       timers=Timers(bid=0, trump=0, bury=0, play=0, deal=0, call_friend=0,
                                     counter=0))
    async with running_server([table]) as srv:
        clients = []
        for i in range(5):
            c = await Counting.connect(LOOPBACK, srv.port, timeout=5)
            await c.hello(f"b{i}", seat=i)
            clients.append(c)
        bots = [Bot(c, RandomZpyPlayer(i, seed, p), hands=1) for i, c in enumerate(clients)]
        t = time.perf_counter()
        await asyncio.wait_for(asyncio.gather(*(b.run(300) for b in bots)), 600)
        dt = time.perf_counter() - t
        lat = sorted(x for b in bots for x in b.latencies)
        for c in clients:
            await c.close()
    frames = statistics.median(c.frames for c in clients)
    mb = statistics.median(c.bytes for c in clients) / 1e6
    marks = clients[0].deal
    deal = marks[-1] - marks[0] if len(marks) >= 2 else float("nan")
    return dt, frames, mb, lat[len(lat) // 2] * 1e3, lat[int(len(lat) * 0.99)] * 1e3, deal


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--declare", type=float, default=0.3)
    ap.add_argument("--deal-pace", type=float, default=0.0, metavar="S",
                    help="seconds between two dealt cards the host sends (default 0: unpaced)")
    ns = ap.parse_args(argv)
    rows = [asyncio.run(one(1000 + r, ns.declare, ns.deal_pace)) for r in range(ns.repeats)]
    med = [statistics.median(col) for col in zip(*rows)]
    print(f"找朋友 LAN, 5 socket clients, declare={ns.declare:g}, {ns.repeats} hands (median): "
          f"{med[0]:.2f} s a hand, {med[1]:.0f} frames and {med[2]:.2f} MB to each client, "
          f"action round trip p50 {med[3]:.1f} ms, p99 {med[4]:.1f} ms; deal paced "
          f"{ns.deal_pace:g} s a card: {med[5]:.2f} s from hand_started to deal_finished")
    return 0


if __name__ == "__main__":
    sys.exit(main())
