"""X-ray 透视 panel layout: at every window size from 800×480 up — 800×480, 800×600, 1024×600,
1024×768, 1280×720, 1280×800, 1366×768, 1920×1080 and the tall portrait 800×1280 (the client
refuses windows narrower than 800 px, so 600×1024 cannot happen), plus a sweep of sizes in
between — for 红五 (four seats) and 找朋友 (five), seated or watching, every AI seat's panel
lies inside the window and meets neither the trick area, nor a plate, nor another seat's
card backs, nor the fixed panels (info, points, toolbar, helper buttons, counter, the prompt,
the action bar, the hand), nor another panel, and shows at least two candidates; its text is
drawn at no less than the smallest size tests/test_min_sizes.py allows and stays inside the
panel; and the drawn table shows it so (real pygame surfaces, SDL dummy)."""
from __future__ import annotations

import io

import pytest

pygame = pytest.importorskip("pygame")

from game import fonts, render_backend  # noqa: E402
from game.layout import BOTTOM, Layout, position_of  # noqa: E402
from game.scenes import xray  # noqa: E402
from tests.test_min_sizes import min_text  # noqa: E402

SIZES = [(800, 480), (800, 600), (1024, 600), (1024, 768), (1280, 720), (1280, 800), (1366, 768),
         (1920, 1080), (800, 1280)]
#: sizes in between, for the sweep (every seat count, seated)
SWEEP = [(w, h) for w in range(800, 2000, 48) for h in range(480, 1300, 60)]


def _fixed(lay: Layout) -> list:
    """Everything a panel must keep off, whatever its seat (its own backs aside)."""
    return [lay.trick_area, lay.info_rect, lay.toolbar, lay.scores_rect, lay.tools_rect, lay.counter_rect,
            lay.message_rect, lay.action_bar, *lay.plates.values()]


def _check(lay: Layout, me: int, placed: dict, least: int) -> None:
    fixed = _fixed(lay)
    for seat, (rect, n, heading) in placed.items():
        pos = position_of(seat, me, lay.seats)
        assert lay.screen.contains(rect), (seat, rect)
        assert rect.collidelist(fixed) < 0, (seat, rect, fixed[rect.collidelist(fixed)])
        others = [lay.backs[p] for p in lay.positions if p not in (BOTTOM, pos)]
        assert rect.collidelist(others) < 0, (seat, rect)
        if pos != BOTTOM:
            assert not rect.colliderect(lay.hand_area)
        for other, (r2, _n, _h) in placed.items():
            assert other == seat or not rect.colliderect(r2), (seat, other)
        assert rect.h >= xray.panel_height(lay, n, heading) and rect.w >= xray.min_width(lay)
        assert not heading or rect.w >= xray.heading_width(lay)
        assert n >= least, (seat, n, rect)


def test_the_client_never_opens_a_window_narrower_than_the_layouts_minimum():
    """Why 800×1280 is the portrait tested: 600×1024 is widened to 800 by the client."""
    assert render_backend.MIN_SIZE == (800, 480)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("seats", [4, 5])
@pytest.mark.parametrize("observer", [False, True])
def test_panels_meet_nothing(size, seats, observer):
    lay = Layout(*size, seats=seats)
    me = 0
    rows = {s: xray.MAX_SHOWN for s in range(seats) if observer or s != me}
    placed = xray.place_panels(lay, me, rows)
    assert set(placed) == set(rows)
    # at least two candidates; all three once the window is 1280×720 or more both ways
    _check(lay, me, placed, 3 if size[0] >= 1280 and size[1] >= 720 else 2)


@pytest.mark.parametrize("seats", [4, 5])
def test_panels_meet_nothing_at_any_size(seats):
    for size in SWEEP:
        lay = Layout(*size, seats=seats)
        placed = xray.place_panels(lay, 0, {s: xray.MAX_SHOWN for s in range(1, seats)})
        _check(lay, 0, placed, 2)


