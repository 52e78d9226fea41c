"""The chat panel of a LAN table (lobby and table), its speech bubbles and emote drawings.

:class:`ChatPanel` is a collapsible box at the right of the window over a
:class:`game.chat.ChatSession`: a title row (scroll up / down, close), the history (the newest
lines at the bottom; wheel or the arrows scroll), the players (tap a name to mute or unmute
them), the quick phrases (快捷语), the emotes and the text field (:class:`game.textfield.
TextField`) with a Send button.  It opens with the toolbar's Chat button or the T key and
closes with Esc or its close button; while it is open every key goes to the field, never to
the table's shortcuts, and presses inside it never reach what is under it.

Sizes follow the window (:class:`ChatSizes`): text at least 14 px, buttons at least 40 px at
800×480 (tests/test_min_sizes.py).  :func:`bubble_rects` places one bubble per speaking seat
beside its name plate (any seat count of :class:`game.layout.Layout`), and :func:`draw_emote`
draws an emote with pygame shapes (no emoji font is bundled).
"""
from __future__ import annotations

import time
from typing import Any, Callable, Sequence

import pygame

from game import fonts
from game.chat import CHAT_MAX, EMOTES, PHRASES, Bubble, ChatLine, ChatSession
from game.i18n import _
from game.input import PointerInput
from game.textfield import TextField
from game.widgets import ACCENT, ERROR, MUTED, TEXT, Button, RowItem, button_width, draw_panel, fit_row

KEY_OPEN = pygame.K_t
"""The key that opens the panel (when no text field has the keyboard)."""


class ChatSizes:
    """Pixel sizes for a ``w``×``h`` window (1280×720 = 1.0): ``font``, ``small`` (≥ 14),
    ``button_h`` (≥ 40), ``margin``, ``gap``, ``width`` (the panel's)."""

    def __init__(self, w: int, h: int) -> None:
        u = min(w / 1280, h / 720)
        self.font = max(15, round(18 * u))
        self.small = max(14, round(16 * u))
        self.button_h = max(40, round(44 * u))
        self.margin = max(5, round(8 * u))
        self.gap = max(4, round(6 * u))
        self.width = min(w, max(340, round(460 * u)))


def _arrow_icon(size: int, up: bool, color=TEXT) -> pygame.Surface:
    s = pygame.Surface((size, size), pygame.SRCALPHA)
    pts = [(size * 0.15, size * 0.7), (size * 0.85, size * 0.7), (size * 0.5, size * 0.25)] if up else \
        [(size * 0.15, size * 0.3), (size * 0.85, size * 0.3), (size * 0.5, size * 0.75)]
    pygame.draw.polygon(s, color, pts)
    return s


