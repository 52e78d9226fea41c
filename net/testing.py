"""Helpers for tests and benchmarks: a loopback server in a context manager, seated clients.

Everything binds ``127.0.0.1`` with an ephemeral port; nothing here waits without a bound.
"""
from __future__ import annotations

import asyncio
import contextlib
import random
from typing import Any, AsyncIterator, Sequence

from engine.state import Bury, Play
from engine.zhaopengyou import CallFriend, Declare, Pass, ZPhase

from .ai import AIProvider
from .client import Client
from .server import Server, ServerConfig, TableConfig, Timers

LOOPBACK = "127.0.0.1"


class RandomZpyPlayer:
    """A seeded 找朋友 player for tests and benchmarks (the ``act(view)`` of :class:`net.bot.Bot`):
    declares or counters with probability ``declare`` when it may (else passes), calls a
    random legal friend, buries the first ``bury_count`` cards of its hand, plays a random
    legal play. Seat ``seat`` (int), ``seed`` (int) fix its choices (zhaopengyou-spec rules
    via :class:`engine.zhaopengyou_view.ZpyView`)."""

    def __init__(self, seat: int, seed: int = 0, declare: float = 0.3) -> None:
        self.seat = seat
        self.rng = random.Random(seed * 31 + seat)
        self.declare = declare

    def act(self, view: Any) -> Any:
        """The action for ``view`` (this seat is to act): a Declare/Pass in the deal and the
        counter round, a CallFriend, a Bury or a Play."""
        phase, seat = view.phase, self.seat
        if phase in (ZPhase.DEAL, ZPhase.COUNTER):
            if view.legal_declarations and self.rng.random() < self.declare:
                return Declare(seat, self.rng.choice(view.legal_declarations))
            return Pass(seat)
        if phase is ZPhase.CALL_FRIEND:
            return CallFriend(seat, *self.rng.choice(view.friend_calls()))
        if phase is ZPhase.BURY:
            return Bury(seat, tuple(view.hand[: view.bury_count]))
        return Play(seat, view.play_options().sample(self.rng))


def fast_table(name: str = "T", **kw: Any) -> TableConfig:
    """A table for tests: seeded, no AI delays, an unpaced 找朋友 deal, no timers unless given."""
    kw.setdefault("seed", 1234)
    kw.setdefault("ai_delay_s", 0.0)
    kw.setdefault("auto_delay_s", 0.0)
    kw.setdefault("deal_card_s", 0.0)
    kw.setdefault("timers", Timers(bid=0, trump=0, bury=0, play=0))
    return TableConfig(name=name, **kw)


@contextlib.asynccontextmanager
async def running_server(tables: Sequence[TableConfig] | None = None, *,
                         use_plugins: bool = False, **config: Any) -> AsyncIterator[Server]:
    """Start a :class:`Server` on 127.0.0.1, port 0; close it on exit (even on errors).

    ``config`` overrides :class:`ServerConfig` fields (e.g. ``rate``, ``max_frame``).
    AIs are the :class:`~net.ai.FirstLegal` fallback unless ``use_plugins``.
    """
    config.setdefault("rate", 10_000.0)
    config.setdefault("burst", 10_000.0)
    cfg = ServerConfig(bind=LOOPBACK, port=0, tables=list(tables or [fast_table()]), **config)
    server = Server(cfg, AIProvider(use_plugins=use_plugins, user_plugins=False))
    await asyncio.wait_for(server.start(), 10)
    try:
        yield server
    finally:
        await asyncio.wait_for(server.close(), 10)


async def connect(server: Server, name: str = "p", **hello: Any) -> Client:
    """A client connected to ``server`` that has said hello (keyword args go to hello)."""
    client = await Client.connect(LOOPBACK, server.port, timeout=5)  # type: ignore[arg-type]
    await client.hello(name, **hello)
    return client


async def seat_four(server: Server, **hello: Any) -> list[Client]:
    """Four clients in seats 0..3 (in seat order)."""
    clients = [await connect(server, f"p{i}", seat=i, **hello) for i in range(4)]
    assert [c.welcome["seat"] for c in clients] == [0, 1, 2, 3]  # type: ignore[index]
    return clients


async def close_all(clients: Sequence[Client]) -> None:
    """Close every client (bounded)."""
    await asyncio.gather(*(c.close(2.0) for c in clients), return_exceptions=True)
