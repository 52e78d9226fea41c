"""Table conveniences (game/scenes/table_extras.py): the dealer's look at the buried cards
(查看底牌, K and a button), smart selection of pairs and tractors when following, and the hand
sorting options (trumps left/right, suit order), driven by real pygame events."""
from __future__ import annotations

from types import SimpleNamespace

import pytest

pygame = pytest.importorskip("pygame")

from engine.cards import parse_cards  # noqa: E402
from engine.order import context  # noqa: E402
from engine.state import Bury, ChooseTrump, Game, Phase, Play  # noqa: E402
from game import i18n, settings as settings_mod  # noqa: E402
from game.input import HOLD_S  # noqa: E402
from game.scenes import table_extras as extras  # noqa: E402
from game.table import FirstLegalPlayer, LocalTable  # noqa: E402
from tests.client_driver import button, key, make_app, press, select_cards  # noqa: E402

K = pygame


@pytest.fixture(autouse=True)
def _english_after():
    yield
    i18n.set_language("en")


def _to_my_play(app):
    """Bid lowest, pick ♥, bury the first cards, until the human is to play."""
    for _ in range(3000):
        app.step()
        v = app.scene.view
        if not v.my_turn or app.scene.dealing:
            continue
        if v.phase == Phase.PLAY:
            return v
        if v.phase == Phase.BID:
            press(app, f"bid:{v.legal_bids()[0]}")
        elif v.phase == Phase.TRUMP:
            press(app, "trump:H")
        elif v.phase == Phase.BURY:
            if select_cards(app, v.hand[: v.bury_count]):
                press(app, "bury")
    raise AssertionError("the human never got to play")


# -- the buried cards ------------------------------------------------------------------------------
def test_dealer_sees_buried_cards_by_key_and_button():
    now = [100.0]
    players = {s: FirstLegalPlayer(s) for s in (1, 2, 3)}
    table = LocalTable(["human", "first", "first", "first"], seed=8, speed="instant", players=players,
                       clock=lambda: now[0])
    app = make_app(table=table, clock=lambda: now[0])
    try:
        v = _to_my_play(app)
        assert v.dealer == 0 and v.buried
        sc = app.scene
        assert button(app, "help:buried").enabled
        key(app, K.K_k)  # tap: on
        assert sc.show_buried and button(app, "help:buried").selected
        surf = pygame.Surface(app.window.get_size())
        sc.draw(surf)
        box = sc.last_trick_box()
        # the box is drawn in the kitty's gold edge
        assert tuple(surf.get_at((box.centerx, box.y + 1)))[:3] == extras.BURIED_EDGE
        key(app, K.K_k)  # tap: off
        assert not sc.show_buried
        key(app, K.K_k, up=False)  # hold: shown while down
        assert sc.show_buried
        now[0] += HOLD_S + 0.1
        pygame.event.post(pygame.event.Event(pygame.KEYUP, key=K.K_k, mod=0, unicode="", scancode=0))
        app.step()
        assert not sc.show_buried
        press(app, "help:buried")
        assert sc.show_buried
        key(app, K.K_l)  # the last-trick view replaces it
        assert not sc.show_buried
    finally:
        app.close()


def test_buried_cards_are_not_offered_to_a_defender():
    view = SimpleNamespace(seat=0, dealer=2, buried=None, phase=Phase.PLAY)
    assert not extras.can_show_buried(view)
    view = SimpleNamespace(seat=0, dealer=0, buried=tuple(parse_cards("4D 5D")), phase=Phase.PLAY)
    assert extras.can_show_buried(view)
    # the engine gives the buried cards to the dealer only
    game = Game.after_auction(*_DEAL, None, dealer=1, bid=60)
    game.apply(ChooseTrump(1, "H"))
    game.apply(Bury(1, tuple(game.hands[1][:8])))
    assert game.view(1).buried and game.view(0).buried is None


# -- smart selection -------------------------------------------------------------------------------
def _deck_rest(taken):
    """Both decks minus the multiset ``taken``."""
    full = list(parse_cards(" ".join(f"{r}{s}" for s in "SHCD" for r in
                                ("2 3 4 5 6 7 8 9 10 J Q K A".split())) + " BJ SJ")) * 2
    for c in taken:
        full.remove(c)
    return full


def _make_deal():
    mine = list(parse_cards("7C 7C 8C 8C 9C 9C JC JC KC 4S 5S 6S 7S 8S 9S 10S JS QS KS AS 4D 5D 6D 7D 8D"))
    lead = list(parse_cards("4C 4C 5C 5C"))
    rest = _deck_rest(mine + lead)
    seat1 = lead + rest[:21]
    rest = rest[21:]
    return [mine, seat1, rest[:25], rest[25:50]], rest[50:58]


_DEAL = _make_deal()


def _following_app(lead_cards):
    """An app where seat 1 (dealer, trump ♥) led ``lead_cards`` and the human is to follow."""
    game = Game.after_auction(*_DEAL, None, dealer=1, bid=60)
    game.apply(ChooseTrump(1, "H"))
    h1 = [c for c in game.hands[1] if c not in parse_cards("4C 5C")]
    game.apply(Bury(1, tuple(h1[:8])))
    game.apply(Play(1, tuple(parse_cards(lead_cards))))
    players = {s: FirstLegalPlayer(s) for s in (1, 2, 3)}
    table = LocalTable(["human", "first", "first", "first"], seed=1, speed="instant", players=players)
    table.game = game
    table._outbox = [e.for_seat(table.seat) for e in game.events]
    table._view_cache = None
    app = make_app(table=table)
    for _ in range(500):
        app.step()
        if app.scene.view.my_turn:
            return app
    raise AssertionError("the human never got to follow")


