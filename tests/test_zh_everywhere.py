"""With the language set to Chinese, no English reaches the screen.

Every string drawn goes through :func:`game.fonts.render`; the tests record them while the
client shows each screen in ``zh`` (menus, new game, settings, rules, the table in every phase
with auto-play, a failed throw, LAN notices and markers, the settlement, the LAN lobby) and
fail on any English word left.  A catalog check asks every message for a Chinese translation.
"""
from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

pygame = pytest.importorskip("pygame")

from game import fonts, i18n, settings  # noqa: E402
from game.app import App, Options  # noqa: E402
from tests.client_driver import loopback_lan, open_host_lobby, make_app, throw_table  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent

#: ASCII words allowed on a Chinese screen: key names, "AI", "English" / "EN" (the language button
#: names the language it switches to; "EN" when the toolbar is short of room), units, the placeholder names the
#: tests give and a plugin's own name (shown as it registered).
ALLOWED = {"AI", "English", "EN", "Esc", "Enter", "Space", "Backspace", "Tab", "Ctrl", "Shift", "Alt", "Home", "End",
           "Ann", "Bob", "PgUp", "PgDn", "ms", "px", "fps", "LAN", "IP", "TCP", "UDP", "myplug", "F1", "F11"}
WORD = re.compile(r"[A-Za-z]{2,}")


@pytest.fixture
def drawn(monkeypatch, tmp_path):
    """Record every string drawn (``fonts.render``) while the test runs."""
    monkeypatch.setenv(settings.CONFIG_ENV, str(tmp_path))
    seen: list[str] = []
    real = fonts.render

    def spy(text, size, color, bold=False):
        seen.append(str(text))
        return real(text, size, color, bold)

    monkeypatch.setattr(fonts, "render", spy)
    yield seen
    i18n.set_language("en")


def english(seen) -> list[str]:
    """The strings of ``seen`` holding an ASCII word that is not allowed."""
    bad = []
    for text in dict.fromkeys(seen):
        if any(w not in ALLOWED for w in WORD.findall(text)):
            bad.append(text)
    return bad


def run(app: App, until, frames: int = 6000) -> None:
    """Step ``app`` until ``until()`` is true (AssertionError after ``frames`` frames)."""
    for _ in range(frames):
        if until():
            return
        app.step()
    raise AssertionError("condition not reached")


def test_catalog_has_chinese_for_every_message():
    """Every msgid of the zh catalog has a non-empty, non-fuzzy translation."""
    import sys

    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import extract_messages
    finally:
        sys.path.pop(0)
    text = (ROOT / "game/locale/zh/LC_MESSAGES/hongwu.po").read_text(encoding="utf-8")
    i18n.set_language("zh")
    missing = [m for m in extract_messages.extract() if i18n._(m) == m and english([m])]
    assert not missing, missing[:20]
    assert "#, fuzzy" not in text


def test_kitty_points_are_not_called_base_score():
    """底分 is the base score only; the kitty's points are 底牌分 (kitty points in English)."""
    i18n.set_language("zh")
    assert i18n._("Kitty points") == "底牌分"
    for path in (ROOT / "game/locale/zh/rules.md",):
        for line in path.read_text(encoding="utf-8").splitlines():
            assert "计入的底分" not in line, line


def test_menus_new_game_settings_rules_in_chinese(drawn):
    app = App(Options(menu=True, lang="zh", speed="instant", audio=False, user_plugins=False,
                      size=(1280, 720), max_frames=5000))
    try:
        for _ in range(3):
            app.step()
        for opener in (app.open_new_game, app.open_settings, app.open_rules):
            opener()
            for _ in range(3):
                app.step()
            top = app.top
            for seat in (1, 2, 3) if opener == app.open_new_game else ():  # every AI in the pickers
                for _ in range(len(top.ais)):
                    top.cycle_seat(seat, 1)
                    top.invalidate()
                    app.step()
            while getattr(top, "scroll", 0) < getattr(top, "max_scroll", 0):  # the rules, to the end
                top.scroll = min(top.max_scroll, top.scroll + 200)
                top.invalidate()
                app.step()
            app.screens.pop()
            app.step()
    finally:
        app.close()
    assert len(drawn) > 20
    assert {"基础", "专家", "随机"} <= set(drawn)  # the built-in AIs in the seat pickers
    assert not english(drawn), english(drawn)


def test_table_every_phase_auto_and_settlement_in_chinese(drawn):
    app = make_app(lang="zh", seats=("human", "basic", "expert", "random"), speed="instant")
    try:
        app.step()
        app.scene.toggle_auto(True)
        run(app, lambda: app.scene.show_settlement)
        for _ in range(3):
            app.step()
        app.open_pause()
        for _ in range(3):
            app.step()
    finally:
        app.close()
    assert not english(drawn), english(drawn)


def test_failed_throw_banner_in_chinese(drawn):
    from engine.state import Bid, Phase, first_legal_action

    now = [1000.0]
    app = make_app(lang="zh", table=throw_table(1, clock=lambda: now[0]), clock=lambda: now[0])
    shown = 0
    try:
        for _ in range(3000):
            now[0] += 0.05
            app.step([])
            sc = app.scene
            if any(t.tried for t in sc.toasts):
                shown += 1
                if shown > 3:
                    break
            v = sc.view
            if v.my_turn and not sc.dealing:
                sc.submit(Bid(0, None) if v.phase == Phase.BID else first_legal_action(v))
    finally:
        app.close()
    assert shown, "no failed throw"
    assert not english(drawn), english(drawn)


