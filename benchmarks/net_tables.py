"""One host process serving many concurrent tables of bot clients.

A host runs in a child process with TABLES tables (default 50); this process opens four bot
clients per table (200 TCP connections by default), all playing first-legal moves at once.
Printed per repeat: the p50/p99 of every action's round trip, hands per second, and the host's
resident memory per table (peak RSS while all tables play minus the RSS of the idle host before
the first connection, divided by TABLES: connections, buffers and games included);
then the median over repeats.

    python benchmarks/net_tables.py [--tables 50] [--hands 1] [--repeats 3] [--think 0.0]
                                    [--protocol 2] [--baseline]

The bots speak protocol 2 (PROTOCOL.md). They are the load, not what is measured: their
process runs with its garbage collector paused during a repeat (a full collection over 200
clients' views would stall every bot at once and show up as host latency); the host process
runs as a dedicated ``hongwu host --headless`` does (``net.server.settle_heap``).

``--think S`` makes every bot wait S seconds before each action (a calmer, more human load).
``--protocol 1`` makes the bots speak protocol version 1 (a full view after every change);
``--baseline`` also runs that version-1 load in the same process and prints the ratios.
"""
from __future__ import annotations

import argparse
import asyncio
import gc
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from net.ai import FirstLegal  # noqa: E402
from net.benchhost import rss_kib, start_host, stop_host  # noqa: E402
from net.bot import Bot  # noqa: E402
from net.client import Client  # noqa: E402


def pct(values: list[float], q: float) -> float:
    """The q-quantile (0..1) of values, nearest rank."""
    s = sorted(values)
    return s[min(len(s) - 1, max(0, round(q * (len(s) - 1))))]


async def one_repeat(port: int, pid: int, tables: int, hands: int, think: float, idle: int,
                     version: int = 2):
    """One repeat: ``tables`` tables of four bot clients each play ``hands`` hands against the host
    (process ``pid``) on 127.0.0.1:``port``. Returns ``(p50 ms, p99 ms, hands/s, host bytes per
    table above ``idle``, actions timed, errors, idle bytes)``."""
    # The bots are the load, not what is measured: their own garbage-collector pauses (a full
    # collection over 200 clients' views stalls every bot at once) stay out of the figures.
    gc.collect()
    gc.disable()
    clients = []
    for t in range(tables):
        for i in range(4):
            c = await Client.connect("127.0.0.1", port, timeout=10)
            await c.hello(f"b{t}.{i}", seat=i, table=f"t{t}", protocol=version)
            clients.append(c)
    bots = [Bot(c, FirstLegal(c.welcome["seat"]), hands=hands, think=think) for c in clients]
    peak = [0]

    async def sample() -> None:
        while True:
            peak[0] = max(peak[0], rss_kib(pid))
            await asyncio.sleep(0.05)

    sampler = asyncio.ensure_future(sample())
    start = time.perf_counter()
    await asyncio.wait_for(asyncio.gather(*(b.run(900) for b in bots)), 1200)
    elapsed = time.perf_counter() - start
    sampler.cancel()
    gc.enable()
    lat = [x for b in bots for x in b.latencies]
    errors = sum(len(b.errors) for b in bots)
    await asyncio.gather(*(c.bye(2.0) for c in clients))
    return (pct(lat, .5) * 1e3, pct(lat, .99) * 1e3, tables * hands / elapsed,
            max(0, peak[0] - idle) / tables, len(lat), errors, idle)


async def run_load(port: int, pid: int, ns: argparse.Namespace, idle: int,
                   version: int) -> list[float]:
    """The repeats of one load (protocol ``version``); prints each; returns the medians
    ``[p50 ms, p99 ms, hands/s, KiB per table]``."""
    rows = []
    for r in range(ns.repeats):
        row = await one_repeat(port, pid, ns.tables, ns.hands, ns.think, idle, version)
        rows.append(row)
        print(f"protocol {version}, repeat {r + 1}: {ns.tables} tables, {4 * ns.tables} "
              f"connections, {row[4]} actions ({row[5]} refused): p50 {row[0]:.2f} ms, "
              f"p99 {row[1]:.2f} ms, {row[2]:.1f} hands/s, host memory {row[3]:.0f} KiB per "
              f"table (idle host {row[6] / 1024:.1f} MiB)", flush=True)
    return [statistics.median(col) for col in list(zip(*rows))[:4]]


async def main_async(port: int, pid: int, ns: argparse.Namespace) -> None:
    """Run the repeats described by ``ns`` and print the figures (median of repeats)."""
    idle = rss_kib(pid)  # the host with its tables created, before any connection
    if ns.baseline and ns.protocol != 1:
        base = await run_load(port, pid, ns, idle, 1)
    med = await run_load(port, pid, ns, idle, ns.protocol)
    if ns.baseline and ns.protocol != 1:
        print(f"baseline (protocol 1): p50 {base[0]:.2f} ms, p99 {base[1]:.2f} ms, "
              f"{base[2]:.1f} hands/s; protocol {ns.protocol} / protocol 1: p99 x"
              f"{med[1] / base[1]:.2f}, hands/s x{med[2] / base[2]:.2f}")
    print(f"median of {ns.repeats} repeats: action round trip p50 {med[0]:.2f} ms, "
          f"p99 {med[1]:.2f} ms; {med[2]:.1f} hands/s; {med[3]:.0f} KiB host memory per table")


def main() -> int:
    """Entry point: start the benchmark host in a child process, measure, print; returns 0."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=50)
    ap.add_argument("--hands", type=int, default=1)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--think", type=float, default=0.0)
    ap.add_argument("--protocol", type=int, default=2, choices=(1, 2))
    ap.add_argument("--baseline", action="store_true",
                    help="also run the protocol-1 load first and print the ratios")
    ns = ap.parse_args()
    proc, port, stop = start_host(ns.tables)
    try:
        asyncio.run(main_async(port, proc.pid, ns))
    finally:
        stop_host(proc, stop)
    return 0


if __name__ == "__main__":
    sys.exit(main())
