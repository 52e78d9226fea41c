"""``hongwu play``: the pygame-ce window, its main loop, and the demo / soak mode.

``add_parser(subparsers)`` registers the sub-command (wired in :mod:`game.cli`); ``run(ns)``
starts it.  :class:`App` is the client itself: tests and benchmarks create one and call
:meth:`App.step` frame by frame.
"""
from __future__ import annotations

import argparse
import logging
import os
import sys
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

log = logging.getLogger(__name__)

DEFAULT_SIZE = (1280, 720)
FPS = 60


@dataclass
class Options:
    """Everything ``hongwu play`` can be told (see ``hongwu play --help``).

    ``seats``: four seat kinds (``"human"`` or an AI name / ``module:object``); ``hands``: play
    that many hands then exit (None: until the window closes); ``size``: window size in px;
    ``lang``/``speed``: None = saved setting; ``audio``: False never touches the mixer;
    ``save_settings``: write language/speed/seats to the settings file;
    ``max_frames``: stop after that many frames (tests; None = no limit); ``fps``: frame cap
    (0 = none; ``instant`` speed never waits); ``out``: where result lines go (default stdout).
    """

    seats: list[str] = field(default_factory=lambda: ["human", "basic", "basic", "basic"])
    decks: int = 2
    seed: int | None = None
    lang: str | None = None
    speed: str | None = None
    hands: int | None = None
    fullscreen: bool = False
    size: tuple[int, int] = DEFAULT_SIZE
    plugin_dirs: list[str] = field(default_factory=list)
    ai_specs: list[str] = field(default_factory=list)
    user_plugins: bool = True
    budget_s: float = 2.0
    audio: bool = True
    volume: float | None = None
    save_settings: bool = True
    max_frames: int | None = None
    fps: int = FPS
    out: Any = None


def result_line(hand_no: int, settlement: Any) -> str:
    """One line per finished hand, e.g.
    ``hand 1: dealer seat 2 bid 75 final +15 game points [+6,-2,-2,-2]``."""
    gp = ",".join(f"{g:+d}" for g in settlement.game_points)
    return (f"hand {hand_no}: dealer seat {settlement.dealer} bid {settlement.bid} "
            f"final {settlement.dealer_final:+d} game points [{gp}]")


