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


class WeakDeclarer(ZpyFirstLegal):
    """Declares its weakest declaration when nothing stands, else plays first-legal."""

    def act(self, view):
        from engine.zhaopengyou import Declare

        if view.phase is ZPhase.DEAL and view.legal_declarations and view.standing is None:
            return Declare(self.seat, view.legal_declarations[0])
        return super().act(view)


def _until(app, pred, frames=4000, clock=None, dt=0.0):
    for _ in range(frames):
        if pred():
            return True
        if clock is not None:
            clock.t += dt
        app.step()
    raise AssertionError("never reached")


def test_declaration_window_counts_down_then_passes_for_you():
    """The deal asks you while you hold a declaration: Declare lights with a countdown on your
    plate and in the prompt; doing nothing passes when it runs out and the deal goes on."""
    clock = FakeClock()
    table = zpy_table(seed=2, clock=clock, declare_window_s=5.0)
    app = make_app(seats=["human"] + ["first"] * 4, table=table, hands=None, size=(800, 480), clock=clock)
    sc = app.scene
    _until(app, lambda: sc.view.my_turn and sc.view.phase is ZPhase.DEAL)
    app.step()
    assert button(app, "declare:0").enabled and button(app, "declare:pass").enabled
    assert sc.countdown == (0, 5) and "(5 s left)" in sc.message
    dealt = sc.view.cards_dealt
    clock.t += 2.0
    app.step()
    assert sc.countdown == (0, 3) and "(3 s left)" in sc.message
    clock.t += 3.1
    app.step()
    app.step()
    passes = [e for e in table.game.events if e.kind == "passed" and e.seat == 0]
    assert passes, "the window ran out without a pass"
    assert table.game.dealt > dealt or table.game.phase is not ZPhase.DEAL  # the deal went on
    app.close()


def test_deal_is_shown_card_by_card_at_normal_pace():
    """At a normal pace the hand grows card by card and nobody acts before the cards dealt so
    far are shown."""
    clock = FakeClock()
    table = zpy_table(seed=2, clock=clock, speed="normal")
    app = make_app(seats=["human"] + ["first"] * 4, table=table, hands=None, size=(800, 480), clock=clock,
                   speed="normal")
    sc = app.scene
    counts = []
    for _ in range(60):
        app.step()
        v = sc.view
        counts.append(v.cards_dealt)
        assert len(v.hand) == v.hand_sizes[0]
        assert sum(v.hand_sizes) == v.cards_dealt
        if table.showing_deal:
            assert v.to_act is None and v.phase is ZPhase.DEAL
            assert not button(app, "declare:none").enabled  # Declare shown dimmed meanwhile
        clock.t += table.card_s
    steps = [b - a for a, b in zip(counts, counts[1:])]
    # one card a frame (two when a frame is late); back to the start only on a redeal
    assert all(0 <= d <= 2 or b <= 2 for d, b in zip(steps, counts[1:])), str(counts)
    assert counts[0] < 10 and max(counts) > 40 and sum(1 for d in steps if d > 0) > 40
    app.close()


def test_friend_call_explains_a_refused_card():
    """As the dealer: a level card (a trump) cannot be called: Call is dimmed and the message
    line says why; a side-suit ace can."""
    table = zpy_table(seed=2)
    app = make_app(seats=["human"] + ["first"] * 4, table=table, hands=None, size=(800, 480))
    sc = app.scene
    for _ in range(4000):
        app.step()
        v = sc.view
        if v.my_turn and v.phase is ZPhase.DEAL:
            press(app, f"declare:{len(v.legal_declarations) - 1}")
        elif v.my_turn and v.phase is ZPhase.CALL_FRIEND:
            break
    else:
        raise AssertionError("never the dealer")
    v = sc.view
    press(app, f"fr:rank:{v.level}")
    app.step()
    assert not button(app, "fr:call").enabled
    assert sc.message.startswith("Not allowed:"), sc.message
    side = next(s for s in "SHCD" if s != v.trump)
    press(app, "fr:rank:A")
    press(app, f"fr:suit:{side}")
    press(app, "fr:nth:2")
    app.step()
    assert button(app, "fr:call").enabled and sc.message.startswith("Call your friend")
    press(app, "fr:call")
    app.step()
    from engine.cards import Card

    assert table.game.friend_call == (Card.parse("A" + side), 2)
    assert "Friend: 2nd" in " ".join(sc.notices) or any(k == "friend_call" for k, _s, _t in sc.callouts)
    app.close()


