"""The table experience: keyboard-only and touch-only hands, hint, auto-play, last trick, card
counter, skipping animations, flourishes, layout from 800×480 to 4K, idle frames.

Everything drives the real client (``game.app.App``) with posted pygame events; every loop
is bounded in frames; nothing here measures time.
"""
from __future__ import annotations

from collections import Counter

import pytest

pygame = pytest.importorskip("pygame")

from engine.cards import parse_cards  # noqa: E402
from engine.state import Phase  # noqa: E402
from game import i18n  # noqa: E402
from game.app import App, Options  # noqa: E402
from game.helpers import card_counter, seen_cards  # noqa: E402
from game.input import HOLD_S  # noqa: E402
from game.layout import BOTTOM, RIGHT, Layout  # noqa: E402
from game.table import FirstLegalPlayer, LocalTable  # noqa: E402
from tests.client_driver import (RED_FIVE_DEAL, button, crafted_table, finger, key, make_app, press,  # noqa: E402
                                 select_cards, tap)

K = pygame


@pytest.fixture(autouse=True)
def _english_after():
    yield
    i18n.set_language("en")


def _first_table(seed=11, **kw):
    players = {s: FirstLegalPlayer(s) for s in (1, 2, 3)}
    return LocalTable(["human", "first", "first", "first"], seed=seed, speed=kw.pop("speed", "instant"),
                      players=players, **kw)


def _indices_for(hand, cards):
    """Indices of the multiset ``cards`` in ``hand`` (first copies first)."""
    todo = list(cards)
    out = []
    for i, c in enumerate(hand):
        if c in todo:
            todo.remove(c)
            out.append(i)
    return out


# -- keyboard ----------------------------------------------------------------------------------------
def _key_select(app, want: list[int]) -> bool:
    """One key press towards raising exactly ``want`` with arrows and Space; True when done."""
    hand = app.scene.hand
    extra = sorted(hand.selected - set(want))
    missing = [i for i in want if i not in hand.selected]
    todo = (extra + missing)[:1]
    if not todo:
        return True
    target = todo[0]
    cur = hand.cursor
    if cur is None or cur < target:
        key(app, K.K_RIGHT)
    elif cur > target:
        key(app, K.K_LEFT)
    else:
        key(app, K.K_SPACE)
    return False


def test_keyboard_only_full_hand():
    """Bid with 1, trump with 2 (♥), bury and play with arrows + Space + Enter, Enter at the end."""
    table = _first_table(seed=11)
    app = make_app(table=table, hands=1, max_frames=30000)
    seen = set()
    for _ in range(25000):
        if not app.running:
            break
        sc = app.scene
        v = sc.view
        if sc.show_settlement:
            seen.add("settle")
            key(app, K.K_RETURN)
            continue
        if not v.my_turn:
            app.step()
            continue
        seen.add(v.phase)
        if v.phase == Phase.BID:
            key(app, K.K_1)
        elif v.phase == Phase.TRUMP:
            key(app, K.K_2)
        elif v.phase in (Phase.BURY, Phase.PLAY):
            cards = v.hand[-v.bury_count:] if v.phase == Phase.BURY else next(iter(v.play_options()))
            if _key_select(app, _indices_for(sc.hand.cards, cards)):
                key(app, K.K_RETURN)
    else:
        raise AssertionError("the hand did not finish within the frame limit")
    assert {Phase.BID, Phase.TRUMP, Phase.BURY, Phase.PLAY, "settle"} <= seen
    assert app.hands_done == 1 and app.exit_code == 0
    assert table.game.trump == "H" and table.game.settlement.dealer == 0


def test_number_keys_pick_bids_and_pass():
    table = _first_table(seed=11)
    app = make_app(table=table)
    try:
        for _ in range(50):
            app.step()
            if app.scene.view.my_turn:
                break
        legal = app.scene.view.legal_bids()
        key(app, K.K_3)
        assert [b for b in table.game.view(0).bids if b[0] == 0] == [(0, legal[2])]
    finally:
        app.close()
    table = _first_table(seed=11)
    app = make_app(table=table)
    try:
        for _ in range(50):
            app.step()
            if app.scene.view.my_turn:
                break
        key(app, K.K_p)
        assert [b for b in table.game.view(0).bids if b[0] == 0] == [(0, None)]
    finally:
        app.close()


