"""Action round trip on loopback: p50/p99 from sending an action to its answer.

A host runs in a child process (one table, no timers); four bot clients in this process play
first-legal moves as fast as the host answers. Each repeat plays HANDS hands; the figures are
per-repeat percentiles of every action's round trip (which includes the host applying it and
sending its events and views to the four players), then the median over repeats.

    python benchmarks/net_roundtrip.py [--hands 3] [--repeats 5] [--journal]

``--journal``: the host journals every action (``hongwu host``'s default, net/journal.py).

Targets: p50 <= 2 ms, p99 <= 10 ms.
"""
from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from net.ai import FirstLegal  # noqa: E402
from net.benchhost import start_host, stop_host  # noqa: E402
from net.bot import Bot  # noqa: E402
from net.client import Client  # noqa: E402


def pct(values: list[float], q: float) -> float:
    """The q-quantile (0..1) of values, nearest rank."""
    s = sorted(values)
    return s[min(len(s) - 1, max(0, round(q * (len(s) - 1))))]


async def one_repeat(port: int, hands: int, table: str) -> tuple[list[float], list[float]]:
    """One repeat: play ``hands`` hands on ``table`` at 127.0.0.1:``port``; returns the action and ping round trips in seconds."""
    clients = []
    for i in range(4):
        c = await Client.connect("127.0.0.1", port)
        await c.hello(f"bench{i}", seat=i, table=table)
        clients.append(c)
    pings = []
    for _ in range(200):
        t = time.perf_counter()
        await clients[0].call("ping")
        pings.append(time.perf_counter() - t)
    bots = [Bot(c, FirstLegal(i), hands=hands) for i, c in enumerate(clients)]
    await asyncio.wait_for(asyncio.gather(*(b.run(300) for b in bots)), 600)
    lat = [x for b in bots for x in b.latencies]
    for c in clients:
        await c.bye()
    return lat, pings


async def main_async(port: int, hands: int, repeats: int) -> None:
    """Run ``repeats`` repeats against the host on ``port`` and print the figures (median of repeats)."""
    rows = []
    for r in range(repeats):
        lat, pings = await one_repeat(port, hands, "t0")
        row = (pct(lat, .5) * 1e3, pct(lat, .99) * 1e3, pct(pings, .5) * 1e3,
               pct(pings, .99) * 1e3, len(lat))
        rows.append(row)
        print(f"repeat {r + 1}: actions {row[4]:4d}  action p50 {row[0]:.3f} ms  "
              f"p99 {row[1]:.3f} ms   ping p50 {row[2]:.3f} ms  p99 {row[3]:.3f} ms", flush=True)
    med = [statistics.median(col) for col in zip(*rows)]
    print(f"median of {repeats} repeats: action round trip p50 {med[0]:.3f} ms, "
          f"p99 {med[1]:.3f} ms (targets 2 / 10 ms); ping p50 {med[2]:.3f} ms, "
          f"p99 {med[3]:.3f} ms")


def main() -> int:
    """Entry point: start a loopback host in a child process, measure, print; returns 0."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=3)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--journal", action="store_true",
                    help="the host keeps its journal (SQLite, as hongwu host does by default)")
    ns = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="hongwu-rt-") as tmp:
        journal = str(Path(tmp) / "host.sqlite3") if ns.journal else None
        proc, port, stop = start_host(1, journal=journal)
        try:
            asyncio.run(main_async(port, ns.hands, ns.repeats))
        finally:
            stop_host(proc, stop)
    return 0


if __name__ == "__main__":
    sys.exit(main())