def test_counter_round_by_mouse_and_rebury():
    """Seat 1 declares weakly; you pass the deal, then counter (by touch) in the counter round: trump
    changes, you take the kitty and bury 7, and the hand plays to its end."""
    players = {1: WeakDeclarer(1), 2: ZpyFirstLegal(2), 3: ZpyFirstLegal(3), 4: ZpyFirstLegal(4)}
    table = zpy_table(seed=1, players=players)
    app = make_app(seats=["human"] + ["first"] * 4, table=table, hands=None, size=(800, 480))
    seen = set()
    sc = app.scene
    for _ in range(MAX_FRAMES):
        if not app.step():
            break
        v = sc.view
        if sc.show_settlement:
            break
        if not v.my_turn:
            continue
        if v.phase is ZPhase.DEAL:
            press(app, "declare:pass")
        elif v.phase is ZPhase.COUNTER:
            assert v.legal_declarations
            seen.add("counter")
            before = table.game.trump
            from tests.client_driver import tap

            tap(app, button(app, "declare:0").rect.center)  # a finger on the touch screen
            app.step()
            assert any(e.kind == "declared" and e.phase == "counter" and e.seat == 0 for e in table.game.events)
            assert table.game.trump != before or v.legal_declarations[0][0].rank >= 15
        elif v.phase is ZPhase.BURY:
            seen.add("bury")
            assert v.burier == 0 and table.game.dealer == 1
            if select_cards(app, v.hand[: v.bury_count]):
                press(app, "bury")
        elif v.phase is ZPhase.PLAY:
            play = next(iter(v.play_options()))
            if select_cards(app, play):
                press(app, "play")
    assert {"counter", "bury"} <= seen and sc.show_settlement
    assert table.game.burier == 0 and len(table.game.buried) == 7
    app.close()


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_zpy_hand_in_both_languages_at_1080p(lang):
    """The same hand at 1920×1080 in each language (the screens draw in zh too)."""
    table = zpy_table(seed=2)
    app = make_app(seats=["human"] + ["first"] * 4, table=table, hands=None, size=(1920, 1080), lang=lang)
    seen = drive_zpy_hand(app)
    assert {ZPhase.CALL_FRIEND, ZPhase.BURY, ZPhase.PLAY, "settle"} <= seen
    app.close()


def test_gpu_frames_equal_software_frames_over_a_zpy_hand():
    """A 找朋友 hand at 800×480 on the GPU texture path (SDL's renderer, dummy driver) shows
    exactly what the software path shows, after every partial update (the card-by-card deal,
    declarations, the friend call, the reveal, the settlement)."""
    from engine.zhaopengyou import ZPhase
    from tests.test_backend_pixels import Shadow, _gpu_app, _tick

    now = [10.0]
    table = zpy_table(seed=2, clock=lambda: now[0], speed="normal")
    app = _gpu_app(table, now, (800, 480))
    shadow = Shadow(app.backend, check_every=1)
    phases = set()
    try:
        sc = app.scene
        sc.toggle_auto(True)  # the basic AI plays your seat: declares, calls, buries, plays
        last = None
        for _ in range(12000):
            _tick(app, now, table)
            phase = sc.view.phase
            if phase != last:
                phases.add(phase)
                shadow.compare()
                last = phase
            if phase is ZPhase.SETTLE and not sc.flights:
                for _ in range(300):  # until the settlement shows, and a little more
                    _tick(app, now, table)
                    if sc.show_settlement and sc.settled_at is not None and now[0] - sc.settled_at > 0.5:
                        break
                break
        shadow.compare()
        assert {ZPhase.DEAL, ZPhase.CALL_FRIEND, ZPhase.BURY, ZPhase.PLAY, ZPhase.SETTLE} <= phases
        assert sc.show_settlement and shadow.partial > 50 and shadow.compared > 100
    finally:
        app.close()