def _click_card(app, card):
    sc = app.scene
    i = list(sc.hand.cards).index(card)
    p = sc.hand.click_point(sc.layout, i)
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=p, button=1))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=p, button=1))
    app.step()


def test_tap_raises_the_tractor_a_tractor_lead_calls_for():
    app = _following_app("4C 4C 5C 5C")
    try:
        sc = app.scene
        _click_card(app, parse_cards("8C")[0])
        assert sorted(map(str, sc.hand.selected_cards())) == sorted(["7C", "7C", "8C", "8C"])
        press(app, "play")  # the engine takes it
        assert not any(c in parse_cards("8C") for c in app.scene.view.hand)
    finally:
        app.close()


def test_tap_falls_back_to_the_pair_and_off_means_one_card():
    app = _following_app("4C 4C 5C 5C")
    try:
        sc = app.scene
        _click_card(app, parse_cards("JC")[0])  # no tractor holds the jack: its pair
        assert sorted(map(str, sc.hand.selected_cards())) == ["JC", "JC"]
        key(app, K.K_BACKSPACE)
        _click_card(app, parse_cards("KC")[0])  # a single: nothing more
        assert list(map(str, sc.hand.selected_cards())) == ["KC"]
        key(app, K.K_BACKSPACE)
        extras.apply_prefs(sc, extras.TablePrefs(smart_select=False))
        _click_card(app, parse_cards("8C")[0])
        assert list(map(str, sc.hand.selected_cards())) == ["8C"]
    finally:
        app.close()


def test_pair_lead_raises_the_twin_only():
    hand = parse_cards("7C 7C 8C 8C 9C 4S 4S")
    view = SimpleNamespace(ctx=context("H"), current_trick=((1, tuple(parse_cards("4C 4C"))),), my_turn=True)
    assert extras.smart_group(hand, 2, view) == {2, 3}
    assert extras.smart_group(hand, 4, view) == set()  # ♣9 has no twin
    assert extras.smart_group(hand, 5, view) == set()  # another suit
    single = SimpleNamespace(ctx=context("H"), current_trick=((1, tuple(parse_cards("4C"))),), my_turn=True)
    assert extras.smart_group(hand, 0, single) == set()


# -- hand order --------------------------------------------------------------------------------------
def test_hand_order_options():
    ctx = context("H")
    cards = parse_cards("BJ 4S 7C 2D 9H 6D 5H 3S")
    right = extras.arrange(cards, ctx, extras.TablePrefs())
    assert [ctx.suit_of(c) for c in right][-1] == "trump" and ctx.suit_of(right[0]) == "S"
    assert right == ctx.sort_hand(cards)  # the default is the engine's display order
    left = extras.arrange(cards, ctx, extras.TablePrefs(trumps_left=True, suit_order="DCHS"))
    suits = [ctx.suit_of(c) for c in left]
    assert suits == ["trump"] * 4 + ["D", "C", "S", "S"]


def test_settings_screen_toggles_and_saves(tmp_path, monkeypatch):
    monkeypatch.setenv(settings_mod.CONFIG_ENV, str(tmp_path))
    app = make_app(seed=3)
    app.options.save_settings = True
    try:
        for _ in range(50):
            app.step()
        app.open_settings()
        app.step()
        screen = app.screens[-1]

        def click_key(k):
            b = next(b for b in screen.buttons if b.key == k)
            p = b.rect.center
            pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=p, button=1))
            pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=p, button=1))
            app.step()

        click_key("smart:off")
        click_key("trumps:left")
        click_key("suits:HSDC")
        saved = settings_mod.load()
        assert (saved.smart_select, saved.trumps_left, saved.suit_order) == (False, True, "HSDC")
        assert app.scene.prefs == extras.TablePrefs(False, True, "HSDC")
        click_key("smart:on")
        assert settings_mod.load().smart_select and app.scene.prefs.smart_select
    finally:
        app.close()


def test_hand_order_before_trump_puts_the_fixed_trumps_at_the_end():
    # RULES.md §5: ♥5, the jokers, the 3s and the 2s are trumps whatever suit is chosen
    cards = parse_cards("BJ 4S 3C 7C 2D 5H 9H SJ 5S 2S 3H KD AS")
    right = extras.arrange(cards, None, extras.TablePrefs())
    assert [str(c) for c in right] == ["4S", "5S", "AS", "9H", "7C", "KD",
                                       "2S", "2D", "3H", "3C", "SJ", "BJ", "5H"]
    left = extras.arrange(cards, None, extras.TablePrefs(trumps_left=True, suit_order="DCHS"))
    assert [str(c) for c in left] == ["2D", "2S", "3C", "3H", "SJ", "BJ", "5H",
                                      "KD", "7C", "9H", "4S", "5S", "AS"]
    assert [extras.fixed_trump_rank(c) for c in parse_cards("2C 3D SJ BJ 5H 5D AS")] == [0, 1, 2, 3, 4, None, None]
