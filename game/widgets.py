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
    ``style`` is one of ``normal``, ``primary``, ``suit``, ``flat``.
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

    def hit(self, pos: tuple[int, int]) -> bool:
        """True when ``pos`` is inside and the button is enabled."""
        return self.enabled and self.rect.collidepoint(pos)

    def draw(self, surf: pygame.Surface, font_size: int) -> None:
        """Draw on ``surf`` with labels at ``font_size`` px (shrunk to fit the width)."""
        fill, border, text_col = _STYLES.get(self.style, _STYLES["normal"]) if self.enabled else _DISABLED
        if self.hover and self.enabled:
            fill = tuple(min(255, c + 24) for c in fill)
        rad = max(4, self.rect.h // 4)
        pygame.draw.rect(surf, fill, self.rect, border_radius=rad)
        pygame.draw.rect(surf, ACCENT if self.selected else border, self.rect,
                         width=3 if self.selected else 2, border_radius=rad)
        icon_w = self.icon.get_width() + 4 if self.icon is not None else 0
        if self.label:
            size = fonts.fit_size(self.label, font_size, self.rect.w - 10 - icon_w, bold=True)
            t = fonts.render(self.label, size, text_col, bold=True)
            x = self.rect.centerx - (t.get_width() + icon_w) // 2
            if self.icon is not None:
                surf.blit(self.icon, self.icon.get_rect(midleft=(x, self.rect.centery)))
            surf.blit(t, t.get_rect(midleft=(x + icon_w, self.rect.centery)))
        elif self.icon is not None:
            surf.blit(self.icon, self.icon.get_rect(center=self.rect.center))


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
    ``cards`` to show with it, ``notice`` (announcement banner rather than the message line)."""

    text: str
    color: tuple = ERROR
    until: float = 0.0
    cards: tuple = field(default_factory=tuple)
    notice: bool = False
