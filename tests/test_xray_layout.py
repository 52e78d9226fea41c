"""X-ray 透视 panel layout: at 800×480, 1280×720 and 1920×1080, for 红五 (four seats) and
找朋友 (five), seated or watching, every AI seat's panel lies inside the window and meets
neither the trick area, nor a plate, nor another seat's card backs, nor the fixed panels
(info, points, toolbar, helper buttons, counter, message, action bar, hand), nor another
panel; and the drawn table shows it so (real pygame surfaces, SDL dummy)."""
from __future__ import annotations

import io

import pytest

pygame = pytest.importorskip("pygame")

from game.layout import BOTTOM, Layout, position_of  # noqa: E402
from game.scenes import xray  # noqa: E402

SIZES = [(800, 480), (1280, 720), (1920, 1080)]


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("seats", [4, 5])
@pytest.mark.parametrize("observer", [False, True])
def test_panels_meet_nothing(size, seats, observer):
    lay = Layout(*size, seats=seats)
    me = 0
    rows = {s: xray.MAX_SHOWN for s in range(seats) if observer or s != me}
    placed = xray.place_panels(lay, me, rows)
    assert set(placed) == set(rows)
    fixed = [lay.trick_area, lay.info_rect, lay.toolbar, lay.scores_rect, lay.tools_rect, lay.counter_rect,
             lay.message_rect, lay.action_bar, *lay.plates.values()]
    for seat, (rect, n, heading) in placed.items():
        pos = position_of(seat, me, seats)
        assert lay.screen.contains(rect), (seat, rect)
        assert rect.collidelist(fixed) < 0, (seat, rect, fixed[rect.collidelist(fixed)])
        others = [lay.backs[p] for p in lay.positions if p not in (BOTTOM, pos)]
        assert rect.collidelist(others) < 0, (seat, rect)
        if pos != BOTTOM:
            assert not rect.colliderect(lay.hand_area)
        for other, (r2, _n, _h) in placed.items():
            assert other == seat or not rect.colliderect(r2), (seat, other)
        # what it shows fits: at least two candidates, all three from 1280×720 up
        assert rect.h >= xray.panel_height(lay, n, heading) and rect.w >= xray.min_width(lay)
        assert n >= (3 if size[1] >= 720 else 2)


def test_fewer_candidates_than_room_keep_the_heading():
    lay = Layout(1280, 720)
    placed = xray.place_panels(lay, 0, {1: 1, 2: 1, 3: 1})
    assert all(n == 1 and heading for _r, n, heading in placed.values())


@pytest.mark.parametrize("size", [(800, 480), (1920, 1080)])
def test_drawn_table_keeps_panels_off_the_trick_area(size):
    """A real local table with X-ray on: panels drawn where place_panels says, in the place of
    their seats' card backs when they cover them, never over the trick area."""
    from game.app import App, Options

    app = App(Options(seats=["human", "basic", "expert", "basic"], seed=5, speed="instant", audio=False,
                      save_settings=False, max_frames=50000, user_plugins=False, out=io.StringIO(), lang="en",
                      size=size))
    try:
        sc = app.scene
        sc.toggle_auto(True)
        for _ in range(20000):
            app.step([])
            if sc.view.phase.value == "play" and len(xray.reasoning_by_seat(app.table)) >= 3:
                break
        sc.toggle_auto(False)
        for _ in range(20000):
            app.step([])
            if sc.view.my_turn and not sc.timeline.busy():
                break
        lay = sc.layout
        app.set_xray(True)
        app.step([])
        shown = xray.panels(lay, sc.view, app.table)
        assert {s for s, _r, _c in shown} == {1, 2, 3}
        trick = pygame.image.tobytes(app.window.subsurface(lay.trick_area), "RGB")
        app.set_xray(False)
        app.step([])
        assert pygame.image.tobytes(app.window.subsurface(lay.trick_area), "RGB") == trick  # untouched
        for seat, rect, cands in shown:
            assert not rect.colliderect(lay.trick_area)
            assert cands
        app.set_xray(True)
        app.step([])
        border = {tuple(app.window.get_at((r.centerx, r.y)))[:3] for _s, r, _c in shown}
        assert border <= {(90, 120, 160), tuple(xray.ACCENT)}  # the panels' frames are drawn there
    finally:
        app.close()
