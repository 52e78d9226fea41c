"""Where a call-out bubble goes (:class:`game.scenes.animation.Callout`): pure geometry, no drawing.

A bubble pops up at a seat (its points won, its bid, the trump, a 找朋友 declaration or call)
and rises a few pixels while it fades; the window edge clamps it (``Callout.bounds``). Its
whole path — every place it takes while rising, clamped to the window — keeps off every name
plate (its own seat's too: the bubble should not hide whose it is) and the points panel when
one of a few candidate spots near the seat allows it; among those, one clear of the helper
buttons too (Last trick / Hint / Auto, ``lay.tools_rect``: a bubble over them hides them for its
whole life) when one is; among those, the spot that covers the least of the other fixed panels
(toolbar, info box, card counter, prompt, action bar), of the hand, the trick area and other
seats' card backs wins; with none clear, the spot with the least overlap, in that order. tests/test_callout_spots.py checks every window from 800×480 up, four and five seats.
"""
from __future__ import annotations

from typing import Any

import pygame

Spot = tuple[tuple[int, int], int]
"""A bubble's start ``(x, y)`` centre (px) and how far it rises from there (px)."""


def path_rect(lay: Any, size: tuple[int, int], spot: Spot) -> pygame.Rect:
    """The rect a ``size`` = ``(w, h)`` bubble sweeps from ``spot``: its start and end places,
    each clamped to ``lay.screen`` as :class:`~game.scenes.animation.Callout` does (clamping is
    monotonic, so every place in between lies in their union)."""
    (cx, cy), rise = spot
    start = pygame.Rect(0, 0, *size)
    start.center = (cx, cy)
    end = start.move(0, -rise)
    return start.clamp(lay.screen).union(end.clamp(lay.screen))


def hard_obstacles(lay: Any) -> list[pygame.Rect]:
    """What a bubble must keep off when it can: every name plate and the points panel."""
    return [lay.plates[p] for p in lay.positions] + [lay.scores_rect]


def button_obstacles(lay: Any) -> list[pygame.Rect]:
    """What a bubble keeps off second, after :func:`hard_obstacles`: the helper buttons' area
    (``lay.tools_rect``; every Last trick / Kitty / Hint / Auto button lies inside it)."""
    return [lay.tools_rect]


def soft_obstacles(lay: Any, pos: int) -> list[pygame.Rect]:
    """What a bubble keeps off third (least covered wins): the other fixed panels, the hand,
    the trick area and the other seats' card backs (position ``pos`` is the bubble's seat)."""
    out = [lay.toolbar, lay.info_rect, lay.counter_rect, lay.action_bar, lay.message_rect,
           lay.hand_area, lay.trick_area]
    return out + [lay.backs[p] for p in lay.positions if p != pos and lay.backs[p].w]


def _overlap(r: pygame.Rect, rects: list[pygame.Rect]) -> int:
    return sum(c.w * c.h for c in (r.clip(o) for o in rects))


def best_spot(lay: Any, pos: int, size: tuple[int, int], spots: list[Spot]) -> Spot:
    """The first of ``spots`` (best first) whose path (:func:`path_rect`) meets no
    :func:`hard_obstacles`, then no :func:`button_obstacles`, and the least of
    :func:`soft_obstacles`; each tier decides before the next: with none clear of a tier, the
    ones overlapping it least go on to the next (ties: the earlier spot).  So a bubble covers a
    helper button only when every candidate clear of the plates and the points panel does."""
    hard, buttons, soft = hard_obstacles(lay), button_obstacles(lay), soft_obstacles(lay, pos)

    def cost(i_spot: tuple[int, Spot]) -> tuple[int, int, int, int]:
        i, spot = i_spot
        r = path_rect(lay, size, spot)
        return _overlap(r, hard), _overlap(r, buttons), _overlap(r, soft), i

    return min(enumerate(spots), key=cost)[1]


def plate_spots(lay: Any, pos: int, size: tuple[int, int], rise: int) -> list[Spot]:
    """Candidate spots beside position ``pos``'s plate, best first: above it (rising away),
    below it (rising up to it), then beside it towards the middle of the table and away from
    it (rising half as far, level with the plate at the end); a plate at the top tries below
    first, one at the bottom above, then the side towards the middle."""
    plate, g = lay.plates[pos], max(2, lay.margin // 4)
    bw, bh = size
    half = rise // 2
    above = ((plate.centerx, plate.y - g - bh // 2), rise)
    below = ((plate.centerx, plate.bottom + g + (bh + 1) // 2 + rise), rise)
    right = ((plate.right + g + (bw + 1) // 2, plate.centery + half), half)
    left = ((plate.x - g - (bw + 1) // 2, plate.centery + half), half)
    inward, outward = (left, right) if plate.centerx > lay.w // 2 else (right, left)
    side = lay.sides[pos]
    if side == "top":
        return [below, inward, outward, above]
    if side == "bottom":
        return [above, inward, outward, below]
    return [above, inward, below, outward]


def table_spots(lay: Any, center: tuple[int, int], size: tuple[int, int], rise: int) -> list[Spot]:
    """Candidate spots for a bubble at ``center`` on the table (a bid, the trump, a
    declaration), best first: there, then moved towards the middle of the trick area and down,
    in steps of a quarter of its width and half its height, nearest first."""
    bw, bh = size
    cx, cy = center
    ta = lay.trick_area
    toward_x = (ta.centerx > cx) - (ta.centerx < cx)
    moves = [(kx * toward_x * max(1, bw // 4), ky * max(1, bh // 2)) for kx in range(5) for ky in range(4)]
    moves.sort(key=lambda d: (abs(d[0]) + abs(d[1]), d[1]))
    return [((cx + dx, cy + dy), rise) for dx, dy in moves]


def callout_spot(lay: Any, kind: str, pos: int, size: tuple[int, int], rise: int) -> Spot:
    """Where a ``kind`` bubble of ``size`` = ``(w, h)`` px for position ``pos`` starts and how
    far it rises: points won beside the seat's plate (:func:`plate_spots`), the trump at the
    middle of the trick area, anything else (a bid, the dealer, a 找朋友 declaration, friend
    call or reveal) at the seat's place on the table (:func:`table_spots`); the best of the
    candidates by :func:`best_spot`."""
    if kind == "points":
        spots = plate_spots(lay, pos, size, rise)
    elif kind == "trump":
        spots = table_spots(lay, lay.trick_area.center, size, rise)
    else:
        spots = table_spots(lay, lay.trick_centers[pos], size, rise)
    return best_spot(lay, pos, size, spots)