# -- touch -------------------------------------------------------------------------------------------
def _tap_button(app, key_name):
    b = button(app, key_name)
    assert b.enabled and app.window.get_rect().contains(b.rect), (key_name, b.rect)
    return tap(app, b.rect.center)


def test_touch_only_full_hand_800x480():
    """Taps on buttons and cards, a drag across the hand to raise the cards to bury."""
    table = _first_table(seed=11)
    app = make_app(table=table, size=(800, 480), hands=1, max_frames=30000)
    seen = set()
    for _ in range(20000):
        if not app.running:
            break
        sc = app.scene
        v = sc.view
        if sc.show_settlement:
            seen.add("settle")
            _tap_button(app, "next")
            continue
        if not v.my_turn:
            app.step()
            continue
        seen.add(v.phase)
        if v.phase == Phase.BID:
            _tap_button(app, f"bid:{v.legal_bids()[0]}")
        elif v.phase == Phase.TRUMP:
            _tap_button(app, "trump:S")
        elif v.phase == Phase.BURY:
            n, k = len(sc.hand.cards), v.bury_count
            if sc.hand.selected:
                tap(app, sc.hand.click_point(sc.layout, min(sc.hand.selected)))
                continue
            # one finger down on the first card to bury, across the others, up on the last
            pts = [sc.hand.click_point(sc.layout, i) for i in range(n - k, n)]
            finger(app, "down", pts[0])
            app.step()
            for p in pts[1:]:
                finger(app, "move", p)
            finger(app, "up", pts[-1])
            app.step()
            assert sc.hand.selected == set(range(n - k, n))
            _tap_button(app, "bury")
        elif v.phase == Phase.PLAY:
            want = _indices_for(sc.hand.cards, next(iter(v.play_options())))
            extra = sorted(sc.hand.selected - set(want))
            missing = [i for i in want if i not in sc.hand.selected]
            todo = (extra + missing)[:1]
            if todo:
                tap(app, sc.hand.click_point(sc.layout, todo[0]))
            else:
                _tap_button(app, "play")
    else:
        raise AssertionError("the hand did not finish within the frame limit")
    assert {Phase.BID, Phase.TRUMP, Phase.BURY, Phase.PLAY, "settle"} <= seen
    assert app.hands_done == 1 and app.exit_code == 0


def _to_phase(app, phase, bid=True):
    """Bid (lowest), pick ♥, bury the first cards by clicks until the human acts in ``phase``."""
    for _ in range(3000):
        app.step()
        v = app.scene.view
        if v.phase == phase and v.my_turn and not app.scene.dealing:
            return v
        if not v.my_turn or app.scene.dealing:
            continue
        if v.phase == Phase.BID:
            press(app, f"bid:{v.legal_bids()[0]}" if bid else "bid:pass")
        elif v.phase == Phase.TRUMP:
            press(app, "trump:H")
        elif v.phase == Phase.BURY:
            if select_cards(app, v.hand[: v.bury_count]):
                press(app, "bury")
        elif v.phase == Phase.PLAY:
            if select_cards(app, next(iter(v.play_options()))):
                press(app, "play")
    raise AssertionError(f"never reached {phase}")


def test_touch_echo_of_mouse_is_ignored():
    """SDL mirrors a touch as mouse events: the card must toggle once, not twice."""
    app = make_app(table=_first_table(seed=11))
    try:
        _to_phase(app, Phase.BURY)
        sc = app.scene
        p = sc.hand.click_point(sc.layout, 3)
        finger(app, "down", p)
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=p, button=1, touch=True))
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=p, button=1, touch=True))
        finger(app, "up", p)
        app.step()
        assert sc.hand.selected == {3}
    finally:
        app.close()


