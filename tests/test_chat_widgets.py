"""The chat's text field (real pygame TEXTINPUT / TEXTEDITING / KEYDOWN events through the
event queue), the chat model (phrases, emotes, mute, the send budget, seat changes) and the
chat panel at the table over a real local game (sizes at 800×480 and 1920×1080)."""
from __future__ import annotations

import pytest

pygame = pytest.importorskip("pygame")

from game import chat as chat_mod, fonts, i18n  # noqa: E402
from game.chat import ChatSession, SendBudget, classify, seat_changes, wire_text  # noqa: E402
from game.chat_panel import ChatPanel, bubble_rects, wrap  # noqa: E402
from game.textfield import TextField  # noqa: E402


@pytest.fixture(autouse=True)
def _display():
    pygame.display.init()
    pygame.font.init()
    pygame.display.set_mode((320, 120))
    yield
    i18n.set_language("en")


def feed(field: TextField, *events) -> list:
    """Post ``events`` to pygame's queue, take them back and give each to ``field``."""
    pygame.event.clear()
    for ev in events:
        pygame.event.post(ev)
    return [field.handle_event(ev) for ev in pygame.event.get() if ev.type in
            (pygame.TEXTINPUT, pygame.TEXTEDITING, pygame.KEYDOWN, pygame.KEYUP)]


def keydown(k: int, mod: int = 0):
    return pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode="", scancode=0)


def text(t: str):
    return pygame.event.Event(pygame.TEXTINPUT, text=t)


def editing(t: str, start: int):
    return pygame.event.Event(pygame.TEXTEDITING, text=t, start=start, length=len(t))


def test_typing_and_editing_keys_move_and_delete_at_the_caret():
    f = TextField(200)
    assert feed(f, text("a")) == [None] and f.text == ""  # not focused: nothing taken
    f.focus()
    assert feed(f, text("hello"), text(" 世界")) == ["edit", "edit"]
    assert f.text == "hello 世界" and f.caret == 8
    feed(f, keydown(pygame.K_HOME), keydown(pygame.K_RIGHT), keydown(pygame.K_BACKSPACE))
    assert f.text == "ello 世界" and f.caret == 0
    feed(f, keydown(pygame.K_END), keydown(pygame.K_LEFT), keydown(pygame.K_DELETE))
    assert f.text == "ello 世" and f.caret == 6
    feed(f, keydown(pygame.K_LEFT), keydown(pygame.K_LEFT), text("X"))
    assert f.text == "elloX 世" and f.caret == 5
    assert feed(f, keydown(pygame.K_RETURN)) == ["submit"]
    assert feed(f, keydown(pygame.K_ESCAPE)) == ["cancel"]
    assert feed(f, keydown(pygame.K_h)) == ["key"]  # swallowed: no shortcut sees it
    f.blur()
    assert feed(f, keydown(pygame.K_h)) == [None]


def test_ime_composition_is_shown_then_committed_and_owns_the_editing_keys():
    f = TextField(200)
    f.focus()
    feed(f, text("我"))
    feed(f, editing("ni", 2))
    assert f.composition == "ni" and f.text == "我"
    # while composing, Backspace and Enter belong to the input method
    assert feed(f, keydown(pygame.K_BACKSPACE), keydown(pygame.K_RETURN)) == ["key", "key"]
    assert f.text == "我" and f.composition == "ni"
    surf = pygame.Surface((300, 44))
    surf.fill((0, 0, 0))
    f.draw(surf, pygame.Rect(0, 0, 300, 44), 18)
    # the composition is drawn underlined in its own colour (30, 60, 160)
    assert any(tuple(surf.get_at((x, y)))[:3] == (30, 60, 160) for x in range(300) for y in range(30, 44))
    feed(f, editing("", 0), text("你"))
    assert f.text == "我你" and f.composition == "" and f.caret == 2


def test_length_is_limited_for_typed_and_pasted_text_and_controls_are_dropped():
    f = TextField(5)
    f.focus()
    feed(f, text("abc"), text("defg"))
    assert f.text == "abcde"
    feed(f, keydown(pygame.K_BACKSPACE), text("\x07z\n"))
    assert f.text == "abcdz"
    f.clear()
    assert f.insert("a\tb\x00c") and f.text == "a bc"
    with pytest.raises(ValueError):
        TextField(0)


def test_phrases_and_emotes_round_trip_in_either_language():
    i18n.set_language("zh")
    assert wire_text("phrase", "hurry") == "快点吧！"
    i18n.set_language("en")
    assert wire_text("phrase", "hurry") == "Hurry up!"
    for t in ("快点吧！", "快点吧", "hurry up", "Hurry up!"):
        assert classify(t) == ("phrase", "hurry"), t
    assert classify(":heart:") == ("emote", "heart") and wire_text("emote", "heart") == ":heart:"
    assert classify(":nope:") == ("text", "") and classify("hurry up please") == ("text", "")
    with pytest.raises(KeyError):
        wire_text("emote", "nope")
    with pytest.raises(ValueError):
        wire_text("sticker", "x")


