"""The host's journal (net/journal.py) and ``--resume`` in process: a table recorded in a
real SQLite file in tmp_path, the host stopped mid-hand, a new host restoring the hand from
seed + actions, players coming back with their old tokens (rotated), damaged files set aside.
Sockets on 127.0.0.1, every wait bounded."""
from __future__ import annotations

import asyncio
import time
import random
import sqlite3

import pytest

from engine.ruleset import hongwu
from engine.state import Game, Phase, first_legal_action
from net.ai import AIProvider, FirstLegal
from net.bot import Bot
from net.client import Client, RemoteError
from net.journal import Journal, JournalBusy, token_hash
from net.server import Server, ServerConfig
from net.testing import LOOPBACK, close_all, connect, fast_table, seat_four

SEED = 1234


def run(coro, timeout: float = 90.0):
    """Run a test coroutine with an overall time bound."""
    return asyncio.run(asyncio.wait_for(coro, timeout))


async def until(pred, timeout: float = 15.0, what: str = "condition") -> None:
    """Poll ``pred()`` every 5 ms for up to ``timeout`` seconds."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not pred():
        if loop.time() > end:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.005)


async def start(path, resume: bool, tables=None) -> Server:
    """A host on 127.0.0.1 (port 0) keeping its journal at ``path``."""
    cfg = ServerConfig(bind=LOOPBACK, port=0, tables=list(tables or [fast_table(seed=SEED)]),
                       rate=10_000.0, burst=10_000.0)
    server = Server(cfg, AIProvider(use_plugins=False, user_plugins=False),
                    journal=Journal.open(path, resume=resume))
    await asyncio.wait_for(server.start(), 10)
    return server


async def stop(server: Server) -> None:
    await asyncio.wait_for(server.close(), 10)
    server.journal.close()


def reference_settlement(seed: int = SEED, hand_no: int = 1):
    """The settlement of an uninterrupted hand: the host's hand seed, every seat first-legal."""
    hand_seed = random.Random(seed).getrandbits(63)
    game = Game.new(hongwu(2), hand_seed, hand_no=hand_no)
    while game.phase is not Phase.SETTLE:
        game.apply(first_legal_action(game.view(game.to_act)))
    return game.settlement


def test_a_stopped_host_resumes_the_hand_and_old_tokens_rotate(tmp_path):
    path = tmp_path / "host.sqlite3"

    async def main():
        srv = await start(path, resume=False)
        room = srv.rooms[0]
        clients = await seat_four(srv)
        tokens = [c.welcome["token"] for c in clients]
        bots = [Bot(c, FirstLegal(i), hands=1, think=0.002) for i, c in enumerate(clients)]
        tasks = [asyncio.ensure_future(b.run(60)) for b in bots]
        await until(lambda: room.game is not None and room.game.phase is Phase.PLAY
                    and room.game.trick_no >= 4 and room.game.current, what="mid-trick")
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await stop(srv)
        await close_all(clients)
        events = list(room.game.events)  # the hand as the stopped host left it
        assert room.game.phase is Phase.PLAY
        # the journal holds the table: a fresh host rebuilds the very same hand
        srv = await start(path, resume=True)
        room = srv.rooms[0]
        assert srv.journal.restored == 1 and srv.journal.problem is None
        assert room.hand_no == 1 and room.in_hand
        assert room.game.events == events  # replayed through the engine, event for event
        assert all(s.kind == "human" and s.session is None and not s.auto for s in room.seats)
        back = []
        for i, tok in enumerate(tokens):
            c = await connect(srv, f"p{i}", token=tok)
            w = c.welcome
            assert w["resumed"] and w["seat"] == i
            assert w["token"] != tok  # rotated on resume
            back.append(c)
        # a replayed old token no longer takes the seat
        thief = await Client.connect(LOOPBACK, srv.port, timeout=5)
        with pytest.raises(RemoteError) as exc:
            await thief.hello("thief", token=tokens[2])
        assert exc.value.name == "BAD_TOKEN"
        await thief.close()
        bots = [Bot(c, FirstLegal(i), hands=1) for i, c in enumerate(back)]
        await asyncio.gather(*(b.run(60) for b in bots))
        assert [b.settlements[0] for b in bots] == [bots[0].settlements[0]] * 4
        from net.codec import settlement_out
        assert bots[0].settlements[0] == settlement_out(reference_settlement())
        assert room.seats[0].score == reference_settlement().game_points[0]
        await close_all(back)
        await stop(srv)
    run(main())


