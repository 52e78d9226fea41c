"""Small hand-drawn widgets: buttons, panels and text helpers.

Widgets are plain objects with a ``rect`` (screen pixels); scenes create them from the
current :class:`game.layout.Layout` and ask :meth:`Button.hit` on mouse clicks.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pygame

from game import fonts

TEXT = (240, 240, 232)
MUTED = (178, 190, 180)
ACCENT = (250, 206, 90)
ERROR = (255, 120, 110)
PANEL = (10, 40, 26, 190)
PANEL_BORDER = (90, 140, 110)

_STYLES = {
    # (fill, border, text)
    "normal": ((48, 92, 150), (140, 180, 230), TEXT),
    "primary": ((196, 60, 44), (250, 190, 120), TEXT),
    "suit": ((246, 244, 236), (120, 120, 120), (20, 20, 20)),
    "flat": ((30, 64, 46), (90, 140, 110), TEXT),
}
_DISABLED = ((70, 80, 76), (100, 110, 104), (150, 156, 150))


@dataclass
class Button:
    """A clickable rectangle with a label.

    ``key`` identifies the button to its scene (e.g. ``"bid:75"``); ``value`` carries data
    (e.g. the engine action to submit).  ``icon`` (a surface) is drawn left of the label.
    ``style`` is one of ``normal``, ``primary``, ``suit``, ``flat``.  ``font_size``, when
    set, is the label size the button was laid out for (it overrides the size given to
    :meth:`draw`).
    """

    key: str
    rect: pygame.Rect
    label: str = ""
    enabled: bool = True
    style: str = "normal"
    value: Any = None
    icon: pygame.Surface | None = None
    hover: bool = False
    selected: bool = False
    font_size: int | None = None

    def hit(self, pos: tuple[int, int]) -> bool:
        """True when ``pos`` is inside and the button is enabled."""
        return self.enabled and self.rect.collidepoint(pos)

    def draw(self, surf: pygame.Surface, font_size: int) -> None:
        """Draw on ``surf`` with labels at ``font_size`` px (or the button's own
        ``font_size``; shrunk to fit the width)."""
        fill, border, text_col = _STYLES.get(self.style, _STYLES["normal"]) if self.enabled else _DISABLED
        if self.hover and self.enabled:
            fill = tuple(min(255, c + 24) for c in fill)
        rad = max(4, self.rect.h // 4)
        pygame.draw.rect(surf, fill, self.rect, border_radius=rad)
        pygame.draw.rect(surf, ACCENT if self.selected else border, self.rect,
                         width=3 if self.selected else 2, border_radius=rad)
        icon_w = self.icon.get_width() + 4 if self.icon is not None else 0
        if self.label:
            size = self.label_size(font_size)
            t = fonts.render(self.label, size, text_col, bold=True)
            x = self.rect.centerx - (t.get_width() + icon_w) // 2
            if self.icon is not None:
                surf.blit(self.icon, self.icon.get_rect(midleft=(x, self.rect.centery)))
            surf.blit(t, t.get_rect(midleft=(x + icon_w, self.rect.centery)))
        elif self.icon is not None:
            surf.blit(self.icon, self.icon.get_rect(center=self.rect.center))


    def label_size(self, font_size: int) -> int:
        """The font size (px) the label is drawn at: ``font_size`` (or the button's own),
        or less if it has to shrink to fit the button (0 without a label)."""
        if not self.label:
            return 0
        font_size = self.font_size or font_size
        icon_w = self.icon.get_width() + 4 if self.icon is not None else 0
        return fonts.fit_size(self.label, font_size, self.rect.w - 10 - icon_w, bold=True)


def label_color(style: str, enabled: bool = True) -> tuple:
    """The text colour of a button of ``style`` (``normal``, ``primary``...), greyed when
    disabled (for icons drawn to match the label)."""
    return (_STYLES.get(style, _STYLES["normal"]) if enabled else _DISABLED)[2]


_ICONS: dict[tuple, pygame.Surface] = {}
ICONS = ("menu", "sound_on", "sound_off", "speed")


def _icon_shape(surf: pygame.Surface, name: str, color) -> None:
    """Draw icon ``name`` filling square ``surf`` (drawn large, then scaled)."""
    s = surf.get_width()

    def P(x: float, y: float) -> tuple[int, int]:
        return (round(x * s), round(y * s))

    line = max(2, round(s * 0.13))
    if name == "menu":  # three bars
        for y in (0.22, 0.5, 0.78):
            pygame.draw.rect(surf, color, pygame.Rect(P(0.08, y - 0.065), (round(s * 0.84), round(s * 0.13))),
                             border_radius=max(1, s // 20))
    elif name in ("sound_on", "sound_off"):  # a speaker, with waves or a cross
        pygame.draw.polygon(surf, color, [P(0.02, 0.34), P(0.2, 0.34), P(0.48, 0.08), P(0.48, 0.92),
                                          P(0.2, 0.66), P(0.02, 0.66)])
        if name == "sound_on":
            for r in (0.2, 0.4):
                rect = pygame.Rect(0, 0, round(2 * r * s), round(2 * r * s))
                rect.center = P(0.52, 0.5)
                pygame.draw.arc(surf, color, rect, -0.95, 0.95, line)
        else:
            pygame.draw.line(surf, color, P(0.6, 0.32), P(0.94, 0.68), line + 1)
            pygame.draw.line(surf, color, P(0.6, 0.68), P(0.94, 0.32), line + 1)
    elif name == "speed":  # two triangles, fast forward
        for x in (0.04, 0.48):
            pygame.draw.polygon(surf, color, [P(x, 0.18), P(x + 0.48, 0.5), P(x, 0.82)])


def icon(name: str, size: int, color=TEXT) -> pygame.Surface:
    """A ``size``×``size`` antialiased icon (one of :data:`ICONS`) in ``color``, drawn in
    code (no font needs the symbols) and cached."""
    size = max(6, int(size))
    key = (name, size, tuple(color))
    surf = _ICONS.get(key)
    if surf is None:
        big = pygame.Surface((size * 4, size * 4), pygame.SRCALPHA)
        _icon_shape(big, name, color)
        surf = pygame.transform.smoothscale(big, (size, size))
        if len(_ICONS) > 64:
            _ICONS.clear()
        _ICONS[key] = surf
    return surf


@dataclass
class RowItem:
    """One button of a row laid out by :func:`fit_row`: ``key``, ``label``, an optional
    ``icon`` name (:data:`ICONS`), ``short``: the label used when the row is short of room
    (None: the same label; "": the icon alone), and ``enabled``."""

    key: str
    label: str
    icon: str | None = None
    short: str | None = None
    enabled: bool = True


def fit_row(items: list[RowItem], area: pygame.Rect, font_size: int, min_size: int,
            gap: int) -> tuple[int, list[tuple[pygame.Rect, str, int]]]:
    """Lay ``items`` out as a row of buttons filling ``area`` with readable labels.

    Tries the full labels from ``font_size`` down to ``min_size``, then the short ones; the
    first that fits wins and each button gets its natural width plus an even share of the room
    left.  Returns ``(font size, [(rect, label, icon size), ...])``; icon size 0 means no icon.
    Only when even the short labels at ``min_size`` do not fit are the widths squeezed (labels
    then shrink below ``min_size``).
    """
    if not items:
        return font_size, []
    n = len(items)
    room = area.w - gap * (n - 1)

    def widths(size: int, short: bool) -> tuple[list[int], list[str], int]:
        labels = [(it.short if (short and it.short is not None) else it.label) for it in items]
        isz = round(size * 1.2)
        out = []
        for it, lab in zip(items, labels):
            w = 12
            if it.icon:
                w += isz + (4 if lab else 0)
            if lab:
                w += fonts.get_font(size, bold=True).size(lab)[0]
            out.append(w)
        return out, labels, isz

    choice = None
    for short in (False, True):
        for size in range(max(font_size, min_size), min_size - 1, -1):
            ws, labels, isz = widths(size, short)
            if sum(ws) <= room:
                choice = (size, ws, labels, isz)
                break
        if choice is not None:
            break
    if choice is None:
        ws, labels, isz = widths(min_size, True)
        scale = room / max(1, sum(ws))
        choice = (min_size, [max(12, int(w * scale)) for w in ws], labels, isz)
    size, ws, labels, isz = choice
    extra = max(0, room - sum(ws))
    x = area.x
    out = []
    for i, (it, w, lab) in enumerate(zip(items, ws, labels)):
        w += extra // n + (1 if i < extra % n else 0)
        out.append((pygame.Rect(x, area.y, w, area.h), lab, isz if it.icon else 0))
        x += w + gap
    return size, out


def button_width(label: str, font_size: int, min_w: int = 0, pad: int = 28) -> int:
    """Natural width (px) of a button showing ``label`` at ``font_size``."""
    return max(min_w, fonts.get_font(font_size, bold=True).size(label)[0] + pad)


_PANELS: dict[tuple, pygame.Surface] = {}
_PANEL_CACHE_MAX_AREA = 1_000_000  # px: a 4K side panel fits, a full-screen overlay does not


def draw_panel(surf: pygame.Surface, rect: pygame.Rect, color=PANEL, border=PANEL_BORDER, radius: int = 10) -> None:
    """A rounded translucent box (alpha in ``color``'s 4th component); the box image is
    cached by size, colours and radius."""
    key = (tuple(rect.size), tuple(color), tuple(border) if border is not None else None, radius)
    box = _PANELS.get(key)
    if box is None:
        box = pygame.Surface(rect.size, pygame.SRCALPHA)
        pygame.draw.rect(box, color, box.get_rect(), border_radius=radius)
        if border is not None:
            pygame.draw.rect(box, border, box.get_rect(), width=2, border_radius=radius)
        if rect.w * rect.h <= _PANEL_CACHE_MAX_AREA:  # big overlays are drawn when needed
            if len(_PANELS) >= 128:
                _PANELS.clear()
            _PANELS[key] = box
    surf.blit(box, rect.topleft)


def draw_text(surf: pygame.Surface, text: str, size: int, color, pos: tuple[int, int], *,
              anchor: str = "topleft", bold: bool = False, max_width: int | None = None) -> pygame.Rect:
    """Draw one line of ``text`` with its ``anchor`` (a Rect attribute name) at ``pos``.

    With ``max_width`` the font shrinks to fit.  Returns the rect drawn.
    """
    if max_width is not None:
        size = fonts.fit_size(text, size, max_width, bold=bold)
    t = fonts.render(text, size, color, bold=bold)
    r = t.get_rect(**{anchor: pos})
    surf.blit(t, r)
    return r


@dataclass
class Toast:
    """A message shown for a while: ``text``, ``color``, ``until`` (clock seconds), small
    ``cards`` to show with it, ``notice`` (announcement banner rather than the message line).

    A failed throw also carries ``tried`` (the cards the thrower attempted; ``cards`` are then
    the forced cards actually played) and ``seat`` (the thrower: the banner is placed near
    that seat's cards)."""

    text: str
    color: tuple = ERROR
    until: float = 0.0
    cards: tuple = field(default_factory=tuple)
    notice: bool = False
    tried: tuple = field(default_factory=tuple)
    seat: int | None = None
