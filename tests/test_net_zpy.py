"""找朋友 on the LAN (issue 16): five real socket clients on 127.0.0.1 play whole hands of a match
against a real host; every frame each client received is checked for hidden information; a
seat that never acts passes its windows and is auto-played after its turn timers; a seat
dropped mid-hand resumes with its token; a seat away between hands is played by a stand-in
after the grace; old clients are refused with a coded error. Every wait is bounded."""
from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

from engine.cards import Card
from engine.events import EVENT_TYPES, ZPY_EVENT_TYPES
from engine.ruleset import zhaopengyou
from engine.state import Bury, Play
from engine.zhaopengyou import CallFriend, Declare, Pass, ZPhase, ZpyHand
from net import protocol, zpy_codec
from net.bot import Bot
from net.client import Client, RemoteError
from net.protocol import CARD_RE, check_type
from net.server import Timers
from net.testing import LOOPBACK, RandomZpyPlayer, close_all, fast_table, running_server
from net.zpy_room import ZpyRoom

FAST = Timers(bid=0, trump=0, bury=0, play=0, deal=0, call_friend=0, counter=0)


def run(coro: Any, timeout: float = 120.0) -> Any:
    """Run ``coro`` with a hard bound."""
    return asyncio.run(asyncio.wait_for(coro, timeout))


def zpy_table(**kw: Any):
    """A seeded 找朋友 test table (no AI delays, no timers unless given)."""
    kw.setdefault("timers", FAST)
    return fast_table("Z", ruleset="zhaopengyou", **kw)


ZRandom = RandomZpyPlayer
"""The seeded random 找朋友 player of :mod:`net.testing`."""


class RecordingClient(Client):
    """A client that keeps every document it receives, in order."""

    def __init__(self, *a: Any, **kw: Any) -> None:
        super().__init__(*a, **kw)
        self.frames: list[Any] = []

    def _dispatch(self, doc: Any) -> None:
        self.frames.append(doc)
        super()._dispatch(doc)


async def rconnect(server: Any, name: str, **hello: Any) -> RecordingClient:
    client = await RecordingClient.connect(LOOPBACK, server.port, timeout=5)
    await client.hello(name, **hello)
    return client  # type: ignore[return-value]


def keep_hands(room: ZpyRoom) -> list[ZpyHand]:
    """Record every hand the room deals (the match keeps only the current one)."""
    hands: list[ZpyHand] = []
    deal = room._new_hand

    def new_hand() -> Any:
        h = deal()
        if h is not None:
            hands.append(h)
        return h

    room._new_hand = new_hand  # type: ignore[method-assign]
    return hands


def cards_in(doc: Any) -> list[str]:
    """Every card text anywhere in a document (with repeats)."""
    out: list[str] = []
    stack = [doc]
    while stack:
        x = stack.pop()
        if isinstance(x, str):
            if CARD_RE.match(x):
                out.append(x)
        elif isinstance(x, list):
            stack.extend(x)
        elif isinstance(x, dict):  # the calls open to a dealer name cards, not holdings
            stack.extend(v for key, v in x.items() if key != "friend_calls")
    return out


def known_from(hand: ZpyHand, seat: int | None) -> dict[str, int]:
    """For each card text ``seat`` may come to know in ``hand``, the number of events after
    which it may: its own dealt cards, the kitty it took or buried, a flipped kitty, declared
    cards, cards played, failed throws, the friend call, the buried kitty once settled."""
    first: dict[str, int] = {}

    def note(cards: Any, k: int) -> None:
        for c in cards:
            first.setdefault(str(c), k)

    for i, ev in enumerate(hand.events):
        kind, k = ev.kind, i + 1
        if kind in ("card_dealt", "kitty_taken", "kitty_buried") and ev.seat == seat:
            note(ev.cards, k)
        elif kind in ("cards_played", "declared", "kitty_flipped"):
            note(ev.cards, k)
        elif kind == "throw_failed":
            note(ev.attempted, k)
        elif kind == "friend_called":
            note([ev.card], k)
        elif kind == "hand_settled":
            note(hand.buried, k)
    return first


def reveal_index(hand: ZpyHand) -> int:
    """Index of the friend_revealed event in the hand's log."""
    return next(i for i, ev in enumerate(hand.events) if ev.kind == "friend_revealed")


