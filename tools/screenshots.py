#!/usr/bin/env python3
"""Screenshots of the real client, on a real X display when there is one.

With ``Xvfb`` installed it starts ``Xvfb :74`` (stopped at the end) and runs the client there
with SDL's ``x11`` video driver and the default renderer (``auto``: GPU textures when SDL
offers an accelerated renderer, else software surfaces); each PNG is read back from what was
presented.  Without Xvfb — or with ``--driver dummy``, or when ``SDL_VIDEODRIVER=dummy`` is
already set (the tests) — it runs offscreen under SDL's dummy video driver as before.  The
driver and renderer used are printed.  Audio goes to SDL's dummy audio driver.

Runs :class:`game.app.App` exactly as ``hongwu`` does, starting at the main menu, and drives
it with real mouse events on its own buttons and cards: main menu, new game, rules, then a
seeded game where you bid until you are the dealer, choose trump, bury, play (your plays
chosen by the built-in ``basic`` AI) and reach the settlement.  One PNG per scene and
language is written to ``docs/screenshots/<scene>_<lang>.png``.

Usage::

    python tools/screenshots.py [--out DIR] [--lang zh] [--lang en] [--size 1280x720]
                                [--scene menu --scene play ...] [--seed N] [--driver auto|xvfb|dummy]

Scenes: menu, newgame, rules, bidding, trump, bury, play, pause (the Esc menu over the table),
settle, and the career (README "Career"): profile (creating one by typing), promotion (the
call-out over the settlement), records, stats (with the chart), replay (the viewer at trick
5), replay_review (the viewer with a review 复盘's marks, at the first costly decision: the
review computed with 4 samples a decision); zpy_replay (the 找朋友 viewer at trick 5, opened
from the records' 找朋友 list); xray (X-ray on at the table in play, the AI seats' panels
beside their plates).  With a career scene the tour first creates a profile on the profile
screen and records 24 demo hands and a 找朋友 match of 2 for it, so the menu card, records and
chart have something to show.  Settings
and the career database are read from and written to a temporary folder, never the user's.  Sound is on, played into SDL's dummy audio
driver, so the toolbar shows what a player sees (the client greys its sound button out when
there is no audio output at all).  Exit code 0 when every requested PNG was written, 1
otherwise.
"""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parent.parent
SCENES = ("menu", "newgame", "rules", "bidding", "trump", "bury", "play", "xray", "pause", "settle",
          "profile", "promotion", "records", "stats", "replay", "replay_review", "zpy_replay")
CAREER_SCENES = {"profile", "promotion", "records", "stats", "replay", "replay_review", "zpy_replay"}
#: the 找朋友 scenes (a second tour: new game with 找朋友 chosen, its rules, then a match where you
#: declare when you can, call a friend as the dealer, bury, counter or pass, play, settle)
ZPY_SCENES = ("zpy_newgame", "zpy_rules", "zpy_deal", "zpy_friend", "zpy_bury", "zpy_play", "zpy_settle")
ALL_SCENES = SCENES + ZPY_SCENES
#: the seed of the 找朋友 match shown: you (seat 0) end the deal as the dealer after another seat
#: declared, and your friend is revealed while tricks are still to play
DEFAULT_ZPY_SEED = 8
DEFAULT_OUT = ROOT / "docs" / "screenshots"
DEFAULT_SEED = 20240605
MAX_FRAMES = 4000
XVFB_DISPLAY = ":74"


def start_xvfb(size: tuple[int, int], display: str = XVFB_DISPLAY) -> subprocess.Popen:
    """Start Xvfb (:func:`game.xvfb.start_xvfb`) with a screen large enough for a ``size``
    window (the client shrinks windows that do not fit the desktop); stopped at exit."""
    from game.xvfb import start_xvfb as start

    sw, sh = max(1920, int(size[0] / 0.9) + 16), max(1080, int(size[1] / 0.85) + 16)
    return start(display, f"{sw}x{sh}x24")


def _choose_driver(driver: str) -> str:
    """``xvfb`` or ``dummy`` for ``--driver`` (``auto``: Xvfb when installed, unless
    ``SDL_VIDEODRIVER=dummy`` is already set)."""
    if driver == "auto":
        forced = os.environ.get("SDL_VIDEODRIVER") == "dummy"
        driver = "xvfb" if shutil.which("Xvfb") and not forced else "dummy"
    return driver