class App:
    """The client: a window (or any surface), one :class:`~game.scenes.table_scene.TableScene`.

    Arguments: ``options``; ``table`` (a :class:`game.table.Table`; default a
    :class:`game.table.LocalTable` built from the options); ``screen`` (a surface to draw on
    instead of opening a window — benchmarks); ``clock`` (seconds).

    :meth:`step` runs one frame and returns False once the app is done; :attr:`exit_code`
    then holds the exit status.  Raises ValueError for invalid seats or speed.
    """

    def __init__(self, options: Options, table: Any = None, screen: Any = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        import pygame

        from game import i18n, settings as settings_mod
        from game.audio import Audio
        from game.pacing import pace
        from game.scenes.table_scene import TableScene

        self.options = options
        self.clock = clock
        self.settings = settings_mod.load()
        lang = options.lang or self.settings.lang
        self.lang = i18n.set_language(lang)
        self.speed = options.speed or self.settings.speed
        self.pace = pace(self.speed)
        pygame.init()
        self._own_window = screen is None
        if screen is None:
            self.window = self._open_window(options)
        else:
            self.window = screen
        self._set_caption()
        if options.volume is not None:
            self.settings.volume = min(1.0, max(0.0, options.volume))
        self.audio = Audio(self.settings.volume, self.settings.muted, enabled=options.audio)
        if table is None:
            from game.table import LocalTable

            table = LocalTable(options.seats, decks=options.decks, seed=options.seed, speed=self.speed,
                               plugin_dirs=options.plugin_dirs, ai_specs=options.ai_specs,
                               user_plugins=options.user_plugins, budget_s=options.budget_s,
                               clock=clock)
        self.table = table
        self.scene = TableScene(table, self.window.get_size(), self.pace, self.audio, clock=clock,
                                on_event=self._on_event, on_next_hand=self.next_hand,
                                toolbar_items=self._toolbar_items, on_toolbar=self._on_toolbar)
        self.hands_done = 0
        self.results: list[str] = []
        self.frames = 0
        self.running = True
        self.exit_code = 0
        self._pg_clock = pygame.time.Clock()
        self._demo = getattr(table, "seat", None) is None
        if options.save_settings and not self._demo and options.hands is None:
            self._save(seats=list(options.seats), lang=options.lang or self.settings.lang,
                       speed=options.speed or self.settings.speed, volume=self.settings.volume)
        log.info("client started: seats=%s speed=%s lang=%s", options.seats, self.speed, self.lang)

    # -- window -------------------------------------------------------------------------------
    def _open_window(self, options: Options):
        import pygame

        from game.layout import MIN_SIZE

        flags = pygame.RESIZABLE
        size = options.size
        try:
            desk = pygame.display.get_desktop_sizes()[0]
        except Exception:
            desk = None
        if os.environ.get("SDL_VIDEODRIVER", "") in ("dummy", "offscreen"):
            desk = None  # a fake desktop: keep the requested size
        if options.fullscreen:
            flags = pygame.FULLSCREEN
            size = (0, 0)
        elif desk and desk[0] > 0 and desk[1] > 0:
            size = (max(MIN_SIZE[0], min(size[0], int(desk[0] * 0.95))),
                    max(MIN_SIZE[1], min(size[1], int(desk[1] * 0.9))))
        win = pygame.display.set_mode(size, flags)
        try:
            import warnings

            with warnings.catch_warnings():
                warnings.simplefilter("ignore", DeprecationWarning)
                pygame.Window.from_display_module().minimum_size = MIN_SIZE
        except Exception:  # older pygame-ce or a driver without windows
            pass
        return win

    def _set_caption(self) -> None:
        import pygame

        from game.i18n import _

        if self._own_window:
            pygame.display.set_caption(_("Hong Wu — Red Five"))

    # -- settings / toolbar ----------------------------------------------------------------------
    def _save(self, **changes: Any) -> None:
        from game import settings as settings_mod

        for k, v in changes.items():
            setattr(self.settings, k, v)
        if self.options.save_settings:
            settings_mod.save(self.settings)

    def _toolbar_items(self) -> list[tuple[str, str]]:
        from game.i18n import _

        return [
            ("lang", "English" if self.lang == "zh" else "中文"),
            ("sound", _("Sound off") if self.audio.muted else _("Sound on")),
            ("speed", _("Speed: {s}").format(s=_(self.speed))),
        ]

    def _on_toolbar(self, key: str) -> None:
        from game import i18n
        from game.pacing import SPEEDS, pace

        if key == "lang":
            self.lang = i18n.set_language("en" if self.lang == "zh" else "zh")
            self._set_caption()
            self._save(lang=self.lang)
        elif key == "sound":
            self.audio.muted = not self.audio.muted
            self._save(muted=self.audio.muted)
        elif key == "speed":
            self.speed = SPEEDS[(SPEEDS.index(self.speed) + 1) % len(SPEEDS)]
            self.pace = pace(self.speed)
            self.scene.set_pace(self.pace)
            if hasattr(self.table, "pace"):
                self.table.pace = self.pace
            self._save(speed=self.speed)

    # -- game flow ----------------------------------------------------------------------------------
    def _on_event(self, ev: Any) -> None:
        if getattr(ev, "kind", "") == "hand_settled":
            self.hands_done += 1
            line = result_line(getattr(self.table, "hand_no", self.hands_done), ev.settlement)
            self.results.append(line)
            out = self.options.out or sys.stdout
            print(line, file=out, flush=True)

    def next_hand(self) -> None:
        """Deal the next hand, or finish when ``--hands`` hands have been played."""
        if self.options.hands is not None and self.hands_done >= self.options.hands:
            self.running = False
            return
        reason = self.table.next_hand()
        if reason is not None:
            log.info("next hand refused: %s", reason)

    # -- loop -------------------------------------------------------------------------------------------
    def step(self, events: Sequence[Any] | None = None) -> bool:
        """Run one frame: input (``events`` or the pygame queue), table, drawing.

        Returns False when the app has finished (window closed, ``--hands`` done,
        ``max_frames`` reached).
        """
        import pygame

        if not self.running:
            return False
        evs = list(events) if events is not None else pygame.event.get()
        for ev in evs:
            if ev.type == pygame.QUIT:
                self.running = False
                return False
            if ev.type in (pygame.VIDEORESIZE, pygame.WINDOWSIZECHANGED) and self._own_window:
                self.window = pygame.display.get_surface()
                self.scene.resize(*self.window.get_size())
                continue
            self.scene.handle_event(ev)
        self.scene.update()
        # demo: no one to press Next hand
        if self._demo and self.scene.show_settlement and self.scene.settled_at is not None:
            if self.clock() - self.scene.settled_at >= self.pace.settle_s:
                self.next_hand()
        dirty = self.scene.draw(self.window)
        if self._own_window:
            if dirty:
                pygame.display.update(dirty)
        self.frames += 1
        if self.options.max_frames is not None and self.frames >= self.options.max_frames:
            log.warning("stopping after %d frames", self.frames)
            self.running = False
            self.exit_code = 3
        if self._own_window and not self.pace.instant and self.options.fps:
            self._pg_clock.tick(self.options.fps)
        return self.running

    def run(self) -> int:
        """Loop until done; returns the exit code (0 normally)."""
        try:
            while self.step():
                pass
        finally:
            self.close()
        return self.exit_code

    def close(self) -> None:
        """Stop the table and close the window."""
        import pygame

        try:
            self.table.close()
        finally:
            if self._own_window:
                pygame.display.quit()


# -- command line -------------------------------------------------------------------------------------
def _seats(text: str) -> list[str]:
    seats = [s.strip() for s in text.split(",")]
    if len(seats) != 4 or not all(seats):
        raise argparse.ArgumentTypeError("give four comma-separated seats, e.g. human,basic,random,basic")
    if seats.count("human") > 1:
        raise argparse.ArgumentTypeError("at most one seat can be human")
    return seats


def _size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(x) for x in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError("size is WIDTHxHEIGHT, e.g. 1280x720") from None
    return (max(320, w), max(240, h))


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Register ``play`` on ``subparsers`` (an argparse sub-parsers action)."""
    p = subparsers.add_parser("play", help="play at the table (the default command)",
                              description="Open the Hong Wu table against AIs, or watch a demo.")
    p.add_argument("--decks", type=int, choices=(2, 3), default=2, help="number of decks (default 2)")
    p.add_argument("--seed", type=int, default=None, help="seed of the match (reproducible deals)")
    p.add_argument("--lang", choices=("zh", "en"), default=None, help="UI language (default: saved or system)")
    p.add_argument("--speed", choices=("slow", "normal", "fast", "instant"), default=None,
                   help="pace of the AIs and animations (instant: no delays)")
    p.add_argument("--seats", type=_seats, default=None,
                   help="four seat kinds in seat order, e.g. human,basic,random,basic (seat 0 = you)")
    p.add_argument("--hands", type=int, default=None, metavar="N",
                   help="play N hands then exit, printing one result line per hand")
    p.add_argument("--fullscreen", action="store_true", help="full screen")
    p.add_argument("--size", type=_size, default=DEFAULT_SIZE, metavar="WxH", help="window size (default 1280x720)")
    p.add_argument("--plugin-dir", action="append", default=[], metavar="DIR",
                   help="also load AI plugins from DIR (repeatable)")
    p.add_argument("--no-user-plugins", action="store_true", help="skip the user AI plugin folder")
    p.add_argument("--ai", action="append", default=[], metavar="MODULE:OBJECT",
                   help="load an AI plugin object (then usable by name in --seats)")
    p.add_argument("--ai-budget", type=float, default=2.0, metavar="SECONDS",
                   help="seconds an AI may think per decision (default 2)")
    p.add_argument("--mute", action="store_true", help="no sound (the mixer is not even opened)")
    p.add_argument("--volume", type=float, default=None, metavar="0..1", help="sound volume (saved)")
    p.add_argument("--max-frames", type=int, default=None, help=argparse.SUPPRESS)
    p.set_defaults(func=run)
    return p


def options_from_args(ns: argparse.Namespace) -> Options:
    """Turn parsed ``hongwu play`` arguments into :class:`Options` (saved settings fill gaps)."""
    from game import settings as settings_mod

    saved = settings_mod.load()
    seats = ns.seats or list(saved.seats)
    if ns.hands is not None and ns.seats is None:
        seats = ["basic"] * 4
    return Options(
        seats=seats, decks=ns.decks, seed=ns.seed, lang=ns.lang, speed=ns.speed, hands=ns.hands,
        fullscreen=ns.fullscreen, size=ns.size, plugin_dirs=list(ns.plugin_dir), ai_specs=list(ns.ai),
        user_plugins=not ns.no_user_plugins, budget_s=ns.ai_budget, audio=not ns.mute, volume=ns.volume,
        save_settings=True, max_frames=ns.max_frames,
    )


def run(ns: argparse.Namespace) -> int:
    """Entry point of ``hongwu play``; returns the exit code."""
    if not logging.getLogger().handlers:
        logging.basicConfig(level=os.environ.get("HONGWU_LOG", "WARNING").upper(),
                            format="%(levelname)s %(name)s: %(message)s")
    if ns.hands is not None and ns.hands < 1:
        print("hongwu play: --hands must be at least 1", file=sys.stderr)
        return 2
    try:
        app = App(options_from_args(ns))
    except ValueError as exc:
        print(f"hongwu play: {exc}", file=sys.stderr)
        return 2
    return app.run()