def test_the_file_keeps_token_hashes_not_tokens(tmp_path):
    path = tmp_path / "host.sqlite3"

    async def main():
        srv = await start(path, resume=False)
        clients = await seat_four(srv)
        tokens = [c.welcome["token"] for c in clients]
        await close_all(clients)
        await stop(srv)
        return tokens
    tokens = run(main())
    data = path.read_bytes() + (path.with_name(path.name + "-wal").read_bytes()
                                if path.with_name(path.name + "-wal").exists() else b"")
    for tok in tokens:
        assert tok.encode() not in data
        assert token_hash(tok).encode() in data


def test_resume_between_hands_keeps_scores_and_deals_on(tmp_path):
    path = tmp_path / "host.sqlite3"
    ai_table = fast_table(seed=SEED, ai_seats={i: "first-legal" for i in range(4)}, max_hands=1)

    async def main():
        srv = await start(path, resume=False, tables=[ai_table])
        room = srv.rooms[0]
        await until(lambda: room.hand_no == 1 and not room.in_hand, what="hand 1 settled")
        scores = [s.score for s in room.seats]
        await stop(srv)
        srv = await start(path, resume=True, tables=[fast_table()])  # the file's config wins
        room = srv.rooms[0]
        assert room.config.max_hands == 1 and room.hand_no == 1
        assert [s.score for s in room.seats] == scores
        assert [s.kind for s in room.seats] == ["ai"] * 4
        assert room.game.phase is Phase.SETTLE
        assert list(room.game.settlement.game_points) == scores
        await stop(srv)
    run(main())


def test_a_damaged_journal_is_set_aside_not_emptied(tmp_path):
    path = tmp_path / "host.sqlite3"
    path.write_bytes(b"this is not an sqlite file" * 100)
    j = Journal.open(path, resume=True)
    try:
        assert j.problem and "set aside" in j.problem
        assert j.set_aside is not None and j.set_aside.read_bytes().startswith(b"this is not")
        assert j.load() == []  # a fresh, usable journal in its place
    finally:
        j.close()


def test_a_journal_whose_actions_do_not_replay_is_set_aside(tmp_path):
    path = tmp_path / "host.sqlite3"

    async def main():
        srv = await start(path, resume=False)
        room = srv.rooms[0]
        clients = await seat_four(srv)
        bots = [Bot(c, FirstLegal(i), hands=1, think=0.002) for i, c in enumerate(clients)]
        tasks = [asyncio.ensure_future(b.run(60)) for b in bots]
        await until(lambda: room.game is not None and room.game.phase is Phase.PLAY,
                    what="play")
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await stop(srv)
        await close_all(clients)
        conn = sqlite3.connect(path)
        conn.execute("UPDATE actions SET seat = (seat + 1) % 4 WHERE n = 0")  # tampered
        conn.commit()
        conn.close()
        srv = await start(path, resume=True)
        assert srv.journal.problem and "do not restore" in srv.journal.problem
        assert srv.journal.set_aside.exists()
        assert srv.journal.restored == 0 and srv.rooms[0].hand_no == 0  # new tables
        await stop(srv)
    run(main())


def test_a_second_host_on_the_same_journal_is_refused(tmp_path):
    path = tmp_path / "host.sqlite3"
    j = Journal.open(path)
    try:
        with pytest.raises(JournalBusy):
            Journal.open(path)
    finally:
        j.close()
    Journal.open(path).close()  # free again once the first is closed