def test_mouse_drag_raises_several_cards():
    app = make_app(table=_first_table(seed=11))
    try:
        _to_phase(app, Phase.BURY)
        sc = app.scene
        pts = [sc.hand.click_point(sc.layout, i) for i in (2, 3, 4, 5)]
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pts[0], button=1))
        for p in pts[1:]:
            pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=p, rel=(1, 0), buttons=(1, 0, 0)))
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pts[-1], button=1))
        app.step()
        assert sc.hand.selected == {2, 3, 4, 5}
        # dragging back over raised cards from a raised card lowers them
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=sc.hand.click_point(sc.layout, 5), button=1))
        app.step()
        for i in (4, 3):
            pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=sc.hand.click_point(sc.layout, i),
                                                 rel=(-1, 0), buttons=(1, 0, 0)))
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(1, 1), button=1))
        app.step()
        assert sc.hand.selected == {2}
    finally:
        app.close()


# -- helpers -----------------------------------------------------------------------------------------
def test_hint_raises_a_legal_play_and_enter_plays_it():
    table = _first_table(seed=8)
    app = make_app(table=table)
    try:
        _to_phase(app, Phase.PLAY)
        plays = 0
        for _ in range(3000):
            app.step()
            v = app.scene.view
            if v.phase != Phase.PLAY:
                break
            if not v.my_turn:
                continue
            key(app, K.K_h)
            chosen = app.scene.hand.selected_cards()
            assert chosen and v.play_options().is_legal(chosen), chosen
            before = len(table.game.view(0).hand)
            key(app, K.K_RETURN)
            assert len(table.game.view(0).hand) == before - len(chosen)
            plays += 1
            if plays >= 4:
                break
        assert plays >= 4
    finally:
        app.close()


def test_hint_in_bidding_and_trump_highlights_a_button():
    app = make_app(table=_first_table(seed=11))
    try:
        _to_phase(app, Phase.BID)
        act = app.scene.hint()
        app.step()
        want = f"bid:{act.amount}" if act.amount is not None else "bid:pass"
        assert button(app, want).selected
        assert app.scene.message.startswith("Suggested")
    finally:
        app.close()


def test_auto_play_finishes_the_hand_for_the_human():
    table = _first_table(seed=5)
    app = make_app(table=table, hands=1)
    try:
        app.step()
        key(app, K.K_a)
        assert app.scene.auto and button(app, "help:auto").selected
        for _ in range(5000):
            app.step()
            if app.scene.show_settlement:
                break
        assert app.scene.show_settlement and table.game.phase == Phase.SETTLE
        assert all(n == 0 for n in table.game.view(None).hand_sizes)
        key(app, K.K_a)
        assert not app.scene.auto
    finally:
        app.close()


def test_auto_play_marker_and_prompt():
    app = make_app(table=_first_table(seed=11, speed="normal"), speed="normal", clock=lambda: 0.0)
    try:
        app.step()
        app.scene.toggle_auto(True)
        app.step()
        assert "Auto-play is on" in app.scene.message
        # the local plate carries the marker: its pixels differ with auto-play off
        plate = app.scene.layout.plates[BOTTOM]
        on = app.window.subsurface(plate).copy()
        app.scene.toggle_auto(False)
        app.step()
        off = app.window.subsurface(plate).copy()
        assert pygame.image.tobytes(on, "RGB") != pygame.image.tobytes(off, "RGB")
    finally:
        app.close()


def test_last_trick_tap_toggles_and_hold_shows():
    now = [100.0]
    table = _first_table(seed=8, clock=lambda: now[0])
    app = make_app(table=table, clock=lambda: now[0])
    try:
        _to_phase(app, Phase.PLAY)
        for _ in range(3000):
            app.step()
            v = app.scene.view
            if v.tricks and v.my_turn:
                break
            if v.my_turn and select_cards(app, next(iter(v.play_options()))):
                press(app, "play")
        assert app.scene.view.last_trick is not None
        # a tap of L toggles the view on, the next tap off
        key(app, K.K_l)
        assert app.scene.show_last and button(app, "help:last").selected
        assert app.window.get_rect().contains(app.scene.last_trick_box())
        key(app, K.K_l)
        assert not app.scene.show_last
        # held: shown while down, hidden on release
        key(app, K.K_l, up=False)
        assert app.scene.show_last
        now[0] += HOLD_S + 0.1
        pygame.event.post(pygame.event.Event(pygame.KEYUP, key=K.K_l, mod=0, unicode="", scancode=0))
        app.step()
        assert not app.scene.show_last
        # the button works as a toggle too
        press(app, "help:last")
        assert app.scene.show_last
    finally:
        app.close()


