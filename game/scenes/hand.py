"""The local player's hand: card positions, click-to-raise selection, drawing."""
from __future__ import annotations

from typing import Sequence

import pygame

from game.cards_render import CardRenderer
from game.layout import Layout

MARK = (250, 206, 90)
CURSOR = (90, 220, 255)


class HandView:
    """The cards of the local seat in display order (the engine's sorted hand).

    ``cards``: tuple of engine cards; ``selected``: set of indices into ``cards`` (indices,
    not cards, since two decks hold equal cards).  ``marked`` indices get a gold dot (the kitty
    cards while burying).  ``visible`` limits how many cards are shown (deal animation).
    ``cursor``: index of the keyboard cursor (None when hidden); ``trump_ctx``: the engine's
    ``TrumpContext`` once trump is known (its trumps are drawn with the trump mark).
    """

    def __init__(self) -> None:
        self.cards: tuple = ()
        self.selected: set[int] = set()
        self.marked: set[int] = set()
        self.visible: int | None = None
        self.cursor: int | None = None
        self.trump_ctx = None

    def set_cards(self, cards: Sequence, marked_cards: Sequence = ()) -> bool:
        """Show ``cards``; clears the selection when the hand changed. Returns True if changed.

        ``marked_cards`` (e.g. the kitty) are marked once each, on matching cards.
        """
        cards = tuple(cards)
        if cards == self.cards and not marked_cards and not self.marked:
            return False
        changed = cards != self.cards
        if changed:
            self.selected.clear()
            if self.cursor is not None:
                self.cursor = min(self.cursor, len(cards) - 1) if cards else None
        self.cards = cards
        self.marked = set()
        todo = list(marked_cards)
        for i in range(len(cards) - 1, -1, -1):
            if cards[i] in todo:
                todo.remove(cards[i])
                self.marked.add(i)
        return changed

    def selected_cards(self) -> tuple:
        """The selected cards in display order."""
        return tuple(self.cards[i] for i in sorted(self.selected))

    def shown(self) -> int:
        """Number of cards currently drawn."""
        return len(self.cards) if self.visible is None else min(self.visible, len(self.cards))

    def rects(self, layout: Layout) -> list[pygame.Rect]:
        """On-screen rect of each shown card (selected ones raised)."""
        rects = layout.hand_rects(len(self.cards))[: self.shown()]
        return [r.move(0, -layout.raise_px) if i in self.selected else r for i, r in enumerate(rects)]

    def card_at(self, layout: Layout, pos: tuple[int, int]) -> int | None:
        """Index of the topmost card under ``pos``, or None."""
        rects = self.rects(layout)
        for i in range(len(rects) - 1, -1, -1):
            if rects[i].collidepoint(pos):
                return i
        return None

    def click_point(self, layout: Layout, index: int) -> tuple[int, int]:
        """A point that hits card ``index`` and no card drawn over it (for tests and tools)."""
        rects = self.rects(layout)
        r = rects[index]
        right = r.right
        for j in range(index + 1, len(rects)):
            if rects[j].colliderect(r):
                right = min(right, rects[j].x) if rects[j].y <= r.y + 4 else right
        # a spot in the card's own visible strip, near its top edge
        ys = [r.y + 6]
        for y in ys:
            for x in range(r.x + 2, max(r.x + 3, right - 1)):
                if self.card_at(layout, (x, y)) == index:
                    return (x, y)
        for y in range(r.y, r.bottom):
            for x in range(r.x, r.right, 2):
                if self.card_at(layout, (x, y)) == index:
                    return (x, y)
        return r.center

    def toggle(self, index: int) -> None:
        """Raise card ``index`` if lowered, lower it if raised."""
        if index in self.selected:
            self.selected.discard(index)
        else:
            self.selected.add(index)

    def set_raised(self, index: int, raised: bool) -> bool:
        """Raise (True) or lower (False) card ``index``; returns True if it changed."""
        if not 0 <= index < len(self.cards) or (index in self.selected) == raised:
            return False
        if raised:
            self.selected.add(index)
        else:
            self.selected.discard(index)
        return True

    def move_cursor(self, step: int) -> int | None:
        """Move the keyboard cursor by ``step`` cards (clamped; it appears on the first card
        when hidden).  Returns the new cursor index (None for an empty hand)."""
        n = self.shown()
        if n == 0:
            self.cursor = None
            return None
        if self.cursor is None:
            self.cursor = 0 if step >= 0 else n - 1
        else:
            self.cursor = min(n - 1, max(0, self.cursor + step))
        return self.cursor

    def is_trump(self, index: int) -> bool:
        """True when card ``index`` is a trump (known once trump is chosen)."""
        ctx = self.trump_ctx
        return ctx is not None and ctx.is_trump(self.cards[index])

    def draw(self, surf: pygame.Surface, layout: Layout, renderer: CardRenderer) -> None:
        """Draw the shown cards on ``surf`` (trumps marked, selection edged, cursor outlined)."""
        w, h = layout.card_w, layout.card_h
        rad = max(3, w // 10)
        rects = self.rects(layout)
        for i, r in enumerate(rects):
            surf.blit(renderer.face(self.cards[i], w, h, self.is_trump(i)), r)
            if i in self.selected:
                pygame.draw.rect(surf, MARK, r, width=max(2, w // 40), border_radius=rad)
            if i in self.marked:
                pygame.draw.circle(surf, MARK, (r.x + max(6, w // 7) // 2 + 3, r.bottom - round(h * 0.26)), max(3, w // 16))
        if self.cursor is not None and 0 <= self.cursor < len(rects):
            r = rects[self.cursor]
            pygame.draw.rect(surf, CURSOR, r.inflate(2, 2), width=max(2, w // 30), border_radius=rad)
            s = max(5, w // 9)
            tip = (r.x + s + 3, r.y - 3)
            if tip[1] - s >= layout.hand_area.y:
                pygame.draw.polygon(surf, CURSOR, [(tip[0] - s, tip[1] - s), (tip[0] + s, tip[1] - s), tip])
