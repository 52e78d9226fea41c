"""The renderer row of the Settings screen: saved at once, used from the next start."""
from __future__ import annotations

import pytest

pygame = pytest.importorskip("pygame")

from game import i18n, settings  # noqa: E402
from game.app import options_from_args  # noqa: E402
from game.cli import build_parser  # noqa: E402
from tests.test_client_menus import click, find, menu_app, screen_name  # noqa: E402
from tests.test_min_sizes import drawn, min_button, min_text  # noqa: E402,F401  (drawn: a fixture)


@pytest.fixture(autouse=True)
def _config(tmp_path, monkeypatch):
    monkeypatch.setenv(settings.CONFIG_ENV, str(tmp_path))
    yield tmp_path
    i18n.set_language("en")


def _selected(app) -> list[str]:
    return [b.key for b in app.top.buttons if b.key.startswith("render:") and b.selected]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_renderer_row_saves_the_choice_for_the_next_start(lang, drawn):
    app = menu_app(size=(800, 480), lang=lang)
    try:
        click(app, "settings")
        assert screen_name(app) == "SettingsScreen"
        rows = dict(app.top.rows())
        label = i18n._("Renderer")
        assert label in rows and (lang == "en") == (label == "Renderer")
        assert [c.key for c in rows[label]] == [f"render:{r}" for r in settings.RENDERERS]
        assert _selected(app) == ["render:auto"] and "\n" not in app.top.note()
        kind = app.backend.kind
        click(app, "render:software")
        assert settings.load().renderer == "software"
        app.step()
        assert _selected(app) == ["render:software"] and app.backend.kind == kind  # the window keeps its own
        hint = i18n._("Renderer: {name} from the next start").format(name=i18n._("Software"))
        assert app.top.note().split("\n")[-1] == hint
        # the hint line keeps the screen readable at 800×480: text and buttons big enough
        drawn.clear()
        app.top.invalidate()
        app.step()
        assert any(t == hint and px >= min_text(800, 480) for t, px in drawn)  # the hint is drawn
        assert not [(t, px) for t, px in drawn if px < min_text(800, 480) and t.strip()]
        assert all(b.rect.h >= min_button(800, 480) for b in app.top.buttons)
        assert all(app.window.get_rect().contains(b.rect) for b in app.top.buttons)
        click(app, "render:auto")  # back to what runs: no hint
        assert "\n" not in app.top.note()
        click(app, "render:gpu")
        assert settings.load().renderer == "gpu" and find(app, "render:gpu").selected
    finally:
        app.close()
    # the next start without --renderer uses the saved choice; --renderer still wins
    assert options_from_args(build_parser().parse_args(["play"])).renderer == "gpu"
    assert options_from_args(build_parser().parse_args(["play", "--renderer", "software"])).renderer == "software"


def test_a_bad_renderer_is_refused():
    app = menu_app()
    try:
        with pytest.raises(ValueError, match="renderer must be one of"):
            app.set_renderer("vulkan")
        assert app.settings.renderer == "auto"
    finally:
        app.close()
