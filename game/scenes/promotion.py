"""The promotion moment 升级: when a hand lifts the profile's accumulated game points past a
title threshold (RULES.md §11; ``Recorded.promotions``), the new title rises over the
settlement with a glow while the ``promotion`` sound plays. A tap, a click or a key closes it;
it closes itself after :data:`DURATION_S`. README "Career"."""
from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import pygame

from game import fonts
from game.i18n import _
from game.scenes.menu import Screen
from game.widgets import ACCENT, TEXT, draw_panel, draw_text

if TYPE_CHECKING:  # pragma: no cover
    from game.app import App

#: how long the call-out stays (s, the app's clock)
DURATION_S = 3.5
#: how long the title takes to rise into place (s)
RISE_S = 0.9


def title_text(zh_title: str) -> str:
    """A title 等级 (the store's Chinese name) in the UI language."""
    from engine.scoring import TITLES
    from game.i18n import current_language

    if current_language() == "zh":
        return zh_title
    for row in TITLES:
        if zh_title in row:
            return next((x for x in row[1:] if isinstance(x, str) and x != zh_title), zh_title)
    return zh_title


class PromotionOverlay(Screen):
    """The call-out over the settlement for ``recorded`` (a :class:`game.career.Recorded` with
    ``promotions``). Public for tests: ``titles`` (shown, UI language), ``started``."""

    opaque = False

    def __init__(self, app: "App", recorded: Any) -> None:
        super().__init__(app)
        self.recorded = recorded
        self.titles = [title_text(t) for t in recorded.promotions]
        self.started = app.clock()

    def progress(self) -> float:
        """Seconds since it opened."""
        return self.app.clock() - self.started

    def handle_event(self, ev: Any) -> None:
        """Any tap, click or key closes the call-out (the settlement is under it)."""
        if ev.type in (pygame.MOUSEBUTTONUP, pygame.FINGERUP, pygame.KEYDOWN):
            self.app.pop_screen(self)

    def update(self) -> None:
        """Animate; close after :data:`DURATION_S`."""
        if self.progress() >= DURATION_S:
            self.app.pop_screen(self)
        else:
            self.invalidate()
            if self.app.scene is not None:  # the settlement under the veil is drawn afresh each frame
                self.app.scene.invalidate()

    def draw_content(self, surf: pygame.Surface) -> None:
        """A dark veil, a glow, "New title!" and the title rising into the middle."""
        m = self.metrics
        t = max(0.0, self.progress())
        k = min(1.0, t / RISE_S)
        ease = 1 - (1 - k) ** 3
        veil = pygame.Surface((m.w, m.h), pygame.SRCALPHA)
        veil.fill((0, 0, 0, round(120 * min(1.0, t / 0.3))))
        surf.blit(veil, (0, 0))
        cx = m.w // 2
        cy = round(m.h * (0.75 - 0.27 * ease))
        size = max(m.title, round(m.title * 1.6))
        pulse = 0.85 + 0.15 * math.sin(t * 6.0)
        glow = pygame.Surface((m.w, m.h), pygame.SRCALPHA)
        for i in range(6, 0, -1):
            rad = round(size * (0.9 + i * 0.22) * pulse)
            pygame.draw.circle(glow, (255, 200, 80, round(16 * ease)), (cx, cy), rad)
        surf.blit(glow, (0, 0))
        title = self.titles[-1] if self.titles else ""
        lines = [_("Accumulated points: {points}").format(points=self.recorded.points_after)]
        if len(self.titles) > 1:
            lines.insert(0, _("Also reached: {titles}").format(titles=" · ".join(self.titles[:-1])))
        line_h = m.small + m.gap // 2
        width = max(fonts.get_font(size, bold=True).size(title)[0], fonts.get_font(m.font, bold=True).size(
            _("New title!"))[0], *(fonts.get_font(m.small).size(t)[0] for t in lines)) + 6 * m.margin
        height = (fonts.get_font(m.font, bold=True).get_linesize() + fonts.get_font(size, bold=True).get_linesize()
                  + m.gap // 2 + line_h * len(lines) + m.gap * 2)
        box = pygame.Rect(0, 0, min(m.w - 2 * m.margin, width), height)
        box.center = (cx, cy)
        draw_panel(surf, box, color=(50, 16, 8, round(235 * ease)), border=ACCENT, radius=16)
        y = box.y + m.gap
        head = draw_text(surf, _("New title!"), m.font, TEXT, (cx, y), anchor="midtop", bold=True,
                         max_width=box.w - 2 * m.margin)
        t = draw_text(surf, title, size, ACCENT, (cx, head.bottom), anchor="midtop", bold=True,
                      max_width=box.w - 2 * m.margin)
        y = t.bottom + m.gap // 2
        for text in lines:
            draw_text(surf, text, m.small, TEXT, (cx, y), anchor="midtop", max_width=box.w - 2 * m.margin)
            y += line_h
