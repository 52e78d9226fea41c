"""Chat at a real LAN table: a real host on 127.0.0.1, the window client (dummy SDL driver,
the ``hongwu host`` window at seat 0) and a plain network client (``RemoteTable``, seat 1)
exchange typed text, a quick phrase and an emote; the bubble appears at the speaker's seat
and a mute hides the next line."""
from __future__ import annotations

import time

import pytest

pygame = pytest.importorskip("pygame")

from tests.lan_helpers import host_args  # noqa: E402
from game import i18n, settings  # noqa: E402
from game.lan_cli import make_host_app  # noqa: E402
from net.cli import BackgroundHost, _ai_provider, host_config  # noqa: E402
from net.remote_table import RemoteTable  # noqa: E402


@pytest.fixture(autouse=True)
def _config(tmp_path, monkeypatch):
    monkeypatch.setenv(settings.CONFIG_ENV, str(tmp_path / "config"))
    monkeypatch.setenv("HONGWU_STATE_DIR", str(tmp_path / "state"))
    yield
    i18n.set_language("en")




def wait(app, pred, what: str, limit_s: float = 20.0) -> None:
    """Run frames until ``pred()`` (bounded)."""
    end = time.monotonic() + limit_s
    while time.monotonic() < end:
        app.step()
        if pred():
            return
        time.sleep(0.01)
    raise AssertionError(f"timed out waiting for {what}")


def click_button(app, buttons, key: str) -> None:
    b = next((b for b in buttons if b.key == key), None)
    assert b is not None and b.enabled, (key, [b.key for b in buttons])
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=b.rect.center, button=1))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=b.rect.center, button=1))
    app.step()


def post_key(app, k: int, text: str = "") -> None:
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode=text, scancode=0))
    if text:
        pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=text))
    pygame.event.post(pygame.event.Event(pygame.KEYUP, key=k, mod=0, unicode=text, scancode=0))
    app.step()


def say(app, bea: RemoteTable, text: str, limit_s: float = 10.0) -> None:
    """Bea says ``text``; a refusal by the host's chat budget (RATE_LIMITED) is retried while
    the window runs frames (bounded)."""
    end = time.monotonic() + limit_s
    while True:
        err = bea.chat(text)
        if err is None:
            return
        assert "chat" in str(err) and time.monotonic() < end, err
        app.step()
        time.sleep(0.02)


def heard(bea: RemoteTable, text: str, limit_s: float = 10.0) -> dict:
    """Bea's next chat line saying ``text`` (bounded wait)."""
    end = time.monotonic() + limit_s
    while time.monotonic() < end:
        for msg in bea.take_chats():
            if msg["text"] == text:
                return msg
        time.sleep(0.01)
    raise AssertionError(f"Bea never heard {text!r}")


