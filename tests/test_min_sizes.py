"""Legible at 800×480 (a Raspberry Pi 7" touchscreen) and bigger: every text drawn is at least
14 px and every button at least 40 px tall, both growing with the window.

The real client is driven through every screen (main menu, new game, rules, settings, the
table in bidding / trump choice / burying / play with the last trick shown / settlement, the
pause overlay, the LAN lobby) while the font module records the pixel size of every text it
renders; each screen's buttons are collected as it is shown.
"""
from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

pygame = pytest.importorskip("pygame")

from tests.client_driver import loopback_lan, open_host_lobby  # noqa: E402

from game import fonts, i18n, settings  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def min_text(w: int, h: int) -> int:
    """Smallest text size (px) allowed in a ``w``×``h`` window: 14 at 800×480 and up to
    1280×720, then growing with the window."""
    return max(14, int(14 * min(w / 1280, h / 720)))


def min_button(w: int, h: int) -> int:
    """Smallest button height (px) allowed in a ``w``×``h`` window."""
    return max(40, int(40 * min(w / 1280, h / 720)))


class _FontSpy:
    """Wraps a pygame font: records the size of every text it renders."""

    def __init__(self, font, size: int, log: list) -> None:
        self._font, self._size, self._log = font, size, log

    def render(self, text, *a, **k):
        """Render and record."""
        self._log.append((str(text), self._size))
        return self._font.render(text, *a, **k)

    def __getattr__(self, name):
        return getattr(self._font, name)


@pytest.fixture
def drawn(monkeypatch, tmp_path):
    """A list of ``(text, px)`` that fills with every text rendered."""
    monkeypatch.setenv(settings.CONFIG_ENV, str(tmp_path))
    import game.cards_render as cr

    log: list[tuple[str, int]] = []
    real_get, real_render = fonts.get_font, fonts.render

    def get_font(size, bold=False):
        return _FontSpy(real_get(size, bold), max(6, int(size)), log)

    def render(text, size, color, bold=False):
        log.append((str(text), max(6, int(size))))
        return real_render(text, size, color, bold)

    monkeypatch.setattr(fonts, "get_font", get_font)
    monkeypatch.setattr(fonts, "render", render)
    fonts.clear_cache()
    for name in dir(cr):  # card faces are cached: draw them again
        obj = getattr(cr, name)
        if isinstance(obj, dict) and name.isupper() and "CACHE" in name:
            obj.clear()
    yield log
    i18n.set_language("en")


