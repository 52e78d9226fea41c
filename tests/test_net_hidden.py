"""Hidden information: four real socket clients (and an observer) play full hands; every card
in every frame a client receives must be one it may know at that moment: its own dealt cards,
the kitty if it is the dealer (once taken), cards played to tricks (and failed throws) so far,
and the buried kitty once the hand is settled."""
from __future__ import annotations

import asyncio
from typing import Any

import pytest

from engine.state import Phase
from net.ai import FirstLegal
from net.bot import Bot
from net.client import Client
from net.protocol import CARD_RE
from net.testing import LOOPBACK, fast_table, running_server


class RecordingClient(Client):
    """A client that keeps every document it receives, in order."""

    def __init__(self, *a: Any, **kw: Any) -> None:
        super().__init__(*a, **kw)
        self.frames: list[Any] = []

    def _dispatch(self, doc: Any) -> None:
        self.frames.append(doc)
        super()._dispatch(doc)


def cards_in(doc: Any) -> set[str]:
    """Every card text anywhere in a document."""
    out: set[str] = set()
    stack = [doc]
    while stack:
        x = stack.pop()
        if isinstance(x, str):
            if CARD_RE.match(x):
                out.add(x)
        elif isinstance(x, list):
            stack.extend(x)
        elif isinstance(x, dict):
            stack.extend(x.values())
    return out


def allowed(game: Any, seat: int | None, k: int) -> set[str]:
    """What ``seat`` may have seen after the first ``k`` events of ``game``'s log."""
    ok: set[str] = set()
    for ev in game.events[:k]:
        kind = ev.kind
        if kind == "cards_dealt" and ev.seat == seat:
            ok.update(map(str, ev.cards))
        elif kind == "kitty_taken" and ev.seat == seat:
            ok.update(map(str, ev.cards))
        elif kind == "cards_played":
            ok.update(map(str, ev.cards))
        elif kind == "throw_failed":
            ok.update(map(str, ev.attempted))
        elif kind == "hand_settled":
            ok.update(map(str, ev.settlement.kitty))
    return ok


def progress(doc: Any, state: dict[str, int]) -> None:
    """Advance (hand_no, events seen) from a received document."""
    if isinstance(doc, list) and doc[:1] == [2]:
        method, params = doc[1], doc[2]
        if method == "event":
            state["hand"], state["k"] = params["hand_no"], max(
                state["k"] if state["hand"] == params["hand_no"] else 0, params["n"] + 1)
        elif method == "view":
            state["hand"], state["k"] = params["hand_no"], params["events"]


def check_structure(doc: Any, seat: int | None) -> None:
    """Field-level rules: others' dealt cards and the kitty arrive as nil; no seed."""
    if not (isinstance(doc, list) and doc[:2] == [2, "event"]):
        if isinstance(doc, list) and doc[:2] == [2, "view"]:
            v = doc[2]["view"]
            assert v["seat"] == seat
            if v["phase"] != "settle" and v["dealer"] != seat:
                assert v["kitty"] is None and v["buried"] is None
            if seat is None:
                assert v["hand"] == []
        return
    ev = doc[2]["event"]
    assert "seed" not in ev
    if ev["kind"] in ("cards_dealt", "kitty_taken", "kitty_buried") and ev["seat"] != seat:
        assert ev["cards"] is None


@pytest.mark.parametrize("decks, hands", [(2, 3), (3, 1)])
def test_no_client_ever_receives_a_card_it_must_not_see(decks, hands):
    async def main():
        async with running_server([fast_table(decks=decks, seed=99)]) as srv:
            room = srv.rooms[0]
            games: dict[int, Any] = {}
            orig = room._end_hand

            def keep() -> None:
                games[room.hand_no] = room.game
                orig()
            room._end_hand = keep  # type: ignore[method-assign]

            clients = []
            for i in range(4):
                c = await RecordingClient.connect(LOOPBACK, srv.port)
                # both protocol versions: full views after every change (1), events (2)
                await c.hello(f"p{i}", seat=i, protocol=1 + i % 2)
                clients.append(c)
            obs = await RecordingClient.connect(LOOPBACK, srv.port)
            await obs.hello("watcher", observer=True, protocol=1)
            bots = [Bot(c, FirstLegal(i), hands=hands) for i, c in enumerate(clients)]
            bots.append(Bot(obs, FirstLegal(0), hands=hands))
            await asyncio.gather(*(b.run(60) for b in bots))
            assert len(games) == hands and all(g.phase is Phase.SETTLE for g in games.values())

            for c in clients + [obs]:
                seat = c.welcome["seat"]
                state = {"hand": 0, "k": 0}
                checked = 0
                for doc in c.frames:
                    progress(doc, state)
                    check_structure(doc, seat)
                    seen = cards_in(doc)
                    if not seen:
                        continue
                    assert state["hand"] in games, doc
                    ok = allowed(games[state["hand"]], seat, state["k"])
                    leaked = seen - ok
                    assert not leaked, (seat, state, sorted(leaked), str(doc)[:300])
                    checked += 1
                assert checked > 50
            for c in clients + [obs]:
                await c.close()
    asyncio.run(asyncio.wait_for(main(), 120))
