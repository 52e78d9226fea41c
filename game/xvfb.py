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