def _setup_env(driver: str = "dummy", display: str = XVFB_DISPLAY) -> None:
    os.environ["SDL_VIDEODRIVER"] = "x11" if driver == "xvfb" else "dummy"
    if driver == "xvfb":
        os.environ["DISPLAY"] = display
    os.environ.setdefault("HONGWU_DATA_DIR", tempfile.mkdtemp(prefix="hongwu-shots-data-"))
    os.environ["SDL_AUDIODRIVER"] = "dummy"
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    os.environ.setdefault("HONGWU_CONFIG_DIR", tempfile.mkdtemp(prefix="hongwu-shots-"))
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))


class Shooter:
    """Drives one :class:`game.app.App` in ``lang`` and saves the wanted scenes to ``out``.

    ``saved`` lists the files written.  Time is a fake clock advanced by the driver, so
    messages and countdowns look the same on every run.
    """

    def __init__(self, lang: str, out: Path, size: tuple[int, int], wanted: set[str], seed: int,
                 zpy_seed: int = DEFAULT_ZPY_SEED) -> None:
        import io

        from game.app import App, Options

        self.lang, self.out, self.wanted = lang, out, wanted
        self.zpy_seed = zpy_seed
        self.now = 1000.0
        self.saved: list[Path] = []
        self.app = App(Options(menu=True, lang=lang, speed="instant", audio=True, save_settings=False,
                               user_plugins=False, size=size, seed=seed, max_frames=MAX_FRAMES * 4,
                               out=io.StringIO()),
                       clock=lambda: self.now)
        self._me: Any = None
        b = self.app.backend
        self.renderer = (f"gpu (TextureBackend, {getattr(b, 'driver', '')})" if b.kind == "gpu"
                         else f"{b.kind} (SoftwareBackend)")

    # -- input ------------------------------------------------------------------------------------
    def step(self, n: int = 1, dt: float = 0.05) -> None:
        """Run ``n`` frames, ``dt`` seconds of fake time each."""
        for _ in range(n):
            self.now += dt
            if not self.app.step():
                raise RuntimeError("the app stopped")

    def click_pos(self, pos: tuple[int, int]) -> None:
        """A real mouse press and release at ``pos``, then one frame."""
        import pygame

        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))
        self.step()

    def press(self, key: str) -> None:
        """Click the button ``key`` of the screen on top (menu screen or table)."""
        top = self.app.top
        for b in top.buttons:
            if b.key == key and b.enabled:
                self.click_pos(b.rect.center)
                return
        raise RuntimeError(f"no enabled button {key!r} on {type(top).__name__}: {[b.key for b in top.buttons]}")

    def select(self, cards: Any) -> None:
        """Raise exactly ``cards`` (engine cards) in the hand by clicking them."""
        for _ in range(len(cards) * 3 + 10):
            sc = self.app.scene
            hand = sc.hand
            want: list[int] = []
            for c in cards:
                idx = next((i for i, h in enumerate(hand.cards) if h == c and i in hand.selected and i not in want),
                           None)
                if idx is None:
                    idx = next(i for i, h in enumerate(hand.cards) if h == c and i not in want)
                want.append(idx)
            todo = sorted(hand.selected - set(want)) + [i for i in want if i not in hand.selected]
            if not todo:
                return
            pt = hand.click_point(sc.layout, todo[0])
            self.click_pos((int(pt[0]), int(pt[1])))
        raise RuntimeError("could not select the cards")

    # -- output -----------------------------------------------------------------------------------
    def shot(self, name: str, settle_s: float = 10.0) -> None:
        """Save the window as ``<name>_<lang>.png`` (after ``settle_s`` s of quiet time, so
        passing messages have gone)."""
        import pygame

        if name not in self.wanted:
            return
        if settle_s:
            self.step(1, settle_s)
        self.step(2, 0.0)
        self.out.mkdir(parents=True, exist_ok=True)
        path = self.out / f"{name}_{self.lang}.png"
        pygame.image.save(self.app.backend.screenshot(), str(path))  # what was presented
        self.saved.append(path)

    # -- the tour ---------------------------------------------------------------------------------------
    def run(self) -> list[Path]:
        """Take every wanted screenshot; returns the files written."""
        try:
            self.step(3)
            career = bool(self.wanted & CAREER_SCENES)
            if career:
                self.make_profile()
            self.shot("menu")
            if self.wanted & {"rules"}:
                self.press("rules")
                self.step(2)
                self.shot("rules")
                self.press("back")
            self.press("new")
            self.step(2)
            if career:
                for _ in range(3):  # stake 100 coins per game point
                    self.press("stake")
            self.shot("newgame")
            if self.wanted & {"bidding", "trump", "bury", "play", "xray", "pause", "settle", "promotion"}:
                self.press("start")
                self.play_hand()
            if career:
                self.career_tour()
            if self.wanted & set(ZPY_SCENES):
                self.zpy_tour()
        finally:
            self.app.close()
        return self.saved

    def zpy_tour(self) -> None:
        """找朋友: choose it on the new-game screen, look at its rules, start a match (seed
        :attr:`zpy_seed`) and play its first hand."""
        app = self.app
        if app.scene is not None:  # a 红五 hand before: back to the menu
            app.close_session()
        if len(app.screens) > 1 or not any(b.key == "new" for b in app.top.buttons):
            app.show_menu()  # e.g. still on the new-game screen, or in the career screens
        self.step(2)
        if "zpy_rules" in self.wanted:
            self.press("rules")
            self.step(2)
            if app.top.game != "zhaopengyou":
                self.press("tab:zhaopengyou")
                self.step(2)
            self.shot("zpy_rules", 0.0)
            self.press("back")
        self.press("new")
        self.step(2)
        self.press("game:zhaopengyou")
        self.step(2)
        self.shot("zpy_newgame", 0.0)
        app.options.seed = self.zpy_seed
        self.press("start")
        self.play_zpy_hand()

    def play_zpy_hand(self) -> None:
        """You declare the strongest you can whenever asked, pass counters, call the last
        friend the rules allow, bury the first 7 cards and play the basic AI's choices."""
        from ai_plugins.runner import SafePlayer
        from engine.zhaopengyou import ZPhase, legal_friend_calls

        app = self.app
        brain = SafePlayer(None, "basic", 0, seed=1)
        done: set[str] = set()
        for _ in range(MAX_FRAMES * 2):
            self.step()
            sc = app.scene
            if sc.show_settlement:
                self.shot("zpy_settle", 0.0)
                return
            v = sc.view
            if v.phase is ZPhase.PLAY and v.friend is not None and "play" not in done and len(v.current_trick) >= 3:
                done.add("play")
                self.shot("zpy_play", 2.0)
                continue
            if not v.my_turn:
                continue
            if v.phase is ZPhase.DEAL:
                if "deal" not in done and v.declarations:
                    done.add("deal")
                    self.step(1, 1.0)
                    self.shot("zpy_deal", 0.0)
                self.press(f"declare:{len(v.legal_declarations) - 1}")
            elif v.phase is ZPhase.COUNTER:
                self.press("declare:pass")
            elif v.phase is ZPhase.CALL_FRIEND:
                card, nth = legal_friend_calls(v.trump, v.level, v.ruleset.options)[-1]
                sc.panels["call_friend"].select(card, nth)
                self.step(1, 6.0)
                self.shot("zpy_friend", 0.0)
                self.press("fr:call")
            elif v.phase is ZPhase.BURY:
                self.select(list(v.hand[: v.bury_count]))
                if "bury" not in done:
                    done.add("bury")
                    self.shot("zpy_bury", 6.0)
                self.press("bury")
            elif v.phase is ZPhase.PLAY:
                act = brain.fallback_action(v)
                self.select(list(act.cards))
                self.press("play")
        raise RuntimeError("the 找朋友 hand did not end")
    def make_profile(self) -> None:
        """Create a profile by typing on the profile screen (shot ``profile``), then record 24
        demo hands for it (first-legal play, an hour apart) so records and charts fill."""
        import pygame

        from engine.state import Game, first_legal_action
        from game.career import Recorder

        name = "安妮" if self.lang == "zh" else "Annie"
        self.press("profile")
        self.step(2)
        pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=name))
        self.step(2)
        self.press("avatar:crane")
        self.shot("profile", 0.0)
        self.press("create")
        store = self.app.career.store()
        t = [1_780_000_000.0]

        def clock() -> float:
            t[0] += 3600.0
            return t[0]

        rec = Recorder(store, name, stake=100, clock=clock)
        for seed in range(24):
            g = Game.new(seed=seed)
            while not g.is_over:
                g.apply(first_legal_action(g.view(g.to_act)))
            rec.record_game(g, [name, "basic", "basic", "basic"])
        self.record_zpy_match(Recorder(store, name, clock=clock), name)
        self.app.top.invalidate()
        self.step(2)

    @staticmethod
    def record_zpy_match(rec: Any, name: str, hands: int = 2, seed: int = 9) -> None:
        """Record ``hands`` hands of a 找朋友 match (first legal actions) with ``rec``."""
        from engine.match import ZpyMatch
        from engine.ruleset import zhaopengyou
        from engine.zhaopengyou import first_legal_action

        m = ZpyMatch(zhaopengyou(), seed=seed)
        for k in range(hands):
            while not m.hand.is_over:
                m.hand.apply(first_legal_action(m.hand))
            rec.zpy_hand_finished(m, [name, "basic", "basic", "basic", "basic"])
            if k + 1 < hands:
                m.next_hand()

    def career_tour(self) -> None:
        """Records, statistics and the replay viewers of the profile (shots ``records``,
        ``stats``, ``replay``, ``zpy_replay``), then back to the main menu."""
        app = self.app
        app.show_menu()
        self.step(2)
        self.press("records")
        self.step(2)
        self.shot("records", 0.0)
        self.press("stats")
        self.step(2)
        self.shot("stats", 0.0)
        self.press("back")
        self.step(1)
        row = next(b.key for b in app.top.buttons if b.key.startswith("rec:"))
        self.press(row)
        self.step(1)
        app.top.go(5)
        self.shot("replay", 0.0)
        if "replay_review" in self.wanted:  # the review's marks in the viewer
            from game.career.reviews import review_record

            viewer = app.top
            store = app.career.store()
            rv, _cached = review_record(store, viewer.review[1], samples=4)
            viewer.set_review(rv)
            viewer.go(0)
            viewer.next_costly()
            self.shot("replay_review", 0.0)
        self.press("back")  # the viewer: back at the records
        self.step(1)
        if "zpy_replay" in self.wanted:
            self.press("game:zhaopengyou")
            self.step(1)
            row = next(b.key for b in app.top.buttons if b.key.startswith("rec:"))
            self.press(row)
            self.step(1)
            app.top.go(5)
            self.shot("zpy_replay", 0.0)
            self.press("back")
            self.step(1)
        self.press("back")  # the records: back at the main menu
        self.step(2)

    def promotion_shot(self) -> None:
        """The promotion call-out over the settlement (shot ``promotion``): the hand's own
        when it crossed a title threshold, else the call-out for the next title as it will look."""
        from engine.titles import next_title, promotions
        from game.career import Recorded
        from game.scenes.promotion import PromotionOverlay

        if "promotion" not in self.wanted:
            return
        app = self.app
        if not isinstance(app.top, PromotionOverlay):
            rec = app.scene.career
            before = rec.points_after if rec is not None else 0
            after = next_title(before).threshold or before
            app.push_screen(PromotionOverlay(app, Recorded(0, before, after, 0, tuple(promotions(before, after)))))
        app.top.started = self.now
        self.step(12, 0.1)  # risen, mid-glow
        self.shot("promotion", 0.0)
        app.pop_screen(app.top)

    def _wait(self, pred: Callable[[], bool], what: str) -> None:
        for _ in range(MAX_FRAMES):
            if pred():
                return
            self.step()
        raise RuntimeError(f"never reached: {what}")

    def play_hand(self) -> None:
        """Bid until dealer, choose trump, bury and play the hand out (basic AI's choices)."""
        from ai_plugins.base import AISettings
        from ai_plugins.builtin.basic import BasicAI
        from engine.state import Phase

        app = self.app
        brain = BasicAI(AISettings(seat=0, seed=1))
        shot_bid = shot_play = False
        for _ in range(MAX_FRAMES):
            self.step()
            sc = app.scene
            if sc.show_settlement:
                self.shot("settle", 0.0)
                self.promotion_shot()
                return
            v = sc.view
            if not v.my_turn or sc.hand.visible is not None:
                continue
            if v.phase == Phase.BID:
                if not shot_bid:
                    shot_bid = True
                    self.shot("bidding", 0.0)
                legal = v.legal_bids()
                self.press(f"bid:{legal[-1]}" if legal else "bid:pass")
            elif v.phase == Phase.TRUMP:
                self.shot("trump", 0.0)
                self.press(f"trump:{brain.choose_trump(v, ('S', 'H', 'C', 'D'))}")
            elif v.phase == Phase.BURY:
                bury = list(brain.choose_bury(v, v.bury_count))
                self.select(bury[: max(1, len(bury) - 3)])
                self.shot("bury", 10.0)
                self.select(bury)
                self.press("bury")
            elif v.phase == Phase.PLAY:
                opts = v.play_options()
                play = tuple(brain.choose_play(v, opts))
                self.select(play)
                if not shot_play and v.trick_no >= 3 and len(v.current_trick) >= 2:
                    shot_play = True
                    self.shot("play", 10.0)
                    if "xray" in self.wanted:  # the AI seats' candidates beside their plates
                        app.set_xray(True)
                        self.shot("xray", 0.0)
                        app.set_xray(False)
                    if "pause" in self.wanted:
                        self.press("tool:menu")  # the toolbar's Menu button (same as Esc)
                        self.shot("pause", 0.0)
                        self.press("resume")
                self.press("play")
        raise RuntimeError("the hand did not end")