def test_card_counter_counts_what_is_unseen():
    table = _first_table(seed=8)
    app = make_app(table=table)
    try:
        _to_phase(app, Phase.PLAY)
        for _ in range(3000):
            app.step()
            v = app.scene.view
            if len(v.tricks) >= 4 and v.my_turn:
                break
            if v.my_turn and select_cards(app, next(iter(v.play_options()))):
                press(app, "play")
        v = app.scene.view
        rows = {r.key: r for r in card_counter(v)}
        seen = Counter(v.played_cards()) + Counter(v.hand) + Counter(v.buried or ())
        for key_, text in (("red5", "5H"), ("BJ", "BJ"), ("SJ", "SJ"), ("3T", "3H"), ("3P", "3D"), ("2T", "2H"),
                           ("A:S", "AS"), ("A:C", "AC")):
            c = parse_cards(text)[0]
            assert rows[key_].left == 2 - seen[c], key_
            assert rows[key_].total == 2
        side2 = sum(2 - seen[c] for c in parse_cards("2S 2C 2D"))
        assert rows["2O"].left == side2 and rows["2O"].total == 6
        assert seen_cards(v) == seen
        assert len(v.tricks) >= 4
    finally:
        app.close()


def test_card_counter_on_crafted_deal():
    table = crafted_table(*RED_FIVE_DEAL)
    app = make_app(table=table)
    try:
        _to_phase(app, Phase.BID)
        assert {r.key: r.left for r in card_counter(app.scene.view)}["red5"] == 1  # one ♥5 in hand
    finally:
        app.close()


# -- animations ------------------------------------------------------------------------------------
def _normal_app(table, now, size=(1280, 720), lang="en"):
    return App(Options(seats=["human", "first", "first", "first"], size=size, lang=lang, speed="normal",
                       audio=False, save_settings=False, fps=0, user_plugins=False, max_frames=20000),
               table=table, clock=lambda: now[0])


def _tick(app, now, table, dt=1 / 30):
    import time

    now[0] += dt
    app.step()
    if table.busy:  # let the AI worker answer before the next simulated frame
        time.sleep(0.001)


def test_skip_key_finishes_the_deal_and_flights():
    now = [50.0]
    table = _first_table(seed=11, speed="normal", clock=lambda: now[0])
    app = _normal_app(table, now)
    try:
        app.step()
        sc = app.scene
        assert sc.dealing and any(f.key[0] == "deal" for f in sc.flights)
        assert sc.hand.visible is not None and sc.hand.visible < len(sc.hand.cards)
        key(app, K.K_s)
        assert not sc.dealing and not sc.flights and sc.hand.visible is None
        # a bid call-out is skipped too
        for _ in range(400):
            _tick(app, now, table)
            if sc.view.my_turn:
                break
        press(app, f"bid:{sc.view.legal_bids()[0]}")
        assert sc.timeline.find("callout")
        key(app, K.K_s)
        assert not sc.timeline.busy()
    finally:
        app.close()


