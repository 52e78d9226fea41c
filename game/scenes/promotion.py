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

    def draw_content(self, surf: pygame.Surface) -> None:
        """A dark veil, a glow, "New title!" and the title rising into the middle."""
        m = self.metrics
        t = max(0.0, self.progress())
        k = min(1.0, t / RISE_S)
        ease = 1 - (1 - k) ** 3
        veil = pygame.Surface((m.w, m.h), pygame.SRCALPHA)
        veil.fill((0, 0, 0, round(140 * min(1.0, t / 0.3))))
        surf.blit(veil, (0, 0))
        cx = m.w // 2
        cy = round(m.h * (0.75 - 0.27 * ease))
        size = max(m.title, round(m.title * 1.6))
        pulse = 0.85 + 0.15 * math.sin(t * 6.0)
        glow = pygame.Surface((m.w, m.h), pygame.SRCALPHA)
        for i in range(6, 0, -1):
            rad = round(size * (0.8 + i * 0.35) * pulse)
            pygame.draw.circle(glow, (255, 210, 90, round(22 * ease)), (cx, cy), rad)
        surf.blit(glow, (0, 0))
        title = self.titles[-1] if self.titles else ""
        box = pygame.Rect(0, 0, min(m.w - 2 * m.margin, fonts.get_font(size, bold=True).size(title)[0] + 6 * m.margin),
                          round(size * 1.7))
        box.center = (cx, cy)
        draw_panel(surf, box, color=(60, 20, 10, round(220 * ease)), border=ACCENT, radius=16)
        draw_text(surf, title, size, ACCENT, (cx, cy), anchor="center", bold=True, max_width=box.w - 2 * m.margin)
        head = _("New title!")
        draw_text(surf, head, m.font, TEXT, (cx, box.y - m.gap), anchor="midbottom", bold=True,
                  max_width=m.w - 2 * m.margin)
        if len(self.titles) > 1:
            more = _("Also reached: {titles}").format(titles=" · ".join(self.titles[:-1]))
            draw_text(surf, more, m.small, TEXT, (cx, box.bottom + m.gap), anchor="midtop", max_width=m.w - 2 * m.margin)
        r = self.recorded
        line = _("Accumulated points: {points}").format(points=r.points_after)
        draw_text(surf, line, m.small, TEXT, (cx, box.bottom + m.gap + (m.small + m.gap) * (len(self.titles) > 1)),
                  anchor="midtop", max_width=m.w - 2 * m.margin)
