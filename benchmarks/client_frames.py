#!/usr/bin/env python3
"""Frame times, idle CPU, start-up time and memory of the real client.

Runs :class:`game.app.App` offscreen (SDL dummy video driver, no sound) with the human seat on
auto-play against three ``basic`` AIs at ``normal`` speed with normal animations, on a
simulated 60 Hz clock so that every run sees the same animations.  Each frame is one
``App.step()`` (table poll, scene update, drawing, presenting).  Reported:

- 1920×1080, software surfaces: median and p99 frame time (ms) while the deal is animated
  and while trick animations run (cards flying, sweeps, count-ups, call-outs, flourishes);
- the same for the GPU path (``pygame._sdl2.video``) when an accelerated renderer exists —
  under the dummy driver it does not, which is printed; the texture path on SDL's software
  renderer is then measured instead, for information;
- 800×480 (software): median frame time during trick animations;
- idle table: CPU use in % of one core while the human is to act and nothing moves, over
  ``--idle-s`` seconds of real time with the app's own idle loop (``App.wait_events``);
- start-up: seconds from a fresh interpreter to the first frame shown (a subprocess);
- peak resident memory (``resource.getrusage``) of one client playing an animated hand at
  1920×1080 (a subprocess), and of this benchmark process;
- last line, exactly: ``frame ms median: <number>`` — trick animation at 1280×720, software.

Targets: 1080p median <= 3 ms and p99 <= 8 ms, 800×480 median <= 2 ms, idle CPU < 5%,
first frame <= 1.5 s, peak RSS <= 150 MB.

Frame-time figures are medians over ``--repeats`` runs (default 3).

Usage: ``python benchmarks/client_frames.py [--frames 600] [--repeats 3] [--idle-s 3] [--quick]``.
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
os.environ.setdefault("HONGWU_CONFIG_DIR", tempfile.mkdtemp(prefix="hongwu-bench-"))
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

ANIMATED = ("play", "sweep", "count", "callout", "red_five", "ruff")


def peak_rss_mb() -> float:
    """Peak resident set size of this process in MB: ``VmHWM`` from ``/proc/self/status``
    where there is one (it starts afresh at exec), else ``resource.getrusage`` (Linux reports
    KB, macOS bytes)."""
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    import resource

    r = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return r / (1024 * 1024) if sys.platform == "darwin" else r / 1024


def _app(size: tuple[int, int], seed: int, renderer: str, now: list[float]):
    from game.app import App, Options

    return App(Options(seats=["human", "basic", "basic", "basic"], seed=seed, speed="normal", size=size,
                       audio=False, save_settings=False, fps=0, user_plugins=False, renderer=renderer,
                       animations="normal", lang="zh"),
               clock=lambda: now[0])


def _ai_done(table) -> None:
    """Wait (untimed) until an AI decision being computed on the table's worker is ready, so
    that the AI's own CPU time (engine, heuristics) never lands in a measured frame."""
    pending = getattr(table, "_pending", None)
    if pending is not None:
        try:
            pending[2].result(timeout=5)
        except Exception:
            pass


def _step(app, now: list[float]) -> float:
    """One simulated 60 Hz frame; returns its duration in ms (drawing, table poll, update)."""
    _ai_done(app.table)
    t = time.perf_counter()
    app.step()
    dt = (time.perf_counter() - t) * 1000
    now[0] += 1 / 60
    return dt


def deal_frames(size: tuple[int, int], renderer: str, frames: int) -> list[float]:
    """Frame times (ms) while the deal animation runs, over as many new matches as needed."""
    out: list[float] = []
    seed = 200
    while len(out) < frames:
        now = [0.0]
        app = _app(size, seed, renderer, now)
        seed += 1
        try:
            for _ in range(1000):
                dealing = app.scene.dealing
                dt = _step(app, now)
                if dealing:
                    out.append(dt)
                elif out and not app.scene.dealing:
                    break
        finally:
            app.close()
    return out[:frames]


def trick_frames(size: tuple[int, int], renderer: str, frames: int) -> list[float]:
    """Frame times (ms) while trick animations run (plays, sweeps, count-ups, flourishes)."""
    out: list[float] = []
    seed = 100
    while len(out) < frames:
        now = [0.0]
        app = _app(size, seed, renderer, now)
        seed += 1
        app.scene.skip_animation()
        app.scene.toggle_auto(True)
        try:
            for _ in range(frames * 40):
                if len(out) >= frames or app.scene.show_settlement:
                    break
                sc = app.scene
                animating = any(a.key[0] in ANIMATED and a.t0 <= now[0] for a in sc.timeline)
                dt = _step(app, now)
                if animating:
                    out.append(dt)
        finally:
            app.close()
    return out[:frames]


def idle_cpu(seconds: float) -> float:
    """CPU use (% of one core) of the app's own loop while the human is to act and nothing
    moves, over ``seconds`` of real time."""
    from game.app import App, Options

    app = App(Options(seats=["human", "basic", "basic", "basic"], seed=7, speed="fast", size=(1280, 720),
                      audio=False, save_settings=False, user_plugins=False, lang="zh"))
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:  # reach the human's first decision, animations done
            app.step()
            if app.scene.view.my_turn and app.scene.idle and not app.table.busy:
                break
        for _ in range(5):
            app.step(app.wait_events())
        c0, t0 = time.process_time(), time.monotonic()
        while time.monotonic() - t0 < seconds:
            app.step(app.wait_events())
        c1, t1 = time.process_time(), time.monotonic()
    finally:
        app.close()
    return 100.0 * (c1 - c0) / (t1 - t0)