def test_declare_and_call_by_keyboard():
    """Keys: 1 declares the first declaration offered, ↑/→/2 change the friend's rank, suit and
    copy, Enter calls; the call the engine receives is the one shown."""
    import pygame

    from tests.client_driver import key

    table = zpy_table(seed=2)
    app = make_app(seats=["human"] + ["first"] * 4, table=table, hands=None, size=(800, 480))
    sc = app.scene
    declared = False
    for _ in range(4000):
        app.step()
        v = sc.view
        if v.my_turn and v.phase is ZPhase.DEAL:
            key(app, pygame.K_1)
            declared = True
        elif v.my_turn and v.phase is ZPhase.CALL_FRIEND:
            break
    else:
        raise AssertionError("never the dealer")
    assert declared and any(e.kind == "declared" and e.seat == 0 for e in table.game.events)
    panel = sc.panels["call_friend"]
    app.step()
    assert panel.rank == "A" and panel.suit != sc.view.trump  # an allowed call to start from
    key(app, pygame.K_DOWN)  # A -> K
    key(app, pygame.K_2)
    while panel.error(sc.view):  # →: the next suit, until a side suit
        key(app, pygame.K_RIGHT)
    want = (panel.card(), 2)
    assert want[0].rank == 13
    key(app, pygame.K_RETURN)
    app.step()
    assert table.game.friend_call == want
    app.close()


def test_a_won_game_offers_a_new_match():
    """When the game is over (reach_a with levels next to A), the settlement's button is New
    match and it deals hand 1 of a fresh match, everyone back at level 2."""
    table = zpy_table(seed=2, zpy_options={"game_end": "reach_a"})
    table.match.levels = (13,) * 5  # everyone one level below A: whoever wins reaches it
    table.match.hand = table.game = table.match._deal()
    table._held.clear()
    table._start_hand()
    app = make_app(seats=["human"] + ["first"] * 4, table=table, hands=None, size=(800, 480))
    sc = app.scene
    for _ in range(MAX_FRAMES):
        app.step()
        v = sc.view
        if sc.show_settlement:
            break
        if v.my_turn:
            if v.phase in (ZPhase.DEAL, ZPhase.COUNTER):
                press(app, "declare:pass")
            elif v.phase is ZPhase.CALL_FRIEND:
                press(app, "fr:call")
            elif v.phase is ZPhase.BURY:
                if select_cards(app, v.hand[: v.bury_count]):
                    press(app, "bury")
            elif v.phase is ZPhase.PLAY:
                if select_cards(app, next(iter(v.play_options()))):
                    press(app, "play")
    assert sc.view.settlement.game_over
    assert button(app, "next").label == "New match"
    press(app, "next")
    app.step()
    new = app.table
    assert new is not table and new.match.hand_no == 1 and new.levels() == (2,) * 5
    assert new.zpy_options == {"game_end": "reach_a"}
    app.close()


def test_a_zpy_hand_in_the_window_is_recorded(tmp_path, monkeypatch):
    """With a career recorder the settled 找朋友 hand is recorded (once) for the profile."""
    from game import settings as settings_mod

    monkeypatch.setenv(settings_mod.CONFIG_ENV, str(tmp_path))
    seen = []

    class Rec:
        def zpy_hand_finished(self, match, seats=None, match_id=None):
            seen.append((match.hand.hand_no, tuple(seats), match.hand.settlement is not None))

    table = zpy_table(seed=2)
    app = make_app(seats=["human"] + ["first"] * 4, table=table, hands=None, size=(800, 480))
    app.options.recorder = Rec()
    drive_zpy_hand(app)
    assert seen == [(1, ("human", "first", "first", "first", "first"), True)]
    app.close()
