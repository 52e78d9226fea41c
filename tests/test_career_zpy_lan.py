"""A LAN client records the 找朋友 hands it plays (issue 16): a real 找朋友 host on 127.0.0.1
(first-legal AIs in four seats, a short match: ``game_end=reach_a``, 20-point rungs), a client
in seat 2 with a profile, real SQLite files in ``tmp_path``. The client rebuilds every hand from
the events it received and the seed the host sends once the hand is over (net/zpy_log.py,
PROTOCOL.md section 14); its profile then holds the rows, replays that verify, statistics and
the levels chart of the match, as a local 找朋友 match does (tests/test_career_zpy.py)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine import replay as R
from game.career import Recorder, Store, zpy_stats
from game.zpy_table import zpy_first_legal
from net.ai import AIProvider
from net.cli import BackgroundHost
from net.remote_table import RemoteTable
from net.server import ServerConfig, Timers
from net.testing import fast_table

ROOT = Path(__file__).resolve().parents[1]
#: a short 找朋友 match: the game ends when a seat reaches A; 20-point rungs (3-7 hands with
#: first-legal players), no redeals
SHORT = {"game_end": "reach_a", "step": 20, "max_redeals": 0}
ME = 2


def start_host(seed: int = 7, **kw) -> BackgroundHost:
    """A running 找朋友 host: seat ``ME`` free, the others first-legal AIs, no timers."""
    cfg = ServerConfig(bind="127.0.0.1", port=0, rate=10_000, burst=10_000, tables=[
        fast_table("Z", ruleset="zhaopengyou", options=dict(SHORT), seed=seed,
                   timers=Timers(bid=0, trump=0, bury=0, play=0, deal=0, call_friend=0, counter=0),
                   ai_seats={s: "first-legal" for s in range(5) if s != ME}, **kw)])
    h = BackgroundHost(cfg, AIProvider(use_plugins=False, user_plugins=False), announce=None)
    h.port = h.start()
    return h


@pytest.fixture
def host():
    h = start_host()
    yield h
    h.stop()


def play_match(table: RemoteTable, rec: Recorder, max_hands: int = 12, limit_s: float = 120.0) -> list:
    """Play seat ``ME`` with first-legal actions until the game is over, recording each
    settled hand as the window does; returns the ZpyRecorded per hand."""
    got = []
    end = time.monotonic() + limit_s
    assert table.ready() is None and table.wait_for_hand(10)
    while time.monotonic() < end and len(got) < max_hands:
        settled = False
        for ev in table.poll():
            if ev.kind == "hand_settled":
                settled = True
        if settled:
            hand = table.settled_zpy_hand()
            assert hand is not None, table.zpy_problem
            r = rec.zpy_lan_hand_finished(hand, list(table.names), table.seat, table.table_key)
            assert r is not None
            got.append(r)
            if hand.settlement.game_over:
                return got
            assert table.next_hand() is None
            continue
        v = table.view()
        if v.my_turn and v.phase.value != "settle":
            assert table.submit(zpy_first_legal(v)) is None
        time.sleep(0.002)
    raise AssertionError(f"the match did not end: {len(got)} hands recorded")


def test_a_lan_client_records_every_hand_of_its_match(host, tmp_path):
    store = Store.open(tmp_path / "hongwu.db")
    store.create_profile("Bo")
    rec = Recorder(store, "Bo")
    table = RemoteTable("127.0.0.1", host.port, "Bo", seat=ME)
    try:
        got = play_match(table, rec)
        assert len(got) >= 2
        pid = store.profile("Bo").id
        rows = store.zpy_hands(pid)
        assert [z.hand_no for z in rows] == list(range(1, len(got) + 1))
        assert len({z.match_id for z in rows}) == 1  # one LAN match
        assert all(z.seat == ME and z.seats[ME] == "Bo" for z in rows)
        for prev, nxt in zip(rows, rows[1:]):
            assert nxt.levels_before == prev.levels_after
        assert rows[-1].game_over and max(rows[-1].levels_after) == 14
        for z in rows:  # each replay re-deals from the seed and verifies
            rep = R.parse(store.replay_text(z.record_id))
            assert rep.header["seed"] is not None and rep.header["seat"] == ME
            assert R.verify(rep).settlement.levels == tuple(z.levels_after)
        st = zpy_stats(store, "Bo")
        assert st.hands == len(rows) and st.matches == 1 and st.games_won == int(ME in rows[-1].game_winners)
        assert [s[-1] for s in st.levels] == list(rows[-1].levels_after)
        assert [s[0] for s in st.levels] == [2] * 5
        # the same hand is recorded once
        assert rec.zpy_lan_hand_finished(table.settled_zpy_hand(), list(table.names), ME, table.table_key) is None
        # the match is over: the host deals no further hand
        assert table.match_over and table.next_hand() is not None
    finally:
        table.close()
        store.close()