def check_frames(frames: list[Any], seat: int | None, hands: list[ZpyHand]) -> int:
    """Assert that no frame holds a card ``seat`` may not know at that moment and that the
    friend is unknown before the reveal; returns the number of frames with cards checked."""
    by_no = {h.hand_no: h for h in hands}
    known = {h.hand_no: known_from(h, seat) for h in hands}
    checked = 0
    for doc in frames:
        where = None  # (hand_no, events reflected)
        body: Any = doc
        if doc[0] == protocol.NOTIFICATION:
            method, params = doc[1], doc[2]
            if method == "event":
                check_type(params["event"], "Event")
                where = (params["hand_no"], params["n"] + 1)
                ev = params["event"]
                if ev["kind"] == "card_dealt" and ev["seat"] != seat:
                    assert ev["cards"] is None
                if ev["kind"] == "passed":
                    assert ev["seat"] in (None, seat)
            elif method == "view":
                check_type(params["view"], "ZpyView")
                where = (params["hand_no"], params["events"])
            elif method == "turn":
                t = params["turn"]
                check_type(t, "Turn")
                if t["phase"] in ("deal", "counter"):
                    assert t["seat"] in (None, seat)
            elif method == "table":
                check_type(params["table"], "Table")
            body = params
        elif doc[0] == protocol.RESPONSE and isinstance(doc[3], dict):
            snap = doc[3].get("snapshot", doc[3] if "view" in doc[3] and "turn" in doc[3] else None)
            if snap is not None and snap.get("view") is not None:
                where = (snap["table"]["hand_no"], snap["events"])
                body = doc[3]
        found = cards_in(body)
        if where is None:
            assert not found, (seat, doc)
            continue
        h = by_no[where[0]]
        k = where[1]
        first = known[where[0]]
        bad = {c for c in found if first.get(c, 1 << 30) > k}
        assert not bad, (seat, where, sorted(bad))
        if k <= reveal_index(h):  # the friend is nobody's to know yet
            views = [v for v in (body.get("view"), (body.get("snapshot") or {}).get("view"))
                     if v] if isinstance(body, dict) else []
            for v in views:
                assert v["friend"] is None and v["settlement"] is None and not v["alone"]
            if isinstance(body, dict) and "event" in body:
                assert body["event"]["kind"] not in ("friend_revealed", "hand_settled")
        checked += 1
    return checked


# ------------------------------------------------------------------------------ the codec
@pytest.mark.parametrize("seed", [1, 7])
def test_zpy_codec_round_trips_every_event_and_view_of_a_hand(seed):
    """Every event and view of a whole hand, for every seat and an observer, survives the
    wire form and matches the protocol-3 schemas."""
    rng = random.Random(seed)
    players = [ZRandom(s, seed) for s in range(5)]
    h = ZpyHand.new(zhaopengyou(), seed)
    events = list(h.events)
    kinds: set[str] = set()
    while True:
        for seat in (None, 0, 1, 2, 3, 4):
            for ev in events:
                seen = ev.for_seat(seat)
                wire = zpy_codec.event_out(seen, h.levels, h.buried)
                check_type(wire, "Event")
                back = zpy_codec.event_in(wire)
                kinds.add(ev.kind)
                assert ev.kind == "hand_started" or back == seen
            wire = zpy_codec.view_out(h.view(seat))
            check_type(wire, "ZpyView")
            assert zpy_codec.view_in(wire) == h.view(seat)
        if h.is_over:
            break
        events = h.apply(players[h.to_act].act(h.view(h.to_act)))
    assert {"card_dealt", "friend_called", "friend_revealed", "hand_settled"} <= kinds
    assert rng is not None


def test_zpy_actions_round_trip():
    for action in (Declare(1, (Card.parse("2S"),) * 2), Pass(3), CallFriend(0, Card.parse("AH"), 2)):
        method, params = zpy_codec.action_out(action)
        req = protocol.parse_message(protocol.request(1, method, params))
        assert zpy_codec.action_in(method, protocol.validate_request(req), action.seat) == action


