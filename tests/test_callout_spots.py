"""Call-out bubbles (points won, bids, the trump, 找朋友 declarations and calls) keep off every
name plate — their own seat's too — and the points panel, all the way up their rise, at
every window size from 800×480 up, four seats (红五) and five (找朋友), in English and
Chinese (game/scenes/callout_spot.py). 972×540 is the window the software renderer opened on a
1024×600 Xvfb screen (the client shrinks a window to fit the desktop): there, as at every
size, a top seat's "+50" used to rise from the middle of its plate and be clamped to the
window's top edge right over that seat's name.

They keep off the helper buttons (Last trick / Hint / Auto, ``layout.tools_rect``) too whenever a
candidate spot clear of the plates and the points panel allows it: the bottom seat's "+20" used
to rise from above its plate, right over the Hint button, at 1024×600 and 1920×1080."""
from __future__ import annotations

import io

import pytest

pygame = pytest.importorskip("pygame")

from game import i18n  # noqa: E402
from game.layout import Layout  # noqa: E402
from game.scenes import hud  # noqa: E402
from game.scenes.animation import Callout  # noqa: E402
from game.scenes.callout_spot import callout_spot, path_rect, plate_spots, table_spots  # noqa: E402

SIZES = [(800, 480), (972, 540), (1024, 600), (1280, 720), (1920, 1080)]
MORE_SIZES = [(800, 600), (1024, 768), (1280, 800), (1366, 768), (800, 1280), (3840, 2160)]
#: sizes in between, for the sweep of the geometry alone
SWEEP = [(w, h) for w in range(800, 2000, 64) for h in range(480, 1300, 80)]
#: (kind, text) of the bubbles the table shows, the longest of each kind
BUBBLES = [("points", "+5"), ("points", "+200"), ("bid", "Pass"), ("bid", "150"), ("dealer", "Dealer · 150"),
           ("declare", "Counter ♥5 ♥5 ♥5"), ("friend_call", "Friend: the 2nd ♥A"), ("friend", "Friend!"),
           ("trump", "Diamonds")]


def _keep_off(lay: Layout) -> list[pygame.Rect]:
    return [lay.plates[p] for p in lay.positions] + [lay.scores_rect]


def _check_path(lay: Layout, kind: str, pos: int, size: tuple[int, int], rise: int, where) -> None:
    spot = callout_spot(lay, kind, pos, size, rise)
    path = path_rect(lay, size, spot)
    assert lay.screen.contains(path), (where, kind, pos, path)
    hit = path.collidelist(_keep_off(lay))
    assert hit < 0, (where, kind, pos, lay.sides[pos], path, _keep_off(lay)[hit])


def _sweep(seats: int, lang: str):
    """Every ``(size, layout, kind, text, seat position, bubble size, rise)`` of the size sweep
    (named sizes and the sweep between), each bubble of :data:`BUBBLES` at each seat, the
    language ``lang`` set meanwhile (English again afterwards)."""
    i18n.set_language(lang)
    try:
        for size in SIZES + MORE_SIZES + SWEEP:
            lay = Layout(*size, max_hand=38 if seats == 5 else 33, seats=seats)
            fs = round(lay.font_size * 1.1)
            for kind, text in BUBBLES:
                img = hud.bubble(i18n._(text), round(lay.font_size * 1.35) if kind == "trump" else fs)
                rise = round(lay.plate_h * 0.9) if kind == "points" else round(lay.font_size * 0.8)
                for pos in lay.positions:
                    yield size, lay, kind, text, pos, img.get_size(), rise
    finally:
        i18n.set_language("en")


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("seats", [4, 5])
def test_bubble_paths_keep_off_plates_and_the_points_panel(seats, lang):
    """The geometry alone, at the named sizes and a sweep in between."""
    for size, lay, kind, text, pos, bsize, rise in _sweep(seats, lang):
        _check_path(lay, kind, pos, bsize, rise, (size, seats, lang, text))


