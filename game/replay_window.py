"""``hongwu replay ID|FILE`` in a window: the replay viewer 回放 on its own (README "Career").
Without a display (or with ``--text``) the CLI prints the text replay instead."""
from __future__ import annotations

import os
import sys
from typing import Any

#: SDL video drivers that show nothing
HEADLESS_DRIVERS = ("dummy", "offscreen", "evdev")


def display_available() -> bool:
    """True when a window can be shown: Windows and macOS always; elsewhere an X11 or Wayland
    display is named, and SDL is not told to draw off screen."""
    if os.environ.get("SDL_VIDEODRIVER", "").lower() in HEADLESS_DRIVERS:
        return False
    if sys.platform.startswith(("win", "darwin")):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def run_viewer(replay: Any, lang: str | None = None, size: tuple[int, int] = (1280, 720),
               max_frames: int | None = None, review: tuple[Any, Any] | None = None) -> int:
    """Open a window showing ``replay`` (an ``engine.replay.Replay``, or a 找朋友
    ``engine.replay_zpy.ZpyReplay`` in :class:`game.scenes.replay_zpy_view.ZpyReplayScreen`) until it is closed (Back,
    Esc or the window's close button); returns 0 (3 when ``max_frames`` stopped it).
    ``review``: ``(db_path, record_id)`` of a record (its cached review 复盘 marks the
    steps and its Review button computes one) or ``(None, None)`` (a file: a Review button
    only), for 红五 and 找朋友 replays alike."""
    from game.app import App, Options
    from game.scenes.replay_view import ReplayScreen

    app = App(Options(menu=True, lang=lang, size=size, save_settings=False, audio=False, max_frames=max_frames))
    if replay.header.get("ruleset") == "zhaopengyou":  # 找朋友 frames (engine.replay_zpy)
        from game.scenes.replay_zpy_view import ZpyReplayScreen

        app.screens = [ZpyReplayScreen(app, replay, on_close=app.quit, review=review)]
    else:
        app.screens = [ReplayScreen(app, replay, on_close=app.quit, review=review)]
    return app.run()