def test_five_seats_at_1024x600_keep_the_top_panels_by_their_plates():
    """The case that used to fall back over the trick area: 找朋友 at 1024×600. Each top
    seat's panel sits right under or beside its own plate."""
    lay = Layout(1024, 600, seats=5)
    placed = xray.place_panels(lay, 0, {s: 3 for s in range(1, 5)})
    for pos in lay.tops:
        rect, plate = placed[pos][0], lay.plates[pos]
        assert not rect.colliderect(lay.trick_area)
        under = rect.x == plate.x and 0 <= rect.y - plate.bottom <= lay.margin
        beside = rect.y <= plate.y and 0 <= min(abs(rect.right - plate.x), abs(rect.x - plate.right)) <= lay.margin
        assert under or beside, (pos, rect, plate)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("seats", [4, 5])
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_panel_text_stays_readable_and_inside(monkeypatch, size, seats, lang):
    """Drawn on a real surface with long candidates (a five-card throw, jokers, a plugin's own
    text): every text at least the smallest size allowed, every drawn pixel inside a panel."""
    from ai_plugins.runner import Reasoning
    from game import i18n

    i18n.set_language(lang)
    try:
        sizes: list[int] = []
        real = fonts.render

        def spy(text, px, color, bold=False):
            sizes.append(int(px))
            return real(text, px, color, bold)

        monkeypatch.setattr(fonts, "render", spy)
        lay = Layout(*size, seats=seats)
        cands = (Reasoning("AS KS QS JS 10S", -123.4), Reasoning("BJ BJ", 12.5), Reasoning("10S 10S", 0.5))
        placed = xray.place_panels(lay, 0, {s: 3 for s in range(seats)})
        surf = pygame.Surface(size)
        surf.fill((1, 2, 3))
        for seat, (rect, n, _h) in placed.items():
            xray.draw_panel_for(surf, lay, rect, cands[:n], thinking=seat == 1)
        assert sizes and min(sizes) >= min_text(*size) and min(sizes) >= lay.min_font
        mask = pygame.mask.from_threshold(surf, (1, 2, 3), (1, 1, 1, 255))
        mask.invert()  # the pixels drawn
        inside = pygame.mask.Mask(size)
        for rect, _n, _h in placed.values():
            inside.draw(pygame.mask.Mask(rect.size, fill=True), rect.topleft)
        assert mask.overlap_area(inside, (0, 0)) == mask.count()  # nothing outside the panels
    finally:
        i18n.set_language("en")


def test_a_long_action_is_cut_not_shrunk():
    lay = Layout(800, 480)
    font = fonts.get_font(lay.min_font)
    text = xray.action_label("AS KS QS JS 10S")
    cut = xray.elide(text, lay.min_font, 80)
    assert cut != text and cut.endswith("…") and font.size(cut)[0] <= 80
    assert xray.elide(text, lay.min_font, 1000) == text


def test_fewer_candidates_than_room_keep_the_heading():
    lay = Layout(1280, 720)
    placed = xray.place_panels(lay, 0, {1: 1, 2: 1, 3: 1})
    assert all(n == 1 and heading for _r, n, heading in placed.values())


@pytest.mark.parametrize("size,ruleset", [((800, 480), "hongwu"), ((1920, 1080), "hongwu"),
                                          ((1024, 600), "hongwu"), ((1024, 600), "zhaopengyou"),
                                          ((1056, 1040), "hongwu"), ((1152, 880), "zhaopengyou")])
def test_drawn_table_keeps_panels_off_the_trick_area(size, ruleset):
    """A real local table with X-ray on: panels drawn where place_panels says, in the place of
    their seats' card backs when they cover them, never over the trick area."""
    from game.app import App, Options

    seats = ["human", "basic", "expert", "basic"] if ruleset == "hongwu" else ["human"] + ["basic"] * 4
    app = App(Options(seats=seats, seed=5, speed="instant", audio=False, ruleset=ruleset,
                      save_settings=False, max_frames=50000, user_plugins=False, out=io.StringIO(), lang="en",
                      size=size))
    try:
        sc = app.scene
        sc.toggle_auto(True)
        for _ in range(20000):
            app.step([])
            if sc.view.phase.value == "play" and len(xray.reasoning_by_seat(app.table)) >= len(seats) - 1:
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
        assert {s for s, _r, _c in shown} == set(range(1, len(seats)))
        trick = pygame.image.tobytes(app.window.subsurface(lay.trick_area), "RGB")
        app.set_xray(False)
        app.step([])
        assert pygame.image.tobytes(app.window.subsurface(lay.trick_area), "RGB") == trick  # untouched
        for seat, rect, cands in shown:
            assert not rect.colliderect(lay.trick_area)
            assert cands
        app.set_xray(True)
        app.step([])
        for pos, n in [(p, n) for p in lay.positions for n in (1, 2, 4, 8)]:
            # a "Winning" label above a seat's trick cards: never under a panel
            box = lay.trick_rects(pos, n)[0].unionall(lay.trick_rects(pos, n)).inflate(6, 6)
            if not sc._label_below(box):
                above = pygame.Rect(box.x, box.y - 2 - round(lay.small_font * 1.5), box.w, round(lay.small_font * 1.5))
                assert above.collidelist([r for _s, r, _c in shown]) < 0, (pos, above)
            # nor over the points panel or the buttons, however long the label
            label = "Winning +125"
            if not sc._label_below(box, label):
                w = max(box.w, fonts.get_font(lay.small_font, bold=True).size(label)[0])
                above = pygame.Rect(box.centerx - w // 2, box.y - 2 - round(lay.small_font * 1.5), w,
                                    round(lay.small_font * 1.5))
                assert above.collidelist([lay.scores_rect, lay.tools_rect]) < 0, (pos, above)
        border = {tuple(app.window.get_at((r.centerx, r.y)))[:3] for _s, r, _c in shown}
        assert border <= {(90, 120, 160), tuple(xray.ACCENT)}  # the panels' frames are drawn there
    finally:
        app.close()
