"""An illegal play is refused with the engine's reason, in the UI language."""
from __future__ import annotations

import pytest

pytest.importorskip("pygame")

from engine.state import Phase  # noqa: E402
from game import i18n  # noqa: E402
from game.table import FirstLegalPlayer, LocalTable  # noqa: E402
from game.text import reason_text  # noqa: E402
from tests.client_driver import make_app, press, select_cards  # noqa: E402


def _to_my_lead(app):
    """Bid, pick trump, bury by clicks until the human (dealer) leads the first trick."""
    for _ in range(800):
        app.step()
        v = app.scene.view
        if not v.my_turn:
            continue
        if v.phase == Phase.BID:
            press(app, f"bid:{v.legal_bids()[0]}")
        elif v.phase == Phase.TRUMP:
            press(app, "trump:S")
        elif v.phase == Phase.BURY:
            if select_cards(app, v.hand[: v.bury_count]):
                press(app, "bury")
        elif v.phase == Phase.PLAY:
            return v
    raise AssertionError("never reached the lead")


def _mixed_lead(v):
    ctx = v.ctx
    first = v.hand[0]
    other = next(c for c in v.hand if ctx.suit_of(c) != ctx.suit_of(first))
    return (first, other)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_illegal_lead_shows_engine_reason(lang):
    players = {s: FirstLegalPlayer(s) for s in (1, 2, 3)}
    table = LocalTable(["human", "first", "first", "first"], seed=21, speed="instant", players=players)
    app = make_app(table=table, lang=lang)
    try:
        v = _to_my_lead(app)
        cards = _mixed_lead(v)
        expected_engine = v.play_options().explain(cards)
        assert expected_engine  # the engine refuses it
        for _ in range(10):
            if select_cards(app, cards):
                break
        press(app, "play")
        shown = app.scene.message
        assert shown == reason_text(expected_engine)
        if lang == "zh":
            assert shown == i18n._("a lead must be cards of one suit (or all trumps)")
            assert shown != expected_engine
        else:
            assert expected_engine.lower() in shown.lower()
        # still our turn, cards still raised, hand unchanged
        assert app.scene.view.my_turn and app.scene.view.phase == Phase.PLAY
        assert len(app.scene.hand.selected) == 2
    finally:
        app.close()


def test_wrong_follow_count_reason():
    """Following with the wrong number of cards: the reason names the count."""
    players = {s: FirstLegalPlayer(s) for s in (1, 2, 3)}
    table = LocalTable(["human", "first", "first", "first"], seed=8, speed="instant", players=players)
    app = make_app(table=table, lang="en")
    try:
        v = _to_my_lead(app)
        # lead legal plays until someone else wins a trick and we have to follow
        for _ in range(3000):
            app.step()
            v = app.scene.view
            if v.phase != Phase.PLAY or (v.my_turn and v.lead is not None):
                break
            if v.my_turn and select_cards(app, next(iter(v.play_options()))):
                press(app, "play")
        assert v.lead is not None
        n = len(v.lead) + 1
        cards = v.hand[:n]
        for _ in range(n + 2):
            if select_cards(app, cards):
                break
        press(app, "play")
        assert app.scene.message == reason_text(v.play_options().explain(cards))
        assert str(len(v.lead)) in app.scene.message
    finally:
        app.close()


def test_failed_throw_is_announced_with_forced_cards():
    """A ThrowFailed event from the table shows who failed and the forced cards, in words and cards."""
    from engine.cards import parse_cards
    from engine.events import ThrowFailed

    players = {s: FirstLegalPlayer(s) for s in (1, 2, 3)}
    table = LocalTable(["human", "first", "first", "first"], seed=2, speed="instant", players=players)
    app = make_app(table=table, lang="zh")
    try:
        app.step()
        forced = parse_cards("9D")
        table._outbox.append(ThrowFailed(1, parse_cards("AD KD 9D"), forced, 2))
        app.step()
        notes = app.scene.notices
        assert any("下家" in n and "甩牌失败" in n and "♦9" in n for n in notes), notes
        toast = next(t for t in app.scene.toasts if t.notice and t.cards)
        assert tuple(toast.cards) == tuple(forced)
    finally:
        app.close()