def test_window_and_net_client_chat_with_phrases_emotes_bubbles_and_mute():
    ns = host_args("--ai", "2=random", "--ai", "3=random", "--player", "Hana")
    host = BackgroundHost(host_config(ns), _ai_provider(ns), None)
    port = host.start()
    app = make_host_app(host, port, ns)
    bea = RemoteTable("127.0.0.1", port, "Bea", seat=1)
    try:
        app.step()
        lobby = app.top
        assert lobby.chat_panel is not None
        # in the lobby: Bea says hello, the window lists it (and the Chat button counts it)
        say(app, bea, "hello from the lobby")
        wait(app, lambda: any(ln.text == "hello from the lobby" for ln in lobby.chat.visible()), "the lobby line")
        assert lobby.chat.unread >= 1
        assert any(b.key == "chat" and "(" in b.label for b in lobby.build())
        bea.ready(True)
        click_button(app, lobby.buttons, "ready")
        wait(app, lambda: type(app.top).__name__ == "TableScene", "the first hand")
        scene = app.scene
        chat = scene.chat
        assert chat is not None and chat.session is lobby.chat  # the history goes on at the table
        assert any(b.key == "tool:chat" for b in scene.buttons)

        # Bea: text, a quick phrase in Chinese, an emote
        for text in ("nice cards", "快点吧", ":heart:"):
            say(app, bea, text)
        wait(app, lambda: sum(1 for ln in chat.session.visible() if ln.name == "Bea") >= 4, "Bea's lines")
        lines = [ln for ln in chat.session.visible() if ln.name == "Bea"]
        assert [ln.kind for ln in lines[-3:]] == ["text", "phrase", "emote"]
        assert lines[-2].display() == "Hurry up!" and lines[-1].key == "heart"
        bubble = chat.session.bubbles[1]
        assert bubble.line.kind == "emote" and bubble.seat == 1
        rects = scene._chat_targets()
        plate = scene.layout.plates[scene.pos_of(1)]
        r = rects[("bubble", 1)]
        assert scene.layout.screen.contains(r) and not r.colliderect(plate)
        assert r.inflate(4 * scene.layout.margin, 4 * scene.layout.margin).colliderect(plate)  # beside it
        frame = pygame.Surface((scene.layout.w, scene.layout.h))
        scene.invalidate()
        scene.draw(frame)
        assert min(tuple(frame.get_at((r.centerx, r.y + 4)))[:3]) >= 215  # the pale bubble is drawn there

        # the window: T opens the panel, typed keys stay in the field (no table shortcut)
        auto = scene.auto
        post_key(app, pygame.K_t, "t")
        assert chat.is_open and chat.field.text == ""
        for ch in "ah ok":
            post_key(app, getattr(pygame, f"K_{ch}") if ch != " " else pygame.K_SPACE, ch)
        assert chat.field.text == "ah ok" and scene.auto == auto and not scene.hand.selected
        post_key(app, pygame.K_RETURN)
        assert heard(bea, "ah ok")["seat"] == 0 and chat.field.text == ""
        click_button(app, chat.buttons, "chat:phrase:well_played")
        assert heard(bea, "Well played!")["name"] == "Hana"
        click_button(app, chat.buttons, "chat:emote:smile")
        assert heard(bea, ":smile:")["seat"] == 0
        wait(app, lambda: 0 in chat.session.bubbles and chat.session.bubbles[0].line.key == "smile", "own bubble")

        # mute Bea: her next line is neither listed nor bubbled
        mute = next(b for b in chat.buttons if b.key.startswith("chat:mute:") and b.value == "Bea")
        click_button(app, chat.buttons, mute.key)
        assert "Bea" in chat.session.muted and 1 not in chat.session.bubbles
        say(app, bea, "can you hear me")
        wait(app, lambda: any(ln.text == "can you hear me" for ln in chat.session.history), "the muted line")
        assert not any(ln.text == "can you hear me" for ln in chat.session.visible())
        assert 1 not in chat.session.bubbles
        # Esc closes the panel (and does not open the pause menu)
        post_key(app, pygame.K_ESCAPE)
        assert not chat.is_open and app.top is scene
    finally:
        bea.close()
        app.close()
        host.stop()


def test_a_refusal_by_the_hosts_chat_budget_is_a_short_note():
    """Past the host's per-session chat budget (PROTOCOL.md §9) the client's line is refused
    with RATE_LIMITED: the chat shows a note in the UI language, nothing raises, and the lines
    the host took were relayed back."""
    from game.chat import ChatSession, SendBudget

    ns = host_args("--ai", "2=random", "--ai", "3=random")
    host = BackgroundHost(host_config(ns), _ai_provider(ns), None)
    port = host.start()
    me = RemoteTable("127.0.0.1", port, "Hana", seat=0)
    try:
        session = ChatSession(me, time.monotonic)
        session.budget = SendBudget(burst=50, every_s=0.01)  # this client's own limit out of the way
        answers = [session.send(f"line {i}") for i in range(8)]
        refused = [a for a in answers if a is not None]
        assert refused and answers[0] is None  # the host's burst is a few lines
        assert all(a == "Not so fast: wait a moment before the next line" for a in refused)
        assert me.last_error == "RATE_LIMITED"
        end = time.monotonic() + 10
        while sum(1 for ln in session.history if ln.kind == "text") < answers.count(None):
            assert time.monotonic() < end, list(session.history)
            session.pull()
            time.sleep(0.01)
        assert [ln.kind for ln in session.history].count("note") == len(refused)
        # the client's own budget stops it before the host's default budget would
        from game.chat import SEND_BURST, SEND_EVERY_S
        from net.server import ServerConfig

        cfg = ServerConfig()
        assert SEND_BURST <= cfg.chat_session_burst and 1 / SEND_EVERY_S < cfg.chat_session_rate
    finally:
        me.close()
        host.stop()