def test_red_five_capture_and_ruff_get_flourishes():
    """The crafted deal: the human leads ♥5 and captures seat 1's ♥5, then seat 2 ruffs ♣4."""
    now = [10.0]
    table = crafted_table(*RED_FIVE_DEAL, speed="normal", clock=lambda: now[0])
    app = _normal_app(table, now)
    sc = app.scene
    bursts = set()
    try:
        for _ in range(3000):
            _tick(app, now, table)
            bursts |= {a.key for a in sc.timeline if a.key[0] in ("red_five", "ruff")}
            v = sc.view
            if v.phase == Phase.PLAY and v.trick_no == 3:
                break
            if not v.my_turn or sc.dealing or sc.timeline.find("sweep_wait"):
                continue
            if v.phase == Phase.BID:
                press(app, f"bid:{v.legal_bids()[0]}")
            elif v.phase == Phase.TRUMP:
                press(app, "trump:H")
            elif v.phase == Phase.BURY:
                if select_cards(app, parse_cards(RED_FIVE_DEAL[1])):
                    press(app, "bury")
            elif v.phase == Phase.PLAY:
                lead = parse_cards("5H" if v.trick_no == 1 else "4C")
                if select_cards(app, lead):
                    press(app, "play")
        assert ("red_five", 1) in sc.flourishes and ("red_five", 1) in bursts
        assert ("ruff", 2) in sc.flourishes and ("ruff", 2) in bursts
        t1, t2 = sc.view.tricks[:2]
        assert t1.winner == 0 and t2.winner == 2
        assert sc.view.red_fives == ((1, 0),)
        # the points of trick 1 counted up to the dealer
        for _ in range(200):
            _tick(app, now, table)
            if not sc.timeline.busy():
                break
        assert sc.points_shown == list(sc.view.points_won)
    finally:
        app.close()


def test_played_cards_fly_and_trick_is_swept_to_winner():
    now = [10.0]
    table = _first_table(seed=8, speed="normal", clock=lambda: now[0])
    app = _normal_app(table, now)
    sc = app.scene
    kinds = set()
    try:
        key(app, K.K_s)
        app.scene.toggle_auto(True)
        for _ in range(4000):
            _tick(app, now, table)
            kinds |= {a.key[0] for a in sc.timeline}
            if len(sc.view.tricks) >= 2 and not sc.timeline.busy():
                break
        assert {"play", "sweep", "sweep_wait"} <= kinds
        assert any(kind == "bid" for kind, _seat, _text in sc.callouts)
        assert sc.points_shown == list(sc.view.points_won)
    finally:
        app.close()


def test_animations_off_means_no_movement():
    now = [10.0]
    table = _first_table(seed=8, speed="normal", clock=lambda: now[0])
    app = App(Options(seats=["human", "first", "first", "first"], size=(1280, 720), lang="en", speed="normal",
                      audio=False, save_settings=False, fps=0, user_plugins=False, animations="off"),
              table=table, clock=lambda: now[0])
    try:
        app.scene.toggle_auto(True)
        for _ in range(2000):
            _tick(app, now, table)
            assert not app.scene.timeline.busy()
            if len(app.scene.view.tricks) >= 1:
                break
        assert app.scene.view.tricks
    finally:
        app.close()


# -- layout and drawing ------------------------------------------------------------------------------
@pytest.mark.parametrize("size", [(800, 480), (3840, 2160)])
def test_layout_extremes_nothing_off_screen(size):
    lay = Layout(*size, max_hand=33)
    for name, r in lay.all_rects().items():
        assert lay.screen.contains(r), (name, r)
    for a, b in (("counter", "action_bar"), ("counter", "hand_area"), ("tools", f"plate{RIGHT}"),
                 ("counter", f"plate{RIGHT}"), ("message", f"plate{BOTTOM}")):
        ra, rb = lay.all_rects()[a], lay.all_rects()[b]
        assert not ra.colliderect(rb), (a, b, ra, rb)
    # hand corners readable: every card shows at least 27% of its width
    xs = [r.x for r in lay.hand_rects(33)]
    assert min(b - a for a, b in zip(xs, xs[1:])) >= 0.27 * lay.card_w


@pytest.mark.parametrize("size", [(800, 480), (3840, 2160)])
def test_real_scene_at_extreme_sizes(size):
    table = _first_table(seed=4)
    app = make_app(table=table, size=size, lang="zh")
    screen = app.window.get_rect()
    try:
        v = _to_phase(app, Phase.PLAY)
        app.scene.toggle_last_trick(True)
        app.step()
        sc = app.scene
        assert screen.size == size
        for b in sc.buttons:
            assert screen.contains(b.rect), (b.key, b.rect)
        for r in sc.hand.rects(sc.layout):
            assert screen.contains(r)
        assert screen.contains(sc.last_trick_box())
        # hand cards are drawn at the layout's size (rendered for it, not scaled)
        img = sc.renderer.face(v.hand[0], sc.layout.card_w, sc.layout.card_h)
        assert img.get_size() == (sc.layout.card_w, sc.layout.card_h)
    finally:
        app.close()