def test_every_zpy_event_kind_has_a_wire_form():
    from dataclasses import fields

    for kind, cls in {**EVENT_TYPES, **ZPY_EVENT_TYPES}.items():
        assert kind in protocol.EVENTS
        engine_fields = {f.name for f in fields(cls)}
        wire = set(protocol.EVENTS[kind]) | ({"seed"} if kind == "hand_started" else set())
        assert engine_fields == wire, (kind, engine_fields ^ wire)


# ------------------------------------------------------------------------------ whole hands
def test_five_socket_clients_play_two_hands_of_a_match_and_see_only_what_they_may():
    """Five headless clients play hand 1 and hand 2 (the match carried on: hand 2 starts from
    hand 1's levels); an observer watches; every frame of every client passes the hidden
    information check."""
    async def main() -> None:
        async with running_server([zpy_table(max_hands=2)]) as srv:
            room = srv.rooms[0]
            assert isinstance(room, ZpyRoom)
            hands = keep_hands(room)
            clients = [await rconnect(srv, f"p{i}", seat=i) for i in range(5)]
            assert [c.welcome["seat"] for c in clients] == [0, 1, 2, 3, 4]
            watcher = await rconnect(srv, "w", observer=True)
            bots = [Bot(c, ZRandom(i, 5), hands=2) for i, c in enumerate(clients)]
            watch = Bot(watcher, None, hands=2)
            await asyncio.gather(*(b.run(90) for b in bots), watch.run(90))
            assert all(b.hands_done == 2 for b in bots) and watch.hands_done == 2
            assert not any(b.errors for b in bots), [b.errors for b in bots]
            assert len(hands) == 2 and all(h.is_over for h in hands)
            first, second = hands
            assert second.levels == first.settlement.levels  # the match went on
            assert second.first_card == first.settlement.first_card_to
            s1, s2 = bots[0].settlements
            assert s1["levels_before"] == list(first.levels) and s2["levels_before"] == s1["levels"]
            table = (await clients[0].call("snapshot"))["table"]
            assert table["ruleset"] == "zhaopengyou" and len(table["seats"]) == 5
            assert table["match"]["levels"] == list(second.settlement.levels)
            assert table["match"]["hand_no"] == 2
            assert [s["score"] for s in table["seats"]] == [
                a - b for a, b in zip(second.settlement.levels, first.levels)]
            for i, c in enumerate(clients):
                assert check_frames(c.frames, i, hands) > 100
            assert check_frames(watcher.frames, None, hands) > 100
            for h in hands:  # the hands did reach every phase the tests mean to cover
                kinds = {ev.kind for ev in h.events}
                assert {"card_dealt", "friend_called", "kitty_buried", "friend_revealed",
                        "trick_won", "hand_settled"} <= kinds
            assert any(ev.kind == "declared" for h in hands for ev in h.events)
            await close_all([*clients, watcher])
    run(main(), 150)


def test_a_seat_that_never_acts_passes_its_windows_and_is_auto_played_after_its_timers():
    """Seat 0 connects and never sends an action: each declaration window it is polled in
    passes by time-out (no auto-play for that), and its first timed-out play (or call, or
    bury) turns auto-play on (reason timeout), so the hand still ends."""
    async def main() -> None:
        timers = Timers(bid=0, trump=0, bury=0.3, play=0.3, deal=0.005, call_friend=0.3,
                        counter=0.005)
        async with running_server([zpy_table(max_hands=1, timers=timers,
                                             options={"no_declaration": "kitty_flip"},
                                             ai_seats={i: "first-legal" for i in (1, 2, 3, 4)})]) as srv:
            room = srv.rooms[0]
            hands = keep_hands(room)
            silent = await rconnect(srv, "silent", seat=0)
            await silent.call("ready", ready=True)
            for _ in range(600):  # bounded: 60 s
                if hands and hands[0].is_over:
                    break
                await asyncio.sleep(0.1)
            h = hands[0]
            assert h.is_over
            mine = [ev for ev in h.events if ev.kind == "passed" and ev.seat == 0]
            assert mine, "seat 0 was never polled (the seed gives it level cards)"
            turns = [d[2]["turn"] for d in silent.frames
                     if d[0] == protocol.NOTIFICATION and d[1] == "turn"]
            assert any(t["phase"] == "deal" and t["seat"] == 0 and t["timeout"] for t in turns)
            autos = [d[2] for d in silent.frames if d[0] == protocol.NOTIFICATION and d[1] == "auto"
                     and d[2]["seat"] == 0]
            assert autos and autos[0]["on"] and autos[0]["reason"] == "timeout"
            # the deal's passes came before auto-play: the windows did not switch it on
            first_auto = next(i for i, d in enumerate(silent.frames)
                              if d[0] == protocol.NOTIFICATION and d[1] == "auto")
            phases_before = {d[2]["turn"]["phase"] for d in silent.frames[:first_auto]
                             if d[0] == protocol.NOTIFICATION and d[1] == "turn"}
            assert "deal" in phases_before
            assert check_frames(silent.frames, 0, hands) > 10
            await close_all([silent])
    run(main(), 90)


