"""A host that comes back: how long ``--resume`` takes, and what journaling costs per action.

Builds a journal of TABLES tables, each with its seats taken (four at 红五, five at 找朋友) and a
hand in progress (ACTIONS actions into it, dealt and played through ``Room.apply`` exactly as
the host does, so every action is journaled the real way), then times a new host restoring
them all from the file (``Journal.open(resume=True)`` + ``Server.start``: reading, dealing
again from each seed, at 找朋友 rebuilding the match, replaying every action through the
engine, setting up the turns) — the median of REPEATS.

The same run plays the same actions on a host without a journal: the difference per action
is the journaling cost (one SQLite transaction per action, WAL, ``synchronous=NORMAL``).

    python benchmarks/net_resume.py [--ruleset hongwu|zhaopengyou] [--tables 50]
                                    [--actions 60] [--repeats 5]

At a 找朋友 table the seats declare the first time they can while nobody has (else pass), call,
bury and play the first legal play: a hand is about 160 actions, and 100 reach the middle of
the play (the friend called, the kitty buried, trick 19 under way).

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
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.state import first_legal_action  # noqa: E402
from engine.zhaopengyou import Declare, ZPhase  # noqa: E402
from engine.zhaopengyou import first_legal_action as zpy_first_legal  # noqa: E402
from net.ai import AIProvider  # noqa: E402
from net.journal import Journal  # noqa: E402
from net.server import Server, ServerConfig  # noqa: E402
from net.testing import LOOPBACK, fast_table  # noqa: E402


def config(tables: int, ruleset: str = "hongwu") -> ServerConfig:
    return ServerConfig(bind=LOOPBACK, port=0,
                        tables=[fast_table(f"T{i}", seed=1000 + i, ruleset=ruleset)
                                for i in range(tables)])


def first_action(game: Any) -> Any:
    """The first legal action of the seat to act (either game)."""
    if getattr(game.ruleset, "is_zhaopengyou", False):
        seat = game.to_act
        if game.phase is ZPhase.DEAL and game.standing is None:
            options = game.view(seat).legal_declarations
            if options:  # the first declaration of the deal (else every window passes)
                return Declare(seat, options[-1])
        return zpy_first_legal(game)
    return first_legal_action(game.view(game.to_act))


def provider() -> AIProvider:
    return AIProvider(use_plugins=False, user_plugins=False)


async def build(path: Path | None, tables: int, actions: int, ruleset: str) -> float:
    """Seat a player in every seat of every table, deal, play ``actions`` first-legal
    actions per table; returns the seconds spent in ``Room.apply`` (journaled when
    ``path``)."""
    journal = Journal.open(path) if path is not None else None
    server = Server(config(tables, ruleset), provider(), journal=journal)
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
            if g.is_over:
                raise SystemExit(f"the hand ended before {actions} actions: give fewer")
            action = first_action(g)
            t = time.perf_counter()
            room.apply(action)
            spent += time.perf_counter() - t
    await server.close()
    if journal is not None:
        journal.close()
    return spent


async def resume_once(path: Path, tables: int, ruleset: str) -> float:
    """Seconds for a new host to restore every table of ``path`` and listen."""
    t = time.perf_counter()
    journal = Journal.open(path, resume=True)
    server = Server(config(tables, ruleset), provider(), journal=journal)
    await server.start()
    elapsed = time.perf_counter() - t
    assert journal.restored == tables and all(r.in_hand for r in server.rooms), journal.problem
    await server.close()
    journal.close()
    return elapsed


async def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ruleset", choices=("hongwu", "zhaopengyou"), default="hongwu",
                    help="the tables' game: 红五 (four seats) or 找朋友 (five seats, a match)")
    ap.add_argument("--tables", type=int, default=50)
    ap.add_argument("--actions", type=int, default=None,
                    help="actions into each hand (default 60 at 红五, 100 at 找朋友)")
    ap.add_argument("--repeats", type=int, default=5)
    ns = ap.parse_args()
    if ns.actions is None:
        ns.actions = 100 if ns.ruleset == "zhaopengyou" else 60
    with tempfile.TemporaryDirectory(prefix="hongwu-resume-") as tmp:
        path = Path(tmp) / "host.sqlite3"
        n = ns.tables * ns.actions
        plain = statistics.median([await build(None, ns.tables, ns.actions, ns.ruleset)
                                   for _ in range(ns.repeats)])
        logged = []
        for _ in range(ns.repeats):
            for p in Path(tmp).glob("host.sqlite3*"):
                p.unlink()
            logged.append(await build(path, ns.tables, ns.actions, ns.ruleset))
        logged_s = statistics.median(logged)
        times = [await resume_once(path, ns.tables, ns.ruleset) for _ in range(ns.repeats)]
        size = sum(p.stat().st_size for p in Path(tmp).glob("host.sqlite3*"))
    print(f"resume ({ns.ruleset}): {ns.tables} tables, {ns.actions} actions into each hand: "
          f"median {statistics.median(times) * 1000:.0f} ms "
          f"(min {min(times) * 1000:.0f}, max {max(times) * 1000:.0f}; {ns.repeats} repeats; "
          f"journal {size / 1024:.0f} KiB)  target <= 2000 ms")
    print(f"per action (Room.apply, {n} actions, median of {ns.repeats}): "
          f"{plain / n * 1e6:.0f} us without journal, {logged_s / n * 1e6:.0f} us with; "
          f"journaling adds {(logged_s - plain) / n * 1e6:.0f} us per action")
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
