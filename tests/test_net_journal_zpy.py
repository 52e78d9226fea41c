"""The journal at 找朋友 tables (issue 16): a five-seat table recorded in a real SQLite file in
tmp_path; the file as it stood at one exact moment (mid-deal with a declaration window open,
mid-counter-round, mid-trick of the match's second hand) is taken with SQLite's backup API,
as a host killed right then would have left it; a new host resumes from that copy, five
socket clients come back with their old tokens and the match is played to its end. With
players that decide from their view alone, the resumed hands must be event for event the
hands the uninterrupted host played, every frame a reconnected client receives passes the
hidden-information check (the friend unknown until revealed), and both files pass
``PRAGMA integrity_check``. Also: a version-1 (红五 only) journal is migrated and resumes, a
journal from a newer host is refused and left untouched. Sockets on 127.0.0.1, every wait
bounded."""
from __future__ import annotations

import asyncio
import hashlib
import sqlite3
from typing import Any

import pytest

from engine.state import Bury, Phase, Play
from engine.zhaopengyou import CallFriend, Declare, Pass, ZPhase
from net.ai import AIProvider, FirstLegal
from net.bot import Bot
from net.journal import SCHEMA_VERSION, Journal, JournalTooNew
from net.server import Server, ServerConfig, Timers
from net.testing import LOOPBACK, close_all, connect, fast_table

from test_net_zpy import RecordingClient, check_frames, keep_hands

SEED = 6  # hand 1: declarations in the deal; hand 2: a counter round; the friend revealed in both
#: windows with a time limit (so a resumed table has one to hold), the rest without
TIMERS = Timers(bid=0, trump=0, bury=0, play=0, deal=5, call_friend=0, counter=5)


def run(coro: Any, timeout: float = 150.0) -> Any:
    """Run ``coro`` with a hard bound."""
    return asyncio.run(asyncio.wait_for(coro, timeout))


class Decider:
    """A 找朋友 player whose every decision is a function of its view (so a hand resumed from
    the journal goes on exactly as the uninterrupted one): declares now and then in the deal
    (the strongest legal declaration), always counters when it can, calls a friend by seat,
    buries the first cards, plays the first legal play."""

    def __init__(self, seat: int) -> None:
        self.seat = seat

    def act(self, view: Any) -> Any:
        seat, phase = self.seat, view.phase
        if phase in (ZPhase.DEAL, ZPhase.COUNTER):
            options = view.legal_declarations
            if options and (phase is ZPhase.COUNTER or (view.cards_dealt + seat) % 3 == 0):
                return Declare(seat, options[-1])
            return Pass(seat)
        if phase is ZPhase.CALL_FRIEND:
            calls = view.friend_calls()
            return CallFriend(seat, *calls[seat % len(calls)])
        if phase is ZPhase.BURY:
            return Bury(seat, tuple(view.hand[: view.bury_count]))
        return Play(seat, tuple(next(iter(view.play_options()))))


def table():
    return fast_table("Z", ruleset="zhaopengyou", seed=SEED, timers=TIMERS, max_hands=2,
                      seat_grace_s=60.0)


async def start(path, resume: bool) -> Server:
    cfg = ServerConfig(bind=LOOPBACK, port=0, tables=[table()], rate=10_000.0, burst=10_000.0)
    server = Server(cfg, AIProvider(use_plugins=False, user_plugins=False),
                    journal=Journal.open(path, resume=resume))
    await asyncio.wait_for(server.start(), 10)
    return server


async def stop(server: Server) -> None:
    await asyncio.wait_for(server.close(), 10)
    server.journal.close()


def integrity(path) -> str:
    conn = sqlite3.connect(str(path))
    try:
        return conn.execute("PRAGMA integrity_check").fetchone()[0]
    finally:
        conn.close()