FIRST_FRAME = r"""
import os, sys, time
t0 = time.perf_counter()
sys.path.insert(0, {root!r})
from game.app import App, Options
app = App(Options(seats=["human", "basic", "basic", "basic"], seed=3, speed="normal", size=(1280, 720),
                  audio=False, save_settings=False, user_plugins=False, lang="zh", menu=False))
app.step()
print(time.perf_counter() - t0)
app.close()
"""


SESSION_RSS = r"""
import os, sys, time
sys.path.insert(0, {root!r})
from game.app import App, Options
now = [0.0]
app = App(Options(seats=["human", "basic", "basic", "basic"], seed=3, speed="normal", size=(1920, 1080),
                  audio=False, save_settings=False, fps=0, user_plugins=False, lang="zh"), clock=lambda: now[0])
app.scene.toggle_auto(True)
for _ in range(20000):
    now[0] += 1 / 60
    app.step()
    if app.table.busy:
        time.sleep(0.001)
    if app.scene.show_settlement:
        break
app.close()
sys.path.insert(0, {bench!r})
from client_frames import peak_rss_mb
print(peak_rss_mb())
"""


def session_rss_mb() -> float:
    """Peak RSS (MB) of a fresh client playing one animated hand at 1920×1080 (a subprocess)."""
    r = subprocess.run([sys.executable, "-c", SESSION_RSS.format(root=str(ROOT), bench=str(Path(__file__).resolve().parent))], capture_output=True, text=True,
                       env=dict(os.environ), timeout=600)
    lines = [ln for ln in r.stdout.splitlines() if ln.strip()]
    if r.returncode != 0 or not lines:
        raise RuntimeError(r.stderr[-2000:])
    return float(lines[-1])


def first_frame_s() -> float:
    """Seconds from a fresh interpreter (imports included) to the first table frame shown."""
    code = FIRST_FRAME.format(root=str(ROOT))
    times = []
    for _ in range(3):
        r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=dict(os.environ),
                           timeout=120)
        lines = [ln for ln in r.stdout.splitlines() if ln.strip()]
        if r.returncode != 0 or not lines:
            raise RuntimeError(r.stderr[-2000:])
        times.append(float(lines[-1]))
    return statistics.median(times)


def _stats(times: list[float]) -> tuple[float, float]:
    s = sorted(times)
    return statistics.median(s), s[min(len(s) - 1, int(len(s) * 0.99))]


def measure(fn, size: tuple[int, int], renderer: str, frames: int, repeats: int) -> tuple[float, float]:
    """``(median, p99)`` in ms of ``fn(size, renderer, frames)``: each the median over
    ``repeats`` runs (a busy machine's occasional descheduling moves one run's p99 a lot)."""
    runs = [_stats(fn(size, renderer, frames)) for _ in range(max(1, repeats))]
    return statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs)


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark; returns the exit code."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--frames", type=int, default=600, help="frames timed per measurement")
    ap.add_argument("--idle-s", type=float, default=3.0, help="seconds of idle table measured")
    ap.add_argument("--repeats", type=int, default=3, help="runs per frame-time measurement (medians taken)")
    ap.add_argument("--quick", action="store_true", help="fewer frames, shorter idle (smoke run)")
    ns = ap.parse_args(argv)
    frames = 120 if ns.quick else ns.frames
    idle_s = 1.0 if ns.quick else ns.idle_s
    reps = 1 if ns.quick else ns.repeats

    from game.render_backend import gpu_available

    for what, fn in (("dealing", deal_frames), ("trick animation", trick_frames)):
        med, p99 = measure(fn, (1920, 1080), "software", frames, reps)
        print(f"1920x1080 software {what}: median {med:.3f} ms, p99 {p99:.3f} ms")
    ok, why = gpu_available()
    if ok:
        for what, fn in (("dealing", deal_frames), ("trick animation", trick_frames)):
            med, p99 = measure(fn, (1920, 1080), "gpu", frames, reps)
            print(f"1920x1080 gpu {what}: median {med:.3f} ms, p99 {p99:.3f} ms")
    else:
        print(f"1920x1080 gpu: unavailable ({why})")
        med, p99 = measure(trick_frames, (1920, 1080), "gpu-soft", frames, reps)
        print(f"1920x1080 texture path on SDL's software renderer (information) trick animation: "
              f"median {med:.3f} ms, p99 {p99:.3f} ms")
    med, p99 = measure(trick_frames, (800, 480), "software", frames, reps)
    print(f"800x480 software trick animation: median {med:.3f} ms, p99 {p99:.3f} ms")
    print(f"idle table CPU: {idle_cpu(idle_s):.2f} % of one core")
    print(f"start to first frame: {first_frame_s():.3f} s")
    med720, p99_720 = measure(trick_frames, (1280, 720), "software", frames, reps)
    print(f"1280x720 software trick animation: median {med720:.3f} ms, p99 {p99_720:.3f} ms")
    print(f"peak RSS MB (one client, a full animated hand at 1920x1080): {session_rss_mb():.1f}")
    print(f"peak RSS MB (this benchmark process, every run above): {peak_rss_mb():.1f}")
    print(f"frame ms median: {med720:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
