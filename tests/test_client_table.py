"""LocalTable: the Table protocol, AI seats off the UI thread, pacing, refusals."""
from __future__ import annotations

from engine.state import Bid, Phase, Play
from game.table import FirstLegalPlayer, LocalTable, Table


def _run_until(table, pred, limit=5000):
    events = []
    for _ in range(limit):
        events += table.poll()
        if pred():
            return events
    raise AssertionError("condition never met")


def test_protocol_and_full_demo_hand():
    t = LocalTable(["basic", "random", "basic", "random"], seed=1, speed="instant", user_plugins=False)
    try:
        assert isinstance(t, Table)
        assert t.seat is None and t.hand_no == 1
        first = t.poll()
        assert first[0].kind == "hand_started"
        assert all(e.cards is None for e in first if e.kind == "cards_dealt")  # observer sees no hands
        events = _run_until(t, lambda: t.game.phase == Phase.SETTLE)
        assert events[-1].kind == "hand_settled"
        assert t.totals() == tuple(events[-1].settlement.game_points)
        assert t.next_hand() is None and t.hand_no == 2
        assert t.poll()[0].kind == "hand_started"
    finally:
        t.close()


def test_human_seat_submit_and_refusal():
    players = {s: FirstLegalPlayer(s) for s in (1, 2, 3)}
    t = LocalTable(["human", "x", "x", "x"], seed=2, speed="instant", players=players)
    try:
        assert t.seat == 0
        evs = t.poll()
        mine = [e for e in evs if e.kind == "cards_dealt" and e.seat == 0]
        others = [e for e in evs if e.kind == "cards_dealt" and e.seat != 0]
        assert mine[0].cards and all(e.cards is None for e in others)
        _run_until(t, lambda: t.view().to_act == 0)
        assert t.submit(Bid(1, None)) == "that seat is not yours"
        reason = t.submit(Bid(0, 5))
        assert reason and "not allowed" in reason
        assert t.submit(Play(0, ())) is not None
        assert t.submit(Bid(0, t.view().legal_bids()[0])) is None
        assert t.next_hand() == "the hand is not over"
    finally:
        t.close()


def test_pacing_waits_between_ai_actions():
    now = [0.0]
    players = {s: FirstLegalPlayer(s) for s in range(4)}
    t = LocalTable(["a", "b", "c", "d"], seed=3, speed="normal", players=players, clock=lambda: now[0])
    try:
        t.poll()
        assert t.view().bids == ()
        for _ in range(50):  # the deal animation is still running: nobody bids
            t.poll()
        assert t.view().bids == ()
        now[0] += t.pace.deal_s + 0.01
        for _ in range(200):
            t.poll()
            if t.view().bids:
                break
        assert len(t.view().bids) == 1
        for _ in range(50):  # next bid only after action_s
            t.poll()
        assert len(t.view().bids) == 1
    finally:
        t.close()


def test_broken_ai_falls_back():
    class Broken:
        def act(self, view):
            raise RuntimeError("boom")

    players = {0: Broken(), 1: FirstLegalPlayer(1), 2: FirstLegalPlayer(2), 3: FirstLegalPlayer(3)}
    t = LocalTable(["a", "b", "c", "d"], seed=4, speed="instant", players=players)
    try:
        _run_until(t, lambda: t.game.phase == Phase.SETTLE)
    finally:
        t.close()