def test_a_host_started_without_resume_keeps_the_earlier_tables_as_prev(tmp_path):
    path = tmp_path / "host.sqlite3"

    async def main():
        srv = await start(path, resume=False)
        await close_all(await seat_four(srv))
        await stop(srv)
        srv = await start(path, resume=False)
        assert srv.journal.previous == tmp_path / "host.sqlite3.prev"
        assert all(s.kind == "empty" for s in srv.rooms[0].seats)  # new tables
        await stop(srv)
        old = Journal.open(tmp_path / "host.sqlite3.prev", resume=True)
        try:
            assert [s.kind for s in old.load()[0].seats] == ["human"] * 4
        finally:
            old.close()
    run(main())


# ---------------------------------------------------------------------------- reconnecting
def test_backoff_grows_to_its_cap_with_jitter_inside_bounds():
    from net.client import Backoff

    b = Backoff(first=0.25, factor=2, cap=5, jitter=0.5)
    delays = b.delays(random.Random(3))
    got = [next(delays) for _ in range(12)]
    nominal = [min(5, 0.25 * 2 ** i) for i in range(12)]
    assert all(n / 2 <= d <= n for d, n in zip(got, nominal)), got
    assert len(set(round(d, 6) for d in got)) == len(got)  # jittered, not a fixed ladder


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind((LOOPBACK, 0))
        return s.getsockname()[1]


def test_reconnect_waits_for_a_host_that_comes_back_on_the_same_port(tmp_path):
    from net.client import Backoff, reconnect

    path = tmp_path / "host.sqlite3"

    async def main():
        port = _free_port()
        cfg = ServerConfig(bind=LOOPBACK, port=port, tables=[fast_table(seed=SEED)],
                           rate=10_000.0, burst=10_000.0)
        srv = Server(cfg, AIProvider(use_plugins=False, user_plugins=False),
                     journal=Journal.open(path))
        await srv.start()
        c = await connect(srv, "ann", seat=2)
        old = c.welcome["token"]
        await stop(srv)
        await close_all([c])
        tries = []

        async def later():  # the host is back after a few failed tries
            await until(lambda: len(tries) >= 3, what="three tries")
            again = Server(cfg, AIProvider(use_plugins=False, user_plugins=False),
                           journal=Journal.open(path, resume=True))
            await again.start()
            return again
        back_task = asyncio.ensure_future(later())
        client = await reconnect(LOOPBACK, port, "ann", token=old,
                                 backoff=Backoff(first=0.05, cap=0.2, total=20),
                                 on_attempt=lambda n, d, e: tries.append((n, d, e)))
        again = await back_task
        assert client.welcome["resumed"] and client.welcome["seat"] == 2
        assert client.welcome["token"] != old
        assert all(isinstance(e, OSError) for _, _, e in tries[1:3])  # refused while down
        with pytest.raises(RemoteError) as exc:  # the old token is final: no more retries
            await reconnect(LOOPBACK, port, "ann", token=old, backoff=Backoff(first=0.01))
        assert exc.value.name == "BAD_TOKEN"
        await close_all([client])
        await stop(again)
    run(main())


def test_reconnect_gives_up_after_its_total_time():
    from net.client import Backoff, reconnect

    async def main():
        port = _free_port()
        t = asyncio.get_running_loop().time()
        with pytest.raises(ConnectionError, match="could not reconnect"):
            await reconnect(LOOPBACK, port, "ann", token="x",
                            backoff=Backoff(first=0.05, cap=0.1, total=0.5))
        assert asyncio.get_running_loop().time() - t < 5
    run(main(), 20)


