"""Layout: everything on screen from 800×480 to 1920×1080, in both languages and every phase."""
from __future__ import annotations

import pytest

pygame = pytest.importorskip("pygame")

from engine.state import Phase  # noqa: E402
from game.layout import BOTTOM, LEFT, RIGHT, TOP, Layout, position_of, seat_at  # noqa: E402
from game.table import FirstLegalPlayer, LocalTable  # noqa: E402
from tests.client_driver import make_app, press, select_cards  # noqa: E402

SIZES = [(800, 480), (1280, 720), (1920, 1080), (1024, 768)]


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("max_hand", [33, 45])
def test_layout_rects_on_screen(size, max_hand):
    lay = Layout(*size, max_hand=max_hand)
    for name, r in lay.all_rects().items():
        assert lay.screen.contains(r), (name, r, size)
    # hand cards never overlap the action bar; the trick area stays above the message line
    assert lay.action_bar.bottom <= lay.hand_area.y
    assert lay.message_rect.bottom <= lay.action_bar.y
    assert lay.trick_area.bottom <= lay.message_rect.y
    for pos in (BOTTOM, RIGHT, TOP, LEFT):
        for r in lay.trick_rects(pos, 8):
            assert lay.trick_area.inflate(2, 2).contains(r), (pos, r)
    # the corner index of every card in a full hand stays visible
    rects = lay.hand_rects(max_hand)
    rows = {}
    for r in rects:
        rows.setdefault(r.y, []).append(r.x)
    for xs in rows.values():
        gaps = [b - a for a, b in zip(xs, xs[1:])]
        assert not gaps or min(gaps) >= 0.27 * lay.card_w


def test_positions_relative_to_local_seat():
    assert [position_of(s, 0) for s in range(4)] == [BOTTOM, RIGHT, TOP, LEFT]
    assert position_of(2, 1) == RIGHT and position_of(0, 1) == LEFT
    assert all(seat_at(position_of(s, 3), 3) == s for s in range(4))


def _advance_all_phases(app):
    """Yield once at each phase of a hand (as the human dealer) and at the settlement."""
    seen = set()
    for _ in range(4000):
        if not app.step():
            return
        sc = app.scene
        v = sc.view
        if sc.show_settlement:
            yield "settle"
            return
        key = (v.phase, v.my_turn)
        if key not in seen:
            seen.add(key)
            yield v.phase
        if not v.my_turn:
            continue
        if v.phase == Phase.BID:
            press(app, f"bid:{v.legal_bids()[-1]}")
        elif v.phase == Phase.TRUMP:
            press(app, "trump:D")
        elif v.phase == Phase.BURY:
            if select_cards(app, v.hand[: v.bury_count]):
                press(app, "bury")
        elif v.phase == Phase.PLAY:
            if select_cards(app, next(iter(v.play_options()))):
                press(app, "play")


@pytest.mark.parametrize("size", [(800, 480), (1920, 1080)])
@pytest.mark.parametrize("lang,decks", [("zh", 2), ("en", 3)])
def test_real_scene_on_screen_in_every_phase(size, lang, decks):
    players = {s: FirstLegalPlayer(s) for s in (1, 2, 3)}
    table = LocalTable(["human", "first", "first", "first"], seed=4, decks=decks, speed="instant", players=players)
    app = make_app(table=table, size=size, lang=lang)
    screen = app.window.get_rect()
    assert screen.size == size
    phases = []
    try:
        for phase in _advance_all_phases(app):
            phases.append(phase)
            sc = app.scene
            for b in sc.buttons:
                assert screen.contains(b.rect), (phase, b.key, b.rect)
            for r in sc.hand.rects(sc.layout):
                assert screen.contains(r), (phase, r)
            if phase == "settle":
                assert screen.contains(sc.layout.overlay)
        assert "settle" in phases and Phase.BURY in phases
    finally:
        app.close()


def test_resize_relayouts():
    app = make_app(size=(1280, 720))
    try:
        app.step()
        pygame.display.set_mode((800, 480), pygame.RESIZABLE)
        pygame.event.post(pygame.event.Event(pygame.VIDEORESIZE, w=800, h=480, size=(800, 480)))
        app.step()
        assert app.window.get_size() == (800, 480)
        assert (app.scene.layout.w, app.scene.layout.h) == (800, 480)
        for b in app.scene.buttons:
            assert app.window.get_rect().contains(b.rect)
    finally:
        app.close()