STOPS = {
    # hand 1, cards still being dealt, a seat polled in a declaration window
    "deal": lambda g: g.hand_no == 1 and g.phase is ZPhase.DEAL and g.dealt >= 60
    and g.to_act is not None,
    # hand 2 (levels carried from hand 1), the counter round under way
    "counter": lambda g: g.hand_no == 2 and g.phase is ZPhase.COUNTER and g.to_act is not None,
    # hand 2, mid-trick
    "trick": lambda g: g.hand_no == 2 and g.phase is ZPhase.PLAY and g.trick_no >= 4
    and bool(g.current),
}


@pytest.mark.parametrize("where", sorted(STOPS))
def test_a_zpy_table_resumes_from_its_journal_exactly_where_it_was(tmp_path, where):
    path, copy = tmp_path / "host.sqlite3", tmp_path / "at-stop.sqlite3"
    stop_at = STOPS[where]

    async def main() -> None:
        # ---- the uninterrupted host: the reference; its journal copied at the stop
        srv = await start(path, resume=False)
        room = srv.rooms[0]
        hands = keep_hands(room)
        taken: dict[str, Any] = {}
        tlog = room.journal
        record = tlog.action

        def action(r: Any, a: Any) -> None:
            record(r, a)
            if not taken and stop_at(r.game):  # what a host killed right now leaves
                dst = sqlite3.connect(str(copy))
                try:
                    tlog.conn.backup(dst)
                finally:
                    dst.close()
                taken.update(events=list(r.game.events), hand_no=r.hand_no,
                             levels=r.match_wire()["levels"], to_act=r.game.to_act,
                             phase=r.game.phase, friend_known=r.game.friend is not None)
        tlog.action = action  # type: ignore[method-assign]
        clients = [await connect(srv, f"p{i}", seat=i) for i in range(5)]
        tokens = [c.welcome["token"] for c in clients]
        bots = [Bot(c, Decider(i), hands=2) for i, c in enumerate(clients)]
        await asyncio.gather(*(b.run(90) for b in bots))
        assert taken, f"the table never reached the {where} stop"
        assert not any(b.errors for b in bots), [b.errors for b in bots]
        reference = {h.hand_no: h for h in hands}
        assert sorted(reference) == [1, 2] and all(h.is_over for h in hands)
        await close_all(clients)
        await stop(srv)

        # ---- a new host on the copy, as after a kill
        srv = await start(copy, resume=True)
        room = srv.rooms[0]
        assert srv.journal.restored == 1 and srv.journal.problem is None
        g = room.game
        assert room.hand_no == taken["hand_no"] and room.in_hand
        assert g.events == taken["events"]  # replayed: the same cards, declarations, calls, plays
        assert g.phase is taken["phase"] and g.to_act == taken["to_act"]
        assert room.match_wire()["levels"] == taken["levels"]
        assert (g.friend is not None) == taken["friend_known"]
        later = keep_hands(room)
        loop = asyncio.get_running_loop()
        if g.phase in (ZPhase.DEAL, ZPhase.COUNTER):
            # the window of a seat whose player is not back yet waits for them (not 5 s)
            assert room.deadline is not None and room.deadline - loop.time() > 30
        # the polled / leading seat's player first, then the others, with their old tokens
        order = [g.to_act] + [i for i in range(5) if i != g.to_act]
        back: dict[int, RecordingClient] = {}
        for i in order:
            c = await RecordingClient.connect(LOOPBACK, srv.port, timeout=5)
            await c.hello(f"p{i}", token=tokens[i])
            assert c.welcome["resumed"] and c.welcome["seat"] == i
            view = c.welcome["snapshot"]["view"]
            assert sorted(view["hand"]) == sorted(map(str, g.hand_of(i)))  # no card changed
            if not taken["friend_known"]:
                assert view["friend"] is None  # still nobody's to know
            if i == order[0] and g.phase in (ZPhase.DEAL, ZPhase.COUNTER):
                assert g.to_act == i  # back: the full window from now on, no more
                assert room.deadline is not None and room.deadline - loop.time() <= 5.01
            back[i] = c
        left = 2 - taken["hand_no"] + 1
        bots = [Bot(back[i], Decider(i), hands=left) for i in range(5)]
        await asyncio.gather(*(b.run(90) for b in bots))
        assert not any(b.errors for b in bots), [b.errors for b in bots]
        resumed = {h.hand_no: h for h in [g, *later]}
        assert sorted(resumed) == list(range(taken["hand_no"], 3))
        for no, h in resumed.items():  # event for event the hands the host played unbroken
            assert h.events == reference[no].events, no
            assert h.settlement == reference[no].settlement
        assert room.match_wire()["levels"] == list(reference[2].settlement.levels)
        for i, c in back.items():
            assert check_frames(c.frames, i, list(resumed.values())) > 10
        await close_all(list(back.values()))
        await stop(srv)
        assert integrity(path) == "ok" and integrity(copy) == "ok"
    run(main())


