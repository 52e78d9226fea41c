"""The main menu, and what every menu-like screen shares (:class:`Screen`).

Menu screens sit on the app's screen stack (``App.screens``) above the table, if one is
running.  Each has ``buttons`` (:class:`game.widgets.Button`, the same kind the table uses, so
tests can click them by key) rebuilt for the current window size and language, and reacts to
the mouse (press and release on the same button), to touch, and to the keyboard: arrows / Tab
move the focus, Enter or Space activates, Esc goes back.

The main menu (:class:`MenuScene`) offers: Continue (when a game is running), New game, Host
and Join (only when the ``net`` package provides LAN play), Rules, Settings, Quit.
"""
from __future__ import annotations

import functools
import logging
from typing import TYPE_CHECKING, Any, Sequence

import pygame

from game import fonts
from game.i18n import _
from game.widgets import ACCENT, MUTED, TEXT, Button, draw_panel, draw_text

if TYPE_CHECKING:  # pragma: no cover
    from game.app import App

log = logging.getLogger(__name__)

FELT = (22, 92, 58)
FELT_DARK = (8, 44, 28)
FOCUS = (255, 255, 255)


@functools.lru_cache(maxsize=4)
def background(w: int, h: int) -> pygame.Surface:
    """The menus' backdrop: the table felt with a soft vignette (cached per size)."""
    surf = pygame.Surface((max(1, w), max(1, h)))
    surf.fill(FELT_DARK)
    steps = 20
    for i in range(steps):
        k = i / steps
        col = tuple(round(FELT_DARK[j] + (FELT[j] - FELT_DARK[j]) * k) for j in range(3))
        r = pygame.Rect(0, 0, round(w * (1.3 - k * 0.8)), round(h * (1.3 - k * 0.8)))
        r.center = (w // 2, h // 2)
        pygame.draw.ellipse(surf, col, r)
    return surf


class Metrics:
    """Sizes for a ``w``×``h`` window, scaled like the table's layout (1280×720 = 1.0).

    Attributes: ``w``, ``h``, ``unit``, ``margin``, ``font`` (body text px), ``small``,
    ``title`` (heading px), ``button_h``, ``gap``.
    """

    def __init__(self, w: int, h: int) -> None:
        self.w, self.h = w, h
        self.unit = u = min(w / 1280, h / 720)
        self.margin = max(6, round(12 * u))
        self.font = max(14, round(22 * u))
        self.small = max(14, round(17 * u))
        self.title = max(26, round(54 * u))
        self.button_h = max(40, round(50 * u))
        self.gap = max(6, round(12 * u))


class Screen:
    """Base of the menu screens and overlays (see the module docstring).

    ``app`` is the :class:`game.app.App`.  Subclasses implement :meth:`build` (buttons for the
    current size) and :meth:`on_button`, and usually :meth:`draw_content`.  ``opaque`` screens
    cover the whole window; a non-opaque one (the pause overlay) is drawn over the table.

    Public state for tests: ``buttons``, ``focus`` (index into ``buttons`` or None).
    """

    opaque = True

    def __init__(self, app: "App") -> None:
        self.app = app
        self.buttons: list[Button] = []
        self.focus: int | None = None
        self._pressed: Button | None = None
        self._dirty = True
        w, h = app.window.get_size()
        self.metrics = Metrics(w, h)

    # -- geometry ---------------------------------------------------------------------------------
    @property
    def size(self) -> tuple[int, int]:
        """Window size this screen is laid out for."""
        return (self.metrics.w, self.metrics.h)

    def resize(self, w: int, h: int) -> None:
        """Lay the screen out again for a ``w``×``h`` window."""
        self.metrics = Metrics(w, h)
        self.invalidate()

    def invalidate(self) -> None:
        """Ask for a redraw (and a rebuild of the buttons) at the next frame."""
        self._dirty = True

    def build(self) -> list[Button]:
        """The buttons for the current size and language (subclasses)."""
        return []

    def column(self, items: Sequence[tuple[str, str, str]], top: int, width: int | None = None) -> list[Button]:
        """Buttons ``(key, label, style)`` stacked in a centred column starting at ``top``."""
        m = self.metrics
        width = width or min(m.w - 2 * m.margin, max(260, round(380 * m.unit)))
        out = []
        y = top
        for key, label, style in items:
            r = pygame.Rect(0, y, width, m.button_h)
            r.centerx = m.w // 2
            out.append(Button(key, r, label, style=style))
            y += m.button_h + m.gap
        return out

    # -- input ------------------------------------------------------------------------------------
    def handle_event(self, ev: Any) -> None:
        """Mouse, touch and keyboard input."""
        if ev.type == pygame.MOUSEBUTTONDOWN and ev.button == 1:
            self._pressed = next((b for b in self.buttons if b.hit(ev.pos)), None)
        elif ev.type == pygame.MOUSEBUTTONUP and ev.button == 1:
            pressed, self._pressed = self._pressed, None
            if pressed is not None and pressed.hit(ev.pos):
                self.activate(pressed)
        elif ev.type == pygame.MOUSEMOTION:
            changed = False
            for b in self.buttons:
                hov = b.rect.collidepoint(ev.pos)
                if hov != b.hover:
                    b.hover = hov
                    changed = True
            if changed:
                self.invalidate()
        elif ev.type == pygame.KEYDOWN:
            self.on_key(ev)

    def on_key(self, ev: Any) -> None:
        """Keyboard: Esc = :meth:`on_back`; arrows/Tab move the focus; Enter/Space activate."""
        if ev.key == pygame.K_ESCAPE:
            self.on_back()
            return
        enabled = [i for i, b in enumerate(self.buttons) if b.enabled]
        if not enabled:
            return
        if ev.key in (pygame.K_DOWN, pygame.K_TAB, pygame.K_RIGHT, pygame.K_UP, pygame.K_LEFT):
            back = ev.key in (pygame.K_UP, pygame.K_LEFT) or (ev.key == pygame.K_TAB and ev.mod & pygame.KMOD_SHIFT)
            if self.focus not in enabled:
                self.focus = enabled[-1] if back else enabled[0]
            else:
                k = enabled.index(self.focus) + (-1 if back else 1)
                self.focus = enabled[k % len(enabled)]
            self.invalidate()
        elif ev.key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE):
            if self.focus is not None and self.focus < len(self.buttons) and self.buttons[self.focus].enabled:
                self.activate(self.buttons[self.focus])
            else:
                primary = next((b for b in self.buttons if b.style == "primary" and b.enabled), None)
                if primary is not None:
                    self.activate(primary)

    def activate(self, button: Button) -> None:
        """A button was clicked (or chosen with the keyboard): click sound, then :meth:`on_button`."""
        try:
            self.app.audio.play("click")
        except Exception:  # pragma: no cover - sound never matters
            pass
        self.on_button(button)
        self.invalidate()

    def on_button(self, button: Button) -> None:
        """Act on ``button`` (subclasses)."""

    def on_back(self) -> None:
        """Esc: close this screen (default: pop it off the app's stack)."""
        self.app.pop_screen(self)

    def update(self) -> None:
        """Per-frame work (default none)."""

    # -- drawing -----------------------------------------------------------------------------------
    def draw(self, surf: pygame.Surface, force: bool = False) -> list[pygame.Rect]:
        """Draw when something changed (or ``force``); returns the rects to update."""
        if not (self._dirty or force):
            return []
        if surf.get_size() != self.size:
            self.metrics = Metrics(*surf.get_size())
        hover = {b.key for b in self.buttons if b.hover}
        self.buttons = self.build()
        for b in self.buttons:
            b.hover = b.key in hover
        if self.focus is not None and self.focus >= len(self.buttons):
            self.focus = None
        if self.opaque:
            surf.blit(background(*self.size), (0, 0))
        self.draw_content(surf)
        fs = self.metrics.font
        for i, b in enumerate(self.buttons):
            b.draw(surf, fs)
            if i == self.focus:
                pygame.draw.rect(surf, FOCUS, b.rect.inflate(8, 8), width=2, border_radius=max(4, b.rect.h // 4 + 2))
        self._dirty = False
        return [surf.get_rect()]

    def draw_content(self, surf: pygame.Surface) -> None:
        """Everything but the buttons (subclasses)."""

    def draw_title(self, surf: pygame.Surface, text: str, y: int | None = None) -> int:
        """A centred heading; returns the y just below it."""
        m = self.metrics
        y = m.margin * 2 if y is None else y
        r = draw_text(surf, text, round(m.title * 0.7), ACCENT, (m.w // 2, y), anchor="midtop", bold=True,
                      max_width=m.w - 2 * m.margin)
        return r.bottom + m.gap


def _hero_cards() -> list[Any]:
    try:
        from engine.cards import parse_cards

        return list(parse_cards("2S 3S SJ BJ 5H"))
    except Exception:  # pragma: no cover - the engine is always there
        return []


class MenuScene(Screen):
    """The main menu.  Keys: ``continue`` (when a game is running), ``new``, ``host`` and
    ``join`` (when LAN play is available), ``rules``, ``settings``, ``quit``."""

    def __init__(self, app: "App") -> None:
        super().__init__(app)
        self._cards: list[Any] = _hero_cards()
        self._renderer: Any = None

    def build(self) -> list[Button]:
        """The menu column, below the title."""
        m = self.metrics
        items: list[tuple[str, str, str]] = []
        running = self.app.has_session
        if running:
            items.append(("continue", _("Continue"), "primary"))
        items.append(("new", _("New game"), "normal" if running else "primary"))
        career = getattr(self.app, "career", None)
        if career is not None:
            items.append(("records", _("Records and statistics"), "normal"))
        if self.app.lan_available():
            items.append(("host", _("Host a LAN game"), "normal"))
            items.append(("join", _("Join a LAN game"), "normal"))
        items += [("rules", _("Rules"), "normal"), ("settings", _("Settings"), "normal"), ("quit", _("Quit"), "flat")]
        total = len(items) * (m.button_h + m.gap) - m.gap
        out: list[Button] = []
        card = [Button("profile", self.profile_card_rect(), "", style="flat")] if career is not None else []
        if total > m.h - m.margin - self._title_bottom():  # too tall: two columns
            half = -(-len(items) // 2)
            total = half * (m.button_h + m.gap) - m.gap
            top = min(max(self._title_bottom(), (m.h - total) // 2 + round(m.h * 0.12)), m.h - m.margin - total)
            width = min((m.w - 3 * m.margin) // 2, max(260, round(380 * m.unit)))
            for col, part in enumerate((items[:half], items[half:])):
                for b in self.column(part, top, width):
                    b.rect.x = m.w // 2 + (m.margin // 2 if col else -m.margin // 2 - width)
                    out.append(b)
            return out[:-1] + card + out[-1:]  # focus order: ..., the card, Quit
        top = max(self._title_bottom(), (m.h - total) // 2 + round(m.h * 0.12))
        top = min(top, m.h - m.margin - total)
        col = self.column(items, top)
        return col[:-1] + card + col[-1:]

    def profile_card_rect(self) -> pygame.Rect:
        """Where the current profile's card goes (top left; a tap opens the profile screen)."""
        m = self.metrics
        w = min(max(230, round(330 * m.unit)), m.w // 2 - 3 * m.margin - round(m.title * 1.2))
        line = round(m.small * 1.35)
        return pygame.Rect(m.margin, m.margin, max(180, w), max(m.button_h, line * 4 + m.margin * 2))

    def _title_bottom(self) -> int:
        m = self.metrics
        return round(m.h * 0.34)

    def on_button(self, button: Button) -> None:
        """Open what the button names."""
        key = button.key
        if key == "continue":
            self.app.resume()
        elif key == "new":
            self.app.open_new_game()
        elif key == "host":
            self.app.open_lan("host")
        elif key == "join":
            self.app.open_lan("join")
        elif key == "profile":
            self.app.open_profiles()
        elif key == "records":
            if self.app.career.current() is None:
                self.app.open_profiles()
            else:
                self.app.open_records()
        elif key == "rules":
            self.app.open_rules()
        elif key == "settings":
            self.app.open_settings()
        elif key == "quit":
            self.app.quit()

    def on_back(self) -> None:
        """Esc on the main menu: back to the running game, if any (never quits by accident)."""
        if self.app.has_session:
            self.app.resume()

    def draw(self, surf: pygame.Surface, force: bool = False) -> list[pygame.Rect]:
        """As every screen, then the profile card over its button."""
        out = super().draw(surf, force)
        card = next((b for b in self.buttons if b.key == "profile"), None)
        if out and card is not None:
            draw_profile_card(surf, card.rect, self.app, self.metrics)
        return out

    def draw_content(self, surf: pygame.Surface) -> None:
        """Title, subtitle and a fan of the top trumps."""
        m = self.metrics
        title_y = round(m.h * 0.05)
        r = draw_text(surf, _("Hong Wu"), m.title, ACCENT, (m.w // 2, title_y), anchor="midtop", bold=True,
                      max_width=m.w - 2 * m.margin)
        sub = draw_text(surf, _("Red Five — three against one"), m.font, TEXT, (m.w // 2, r.bottom + m.gap // 2),
                        anchor="midtop", max_width=m.w - 2 * m.margin)
        self._draw_cards(surf, sub.bottom + m.gap, self._title_bottom() - m.gap)
        column = [b for b in self.buttons if b.key != "profile"]
        if column:
            last = max((b.rect for b in column), key=lambda r: r.bottom)
            hint = _("Esc: menu during a game · arrows and Enter work here too")
            if last.bottom + m.gap + m.small < m.h:
                draw_text(surf, hint, m.small, MUTED, (m.w // 2, m.h - m.margin), anchor="midbottom",
                          max_width=m.w - 2 * m.margin)

    def _draw_cards(self, surf: pygame.Surface, top: int, bottom: int) -> None:
        if not self._cards or bottom - top < 30:
            return
        try:
            if self._renderer is None:
                from game.cards_render import CardRenderer

                self._renderer = CardRenderer()
            ch = bottom - top
            cw = round(ch * 0.7)
            n = len(self._cards)
            step = round(cw * 0.62)
            x0 = self.metrics.w // 2 - (step * (n - 1) + cw) // 2
            for i, c in enumerate(self._cards):
                face = self._renderer.face(c, cw, ch)
                img = pygame.Surface(face.get_size(), pygame.SRCALPHA)  # keep rotated corners clear
                img.blit(face, (0, 0))
                angle = (i - (n - 1) / 2) * -7
                rot = pygame.transform.rotozoom(img, angle, 1.0)
                cx = x0 + i * step + cw // 2
                cy = top + ch // 2 + round(abs(i - (n - 1) / 2) ** 2 * ch * 0.025)
                surf.blit(rot, rot.get_rect(center=(cx, cy)))
        except Exception as exc:  # decoration only: never break the menu
            log.debug("menu cards not drawn: %r", exc)
            self._cards = []


def draw_profile_card(surf: pygame.Surface, rect: pygame.Rect, app: Any, m: Metrics) -> None:
    """The current profile on the menu: avatar, name, title 等级, a progress bar to the next
    title, coins (README "Career"); without one, an invitation to create one."""
    from game.avatars import draw_avatar

    summary = None
    try:
        summary = app.career.summary("zh" if app.lang == "zh" else "en")
    except Exception as exc:  # the card is information: never break the menu
        log.warning("profile card: %r", exc)
    pad = m.margin
    line = round(m.small * 1.35)
    if summary is None:
        draw_text(surf, _("No profile"), m.small, ACCENT, (rect.x + pad, rect.y + pad), bold=True,
                  max_width=rect.w - 2 * pad)
        draw_text(surf, _("Tap to create one"), m.small, TEXT, (rect.x + pad, rect.y + pad + line),
                  max_width=rect.w - 2 * pad)
        return
    rad = min(rect.h // 2 - pad, line * 3 // 2)
    draw_avatar(surf, (rect.x + pad + rad, rect.y + pad + rad), rad, summary["avatar"])
    x = rect.x + pad * 2 + 2 * rad
    tw = rect.right - pad - x
    y = rect.y + pad
    draw_text(surf, summary["name"], m.small, TEXT, (x, y), bold=True, max_width=tw)
    y += line
    draw_text(surf, _("{title} · {points} points").format(title=summary["title"], points=summary["points"]),
              m.small, ACCENT, (x, y), bold=True, max_width=tw)
    y += line
    bar = pygame.Rect(x, y + 2, tw, max(6, line // 3))
    pygame.draw.rect(surf, (20, 50, 34), bar, border_radius=bar.h // 2)
    fill = bar.copy()
    fill.w = max(bar.h if summary["progress"] > 0 else 0, round(bar.w * summary["progress"]))
    if fill.w:
        pygame.draw.rect(surf, ACCENT, fill, border_radius=bar.h // 2)
    y = bar.bottom + 2
    if summary["next_title"]:
        nxt = _("next: {title} at {points}").format(title=summary["next_title"], points=summary["next_threshold"])
    else:
        nxt = _("highest title")
    coins = _("coins {coins:,}").format(coins=summary["coins"])
    draw_text(surf, f"{nxt} · {coins}", m.small, MUTED, (rect.x + pad, max(y, rect.bottom - pad - m.small)),
              max_width=rect.w - 2 * pad)


class MessageScreen(Screen):
    """A short message with one OK button (key ``ok``), e.g. "LAN play is not available"."""

    def __init__(self, app: "App", title: str, lines: Sequence[str]) -> None:
        super().__init__(app)
        self.title = title
        self.lines = list(lines)

    def build(self) -> list[Button]:
        """The OK button."""
        m = self.metrics
        return self.column([("ok", _("OK"), "primary")], m.h - m.margin * 2 - m.button_h)

    def on_button(self, button: Button) -> None:
        """OK closes the message."""
        self.app.pop_screen(self)

    def draw_content(self, surf: pygame.Surface) -> None:
        """Title and lines in a panel."""
        m = self.metrics
        y = self.draw_title(surf, self.title, m.h // 4)
        for line in self.lines:
            r = draw_text(surf, line, m.font, TEXT, (m.w // 2, y), anchor="midtop", max_width=m.w - 4 * m.margin)
            y = r.bottom + m.gap // 2


def draw_form_panel(surf: pygame.Surface, rect: pygame.Rect) -> None:
    """The translucent box the form screens (new game, settings) sit in."""
    draw_panel(surf, rect, color=(6, 30, 18, 200), radius=14)


def label_font(metrics: Metrics, text: str, width: int) -> int:
    """Font size for a form label that must fit ``width``."""
    return fonts.fit_size(text, metrics.font, width, bold=True)


class Choice:
    """One control of a form row: a button ``key`` showing ``label``; ``selected`` marks the
    current value; ``weight`` its share of the row's width.  The default ``style``
    ``"choice"`` draws the selected value filled and the others flat; any button style
    (``normal``, ``flat``...) is used as given."""

    def __init__(self, key: str, label: str, selected: bool = False, *, style: str = "choice",
                 enabled: bool = True, weight: float = 1.0) -> None:
        self.key, self.label, self.selected = key, label, selected
        self.style, self.enabled, self.weight = style, enabled, weight


class FormScreen(Screen):
    """A titled form: rows of ``label: [choice] [choice] ...`` in a panel, and a footer row of
    buttons.  Subclasses give :meth:`title_text`, :meth:`rows` (``(label, [Choice, ...])``),
    :meth:`footer` (``[(key, label, style), ...]``) and :meth:`note` (a line under the rows;
    lines separated by ``"\\n"`` are drawn one under the other, and the rows make room)."""

    def title_text(self) -> str:
        """The heading."""
        return ""

    def rows(self) -> list[tuple[str, list[Choice]]]:
        """The form rows."""
        return []

    def footer(self) -> list[tuple[str, str, str]]:
        """The buttons under the form."""
        return [("back", _("Back"), "flat")]

    def note(self) -> str:
        """A muted line under the rows ("" for none; ``"\\n"`` separates lines)."""
        return ""

    def _slots(self, rows: list[tuple[str, list[Choice]]], avail: int) -> list[tuple[int, int, int]]:
        """Where each row goes: ``(line, column, columns it spans of 2)``, or one column of
        lines when it fits in ``avail`` px.  With two columns the rows whose buttons need more
        than a half panel span both, after the others."""
        m = self.metrics
        n = len(rows)
        if (n + 1) * (m.button_h + m.gap) <= avail:
            return [(i, 0, 1) for i in range(n)]
        col_w = (m.w - 2 * m.margin - m.margin * 2) // 2  # as laid out by build()
        half = col_w - m.margin * 4 - round(col_w * 0.3)

        def need(choices: list[Choice]) -> int:
            return sum(fonts.get_font(m.font, bold=True).size(c.label)[0] + 14 for c in choices)

        wide = [i for i, (_l, ch) in enumerate(rows) if need(ch) + max(4, m.gap // 2) * (len(ch) - 1) > half]
        narrow = [i for i in range(n) if i not in wide]
        per_col = -(-len(narrow) // 2)
        out: dict[int, tuple[int, int, int]] = {}
        for k, i in enumerate(narrow):
            out[i] = (k % per_col, k // per_col, 1)
        for k, i in enumerate(wide):
            out[i] = (per_col + k, 0, 2)
        return [out[i] for i in range(n)]

    def _geometry(self, rows: list[tuple[str, list[Choice]]]) -> tuple[pygame.Rect, int, int]:
        """Panel rect, title height and row height; rows shrink to fit short windows, and go
        in two columns when one is too tall (``self._slot`` tells where each row goes)."""
        m = self.metrics
        title_h = round(m.title * 0.7) + m.gap * 3
        note_lines = max(1, len(self.note().split("\n")))
        note_h = note_lines * (m.small + m.gap // 2) + m.gap * 2 - m.gap // 2
        avail = m.h - 2 * m.margin - title_h - note_h - m.margin * 3
        row_h = m.button_h
        # the lines of rows + the footer row, each followed by a gap
        self._slot = self._slots(rows, avail)
        lines = max((ln for ln, _c, _s in self._slot), default=-1) + 1
        if (lines + 1) * (row_h + m.gap) > avail:
            row_h = max(40, avail // (lines + 1) - m.gap)
        ph = title_h + (lines + 1) * (row_h + m.gap) + note_h + m.margin * 2
        pw = min(m.w - 2 * m.margin, max(560, round(980 * m.unit)))
        if any(c for _l, c, _s in self._slot):
            pw = m.w - 2 * m.margin
        panel = pygame.Rect(0, 0, pw, min(ph, m.h - 2 * m.margin))
        panel.center = (m.w // 2, m.h // 2)
        return panel, title_h, row_h

    def build(self) -> list[Button]:
        """Lay out the rows and the footer inside the panel."""
        m = self.metrics
        rows = self.rows()
        panel, title_h, row_h = self._geometry(rows)
        self._panel = panel
        cols = 2 if any(c or s > 1 for _l, c, s in self._slot) else 1
        col_w = (panel.w - m.margin * 2 * (cols - 1)) // cols
        label_w = round(col_w * 0.3)
        top = panel.y + title_h
        bottom = top
        out: list[Button] = []
        self._labels: list[tuple[str, pygame.Rect]] = []
        for (label, choices), (line, col, span) in zip(rows, self._slot):
            col_x = panel.x + (col_w + m.margin * 2) * col
            y = top + line * (row_h + m.gap)
            x0 = col_x + m.margin * 2 + label_w
            area_w = (panel.right if span > 1 else col_x + col_w) - m.margin * 2 - x0
            self._labels.append((label, pygame.Rect(col_x + m.margin * 2, y, label_w - m.margin, row_h)))
            total_w = sum(c.weight for c in choices) or 1.0
            gap = max(4, m.gap // 2)
            free = area_w - gap * (len(choices) - 1)
            need = [fonts.get_font(m.font, bold=True).size(c.label)[0] + 14 for c in choices]
            share = [round(free * c.weight / total_w) for c in choices]
            if any(n > sh for n, sh in zip(need, share)) and sum(need) <= free:  # room by need
                share = [n + round((free - sum(need)) * c.weight / total_w) for n, c in zip(need, choices)]
            x = x0
            for c, w in zip(choices, share):
                style = c.style if c.style != "choice" else ("normal" if c.selected else "flat")
                out.append(Button(c.key, pygame.Rect(x, y, w, row_h), c.label, enabled=c.enabled,
                                  style=style, selected=c.selected))
                x += w + gap
            bottom = max(bottom, y + row_h + m.gap)
        y = self._note_y = bottom
        note_lines = max(1, len(self.note().split("\n")))
        foot = self.footer()
        if foot:
            bw = min(round(260 * max(m.unit, 0.7)), (panel.w - m.margin * 4) // len(foot) - m.gap)
            fy = min(panel.bottom - m.margin - row_h,
                     y + note_lines * (m.small + m.gap // 2) - m.gap // 2 + m.gap * 2)
            total = len(foot) * bw + (len(foot) - 1) * m.gap * 2
            x = panel.centerx - total // 2
            for key, label, style in foot:
                out.append(Button(key, pygame.Rect(x, fy, bw, row_h), label, style=style))
                x += bw + m.gap * 2
        return out

    def draw_content(self, surf: pygame.Surface) -> None:
        """Panel, title, row labels and the note."""
        m = self.metrics
        panel = getattr(self, "_panel", None)
        if panel is None:
            return
        draw_form_panel(surf, panel)
        draw_text(surf, self.title_text(), round(m.title * 0.7), ACCENT, (panel.centerx, panel.y + m.gap * 3 // 2),
                  anchor="midtop", bold=True, max_width=panel.w - 2 * m.margin)
        for label, r in self._labels:
            draw_text(surf, label, m.font, TEXT, (r.x, r.centery), anchor="midleft", bold=True, max_width=r.w)
        y = self._note_y + m.gap // 2
        for line in self.note().split("\n"):
            if line:
                draw_text(surf, line, m.small, MUTED, (panel.centerx, y), anchor="midtop",
                          max_width=panel.w - 4 * m.margin)
            y += m.small + m.gap // 2