def _close_icon(size: int, color=TEXT) -> pygame.Surface:
    s = pygame.Surface((size, size), pygame.SRCALPHA)
    w = max(2, size // 7)
    pygame.draw.line(s, color, (size * 0.2, size * 0.2), (size * 0.8, size * 0.8), w)
    pygame.draw.line(s, color, (size * 0.2, size * 0.8), (size * 0.8, size * 0.2), w)
    return s


def draw_emote(surf: pygame.Surface, key: str, rect: pygame.Rect, alpha: int = 255) -> None:
    """Draw emote ``key`` (:data:`game.chat.EMOTES`) filling square-ish ``rect`` with
    pygame shapes; an unknown key draws a question mark box."""
    size = max(8, min(rect.w, rect.h))
    s = size * 4  # drawn large, then scaled down smoothly
    img = pygame.Surface((s, s), pygame.SRCALPHA)
    yellow, dark = (255, 214, 70), (60, 40, 20)

    def P(x: float, y: float) -> tuple[int, int]:
        return (round(x * s), round(y * s))

    line = max(3, s // 16)
    if key in ("smile", "sad", "wow"):
        pygame.draw.circle(img, yellow, P(0.5, 0.5), round(s * 0.46))
        pygame.draw.circle(img, dark, P(0.5, 0.5), round(s * 0.46), line)
        for x in (0.35, 0.65):
            pygame.draw.circle(img, dark, P(x, 0.4), round(s * 0.06))
        if key == "smile":
            pygame.draw.arc(img, dark, pygame.Rect(P(0.27, 0.35), P(0.46, 0.38)), 3.5, 5.9, line)
        elif key == "sad":
            pygame.draw.arc(img, dark, pygame.Rect(P(0.3, 0.62), P(0.4, 0.3)), 0.4, 2.74, line)
            pygame.draw.ellipse(img, (90, 160, 255), pygame.Rect(P(0.6, 0.47), P(0.09, 0.14)))
        else:
            pygame.draw.ellipse(img, dark, pygame.Rect(P(0.41, 0.58), P(0.18, 0.22)))
    elif key == "heart":
        red = (230, 50, 70)
        pygame.draw.circle(img, red, P(0.32, 0.36), round(s * 0.22))
        pygame.draw.circle(img, red, P(0.68, 0.36), round(s * 0.22))
        pygame.draw.polygon(img, red, [P(0.11, 0.44), P(0.89, 0.44), P(0.5, 0.9)])
    elif key == "star":
        import math

        pts = []
        for i in range(10):
            r = 0.47 if i % 2 == 0 else 0.2
            a = -math.pi / 2 + i * math.pi / 5
            pts.append(P(0.5 + r * math.cos(a), 0.53 + r * math.sin(a)))
        pygame.draw.polygon(img, yellow, pts)
        pygame.draw.polygon(img, dark, pts, line)
    else:
        pygame.draw.rect(img, (200, 200, 200), img.get_rect(), border_radius=s // 5)
    small = pygame.transform.smoothscale(img, (size, size))
    if alpha < 255:
        small.set_alpha(alpha)
    surf.blit(small, small.get_rect(center=rect.center))


def wrap(text: str, size: int, width: int, bold: bool = False) -> list[str]:
    """``text`` cut into lines no wider than ``width`` px at ``size`` px (breaking at a space
    when there is one, else between characters: Chinese has no spaces)."""
    font = fonts.get_font(size, bold)
    out: list[str] = []
    line = ""
    for ch in text:
        if font.size(line + ch)[0] <= width or not line:
            line += ch
            continue
        cut = line.rfind(" ")
        if cut > 0 and ch != " ":
            out.append(line[:cut])
            line = line[cut + 1:] + ch
        else:
            out.append(line)
            line = ch.lstrip()
    if line:
        out.append(line)
    return out or [""]


class ChatPanel:
    """The panel over a :class:`ChatSession` (see the module docstring).

    ``size_fn`` returns the window size; ``area_fn`` (optional) the rect the panel may use
    (default: the window).  Public state for tests: ``is_open``, ``field``
    (:class:`TextField`), ``buttons`` (keys ``chat:close``, ``chat:up``, ``chat:down``,
    ``chat:send``, ``chat:phrase:<key>``, ``chat:emote:<key>``, ``chat:mute:<i>`` with the
    name in ``value``), ``rect``, ``scroll`` (lines scrolled back), ``version`` (grows with
    every change to draw).
    """

    def __init__(self, session: ChatSession, size_fn: Callable[[], tuple[int, int]],
                 area_fn: Callable[[], pygame.Rect] | None = None) -> None:
        self.session = session
        self.size_fn = size_fn
        self.area_fn = area_fn
        self.is_open = False
        self.field = TextField(CHAT_MAX, "")
        self.buttons: list[Button] = []
        self.rect = pygame.Rect(0, 0, 0, 0)
        self.scroll = 0
        self._version = 0
        self._pressed: Button | None = None
        self._swallow: str | None = None
        self.pointer = PointerInput(size_fn, time.monotonic)
        self._history_rect = pygame.Rect(0, 0, 0, 0)
        self._field_rect = pygame.Rect(0, 0, 0, 0)
        self._players_y = 0
        self._sizes = ChatSizes(*size_fn())
        self._wrapped: dict[tuple, list] = {}  # (line, width, px, language) -> rows

    @property
    def version(self) -> int:
        """Changes to draw: the panel's own plus the session's."""
        return self._version + self.session.version

    def _changed(self) -> None:
        self._version += 1

    # -- opening --------------------------------------------------------------------------------
    def open(self) -> None:
        """Show the panel, the field taking the keyboard; unread lines count as read."""
        if not self.is_open:
            self.is_open = True
            self.scroll = 0
            self.layout()
            self.field.focus()
        self.session.unread = 0
        self._changed()

    def close(self) -> None:
        """Hide the panel (the typed text stays for next time)."""
        if self.is_open:
            self.is_open = False
            self.field.blur()
            self._changed()

    def toggle(self) -> bool:
        """Open or close; returns True when now open."""
        if self.is_open:
            self.close()
        else:
            self.open()
        return self.is_open

    # -- layout -----------------------------------------------------------------------------------
    def layout(self) -> None:
        """Place the panel and its buttons for the current window size and language."""
        w, h = self.size_fn()
        z = self._sizes = ChatSizes(w, h)
        area = self.area_fn() if self.area_fn is not None else pygame.Rect(0, 0, w, h)
        r = pygame.Rect(0, 0, min(z.width, area.w), area.h)
        r.topright = area.topright
        self.rect = r
        m, g, bh = z.margin, z.gap, z.button_h
        inner = r.inflate(-2 * m, -2 * m)
        out: list[Button] = []
        # title row: up, down, close on the right
        x = inner.right
        for key, ic in (("chat:close", _close_icon(round(bh * 0.6))),
                        ("chat:down", _arrow_icon(round(bh * 0.6), False)),
                        ("chat:up", _arrow_icon(round(bh * 0.6), True))):
            x -= bh
            out.append(Button(key, pygame.Rect(x, inner.y, bh, bh), "", style="flat", icon=ic))
            x -= g
        self._title_rect = pygame.Rect(inner.x, inner.y, x - inner.x, bh)
        # bottom up: the field row, emotes, phrases (two rows), players
        y = inner.bottom - bh
        send_w = max(bh * 2, fonts.get_font(z.font, True).size(_("Send"))[0] + 24)
        self._field_rect = pygame.Rect(inner.x, y, inner.w - send_w - g, bh)
        out.append(Button("chat:send", pygame.Rect(self._field_rect.right + g, y, send_w, bh), _("Send"),
                          style="primary", font_size=z.font))
        y -= bh + g
        ew = (inner.w - g * (len(EMOTES) - 1)) // len(EMOTES)
        for i, (key, _name) in enumerate(EMOTES):
            out.append(Button(f"chat:emote:{key}", pygame.Rect(inner.x + i * (ew + g), y, ew, bh), "",
                              style="flat", value=key))
        cols = 3  # three phrases a row when their labels fit at 14 px, else two
        need = max(sum(button_width(_(msg), 14, pad=14) for _k, msg in PHRASES[i:i + 3]) + 2 * g
                   for i in range(0, len(PHRASES), 3))
        if need > inner.w:
            cols = 2
        rows = [PHRASES[i:i + cols] for i in range(0, len(PHRASES), cols)]
        for row in reversed(rows):
            y -= bh + g
            size, placed = fit_row([RowItem(f"p{i}", _(msg)) for i, (_k, msg) in enumerate(row)],
                                   pygame.Rect(inner.x, y, inner.w, bh), z.small, 14, g)
            for (key, msg), (rect, label, _isz) in zip(row, placed):
                out.append(Button(f"chat:phrase:{key}", rect, label, style="normal", value=key, font_size=size))
        y -= bh + g
        names = self.session.players()
        self._players_y = y
        if names:
            label_w = fonts.get_font(z.small).size(_("Mute:"))[0] + g
            items = [RowItem(f"m{i}", (_("{name} (muted)").format(name=n) if n in self.session.muted else n))
                     for i, n in enumerate(names[:4])]
            room = inner.w - label_w
            area_row = pygame.Rect(inner.x + label_w, y, min(room, len(items) * max(room // 3, bh * 3)), bh)
            size, placed = fit_row(items, area_row, z.small, 14, g)
            for i, (n, (rect, label, _isz)) in enumerate(zip(names[:4], placed)):
                out.append(Button(f"chat:mute:{i}", rect, label, style="flat", value=n,
                                  selected=n in self.session.muted, font_size=size))
        self._history_rect = pygame.Rect(inner.x, inner.y + bh + g, inner.w, max(0, y - g - (inner.y + bh + g)))
        self.buttons = out

    # -- input ----------------------------------------------------------------------------------------
    def handle_event(self, ev: Any) -> bool:
        """Handle ``ev`` if it is the panel's; True when it was (the scene must not see it)."""
        if ev.type == pygame.KEYDOWN and not self.is_open:
            if ev.key == KEY_OPEN and not (getattr(ev, "mod", 0) & (pygame.KMOD_CTRL | pygame.KMOD_ALT)):
                self._swallow = "t"  # the TEXTINPUT of this very key press follows
                self.open()
                return True
            return False
        if ev.type == pygame.TEXTINPUT and self._swallow is not None:
            swallow, self._swallow = self._swallow, None
            if str(ev.text).lower() == swallow:
                return True
        if not self.is_open:
            return False
        if ev.type in (pygame.TEXTINPUT, pygame.TEXTEDITING, pygame.KEYDOWN, pygame.KEYUP):
            if ev.type == pygame.KEYDOWN:
                self._swallow = None
            what = self.field.handle_event(ev)
            if what == "submit":
                self.send_typed()
            elif what == "cancel":
                self.close()
            elif what == "edit":
                self._changed()
            elif what is None and ev.type == pygame.KEYDOWN and ev.key == pygame.K_ESCAPE:
                self.close()
            return True
        if ev.type == pygame.MOUSEWHEEL:
            pos = pygame.mouse.get_pos()
            if self.rect.collidepoint(pos):
                self.scroll_by(int(getattr(ev, "y", 0)))
                return True
            return False
        p = self.pointer.translate(ev)
        if p is None:
            # echoes of touches (and other pointer noise) inside the panel stay here
            pos = getattr(ev, "pos", None)
            return pos is not None and self.rect.collidepoint(pos)
        kind, pos, _source = p
        inside = self.rect.collidepoint(pos)
        if kind == "down":
            self._pressed = next((b for b in self.buttons if b.hit(pos)), None) if inside else None
            if inside and self._field_rect.collidepoint(pos) and not self.field.focused:
                self.field.focus()
            return inside
        if kind == "up":
            pressed, self._pressed = self._pressed, None
            if pressed is not None and pressed.hit(pos):
                self.click(pressed.key)
                return True
            return inside or pressed is not None
        if kind == "move":
            changed = False
            for b in self.buttons:
                hov = b.rect.collidepoint(pos)
                if hov != b.hover:
                    b.hover, changed = hov, True
            if changed:
                self._changed()
            return inside
        return inside

    def click(self, key: str) -> None:
        """Act on the button ``key`` (see the class docstring)."""
        b = next((b for b in self.buttons if b.key == key), None)
        if key == "chat:close":
            self.close()
        elif key == "chat:up":
            self.scroll_by(3)
        elif key == "chat:down":
            self.scroll_by(-3)
        elif key == "chat:send":
            self.send_typed()
        elif key.startswith("chat:phrase:"):
            self.session.send_phrase(key[len("chat:phrase:"):])
            self.scroll = 0
        elif key.startswith("chat:emote:"):
            self.session.send_emote(key[len("chat:emote:"):])
            self.scroll = 0
        elif key.startswith("chat:mute:") and b is not None:
            self.session.toggle_mute(b.value)
        self.layout()
        self._changed()

    def send_typed(self) -> None:
        """Send the field's text (Enter / Send); the field empties once the host took it."""
        text = self.field.text.strip()
        if not text:
            return
        if self.session.send(text) is None:
            self.field.clear()
        self.scroll = 0
        self._changed()

    def scroll_by(self, lines: int) -> None:
        """Scroll the history back (``lines`` > 0) or forward."""
        self.scroll = max(0, min(len(self.session.history), self.scroll + lines))
        self._changed()

    def update(self) -> bool:
        """Per frame: pull new lines; True when something to draw changed (the unread count,
        the history, bubbles)."""
        before = self.version
        added = self.session.pull()
        if added and self.is_open:
            self.session.unread = 0
            self.layout()  # a new speaker may join the mute row
        return self.version != before

    # -- drawing ---------------------------------------------------------------------------------------
    def draw(self, surf: pygame.Surface) -> None:
        """Draw the open panel (nothing when closed)."""
        if not self.is_open:
            return
        if self.rect.size == (0, 0) or not self.buttons:
            self.layout()
        z = self._sizes
        draw_panel(surf, self.rect, color=(8, 30, 22, 255), border=(120, 180, 150), radius=10)
        t = self._title_rect
        fonts_size = fonts.fit_size(_("Chat"), z.font, t.w, bold=True)
        tt = fonts.render(_("Chat"), max(14, fonts_size), ACCENT, bold=True)
        surf.blit(tt, tt.get_rect(midleft=(t.x, t.centery)))
        self._draw_history(surf)
        if self.buttons and any(b.key.startswith("chat:mute:") for b in self.buttons):
            lab = fonts.render(_("Mute:"), z.small, MUTED)
            surf.blit(lab, lab.get_rect(midleft=(self.rect.x + z.margin, self._players_y + z.button_h // 2)))
        else:
            lab = fonts.render(_("No other players yet"), z.small, MUTED)
            surf.blit(lab, lab.get_rect(midleft=(self.rect.x + z.margin, self._players_y + z.button_h // 2)))
        for b in self.buttons:
            b.draw(surf, z.font)
            if b.key.startswith("chat:emote:"):
                draw_emote(surf, b.value, b.rect.inflate(-b.rect.h // 4, -b.rect.h // 4))
        self.field.placeholder = _("Type a message, Enter sends")
        self.field.draw(surf, self._field_rect, z.font)

    def _draw_history(self, surf: pygame.Surface) -> None:
        z = self._sizes
        box = self._history_rect
        if box.h <= 0:
            return
        pygame.draw.rect(surf, (4, 20, 14), box, border_radius=6)
        lines = self.session.visible()
        if not lines:
            t = fonts.render(_("No messages yet. Say hello!"), z.small, MUTED)
            surf.blit(t, t.get_rect(center=box.center))
            return
        pad = z.gap
        width = box.w - 2 * pad
        lh = fonts.get_font(z.small).get_linesize()
        rows: list[tuple[str, tuple, ChatLine, bool]] = []  # (text, colour, line, first row)
        for ln in lines:
            rows.extend(self._rows(ln, width))
        fit = max(1, (box.h - 2 * pad) // lh)
        self.scroll = min(self.scroll, max(0, len(rows) - fit))
        end = len(rows) - self.scroll
        shown = rows[max(0, end - fit):end]
        old = surf.get_clip()
        surf.set_clip(box.clip(old) if old else box)
        y = box.bottom - pad - lh * len(shown)
        for text, color, ln, first in shown:
            t = fonts.render(text, z.small, color)
            surf.blit(t, (box.x + pad, y))
            if ln.kind == "emote" and first:
                r = pygame.Rect(box.x + pad + t.get_width() + 4, y, lh, lh)
                draw_emote(surf, ln.key, r)
            y += lh
        surf.set_clip(old)

    def _rows(self, ln: ChatLine, width: int) -> list[tuple[str, tuple, ChatLine, bool]]:
        """The drawn rows of ``ln`` (wrapped once per line, width, size and language)."""
        key = (ln, width, self._sizes.small, _("Chat"))
        rows = self._wrapped.get(key)
        if rows is None:
            if len(self._wrapped) > 4 * len(self.session.history) + 16:
                self._wrapped.clear()
            rows = self._wrapped[key] = self._wrap_line(ln, width)
        return rows

    def _wrap_line(self, ln: ChatLine, width: int) -> list[tuple[str, tuple, ChatLine, bool]]:
        z = self._sizes
        if ln.kind == "system":
            color, text = MUTED, "· " + ln.text
        elif ln.kind == "note":
            color, text = ERROR, ln.text
        else:
            color = ACCENT if ln.mine else TEXT
            text = f"{ln.name}: {ln.display()}"
        return [(part, color, ln, i == 0) for i, part in enumerate(wrap(text, z.small, width - (z.small + 8
                                                                                             if ln.kind == "emote" else 0)))]


# -- bubbles -------------------------------------------------------------------------------------------
def bubble_size(line: ChatLine, size: int, max_w: int) -> tuple[int, int, list[str]]:
    """``(w, h, text lines)`` of the bubble showing ``line`` with text of ``size`` px, at most
    ``max_w`` wide and two text lines (an emote: its drawing, bigger than the text)."""
    pad = max(6, size // 2)
    if line.kind == "emote":
        e = round(size * 2.2)
        return e + 2 * pad, e + 2 * pad, []
    parts = wrap(line.display(), size, max_w - 2 * pad)
    if len(parts) > 2:
        parts = parts[:2]
        parts[1] = parts[1][:-1] + "…"
    font = fonts.get_font(size)
    w = max(font.size(p)[0] for p in parts) + 2 * pad
    return min(max_w, w), font.get_linesize() * len(parts) + 2 * pad, parts


def bubble_rects(layout: Any, pos_of: Callable[[int], int], bubbles: dict[int, Bubble], size: int,
                 avoid: pygame.Rect | None = None, obstacles: Sequence[pygame.Rect] = ()
                 ) -> dict[int, pygame.Rect]:
    """Where each seat's bubble goes: beside its name plate (``layout.plates[pos]``), inside
    the window; ``pos_of(seat)`` is the seat's screen position.

    Tried in order: toward the middle of the table, then above, below, right and left of the
    plate (and, with ``avoid``, beside that rect: the open chat panel); the first place that
    covers no name plate, none of ``obstacles`` (e.g. the table's buttons), no earlier bubble
    and not ``avoid`` wins, else the one covering least of them (the last two weigh most)."""
    out: dict[int, pygame.Rect] = {}
    screen = layout.screen
    max_w = max(120, min(round(layout.w * 0.3), 360))
    gap = layout.margin
    blocks = list(layout.plates.values()) + [pygame.Rect(o) for o in obstacles]
    for seat, b in bubbles.items():
        pos = pos_of(seat)
        plate = layout.plates.get(pos)
        if plate is None:
            continue
        w, h, _parts = bubble_size(b.line, size, max_w)
        toward = {"bottom": "above", "top": "below", "left": "right", "right": "left"}[layout.sides[pos]]
        order = [toward] + [s for s in ("above", "below", "right", "left") if s != toward]
        if avoid is not None:
            order.append("panel")  # beside the open panel, at the plate's height
        best: tuple[int, int, pygame.Rect] | None = None
        for rank, where in enumerate(order):
            r = pygame.Rect(0, 0, w, h)
            if where == "above":
                r.bottomleft = (plate.x, plate.y - gap)
            elif where == "below":
                r.topleft = (plate.x, plate.bottom + gap)
            elif where == "right":
                r.midleft = (plate.right + gap, plate.centery)
            elif where == "left":
                r.midright = (plate.x - gap, plate.centery)
            else:
                r.midright = (avoid.x - gap, plate.centery)
            r = r.clamp(screen)
            hard = list(out.values()) + ([avoid] if avoid is not None else [])
            cost = sum(_overlap(r, o) for o in blocks) + 1000 * sum(_overlap(r, o) for o in hard)
            if best is None or (cost, rank) < best[:2]:
                best = (cost, rank, r)
            if cost == 0:
                break
        assert best is not None
        r = best[2]
        hard = list(out.values()) + ([avoid] if avoid is not None else [])
        for _try in range(2 * len(hard) + 1):  # never over an earlier bubble or the panel
            hit = next((o for o in hard if o.colliderect(r)), None)
            if hit is None:
                break
            below = r.move(0, hit.bottom + gap - r.y).clamp(screen)
            above = r.move(0, hit.y - gap - r.bottom).clamp(screen)
            r = below if not below.colliderect(hit) else above
        out[seat] = r
    return out


def _overlap(a: pygame.Rect, b: pygame.Rect) -> int:
    c = a.clip(b)
    return c.w * c.h


def draw_bubble(surf: pygame.Surface, rect: pygame.Rect, bubble: Bubble, size: int, now: float) -> None:
    """Draw ``bubble`` in ``rect`` (faded by :meth:`Bubble.alpha` at ``now``)."""
    alpha = bubble.alpha(now)
    if alpha <= 0:
        return
    img = pygame.Surface(rect.size, pygame.SRCALPHA)
    pygame.draw.rect(img, (250, 248, 232, 245), img.get_rect(), border_radius=max(6, size // 2))
    pygame.draw.rect(img, (120, 100, 60), img.get_rect(), width=2, border_radius=max(6, size // 2))
    pad = max(6, size // 2)
    if bubble.line.kind == "emote":
        draw_emote(img, bubble.line.key, img.get_rect().inflate(-2 * pad, -2 * pad))
    else:
        _w, _h, parts = bubble_size(bubble.line, size, rect.w)
        lh = fonts.get_font(size).get_linesize()
        for i, part in enumerate(parts):
            t = fonts.render(part, size, (30, 30, 30))
            img.blit(t, (pad, pad + i * lh))
    if alpha < 255:
        img.set_alpha(alpha)
    surf.blit(img, rect.topleft)