def test_a_zpy_table_between_hands_resumes_with_the_match_carried_on(tmp_path):
    """Stopped once hand 1 is settled: the restored table has the levels after hand 1, and
    hand 2 is the hand the match deals (same seed, levels, declaring right, first card)."""
    path = tmp_path / "host.sqlite3"

    async def main() -> None:
        srv = await start(path, resume=False)
        room = srv.rooms[0]
        hands = keep_hands(room)
        clients = [await connect(srv, f"p{i}", seat=i) for i in range(5)]
        tokens = [c.welcome["token"] for c in clients]
        bots = [Bot(c, Decider(i), hands=1) for i, c in enumerate(clients)]  # no ready after it
        await asyncio.gather(*(b.run(90) for b in bots))
        first = hands[0]
        assert first.is_over and not room.in_hand
        await close_all(clients)
        await stop(srv)

        srv = await start(path, resume=True)
        room = srv.rooms[0]
        assert room.hand_no == 1 and not room.in_hand
        assert room.match_wire()["levels"] == list(first.settlement.levels)
        assert [s.score for s in room.seats] == [
            a - b for a, b in zip(first.settlement.levels, first.levels)]
        later = keep_hands(room)
        back = [await connect(srv, f"p{i}", token=tokens[i]) for i in range(5)]
        bots = [Bot(c, Decider(i), hands=1) for i, c in enumerate(back)]
        await asyncio.gather(*(b.run(90) for b in bots))
        (second,) = later
        assert second.hand_no == 2 and second.levels == first.settlement.levels
        assert second.first_card == first.settlement.first_card_to
        assert second.eligible == first.settlement.eligible
        await close_all(back)
        await stop(srv)
        assert integrity(path) == "ok"
    run(main())


def _hongwu_journal(path) -> list[Any]:
    """A 红五 table journaled mid-hand; returns the hand's events when the host stopped."""
    async def main() -> list[Any]:
        cfg = ServerConfig(bind=LOOPBACK, port=0, tables=[fast_table(seed=99)],
                           rate=10_000.0, burst=10_000.0)
        srv = Server(cfg, AIProvider(use_plugins=False, user_plugins=False),
                     journal=Journal.open(path))
        await srv.start()
        room = srv.rooms[0]
        clients = [await connect(srv, f"p{i}", seat=i) for i in range(4)]
        bots = [Bot(c, FirstLegal(i), hands=1, think=0.002) for i, c in enumerate(clients)]
        tasks = [asyncio.ensure_future(b.run(60)) for b in bots]
        for _ in range(3000):  # bounded: 15 s
            g = room.game
            if g is not None and g.phase is Phase.PLAY and g.trick_no >= 3:
                break
            await asyncio.sleep(0.005)
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await srv.close()
        srv.journal.close()
        await close_all(clients)
        return list(room.game.events)
    return run(main(), 60)