def test_send_budget_holds_a_burst_then_one_line_per_interval():
    b = SendBudget(burst=3, every_s=1.5)
    assert [b.take(0.0) for _ in range(4)] == [True, True, True, False]
    assert not b.take(1.0) and b.take(1.6) and not b.take(1.7)


class FakeTable:
    """What ChatSession needs of a RemoteTable: chat, take_chats, table, seat, name."""

    def __init__(self, refuse: str | None = None) -> None:
        self.seat, self.name, self.sent, self.inbox, self.refuse = 0, "Me", [], [], refuse
        self.chat_in_notices = True
        self.table = {"seats": [{"kind": "human", "name": "Me"}, {"kind": "human", "name": "Bea"},
                                {"kind": "ai", "name": "basic AI"}, {"kind": "empty"}]}

    def chat(self, text):
        if self.refuse:
            return self.refuse
        self.sent.append(text)
        self.inbox.append({"seat": self.seat, "name": self.name, "text": text})
        return None

    def take_chats(self):
        out, self.inbox = self.inbox, []
        return out


def test_session_history_mute_bubbles_limits_and_refusals():
    now = [100.0]
    t = FakeTable()
    s = ChatSession(t, lambda: now[0])
    assert t.chat_in_notices is False
    t.inbox.append({"seat": 1, "name": "Bea", "text": "hi"})
    t.inbox.append({"seat": None, "name": "Obs", "text": ":star:"})
    assert [ln.text for ln in s.pull()] == ["hi", ":star:"]
    assert set(s.bubbles) == {1} and s.unread == 2 and s.players() == ["Bea", "Obs"]
    assert s.send("  yes   please ") is None and t.sent == ["yes please"]
    s.pull()
    assert s.history[-1].mine and s.bubbles[0].line.text == "yes please"
    assert s.toggle_mute("Bea") and 1 not in s.bubbles
    t.inbox.append({"seat": 1, "name": "Bea", "text": "muted?"})
    assert s.pull() == [] and 1 not in s.bubbles
    assert "muted?" not in [ln.text for ln in s.visible()] and "hi" not in [ln.text for ln in s.visible()]
    assert not s.toggle_mute("Bea") and "hi" in [ln.text for ln in s.visible()]
    # the client's own budget: a burst, then a note instead of a send
    s.send("2")
    s.send("3")
    assert s.send("4") is not None and t.sent[-1] == "3" and s.history[-1].kind == "note"
    now[0] += 10
    assert s.send("x" * 500) is None and len(t.sent[-1]) == chat_mod.CHAT_MAX
    # a refusal from the host is a note, never an exception
    t.refuse = "RATE_LIMITED: slow down"
    now[0] += 10
    assert "slow down" in s.send("again") and s.history[-1].kind == "note"
    # bubbles expire after BUBBLE_S, fading over the last second
    assert [ln.text for ln in s.pull()][:2] == ["2", "3"]
    b = s.bubbles[0]
    assert b.alpha(b.until - 2) == 255 and 0 < b.alpha(b.until - 0.5) < 255 and b.alpha(b.until) == 0
    assert s.expire(b.until + 0.1) and not s.bubbles
    # seat changes become system lines
    t.table = {"seats": [{"kind": "human", "name": "Me"}, {"kind": "empty"},
                         {"kind": "human", "name": "Cai"}, {"kind": "empty"}]}
    added = s.pull()
    assert [ln.kind for ln in added] == ["system", "system"]
    assert [ln.text for ln in added] == ["Bea left the table", "Cai sat down"]


def test_seat_changes_reports_drops_and_returns():
    a = {"seats": [{"kind": "human", "name": "Ann", "connected": True}]}
    b = {"seats": [{"kind": "human", "name": "Ann", "connected": False}]}
    assert seat_changes(a, b) == ["Ann lost the connection"]
    assert seat_changes(b, a) == ["Ann is back"]
    assert seat_changes({}, a) == [] and seat_changes(a, a) == []


def test_wrap_breaks_chinese_between_characters_and_english_at_spaces():
    font_px = 16
    lines = wrap("我们一起打牌吧" * 6, font_px, 120)
    assert len(lines) > 1 and all(fonts.get_font(font_px).size(ln)[0] <= 120 for ln in lines)
    assert wrap("one two three four five six", font_px, 90)[0].strip() in ("one two", "one", "one two three")


