"""Heads-up display: table felt, the info box (trump, dealer, bid), name plates and totals."""
from __future__ import annotations

from typing import Any, Sequence

import pygame

from game.cards_render import pip
from game.i18n import _
from game.layout import BOTTOM, Layout, position_of
from game.text import seat_name, suit_label
from game.widgets import ACCENT, MUTED, TEXT, draw_panel, draw_text

FELT = (18, 92, 58)
FELT_DARK = (10, 58, 36)


def felt(w: int, h: int) -> pygame.Surface:
    """The table background: a green felt with a soft vignette (drawn once per size)."""
    surf = pygame.Surface((w, h))
    surf.fill(FELT_DARK)
    steps = 24
    for i in range(steps):
        k = i / steps
        col = tuple(round(FELT_DARK[j] + (FELT[j] - FELT_DARK[j]) * k) for j in range(3))
        r = pygame.Rect(0, 0, round(w * (1.25 - k * 0.75)), round(h * (1.25 - k * 0.75)))
        r.center = (w // 2, h // 2)
        pygame.draw.ellipse(surf, col, r)
    return surf


def draw_info(surf: pygame.Surface, lay: Layout, view: Any, names: Sequence[str], hand_no: int) -> None:
    """Top-left box: hand number, trump suit, dealer and bid, the dealer's points against the bid."""
    r = lay.info_rect
    draw_panel(surf, r)
    pad = lay.margin
    fs = lay.small_font
    line = max(fs + 2, (r.h - 2 * pad) // 4)
    x, y = r.x + pad + 2, r.y + pad
    maxw = r.w - 2 * pad
    draw_text(surf, _("Hand {n}").format(n=hand_no), fs, MUTED, (x, y), max_width=maxw)
    y += line
    if view.trump:
        icon = pip(view.trump, fs + 2)
        lbl = draw_text(surf, _("Trump:"), fs, TEXT, (x, y), max_width=maxw // 2)
        surf.blit(icon, (lbl.right + 6, y))
        draw_text(surf, suit_label(view.trump).split(" ", 1)[1], fs, ACCENT, (lbl.right + 10 + icon.get_width(), y), bold=True)
    else:
        draw_text(surf, _("Trump: not chosen yet"), fs, TEXT, (x, y), max_width=maxw)
    y += line
    if view.dealer is not None:
        draw_text(surf, _("Dealer: {name} · bid {bid}").format(name=seat_name(view.dealer, view.seat, names), bid=view.bid),
                  fs, TEXT, (x, y), max_width=maxw)
        y += line
        pts = view.points_won[view.dealer]
        draw_text(surf, _("Dealer's points: {p} / {bid}").format(p=pts, bid=view.bid), fs, ACCENT, (x, y),
                  bold=True, max_width=maxw)
    else:
        high = max((a for _s, a in view.bids if a is not None), default=None)
        txt = _("Bidding: highest {bid}").format(bid=high) if high is not None else _("Bidding: no bid yet")
        draw_text(surf, txt, fs, TEXT, (x, y), max_width=maxw)


def bid_text(view: Any, seat: int) -> str:
    """The seat's last bid (``"Bid 70"``, ``"Pass"``) or ""."""
    last = None
    for s, a in view.bids:
        if s == seat:
            last = a if a is not None else "pass"
    if last is None:
        return ""
    return _("Pass") if last == "pass" else _("Bid {n}").format(n=last)


def draw_plate(surf: pygame.Surface, lay: Layout, view: Any, seat: int, names: Sequence[str],
               count: int | None = None) -> None:
    """A seat's name plate: name, dealer badge, points taken, bid, cards left; gold edge on turn."""
    pos = position_of(seat, view.seat)
    r = lay.plates[pos]
    turn = view.to_act == seat
    draw_panel(surf, r, border=ACCENT if turn else (90, 140, 110))
    pad = lay.margin
    fs = lay.small_font
    x, y = r.x + pad, r.y + pad // 2 + 1
    name = seat_name(seat, view.seat, names)
    badge_w = 0
    if view.dealer == seat:
        b = pygame.Rect(r.right - pad - fs - 6, y, fs + 6, fs + 4)
        pygame.draw.rect(surf, (196, 60, 44), b, border_radius=4)
        draw_text(surf, _("D"), fs - 2, TEXT, b.center, anchor="center", bold=True)
        badge_w = b.w + 4
    draw_text(surf, name, fs, ACCENT if turn else TEXT, (x, y), bold=True, max_width=r.w - 2 * pad - badge_w)
    y = r.y + r.h // 2 + 1
    parts = [_("Points {p}").format(p=view.points_won[seat])]
    if view.dealer is None:
        bt = bid_text(view, seat)
        if bt:
            parts.append(bt)
    n = view.hand_sizes[seat] if count is None else count
    if pos != BOTTOM:
        parts.append(_("{n} cards").format(n=n))
    draw_text(surf, " · ".join(parts), fs, MUTED, (x, y), max_width=r.w - 2 * pad)


def draw_scores(surf: pygame.Surface, lay: Layout, view: Any, names: Sequence[str], totals: Sequence[int]) -> None:
    """Top-right box: accumulated game points per seat."""
    r = lay.scores_rect
    draw_panel(surf, r)
    pad = lay.margin
    fs = lay.small_font
    line = max(fs + 1, (r.h - 2 * pad) // 5)
    x, y = r.x + pad + 2, r.y + pad
    draw_text(surf, _("Game points"), fs, MUTED, (x, y), max_width=r.w - 2 * pad)
    for seat in range(4):
        y += line
        if y + fs > r.bottom:
            break
        t = totals[seat] if seat < len(totals) else 0
        draw_text(surf, seat_name(seat, view.seat, names), fs, TEXT, (x, y), max_width=r.w * 2 // 3)
        draw_text(surf, f"{t:+d}" if t else "0", fs, ACCENT, (r.right - pad - 2, y), anchor="topright", bold=True)
