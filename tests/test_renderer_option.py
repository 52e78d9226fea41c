"""``--renderer`` for play/host/join (saved in the settings) and full screen / resizing:
the backend's size, the real window's size and the size scenes are laid out for agree."""
from __future__ import annotations

import pygame
import pytest

from game import settings as settings_mod
from game.app import App, Options, options_from_args
from game.cli import build_parser
from game.render_backend import create_backend, desktop_size


@pytest.fixture
def config(tmp_path, monkeypatch):
    """A settings folder of this test alone."""
    monkeypatch.setenv(settings_mod.CONFIG_ENV, str(tmp_path))
    return tmp_path


def _remote_renderer(argv):
    from game.lan_cli import _remote_options

    ns = build_parser().parse_args(argv)
    return _remote_options(ns, menu=True).renderer


@pytest.mark.parametrize("argv", [["host"], ["join", "127.0.0.1:1"]])
def test_host_and_join_pass_renderer_to_app_options(config, argv):
    assert _remote_renderer(argv + ["--renderer", "software"]) == "software"
    assert _remote_renderer(argv + ["--renderer", "gpu"]) == "gpu"


def test_renderer_is_saved_and_reused(config):
    assert _remote_renderer(["join", "127.0.0.1:1"]) == "auto"  # nothing saved yet
    assert settings_mod.load().renderer == "auto"
    assert _remote_renderer(["host", "--renderer", "software"]) == "software"
    assert settings_mod.load().renderer == "software"
    assert _remote_renderer(["join", "127.0.0.1:1"]) == "software"
    ns = build_parser().parse_args(["play"])
    assert ns.renderer is None
    assert options_from_args(ns).renderer == "software"
    assert options_from_args(build_parser().parse_args(["play", "--renderer", "gpu"])).renderer == "gpu"
    assert _remote_renderer(["host"]) == "gpu"


def test_bad_saved_renderer_is_ignored(config):
    (config / settings_mod.SETTINGS_FILE).write_text('{"renderer": "vulkan"}', encoding="utf-8")
    assert settings_mod.load().renderer == "auto"
    with pytest.raises(ValueError):
        settings_mod.renderer_choice("vulkan")


def _layout_sizes(app):
    return {tuple(s.size) for s in app.screens}


def _real_size(app):
    b = app.backend
    return tuple(b.window.size) if b.kind == "gpu" else tuple(pygame.display.get_window_size())


@pytest.mark.parametrize("renderer", ["gpu-soft", "software"])
def test_fullscreen_and_resize_keep_layout_and_window_in_step(config, renderer):
    app = App(Options(menu=True, renderer=renderer, audio=False, save_settings=False, size=(1000, 600)))
    try:
        app.step()
        assert app.backend.size() == _real_size(app) == (1000, 600)
        assert _layout_sizes(app) == {(1000, 600)}
        app.set_fullscreen(True)
        app.step()
        size = app.backend.size()
        assert size == _real_size(app)
        if renderer == "gpu-soft" and desktop_size():
            assert size == desktop_size()
        assert app.window.get_size() == size
        assert _layout_sizes(app) == {size}
        app.set_fullscreen(False)
        app.step()
        assert app.backend.size() == _real_size(app) == (1000, 600)
        assert _layout_sizes(app) == {(1000, 600)}
        # the window is resized (by the user, or the window manager): the layout follows
        if app.backend.kind == "gpu":
            app.backend.window.size = (900, 560)
            ev = pygame.event.Event(pygame.WINDOWSIZECHANGED, x=900, y=560)
        else:
            pygame.display.set_mode((900, 560), pygame.RESIZABLE)
            ev = pygame.event.Event(pygame.VIDEORESIZE, w=900, h=560, size=(900, 560))
        app.step([ev])
        assert app.backend.size() == _real_size(app) == (900, 560)
        assert app.window.get_size() == (900, 560)
        assert _layout_sizes(app) == {(900, 560)}
    finally:
        app.close()


def test_gpu_fullscreen_window_opens_at_the_desktop_size():
    pygame.display.init()
    backend = create_backend("gpu-soft", (1000, 600), fullscreen=True)
    try:
        assert backend.kind == "gpu"
        assert backend.size() == tuple(backend.window.size)
        if desktop_size():
            assert backend.size() == desktop_size()
    finally:
        backend.close()
        pygame.display.quit()


def test_gpu_fullscreen_window_is_created_at_the_desktop_size(monkeypatch):
    """Without a window manager a window created small stays small on screen while
    ``Window.size`` already reports full screen: it must be created at the desktop's size."""
    pygame.display.init()
    real = pygame.Window
    asked = []

    def window(title, size, **kwargs):
        asked.append((tuple(size), kwargs))
        return real(title, size, **kwargs)

    monkeypatch.setattr(pygame, "Window", window)
    monkeypatch.setattr("game.render_backend.desktop_size", lambda: (1100, 700))
    backend = create_backend("gpu-soft", (1000, 600), fullscreen=True)
    try:
        assert asked and asked[0][0] == (1100, 700)
        assert asked[0][1].get("fullscreen_desktop") is True
    finally:
        backend.close()
        pygame.display.quit()


def test_windows_are_clamped_to_the_desktop_alike_for_both_renderers(monkeypatch):
    """A window asked for at (or above) the desktop's size opens at WINDOW_SHARE of it, on the
    texture path as on the software one (the GPU window used to open at the full desktop size
    while the software one was clamped); under the dummy driver the size asked for is kept."""
    from game import render_backend as rb

    monkeypatch.setattr(rb, "desktop_size", lambda: (1000, 600))
    assert rb.windowed_size((1280, 720)) == (1280, 720)  # SDL_VIDEODRIVER=dummy: a fake desktop
    monkeypatch.setenv("SDL_VIDEODRIVER", "x11")
    assert rb.windowed_size((1280, 720)) == (950, 540)
    assert rb.windowed_size((900, 500)) == (900, 500)
    assert rb.windowed_size((700, 400)) == rb.MIN_SIZE  # never smaller than the minimum
    monkeypatch.setattr(rb, "desktop_size", lambda: (820, 500))
    assert rb.windowed_size((1280, 720)) == rb.MIN_SIZE  # never below the minimum
    monkeypatch.setattr(rb, "desktop_size", lambda: None)
    assert rb.windowed_size((1280, 720)) == (1280, 720)
    # both backends open their window at windowed_size (the real dummy driver underneath)
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setattr(rb, "windowed_size", lambda size: (900, 560))
    for renderer in ("gpu-soft", "software"):
        pygame.display.init()
        backend = create_backend(renderer, (1000, 600))
        try:
            assert backend.size() == (900, 560), renderer
        finally:
            backend.close()
            pygame.display.quit()
