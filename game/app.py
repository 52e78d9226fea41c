"""``hongwu play``: the pygame-ce window, its main loop, and the demo / soak mode.

``add_parser(subparsers)`` registers the sub-command (wired in :mod:`game.cli`); ``run(ns)``
starts it.  :class:`App` is the client itself: tests and benchmarks create one and call
:meth:`App.step` frame by frame.

Screens: the table (:class:`~game.scenes.table_scene.TableScene`, ``App.scene``) and, above
it, a stack of menu screens and overlays (``App.screens``: main menu, new game, pause,
rules, settings; see :mod:`game.scenes.menu`).  ``hongwu`` run interactively opens the main
menu; ``--seats``/``--hands``/``--seed`` (or ``--no-menu``) go straight to the table.
"""
from __future__ import annotations

import argparse
import inspect
import logging
import os
import sys
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from engine.scoring import result_line  # one line per finished hand (also hongwu join --headless)

log = logging.getLogger(__name__)

DEFAULT_SIZE = (1280, 720)
FPS = 60
#: longest sleep (ms) of an idle loop waiting for input (timers are checked this often)
IDLE_WAIT_MS = 50
#: how long an idle loop sleeps between looks at the event queue (s): at most this much input lag
IDLE_SLICE_S = 0.008


@dataclass
class Options:
    """Everything ``hongwu play`` can be told (see ``hongwu play --help``).

    ``seats``: four seat kinds (``"human"`` or an AI name / ``module:object``); ``hands``: play
    that many hands then exit (None: until the window closes); ``size``: window size in px;
    ``lang``/``speed``: None = saved setting; ``audio``: False never touches the mixer;
    ``save_settings``: write language/speed/seats to the settings file;
    ``max_frames``: stop after that many frames (tests; None = no limit); ``fps``: frame cap
    (0 = none; ``instant`` speed never waits); ``out``: where result lines go (default stdout);
    ``menu``: open the main menu instead of the table (the command line decides, see
    :func:`options_from_args`; programs get the table at once); ``renderer``: ``auto``,
    ``gpu`` or ``software`` (see :mod:`game.render_backend`); ``animations``: ``off``,
    ``normal`` or ``fast`` table animations (None = saved setting); ``rules``: house-rule
    options ``{RuleOptions name: value}`` from ``--rule`` (RULES.md "Options"): they override
    the saved house rules, name by name, for this run only and are never saved.
    ``ruleset``: ``"hongwu"`` (红五, four seats) or ``"zhaopengyou"`` (找朋友, five seats:
    :class:`game.zpy_table.ZpyLocalTable`); ``zpy_rules``: 找朋友 options
    ``{ZhaoPengyouOptions name: value}`` (RULES.md "找朋友").
    ``recorder``: called with the table when a hand is settled, before its result line is
    printed, and asked before each next hand (the daily coin cap; README "Career").
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
    menu: bool = False
    renderer: str = "auto"
    animations: str | None = None
    rules: dict[str, Any] = field(default_factory=dict)
    ruleset: str = "hongwu"
    zpy_rules: dict[str, Any] = field(default_factory=dict)
    #: records every settled hand (a :class:`game.career.Recorder`; None: nothing recorded)
    recorder: Any = None
    #: at the menu without a current profile, open the profile screen first (interactive runs)
    profile_prompt: bool = False


class PausableClock:
    """A clock (seconds) that stands still while paused: the game's time.

    ``PausableClock(base)()`` is ``base()`` minus the time spent paused, so countdowns, AI
    pacing and animations freeze while the pause menu is open.
    """

    def __init__(self, base: Callable[[], float]) -> None:
        self.base = base
        self.offset = 0.0
        self.paused_at: float | None = None

    def __call__(self) -> float:
        """The game time now."""
        if self.paused_at is not None:
            return self.paused_at - self.offset
        return self.base() - self.offset

    @property
    def paused(self) -> bool:
        """True while stopped."""
        return self.paused_at is not None

    def pause(self) -> None:
        """Stop the clock (no effect when already stopped)."""
        if self.paused_at is None:
            self.paused_at = self.base()

    def resume(self) -> None:
        """Let the clock run again from where it stopped."""
        if self.paused_at is not None:
            self.offset += self.base() - self.paused_at
            self.paused_at = None


class App:
    """The client: a window (or any surface), one :class:`~game.scenes.table_scene.TableScene`.

    Arguments: ``options``; ``table`` (a :class:`game.table.Table`; default a
    :class:`game.table.LocalTable` built from the options); ``screen`` (a surface to draw on
    instead of opening a window — benchmarks); ``clock`` (seconds).

    :meth:`step` runs one frame and returns False once the app is done; :attr:`exit_code`
    then holds the exit status.  Raises ValueError for invalid seats or speed.

    With ``options.menu`` (and no ``table``) it opens at the main menu: then :attr:`scene`
    and :attr:`table` are None until a game starts (:meth:`start_game`).  :attr:`screens`
    holds the menu screens / overlays above the table, topmost last (:attr:`top`).
    """

    def __init__(self, options: Options, table: Any = None, screen: Any = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        import pygame

        from game import i18n, settings as settings_mod
        from game.audio import Audio
        from game.pacing import pace

        self.options = options
        self.clock = clock
        #: the game's clock (table, table scene): stands still while a local game is paused
        self.game_clock = PausableClock(clock)
        self.settings = settings_mod.load()
        lang = options.lang or self.settings.lang
        self.lang = i18n.set_language(lang)
        self.speed = options.speed or self.settings.speed
        self.pace = pace(self.speed)
        pygame.init()
        self._own_window = screen is None
        self.animations = options.animations or getattr(self.settings, "animations", "normal")
        if screen is None:
            self.window = self._open_window(options)
        else:
            from game.render_backend import SoftwareBackend

            self.backend = SoftwareBackend(screen, update_display=False)
            self.window = screen
        self._set_caption()
        if options.volume is not None:
            self.settings.volume = min(1.0, max(0.0, options.volume))
        self.audio = Audio(self.settings.volume, self.settings.muted, enabled=options.audio)
        from game.career_session import CareerSession

        #: profiles, the Recorder of local games, titles (README "Career")
        self.career = CareerSession(options.recorder)
        self.table: Any = None
        self.scene: Any = None
        #: menu screens and overlays above the table, topmost last (game.scenes.menu.Screen)
        self.screens: list[Any] = []
        self._drawn_stack: tuple | None = None
        self._ai_manager: Any = None
        self._lan: Any = None
        self.hands_done = 0
        self.results: list[str] = []
        self.frames = 0
        self.running = True
        self.exit_code = 0
        self._pg_clock = pygame.time.Clock()
        self._demo = False
        if table is not None or not options.menu:
            self._open_table(table)
            if options.save_settings and not self._demo and options.hands is None:
                self._save(seats=list(options.seats), lang=options.lang or self.settings.lang,
                           speed=options.speed or self.settings.speed, volume=self.settings.volume)
            log.info("client started: seats=%s speed=%s lang=%s", options.seats, self.speed, self.lang)
        else:
            self.show_menu()
            if options.profile_prompt and self.career.current() is None:
                self.open_profiles(first_run=True)
            log.info("client started at the menu: speed=%s lang=%s", self.speed, self.lang)

    def _open_table(self, table: Any = None, chat: Any = None) -> None:
        """Show ``table`` (default: a LocalTable from the options) in a new table scene.  A
        table that carries chat (a LAN ``RemoteTable``: ``take_chats``) gets the chat panel,
        over ``chat`` (a :class:`game.chat.ChatSession`, e.g. the lobby's) or a new session."""
        from game.scenes.table_scene import TableScene

        options = self.options
        if table is None and options.ruleset == "zhaopengyou":
            from game.zpy_table import ZpyLocalTable

            table = ZpyLocalTable(options.seats, seed=options.seed, speed=self.speed,
                                  plugin_dirs=options.plugin_dirs, ai_specs=options.ai_specs,
                                  user_plugins=options.user_plugins, budget_s=options.budget_s,
                                  zpy_options={**getattr(self.settings, "zpy_rules", {}), **options.zpy_rules},
                                  clock=self.game_clock)
        if table is None:
            from game.table import LocalTable

            table = LocalTable(options.seats, decks=options.decks, seed=options.seed, speed=self.speed,
                               plugin_dirs=options.plugin_dirs, ai_specs=options.ai_specs,
                               user_plugins=options.user_plugins, budget_s=options.budget_s,
                               ruleset_options=self.house_rules(), clock=self.game_clock)
        self.table = table
        extra: dict[str, Any] = {}
        if "on_escape" in inspect.signature(TableScene).parameters:
            extra["on_escape"] = self.open_pause  # Esc at the table, in every phase
        if "animations" in inspect.signature(TableScene).parameters:
            extra["animations"] = self.animations
        self.scene = TableScene(table, self.window.get_size(), self.pace, self.audio, clock=self.game_clock,
                                on_event=self._on_event, on_next_hand=self.next_hand,
                                toolbar_items=self._toolbar_items, on_toolbar=self._on_toolbar, **extra)
        from game.scenes import table_extras as extras

        extras.apply_prefs(self.scene, extras.prefs_from(self.settings))
        self.scene.xray = bool(getattr(self.settings, "xray", False))
        self._lan_xray(table, self.scene.xray)
        self.scene.review_record = self._review_record
        self.scene.on_review = self.open_review
        self.scene.on_leave = self.leave_table
        self._demo = getattr(table, "seat", None) is None
        if callable(getattr(table, "take_chats", None)) and hasattr(self.scene, "attach_chat"):
            from game.chat import ChatSession
            from game.chat_panel import ChatPanel

            session = chat if chat is not None else ChatSession(table, time.monotonic)
            self.scene.attach_chat(ChatPanel(session, self.window.get_size))
        self.scene.titles = self._seat_titles  # titles 等级 on the name plates (README "Career")
        self.scene.career = None

    def _seat_titles(self) -> list[str]:
        """Each seat's title for its name plate: seat 0's profile at a local table, every
        player's (the host relays them) at a LAN table; "" where there is none."""
        from game.i18n import current_language

        lang = "zh" if current_language() == "zh" else "en"
        table = self.table
        relayed = getattr(table, "titles", None)
        if callable(relayed):  # a LAN table: the host relays each player's (Chinese) title
            from game.scenes.promotion import title_text

            return [title_text(t) if t else "" for t in relayed()]
        rec = self.options.recorder
        n = len(getattr(table, "names", ()) or ()) or 4
        out = [""] * n
        if rec is not None:
            from engine.scoring import title_for

            p = rec.store.find_profile(rec.profile.name)
            if p is not None and 0 <= rec.seat < n:
                out[rec.seat] = title_for(p.points, lang)
        return out

    # -- window -------------------------------------------------------------------------------
    def _open_window(self, options: Options):
        """Open the window through :func:`game.render_backend.create_backend` (GPU textures or
        software surfaces, ``options.renderer``); returns the surface scenes draw on."""
        from game.i18n import _
        from game.render_backend import create_backend

        self.backend = create_backend(options.renderer, options.size, fullscreen=options.fullscreen,
                                      title=_("Hong Wu — Red Five"))
        log.info("renderer: %s", self.backend.kind)
        return self.backend.surface

    def _set_caption(self) -> None:
        import pygame

        from game.i18n import _

        if self._own_window:
            if getattr(self.backend, "kind", "") == "gpu":
                self.backend.window.title = _("Hong Wu — Red Five")
            else:
                pygame.display.set_caption(_("Hong Wu — Red Five"))

    # -- settings / toolbar ----------------------------------------------------------------------
    def _save(self, **changes: Any) -> None:
        from game import settings as settings_mod

        for k, v in changes.items():
            setattr(self.settings, k, v)
        if self.options.save_settings:
            settings_mod.save(self.settings)

    def sound_on(self) -> bool:
        """True when sounds really play: a working audio output and not muted."""
        return bool(self.audio.available) and not self.audio.muted

    def _toolbar_items(self) -> list[tuple]:
        """The table's toolbar: ``(key, label, icon, short label, enabled)`` per button (see
        :meth:`game.scenes.table_buttons.TableButtons._toolbar_buttons`).  The sound button shows
        the real state: greyed out, crossed speaker when there is no audio output at all."""
        from game.i18n import _

        zh = self.lang == "zh"
        on = self.sound_on()
        items = [
            ("menu", _("Menu"), "menu", ""),
            ("lang", "English" if zh else "中文", None, "EN" if zh else "中文"),
            ("sound", _("On") if on else _("Off"), "sound_on" if on else "sound_off", "", bool(self.audio.available)),
            ("speed", _(self.speed), "speed", None),
        ]
        chat = getattr(self.scene, "chat", None)
        if chat is not None:  # a LAN table: the chat panel (T), with the unread count
            n = chat.session.unread
            label = _("Chat") + (f" ({n})" if n else "")
            items.insert(1, ("chat", label, None, label))
        return items

    def _on_toolbar(self, key: str) -> None:
        from game import i18n
        from game.pacing import SPEEDS, pace

        if key == "menu":
            self.open_pause()
        elif key == "chat" and getattr(self.scene, "chat", None) is not None:
            self.scene.chat.toggle()
            self.scene._chat_refresh(force=True)
        elif key == "lang":
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
            if self.scene is not None:
                self.scene.career = None  # the settlement shows this hand's record only
            zpy = getattr(getattr(self.table, "ruleset", None), "is_zhaopengyou", False)
            if self.options.recorder is not None:  # committed before the result line is printed
                if zpy:
                    self._record_zpy()
                else:
                    self._record(ev.settlement)
            if zpy:
                from engine.zhaopengyou import result_line as zpy_line

                hand = getattr(self.table, "game", None)  # a remote table has only its view (same fields)
                try:
                    line = zpy_line(hand if hand is not None else self.table.view())
                except ValueError:  # a LAN view already of the next hand: the settlement alone
                    from engine.zhaopengyou import LEVEL_NAMES

                    st = ev.settlement
                    line = (f"hand settled: catchers {st.catcher_points}, {st.winner} win, levels after "
                            + " ".join(LEVEL_NAMES[v] for v in st.levels))
            else:
                line = result_line(getattr(self.table, "hand_no", self.hands_done), ev.settlement)
            self.results.append(line)
            out = self.options.out or sys.stdout
            print(line, file=out, flush=True)

    def _record_zpy(self) -> None:
        """Record the settled 找朋友 hand (README "Career"): of a local match with
        ``Recorder.zpy_hand_finished``; at a LAN table, where the host keeps the match, the hand
        the client rebuilt from what it received (``RemoteTable.settled_zpy_hand``) with
        ``Recorder.zpy_lan_hand_finished`` at the client's seat. A failure is logged, never fatal."""
        table, rec = self.table, self.options.recorder
        match = getattr(table, "match", None)
        try:
            if match is not None:
                rec.zpy_hand_finished(match, list(getattr(table, "kinds", []) or []))
                return
            rebuilt = getattr(table, "settled_zpy_hand", None)
            seat = getattr(table, "seat", None)
            if not callable(rebuilt) or seat is None:  # watching: nothing of ours to record
                return
            hand = rebuilt()
            if hand is None:
                log.warning("找朋友 hand not recorded: %s", getattr(table, "zpy_problem", "") or "not rebuilt")
                return
            names = [str(x).replace(" [auto]", "").replace(" [offline]", "") for x in table.names]
            rec.zpy_lan_hand_finished(hand, names, seat, str(getattr(table, "table_key", "")))
        except Exception:  # e.g. a full disk: the game goes on
            log.exception("could not record the 找朋友 hand")

    def _record(self, settlement: Any) -> None:
        """Record the settled hand for the profile; a failure is reported, never fatal."""
        try:
            done = self.options.recorder.hand_finished(self.table, settlement)
        except Exception as exc:  # e.g. a full disk: the game goes on, the user is told
            log.exception("recording the hand failed")
            print(f"hongwu play: the hand was not recorded: {exc}", file=sys.stderr, flush=True)
            return
        if done is None or self.scene is None:
            return
        self.scene.career = done  # the settlement shows the title and the coins
        if done.promotions and self.options.hands is None:  # a scripted run (--hands) goes on unseen
            from game.scenes.promotion import PromotionOverlay

            self.audio.play("promotion")
            self.push_screen(PromotionOverlay(self, done))

    def next_hand(self) -> None:
        """Deal the next hand, or finish when ``--hands`` hands have been played."""
        if self.options.hands is not None and self.hands_done >= self.options.hands:
            self.running = False
            return
        zpy = getattr(getattr(self.table, "ruleset", None), "is_zhaopengyou", False)  # 找朋友 plays no coins
        refusal = self.options.recorder.refusal() if self.options.recorder is not None and not zpy else None
        if refusal is not None:  # the daily coin cap (RULES.md §12)
            print(f"hongwu play: {refusal.message}", file=sys.stderr, flush=True)
            if self.options.hands is not None:  # a scripted run stops (exit status 4)
                self.running = False
                self.exit_code = 4
                return
            self.close_session()  # the window says why and until when, then the menu
            self.show_menu()
            self.show_refusal(refusal)
            return
        reason = self.table.next_hand()
        if reason is not None:
            log.info("next hand refused: %s", reason)
            if getattr(self.table, "match_over", False) and self.scene is not None:  # a LAN 找朋友 game won
                from game.i18n import _

                self.scene.toast(_("The game is over: the host deals no further hand"), seconds=5.0)
            if getattr(reason, "code", None) == "daily_coin_cap" and self.scene is not None:
                self.scene.toast(self._host_cap_text(reason.params), seconds=6.0)
            match = getattr(self.table, "match", None)
            if match is not None and (match.game_over or match.limit_reached):  # 找朋友: the match is over
                if self.options.hands is not None or self._demo:
                    self.running = False
                else:  # New match: the same seats and options from level 2
                    self.start_zpy_game(list(self.table.kinds), rules=dict(getattr(self.table, "zpy_options", {})))

    @staticmethod
    def _host_cap_text(params: dict[str, Any]) -> str:
        """The LAN host's daily-cap refusal (PROTOCOL.md ``DAILY_CAP``) in the window's
        language: who, and when staked hands open again (the host's midnight)."""
        from game.i18n import _

        until = str(params.get("until", ""))[:16].replace("T", " ")
        return " ".join([_("{name} has reached the daily coin limit.").format(name=params.get("name", "?")),
                         _("Staked games can start again at {until}.").format(until=until)])

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
                self.backend.resized()
                self.window = self.backend.surface
                self._resize_all()
                continue
            if ev.type in (pygame.WINDOWEXPOSED, pygame.WINDOWRESTORED, pygame.RENDER_TARGETS_RESET,
                           pygame.RENDER_DEVICE_RESET) and self._own_window:
                # a lost render target (Direct3D device reset) is redrawn in full like an exposure
                self.backend.expose()
                self._drawn_stack = None
            self._dispatch(ev)
        frozen = bool(self.screens) and self._freezes()
        if frozen:
            self.game_clock.pause()
        else:
            self.game_clock.resume()
        if self.scene is not None and not frozen:
            notices = getattr(self.table, "notices", None)  # a LAN table: auto-play, chat, reconnects
            if callable(notices):
                from game.text import lan_notice

                for line in notices():
                    self.scene.toast(lan_notice(line), seconds=4.0)
            self.scene.update()
            # demo: no one to press Next hand
            if self._demo and self.scene.show_settlement and self.scene.settled_at is not None:
                if self.game_clock() - self.scene.settled_at >= self.pace.settle_s:
                    self.next_hand()
        if self.screens:
            self.screens[-1].update()
        dirty = self._draw()
        if self._own_window and dirty:
            self.backend.present_surface(dirty, source=self)
        self.frames += 1
        if self.options.max_frames is not None and self.frames >= self.options.max_frames:
            log.warning("stopping after %d frames", self.frames)
            self.running = False
            self.exit_code = 3
        if self._own_window and not self.pace.instant and self.options.fps:
            self._pg_clock.tick(self.options.fps)
        return self.running

    def idle(self) -> bool:
        """True when nothing moves, nothing waits to be drawn and no AI is thinking: the loop
        may sleep until an input event arrives (or :data:`IDLE_WAIT_MS` passes)."""
        if not self._own_window or self.screens or self.scene is None:
            return False
        return bool(getattr(self.scene, "idle", False)) and not getattr(self.table, "busy", False)

    def wait_events(self) -> list[Any] | None:
        """The next frame's input: None (take the queue as it is) unless :meth:`idle`, in
        which case sleep in short slices (:data:`IDLE_SLICE_S`) until an event arrives or
        :data:`IDLE_WAIT_MS` pass, and return what came.  (Sleeping here rather than in
        ``pygame.event.wait`` keeps idle CPU low on drivers whose wait is a busy poll.)"""
        import pygame

        if not self.idle():
            return None
        deadline = time.monotonic() + IDLE_WAIT_MS / 1000
        while True:
            evs = pygame.event.get()
            if evs or time.monotonic() >= deadline:
                return evs
            time.sleep(IDLE_SLICE_S)

    def run(self) -> int:
        """Loop until done; returns the exit code (0 normally).  While the table is idle the
        loop sleeps on the event queue instead of redrawing (low idle CPU).

        Ctrl-C (KeyboardInterrupt) ends the loop cleanly: a short message on stderr, the
        window closed, pygame shut down, exit code :data:`EXIT_INTERRUPTED` (130)."""
        interrupted = False
        try:
            while self.step(self.wait_events()):
                pass
        except KeyboardInterrupt:
            interrupted = True
            self.running = False
            self.exit_code = EXIT_INTERRUPTED
        finally:
            try:
                self.close()
            finally:
                if interrupted:
                    _interrupted()
        return self.exit_code

    def close(self) -> None:
        """Stop the table (and a LAN host started from the menu) and close the window."""
        import pygame

        try:
            for s in list(self.screens):  # e.g. a LAN lobby holding a connection
                closer = getattr(s, "close", None)
                if callable(closer):
                    closer()
            self.close_session()
        finally:
            if self._own_window:
                backend = getattr(self, "backend", None)
                if backend is not None:
                    backend.close()
                pygame.display.quit()
            self.career.close()

    # -- screens: main menu, new game, pause, rules, settings ------------------------------------------
    def _dispatch(self, ev: Any) -> None:
        """One input event to the topmost screen; Esc at the table opens the pause menu."""
        import pygame

        try:
            from game.input import MENU_EVENT
        except ImportError:  # pragma: no cover - an older table scene
            MENU_EVENT = None
        if MENU_EVENT is not None and ev.type == MENU_EVENT:  # the table asked for the menu
            if not self.screens:
                self.open_pause()
            return
        if self.screens:
            self.screens[-1].handle_event(ev)
            return
        if self.scene is None:
            return
        esc = ev.type == pygame.KEYDOWN and ev.key == pygame.K_ESCAPE
        had_selection = bool(getattr(getattr(self.scene, "hand", None), "selected", None))
        self.scene.handle_event(ev)
        if esc and not had_selection and getattr(self.scene, "on_escape", None) is None:
            self.open_pause()  # a table scene without an Esc callback

    def _freezes(self) -> bool:
        """True when a screen above the table stops the game (a local table; a LAN game runs on)."""
        from game.table import LocalTable

        return isinstance(self.table, LocalTable)

    def _draw(self) -> list[Any]:
        """Draw the table and/or the screens above it; returns the rects to update."""
        win = self.window
        stack = tuple(id(s) for s in self.screens)
        changed = stack != self._drawn_stack
        self._drawn_stack = stack
        opaque = max((i for i, s in enumerate(self.screens) if s.opaque), default=None)
        if opaque is None:
            if self.scene is None:
                win.fill((0, 0, 0))
                return [win.get_rect()] if changed else []
            if not self.screens and self._own_window and self.backend.kind == "gpu":
                if changed:
                    self.backend.expose()
                self.backend.present_frame(self.scene.frame())  # GPU: layers composed as textures
                return []
            dirty = self.scene.draw(win)
            if not self.screens:
                return [win.get_rect()] if changed else dirty
            for s in self.screens:
                s.draw(win, force=True)
            return [win.get_rect()]
        layer = self.screens[opaque:]
        if not (changed or any(getattr(s, "_dirty", True) for s in layer)):
            return []
        for s in layer:
            s.draw(win, force=True)
        return [win.get_rect()]

    def _resize_all(self) -> None:
        w, h = self.window.get_size()
        if self.scene is not None:
            self.scene.resize(w, h)
        for s in self.screens:
            s.resize(w, h)

    @property
    def has_session(self) -> bool:
        """True while a game is open (it may be paused behind a menu)."""
        return self.scene is not None

    @property
    def top(self) -> Any:
        """What receives input: the topmost screen, else the table scene (None if neither)."""
        return self.screens[-1] if self.screens else self.scene

    def push_screen(self, screen: Any) -> None:
        """Open ``screen`` above everything (a local game pauses while screens are open)."""
        self.screens.append(screen)
        screen.invalidate()

    def pop_screen(self, screen: Any = None) -> None:
        """Close ``screen`` (default the topmost) and whatever is above it.

        With nothing left the game resumes; with no game either, the main menu comes back.
        """
        if screen is None:
            if self.screens:
                self.screens.pop()
        elif screen in self.screens:
            del self.screens[self.screens.index(screen):]
        if self.screens:
            self.screens[-1].invalidate()
        elif self.scene is not None:
            self.scene.invalidate()
        else:
            self.show_menu()

    def show_menu(self) -> None:
        """Back to the main menu (a running game stays open behind it: Continue)."""
        from game.scenes.menu import MenuScene

        self.screens = [MenuScene(self)]

    def open_profiles(self, first_run: bool = False) -> None:
        """Open the profile screen (pick or create who plays seat 0)."""
        from game.scenes.profile import ProfileScreen

        self.push_screen(ProfileScreen(self, first_run=first_run))

    def open_records(self, game: str = "hongwu") -> None:
        """Open the records 战绩 of the current profile (with its statistics); ``game``
        "hongwu" or "zhaopengyou" chooses the hands listed first."""
        from game.scenes.records import RecordsScreen

        self.push_screen(RecordsScreen(self, game))

    def open_stats(self, game: str = "hongwu") -> None:
        """Open the statistics of the current profile with its chart: game points (``game``
        "hongwu") or the latest match's levels ("zhaopengyou")."""
        from game.scenes.records import StatsScreen

        self.push_screen(StatsScreen(self, game))

    def open_replay(self, source: Any) -> None:
        """Open the replay viewer 回放 on a record id or a replay file (a message screen
        says why when it cannot be read); a 找朋友 replay opens
        :class:`game.scenes.replay_zpy_view.ZpyReplayScreen`."""
        from game.scenes.replay_view import ReplayScreen, load

        store = self.career.store()
        rep, error = load(source, store)
        if rep is None:
            from game.i18n import _
            from game.scenes.menu import MessageScreen

            self.push_screen(MessageScreen(self, _("Replay"), [error]))
            return
        review = None
        if rep.header.get("ruleset", "hongwu") in ("hongwu", "zhaopengyou"):  # the review 复盘 of either game
            from pathlib import Path

            is_record = isinstance(source, int) or (str(source).isdigit() and not Path(str(source)).exists())
            review = (store.path, int(source)) if is_record and store is not None else (None, None)
        if rep.header.get("ruleset", "hongwu") == "zhaopengyou":  # its own frames (ZpyFrame)
            from game.scenes.replay_zpy_view import ZpyReplayScreen

            self.push_screen(ZpyReplayScreen(self, rep, review=review))
            return
        self.push_screen(ReplayScreen(self, rep, review=review))

    def show_refusal(self, refusal: Any) -> None:
        """Tell why the profile may not start a staked game now, and until when."""
        from game.career_session import refusal_lines
        from game.i18n import _
        from game.scenes.menu import MessageScreen

        self.push_screen(MessageScreen(self, _("Daily coin limit"), refusal_lines(refusal)))

    def open_pause(self) -> None:
        """Open the pause menu over the table (the table scene's Esc and Menu button call this).

        Does nothing without a game or when the pause menu is already open.
        """
        from game.scenes.pause import PauseOverlay

        if self.scene is None or any(isinstance(s, PauseOverlay) for s in self.screens):
            return
        self.push_screen(PauseOverlay(self))

    def resume(self) -> None:
        """Close every screen and go back to the game (or to the main menu without one)."""
        self.screens = []
        if self.scene is None:
            self.show_menu()
        else:
            self.scene.invalidate()

    def open_new_game(self) -> None:
        """Open the new-game screen."""
        from game.scenes.newgame import NewGameScene

        self.push_screen(NewGameScene(self))

    def open_rules(self) -> None:
        """Open the rules screen."""
        from game.scenes.rules_screen import RulesScene

        self.push_screen(RulesScene(self))

    def open_settings(self) -> None:
        """Open the settings screen."""
        from game.scenes.pause import SettingsScreen

        self.push_screen(SettingsScreen(self))

    def lan_available(self) -> bool:
        """True when LAN play can be offered in the menu (the ``net`` package and its screen)."""
        import importlib.util

        try:
            return (importlib.util.find_spec("net.remote_table") is not None
                    and importlib.util.find_spec("game.scenes.lan") is not None)
        except (ImportError, ValueError):
            return False

    def open_lan(self, mode: str) -> None:
        """Open the LAN screen: ``mode`` ``"host"`` or ``"join"``."""
        from game.scenes.lan import LanScreen

        self.push_screen(LanScreen(self, mode))

    def quit(self) -> None:
        """Leave the app at the end of this frame."""
        self.running = False

    # -- games started from the menu -------------------------------------------------------------------
    def ai_manager(self) -> Any:
        """The AI plugin manager (created once, with the options' plugin folders); None when
        ``ai_plugins`` is not installed."""
        if self._ai_manager is None:
            try:
                from ai_plugins.manager import AIManager
            except ImportError:
                return None
            o = self.options
            self._ai_manager = AIManager(plugin_dirs=o.plugin_dirs, ai_specs=o.ai_specs, user_dir=o.user_plugins)
        return self._ai_manager

    def ai_names(self) -> list[str]:
        """Names of the AIs a seat can be given (see :func:`game.presets.available_ais`)."""
        from game import presets

        return presets.available_ais(self.ai_manager())

    def house_rules(self) -> dict[str, Any]:
        """The house rules in effect for a new game here: the saved ones
        (``settings.house_rules``) with the command line's ``--rule`` values
        (``options.rules``) on top, as ``{RuleOptions name: value}`` (RULES.md "Options");
        names not given keep the engine's defaults."""
        return {**self.settings.house_rules, **self.options.rules}

    def start_game(self, seats: list[str], *, decks: int = 2, difficulty: str | None = None,
                   seed: int | None = None, rules: dict[str, Any] | None = None,
                   stake: int | None = None) -> None:
        """Close any open game and deal a new one at a local table.

        ``seats``: four kinds (seat 0 ``"human"``); ``difficulty``: a :mod:`game.presets` key
        giving the AIs' budget and options; ``rules``: house-rule options
        ``{RuleOptions name: value}`` (None: :meth:`house_rules`; RULES.md "Options").  The
        choices are saved in the settings, except a house rule that still has the value
        ``--rule`` gave it on the command line (that one keeps its saved value).  Raises
        ValueError/TypeError for an invalid house rule (before the open game is closed).
        ``stake``: coins per game point for the current profile (None: the saved one; RULES.md
        §12); its hands are recorded. A profile at its daily coin cap does not start: a
        message says why and until when (:meth:`show_refusal`), nothing else changes.
        """
        from engine.ruleset import RuleOptions
        from game import presets
        from game.table import LocalTable

        rules = self.house_rules() if rules is None else dict(rules)
        RuleOptions.from_mapping(rules)  # refuse bad options before closing anything
        stake = self.settings.stake if stake is None else max(0, int(stake))
        refusal = self.career.refusal(stake)
        if refusal is not None:
            self.show_refusal(refusal)
            return
        if self.career.current() is not None:
            self.options.recorder = self.career.recorder_for(stake)
        self.close_session()
        difficulty = difficulty or self.settings.difficulty
        seed = self.options.seed if seed is None else seed
        players = presets.make_players(presets.plan(difficulty, seats), seed=seed, manager=self.ai_manager())
        table = LocalTable(seats, decks=decks, seed=seed, speed=self.speed, players=players,
                           ruleset_options=rules, clock=self.game_clock)
        self.hands_done = 0
        self.results = []
        self.screens = []
        self.game_clock.resume()
        self._open_table(table)
        saved = dict(rules)
        for name, value in self.options.rules.items():  # --rule values last for this run only
            if saved.get(name) == value:
                if name in self.settings.house_rules:
                    saved[name] = self.settings.house_rules[name]
                else:
                    saved.pop(name, None)
        self._save(seats=list(seats), decks=decks, difficulty=difficulty, house_rules=saved, stake=stake)
        log.info("new game: seats=%s decks=%s difficulty=%s rules=%s", seats, decks, difficulty, rules)

    def start_zpy_game(self, seats: list[str], *, difficulty: str | None = None, seed: int | None = None,
                       rules: dict[str, Any] | None = None) -> None:
        """Close any open game and start a 找朋友 match at a local table (RULES.md "找朋友").

        ``seats``: five kinds (seat 0 ``"human"``); ``difficulty``: a :mod:`game.presets` key;
        ``rules``: 找朋友 options ``{ZhaoPengyouOptions name: value}`` (None: the saved ones).
        The game, seats, difficulty and options are saved. Raises ValueError/TypeError for an
        invalid option (before the open game is closed)."""
        from engine.ruleset import zhaopengyou
        from game import presets
        from game.zpy_table import ZpyLocalTable

        rules = dict(getattr(self.settings, "zpy_rules", {}) if rules is None else rules)
        zhaopengyou(**rules)  # refuse bad options before closing anything
        self.close_session()
        difficulty = difficulty or self.settings.difficulty
        seed = self.options.seed if seed is None else seed
        players = presets.make_players(presets.plan(difficulty, seats), seed=seed, manager=self.ai_manager())
        table = ZpyLocalTable(seats, seed=seed, speed=self.speed, players=players, zpy_options=rules,
                              clock=self.game_clock)
        self.hands_done = 0
        self.results = []
        self.screens = []
        self.game_clock.resume()
        self._open_table(table)
        self._save(game="zhaopengyou", zpy_seats=list(seats), difficulty=difficulty, zpy_rules=dict(rules))
        log.info("new 找朋友 match: seats=%s difficulty=%s rules=%s", seats, difficulty, rules)

    def start_remote(self, table: Any, lan: Any = None, chat: Any = None) -> None:
        """Show a table hosted elsewhere (LAN); ``lan`` is closed with it (e.g. our host);
        ``chat`` is the lobby's :class:`game.chat.ChatSession` (history and mutes carry on)."""
        self.close_session()
        self.hands_done = 0
        self.results = []
        self.screens = []
        self.game_clock.resume()
        if self.options.recorder is None and self.career.current() is not None:
            self.options.recorder = self.career.recorder_for(0)  # our own hands, as seen (a staked host sends its coins)
        self._open_table(table, chat=chat)
        self._lan = lan

    def leave_table(self) -> None:
        """Leave the table for the main menu: the connection to a LAN host closes (a match
        that is over there deals no further hand), a local game ends. With ``--hands`` (a
        scripted run) the app finishes instead."""
        self.close_session()
        if self.options.hands is not None:
            self.running = False
            return
        self.show_menu()

    def close_session(self) -> None:
        """Close the open game (and a LAN host started from the menu), if any."""
        table, lan = self.table, self._lan
        self.table = self.scene = self._lan = None
        try:
            if table is not None:
                table.close()
        finally:
            if lan is not None:
                try:
                    lan.close()
                except Exception:  # pragma: no cover - shutting down anyway
                    log.exception("LAN host did not stop cleanly")

    # -- settings (applied at once and saved) -------------------------------------------------------------
    def _refresh_all(self) -> None:
        from game import fonts

        fonts.clear_cache()
        if self.scene is not None:
            renderer = getattr(self.scene, "renderer", None)
            if renderer is not None:
                renderer.clear()
            self.scene.invalidate()
        for s in self.screens:
            s.invalidate()

    def set_language(self, lang: str) -> None:
        """Switch the UI language (``"zh"`` / ``"en"``) everywhere and save it."""
        from game import i18n

        self.lang = i18n.set_language(lang)
        self._set_caption()
        self._save(lang=self.lang)
        self._refresh_all()

    def set_speed(self, speed: str) -> None:
        """Change the pace of AIs and animations (one of ``game.pacing.SPEEDS``) and save it."""
        from game.pacing import pace

        self.pace = pace(speed)
        self.speed = speed
        if self.scene is not None:
            self.scene.set_pace(self.pace)
        if hasattr(self.table, "pace"):
            self.table.pace = self.pace
        self._save(speed=speed)
        self._refresh_all()

    def set_animations(self, animations: str) -> None:
        """Table animations ``off``, ``normal`` or ``fast`` (``game.settings.ANIMATIONS``), saved;
        ValueError for anything else."""
        from game.settings import ANIMATIONS

        if animations not in ANIMATIONS:
            raise ValueError(f"animations must be one of {', '.join(ANIMATIONS)}, not {animations!r}")
        self.animations = animations
        if self.scene is not None and hasattr(self.scene, "set_animations"):
            self.scene.set_animations(animations)
        self._save(animations=animations)

    def set_table_prefs(self, **changes: Any) -> None:
        """Change and save table preferences (``smart_select``, ``trumps_left``,
        ``suit_order``; see :mod:`game.scenes.table_extras`); the table follows at once."""
        from game.scenes import table_extras as extras

        self._save(**changes)
        if self.scene is not None and hasattr(self.scene, "prefs"):
            extras.apply_prefs(self.scene, extras.prefs_from(self.settings))

    def _review_record(self) -> int | None:
        """The record id of the hand just settled, when it was recorded for the profile (a
        红五 hand, or a 找朋友 hand of a local match)."""
        rec = self.options.recorder
        game = getattr(self.table, "game", None)
        if rec is None or game is None:
            return None
        if getattr(getattr(self.table, "ruleset", None), "is_zhaopengyou", False):
            last, recorded = getattr(rec, "last_zpy", None), getattr(rec, "_zpy_last", None)
        else:
            last, recorded = getattr(rec, "last", None), getattr(rec, "_last_game", None)
        if last is None or recorded is not game:
            return None
        return last.record_id

    def open_review(self, record_id: int) -> None:
        """Open the review 复盘 of record ``record_id`` (computed in a background process)."""
        from game.scenes.review_screen import ReviewScreen

        self.push_screen(ReviewScreen(self, self.options.recorder.store.path, record_id))

    def set_xray(self, on: bool) -> None:
        """X-ray 透视 on or off (AI reasoning beside the AI plates), saved; the table follows."""
        self._save(xray=bool(on))
        if self.scene is not None:
            self.scene.xray = bool(on)
            self._lan_xray(self.table, bool(on))
            if on and callable(getattr(self.table, "set_xray", None)) and not getattr(self.table, "xray_table", False):
                from game.i18n import _

                self.scene.toast(_("This host shows no AI reasoning: X-ray works at learners' tables "
                                   "(hongwu host --xray)"), seconds=4.0)
            self.scene.invalidate()

    @staticmethod
    def _lan_xray(table: Any, on: bool) -> None:
        """At a LAN learners' table (``hongwu host --xray``: ``RemoteTable.xray_table``) ask
        the host for the AI seats' reasoning, or stop it; other tables need nothing."""
        if table is not None and callable(getattr(table, "set_xray", None)) and getattr(table, "xray_table", False):
            why = table.set_xray(on)
            if why:
                import logging

                logging.getLogger(__name__).info("X-ray at the LAN table: %s", why)

    def set_muted(self, muted: bool) -> None:
        """Sound off (True) or on, saved."""
        self.audio.muted = bool(muted)
        self._save(muted=self.audio.muted)
        self._refresh_all()

    def set_volume(self, volume: float) -> None:
        """Sound volume 0.0..1.0 (clamped), saved."""
        self.audio.set_volume(volume)
        self._save(volume=self.audio.volume)

    def set_renderer(self, renderer: str) -> None:
        """Choose how the window is drawn from the next start on (``auto``, ``gpu`` or
        ``software``, as ``--renderer``; see :func:`game.settings.renderer_choice`), saved; the
        running window keeps its renderer.  ValueError for anything else."""
        from game.settings import RENDERERS

        if renderer not in RENDERERS:
            raise ValueError(f"renderer must be one of {', '.join(RENDERERS)}, not {renderer!r}")
        self._save(renderer=renderer)
        for s in self.screens:
            s.invalidate()

    def set_fullscreen(self, on: bool) -> None:
        """Full screen on or off (the window is reopened), saved."""
        import pygame

        self._save(fullscreen=bool(on))
        if not self._own_window:
            return
        from game.render_backend import set_fullscreen

        try:
            set_fullscreen(self.backend, bool(on), self.options.size)
        except pygame.error as exc:
            log.warning("cannot switch full screen: %s", exc)
            self.backend.resized()
        self.window = self.backend.surface
        self._drawn_stack = None
        self._resize_all()


# -- command line -------------------------------------------------------------------------------------
def _seats(text: str) -> list[str]:
    from engine.ruleset import hongwu, zhaopengyou

    seats = [s.strip() for s in text.split(",")]
    counts = {hongwu().players, zhaopengyou().players}  # which one the ruleset needs: run()
    if len(seats) not in counts or not all(seats):
        raise argparse.ArgumentTypeError("give comma-separated seats, e.g. human,basic,random,basic "
                                         "(five with --ruleset zhaopengyou)")
    if seats.count("human") > 1:
        raise argparse.ArgumentTypeError("at most one seat can be human")
    return seats


#: ``--help`` text of ``hongwu play --rule``
RULE_HELP = ("a house rule NAME=VALUE (repeatable; RULES.md \"Options\"): "
             "kitty_to_dealer_always=true|false (the kitty's points always count for the dealer; "
             "default false), base_score=N (N >= 1, default 2), failed_throw_penalty=N "
             "(card points conceded per failed throw, N >= 0, default 0)")


def _size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(x) for x in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError("size is WIDTHxHEIGHT, e.g. 1280x720") from None
    return (max(320, w), max(240, h))


#: ``--help`` text of ``--renderer`` (play, host, join)
RENDERER_HELP = ("drawing: GPU textures (fast on a Raspberry Pi), software surfaces, or auto "
                 "(GPU when an accelerated renderer exists); saved, the default is the last one given "
                 "(first: auto)")


def add_renderer_option(p: argparse.ArgumentParser) -> None:
    """Add ``--renderer auto|gpu|software`` to ``p`` (None when not given: the saved choice,
    see :func:`game.settings.renderer_choice`)."""
    p.add_argument("--renderer", choices=("auto", "gpu", "software"), default=None, help=RENDERER_HELP)


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Register ``play`` on ``subparsers`` (an argparse sub-parsers action)."""
    from net.cli import rule_arg  # one parser of --rule for play and host

    p = subparsers.add_parser("play", help="play at the table (the default command)",
                              description="Open Hong Wu: the main menu (new game, rules, settings), or "
                                          "straight to the table against AIs with --seats/--seed/--no-menu, "
                                          "or watch a demo with --hands.")
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
    add_renderer_option(p)
    p.add_argument("--animations", choices=("off", "normal", "fast"), default=None,
                   help="table animations (default: saved setting, normal); --speed instant turns them off")
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
    p.add_argument("--menu", action=argparse.BooleanOptionalAction, default=None,
                   help="start at the main menu (new game, rules, settings); the default unless "
                        "--seats, --hands or --seed is given, which open the table at once. "
                        "--no-menu opens the table with the saved seats")
    p.add_argument("--rule", action="append", type=rule_arg, default=[], metavar="NAME=VALUE",
                   help=RULE_HELP + "; overrides the house rules saved from the new-game screen for "
                        "this run, without saving")
    from game.career.cli import add_play_options

    add_play_options(p)  # --profile, --stake
    p.add_argument("--ruleset", choices=("hongwu", "zhaopengyou"), default="hongwu",
                   help="the game: hongwu (红五三打一, four seats, default) or zhaopengyou (找朋友, five "
                        "seats, three decks: the table window, or headless with five AI seats and --speed instant)")
    p.add_argument("--match", action="store_true",
                   help="zhaopengyou: play hands until the game ends (at most --max-hands)")
    p.add_argument("--max-hands", type=int, default=None, metavar="N",
                   help="zhaopengyou --match: stop after N hands if nobody has won (default 300)")
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                   help="zhaopengyou: a rule option (repeatable; RULES.md 找朋友), e.g. "
                        "declaration_mode=first, counter_declare=off, friend_call_time=after_bury")
    p.add_argument("--max-frames", type=int, default=None, help=argparse.SUPPRESS)
    try:
        from ai_plugins.capture import add_output_options
    except ImportError:  # pragma: no cover - ai_plugins not installed
        pass
    else:
        add_output_options(p)
    p.set_defaults(func=run)
    return p


def options_from_args(ns: argparse.Namespace) -> Options:
    """Turn parsed ``hongwu play`` arguments into :class:`Options` (saved settings fill gaps)."""
    from game import settings as settings_mod

    saved = settings_mod.load()
    zpy = getattr(ns, "ruleset", "hongwu") == "zhaopengyou"
    seats = ns.seats or (list(getattr(saved, "zpy_seats", None) or ["human"] + ["basic"] * 4) if zpy
                         else list(saved.seats))
    if ns.hands is not None and ns.seats is None:
        seats = ["basic"] * len(seats)
    menu = getattr(ns, "menu", None)
    if menu is None:
        menu = not zpy and ns.seats is None and ns.hands is None and ns.seed is None
    return Options(
        seats=seats, decks=ns.decks, seed=ns.seed, lang=ns.lang, speed=ns.speed, hands=ns.hands,
        fullscreen=ns.fullscreen or (saved.fullscreen and ns.hands is None), size=ns.size,
        plugin_dirs=list(ns.plugin_dir), ai_specs=list(ns.ai),
        user_plugins=not ns.no_user_plugins, budget_s=ns.ai_budget, audio=not ns.mute, volume=ns.volume,
        save_settings=True, max_frames=ns.max_frames, menu=menu, profile_prompt=menu,
        renderer=settings_mod.renderer_choice(getattr(ns, "renderer", None)),
        animations=getattr(ns, "animations", None),
        rules=dict(getattr(ns, "rule", None) or []),
        ruleset="zhaopengyou" if zpy else "hongwu",
    )


def seat_errors(options: Options) -> list[str]:
    """Why the AI seats of ``options`` cannot be played as asked: one message per unknown or
    clashing AI name (a clash names every source of the name, see PLUGINS.md), found with the
    same plugin discovery the table uses.  Empty when every seat resolves (or when
    ``ai_plugins`` is not installed: the table then plays first-legal stand-ins)."""
    from game.table import HUMAN

    try:
        from ai_plugins.base import AIError
        from ai_plugins.manager import AIManager
    except ImportError:
        return []
    kinds = [k for k in dict.fromkeys(options.seats) if k != HUMAN]
    if not kinds:
        return []
    manager = AIManager(plugin_dirs=options.plugin_dirs, ai_specs=options.ai_specs, user_dir=options.user_plugins)
    errors = []
    for kind in kinds:
        try:
            manager.resolve(kind)
        except AIError as exc:
            errors.append(f"seat {options.seats.index(kind)}: {exc}")
        except Exception as exc:  # a module:object whose import fails in another way
            errors.append(f"seat {options.seats.index(kind)}: cannot load {kind!r}: {exc!r}")
    if errors:
        errors += [f"note: {problem}" for problem in manager.problems]
    return errors


#: exit status after Ctrl-C (128 + SIGINT, as shells report it)
EXIT_INTERRUPTED = 130


def _interrupted() -> int:
    """Ctrl-C: a one-line message, pygame shut down (font caches dropped with it);
    returns :data:`EXIT_INTERRUPTED`."""
    print("hongwu: interrupted", file=sys.stderr)
    try:
        import pygame

        from game import fonts

        pygame.quit()
        fonts.reset()
    except Exception:  # pragma: no cover - shutting down anyway
        log.debug("pygame did not shut down cleanly", exc_info=True)
    return EXIT_INTERRUPTED


def hongwu_ruleset():
    """The 红五 ruleset (its seat count checks ``--seats``)."""
    from engine.ruleset import hongwu

    return hongwu()


def run(ns: argparse.Namespace) -> int:
    """Entry point of ``hongwu play``; returns the exit code: 0, 2 for bad options (an
    unknown or clashing AI in ``--seats`` is reported before any window opens), 3 when
    ``--max-frames`` stopped it, 130 after Ctrl-C."""
    try:
        from ai_plugins.capture import capture_output, configure_logging, log_level
    except ImportError:  # pragma: no cover - ai_plugins not installed
        capture_output = None
        if not logging.getLogger().handlers:
            logging.basicConfig(level=os.environ.get("HONGWU_LOG", "WARNING").upper(),
                                format="%(levelname)s %(name)s: %(message)s")
    else:
        try:
            configure_logging(log_level(ns, os.environ.get("HONGWU_LOG", "WARNING")),
                              getattr(ns, "plugin_log", None))
        except OSError as exc:
            print(f"hongwu play: cannot open --plugin-log: {exc}", file=sys.stderr)
            return 2
    if capture_output is None:
        return _run(ns)
    with capture_output():  # what AI plugins print goes to the log, not among the results
        return _run(ns)


def _run(ns: argparse.Namespace) -> int:
    """:func:`run` once logging and output capture are set up."""
    if ns.hands is not None and ns.hands < 1:
        print("hongwu play: --hands must be at least 1", file=sys.stderr)
        return 2
    if getattr(ns, "ruleset", "hongwu") == "zhaopengyou":
        from engine.ruleset import zhaopengyou

        seats = ns.seats
        if getattr(ns, "rule", None):
            print("hongwu play: --rule sets 红五 house rules; use --option NAME=VALUE with --ruleset zhaopengyou",
                  file=sys.stderr)
            return 2
        ai_only = ("human" not in seats) if seats is not None else (ns.hands is not None or getattr(ns, "match", False))
        if ns.speed == "instant" and ai_only:
            from game.headless_match import run as run_zhaopengyou  # five AIs: no window

            return run_zhaopengyou(ns)
        n = zhaopengyou().players
        if seats is not None and len(seats) != n:
            print(f"hongwu play: 找朋友 needs {n} seats, e.g. human,basic,basic,basic,basic", file=sys.stderr)
            return 2
    if ns.seats is not None and len(ns.seats) != hongwu_ruleset().players and ns.ruleset != "zhaopengyou":
        print(f"hongwu play: 红五 needs {hongwu_ruleset().players} seats, e.g. human,basic,random,basic",
              file=sys.stderr)
        return 2
    zpy_rules: dict[str, Any] = {}
    if getattr(ns, "match", False) or getattr(ns, "option", None):
        if getattr(ns, "ruleset", "hongwu") != "zhaopengyou":
            print("hongwu play: --match and --option are for --ruleset zhaopengyou", file=sys.stderr)
            return 2
    if getattr(ns, "ruleset", "hongwu") == "zhaopengyou" and getattr(ns, "option", None):
        from game.headless_match import parse_options

        try:
            zpy_rules = dict(parse_options(list(ns.option)))
        except ValueError as exc:
            print(f"hongwu play: {exc}", file=sys.stderr)
            return 2
    try:
        options = options_from_args(ns)
        options.zpy_rules = zpy_rules
        if not options.menu:  # the table opens at once: its AIs must exist
            errors = seat_errors(options)
            if errors:
                for line in errors:
                    print(f"hongwu play: {line}" if line.startswith("note:") else f"hongwu play: error: {line}",
                          file=sys.stderr)
                return 2
        from game.career.cli import recorder_for_play

        options.recorder, message, code = recorder_for_play(ns)
        if message:
            print(f"hongwu play: {message}", file=sys.stderr)
            return code
        app = App(options)
    except ValueError as exc:
        print(f"hongwu play: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return _interrupted()
    try:
        return app.run()
    finally:
        if options.recorder is not None:
            options.recorder.store.close()