def test_a_version_1_journal_is_migrated_and_its_hongwu_table_resumes(tmp_path):
    path = tmp_path / "old.sqlite3"
    events = _hongwu_journal(path)
    conn = sqlite3.connect(str(path))  # as the host before 找朋友 journals wrote it
    conn.execute("ALTER TABLE tables DROP COLUMN match")
    conn.execute("UPDATE meta SET value='1' WHERE key='schema'")
    conn.commit()
    conn.close()

    async def main() -> None:
        j = Journal.open(path, resume=True)
        assert j.problem is None and j.set_aside is None
        cfg = ServerConfig(bind=LOOPBACK, port=0, tables=[fast_table()])
        srv = Server(cfg, AIProvider(use_plugins=False, user_plugins=False), journal=j)
        await srv.start()
        assert j.restored == 1 and srv.rooms[0].game.events == events
        version = j.conn.execute("SELECT value FROM meta WHERE key='schema'").fetchone()[0]
        assert version == str(SCHEMA_VERSION) == "2"
        await srv.close()
        j.close()
    run(main(), 30)
    assert integrity(path) == "ok"
    assert not list(tmp_path.glob("*.damaged-*"))


def test_a_journal_from_a_newer_host_is_refused_and_left_as_it_is(tmp_path, capsys):
    path = tmp_path / "new.sqlite3"
    _hongwu_journal(path)
    conn = sqlite3.connect(str(path))
    conn.execute("UPDATE meta SET value='99' WHERE key='schema'")
    conn.commit()
    conn.close()
    before = hashlib.sha256(path.read_bytes()).hexdigest()
    with pytest.raises(JournalTooNew, match="newer Hong Wu"):
        Journal.open(path, resume=True)
    import argparse

    from net.cli import add_host_parser, run_host

    parser = argparse.ArgumentParser()
    add_host_parser(parser.add_subparsers())
    ns = parser.parse_args(["host", "--headless", "--ruleset", "zhaopengyou", "--resume",
                            "--journal", str(path), "--bind", "127.0.0.1", "--no-discovery"])
    assert run_host(ns) == 1
    err = capsys.readouterr().err
    assert "journal schema 99" in err and "left as it is" in err
    assert hashlib.sha256(path.read_bytes()).hexdigest() == before  # untouched
    assert not list(tmp_path.glob("*.damaged-*"))


def test_the_window_client_gets_its_zpy_seat_and_hand_back_across_a_host_restart(tmp_path):
    """The window's network side (``RemoteTable``) in seat 0 of a 找朋友 table with four AIs:
    the host is stopped mid-trick, a new host resumes the journal, the window reconnects by
    itself with its token (rotated), its view is the same hand (same cards, same trick, the
    friend as hidden or as revealed as before), and it plays the hand to its end."""
    import threading
    import time

    from net.remote_table import RemoteTable
    from test_net_journal import _free_port

    path = tmp_path / "host.sqlite3"
    port = _free_port()
    tc = fast_table("Z", ruleset="zhaopengyou", seed=SEED, max_hands=1,
                    timers=Timers(bid=0, trump=0, bury=0, play=0, deal=0, call_friend=0,
                                  counter=0), ai_seats={i: "first-legal" for i in range(1, 5)})
    cfg = ServerConfig(bind=LOOPBACK, port=port, tables=[tc], rate=10_000.0, burst=10_000.0)
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()

    def on_loop(coro, timeout=20):
        return asyncio.run_coroutine_threadsafe(coro, loop).result(timeout)

    async def make(resume):
        srv = Server(cfg, AIProvider(use_plugins=False, user_plugins=False),
                     journal=Journal.open(path, resume=resume))
        await srv.start()
        return srv

    def play(table, until, seconds=60.0):
        """Act for seat 0 whenever it is to act until ``until(view)`` (bounded)."""
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            table.poll()
            v = table.view()
            if until(v):
                return v
            if v.hand_no and v.to_act == 0 and v.phase is not ZPhase.SETTLE:
                table.submit(Decider(0).act(v))
            time.sleep(0.005)
        raise AssertionError("timed out")

    table = None
    try:
        srv = on_loop(make(False))
        table = RemoteTable(LOOPBACK, port, "ann", seat=0, reconnect_s=30)
        old = table.token
        assert table.ready() is None
        # stop once seat 0 is to play in trick 3 or later, mid-trick (others have played)
        before = play(table, lambda v: v.hand_no == 1 and v.phase is ZPhase.PLAY
                      and v.trick_no >= 3 and v.to_act == 0 and bool(v.current_trick))
        on_loop(stop(srv))
        srv = on_loop(make(True))
        end = time.monotonic() + 20
        while not (table.connected and table.token != old) and time.monotonic() < end:
            time.sleep(0.02)
            table.poll()
        assert table.connected and table.seat == 0 and table.token != old
        for _ in range(200):  # the resumed snapshot's view (bounded: 4 s)
            table.poll()
            if table.view().trick_no == before.trick_no and table.view().hand:
                break
            time.sleep(0.02)
        after = table.view()
        assert sorted(after.hand) == sorted(before.hand)  # no card changed
        assert after.current_trick == before.current_trick and after.to_act == 0
        assert after.friend == before.friend and after.friend_call == before.friend_call
        done = play(table, lambda v: v.phase is ZPhase.SETTLE and v.settlement is not None)
        assert done.hand_no == 1
        on_loop(stop(srv))
    finally:
        if table is not None:
            table.closed = True  # no bye to a stopped host
            table._stop_loop()
        loop.call_soon_threadsafe(loop.stop)
        thread.join(5)


