"""Coins at a LAN table (RULES.md §12 "Coins at a LAN table", PROTOCOL.md ``Table.stake``,
``Settlement.coins``, ``Seat.capped``, DAILY_CAP): a real host on 127.0.0.1 with its journal in
a real SQLite file clamps each human seat's coins per player name and host day, refuses a
capped player's readiness with the time the cap lifts, and keeps all of it across a restart
with ``--resume``."""
from __future__ import annotations

import asyncio
import time

import pytest

from engine.coins import DAY_CAP, HAND_CAP, clamp_coins
from net.ai import AIProvider
from net.client import Client, RemoteError
from net.journal import Journal
from net.server import Server, ServerConfig
from net.stakes import CoinLedger, local_day
from net.testing import LOOPBACK, close_all, fast_table, seat_four

STAKE = 10_000_000
NEAR = DAY_CAP - 1  # one coin short of the cap


async def start(path, resume: bool, stake: int = STAKE) -> Server:
    cfg = ServerConfig(bind=LOOPBACK, port=0, tables=[fast_table(seed=77, stake=stake)],
                       rate=10_000.0, burst=10_000.0)
    server = Server(cfg, AIProvider(use_plugins=False, user_plugins=False),
                    journal=Journal.open(path, resume=resume))
    await asyncio.wait_for(server.start(), 10)
    return server


async def stop(server: Server) -> None:
    await asyncio.wait_for(server.close(), 10)
    server.journal.close()


def seed_ledger(path, nets: dict[str, int]) -> None:
    """Earlier hands today (another run of the host), straight into the journal file."""
    j = Journal.open(path)
    try:
        ledger = j.ledger()
        day = local_day(time.time())
        for i, (name, net) in enumerate(nets.items()):
            ledger.conn.execute("INSERT INTO coin_ledger VALUES ('earlier', 'T', 1, ?, ?, ?, ?, ?)",
                                (i, name, day, net, time.time()))
    finally:
        j.close()


def test_coins_are_clamped_the_cap_refuses_ready_and_all_survives_a_resume(tmp_path):
    path = tmp_path / "host.sqlite3"
    # p0, p1 one coin short of +cap, p2, p3 one short of -cap: any hand that moves game points
    # (one dealer against three) pushes somebody onto the cap
    nets = {"p0": NEAR, "p1": NEAR, "p2": -NEAR, "p3": -NEAR}
    seed_ledger(path, nets)

    async def main():
        srv = await start(path, resume=False)
        room = srv.rooms[0]
        clients = await seat_four(srv)
        try:
            assert clients[0].welcome["snapshot"]["table"]["stake"] == STAKE
            for c in clients:
                await c.call("auto", {"on": True})
            capped: list[int] = []
            for hand in range(1, 7):  # bounded: a hand with game points caps somebody
                for c in clients:
                    await c.call("ready", {"ready": True})
                _m, p = await clients[0].wait_for(
                    lambda m, p: m == "event" and p["event"]["kind"] == "hand_settled"
                    and p["hand_no"] == hand, timeout=30)
                s = p["event"]["settlement"]
                coins, gps = s["coins"], s["game_points"]
                expected = [clamp_coins(g * STAKE, nets[f"p{i}"]) for i, g in enumerate(gps)]
                assert coins == expected
                assert all(abs(c) <= HAND_CAP for c in coins)
                for i, c in enumerate(coins):
                    nets[f"p{i}"] += c
                    assert abs(nets[f"p{i}"]) <= DAY_CAP
                capped = [i for i in range(4) if abs(nets[f"p{i}"]) >= DAY_CAP]
                if capped:
                    break
            assert capped, "six hands without game points"
            hand_no = room.hand_no
            who = capped[0]
            with pytest.raises(RemoteError) as err:
                await clients[who].call("ready", {"ready": True})
            assert err.value.name == "DAILY_CAP"
            until = err.value.refusal["params"]["until"]
            assert err.value.refusal["code"] == "daily_coin_cap" and until in err.value.message
            assert err.value.refusal["params"]["day_net"] == nets[f"p{who}"]
            # the others see why: the seat's ``capped``; and the table does not deal
            _m, p = await clients[(who + 1) % 4].wait_for(
                lambda m, p: m == "table" and p["table"]["seats"][who].get("capped"), timeout=10)
            assert p["table"]["seats"][who]["capped"] == until
            for i, c in enumerate(clients):
                if i not in capped:
                    await c.call("ready", {"ready": True})
            snap = await clients[0].call("snapshot")
            assert room.hand_no == hand_no and not snap["table"]["in_hand"]
            tokens = [c.welcome["token"] for c in clients]
            last_coins = snap["view"]["settlement"]["coins"]
        finally:
            await close_all(clients)
            await stop(srv)

        # the host comes back with --resume: the ledger, the hand's coins and the cap hold
        srv = await start(path, resume=True)
        try:
            back = await Client.connect(LOOPBACK, srv.port, timeout=5)
            try:
                await back.hello(f"p{who}", token=tokens[who])
                assert back.welcome["snapshot"]["view"]["settlement"]["coins"] == last_coins
                with pytest.raises(RemoteError) as err:
                    await back.call("ready", {"ready": True})
                assert err.value.name == "DAILY_CAP"
                day = local_day(time.time())
                assert {n: srv.ledger.day_net(n, day) for n in nets} == nets
            finally:
                await back.close()
        finally:
            await stop(srv)

    asyncio.run(asyncio.wait_for(main(), 120))


