#!/usr/bin/env python3
"""Frame time of the real client while cards fly across the table (software rendering).

Runs :class:`game.app.App` offscreen (SDL dummy video driver, no sound) at 1280×720 with four
``basic`` AIs at ``normal`` speed, on a simulated 60 Hz clock so that every run sees the same
animations.  Only frames drawn while a played card is in flight are timed.  Prints, per
repeat, the median and 95th percentile frame time in ms, then the medians over the repeats,
the peak resident memory (``resource.getrusage``), and as its last line exactly
``frame ms median: <number>``.

Usage: ``python benchmarks/client_frames.py [--repeats 5] [--frames 300] [--size 1280x720]``.
Targets: median <= 4 ms, peak RSS <= 150 MB.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("SDL_RENDER_DRIVER", "software")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
os.environ.setdefault("HONGWU_CONFIG_DIR", tempfile.mkdtemp(prefix="hongwu-bench-"))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def peak_rss_mb() -> float:
    """Peak resident set size of this process in MB (Linux reports KB, macOS bytes)."""
    import resource

    r = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return r / (1024 * 1024) if sys.platform == "darwin" else r / 1024


def one_run(frames: int, size: tuple[int, int], seed: int) -> list[float]:
    """Frame times (ms) of ``frames`` animated frames of one match."""
    from game.app import App, Options

    now = [0.0]
    app = App(Options(seats=["basic"] * 4, seed=seed, speed="normal", size=size, audio=False,
                      save_settings=False, fps=0, user_plugins=False),
              clock=lambda: now[0])
    times: list[float] = []
    try:
        for _ in range(frames * 200):
            if len(times) >= frames:
                break
            sc = app.scene
            animating = any(f.key[0] == "play" and f.t0 <= now[0] for f in sc.flights)
            t = time.perf_counter()
            if not app.step():
                break
            dt = (time.perf_counter() - t) * 1000
            if animating:
                times.append(dt)
            now[0] += 1 / 60
            if app.table.busy:  # let the AI thread answer before the next simulated frame
                time.sleep(0.0005)
    finally:
        app.close()
    return times


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark; returns the exit code."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--frames", type=int, default=300, help="animated frames timed per repeat")
    ap.add_argument("--size", default="1280x720")
    ns = ap.parse_args(argv)
    size = tuple(int(x) for x in ns.size.lower().split("x"))
    medians, p95s = [], []
    for r in range(ns.repeats):
        times = sorted(one_run(ns.frames, size, seed=100 + r))
        if not times:
            print("no animated frame was drawn", file=sys.stderr)
            return 1
        med = statistics.median(times)
        p95 = times[min(len(times) - 1, int(len(times) * 0.95))]
        medians.append(med)
        p95s.append(p95)
        print(f"repeat {r + 1}: {len(times)} animated frames, median {med:.3f} ms, p95 {p95:.3f} ms")
    print(f"frame ms p95 (median of repeats): {statistics.median(p95s):.3f}")
    print(f"peak RSS MB: {peak_rss_mb():.1f}")
    print(f"frame ms median: {statistics.median(medians):.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