@pytest.mark.parametrize("seats", [3, 4, 5])
@pytest.mark.parametrize("size", [(800, 480), (1920, 1080)])
def test_bubbles_sit_beside_their_plates_for_any_seat_count(seats, size):
    from game.chat import Bubble, ChatLine
    from game.layout import Layout

    lay = Layout(*size, seats=seats)
    long = "Thanks, partner! 谢谢队友，这一轮打得真好"
    bubbles = {s: Bubble(s, ChatLine("emote" if s % 2 else "text", long, "x", s, "heart"), 10.0)
               for s in range(seats)}
    rects = bubble_rects(lay, lambda s: s, bubbles, lay.small_font)
    assert set(rects) == set(range(seats))
    for s, r in rects.items():
        assert lay.screen.contains(r)
        assert not any(r.colliderect(p) for p in lay.plates.values()), (s, r)
        assert not any(r.colliderect(o) for t, o in rects.items() if t != s), (s, r)
        near = lay.plates[s].inflate(8 * lay.margin + lay.small_font * 6, 8 * lay.margin + lay.small_font * 6)
        assert near.colliderect(r), (s, r, lay.plates[s])  # at the speaker's plate
    # under an open panel a bubble moves beside it
    panel = pygame.Rect(lay.w - 300, 0, 300, lay.h)
    for r in bubble_rects(lay, lambda s: s, bubbles, lay.small_font, panel).values():
        assert not r.colliderect(panel)


def test_ctrl_v_pastes_the_clipboard_cut_to_the_limit():
    import pygame.scrap as scrap

    try:
        scrap.put_text("粘贴 pasted\nline")
    except Exception:
        pytest.skip("no clipboard on this SDL driver")
    f = TextField(12)
    f.focus()
    feed(f, text("> "), keydown(pygame.K_v, pygame.KMOD_LCTRL))
    assert f.text == "> 粘贴 pasted " and f.caret == 12  # the line break became a space, then the limit


def test_panel_taps_send_phrases_and_emotes_and_keep_presses_away_from_the_table():
    size = (800, 480)
    t = FakeTable()
    panel = ChatPanel(ChatSession(t, lambda: 0.0), lambda: size)
    key = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_t, mod=0, unicode="t", scancode=0)
    assert panel.handle_event(key) and panel.is_open and panel.field.focused
    assert panel.handle_event(pygame.event.Event(pygame.TEXTINPUT, text="t")) and panel.field.text == ""

    def tap(pos):
        x, y = (pos[0] + 0.5) / size[0], (pos[1] + 0.5) / size[1]
        took = []
        for etype in (pygame.FINGERDOWN, pygame.FINGERUP):
            took.append(panel.handle_event(pygame.event.Event(etype, touch_id=1, finger_id=0, x=x, y=y,
                                                              dx=0.0, dy=0.0, pressure=1.0)))
        # SDL's mouse echo of the same touch: taken, not acted on twice
        for etype in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
            took.append(panel.handle_event(pygame.event.Event(etype, pos=pos, button=1, touch=True)))
        return took

    phrase = next(b for b in panel.buttons if b.key == "chat:phrase:sorry")
    assert tap(phrase.rect.center) == [True] * 4 and t.sent == ["Sorry!"]
    emote = next(b for b in panel.buttons if b.key == "chat:emote:wow")
    assert all(tap(emote.rect.center)) and t.sent == ["Sorry!", ":wow:"]
    assert tap((10, 240)) == [False] * 4  # outside the panel: the table's
    # every key goes to the open field, Esc closes
    for k in (pygame.K_h, pygame.K_a, pygame.K_SPACE, pygame.K_1):
        assert panel.handle_event(pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode="", scancode=0))
    assert panel.handle_event(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode="",
                                                 scancode=0))
    assert not panel.is_open and not panel.field.focused
    assert not panel.handle_event(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_h, mod=0, unicode="h",
                                                     scancode=0))


def test_history_scrolls_back_and_forward_within_its_lines():
    size = (800, 480)
    t = FakeTable()
    t.inbox = [{"seat": 1, "name": "Bea", "text": f"line {i}"} for i in range(60)]
    session = ChatSession(t, lambda: 0.0)
    panel = ChatPanel(session, lambda: size)
    panel.open()
    panel.update()
    assert len(session.visible()) == 60 and session.unread == 0  # read while open
    surf = pygame.Surface(size)
    panel.draw(surf)
    assert panel.scroll == 0
    panel.click("chat:up")
    panel.draw(surf)
    assert panel.scroll == 3
    for _ in range(40):
        panel.click("chat:up")
        panel.draw(surf)  # clamped to the lines that do not fit
    assert 0 < panel.scroll < 60
    panel.scroll_by(-1000)
    assert panel.scroll == 0