def _candidates(lay: Layout, kind: str, pos: int, size: tuple[int, int], rise: int):
    if kind == "points":
        return plate_spots(lay, pos, size, rise)
    return table_spots(lay, lay.trick_area.center if kind == "trump" else lay.trick_centers[pos], size, rise)


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("seats", [4, 5])
def test_bubble_paths_keep_off_the_helper_buttons_when_a_spot_allows(seats, lang):
    """At every size of the sweep, a bubble whose candidate spots include one clear of the
    plates, the points panel and the helper buttons takes such a spot; the bottom seat's
    points bubble always has one (and so never covers Hint)."""
    for size, lay, kind, text, pos, bsize, rise in _sweep(seats, lang):
        clear = [s for s in _candidates(lay, kind, pos, bsize, rise)
                 if path_rect(lay, bsize, s).collidelist(_keep_off(lay) + [lay.tools_rect]) < 0]
        if kind == "points" and pos == 0:
            assert clear, (size, seats, lang, text)
        if clear:
            path = path_rect(lay, bsize, callout_spot(lay, kind, pos, bsize, rise))
            assert not path.colliderect(lay.tools_rect), (size, seats, lang, kind, text, pos,
                                                          lay.sides[pos], path, lay.tools_rect)


@pytest.mark.parametrize("ruleset", ["hongwu", "zhaopengyou"])
def test_the_bottom_seats_points_bubble_leaves_the_helper_buttons_visible(ruleset):
    """A real table: the human's (bottom seat's) "+20", sampled through its whole life as the
    timeline draws it, meets none of the helper buttons the scene builds (Last trick / Hint /
    Auto), nor a plate or the points panel, at 1024×600 and 1920×1080 (where it used to sit
    on Hint) and the other named sizes."""
    from game.app import App, Options

    seats = ["human"] + ["basic"] * (3 if ruleset == "hongwu" else 4)
    app = App(Options(seats=seats, seed=4, speed="normal", animations="normal", audio=False, ruleset=ruleset,
                      save_settings=False, max_frames=100, user_plugins=False, out=io.StringIO(), lang="en",
                      size=(1024, 600)))
    try:
        sc = app.scene
        for size in [(1024, 600), (1920, 1080)] + SIZES:
            sc.resize(*size)
            lay = sc.layout
            helpers = [b.rect for b in sc._build_buttons() if b.key.startswith("help:")]
            assert {"help:hint", "help:last", "help:auto"} <= {b.key for b in sc._build_buttons()}
            sc.timeline.clear()
            sc._callout("points", 0, "+20", 0.0)
            (anim,) = list(sc.timeline.find("callout"))
            for k in range(21):
                for img, topleft, _alpha in anim.sprites(anim.t0 + anim.duration * k / 21):
                    r = img.get_rect(topleft=topleft)
                    hit = r.collidelist(helpers)
                    assert hit < 0, (size, k, r, helpers[hit])
                    assert r.collidelist(_keep_off(lay)) < 0 and lay.screen.contains(r)
            sc.timeline.clear()
    finally:
        app.close()


@pytest.mark.parametrize("ruleset", ["hongwu", "zhaopengyou"])
def test_the_table_draws_its_bubbles_clear_of_the_plates(ruleset):
    """A real table (animations on): each bubble the scene starts (``TableScene._callout``),
    sampled through its whole life as the timeline draws it, meets no name plate and not the
    points panel, at 800×480, 972×540, 1024×600, 1280×720 and 1920×1080."""
    from game.app import App, Options

    seats = ["human"] + ["basic"] * (3 if ruleset == "hongwu" else 4)
    app = App(Options(seats=seats, seed=3, speed="normal", animations="normal", audio=False, ruleset=ruleset,
                      save_settings=False, max_frames=100, user_plugins=False, out=io.StringIO(), lang="en",
                      size=(1024, 600)))
    try:
        sc = app.scene
        assert sc.factor > 0
        for size in SIZES:
            sc.resize(*size)
            lay = sc.layout
            assert (lay.w, lay.h) == size and lay.seats == len(seats)
            for kind, text in BUBBLES:
                for seat in range(len(seats)):
                    sc.timeline.clear()
                    sc._callout(kind, seat, text, 0.0)
                    (anim,) = [a for a in sc.timeline.find("callout")]
                    assert isinstance(anim, Callout)
                    for k in range(21):
                        t = anim.t0 + anim.duration * k / 21
                        for img, topleft, _alpha in anim.sprites(t):
                            r = img.get_rect(topleft=topleft)
                            hit = r.collidelist(_keep_off(lay))
                            assert hit < 0, (size, kind, text, seat, k, r, _keep_off(lay)[hit])
                            assert lay.screen.contains(r)
            sc.timeline.clear()
    finally:
        app.close()
