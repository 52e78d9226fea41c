"""Watching a table (no seat of one's own: the local "AIs only" table or a LAN spectator) with
X-ray 透视 on, the bottom seat's panel sits in the hand area's corner and that seat's card
backs, drawn in the hand area, keep clear of it (game/scenes/xray.py ``backs_span``,
``Layout.hand_rects(n, span)``) at every window size from 800×480 up, four seats and five, for
every hand size; the drawn table shows nothing under the panel but the felt (real pygame
surfaces, SDL dummy). They used to be drawn across the whole hand area, a row of backs half
under the panel."""
from __future__ import annotations

import io

import pytest

pygame = pytest.importorskip("pygame")

from game.layout import BOTTOM, Layout  # noqa: E402
from game.scenes import xray  # noqa: E402

SIZES = [(800, 480), (800, 600), (972, 540), (1024, 600), (1024, 768), (1280, 720), (1280, 800), (1366, 768),
         (1920, 1080), (800, 1280)]
SWEEP = [(w, h) for w in range(800, 2000, 96) for h in range(480, 1300, 100)]


@pytest.mark.parametrize("seats", [4, 5])
def test_watched_bottom_backs_keep_clear_of_its_panel(seats):
    max_hand = 38 if seats == 5 else 33
    for size in SIZES + SWEEP:
        lay = Layout(*size, max_hand=max_hand, seats=seats)
        placed = xray.place_panels(lay, 0, {s: xray.MAX_SHOWN for s in range(seats)})
        panel = placed[0][0]
        assert panel.colliderect(lay.hand_area)  # the bottom seat's panel: the hand area's corner
        span = xray.backs_span(lay, panel)
        for n in range(1, max_hand + 1):
            backs = lay.hand_rects(n, span)
            assert len(backs) == n
            assert panel.collidelist(backs) < 0, (size, seats, n, panel, backs[panel.collidelist(backs)])
            assert all(lay.hand_area.contains(r) for r in backs), (size, seats, n)
        # the other panels are where they were: clear of everything (tests/test_xray_layout.py)
        for seat, (rect, _n, _h) in placed.items():
            assert seat == 0 or not rect.colliderect(lay.hand_area)


def test_without_a_panel_the_backs_fill_the_hand_area_as_before():
    lay = Layout(1280, 720)
    assert xray.backs_span(lay, None) is None
    for n in (1, 12, 25, 33):
        assert lay.hand_rects(n, None) == lay.hand_rects(n)
        assert lay.hand_rects(n, (lay.hand_area.x, lay.hand_area.right)) == lay.hand_rects(n)


def _watched_app(size, ruleset, min_hand=0):
    """A real local table of ``basic`` AIs only (four seats for 红五, five for 找朋友), watched
    with X-ray on, stepped (at most 20,000 frames) into the play phase until every seat has
    given its reasoning and the bottom seat still holds ``min_hand`` cards."""
    from game.app import App, Options

    seats = ["basic"] * (4 if ruleset == "hongwu" else 5)
    app = App(Options(seats=seats, seed=5, speed="instant", audio=False, ruleset=ruleset, save_settings=False,
                      max_frames=50000, user_plugins=False, out=io.StringIO(), lang="en", size=size))
    app.set_xray(True)
    for _ in range(20000):
        app.step([])
        v = app.scene.view
        if (v.phase.value == "play" and v.hand_sizes[0] >= min_hand
                and len(xray.reasoning_by_seat(app.table)) == len(seats)):
            break
    return app


@pytest.mark.parametrize("size,ruleset", [((800, 480), "hongwu"), ((972, 540), "zhaopengyou"),
                                          ((1920, 1080), "hongwu")])
