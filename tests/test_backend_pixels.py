"""The GPU texture path shows exactly what the software path shows, after every partial update.

The real client (``game.app.App``) runs on :class:`game.render_backend.TextureBackend` (SDL's
renderer on the dummy video driver: ``renderer="gpu-soft"``).  Every layered frame it presents
is also handed, unchanged, to a :class:`SoftwareBackend` drawing into an off-screen surface, and
what the renderer really shows (read back with ``Renderer.to_surface``) must equal that surface
byte for byte.  Plain scenes (menus, overlays) draw on the backend's canvas: what the renderer
shows must equal the canvas.  Seeded whole hands are played at 800×480, 1280×720 and 1920×1080
(deal, auction, trump countdown, burying, tricks, a failed throw, settlement, the pause overlay),
and the main menu's screens are opened.  Bounded in frames; nothing here measures time.

Translucent sprites are blended with SDL's own blitter on the software path (the one SDL's
renderer uses), so even faded cards match exactly.  A defect this catches: ``Texture.update(surface, area)`` in pygame-ce 2.5 writes at the
texture's top-left whatever ``area`` says, so uploading damaged regions with it garbled every
partial update on a real display while the software path drew correctly.
"""
from __future__ import annotations

import pytest

pygame = pytest.importorskip("pygame")

from engine.state import Phase  # noqa: E402
from game import i18n  # noqa: E402
from game.app import App, Options  # noqa: E402
from game.render_backend import SoftwareBackend, TextureBackend  # noqa: E402
from game.table import FirstLegalPlayer, LocalTable  # noqa: E402
from tests.client_driver import throw_table  # noqa: E402

SIZES = [(800, 480), (1280, 720), (1920, 1080)]


@pytest.fixture(autouse=True)
def _english_after():
    yield
    i18n.set_language("en")


class Shadow:
    """Checks a TextureBackend against a software rendering of the same frames.

    ``check_every``: compare the read-back every N presented frames (reading back a 1080p
    renderer is slow); phase changes and the end are always compared by the test itself.
    """

    def __init__(self, backend: TextureBackend, check_every: int = 1) -> None:
        self.backend = backend
        self.check_every = check_every
        self.soft = SoftwareBackend(pygame.Surface(backend.surface.get_size()), update_display=False)
        self.presented = 0
        self.compared = 0
        self.partial = 0  # frames presented with a damage list (the partial updates)
        self.mode = "frame"
        real_frame, real_surface = backend.present_frame, backend.present_surface

        def present_frame(frame):
            if self.soft.surface.get_size() != frame.background.get_size():
                self.soft = SoftwareBackend(pygame.Surface(frame.background.get_size()), update_display=False)
            self.soft.present_frame(frame)
            rects = real_frame(frame)
            if rects:
                self.mode = "frame"
                self.presented += 1
                self.partial += frame.damage is not None
                if self.presented % self.check_every == 0:
                    self.compare()
            return rects

        def present_surface(dirty, source=None):
            rects = real_surface(dirty, source=source)
            if rects:
                self.mode = "surface"
                self.presented += 1
                self.partial += bool(dirty)
                if self.presented % self.check_every == 0:
                    self.compare()
            return rects

        backend.present_frame = present_frame
        backend.present_surface = present_surface

    def compare(self) -> None:
        """Assert the renderer shows byte for byte what the software path shows (RGB)."""
        shown = self.backend.renderer.to_surface()
        want = self.soft.surface if self.mode == "frame" else self.backend.surface
        assert shown.get_size() == want.get_size()
        if pygame.image.tobytes(shown, "RGB") != pygame.image.tobytes(want, "RGB"):
            at = _first_difference(shown, want)
            raise AssertionError(f"GPU frame {self.presented} ({self.mode}) differs from the software "
                                 f"render at {at}: {tuple(shown.get_at(at))[:3]} != {tuple(want.get_at(at))[:3]}")
        self.compared += 1


def _first_difference(a, b) -> tuple[int, int]:
    """The first pixel ``(x, y)`` (row by row) where ``a`` and ``b`` differ in RGB."""
    ra, rb = pygame.image.tobytes(a, "RGB"), pygame.image.tobytes(b, "RGB")
    i = next(i for i in range(len(ra)) if ra[i] != rb[i]) // 3
    return (i % a.get_width(), i // a.get_width())


def _gpu_app(table, now, size, lang="en", menu=False) -> App:
    opts = Options(seats=["human", "first", "first", "first"], size=size, lang=lang, speed="normal",
                   audio=False, save_settings=False, fps=0, user_plugins=False, max_frames=40000,
                   renderer="gpu-soft", menu=menu)
    app = App(opts, table=table, clock=lambda: now[0])
    if not isinstance(app.backend, TextureBackend):
        app.close()
        pytest.skip("SDL's renderer is not available here")
    return app


def _tick(app, now, table, dt=1 / 30):
    import time

    now[0] += dt
    app.step()
    if table is not None and table.busy:  # let the AI worker answer before the next simulated frame
        time.sleep(0.001)


@pytest.mark.parametrize("size", SIZES)
def test_gpu_frames_equal_software_frames_over_a_whole_hand(size):
    now = [10.0]
    players = {s: FirstLegalPlayer(s) for s in (1, 2, 3)}
    table = LocalTable(["human", "first", "first", "first"], seed=5, speed="normal", players=players,
                       clock=lambda: now[0])
    app = _gpu_app(table, now, size)
    shadow = Shadow(app.backend, check_every={800: 1, 1280: 2}.get(size[0], 5))
    phases = set()
    try:
        sc = app.scene
        sc.toggle_auto(True)
        last = None
        for _ in range(6000):
            _tick(app, now, table)
            phase = sc.view.phase
            if phase != last:  # every phase change is compared, whatever check_every says
                phases.add(phase)
                shadow.compare()
                last = phase
            if phase == Phase.SETTLE and not sc.flights:
                for _ in range(40):  # the settlement panel counting up
                    _tick(app, now, table)
                break
        shadow.compare()
        assert {Phase.BID, Phase.PLAY, Phase.SETTLE} <= phases
        # the pause overlay over the table, and back to the table
        before = shadow.presented
        for paused in (True, False):
            pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode="",
                                                 scancode=0))
            for _ in range(4):
                _tick(app, now, table)
            assert bool(app.screens) == paused
            shadow.compare()
        assert shadow.presented > before
        assert shadow.partial > 50 and shadow.compared > 10
    finally:
        app.close()