def test_match_records_rebuild_every_hand_of_a_match_and_bad_ones_are_refused():
    """``journal_hands.match_out`` at each deal of a four-hand match, then ``rebuild`` with
    the hand's actions, gives that very hand (events and settlement) and the match state; a
    record whose results do not fit its hand number, or that names another hand, is refused."""
    import json

    from engine.match import ZpyMatch
    from engine.ruleset import zhaopengyou
    from net import journal_hands

    rs = zhaopengyou()
    match = ZpyMatch(rs, seed=77)
    for no in range(1, 5):
        record = json.loads(json.dumps(journal_hands.match_out(match)))  # as the file keeps it
        hand, actions = match.hand, []
        while not hand.is_over:
            a = Decider(hand.to_act).act(hand.view(hand.to_act))
            hand.apply(a)
            actions.append((*journal_hands.action_out(a), a.seat, False))
        again, m = journal_hands.rebuild(rs, hand.seed, no, record, actions)
        assert again.events == hand.events and again.settlement == hand.settlement
        assert (m.levels, m.eligible, m.first_card, m.hand_no) == (
            hand.levels, hand.eligible, match.first_card if no > 1 else None, no)
        assert m.results == match.results[: no - 1]
        if match.game_over:
            break
        match.next_hand()
    with pytest.raises(ValueError, match="earlier settlement"):
        journal_hands.match_in(rs, {**record, "results": []})
    with pytest.raises(ValueError, match="the journal recorded hand"):
        journal_hands.rebuild(rs, 12345, record["hand_no"], record, [])
    with pytest.raises(ValueError, match="match record"):
        journal_hands.rebuild(rs, 1, 1, None, [])


def test_a_zpy_journal_whose_match_does_not_restore_is_set_aside(tmp_path):
    path = tmp_path / "host.sqlite3"

    async def main() -> None:
        srv = await start(path, resume=False)
        room = srv.rooms[0]
        clients = [await connect(srv, f"p{i}", seat=i) for i in range(5)]
        bots = [Bot(c, Decider(i), hands=1) for i, c in enumerate(clients)]
        tasks = [asyncio.ensure_future(b.run(60)) for b in bots]
        for _ in range(3000):  # bounded: 15 s
            if room.game is not None and room.game.phase is ZPhase.PLAY:
                break
            await asyncio.sleep(0.005)
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await close_all(clients)
        await stop(srv)
        conn = sqlite3.connect(str(path))
        conn.execute("UPDATE tables SET match=NULL")  # a 找朋友 hand without its match
        conn.commit()
        conn.close()
        srv = await start(path, resume=True)
        assert srv.journal.restored == 0 and srv.journal.set_aside is not None
        assert "do not restore" in srv.journal.problem and srv.journal.set_aside.exists()
        assert not srv.rooms[0].in_hand and srv.rooms[0].hand_no == 0  # a new table
        await stop(srv)
    run(main(), 60)
