"""Record the example 找朋友 frames frozen in ``net/fixtures/zpy_frames_v3.json``.

A seeded 找朋友 table on 127.0.0.1 with four first-legal AI seats and one client at seat 0
that declares whenever it may; the first frame of every kind this client receives (the
Welcome, each notification, each event kind, a view and a turn of each phase) is kept, its
reconnect token blanked, long lists shortened. ``tests/test_net_zpy.py`` checks every frame
of the file against the protocol-3 schemas, so a schema change that would break these frames
fails there. Run (about a second)::

    PYTHONPATH=. python tools/record_zpy_frames.py > net/fixtures/zpy_frames_v3.json
"""
from __future__ import annotations

import asyncio
import json
import sys
from typing import Any

from engine.state import Bury, Play
from engine.zhaopengyou import CallFriend, Declare, Pass, ZPhase
from net.bot import Bot
from net.client import Client
from net.protocol import NOTIFICATION, RESPONSE
from net.testing import LOOPBACK, fast_table, running_server
from net.server import Timers


class Declarer:
    """Declares or counters with the first option whenever it may, else the first legal move."""

    def __init__(self, seat: int) -> None:
        self.seat = seat

    def act(self, view: Any) -> Any:
        if view.phase in (ZPhase.DEAL, ZPhase.COUNTER):
            if view.legal_declarations:
                return Declare(self.seat, view.legal_declarations[0])
            return Pass(self.seat)
        if view.phase is ZPhase.CALL_FRIEND:
            return CallFriend(self.seat, *view.friend_calls()[0])
        if view.phase is ZPhase.BURY:
            return Bury(self.seat, tuple(view.hand[: view.bury_count]))
        return Play(self.seat, next(iter(view.play_options())))


class Recorder(Client):
    """Keeps every document received."""

    def __init__(self, *a: Any, **kw: Any) -> None:
        super().__init__(*a, **kw)
        self.frames: list[Any] = []

    def _dispatch(self, doc: Any) -> None:
        self.frames.append(doc)
        super()._dispatch(doc)


def _key(doc: Any) -> str | None:
    """What a frame is an example of (None: not kept)."""
    if doc[0] == RESPONSE:
        result = doc[3]
        if isinstance(result, dict) and "snapshot" in result:
            return "response:hello"
        return None
    if doc[0] != NOTIFICATION:
        return None
    method, params = doc[1], doc[2]
    if method == "event":
        return f"event:{params['event']['kind']}"
    if method == "view":
        return f"view:{params['view']['phase']}"
    if method == "turn":
        return f"turn:{params['turn']['phase']}"
    return f"notification:{method}"


def _blank(doc: Any) -> Any:
    if doc[0] == RESPONSE:
        doc[3]["token"] = "TOKEN"
    return doc


async def record() -> list[dict[str, Any]]:
    """The example frames: ``[{"example": key, "frame": msgpack document}, ...]``."""
    timers = Timers(bid=0, trump=0, bury=60, play=20, deal=3, call_friend=60, counter=10)
    table = fast_table("Z", ruleset="zhaopengyou", seed=3, max_hands=1, timers=timers,
                       ai_seats={i: "first-legal" for i in (1, 2, 3, 4)})
    async with running_server([table]) as srv:
        client = await Recorder.connect(LOOPBACK, srv.port, timeout=5)
        await client.hello("Ann", seat=0)
        await Bot(client, Declarer(0), hands=1).run(60)
        await client.close()
    seen: dict[str, Any] = {}
    for doc in client.frames:
        key = _key(doc)
        if key is not None and key not in seen:
            seen[key] = _blank(json.loads(json.dumps(doc)))
    return [{"example": k, "frame": seen[k]} for k in sorted(seen)]


def main() -> int:
    json.dump(asyncio.run(record()), sys.stdout, indent=None, ensure_ascii=False)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
