"""Client soak: the real client plays AI-only hands for a while; is memory stable?

Runs the pygame-ce client in-process (offscreen with the dummy video driver) with four
``basic`` AIs at ``--speed fast`` (animations on) hand after hand for ``--minutes``, sampling the
process's resident memory every ``--every`` seconds. Prints the samples, hands played, the
growth from the end of the first hand (which includes the warm-up of the client's and the
engine's bounded caches) and, as its last line, ``rss growth MB: <number>``: the growth over
the second half of the run. Target (issue 5): no memory growth over a 10-minute soak.

    python benchmarks/client_soak.py [--minutes 10] [--every 30] [--speed fast]
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("HONGWU_CONFIG_DIR", tempfile.mkdtemp(prefix="hongwu-soak-"))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from game.app import App, Options  # noqa: E402


def rss_mb() -> float:
    """Current resident set size of this process in MB (Linux /proc; 0.0 elsewhere)."""
    try:
        pages = int(Path("/proc/self/statm").read_text().split()[1])
    except (OSError, ValueError, IndexError):
        return 0.0
    return pages * os.sysconf("SC_PAGE_SIZE") / 1e6


def main(argv=None) -> int:
    """Run the soak and print the figures; returns 0."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--minutes", type=float, default=10.0)
    ap.add_argument("--every", type=float, default=30.0, help="seconds between samples")
    ap.add_argument("--speed", default="fast", choices=("slow", "normal", "fast", "instant"))
    args = ap.parse_args(argv)
    app = App(Options(seats=["basic"] * 4, seed=11, speed=args.speed, size=(1280, 720), hands=10**6,
                      audio=False, save_settings=False, user_plugins=False))
    end = time.monotonic() + args.minutes * 60
    next_sample = time.monotonic()
    samples: list[tuple[float, int, float]] = []
    start = time.monotonic()
    baseline = None
    try:
        while time.monotonic() < end:
            if not app.step():
                break
            hands = getattr(app, "hands_done", None)
            if hands is None:
                hands = max(0, app.table.hand_no - 1)
            if baseline is None and hands >= 1:
                baseline = rss_mb()
            if time.monotonic() >= next_sample:
                samples.append((time.monotonic() - start, hands, rss_mb()))
                print(f"t={samples[-1][0]:6.0f}s hands={hands:4d} rss={samples[-1][2]:7.1f} MB", flush=True)
                next_sample += args.every
    finally:
        app.close()
    last = samples[-1] if samples else (0.0, 0, rss_mb())
    half = next((x for x in samples if x[0] >= last[0] / 2), last)
    print(f"soak: {last[0] / 60:.1f} min, {last[1]} hands, rss after hand 1 {baseline or 0:.1f} MB, "
          f"at half time {half[2]:.1f} MB, at the end {last[2]:.1f} MB")
    print(f"rss growth from hand 1 MB (warm-up of bounded caches included): {last[2] - (baseline or last[2]):.1f}")
    print(f"rss growth MB: {last[2] - half[2]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