def test_drawn_watched_table_shows_no_backs_under_the_bottom_panel(monkeypatch, size, ruleset):
    """A real local table of AIs only, watched with X-ray on: with the panels left undrawn,
    the static layer under the bottom seat's panel is plain felt, and that seat's backs are
    drawn beside it."""
    app = _watched_app(size, ruleset, min_hand=10)
    try:
        sc = app.scene
        assert sc.view.seat is None and sc.view.phase.value == "play"
        lay = sc.layout
        (panel,) = [r for s, r, _c in xray.panels(lay, sc.view, app.table) if sc.pos_of(s) == BOTTOM]
        monkeypatch.setattr(xray, "draw_panel_for", lambda *a, **k: None)
        sc._render_static(None)  # the whole static layer again, panels left out
        static, felt = sc._static, sc._felt
        under = panel.clip(lay.hand_area)
        assert pygame.image.tobytes(static.subsurface(under), "RGB") == pygame.image.tobytes(
            felt.subsurface(under), "RGB"), (size, ruleset, panel)
        beside = pygame.Rect(panel.right + lay.margin, lay.hand_area.y, lay.hand_area.right - panel.right - lay.margin,
                             lay.hand_area.h)
        assert pygame.image.tobytes(static.subsurface(beside), "RGB") != pygame.image.tobytes(
            felt.subsurface(beside), "RGB")  # the backs are there
    finally:
        app.close()


@pytest.mark.parametrize("size,ruleset", [((800, 480), "hongwu"), ((800, 480), "zhaopengyou"),
                                          ((1280, 720), "hongwu"), ((1920, 1080), "zhaopengyou")])
def test_played_cards_never_fly_out_of_a_seats_panel(size, ruleset):
    """A real watched table with X-ray on: every seat's played cards start their flight
    (``_seat_origin``) clear of that seat's panel: the bottom seat's beside it in the hand
    area, a seat whose backs the panel replaced from its plate. With X-ray off the starts are
    the usual ones (the backs, the bottom middle)."""
    app = _watched_app(size, ruleset)
    n_seats = 4 if ruleset == "hongwu" else 5
    try:
        sc = app.scene
        lay = sc.layout
        placed = {s: r for s, r, _c in xray.panels(lay, sc.view, app.table)}
        assert len(placed) == n_seats
        moved = 0
        for seat, panel in placed.items():
            start = sc._seat_origin(seat)
            assert not start.colliderect(panel), (size, ruleset, seat, start, panel)
            assert lay.screen.contains(start)
            pos = sc.pos_of(seat)
            usual = pygame.Rect(0, 0, lay.trick_w, lay.trick_h)
            if pos == BOTTOM:
                usual.midbottom = (lay.w // 2, lay.h)
            else:
                usual.topleft = lay.backs[pos].topleft
            moved += start != usual
        assert moved  # some seat's usual start was under its panel
        app.set_xray(False)
        for seat in placed:
            pos = sc.pos_of(seat)
            if pos != BOTTOM:
                assert sc._seat_origin(seat).topleft == lay.backs[pos].topleft
    finally:
        app.close()


@pytest.mark.parametrize("seats", [4, 5])
def test_flight_origins_clear_of_the_panels_at_every_size(seats):
    """:func:`xray.flight_origin` over the size sweep: with every seat's panel placed, each
    seat's start (the usual one, moved when under its panel) is on the screen and clear of its
    panel; a start already clear is returned unchanged."""
    for size in SIZES + SWEEP:
        lay = Layout(*size, max_hand=38 if seats == 5 else 33, seats=seats)
        placed = xray.place_panels(lay, 0, {s: xray.MAX_SHOWN for s in range(seats)})
        for pos, (panel, _n, _h) in placed.items():
            usual = pygame.Rect(0, 0, lay.trick_w, lay.trick_h)
            if pos == BOTTOM:
                usual.midbottom = (lay.w // 2, lay.h)
            else:
                usual.topleft = lay.backs[pos].topleft
            start = xray.flight_origin(lay, pos, usual, panel)
            assert not start.colliderect(panel), (size, seats, pos, start, panel)
            assert lay.screen.contains(start), (size, seats, pos, start)
            if not usual.colliderect(panel):
                assert start == usual
            assert xray.flight_origin(lay, pos, usual, None) == usual