def _shooter_class():
    spec = importlib.util.spec_from_file_location("hongwu_shots_for_sizes", ROOT / "tools" / "screenshots.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.Shooter


def _tour(size, lang, log, save_dir=None):
    """Drive the client through every screen; returns ``{screen: (texts, buttons, scene,
    its own buttons)}`` (buttons: also the table's under a see-through overlay)
    (``save_dir``: also save a PNG of each screen there, to look at)."""
    Shooter = _shooter_class()
    seen: dict[str, tuple[list, list]] = {}

    class Recorder(Shooter):
        def shot(self, name, settle_s=10.0):  # noqa: D102 - record instead of saving
            app = self.app
            if settle_s:
                self.step(1, settle_s)
            if name == "play":
                self.press("help:last")  # the last trick, shown over the table
                self.step(2, 0.0)
            self._measure(name)
            if name == "play":
                self.press("help:last")
                self.step(1, 0.0)
            if name == "menu":
                self.press("settings")
                self.step(2)
                self._measure("settings")
                self.press("back")
                self.step(2)
            del app

        def _measure(self, name):
            app = self.app
            for s in [app.scene] + list(app.screens):
                if s is not None:
                    s.invalidate()
            fonts.clear_cache()
            del log[:]
            self.step(2, 0.0)
            own = list(getattr(app.top, "buttons", []))
            buttons = list(own)
            if app.scene is not None and app.top is not app.scene and not getattr(app.top, "opaque", True):
                buttons += list(app.scene.buttons)
            seen[name] = (list(log), buttons, app.scene, own)
            if save_dir is not None:
                pygame.image.save(app.window, str(Path(save_dir) / f"{name}_{lang}_{size[0]}.png"))

    rec = Recorder(lang, ROOT / "unused", size, {"menu", "newgame", "rules", "bidding", "trump", "bury",
                                                  "play", "pause", "settle"}, 20240605)
    rec.run()
    return seen


@pytest.mark.parametrize("size", [(800, 480), (1920, 1080)])
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_every_text_and_button_is_big_enough(size, lang, drawn):
    seen = _tour(size, lang, drawn)
    assert set(seen) >= {"menu", "settings", "newgame", "rules", "bidding", "trump", "bury", "play", "pause",
                         "settle"}
    lo_t, lo_b = min_text(*size), min_button(*size)
    small, low = [], []
    for name, (texts, buttons, _scene, _own) in seen.items():
        assert texts, f"nothing drawn on {name}"
        small += sorted({(name, t, px) for t, px in texts if px < lo_t and t.strip()})
        low += [(name, b.key, b.rect.h) for b in buttons if b.rect.h < lo_b]
    assert not small, f"text under {lo_t} px: {small[:60]}"
    assert not low, f"buttons under {lo_b} px: {low}"


def test_nothing_overlaps_and_the_last_trick_leaves_the_points_panel(drawn):
    seen = _tour((800, 480), "en", drawn)
    screen = pygame.Rect(0, 0, 800, 480)
    for name, (_texts, _all, _scene, buttons) in seen.items():  # each screen's own buttons
        for i, a in enumerate(buttons):
            assert screen.contains(a.rect), (name, a.key, a.rect)
            for b in buttons[i + 1:]:
                assert not a.rect.colliderect(b.rect), (name, a.key, b.key)
    sc = seen["play"][2]
    box, lay = sc.last_trick_box(), sc.layout
    for r in (lay.scores_rect, lay.tools_rect, lay.counter_rect, lay.info_rect, lay.toolbar):
        assert not box.colliderect(r), (box, r)
    assert lay.trick_area.contains(box) and box.w >= 4 * lay.trick_w and box.h >= 2 * lay.trick_h


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_lan_lobby_is_big_enough(lang, drawn, monkeypatch):
    pytest.importorskip("net.remote_table")
    from game.app import App, Options

    loopback_lan(monkeypatch)
    app = App(Options(menu=True, lang=lang, speed="instant", audio=False, save_settings=False, user_plugins=False,
                      size=(800, 480)))
    try:
        scr = open_host_lobby(app)
        for _ in range(3):
            scr.invalidate()
            app.step()
        fonts.clear_cache()
        del drawn[:]
        scr.invalidate()
        app.step()
        assert drawn
        small = sorted({(t, px) for t, px in drawn if px < 14 and t.strip()})
        assert not small, small
        low = [(b.key, b.rect.h) for b in scr.buttons if b.rect.h < 40]
        assert not low, low
    finally:
        app.close()


def _zpy_tour(size, lang, log):
    """Drive the 找朋友 tour of tools/screenshots.py (new game with 找朋友, its rules, the deal
    with a declaration, the friend call, the bury, play after the reveal, the settlement) and
    measure each screen like :func:`_tour`."""
    Shooter = _shooter_class()
    seen: dict[str, tuple[list, list, object, list]] = {}

    class Recorder(Shooter):
        def shot(self, name, settle_s=10.0):  # noqa: D102 - record instead of saving
            if name not in self.wanted:
                return
            if settle_s:
                self.step(1, settle_s)
            app = self.app
            for s in [app.scene] + list(app.screens):
                if s is not None:
                    s.invalidate()
            fonts.clear_cache()
            del log[:]
            self.step(2, 0.0)
            own = list(getattr(app.top, "buttons", []))
            seen[name] = (list(log), own, app.scene, own)

    mod_scenes = {"zpy_newgame", "zpy_rules", "zpy_deal", "zpy_friend", "zpy_bury", "zpy_play", "zpy_settle"}
    Recorder(lang, ROOT / "unused", size, mod_scenes, 20240605).run()
    return seen


class _ChatTable:
    """A stand-in for the chat side of a RemoteTable (lines already heard, three others)."""

    def __init__(self) -> None:
        self.seat, self.name, self.chat_in_notices = 0, "Me", True
        self.table = {"seats": [{"kind": "human", "name": "Me"}, {"kind": "human", "name": "Bea"},
                                {"kind": "human", "name": "Cai"}, {"kind": "human", "name": "Dov"}]}
        self.inbox = [{"seat": 1, "name": "Bea", "text": "快点吧！"}, {"seat": 2, "name": "Cai", "text": ":heart:"},
                      {"seat": 3, "name": "Dov", "text": "a rather long line to wrap over the history " * 3},
                      {"seat": 0, "name": "Me", "text": "Well played!"}]

    def chat(self, text):
        return None

    def take_chats(self):
        out, self.inbox = self.inbox, []
        return out


def _chat_checks(size, texts, buttons, screen):
    lo_t, lo_b = min_text(*size), min_button(*size)
    small = sorted({(t, px) for t, px in texts if px < lo_t and t.strip()})
    assert not small, f"chat text under {lo_t} px: {small}"
    low = [(b.key, b.rect.h) for b in buttons if b.rect.h < lo_b]
    assert not low, f"chat buttons under {lo_b} px: {low}"
    for i, a in enumerate(buttons):
        assert screen.contains(a.rect), (a.key, a.rect)
        for b in buttons[i + 1:]:
            assert not a.rect.colliderect(b.rect), (a.key, b.key)


@pytest.mark.parametrize("size", [(800, 480), (1920, 1080)])
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_zpy_screens_are_big_enough(size, lang, drawn):
    """找朋友's screens keep the same minimums: text ≥ 14 px (growing with the window), buttons
    ≥ 40 px tall, each screen's own buttons inside the window and not overlapping."""
    seen = _zpy_tour(size, lang, drawn)
    assert set(seen) == {"zpy_newgame", "zpy_rules", "zpy_deal", "zpy_friend", "zpy_bury", "zpy_play", "zpy_settle"}
    lo_t, lo_b = min_text(*size), min_button(*size)
    screen = pygame.Rect(0, 0, *size)
    small, low = [], []
    for name, (texts, buttons, _scene, own) in seen.items():
        assert texts, f"nothing drawn on {name}"
        small += sorted({(name, t, px) for t, px in texts if px < lo_t and t.strip()})
        low += [(name, b.key, b.rect.h) for b in buttons if b.rect.h < lo_b]
        for i, a in enumerate(own):
            assert screen.contains(a.rect), (name, a.key, a.rect)
            for b in own[i + 1:]:
                assert not a.rect.colliderect(b.rect), (name, a.key, b.key)
    assert not small, f"text under {lo_t} px: {small[:60]}"
    assert not low, f"buttons under {lo_b} px: {low}"


@pytest.mark.parametrize("size", [(800, 480), (1920, 1080)])
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_chat_panel_at_the_table_is_big_enough(size, lang, drawn):
    import time

    from tests.client_driver import make_app

    from game.chat import ChatSession
    from game.chat_panel import ChatPanel

    app = make_app(size=size, lang=lang)
    try:
        app.step()
        scene = app.scene
        session = ChatSession(_ChatTable(), time.monotonic)
        scene.attach_chat(ChatPanel(session, app.window.get_size))
        scene.chat.toggle()
        app.step()
        assert scene.chat.is_open and len(session.visible()) == 4 and set(session.bubbles) == {0, 1, 2, 3}
        scene.invalidate()
        app.step()
        chat = scene.chat
        fonts.clear_cache()
        del drawn[:]  # what the chat draws (panel and bubbles), not the cards' own faces
        scene._draw_chat(pygame.Surface(size), pygame.Rect((0, 0), size))
        keys = {b.key for b in chat.buttons}
        assert {"chat:send", "chat:close", "chat:phrase:hurry", "chat:emote:smile", "chat:mute:2"} <= keys
        _chat_checks(size, drawn, chat.buttons, pygame.Rect((0, 0), size))
        assert chat.field.rect.h >= min_button(*size)
        assert not chat.rect.colliderect(scene.layout.toolbar)
        assert any("Bea" in t for t, _px in drawn)  # the history was drawn
        # bubbles stay on screen, off the open panel and off each other
        rects = list(scene._bubble_rects().values())
        for i, r in enumerate(rects):
            assert pygame.Rect((0, 0), size).contains(r) and not r.colliderect(chat.rect), r
            assert not any(r.colliderect(o) for o in rects[i + 1:]), rects
    finally:
        app.close()


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_chat_panel_in_the_lan_lobby_is_big_enough(lang, drawn, monkeypatch):
    pytest.importorskip("net.remote_table")
    from game.app import App, Options

    loopback_lan(monkeypatch)
    app = App(Options(menu=True, lang=lang, speed="instant", audio=False, save_settings=False, user_plugins=False,
                      size=(800, 480)))
    try:
        scr = open_host_lobby(app)
        assert any(b.key == "chat" for b in scr.buttons)
        scr.on_button(next(b for b in scr.buttons if b.key == "chat"))
        assert scr.chat_panel.is_open
        fonts.clear_cache()
        del drawn[:]
        scr.invalidate()
        app.step()
        _chat_checks((800, 480), drawn, scr.chat_panel.buttons, pygame.Rect(0, 0, 800, 480))
        assert any(t in ("Chat", "聊天") for t, _px in drawn)
    finally:
        app.close()
