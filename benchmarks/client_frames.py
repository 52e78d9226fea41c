#!/usr/bin/env python3
"""Frame times, idle CPU, start-up time and memory of the real client.

Runs :class:`game.app.App` in a real window when an X display is there (``DISPLAY`` set, or
``--xvfb``, which starts ``Xvfb :73`` itself and stops it at the end): SDL's ``x11`` video
driver, every frame really presented (``pygame.display.update`` / ``Renderer.present``).
Without a display it runs under SDL's dummy video driver (``--driver dummy`` forces it), where
"presenting" copies nothing anywhere; every figure line says which driver and renderer it
measured.  No sound.  The human seat is on auto-play against three ``basic`` AIs at ``normal`` speed with normal animations, on a
simulated 60 Hz clock so that every run sees the same animations.  Each frame is one
``App.step()`` (table poll, scene update, drawing, presenting).  Reported:

For each renderer — ``software`` (surfaces with dirty rectangles) and ``gpu`` (the
``TextureBackend``; when no accelerated SDL renderer exists, ``gpu-soft``: the same texture
path on SDL's software renderer, which is printed):

- 1920×1080: median and p99 frame time (ms) while the deal is animated and while trick
  animations run (cards flying, sweeps, count-ups, call-outs, flourishes);
- 800×480 and 1280×720: the same during trick animations;

and once:

- idle table: CPU use in % of one core while the human is to act and nothing moves, over
  ``--idle-s`` seconds of real time with the app's own idle loop (``App.wait_events``);
- start-up: seconds from a fresh interpreter to the first frame shown (a subprocess);
- peak resident memory (``resource.getrusage``) of one client playing an animated hand at
  1920×1080 (a subprocess), and of this benchmark process;
- last line, exactly: ``frame ms median: <number>`` — trick animation at 1280×720, software.

Targets (software): 1080p median <= 4 ms and p99 <= 8 ms, 800×480 median <= 1 ms and
p99 <= 3 ms, idle CPU < 5%, first frame <= 1.5 s, peak RSS <= 150 MB.

The Xvfb screen ``--xvfb`` starts is 2560×1440 so that a 1920×1080 window fits (the client
shrinks a window that does not fit on the desktop); the window size really used is printed.

Frame-time figures are medians over ``--repeats`` runs (default 3).

Usage: ``python benchmarks/client_frames.py [--xvfb] [--driver auto|x11|dummy] [--renderer software|gpu]
[--frames 600] [--repeats 3] [--idle-s 3] [--quick] [--profile FILE]``.
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

os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
os.environ.setdefault("HONGWU_CONFIG_DIR", tempfile.mkdtemp(prefix="hongwu-bench-"))
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

XVFB_DISPLAY = ":73"
XVFB_SCREEN = "2560x1440x24"
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


SEEN: dict[str, str] = {}  # renderer asked -> what really ran (backend kind, driver, size)


def start_xvfb(display: str = XVFB_DISPLAY, screen: str = XVFB_SCREEN) -> subprocess.Popen:
    """Start the benchmark's Xvfb (:func:`game.xvfb.start_xvfb`); stopped at exit."""
    from game.xvfb import start_xvfb as start

    return start(display, screen)


def choose_driver(driver: str) -> str:
    """Set ``SDL_VIDEODRIVER`` for ``driver`` (``auto``: ``x11`` when ``DISPLAY`` is set, else
    ``dummy``) before pygame is imported; returns the driver name."""
    if driver == "auto":
        driver = "x11" if os.environ.get("DISPLAY") else "dummy"
    os.environ["SDL_VIDEODRIVER"] = driver
    return driver


def driver_label() -> str:
    """The video driver in use, as printed on every figure line (``x11/Xvfb``, ``dummy``...)."""
    drv = os.environ.get("SDL_VIDEODRIVER", "")
    if drv == "x11" and os.environ.get("HONGWU_BENCH_XVFB"):
        return "x11/Xvfb"
    if drv == "dummy":
        return "dummy (offscreen, nothing shown)"
    return drv


def _note(renderer: str, app, size: tuple[int, int]) -> None:
    b = getattr(app, "backend", None)
    kind = getattr(b, "kind", "?")
    if kind == "gpu":
        kind = f"TextureBackend, {getattr(b, 'driver', '')}"
    else:
        kind = "SoftwareBackend"
    got = tuple(app.window.get_size())
    if got != tuple(size):
        kind += f"; NOTE window was {got[0]}x{got[1]}"
    SEEN[renderer] = kind


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
        _note(renderer, app, size)
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
        _note(renderer, app, size)
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


