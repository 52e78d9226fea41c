"""The real client plays full hands driven only by mouse events on its own buttons and cards."""
from __future__ import annotations

import pytest

pytest.importorskip("pygame")

from engine.state import Phase  # noqa: E402
from game.table import FirstLegalPlayer, LocalTable  # noqa: E402
from tests.client_driver import button, make_app, press, select_cards  # noqa: E402

MAX_FRAMES = 6000


def drive_one_hand(app, bid_high=True):
    """Play the local seat by clicks until the app exits; returns what was exercised."""
    seen = set()
    for _ in range(MAX_FRAMES):
        if not app.step():
            break
        sc = app.scene
        v = sc.view
        if sc.show_settlement:
            seen.add("settle")
            press(app, "next")
            continue
        if not v.my_turn:
            continue
        seen.add(v.phase)
        if v.phase == Phase.BID:
            legal = v.legal_bids()
            press(app, f"bid:{legal[-1]}" if (legal and bid_high) else "bid:pass")
        elif v.phase == Phase.TRUMP:
            assert [b.key for b in sc.buttons if b.key.startswith("trump:")] == \
                ["trump:S", "trump:H", "trump:C", "trump:D"]
            press(app, "trump:H")
        elif v.phase == Phase.BURY:
            target = v.hand[-v.bury_count:]
            if select_cards(app, target):
                assert button(app, "bury").enabled
                press(app, "bury")
            else:
                b = button(app, "bury")
                assert b.enabled == (len(sc.hand.selected) == v.bury_count)
        elif v.phase == Phase.PLAY:
            play = next(iter(v.play_options()))
            if select_cards(app, play):
                press(app, "play")
    else:
        raise AssertionError("the hand did not finish within the frame limit")
    return seen


def test_full_hand_as_dealer_by_mouse():
    """Others always pass, so the human deals: bid, trump, bury, every trick, settlement, Next."""
    players = {s: FirstLegalPlayer(s) for s in (1, 2, 3)}
    table = LocalTable(["human", "first", "first", "first"], seed=11, speed="instant", players=players)
    app = make_app(table=table, hands=1)
    seen = drive_one_hand(app)
    assert {Phase.BID, Phase.TRUMP, Phase.BURY, Phase.PLAY, "settle"} <= seen
    assert app.exit_code == 0
    assert app.hands_done == 1 and len(app.results) == 1
    s = table.game.settlement
    assert s.dealer == 0
    assert table.game.trump == "H"
    assert all(n == 0 for n in table.game.view(None).hand_sizes)
    assert app.results[0].startswith("hand 1: dealer seat 0 bid ")


def test_two_hands_against_basic_ai_by_mouse():
    """Against the real AIs (whatever seat deals), through two hands and the Next hand button."""
    app = make_app(seed=5, hands=2)
    seen = drive_one_hand(app)
    assert Phase.PLAY in seen and "settle" in seen
    assert app.hands_done == 2 and app.exit_code == 0
    assert [r.split(":")[0] for r in app.results] == ["hand 1", "hand 2"]
    app.close()


def test_trump_countdown_times_out_to_spades():
    """Nobody picks: after 30 s the client applies ChooseTrump(seat, 'S', timed_out=True)."""
    now = [1000.0]
    players = {s: FirstLegalPlayer(s) for s in (1, 2, 3)}
    table = LocalTable(["human", "first", "first", "first"], seed=3, speed="instant", players=players,
                       clock=lambda: now[0])
    app = make_app(table=table, clock=lambda: now[0])
    for _ in range(500):
        app.step()
        v = app.scene.view
        if v.phase == Phase.BID and v.my_turn:
            press(app, f"bid:{v.legal_bids()[0]}")
        elif v.phase == Phase.TRUMP:
            break
    assert app.scene.view.phase == Phase.TRUMP
    app.step()
    assert "30 s" in app.scene.message
    now[0] += 12
    app.step()
    assert "18 s" in app.scene.message
    now[0] += 19
    for _ in range(3):
        app.step()
    trump_events = [e for e in table.game.events if e.kind == "trump_chosen"]
    assert trump_events and trump_events[0].suit == "S" and trump_events[0].timed_out
    assert app.scene.view.phase == Phase.BURY
    app.close()