def _size(text: str) -> tuple[int, int]:
    w, h = (int(x) for x in text.lower().split("x"))
    return w, h


def main(argv: list[str] | None = None) -> int:
    """Command line entry point; returns the exit code."""
    global XVFB_DISPLAY
    ap = argparse.ArgumentParser(description="Screenshots of the real client (Xvfb when installed, else offscreen).")
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT, help=f"folder for the PNGs (default {DEFAULT_OUT})")
    ap.add_argument("--lang", action="append", choices=("zh", "en"), default=None, help="language(s) (default both)")
    ap.add_argument("--size", type=_size, default=(1280, 720), metavar="WxH", help="window size (default 1280x720)")
    ap.add_argument("--scene", action="append", choices=ALL_SCENES, default=None,
                    help="scene(s) (default all, 红五's and 找朋友's)")
    ap.add_argument("--seed", type=int, default=DEFAULT_SEED, help="seed of the game shown")
    ap.add_argument("--zpy-seed", type=int, default=DEFAULT_ZPY_SEED, help="seed of the 找朋友 match shown")
    ap.add_argument("--driver", choices=("auto", "xvfb", "dummy"), default="auto",
                    help="xvfb: start Xvfb :74 and use SDL's x11 driver; dummy: offscreen (auto: xvfb when installed)")
    ap.add_argument("--display", default=XVFB_DISPLAY, help=f"the X display Xvfb opens (default {XVFB_DISPLAY})")
    ns = ap.parse_args(argv)
    XVFB_DISPLAY = ns.display
    driver = _choose_driver(ns.driver)
    if driver == "xvfb":
        start_xvfb(ns.size, ns.display)
    _setup_env(driver, ns.display)
    wanted = set(ns.scene or ALL_SCENES)
    written: list[Path] = []
    used: set[str] = set()
    for lang in ns.lang or ["zh", "en"]:
        shooter = Shooter(lang, ns.out, ns.size, wanted, ns.seed, ns.zpy_seed)
        used.add(shooter.renderer)
        written += shooter.run()
    where = f"x11 on Xvfb {ns.display}" if driver == "xvfb" else "dummy (offscreen)"
    print(f"video driver: {where}; renderer auto -> {', '.join(sorted(used))}")
    total = sum(p.stat().st_size for p in written)
    for p in written:
        print(f"{p} {p.stat().st_size // 1024} KiB")
    print(f"{len(written)} screenshots, {total / 1024 / 1024:.2f} MiB")
    expected = len(wanted) * len(ns.lang or ["zh", "en"])
    return 0 if len(written) == expected else 1


if __name__ == "__main__":
    sys.exit(main())