def test_lan_notices_and_marks_in_chinese(drawn):
    """The lines and name markers a LAN table (net.remote_table) produces, as the client shows them."""
    from game.table import LocalTable

    class LanLike(LocalTable):
        """A local table that speaks like a RemoteTable: markers and notices."""

        lines = ["auto-play on for you (timeout)", "auto-play off for you (request)",
                 "auto-play on for Bob (disconnect)", "auto-play off for seat 2 (reconnect)",
                 "connection lost; reconnecting...", "reconnected",
                 "could not reconnect to the host",
                 "disconnected from the host: connection lost"]

        def notices(self):
            """One line a frame after the deal (the banner shows the latest two)."""
            self.calls = getattr(self, "calls", 0) + 1
            return [self.lines.pop(0)] if self.lines and self.calls > 4 else []

        def countdown(self):
            """The host's turn timer: the seat to act has 12 s left."""
            return (self.view().to_act, 12)

    table = LanLike(["human", "basic", "basic", "basic"], seed=3, speed="instant",
                    names=["Ann", "Bob [auto]", "seat 2 [offline]", "basic"], user_plugins=False)
    app = make_app(lang="zh", table=table)
    try:
        for _ in range(20):
            app.step()
    finally:
        app.close()
    assert any("Bob" in t for t in drawn) and any("12" in t for t in drawn)
    assert any("超时" in t for t in drawn)  # the time-out notice
    assert not english(drawn), english(drawn)


def test_lan_lobby_in_chinese(drawn, monkeypatch):
    pytest.importorskip("net.remote_table")


    loopback_lan(monkeypatch)
    own = "\0"
    app = App(Options(menu=True, lang="zh", speed="instant", audio=False, user_plugins=False,
                      size=(1280, 720), max_frames=5000))
    try:
        scr = open_host_lobby(app)
        own = scr.name  # the player's own name
        scr.table.fill(1, "basic")
        end = time.monotonic() + 3
        while time.monotonic() < end:
            app.step()
            time.sleep(0.01)
    finally:
        app.close()
    left = english(t.replace(own, "") for t in drawn)
    assert not left, left


def test_lan_join_screen_with_a_table_found_in_chinese(drawn, monkeypatch):
    pytest.importorskip("net.remote_table")
    from net.discovery import Found

    from game.scenes import lan

    monkeypatch.setattr(lan.LanScreen, "_discover", lambda self: None)  # no real listening
    app = App(Options(menu=True, lang="zh", speed="instant", audio=False, user_plugins=False,
                      size=(1280, 720), max_frames=5000))
    try:
        app.open_lan("join")
        scr = app.top
        app.step()
        scr.found = [Found("127.0.0.1", 47470, "Ann", 1, ({"free_seats": 2},))]
        scr.invalidate()
        for _ in range(3):
            app.step()
        assert scr.state == "find"
    finally:
        app.close()
    assert any("Ann" in t for t in drawn)
    assert not english(drawn), english(drawn)


def test_chat_panel_bubbles_and_notes_in_chinese(drawn):
    """The chat panel (title, mute row, quick phrases, emote names in the history, notes,
    join/leave lines, the placeholder) and the bubbles, in Chinese."""
    from game.chat import ChatSession
    from game.chat_panel import ChatPanel

    class Talk:
        """The chat side of a RemoteTable: an English speaker's phrase and emote arrive."""

        seat, name, chat_in_notices = 0, "Ann", True
        table = {"seats": [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"},
                           {"kind": "ai", "name": "basic AI"}, {"kind": "empty"}]}

        def __init__(self):
            self.inbox = [{"seat": 1, "name": "Bob", "text": "Well played!"},
                          {"seat": 1, "name": "Bob", "text": ":star:"}]

        def chat(self, text):
            return "RATE_LIMITED"

        def take_chats(self):
            out, self.inbox = self.inbox, []
            return out

    app = make_app(lang="zh")
    try:
        app.step()
        talk = Talk()
        session = ChatSession(talk, time.monotonic)
        app.scene.attach_chat(ChatPanel(session, app.window.get_size))
        app.step()
        assert 1 in session.bubbles  # Bob's star at his seat
        talk.table = {"seats": [dict(s) for s in talk.table["seats"]]}
        talk.table["seats"][3] = {"kind": "human", "name": "Cy"}
        app.scene.chat.toggle()
        session.send("你好")  # refused by the host: a note
        for _ in range(3):
            app.scene.invalidate()
            app.step()
        assert any("打得好" in t for t in drawn)  # Bob's English phrase, listed in Chinese
        assert any("厉害" in t for t in drawn) and any("屏蔽" in t for t in drawn)
        assert any("主机拒绝" in t for t in drawn) and any("入座" in t for t in drawn)
    finally:
        app.close()
    left = english(t.replace("Bob", "").replace("Ann", "").replace("Cy", "").replace("RATE_LIMITED", "")
                   for t in drawn)
    assert not left, left