def test_an_unstaked_table_sends_no_coins_and_older_versions_stay_away_from_stakes(tmp_path):
    async def main():
        srv = await start(tmp_path / "a.sqlite3", resume=False, stake=0)
        try:
            c = await Client.connect(LOOPBACK, srv.port, timeout=5)
            try:
                w = await c.hello("x", observer=True)
                assert "stake" not in w["snapshot"]["table"]
            finally:
                await c.close()
        finally:
            await stop(srv)
        srv = await start(tmp_path / "b.sqlite3", resume=False)
        try:
            c = await Client.connect(LOOPBACK, srv.port, timeout=5)
            try:
                with pytest.raises(RemoteError) as err:
                    await c.hello("old", observer=True, protocol=2)
                assert err.value.name == "VERSION_MISMATCH" and "coins" in err.value.message
            finally:
                await c.close()
        finally:
            await stop(srv)

    asyncio.run(asyncio.wait_for(main(), 60))


def test_the_ledger_in_memory_clamps_per_name_and_counts_a_hand_once():
    ledger = CoinLedger.memory()
    now = time.time()
    assert ledger.settle("T", 1, [9, -3, -3, -3], ["Ann", "Bo", None, "Ann"], STAKE, now) == \
        [HAND_CAP, -HAND_CAP, 0, -HAND_CAP]
    assert ledger.day_net("Ann", local_day(now)) == 0  # the same name twice: both counted
    assert ledger.settle("T", 1, [1, 1, 1, 1], ["Ann", "Bo", None, "Ann"], STAKE, now) == \
        [HAND_CAP, -HAND_CAP, 0, -HAND_CAP]  # recorded already: not counted again
    for hand in range(2, 7):  # Bo from -20,000,000 up by at most 20,000,000 a hand
        ledger.settle("T", hand, [6, 0, 0, 0], ["Bo", None, None, None], STAKE, now)
    assert ledger.day_net("Bo", local_day(now)) == DAY_CAP
    assert ledger.settle("T", 7, [6, 0, 0, 0], ["Bo", None, None, None], STAKE, now)[0] == 0
    assert ledger.refusal("Bo", now)["params"]["day_net"] == DAY_CAP
    assert ledger.refusal("Ann", now) is None


def test_the_window_says_the_hosts_daily_cap_in_its_language():
    pytest.importorskip("pygame")
    from game import i18n
    from game.app import App

    params = {"name": "Ann", "day_net": DAY_CAP, "cap": DAY_CAP, "until": "2026-12-02T00:00+01:00"}
    try:
        i18n.set_language("zh")
        text = App._host_cap_text(params)
        assert "Ann" in text and "2026-12-02 00:00" in text and "Staked" not in text
        i18n.set_language("en")
        assert "Staked games can start again at 2026-12-02 00:00" in App._host_cap_text(params)
    finally:
        i18n.set_language("en")