def test_trumps_are_marked_in_the_hand():
    app = make_app(table=_first_table(seed=11))
    try:
        v = _to_phase(app, Phase.BURY)
        hand = app.scene.hand
        trumps = [i for i in range(len(hand.cards)) if hand.is_trump(i)]
        assert trumps and len(trumps) < len(hand.cards)
        assert all(v.ctx.is_trump(hand.cards[i]) for i in trumps)
        r = app.scene.renderer
        c = hand.cards[trumps[0]]
        a = r.face(c, 80, 114, True)
        b = r.face(c, 80, 114, False)
        assert pygame.image.tobytes(a, "RGB") != pygame.image.tobytes(b, "RGB")
    finally:
        app.close()


def test_idle_table_draws_nothing():
    app = make_app(table=_first_table(seed=11))
    try:
        _to_phase(app, Phase.BID)
        for _ in range(30):  # let the card prewarming finish
            app.step()
        assert app.scene.idle
        before = app.backend.frames_presented
        for _ in range(20):
            app.step()
        assert app.backend.frames_presented == before
        assert app.scene.draw(app.window) == []
        # a hover change redraws only that button
        b = button(app, "help:hint")
        pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=b.rect.center, rel=(0, 0), buttons=(0, 0, 0)))
        app.step()
        assert app.backend.frames_presented == before + 1
    finally:
        app.close()


def test_escape_posts_the_menu_request_without_a_callback():
    from game.input import MENU_EVENT
    from game.pacing import pace
    from game.scenes.table_scene import TableScene

    pygame.init()
    table = _first_table(seed=11)
    try:
        sc = TableScene(table, (800, 480), pace("instant"))
        pygame.event.clear()
        sc.handle_event(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0))
        assert [e.source for e in pygame.event.get(MENU_EVENT)] == ["table"]
        called = []
        sc.on_escape = lambda: called.append(1)
        sc.handle_event(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0))
        assert called == [1]
    finally:
        table.close()


# -- refusals by code ----------------------------------------------------------------------------------
def _engine_refusals():
    """Real refusals from the engine (PlayOptions.explain and Game.apply), one per code."""
    from engine.order import context
    from engine.state import Bid, Bury, ChooseTrump, Game, IllegalAction, Play
    from engine.tricks import PlayOptions

    ctx = context("S")
    hand = parse_cards("4H 4H 6H 9D 10D KC")
    out = [
        PlayOptions(hand, None, ctx).explain(parse_cards("4H 9D")),                 # mixed_lead
        PlayOptions(hand, None, ctx).explain(parse_cards("AH")),                    # not_held
        PlayOptions(hand, parse_cards("7H 7H"), ctx).explain(parse_cards("4H 6H")),  # pair_owed
        PlayOptions(hand, parse_cards("7H"), ctx).explain(parse_cards("9D")),       # follow_suit
        PlayOptions(hand, parse_cards("7H 7H"), ctx).explain(parse_cards("4H")),    # wrong_count
        PlayOptions(hand, parse_cards("7H 8H 9H 10H"), ctx).explain(parse_cards("4H 4H 9D 10D")),  # play_all_suit
    ]
    g = Game.new(seed=3, first_bidder=0)
    for action in (Bid(1, None), Bid(0, 5), Play(0, ()), Bury(0, ()), ChooseTrump(0, "S")):
        try:
            g.apply(action)
        except IllegalAction as exc:
            out.append(exc.reason)
    return out