def test_a_seat_dropped_mid_hand_is_auto_played_and_resumes_with_its_token():
    async def main() -> None:
        async with running_server([zpy_table(max_hands=1,
                                             ai_seats={i: "first-legal" for i in (1, 2, 3, 4)},
                                             ai_delay_s=0.02)]) as srv:
            room = srv.rooms[0]
            hands = keep_hands(room)
            c = await rconnect(srv, "ann", seat=0)
            token = c.welcome["token"]
            bot = Bot(c, ZRandom(0, 3), hands=1)
            task = asyncio.ensure_future(bot.run(60))
            for _ in range(600):  # until the play phase (bounded: 30 s)
                if hands and hands[0].phase is ZPhase.PLAY and hands[0].trick_no >= 3:
                    break
                await asyncio.sleep(0.05)
            assert hands[0].phase is ZPhase.PLAY
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
            await c.close()
            for _ in range(100):
                if room.seats[0].session is None:
                    break
                await asyncio.sleep(0.05)
            assert room.seats[0].auto and room.seats[0].auto_reason == "disconnect"
            back = await rconnect(srv, "ann", token=token)
            assert back.welcome["resumed"] and back.welcome["seat"] == 0
            snap = back.welcome["snapshot"]
            if snap["view"]["phase"] != "settle":
                assert sorted(snap["view"]["hand"]) == sorted(map(str, hands[0].hand_of(0)))
                assert not room.seats[0].auto  # reconnect ends the disconnect auto-play
            bot2 = Bot(back, ZRandom(0, 4), hands=1)
            await bot2.run(60)
            assert hands[0].is_over and bot2.hands_done == 1
            assert check_frames(back.frames, 0, hands) > 0
            assert check_frames(c.frames, 0, hands) > 0
            await close_all([back])
    run(main(), 90)


def test_a_seat_away_between_hands_is_played_by_a_stand_in_after_the_grace():
    async def main() -> None:
        async with running_server([zpy_table(max_hands=2, seat_grace_s=0.3,
                                             ai_seats={i: "first-legal" for i in (1, 2, 3, 4)})]) as srv:
            room = srv.rooms[0]
            hands = keep_hands(room)
            c = await rconnect(srv, "bob", seat=0)
            await Bot(c, ZRandom(0, 9), hands=1, auto_ready=False).run(60)
            await c.close()
            for _ in range(600):  # the grace runs out, a stand-in plays hand 2 (bounded)
                if len(hands) == 2 and hands[1].is_over:
                    break
                await asyncio.sleep(0.1)
            assert len(hands) == 2 and hands[1].is_over
            assert room.seats[0].stand_in and room.seats[0].kind == "human"
            assert room.match is not None and len(room.match.results) == 2
    run(main(), 90)


def test_old_clients_are_refused_at_a_zpy_table_with_a_coded_error():
    async def main() -> None:
        async with running_server([zpy_table()]) as srv:
            for version in (1, 2):
                c = await Client.connect(LOOPBACK, srv.port, timeout=5)
                with pytest.raises(RemoteError) as e:
                    await c.hello("old", protocol=version)
                assert e.value.name == "VERSION_MISMATCH" and "找朋友" in str(e.value)
                await c.close()
            c = await rconnect(srv, "new", seat=4)
            assert c.welcome["seat"] == 4 and c.welcome["protocol"] == 3
            with pytest.raises(RemoteError) as e:  # seats past the table's last
                await c.call("sit", seat=5)
            assert e.value.name == "BAD_PARAMS"
            with pytest.raises(RemoteError) as e:
                await c.call("declare", cards=["2S"])
            assert e.value.name == "NO_HAND"
            await close_all([c])
        async with running_server() as srv:  # a 红五 table: seat 4 is no seat there
            c = await rconnect(srv, "p", seat=0)
            with pytest.raises(RemoteError) as e:
                await c.call("sit", seat=4)
            assert e.value.name == "BAD_PARAMS" and "0..3" in str(e.value)
            await close_all([c])
    run(main(), 60)


