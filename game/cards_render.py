"""Card faces and backs drawn in code (no image files), pre-rendered and cached per size.

A face shows the rank and suit pip in two corners and a large pip in the middle, red for
hearts/diamonds and black for spades/clubs.  No text on a card is drawn under
:data:`MIN_TEXT_PX`: a small card keeps its corner index and leaves off the decorative text
(the J/Q/K centre letter, a joker's English word) that would be smaller.  Jokers read 大王/小王 (BIG/SMALL JOKER in
English); every ♥5 (the red five, highest trump) carries a gold frame and star.  Pips are
drawn as shapes at 4x and smooth-scaled, so no font needs suit symbols.

Cards are duck-typed: anything with ``suit`` (``"S" "H" "C" "D"`` or None) and ``rank``
(2..14, small joker 15, big joker 16) — the engine's ``Card``.
"""
from __future__ import annotations

import logging

import pygame

from game import fonts
from game.i18n import _, current_language

log = logging.getLogger(__name__)

RED = (200, 24, 32)
BLACK = (20, 20, 24)
GOLD = (222, 170, 30)
FACE_BG = (252, 251, 246)
BORDER = (90, 90, 96)
BACK_1 = (34, 74, 150)
BACK_2 = (58, 108, 190)

#: the smallest text (px) drawn on a card: decorative text that would come out smaller (the
#: J/Q/K centre letter, a joker's English word) is left off a small card, whose corner index
#: (never under this size) already names it
MIN_TEXT_PX = 14

RANK_TEXT = {11: "J", 12: "Q", 13: "K", 14: "A"}
SUIT_COLOR = {"S": BLACK, "C": BLACK, "H": RED, "D": RED}


def rank_text(rank: int) -> str:
    """Printed rank: ``"2"``..``"10"``, ``"J" "Q" "K" "A"``."""
    return RANK_TEXT.get(rank, str(rank))


def is_red_five(card) -> bool:
    """True for every copy of ♥5."""
    return card.suit == "H" and card.rank == 5


def _pip_shape(surf: pygame.Surface, suit: str, color) -> None:
    """Draw suit ``suit`` filling square ``surf`` (drawn large, then scaled)."""
    s = surf.get_width()

    def P(x: float, y: float) -> tuple[int, int]:
        return (round(x * s), round(y * s))

    def C(x: float, y: float, r: float) -> None:
        pygame.draw.circle(surf, color, P(x, y), round(r * s))

    if suit == "H":
        C(0.29, 0.33, 0.235)
        C(0.71, 0.33, 0.235)
        pygame.draw.polygon(surf, color, [P(0.07, 0.42), P(0.93, 0.42), P(0.5, 0.96)])
    elif suit == "D":
        pygame.draw.polygon(surf, color, [P(0.5, 0.02), P(0.88, 0.5), P(0.5, 0.98), P(0.12, 0.5)])
    elif suit == "S":
        C(0.29, 0.58, 0.215)
        C(0.71, 0.58, 0.215)
        pygame.draw.polygon(surf, color, [P(0.09, 0.53), P(0.91, 0.53), P(0.5, 0.03)])
        pygame.draw.polygon(surf, color, [P(0.5, 0.6), P(0.32, 0.98), P(0.68, 0.98)])
    elif suit == "C":
        C(0.5, 0.27, 0.2)
        C(0.27, 0.58, 0.2)
        C(0.73, 0.58, 0.2)
        C(0.5, 0.5, 0.12)
        pygame.draw.polygon(surf, color, [P(0.5, 0.5), P(0.33, 0.98), P(0.67, 0.98)])
    elif suit == "*":  # star (jokers, red-five badge)
        import math

        pts = []
        for i in range(10):
            ang = -math.pi / 2 + i * math.pi / 5
            r = 0.48 if i % 2 == 0 else 0.2
            pts.append(P(0.5 + r * math.cos(ang), 0.52 + r * math.sin(ang)))
        pygame.draw.polygon(surf, color, pts)


_PIP_CACHE: dict[tuple, pygame.Surface] = {}