def idle_cpu(seconds: float, renderer: str = "software") -> float:
    """CPU use (% of one core) of the app's own loop while the human is to act and nothing
    moves, over ``seconds`` of real time."""
    from game.app import App, Options

    app = App(Options(seats=["human", "basic", "basic", "basic"], seed=7, speed="fast", size=(1280, 720),
                      audio=False, save_settings=False, user_plugins=False, lang="zh", renderer=renderer))
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
                  audio=False, save_settings=False, user_plugins=False, lang="zh", menu=False,
                  renderer={renderer!r}))
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
                  audio=False, save_settings=False, fps=0, user_plugins=False, lang="zh", renderer={renderer!r}),
          clock=lambda: now[0])
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


def session_rss_mb(renderer: str = "software") -> float:
    """Peak RSS (MB) of a fresh client playing one animated hand at 1920×1080 (a subprocess)."""
    code = SESSION_RSS.format(root=str(ROOT), bench=str(Path(__file__).resolve().parent), renderer=renderer)
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       env=dict(os.environ), timeout=600)
    lines = [ln for ln in r.stdout.splitlines() if ln.strip()]
    if r.returncode != 0 or not lines:
        raise RuntimeError(r.stderr[-2000:])
    return float(lines[-1])


def first_frame_s(renderer: str = "software") -> float:
    """Seconds from a fresh interpreter (imports included) to the first table frame shown."""
    code = FIRST_FRAME.format(root=str(ROOT), renderer=renderer)
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
    ap.add_argument("--xvfb", action="store_true",
                    help=f"start Xvfb {XVFB_DISPLAY} ({XVFB_SCREEN}) for the run and measure on it (x11 driver)")
    ap.add_argument("--driver", choices=("auto", "x11", "dummy"), default="auto",
                    help="SDL video driver (auto: x11 when DISPLAY is set, else dummy)")
    ap.add_argument("--renderer", action="append", choices=("software", "gpu"), default=None,
                    help="renderer(s) measured (default both)")
    ap.add_argument("--profile", type=Path, default=None, metavar="FILE",
                    help="write a cProfile of the frame-time runs to FILE (and print the top costs)")
    ns = ap.parse_args(argv)
    frames = 120 if ns.quick else ns.frames
    idle_s = 1.0 if ns.quick else ns.idle_s
    reps = 1 if ns.quick else ns.repeats
    if ns.xvfb:
        start_xvfb()
        os.environ["DISPLAY"] = XVFB_DISPLAY
        os.environ["HONGWU_BENCH_XVFB"] = "1"  # children (first frame, RSS) inherit the display
        driver = choose_driver("x11" if ns.driver == "auto" else ns.driver)
    else:
        driver = choose_driver(ns.driver)
    if driver == "x11" and not os.environ.get("DISPLAY"):
        print("--driver x11 needs DISPLAY (or --xvfb)", file=sys.stderr)
        return 2

    import pygame

    from game.render_backend import gpu_available

    pygame.display.init()
    ok, why = gpu_available()
    renderers = []
    for r in ns.renderer or ["software", "gpu"]:
        if r == "gpu" and not ok:
            print(f"[{driver_label()}] gpu: no accelerated renderer ({why}); measuring gpu-soft, the texture "
                  "path on SDL's software renderer, instead")
            r = "gpu-soft"
        renderers.append(r)

    prof = None
    if ns.profile:
        import cProfile

        prof = cProfile.Profile()

    def line(renderer: str, text: str) -> None:
        print(f"[{driver_label()}; {renderer}: {SEEN.get(renderer, 'renderer ' + renderer)}] {text}", flush=True)

    def timed(fn, size, renderer):
        if prof is not None:
            prof.enable()
        try:
            return measure(fn, size, renderer, frames, reps)
        finally:
            if prof is not None:
                prof.disable()

    med720 = None
    for ren in renderers:
        for what, fn in (("dealing", deal_frames), ("trick animation", trick_frames)):
            med, p99 = timed(fn, (1920, 1080), ren)
            line(ren, f"1920x1080 {what}: median {med:.3f} ms, p99 {p99:.3f} ms")
        med, p99 = timed(trick_frames, (800, 480), ren)
        line(ren, f"800x480 trick animation: median {med:.3f} ms, p99 {p99:.3f} ms")
        med, p99 = timed(trick_frames, (1280, 720), ren)
        line(ren, f"1280x720 trick animation: median {med:.3f} ms, p99 {p99:.3f} ms")
        if ren == "software" or med720 is None:
            med720 = med
        line(ren, f"idle table CPU: {idle_cpu(idle_s, ren):.2f} % of one core")
        line(ren, f"start to first frame: {first_frame_s(ren):.3f} s")
        line(ren, f"peak RSS MB (one client, a full animated hand at 1920x1080): {session_rss_mb(ren):.1f}")
    print(f"[{driver_label()}] peak RSS MB (this benchmark process, every run above): {peak_rss_mb():.1f}")
    if prof is not None:
        import pstats

        prof.dump_stats(str(ns.profile))
        pstats.Stats(prof).sort_stats("tottime").print_stats(20)
    print(f"frame ms median: {med720:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
