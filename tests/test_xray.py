"""X-ray 透视: off by default; on, the AI seats' candidates are drawn beside their plates."""
from __future__ import annotations

import io

import pytest

pygame = pytest.importorskip("pygame")

from game.app import App, Options  # noqa: E402
from game.scenes import xray  # noqa: E402
from game.settings import Settings  # noqa: E402


def _app(size):
    return App(Options(seats=["human", "basic", "basic", "basic"], seed=5, speed="instant", audio=False,
                       save_settings=False, max_frames=50000, user_plugins=False, out=io.StringIO(), lang="en",
                       size=size))


def _my_turn_after_ai_plays(app):
    sc = app.scene
    sc.toggle_auto(True)
    for _ in range(20000):
        app.step([])
        v = sc.view
        if v.phase.value == "play" and len(xray.reasoning_by_seat(app.table)) >= 3:
            break
    sc.toggle_auto(False)
    for _ in range(20000):
        app.step([])
        if sc.view.my_turn and not sc.timeline.busy():
            break
    assert sc.view.my_turn and sc.view.phase.value == "play"


@pytest.mark.parametrize("size", [(800, 480), (1280, 720)])
def test_xray_off_by_default_and_drawn_beside_ai_plates_when_on(size):
    assert Settings().xray is False and Settings.from_dict({"xray": "yes"}).xray is False
    assert Settings.from_dict({"xray": True}).xray is True
    app = _app(size)
    try:
        assert app.scene.xray is False
        _my_turn_after_ai_plays(app)
        lay = app.scene.layout
        shown = xray.panels(lay, app.scene.view, app.table)
        assert {s for s, _r, _c in shown} == {1, 2, 3}
        for seat, rect, cands in shown:
            assert 1 <= len(cands) <= xray.MAX_SHOWN
            assert cands == app.table.players[seat].last_reasoning[:len(cands)]  # best first, cut to fit
            assert len(cands) >= min(2, len(app.table.players[seat].last_reasoning))
            assert rect.h >= xray.panel_height(lay, len(cands), heading=False)
            assert lay.screen.contains(rect) and lay.min_font >= 14
            assert not rect.colliderect(lay.trick_area)
        app.step([])
        off = [pygame.image.tobytes(app.window.subsurface(r), "RGB") for _s, r, _c in shown]
        app.set_xray(True)
        assert app.scene.xray is True and app.settings.xray is True
        app.step([])
        on = [pygame.image.tobytes(app.window.subsurface(r), "RGB") for _s, r, _c in shown]
        assert all(a != b for a, b in zip(off, on))
        app.set_xray(False)
        app.step([])
        again = [pygame.image.tobytes(app.window.subsurface(r), "RGB") for _s, r, _c in shown]
        assert again == off
    finally:
        app.close()


def test_settings_screen_toggles_xray():
    from game.scenes.pause import SettingsScreen

    app = _app((800, 480))
    try:
        screen = SettingsScreen(app)
        app.push_screen(screen)
        app.step([])
        on = next(b for b in screen.buttons if b.key == "xray:on")
        assert on.rect.h >= 40
        app.step([pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=on.rect.center),
                  pygame.event.Event(pygame.MOUSEBUTTONUP, button=1, pos=on.rect.center)])
        assert app.settings.xray is True and app.scene.xray is True
    finally:
        app.close()