def test_refusals_are_translated_by_code():
    from game.text import REFUSALS, reason_text, refusal_text

    reasons = _engine_refusals()
    codes = {r.code for r in reasons}
    assert {"mixed_lead", "not_held", "pair_owed", "follow_suit", "wrong_count", "play_all_suit",
            "not_your_turn", "bad_bid", "wrong_phase"} <= codes
    i18n.set_language("zh")
    for r in reasons:
        shown = reason_text(r)
        assert shown and shown != str(r), r.code
        assert not any(w in shown for w in ("you", "led", "play", "hold", "bid")), (r.code, shown)
    # every code the engine documents has a Chinese message that formats with its parameters
    for code, msgid in REFUSALS.items():
        assert i18n._(msgid) != msgid, code
    assert "70" in refusal_text("bad_bid", {"amount": 70, "options": [80, 85]})
    assert "♥" in refusal_text("follow_suit", {"suit": "H"})
    assert "主牌" in refusal_text("follow_suit", {"suit": "trump"})
    assert "拖拉机" in refusal_text("tractor_owed", {"suit": "S", "group": 2, "length": 3})
    i18n.set_language("en")
    assert reason_text(reasons[0]) == "A lead must be cards of one suit (or all trumps)"
    assert reason_text(reasons[4]).startswith("Play exactly 2 card(s)")


def test_unknown_refusals_fall_back_to_the_english_text():
    from engine.refusals import Refusal
    from game.text import reason_text

    i18n.set_language("zh")
    assert reason_text("the table is closed") == "The table is closed"
    assert reason_text(Refusal("brand_new_code", "something new happened", x=1)) == "Something new happened"


def test_local_table_returns_the_refusal_with_its_code():
    from engine.state import Bid

    table = _first_table(seed=2)
    try:
        for _ in range(50):
            table.poll()
            if table.view().to_act == 0:
                break
        reason = table.submit(Bid(0, 5))
        assert reason.code == "bad_bid" and reason.params["amount"] == 5
        assert "not allowed" in reason
    finally:
        table.close()


# -- render backends -------------------------------------------------------------------------------------
def test_software_backend_updates_only_what_changed():
    from game.render_backend import Frame, SoftwareBackend

    pygame.init()
    screen = pygame.Surface((200, 100))
    bg = pygame.Surface((200, 100))
    bg.fill((0, 80, 0))
    card = pygame.Surface((10, 10))
    card.fill((255, 255, 255))
    be = SoftwareBackend(screen, update_display=False)
    assert be.present_frame(Frame(bg, None, [], source=1)) == [screen.get_rect()]
    assert be.present_frame(Frame(bg, [], [], source=1)) == []  # nothing new: nothing drawn
    rects = be.present_frame(Frame(bg, [], [(card, (5, 5), None)], source=1))
    assert rects == [pygame.Rect(5, 5, 10, 10)] and screen.get_at((6, 6))[:3] == (255, 255, 255)
    assert be.present_frame(Frame(bg, [], [(card, (5, 5), None)], source=1)) == []
    rects = be.present_frame(Frame(bg, [], [(card, (30, 5), None)], source=1))
    assert pygame.Rect(5, 5, 10, 10) in rects and pygame.Rect(30, 5, 10, 10) in rects
    assert screen.get_at((6, 6))[:3] == (0, 80, 0)  # the old place is restored
    bg.fill((90, 0, 0), pygame.Rect(100, 50, 20, 20))
    rects = be.present_frame(Frame(bg, [pygame.Rect(100, 50, 20, 20)], [(card, (30, 5), None)], source=1))
    assert screen.get_at((105, 55))[:3] == (90, 0, 0)
    # a faded sprite is blended, and the image itself is left as it was
    be.present_frame(Frame(bg, [], [(card, (60, 5), 128)], source=1))
    assert 100 < screen.get_at((61, 6))[0] < 200 and card.get_alpha() in (None, 255)


def test_texture_backend_draws_frames_and_skips_idle_ones():
    from game.render_backend import Frame, TextureBackend, create_backend

    pygame.init()
    try:
        be = create_backend("gpu-soft", (320, 200), title="test")
    except Exception as exc:  # pragma: no cover - no SDL renderer at all
        pytest.skip(f"no SDL renderer: {exc}")
    if not isinstance(be, TextureBackend):
        pytest.skip("the texture path is not available here")
    try:
        bg = pygame.Surface((320, 200))
        bg.fill((0, 80, 0))
        card = pygame.Surface((10, 10))
        card.fill((255, 255, 255))
        assert be.present_frame(Frame(bg, None, [(card, (5, 5), None)], source=1))
        assert be.frames_presented == 1
        assert be.present_frame(Frame(bg, [], [(card, (5, 5), None)], source=1)) == []
        be.present_frame(Frame(bg, [], [(card, (40, 5), None)], source=1))
        shot = be.screenshot()
        assert shot.get_at((41, 6))[:3] == (255, 255, 255) and shot.get_at((6, 6))[:3] == (0, 80, 0)
        assert be.frames_presented == 2
        # a plain scene drawing on the canvas is shown too
        be.surface.fill((0, 0, 200))
        assert be.present_surface([be.surface.get_rect()], source=2)
        assert be.screenshot().get_at((100, 100))[:3] == (0, 0, 200)
    finally:
        be.close()


