"""A virtual X display (Xvfb) for the tools and benchmarks that must see what a player sees.

:func:`start_xvfb` runs ``Xvfb DISPLAY -screen 0 WxHx24`` and waits until it accepts clients;
it is stopped when the calling process exits.  Used by ``benchmarks/client_frames.py --xvfb``
(frame times on a real display) and ``tools/screenshots.py`` (README screenshots).  Nothing in
the game itself needs it.
"""
from __future__ import annotations

import atexit
import shutil
import subprocess
import time
from pathlib import Path


def start_xvfb(display: str, screen: str) -> subprocess.Popen:
    """Start ``Xvfb display`` (e.g. ``":73"``) with one screen of ``screen`` (``"2560x1440x24"``),
    listening on no TCP port, and wait up to 5 s for its socket.  Returns the process (stopped at
    exit).  Raises RuntimeError when Xvfb is not installed, exits (display in use?) or does not
    come up."""
    if shutil.which("Xvfb") is None:
        raise RuntimeError("Xvfb is not installed")
    proc = subprocess.Popen(["Xvfb", display, "-screen", "0", screen, "-nolisten", "tcp"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def stop() -> None:
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(5)
            except subprocess.TimeoutExpired:
                proc.kill()

    atexit.register(stop)
    sock = Path(f"/tmp/.X11-unix/X{display.lstrip(':')}")
    for _ in range(100):
        if proc.poll() is not None:
            raise RuntimeError(f"Xvfb {display} exited with {proc.returncode} (display in use?)")
        if sock.exists():
            return proc
        time.sleep(0.05)
    stop()
    raise RuntimeError(f"Xvfb {display} did not start")


def screen_for(window: tuple[int, int]) -> str:
    """An Xvfb screen spec (``"WxHx24"``) with room for a ``window`` of (w, h) pixels and its
    decorations: at least 1920×1080, and the window at most 90% × 85% of the screen."""
    w, h = window
    return f"{max(1920, int(w / 0.9) + 16)}x{max(1080, int(h / 0.85) + 16)}x24"


def use_display(display: str | None, window: tuple[int, int]) -> None:
    """Point SDL at a fresh Xvfb ``display`` sized for ``window`` (w, h), or at the dummy
    driver when ``display`` is None (unless ``SDL_VIDEODRIVER`` is already set). Sets
    ``DISPLAY`` and ``SDL_VIDEODRIVER`` in this process's environment, and
    ``SDL_AUDIODRIVER=dummy`` unless set. Raises RuntimeError as :func:`start_xvfb`."""
    import os

    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    if display:
        start_xvfb(display, screen_for(window))
        os.environ["DISPLAY"] = display
        os.environ["SDL_VIDEODRIVER"] = "x11"
    else:
        os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
