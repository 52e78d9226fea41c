"""A host that comes back: how long ``--resume`` takes, and what journaling costs per action.

Builds a journal of TABLES tables, each with four seated players and a hand in progress
(ACTIONS actions into it, dealt and played through ``Room.apply`` exactly as the host does, so
every action is journaled the real way), then times a new host restoring them all from the
file (``Journal.open(resume=True)`` + ``Server.start``: reading, dealing again from each seed,
replaying every action through the engine, setting up the turns) — the median of REPEATS.

The same run plays the same actions on a host without a journal: the difference per action
is the journaling cost (one SQLite transaction per action, WAL, ``synchronous=NORMAL``).

    python benchmarks/net_resume.py [--tables 50] [--actions 60] [--repeats 5]

Target: 50 tables resumed in <= 2 s.
"""
from __future__ import annotations

import argparse
import asyncio
import secrets
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.state import first_legal_action  # noqa: E402
from net.ai import AIProvider  # noqa: E402
from net.journal import Journal  # noqa: E402
from net.server import Server, ServerConfig  # noqa: E402
from net.testing import LOOPBACK, fast_table  # noqa: E402


def config(tables: int) -> ServerConfig:
    return ServerConfig(bind=LOOPBACK, port=0,
                        tables=[fast_table(f"T{i}", seed=1000 + i) for i in range(tables)])


def provider() -> AIProvider:
    return AIProvider(use_plugins=False, user_plugins=False)


async def build(path: Path | None, tables: int, actions: int) -> float:
    """Seat four players at every table, deal, play ``actions`` first-legal actions per
    table; returns the seconds spent in ``Room.apply`` (journaled when ``path``)."""
    journal = Journal.open(path) if path is not None else None
    server = Server(config(tables), provider(), journal=journal)
    await server.start()
    spent = 0.0
    for room in server.rooms:
        for st in room.seats:
            st.kind, st.name, st.ready = "human", f"p{st.index}", True
            st.token = secrets.token_urlsafe(18)
        room.broadcast_table()
        room._maybe_start()
        g = room.game
        for _ in range(actions):
            action = first_legal_action(g.view(g.to_act))
            t = time.perf_counter()
            room.apply(action)
            spent += time.perf_counter() - t
    await server.close()
    if journal is not None:
        journal.close()
    return spent


async def resume_once(path: Path, tables: int) -> float:
    """Seconds for a new host to restore every table of ``path`` and listen."""
    t = time.perf_counter()
    journal = Journal.open(path, resume=True)
    server = Server(config(tables), provider(), journal=journal)
    await server.start()
    elapsed = time.perf_counter() - t
    assert journal.restored == tables and all(r.in_hand for r in server.rooms), journal.problem
    await server.close()
    journal.close()
    return elapsed


async def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=50)
    ap.add_argument("--actions", type=int, default=60, help="actions into each hand")
    ap.add_argument("--repeats", type=int, default=5)
    ns = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="hongwu-resume-") as tmp:
        path = Path(tmp) / "host.sqlite3"
        n = ns.tables * ns.actions
        plain = statistics.median([await build(None, ns.tables, ns.actions)
                                   for _ in range(ns.repeats)])
        logged = []
        for _ in range(ns.repeats):
            for p in Path(tmp).glob("host.sqlite3*"):
                p.unlink()
            logged.append(await build(path, ns.tables, ns.actions))
        logged_s = statistics.median(logged)
        times = [await resume_once(path, ns.tables) for _ in range(ns.repeats)]
        size = sum(p.stat().st_size for p in Path(tmp).glob("host.sqlite3*"))
    print(f"resume: {ns.tables} tables, {ns.actions} actions into each hand: "
          f"median {statistics.median(times) * 1000:.0f} ms "
          f"(min {min(times) * 1000:.0f}, max {max(times) * 1000:.0f}; {ns.repeats} repeats; "
          f"journal {size / 1024:.0f} KiB)  target <= 2000 ms")
    print(f"per action (Room.apply, {n} actions, median of {ns.repeats}): "
          f"{plain / n * 1e6:.0f} us without journal, {logged_s / n * 1e6:.0f} us with; "
          f"journaling adds {(logged_s - plain) / n * 1e6:.0f} us per action")
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