def test_renderer_option_falls_back_to_software_without_gpu():
    from game.render_backend import gpu_available

    ok, _why = gpu_available()
    app = App(Options(seats=["human", "first", "first", "first"], size=(800, 480), lang="en", speed="instant",
                      audio=False, save_settings=False, user_plugins=False, renderer="gpu"),
              table=_first_table(seed=11))
    try:
        assert app.backend.kind == ("gpu" if ok else "software")
        app.step()
        assert app.scene.view.phase == Phase.BID
    finally:
        app.close()


def test_software_backend_asks_for_the_native_framebuffer(monkeypatch):
    """Software surfaces turn SDL's texture-emulated framebuffer off (a full-window upload per
    update on X11 with Mesa), unless the user chose otherwise."""
    import os

    from game.render_backend import create_backend

    monkeypatch.delenv("SDL_FRAMEBUFFER_ACCELERATION", raising=False)
    be = create_backend("software", (320, 200), title="test")
    assert be.kind == "software"
    assert os.environ["SDL_FRAMEBUFFER_ACCELERATION"] == "0"
    monkeypatch.setenv("SDL_FRAMEBUFFER_ACCELERATION", "1")
    create_backend("software", (320, 200), title="test")
    assert os.environ["SDL_FRAMEBUFFER_ACCELERATION"] == "1"


def test_set_animations_is_saved_and_applied(tmp_path, monkeypatch):
    from game import settings

    monkeypatch.setenv(settings.CONFIG_ENV, str(tmp_path))
    app = App(Options(seats=["human", "first", "first", "first"], size=(800, 480), lang="en", speed="normal",
                      audio=False, save_settings=True, user_plugins=False), table=_first_table(seed=11))
    try:
        assert app.scene.animations == "normal"
        app.set_animations("fast")
        assert app.scene.animations == "fast" and app.scene.factor == 0.5
        assert settings.load().animations == "fast"
        with pytest.raises(ValueError):
            app.set_animations("warp")
    finally:
        app.close()


def test_hint_while_burying_raises_exactly_the_kitty_size():
    app = make_app(table=_first_table(seed=11))
    try:
        v = _to_phase(app, Phase.BURY)
        key(app, K.K_h)
        assert len(app.scene.hand.selected) == v.bury_count
        assert button(app, "bury").enabled
        press(app, "bury")
        assert app.scene.view.phase == Phase.PLAY
    finally:
        app.close()


@pytest.mark.parametrize("size", [(800, 480), (1280, 720)])
def test_incremental_frames_equal_full_redraws(size):
    """Dirty rectangles never leave stale pixels: at many moments of an animated hand, the
    window drawn frame by frame equals the same frame drawn from scratch."""
    now = [10.0]
    table = _first_table(seed=8, speed="normal", clock=lambda: now[0])
    app = _normal_app(table, now, size=size)
    sc = app.scene
    checked = 0
    try:
        sc.toggle_auto(True)
        for i in range(1500):
            _tick(app, now, table)
            if i % 23 == 0:
                fresh = pygame.Surface(app.window.get_size())
                sc.invalidate()
                sc._compat = None
                sc.draw(fresh)  # everything from scratch, same moment
                assert pygame.image.tobytes(fresh, "RGB") == pygame.image.tobytes(app.window, "RGB"), i
                sc._compat = None
                sc.invalidate()
                app.step()  # back to the window
                checked += 1
            if len(sc.view.tricks) >= 3:
                break
        assert checked >= 5
    finally:
        app.close()
