"""Moving pictures: cards flying across the table (plays, the deal)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pygame


def ease_out(t: float) -> float:
    """Cubic ease-out of ``t`` in 0..1."""
    t = min(1.0, max(0.0, t))
    return 1 - (1 - t) ** 3


@dataclass
class Flight:
    """Card images moving from ``start`` rects to ``end`` rects between ``t0`` and
    ``t0 + duration`` (seconds, on the scene clock).

    ``images``: one surface per card (drawn at its end size, scaled on the way when
    ``scale``); ``key``: what the flight stands for, e.g. ``("play", seat, trick_no)``.
    """

    key: Any
    images: list[pygame.Surface]
    start: list[pygame.Rect]
    end: list[pygame.Rect]
    t0: float
    duration: float
    tag: dict = field(default_factory=dict)

    def done(self, now: float) -> bool:
        """True once the cards have landed."""
        return now >= self.t0 + self.duration

    def rects(self, now: float) -> list[pygame.Rect]:
        """Where each card is at ``now``."""
        if self.duration <= 0:
            return list(self.end)
        k = ease_out((now - self.t0) / self.duration)
        out = []
        for a, b in zip(self.start, self.end):
            out.append(pygame.Rect(round(a.x + (b.x - a.x) * k), round(a.y + (b.y - a.y) * k), b.w, b.h))
        return out

    def draw(self, surf: pygame.Surface, now: float) -> list[pygame.Rect]:
        """Draw at ``now`` (not before ``t0``); returns the rects drawn."""
        if now < self.t0:
            return []
        rects = self.rects(now)
        for img, r in zip(self.images, rects):
            surf.blit(img, r)
        return rects