# ------------------------------------------------------------------------------ raw client
def test_the_raw_client_example_plays_a_seat_of_a_real_host(tmp_path):
    """docs/zpy_raw_client.py (socket + msgpack only, run as its own process from a folder
    without the project) plays two hands at a 找朋友 table of four AIs."""
    import shutil
    import sys
    from pathlib import Path

    script = tmp_path / "zpy_raw_client.py"
    shutil.copy(Path(__file__).resolve().parent.parent / "docs" / "zpy_raw_client.py", script)

    async def main() -> None:
        async with running_server([zpy_table(max_hands=2,
                                             ai_seats={i: "first-legal" for i in (0, 1, 3, 4)})]) as srv:
            proc = await asyncio.create_subprocess_exec(
                sys.executable, str(script), LOOPBACK, str(srv.port), "--seat", "2",
                "--hands", "2", "--timeout", "60", cwd=str(tmp_path),
                stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
            try:
                out, err = await asyncio.wait_for(proc.communicate(), 90)
            finally:
                if proc.returncode is None:
                    proc.kill()
            text = out.decode()
            assert proc.returncode == 0, (text, err.decode())
            assert "seat 2 at table 'Z'" in text
            assert "hand 1 settled" in text and "hand 2 settled" in text
            room = srv.rooms[0]
            assert room.match is not None and len(room.match.results) == 2
            # (no turn timers at this table: had the raw client not made its own moves, no
            # hand would have ended)
    run(main(), 120)


def test_no_hand_is_dealt_once_the_game_is_over():
    """When a settlement ends the game the table keeps its seats but deals no further hand;
    the Table's Match says so."""
    async def main() -> None:
        async with running_server([zpy_table(ai_seats={i: "first-legal" for i in (1, 2, 3, 4)})]) as srv:
            room = srv.rooms[0]
            hands = keep_hands(room)
            points = room._hand_points

            def end_game(g: Any) -> list[int]:  # the first hand ends the game
                out = points(g)
                room.match.game_over, room.match.winners = True, (0,)
                return out

            room._hand_points = end_game  # type: ignore[method-assign]
            c = await rconnect(srv, "p", seat=0)
            bot = Bot(c, ZRandom(0, 1), hands=2)
            task = asyncio.ensure_future(bot.run(60))
            for _ in range(400):  # bounded: 40 s, until hand 1 is over and the seat ready again
                if bot.hands_done == 1 and room.seats[0].ready:
                    break
                await asyncio.sleep(0.1)
            await asyncio.sleep(0.5)  # every seat is ready: a hand would be dealt at once
            assert not task.done() and bot.hands_done == 1
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
            assert len(hands) == 1 and room.hand_no == 1 and not room.in_hand
            m = room.table_wire()["match"]
            assert m["game_over"] and m["winners"] == [0] and m["hand_no"] == 1
            assert all(s.ready or s.kind == "ai" for s in room.seats)
            await close_all([c])
    run(main(), 60)


def test_host_command_line_builds_a_zpy_table():
    import argparse

    from net.cli import add_host_parser, host_config, zpy_option_arg, zpy_result_line

    parser = argparse.ArgumentParser()
    add_host_parser(parser.add_subparsers())
    ns = parser.parse_args(["host", "--headless", "--ruleset", "zhaopengyou", "--option",
                            "counter_declare=off", "--option", "must_play_levels=5,K",
                            "--timer-deal", "1.5", "--ai", "4=basic"])
    table = host_config(ns).tables[0]
    assert table.ruleset == "zhaopengyou" and table.ai_seats == {4: "basic"}
    assert table.options == {"counter_declare": "off", "must_play_levels": ["5", "K"]}
    assert table.timers.deal == 1.5 and table.timers.counter == 10.0
    assert zpy_option_arg("self_overbid=no") == ("self_overbid", False)
    from net.cli import run_host

    for args in (["host", "--headless", "--ai", "4=basic"],  # 红五 has seats 0..3
                 ["host", "--headless", "--ruleset", "zhaopengyou", "--rule", "base_score=3"],
                 ["host", "--headless", "--option", "counter_declare=off"],
                 ["host", "--headless", "--ruleset", "zhaopengyou", "--resume",
                  "--no-journal"]):  # nothing to resume from
        assert run_host(parser.parse_args(args)) == 2
    for bad in ("nonsense=1", "threshold=x", "declaration_mode=sometimes", "novalue"):
        with pytest.raises(argparse.ArgumentTypeError):
            zpy_option_arg(bad)
    line = zpy_result_line(3, {"dealer_side": [1, 3], "catcher_points": 130, "winner": "catchers",
                               "levels_before": [2, 2, 13, 2, 2], "levels": [3, 2, 14, 2, 3],
                               "alone": False, "game_over": True, "game_winners": [2]})
    assert line == ("hand 3: dealer side 1,3, catchers 130, catchers win, levels 2 2 K 2 2 -> "
                    "3 2 A 2 3, game over: seat 2 won")


def test_the_frozen_zpy_example_frames_still_fit_the_protocol():
    """net/fixtures/zpy_frames_v3.json (real frames recorded by tools/record_zpy_frames.py, one
    of each kind a 找朋友 seat receives) match the protocol-3 schemas and decode with the codec."""
    import json
    from pathlib import Path

    import net

    path = Path(net.__file__).resolve().parent / "fixtures" / "zpy_frames_v3.json"
    examples = json.loads(path.read_text("utf-8"))
    kinds = {e["example"] for e in examples}
    assert {"response:hello", "event:card_dealt", "event:declared", "event:friend_revealed",
            "view:deal", "view:play", "turn:deal", "turn:counter"} <= kinds
    for e in examples:
        doc = e["frame"]
        if doc[0] == protocol.RESPONSE:
            check_type(doc[3], protocol.METHODS["hello"].result)
            continue
        method, params = doc[1], doc[2]
        protocol.check_fields(params, protocol.NOTIFICATIONS[method], e["example"])
        if method == "event":
            zpy_codec.event_in(params["event"])
        elif method == "view":
            assert zpy_codec.view_in(params["view"]).phase.value == params["view"]["phase"]


def test_auto_play_on_request_plays_a_zpy_seat_through_every_decision():
    """托管 on request: the host's AI takes seat 0's windows, call, bury, counter turns and
    plays (no turn timers at this table: only auto-play can finish the hand)."""
    async def main() -> None:
        async with running_server([zpy_table(max_hands=1, options={"no_declaration": "kitty_flip"},
                                             ai_seats={i: "first-legal" for i in (1, 2, 3, 4)})]) as srv:
            room = srv.rooms[0]
            hands = keep_hands(room)
            c = await rconnect(srv, "lazy", seat=0)
            assert await c.call("auto", on=True) == {"seat": 0, "auto": True}
            await c.call("ready", ready=True)
            for _ in range(600):  # bounded: 60 s
                if hands and hands[0].is_over:
                    break
                await asyncio.sleep(0.1)
            assert hands[0].is_over
            plays = [ev for ev in hands[0].events if ev.kind == "cards_played" and ev.seat == 0]
            assert len(plays) == len(hands[0].tricks)
            autos = [d[2] for d in c.frames if d[0] == protocol.NOTIFICATION and d[1] == "auto"]
            assert autos[0] == {"seat": 0, "on": True, "reason": "request"}
            assert check_frames(c.frames, 0, hands) > 10
            await close_all([c])
    run(main(), 90)


# ------------------------------------------------------------------------------ a scripted deal
def _stack(first: int, wants: dict[int, list[str]], seed: int) -> list[Card]:
    """A 162-card stack in which seat s is dealt ``wants[s]`` first (the rest shuffled)."""
    from engine.cards import make_deck, parse_cards

    pool = make_deck(3)
    for cards in wants.values():
        for c in parse_cards(cards):
            pool.remove(c)
    random.Random(seed).shuffle(pool)
    hands = {s: list(parse_cards(wants.get(s, []))) for s in range(5)}
    for s in range(5):
        while len(hands[s]) < 31:
            hands[s].append(pool.pop())
    stack: list[Any] = [hands[(first + i) % 5][i // 5] for i in range(155)]
    return stack + pool


class Scripted:
    """Declares ``declares`` ((min cards dealt, cards) in order) at its first poll once that
    many cards are out, counters with ``counter``, calls ``call``, buries ``bury`` (default
    the first 7 cards in order), passes otherwise and plays the first legal play."""

    def __init__(self, seat: int, declares=(), counter=None, call=None, bury=None) -> None:
        from engine.cards import parse_cards

        self.seat = seat
        self.declares = [(k, parse_cards(c)) for k, c in declares]
        self.counter = parse_cards(counter) if counter else None
        self.call = call
        self.bury = parse_cards(bury) if bury else None

    def act(self, view: Any) -> Any:
        seat, phase = self.seat, view.phase
        if phase is ZPhase.DEAL:
            if self.declares and view.cards_dealt >= self.declares[0][0]:
                _, cards = self.declares.pop(0)
                assert cards in view.legal_declarations
                return Declare(seat, cards)
            return Pass(seat)
        if phase is ZPhase.COUNTER:
            if self.counter is not None and self.counter in view.legal_declarations:
                cards, self.counter = self.counter, None
                return Declare(seat, cards)
            return Pass(seat)
        if phase is ZPhase.CALL_FRIEND:
            return CallFriend(seat, Card.parse(self.call[0]), self.call[1])
        if phase is ZPhase.BURY:
            return Bury(seat, self.bury or tuple(sorted(view.hand)[: view.bury_count]))
        return Play(seat, next(iter(view.play_options())))


def test_declarations_a_counter_and_a_rebury_over_the_network():
    """The spec's worked example dealt to five socket clients: three declarations in the
    deal, the friend call, the dealer's bury, a counter by seat 1 that takes the kitty and
    buries again; the kitty reaches only the seat holding it, every frame checked."""
    stack = _stack(2, {3: ["2H", "2S", "2S"], 1: ["3C", "3C", "4H", "4H"],
                       0: ["4D", "4D", "KC", "5C", "3S", "6S", "7C", "8C", "9H"]}, seed=11)

    async def main() -> None:
        async with running_server([zpy_table(max_hands=1)]) as srv:
            room = srv.rooms[0]
            hands = keep_hands(room)
            deal = room._new_hand

            def scripted() -> Any:  # the match's first hand replaced by the scripted deal
                deal()
                h = ZpyHand.from_stack(stack, room.ruleset, levels=(4, 3, 3, 2, 2),
                                       eligible=(0, 1, 3), first_card=2)
                room.match.hand = h
                hands[:] = [h]
                return h

            room._new_hand = scripted  # type: ignore[method-assign]
            players = [Scripted(0, [(97, "4D 4D")], call=("AS", 1), bury="KC 5C 3S 6S 7C 8C 9H"),
                       Scripted(1, [(40, "3C 3C")], counter="4H 4H"), Scripted(2),
                       Scripted(3, [(12, "2H")]), Scripted(4)]
            clients = [await rconnect(srv, f"p{i}", seat=i) for i in range(5)]
            bots = [Bot(c, players[i], hands=1) for i, c in enumerate(clients)]
            await asyncio.gather(*(b.run(60) for b in bots))
            assert not any(b.errors for b in bots), [b.errors for b in bots]
            h = hands[0]
            assert h.is_over and h.dealer == 0 and h.level == 4 and h.trump == "H"
            declared = [(ev.seat, ev.phase) for ev in h.events if ev.kind == "declared"]
            assert declared == [(3, "deal"), (1, "deal"), (0, "deal"), (1, "counter")]
            assert [ev.seat for ev in h.events if ev.kind == "kitty_taken"] == [0, 1]
            assert h.burier == 1
            for i, c in enumerate(clients):
                check_frames(c.frames, i, hands)
                views = [d[2]["view"] for d in c.frames
                         if d[0] == protocol.NOTIFICATION and d[1] == "view"]
                held = [v for v in views if v["kitty"] is not None]
                assert bool(held) == (i in (0, 1))  # the kitty only to the seats holding it
                assert all(v["phase"] == "bury" and v["burier"] == i for v in held)
            await close_all(clients)
    run(main(), 90)
