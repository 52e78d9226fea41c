"""Helpers for tests and benchmarks: a loopback server in a context manager, seated clients.

Everything binds ``127.0.0.1`` with an ephemeral port; nothing here waits without a bound.
"""
from __future__ import annotations

import asyncio
import contextlib
from typing import Any, AsyncIterator, Sequence

from .ai import AIProvider
from .client import Client
from .server import Server, ServerConfig, TableConfig, Timers

LOOPBACK = "127.0.0.1"


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