def pip(suit: str, size: int, color=None) -> pygame.Surface:
    """A ``size``×``size`` antialiased pip for ``suit`` (``"S" "H" "C" "D"`` or ``"*"`` star)."""
    size = max(4, int(size))
    color = tuple(color or SUIT_COLOR.get(suit, BLACK))
    key = (suit, size, color)
    surf = _PIP_CACHE.get(key)
    if surf is None:
        big = pygame.Surface((size * 4, size * 4), pygame.SRCALPHA)
        _pip_shape(big, suit, color)
        surf = pygame.transform.smoothscale(big, (size, size))
        _PIP_CACHE[key] = surf
    return surf


def index_metrics(w: int) -> tuple[int, int]:
    """``(width, height)`` in px of the rank-and-suit index in the top-left corner of a face
    ``w`` px wide (from the card's left and top edges): what must stay visible of a card that
    others overlap, so its rank and suit can be read."""
    pad = max(2, w // 18)
    idx_size = max(14, int(w * 0.30))
    text_h = fonts.get_font(idx_size, bold=True).get_height()
    small = max(6, int(w * 0.22))
    return pad + int(w * 0.30), pad + int(text_h * 0.92) + small


#: below this width (px) of the corner index box (30 % of the card) a face shows only its index
COMPACT_BOX_PX = 8


def index_text(card, w: int, color) -> tuple[pygame.Surface, bool]:
    """The rank text of the corner index of a face ``w`` px wide, and whether that face is
    *compact* (too narrow for an index beside the centre art: it then shows the rank and suit
    only). The text is rendered at ``max(MIN_TEXT_PX, 30 % of w)`` px; a rank wider than the
    index box (30 % of ``w``; "10") is squeezed to fit, but never to less than the height of
    :data:`MIN_TEXT_PX` text; on a compact face it may use the card's whole width."""
    size = max(MIN_TEXT_PX, int(w * 0.30))
    text = fonts.get_font(size, bold=True).render(rank_text(card.rank), True, color)
    box = int(w * 0.30)
    tw, th = text.get_size()
    if tw <= w * 0.30:
        return text, False
    if box < COMPACT_BOX_PX:
        room = max(1, w - 2 * max(2, w // 18))
        if tw > room:
            text = pygame.transform.smoothscale(text, (room, th))
        return text, True
    floor = fonts.get_font(MIN_TEXT_PX, bold=True).get_height()
    th = min(th, max(floor, int(th * w * 0.30 / tw)))
    return pygame.transform.smoothscale(text, (box, max(1, th))), False


TRUMP_BG = (255, 243, 212)
TRUMP_TAG = (226, 150, 20)
KEY = (255, 0, 255)  # colour key of the transparent corners (never used on a card)


def _opaque(surf: pygame.Surface) -> pygame.Surface:
    """``surf`` (per-pixel alpha, binary at the rounded corners) as an opaque surface whose
    corners are a run-length-encoded colour key: the same picture, blitted ~3x faster in
    software (and still fine as a GPU texture)."""
    out = pygame.Surface(surf.get_size())
    out.fill(KEY)
    out.blit(surf, (0, 0))
    if pygame.display.get_init() and pygame.display.get_surface() is not None:
        try:
            out = out.convert()
        except pygame.error:  # pragma: no cover - display gone meanwhile
            pass
    out.set_colorkey(KEY, pygame.RLEACCEL)
    return out


class CardRenderer:
    """Renders and caches card images.

    ``face(card, w, h, trump=False)`` and ``back(w, h)`` return surfaces of exactly
    ``w``×``h`` pixels (opaque, with colour-keyed rounded corners).  Faces are drawn at the
    size asked for (never scaled up from a small bitmap).  ``trump=True`` marks a trump in the
    hand: a warm face and a gold tag in the bottom-left corner (visible where hand cards
    overlap).  Caches are keyed by size, language (joker captions are translated) and the
    trump mark; :meth:`clear` drops them (e.g. after a resize); :meth:`prewarm` renders ahead.
    """

    def __init__(self) -> None:
        self._faces: dict[tuple, pygame.Surface] = {}
        self._backs: dict[tuple, pygame.Surface] = {}

    def clear(self) -> None:
        """Drop every cached image."""
        self._faces.clear()
        self._backs.clear()

    def cached(self) -> int:
        """Number of images in the cache."""
        return len(self._faces) + len(self._backs)

    def face(self, card, w: int, h: int, trump: bool = False) -> pygame.Surface:
        """The face of ``card`` at ``w``×``h`` px (cached); ``trump`` adds the trump mark."""
        key = (int(card), w, h, current_language(), bool(trump))
        surf = self._faces.get(key)
        if surf is None:
            surf = _opaque(self._draw_face(card, w, h, bool(trump)))
            self._faces[key] = surf
        return surf

    def back(self, w: int, h: int) -> pygame.Surface:
        """The back of a card at ``w``×``h`` px (cached)."""
        key = (w, h)
        surf = self._backs.get(key)
        if surf is None:
            surf = _opaque(self._draw_back(w, h))
            self._backs[key] = surf
        return surf

    def prewarm(self, jobs, budget_s: float = 0.004, clock=None) -> bool:
        """Render missing faces from ``jobs`` — a mutable list of ``(card, w, h, trump)``,
        consumed from the end — until ``budget_s`` seconds have passed.  Returns True when
        the list is empty (everything cached)."""
        import time

        clock = clock or time.perf_counter
        t_end = clock() + budget_s
        while jobs:
            card, w, h, trump = jobs.pop()
            self.face(card, w, h, trump)
            if clock() >= t_end:
                break
        return not jobs

    # -- drawing ---------------------------------------------------------------------------
    @staticmethod
    def _blank(w: int, h: int, bg, border, border_w: int = 1) -> pygame.Surface:
        surf = pygame.Surface((w, h), pygame.SRCALPHA)
        rad = max(3, w // 10)
        pygame.draw.rect(surf, bg, (0, 0, w, h), border_radius=rad)
        pygame.draw.rect(surf, border, (0, 0, w, h), width=border_w, border_radius=rad)
        return surf

    def _draw_face(self, card, w: int, h: int, trump: bool = False) -> pygame.Surface:
        red5 = is_red_five(card)
        surf = self._blank(w, h, TRUMP_BG if trump else FACE_BG, GOLD if red5 else BORDER,
                           max(1, w // 22) if red5 else 1)
        idx_size = max(14, int(w * 0.30))
        if trump:
            self._draw_trump_tag(surf, w, h)
        if card.suit is None:
            self._draw_joker(surf, card, w, h, idx_size)
            return surf
        color = SUIT_COLOR[card.suit]
        text, compact = index_text(card, w, color)
        pad = max(2, w // 18)
        small = pip(card.suit, max(6, int(w * 0.22)))
        sy = pad + int(text.get_height() * 0.92)
        if compact:  # too small a card for more than its index: rank and suit only
            surf.blit(text, (pad, pad))
            if sy + small.get_height() <= h - pad:
                surf.blit(small, (pad + max(0, (text.get_width() - small.get_width()) // 2), sy))
            else:  # no room under the rank: the suit in the bottom-right corner
                surf.blit(small, (w - pad - small.get_width(), h - pad - small.get_height()))
            return surf
        x = pad + (int(w * 0.30) - text.get_width()) // 2
        surf.blit(text, (x, pad))
        surf.blit(small, (pad + (int(w * 0.30) - small.get_width()) // 2, sy))
        # mirrored corner (bottom right)
        corner = pygame.Surface((int(w * 0.30) + pad, sy + small.get_height()), pygame.SRCALPHA)
        corner.blit(text, (x, pad))
        corner.blit(small, (pad + (int(w * 0.30) - small.get_width()) // 2, sy))
        corner = pygame.transform.rotate(corner, 180)
        if h - corner.get_height() > sy + small.get_height() + h * 0.25:
            surf.blit(corner, (w - corner.get_width(), h - corner.get_height()))
        # centre
        big_size = int(min(w * 0.55, h * 0.40))
        cx, cy = w // 2 + w // 16, h // 2 + h // 20
        if card.rank in (11, 12, 13):
            frame = pygame.Rect(0, 0, int(w * 0.52), int(h * 0.56))
            frame.center = (cx, cy)
            pygame.draw.rect(surf, (240, 228, 200), frame, border_radius=max(2, w // 20))
            pygame.draw.rect(surf, color, frame, width=max(1, w // 40), border_radius=max(2, w // 20))
            letter_px = int(frame.h * 0.55)
            if letter_px >= MIN_TEXT_PX:
                letter = fonts.get_font(letter_px, bold=True).render(rank_text(card.rank), True, color)
                surf.blit(letter, letter.get_rect(center=(frame.centerx, frame.centery - frame.h // 8)))
                p = pip(card.suit, int(frame.w * 0.34))
                surf.blit(p, p.get_rect(center=(frame.centerx, frame.bottom - frame.h // 5)))
            else:  # a small card: the framed pip only (the corner index names the rank)
                p = pip(card.suit, int(frame.w * 0.62))
                surf.blit(p, p.get_rect(center=frame.center))
        else:
            p = pip(card.suit, big_size)
            surf.blit(p, p.get_rect(center=(cx, cy)))
        if red5:
            star = pip("*", max(8, int(w * 0.26)), GOLD)
            surf.blit(star, (w - star.get_width() - pad, pad))
        return surf

    @staticmethod
    def _draw_trump_tag(surf: pygame.Surface, w: int, h: int) -> None:
        """A gold tag with a star in the bottom-left corner (the part of a hand card that stays
        visible under its right neighbour)."""
        pad = max(2, w // 18)
        tw = max(6, int(w * 0.26))
        th = max(6, int(h * 0.13))
        tag = pygame.Rect(pad, h - pad - th, tw, th)
        pygame.draw.rect(surf, TRUMP_TAG, tag, border_radius=max(2, tw // 5))
        star = pip("*", max(4, min(tw, th) - 2), (255, 250, 228))
        surf.blit(star, star.get_rect(center=tag.center))

    def _draw_joker(self, surf: pygame.Surface, card, w: int, h: int, idx_size: int) -> None:
        big = card.rank >= 16
        color = RED if big else BLACK
        pad = max(2, w // 18)
        if current_language() == "zh":
            letters = list(_("BIG JOKER") if big else _("SMALL JOKER"))
        else:
            letters = list("JOKER")
        # the letters run down the left edge (the star sits right of them), a letter a step
        lsize = max(14, min(int(w * 0.24), int(h * 0.8 / (1.05 * max(1, len(letters))))))
        fit = max(1, int(h * 0.8 / (lsize * 1.05)))
        if fit < len(letters):  # a small card: the first letter (the star and the word tell the rest)
            letters = letters[:1] if current_language() != "zh" else letters[:fit]
        y = pad - round(lsize * 0.18)
        for ch in letters:
            t = fonts.get_font(lsize, bold=True).render(ch, True, color)
            surf.blit(t, (pad + (int(w * 0.28) - t.get_width()) // 2, y))
            y += round(lsize * 1.05)
        star = pip("*", int(min(w * 0.56, h * 0.4)), color)
        surf.blit(star, star.get_rect(center=(w // 2 + w // 10, h // 2)))
        if current_language() != "zh":
            word = "BIG" if big else "SMALL"
            s = fonts.fit_size(word, int(w * 0.22), int(w * 0.64), bold=True)
            if s >= MIN_TEXT_PX:  # else left off: the red or black star tells big from small
                t = fonts.get_font(s, bold=True).render(word, True, color)
                surf.blit(t, t.get_rect(midbottom=(w // 2 + w // 10, h - pad * 2)))

    @staticmethod
    def _draw_back(w: int, h: int) -> pygame.Surface:
        surf = CardRenderer._blank(w, h, (250, 250, 250), BORDER)
        inner = pygame.Rect(0, 0, w, h).inflate(-max(4, w // 8), -max(4, w // 8))
        rad = max(2, w // 14)
        pygame.draw.rect(surf, BACK_1, inner, border_radius=rad)
        step = max(6, w // 6)
        clip = surf.get_clip()
        surf.set_clip(inner)
        for k in range(-h, w + h, step):
            pygame.draw.line(surf, BACK_2, (inner.x + k, inner.y), (inner.x + k + inner.h, inner.bottom), 2)
            pygame.draw.line(surf, BACK_2, (inner.x + k, inner.bottom), (inner.x + k + inner.h, inner.y), 2)
        surf.set_clip(clip)
        pygame.draw.rect(surf, (230, 200, 90), inner, width=max(1, w // 40), border_radius=rad)
        return surf