def test_the_window_client_gets_its_seat_back_across_a_host_restart(tmp_path):
    from net.remote_table import RemoteTable

    path = tmp_path / "host.sqlite3"
    port = _free_port()
    cfg = ServerConfig(bind=LOOPBACK, port=port, tables=[fast_table(seed=SEED)],
                       rate=10_000.0, burst=10_000.0)

    import threading

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

    table = None
    try:
        srv = on_loop(make(False))
        saved = []
        table = RemoteTable(LOOPBACK, port, "ann", seat=1, reconnect_s=30,
                            on_token=saved.append)
        old = table.token
        assert saved == [old]
        on_loop(stop(srv))
        srv = on_loop(make(True))
        end = time.monotonic() + 20
        while not (table.connected and table.token != old) and time.monotonic() < end:
            time.sleep(0.02)
        assert table.connected and table.seat == 1 and table.token != old
        assert "reconnected" in table.notices()
        assert saved == [old, table.token]  # the rotated token was handed over to be kept
        on_loop(stop(srv))
    finally:
        if table is not None:
            table.closed = True  # no bye to a stopped host
            table._stop_loop()
        loop.call_soon_threadsafe(loop.stop)
        thread.join(5)


def test_a_resumed_windowed_host_gets_a_token_for_its_own_seat(tmp_path):
    path = tmp_path / "host.sqlite3"

    async def main():
        srv = await start(path, resume=False)
        await close_all(await seat_four(srv))
        await stop(srv)
        srv = await start(path, resume=True)
        room = srv.rooms[0]
        tok = room.journal.local_token(room, 0)
        assert tok and room.journal.local_token(room, 0) is None  # once
        c = await connect(srv, "Host", token=tok)
        assert c.welcome["seat"] == 0 and c.welcome["resumed"]
        await close_all([c])
        await stop(srv)
    run(main())


def test_host_cli_reports_a_damaged_journal_and_sets_it_aside(tmp_path, capsys):
    import argparse

    from net.cli import add_host_parser, open_journal

    path = tmp_path / "j.sqlite3"
    path.write_bytes(b"\x00garbage" * 500)
    parser = argparse.ArgumentParser()
    add_host_parser(parser.add_subparsers())
    ns = parser.parse_args(["host", "--headless", "--resume", "--journal", str(path)])
    journal, code = open_journal(ns)
    try:
        assert code == 0 and journal is not None
        err = capsys.readouterr().err
        assert "damaged" in err and "set aside as j.sqlite3.damaged-" in err
        (aside,) = tmp_path.glob("j.sqlite3.damaged-*")
        assert aside.read_bytes() == b"\x00garbage" * 500
    finally:
        journal.close()
    ns = parser.parse_args(["host", "--headless", "--resume", "--no-journal"])
    assert open_journal(ns) == (None, 2)


def test_hosts_on_different_ports_keep_separate_default_journals(tmp_path, monkeypatch, capsys):
    import argparse

    from net.cli import add_host_parser, open_journal

    monkeypatch.setenv("HONGWU_STATE_DIR", str(tmp_path))
    parser = argparse.ArgumentParser()
    add_host_parser(parser.add_subparsers())
    a, _ = open_journal(parser.parse_args(["host", "--headless", "--port", "5001"]))
    b, _ = open_journal(parser.parse_args(["host", "--headless", "--port", "5002"]))
    try:
        assert a.path == tmp_path / "lan_host-5001.sqlite3"
        assert b.path == tmp_path / "lan_host-5002.sqlite3"
        # a second host on the same port's default file plays on without a journal...
        assert open_journal(parser.parse_args(["host", "--headless", "--port", "5001"])) \
            == (None, 0)
        assert "keeps none" in capsys.readouterr().err
        # ...but one that asked to resume it does not start
        assert open_journal(parser.parse_args(
            ["host", "--headless", "--port", "5001", "--resume"])) == (None, 1)
        assert "in use by another host" in capsys.readouterr().err
    finally:
        a.close()
        b.close()


def test_knows_tells_a_waiting_pre_restart_token_without_claiming_it(tmp_path):
    path = tmp_path / "host.sqlite3"

    async def main():
        srv = await start(path, resume=False)
        clients = await seat_four(srv)
        tok = clients[1].welcome["token"]
        await close_all(clients)
        await stop(srv)
        srv = await start(path, resume=True)
        log_ = srv.rooms[0].journal
        assert log_.knows(tok) and log_.knows(tok) and not log_.knows("nope")
        c = await connect(srv, "p1", token=tok)
        assert c.welcome["seat"] == 1 and not log_.knows(tok)
        await close_all([c])
        await stop(srv)
    run(main())


