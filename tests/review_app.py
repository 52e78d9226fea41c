"""The real client as the review 复盘 tests drive it: an App whose settings and career
database live in the test's tmp_path, mouse and key events handed straight to
:meth:`game.app.App.step` (unlike :mod:`tests.client_driver`, which posts them to SDL's queue),
a table played to its settlement, and a bounded wait for a review's background process.

Import it after ``pytest.importorskip("pygame")``."""
from __future__ import annotations

import io
import time
from pathlib import Path
from typing import Any

import pygame

from game.app import App, Options
from game.career import Recorder, Store
from game.scenes import replay_marks as rm
from tests.review_hands import PROFILE

#: the window size of the review tests unless one asks for another
SIZE = (800, 480)


def review_app(tmp_path: Path, monkeypatch: Any, size: tuple[int, int] = SIZE, lang: str = "en",
               **kw: Any) -> App:
    """A real App (instant speed, no sound, nothing saved, no user plugins, result lines to a
    StringIO) whose config and data folders are ``tmp_path``: the main menu, or a table when
    any :class:`game.app.Options` field in ``kw`` asks for one (seats, ruleset, seed, ...)."""
    monkeypatch.setenv("HONGWU_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("HONGWU_CONFIG_DIR", str(tmp_path))
    return App(Options(menu=not kw, lang=lang, speed="instant", audio=False, save_settings=False,
                       user_plugins=False, out=io.StringIO(), size=size, **kw))


def click(app: App, pos: tuple[int, int], touch: bool = False) -> None:
    """One frame with a left press and release at ``pos`` (``touch``: as SDL marks the mouse
    events it makes from a finger)."""
    app.step([pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=pos, touch=touch),
              pygame.event.Event(pygame.MOUSEBUTTONUP, button=1, pos=pos, touch=touch)])


def press_key(app: App, k: int, mod: int = 0) -> None:
    """One frame with a KEYDOWN of ``k`` under modifiers ``mod`` (pygame.KMOD_*)."""
    app.step([pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode="", scancode=0)])


def button_of(owner: Any, key: str) -> Any:
    """The button ``key`` of a scene or screen ``owner`` (AssertionError if it has none)."""
    for b in owner.buttons:
        if b.key == key:
            return b
    raise AssertionError(f"no button {key!r}; have {[b.key for b in owner.buttons]}")


def press(app: App, owner: Any, key: str, touch: bool = False) -> None:
    """:func:`click` the centre of ``owner``'s button ``key``."""
    click(app, button_of(owner, key).rect.center, touch)


def open_viewer(app: App, record_id: int) -> Any:
    """Open the replay viewer of the career record ``record_id`` as the app does, draw one
    frame; returns the viewer."""
    app.open_replay(record_id)
    viewer = app.top
    app.step([])
    return viewer


def check_marks_drawn(app: App, viewer: Any) -> Any:
    """Assert what a replay viewer with review marks draws, at any size and for either game: a
    dot over each marked step's tick in the mark's colour (but where the slider's knob covers
    it), and the next-costly jump button big enough to tap, inside the window, off the slider.
    Returns that button."""
    win = app.window
    assert set(viewer.mark_dots) == set(viewer.marks)
    for k, p in viewer.mark_dots.items():
        if k != viewer.step:  # the knob covers its own step
            assert tuple(win.get_at(p))[:3] == rm.mark_color(viewer.marks[k])
    jump = button_of(viewer, "next_costly")
    assert jump.rect.h >= 40 and win.get_rect().contains(jump.rect) and not jump.rect.colliderect(viewer.slider)
    return jump


def wait_review(app: App, screen: Any, limit_s: float = 600) -> list[tuple[int, int]]:
    """Run frames while the review ``screen`` is ``running`` (at most ``limit_s`` seconds: a
    bound on the background work, not a timing); returns the progress ``(done, total)`` seen
    after each frame."""
    end = time.monotonic() + limit_s
    seen = []
    while screen.state == "running" and time.monotonic() < end:
        app.step([])
        seen.append(screen.progress)
        time.sleep(0.02)
    return seen


def play_to_settlement(app: App, frames: int = 20000) -> None:
    """Let the AI play the human's seat too until the table shows its settlement (at most
    ``frames`` frames; AssertionError if it does not), then draw one more frame."""
    app.scene.toggle_auto(True)
    for _ in range(frames):
        app.step([])
        if app.scene.show_settlement:
            break
    assert app.scene.show_settlement
    app.step([])


def recorded_table(tmp_path: Path, monkeypatch: Any, seats: list[str], **kw: Any) -> tuple[App, Store, Recorder]:
    """A table (``seats``, seed 5 unless ``kw`` says otherwise) recorded for profile
    :data:`tests.review_hands.PROFILE` in a real store at ``tmp_path/hongwu.db``, played to its
    settlement; returns ``(app, store, recorder)`` (the caller closes the app and the store)."""
    store = Store.open(tmp_path / "hongwu.db")
    store.create_profile(PROFILE)
    rec = Recorder(store, PROFILE)
    app = review_app(tmp_path, monkeypatch, seats=seats, **({"seed": 5} | kw), max_frames=50000, recorder=rec)
    try:
        play_to_settlement(app)
    except BaseException:
        app.close()
        store.close()
        raise
    return app, store, rec