@pytest.mark.parametrize("size", [(800, 480), (1280, 720)])
def test_gpu_frames_equal_software_frames_through_a_failed_throw(size):
    from engine.state import Bid, first_legal_action

    now = [1000.0]
    table = throw_table(1, clock=lambda: now[0])
    app = _gpu_app(table, now, size, lang="zh")
    shadow = Shadow(app.backend)
    try:
        sc = app.scene
        seen = False
        for _ in range(3000):
            _tick(app, now, table, dt=0.05)
            v = sc.view
            if any(getattr(t, "tried", None) for t in sc.toasts):
                seen = True
            elif seen:
                break  # the banner is gone again
            if v.my_turn and not sc.dealing:
                sc.submit(Bid(0, None) if v.phase == Phase.BID else first_legal_action(v))
        assert seen, "the failed throw never happened"
        shadow.compare()
        assert shadow.compared > 20
    finally:
        app.close()


@pytest.mark.parametrize("size", SIZES)
def test_gpu_menus_and_overlays_equal_their_canvas(size):
    """Every menu screen, and the pause overlay over a table, through the texture path."""
    from tests.client_driver import click

    now = [10.0]
    app = _gpu_app(None, now, size, menu=True)
    shadow = Shadow(app.backend)
    try:
        _tick(app, now, None)
        seen = set()
        for key in ("rules", "settings", "new"):
            screen = app.top
            b = next((b for b in screen.buttons if b.key == key), None)
            assert b is not None, f"no {key!r} on the main menu: {[b.key for b in screen.buttons]}"
            click(app, b.rect.center)
            for _ in range(5):
                _tick(app, now, None)
            seen.add(type(app.top).__name__)
            # hover over every button (partial updates of a plain scene), then go back
            for other in list(app.top.buttons)[:12]:
                pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=other.rect.center, rel=(0, 0),
                                                     buttons=(0, 0, 0)))
                _tick(app, now, None)
            pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode="",
                                                 scancode=0))
            for _ in range(3):
                _tick(app, now, None)
        assert len(seen) == 3
        assert shadow.compared >= 10 and shadow.partial > 0
    finally:
        app.close()


def test_self_test_passes_here_and_a_renderer_that_draws_wrong_falls_back(monkeypatch, caplog):
    """The start-up self-test accepts SDL's renderer as it is, and refuses one whose partial
    uploads land in the wrong place (as ``Texture.update(surface, area)`` does), so the
    client falls back to software surfaces with one log line."""
    import logging

    from game import render_backend as rb

    pygame.init()
    be = rb.create_backend("gpu-soft", (800, 480), title="test")
    if not isinstance(be, TextureBackend):
        pytest.skip("SDL's renderer is not available here")
    try:
        assert be.self_test() is None
    finally:
        be.close()

    def misplaced_upload(self, bg, damage):  # the old defect: every patch lands at the top-left
        if self._bg_tex is None or damage is None:
            self._bg_tex = self._Texture.from_surface(self.renderer, bg)
            self._bg_size = bg.get_size()
            return
        for r in damage:
            self._bg_tex.update(bg.subsurface(r), r)

    monkeypatch.setattr(rb.TextureBackend, "_upload", misplaced_upload)
    with caplog.at_level(logging.WARNING, logger=rb.__name__):
        be = rb.create_backend("gpu-soft", (800, 480), title="test")
    try:
        assert isinstance(be, SoftwareBackend)
        warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
        assert len(warnings) == 1 and "draws wrong" in warnings[0].getMessage()
    finally:
        be.close()


def test_auto_avoids_a_cpu_rasteriser_but_gpu_still_gets_it(monkeypatch):
    """``auto`` takes software surfaces when the "accelerated" renderer is Mesa's llvmpipe (it
    composes every frame on the CPU); an explicit ``gpu`` still gets the texture path."""
    from game import render_backend as rb

    pygame.init()
    opened = []
    real_open = rb._open_texture_window

    def open_soft(title, size, fullscreen, accelerated):
        opened.append(accelerated)
        return real_open(title, size, fullscreen, 0)  # SDL's software renderer stands in here

    monkeypatch.setattr(rb, "_open_texture_window", open_soft)
    monkeypatch.setattr(rb, "software_gl_renderer", lambda: "llvmpipe (LLVM 15.0.6, 256 bits)")
    be = rb.create_backend("auto", (800, 480), title="test")
    try:
        assert isinstance(be, SoftwareBackend) and opened == [1]
    finally:
        be.close()
    be = rb.create_backend("gpu", (800, 480), title="test")
    try:
        assert isinstance(be, TextureBackend)
    finally:
        be.close()