def test_the_journal_remembers_the_port_for_a_resume_with_port_0(tmp_path):
    path = tmp_path / "host.sqlite3"
    j = Journal.open(path)
    j.record_port(47123)
    j.close()
    j = Journal.open(path, resume=True)
    try:
        assert j.port == 47123
    finally:
        j.close()


def test_the_table_generator_is_restored_as_it_moved_so_later_hands_deal_alike(tmp_path):
    path = tmp_path / "host.sqlite3"

    async def main():
        srv = await start(path, resume=False)
        room = srv.rooms[0]
        clients = await seat_four(srv)
        await clients[3].bye()
        await until(lambda: room.seats[3].kind == "empty", what="seat 3 free")
        room._seat_ai(3, "first-legal")  # as a fill does: draws the AI's seed
        room.broadcast_table()
        state = room.rng.getstate()
        await close_all(clients[:3])
        await stop(srv)
        srv = await start(path, resume=True)
        assert srv.rooms[0].rng.getstate() == state
        assert srv.rooms[0].seats[3].kind == "ai"
        await stop(srv)
    run(main())


def test_the_hosts_time_out_trump_is_replayed_as_a_time_out(tmp_path):
    import secrets

    path = tmp_path / "host.sqlite3"

    async def main():
        srv = await start(path, resume=False)
        room = srv.rooms[0]
        for st in room.seats:  # four seated players, ready (their connections do not matter)
            st.kind, st.name, st.ready = "human", f"p{st.index}", True
            st.token = secrets.token_urlsafe(18)
        room.broadcast_table()
        room._maybe_start()
        g = room.game
        while g.phase is not Phase.TRUMP:
            room.apply(first_legal_action(g.view(g.to_act)))
        room._on_timeout(room.turn_id)  # the dealer let the trump clock run out: ♠
        assert g.phase is Phase.BURY
        events = list(g.events)
        await stop(srv)
        srv = await start(path, resume=True)
        replayed = srv.rooms[0].game.events
        assert replayed == events
        (chosen,) = [e for e in replayed if e.kind == "trump_chosen"]
        assert chosen.timed_out and chosen.suit == "S"
        await stop(srv)
    run(main())


def test_resume_before_the_first_hand_gives_the_seats_back_and_deals_when_ready(tmp_path):
    path = tmp_path / "host.sqlite3"

    async def main():
        srv = await start(path, resume=False)
        clients = await seat_four(srv)
        tokens = [c.welcome["token"] for c in clients]
        await clients[0].call("ready", ready=True)
        await close_all(clients)
        await stop(srv)
        srv = await start(path, resume=True)
        room = srv.rooms[0]
        assert room.hand_no == 0 and not room.in_hand
        assert [s.name for s in room.seats] == ["p0", "p1", "p2", "p3"]
        assert not any(s.ready or s.session for s in room.seats)  # back in person, then ready
        back = [await connect(srv, f"p{i}", token=t) for i, t in enumerate(tokens)]
        assert [c.welcome["seat"] for c in back] == [0, 1, 2, 3]
        for c in back:
            await c.call("ready", ready=True)
        await until(lambda: room.in_hand, what="the first hand")
        await close_all(back)
        await stop(srv)
    run(main())


def test_a_journal_that_fails_to_write_is_reported_and_the_table_plays_on(tmp_path, caplog):
    path = tmp_path / "host.sqlite3"

    async def main():
        srv = await start(path, resume=False)
        room = srv.rooms[0]
        clients = await seat_four(srv)
        srv.journal.conn.close()  # as if the disk went away under the host
        bots = [Bot(c, FirstLegal(i), hands=1) for i, c in enumerate(clients)]
        await asyncio.gather(*(b.run(60) for b in bots))
        assert room.hand_no == 1 and not room.in_hand and room.journal.failed
        await close_all(clients)
        await asyncio.wait_for(srv.close(), 10)
    with caplog.at_level("ERROR", logger="net.journal"):
        run(main())
    assert "a restart will not restore it" in caplog.text
