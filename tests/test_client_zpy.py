"""找朋友 at the client's table: a whole hand driven by real pygame events (mouse clicks on the
table's own buttons and cards), five seats, every phase; the match goes on to the next hand."""
from __future__ import annotations

import pytest

pytest.importorskip("pygame")

from engine.zhaopengyou import ZPhase  # noqa: E402
from game.zpy_table import ZpyFirstLegal, ZpyLocalTable  # noqa: E402
from tests.client_driver import button, make_app, press, select_cards  # noqa: E402

MAX_FRAMES = 8000


class FakeClock:
    """A clock the test moves by hand (seconds)."""

    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


def zpy_table(seed=2, *, clock=None, players=None, speed="instant", **kw):
    """A 找朋友 table with the human in seat 0; the others pass every window and play the first
    legal card unless ``players`` says otherwise (so the human deals when it can declare)."""
    players = players if players is not None else {s: ZpyFirstLegal(s) for s in range(1, 5)}
    extra = {"clock": clock} if clock is not None else {}
    return ZpyLocalTable(["human", "first", "first", "first", "first"], seed=seed, speed=speed,
                         players=players, user_plugins=False, **extra, **kw)


def drive_zpy_hand(app, *, counter=True, hands=1):
    """Play seat 0 by clicks until ``hands`` hands are settled and Next is pressed; returns the
    phases (and actions) exercised."""
    seen = set()
    done = 0
    for _ in range(MAX_FRAMES):
        if not app.step():
            break
        sc = app.scene
        if sc is None:
            break
        v = sc.view
        if sc.show_settlement:
            seen.add("settle")
            done += 1
            press(app, "next")
            if done >= hands:
                app.step()
                break
            continue
        if not v.my_turn:
            continue
        seen.add(v.phase)
        if v.phase is ZPhase.DEAL:
            keys = [b.key for b in sc.buttons if b.key.startswith("declare:")]
            assert "declare:pass" in keys and "declare:0" in keys, keys
            press(app, f"declare:{len(v.legal_declarations) - 1}")  # the strongest on offer
            seen.add("declared")
        elif v.phase is ZPhase.COUNTER:
            if counter and v.legal_declarations:
                press(app, "declare:0")
                seen.add("countered")
            else:
                press(app, "declare:pass")
        elif v.phase is ZPhase.CALL_FRIEND:
            from engine.zhaopengyou import legal_friend_calls

            card, nth = legal_friend_calls(v.trump, v.level, v.ruleset.options)[-1]
            rank = {11: "J", 12: "Q", 13: "K", 14: "A"}.get(card.rank, str(card.rank))
            press(app, f"fr:rank:{rank}")
            if card.suit is not None:
                press(app, f"fr:suit:{card.suit}")
            press(app, f"fr:nth:{nth}")
            assert button(app, "fr:call").enabled
            press(app, "fr:call")
        elif v.phase is ZPhase.BURY:
            target = v.hand[: v.bury_count]
            if select_cards(app, target):
                press(app, "bury")
        elif v.phase is ZPhase.PLAY:
            play = next(iter(v.play_options()))
            if select_cards(app, play):
                press(app, "play")
    else:
        raise AssertionError("the hand did not finish within the frame limit")
    return seen


def test_zpy_hand_as_dealer_by_mouse():
    """Seat 0 declares in the deal, calls a friend, buries 7, plays every trick; the settlement
    shows and Next hand deals hand 2 of the match."""
    table = zpy_table(seed=2)
    app = make_app(seats=["human"] + ["first"] * 4, table=table, hands=None, size=(800, 480))
    seen = drive_zpy_hand(app)
    assert {ZPhase.DEAL, "declared", ZPhase.CALL_FRIEND, ZPhase.BURY, ZPhase.PLAY, "settle"} <= seen
    first = table.match.results[0]
    assert table.settlements[0] is first and table.game.hand_no == 2 and table.hand_no == 2
    assert app.results and app.results[0].startswith("hand 1: dealer 0")
    assert table.levels() == tuple(first.levels)
    app.close()
