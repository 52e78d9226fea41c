"""Heads-up display: table felt, the info box (trump, dealer, bid), name plates, the live
points panel, the card counter and speech bubbles.

Every function draws inside the rectangle the :class:`game.layout.Layout` gives it (the table
scene redraws regions by clipping, so nothing may spill outside its box).
"""
from __future__ import annotations

from typing import Any, Sequence

import pygame

from game import fonts
from game.cards_render import pip
from game.i18n import _
from game.layout import BOTTOM, Layout, position_of
from game.text import SUIT_NAMES, seat_name
from game.widgets import ACCENT, MUTED, TEXT, draw_panel, draw_text

FELT = (18, 92, 58)
FELT_DARK = (10, 58, 36)
WIN_EDGE = (120, 220, 255)
AUTO = (90, 200, 250)
DEALER_RED = (196, 60, 44)
TITLE_COLOUR = (240, 200, 120)  # a player's title 等级 on its plate
BAR_BG = (24, 52, 38)
URGENT = (230, 90, 60)
ZERO = (110, 130, 118)
BADGE_BG = (250, 246, 232)  # the light badge behind a trump pip


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
    if pygame.display.get_init() and pygame.display.get_surface() is not None:
        surf = surf.convert()
    return surf


def suit_badge(suit: str, size: int) -> pygame.Surface:
    """The pip of ``suit`` in its own colour on a light round badge ``size`` px across, legible
    on the dark green cloth and panels (a black ♠/♣ alone is not).  Cached."""
    size = max(8, int(size))
    key = ("badge", suit, size)
    surf = _BUBBLES.get(key)
    if surf is None:
        surf = pygame.Surface((size, size), pygame.SRCALPHA)
        pygame.draw.rect(surf, BADGE_BG, surf.get_rect(), border_radius=size // 3)
        p = pip(suit, round(size * 0.74))
        surf.blit(p, p.get_rect(center=(size // 2, size // 2)))
        _BUBBLES[key] = surf
    return surf


def draw_info(surf: pygame.Surface, lay: Layout, view: Any, names: Sequence[str], hand_no: int) -> pygame.Rect | None:
    """Top-left box: hand number, the trump suit (large pip on a light badge), dealer and bid
    (or the auction).  Returns the trump badge's rect (None before the trump is chosen)."""
    badge = None
    r = lay.info_rect
    draw_panel(surf, r)
    pad = lay.margin
    fs = lay.small_font
    line = max(fs + 2, (r.h - 2 * pad) // 4)
    x, y = r.x + pad + 2, r.y + pad
    maxw = r.w - 2 * pad
    draw_text(surf, _("Hand {n}").format(n=hand_no), fs, MUTED, (x, y), max_width=maxw)
    y += line
    big = round(fs * 1.25)
    if view.trump:
        lbl = draw_text(surf, _("Trump:"), big, TEXT, (x, y), max_width=maxw // 2, bold=True)
        icon = suit_badge(view.trump, lbl.h)
        badge = surf.blit(icon, (lbl.right + 6, lbl.y))
        draw_text(surf, _(SUIT_NAMES[view.trump]), big, ACCENT, (lbl.right + 10 + icon.get_width(), lbl.y), bold=True,
                  max_width=r.right - pad - (lbl.right + 10 + icon.get_width()))
    else:
        lbl = draw_text(surf, _("Trump: not chosen yet"), fs, TEXT, (x, y), max_width=maxw)
    y = max(y + line, lbl.bottom + 2)
    if view.dealer is not None:
        draw_text(surf, _("Dealer: {name} · bid {bid}").format(name=seat_name(view.dealer, view.seat, names), bid=view.bid),
                  fs, TEXT, (x, y), max_width=maxw)
    else:
        high = max((a for _s, a in view.bids if a is not None), default=None)
        txt = _("Bidding: highest {bid}").format(bid=high) if high is not None else _("Bidding: no bid yet")
        draw_text(surf, txt, fs, TEXT, (x, y), max_width=maxw)
    return badge


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
               count: int | None = None, *, points: int | None = None, auto: bool = False,
               winning: bool = False, countdown: int | None = None, title: str = "") -> None:
    """A seat's name plate: name (with the player's ``title`` 等级 when known, README
    "Career"), dealer badge, points taken, bid, cards left.

    Gold edge on the seat to act; a blue edge and ▲ on the seat currently winning the trick
    (``winning``); an auto-play badge (``auto``, the local seat); a turn-timer badge with the
    whole seconds left (``countdown``, red for the last five).  ``points`` replaces
    ``view.points_won[seat]`` while points count up; ``count`` the card count while dealing.
    """
    pos = position_of(seat, view.seat, lay.seats)
    r = lay.plates[pos]
    turn = view.to_act == seat
    draw_panel(surf, r, border=ACCENT if turn else WIN_EDGE if winning else (90, 140, 110))
    pad = lay.margin
    fs = lay.small_font
    x, y = r.x + pad, r.y + pad // 2 + 1
    name = seat_name(seat, view.seat, names)
    right = r.right - pad
    if view.dealer == seat:
        b = pygame.Rect(right - fs - 6, y, fs + 6, fs + 4)
        pygame.draw.rect(surf, DEALER_RED, b, border_radius=4)
        draw_text(surf, _("D"), max(lay.min_font, fs - 2), TEXT, b.center, anchor="center", bold=True)
        right = b.x - 4
    if countdown is not None:
        label = _("{s} s").format(s=countdown)
        tw = fonts.get_font(max(lay.min_font, fs - 2), bold=True).size(label)[0] + 8
        b = pygame.Rect(right - tw, y, tw, fs + 4)
        pygame.draw.rect(surf, URGENT if countdown <= 5 else ACCENT, b, border_radius=4)
        draw_text(surf, label, max(lay.min_font, fs - 2), (30, 20, 10), b.center, anchor="center", bold=True)
        right = b.x - 4
    if auto:
        label = _("Auto")
        tw = fonts.get_font(max(lay.min_font, fs - 2), bold=True).size(label)[0] + 8
        b = pygame.Rect(right - tw, y, tw, fs + 4)
        pygame.draw.rect(surf, AUTO, b, border_radius=4)
        draw_text(surf, label, max(lay.min_font, fs - 2), (10, 30, 40), b.center, anchor="center", bold=True)
        right = b.x - 4
    if winning:
        s = max(4, fs // 2)
        cx, cy = right - s, y + fs // 2 + 1
        pygame.draw.polygon(surf, WIN_EDGE, [(cx - s, cy + s // 2), (cx + s, cy + s // 2), (cx, cy - s)])
        right = cx - s - 4
    nr = draw_text(surf, name, fs, ACCENT if turn else TEXT, (x, y), bold=True, max_width=max(10, right - x))
    if title and right - nr.right > fs * 2:
        draw_text(surf, "· " + title, fs, TITLE_COLOUR, (nr.right + 4, y), max_width=right - nr.right - 4)
    y = r.y + r.h // 2 + 1
    p = view.points_won[seat] if points is None else points
    parts = [_("Points {p}").format(p=p)]
    if view.dealer is None:
        bt = bid_text(view, seat)
        if bt:
            parts = [bt]  # while bidding the bid says more than the (nil) points
    n = view.hand_sizes[seat] if count is None else count
    if pos != BOTTOM:
        parts.append(_("{n} cards").format(n=n))
    draw_text(surf, " · ".join(parts), fs, MUTED, (x, y), max_width=r.w - 2 * pad)


def draw_points(surf: pygame.Surface, lay: Layout, view: Any, names: Sequence[str], shown: Sequence[int],
                totals: Sequence[int]) -> None:
    """Top-right box, the live points panel: every seat's card points this hand (``shown``,
    counting up as tricks are taken) — the dealer first, against the bid, on a progress bar —
    and the accumulated game points per seat in a muted column."""
    from game.helpers import points_summary

    r = lay.scores_rect
    draw_panel(surf, r)
    pad = lay.margin
    fs = lay.small_font
    rows = lay.seats + 1  # a title and a line per seat
    line = max(fs + 1, (r.h - 2 * pad) // rows)
    x, y = r.x + pad + 2, r.y + pad
    right = r.right - pad - 2
    tot_w = fonts.get_font(fs).size("+000")[0]
    pts_x = right - tot_w - pad
    draw_text(surf, _("Points this hand"), fs, MUTED, (x, y), max_width=pts_x - x - 10)
    draw_text(surf, _("Total"), fs, MUTED, (right, y), anchor="topright", max_width=tot_w + pad)
    summ = points_summary(view, shown)
    order = [summ.dealer] + [s for s, _p in summ.defenders] if summ.dealer is not None else list(range(lay.seats))
    for seat in order:
        y += line
        if y + fs > r.bottom:
            break
        dealer = seat == view.dealer
        pts = shown[seat]
        nx = x
        if dealer and view.bid:
            bar = pygame.Rect(x - 2, y - 1, pts_x - x + 4, min(line, fs + 4))
            pygame.draw.rect(surf, BAR_BG, bar, border_radius=3)
            k = min(1.0, pts / max(1, view.bid))
            if k > 0:
                fill = pygame.Rect(bar.x, bar.y, max(3, round(bar.w * k)), bar.h)
                pygame.draw.rect(surf, (70, 110, 50) if pts > view.bid else (96, 84, 30), fill, border_radius=3)
        if dealer:
            b = pygame.Rect(x, y, fs + 4, fs + 2)
            pygame.draw.rect(surf, DEALER_RED, b, border_radius=3)
            draw_text(surf, _("D"), max(lay.min_font, fs - 2), TEXT, b.center, anchor="center", bold=True)
            nx = b.right + 4
        name = seat_name(seat, view.seat, names)
        value = f"{pts} / {view.bid}" if dealer and view.bid else str(pts)
        vw = fonts.get_font(fs, bold=True).size(value)[0]
        draw_text(surf, name, fs, ACCENT if dealer else TEXT, (nx, y), max_width=max(10, pts_x - vw - nx - 6))
        draw_text(surf, value, fs, ACCENT if dealer else TEXT, (pts_x, y), anchor="topright", bold=True)
        t = totals[seat] if seat < len(totals) else 0
        draw_text(surf, f"{t:+d}" if t else "0", fs, MUTED, (right, y), anchor="topright")


def draw_counter(surf: pygame.Surface, lay: Layout, rows: Sequence[Any]) -> None:
    """The card counter 记牌器 in ``lay.counter_rect``: trumps and high cards still unseen
    (``rows`` from :func:`game.helpers.card_counter`) in aligned columns, labels in their
    suit's colour, counts right-aligned; zeros are dimmed."""
    r = lay.counter_rect
    draw_panel(surf, r)
    pad = lay.margin
    fs = lay.small_font
    x0, y = r.x + pad, r.y + pad // 2 + 1
    draw_text(surf, _("Cards still out"), fs, MUTED, (x0, y), max_width=r.w - 2 * pad)
    y += fs + 4
    inner_w = r.w - 2 * pad
    line = fs + 2
    font, bold_font = fonts.get_font(fs), fonts.get_font(fs, bold=True)
    n = len(rows)
    # column-major grid: per column a label column and a right-aligned count, the fewest
    # columns whose lines fit the height (and whose widths fit the panel)
    choice = None
    for cols in range(2, 5):
        lines = max(1, -(-n // cols))
        groups = [rows[c * lines:(c + 1) * lines] for c in range(cols)]
        groups = [g for g in groups if g]
        lab_w = [max(font.size(rw.label)[0] for rw in g) for g in groups]
        num_w = [max(bold_font.size(str(rw.left))[0] for rw in g) for g in groups]
        need = sum(lab_w) + sum(num_w) + 4 * len(groups)
        if need <= inner_w and y + lines * line <= r.bottom - pad // 2 + 2:
            choice = (groups, lab_w, num_w, need)
            break
        if choice is None or need < choice[3]:
            choice = (groups, lab_w, num_w, need)
    groups, lab_w, num_w, need = choice
    gap = max(0, inner_w - need) // max(1, len(groups) - 1) if len(groups) > 1 else 0
    cx = x0
    for g, lw, nw in zip(groups, lab_w, num_w):
        cell = min(lw, max(8, inner_w // len(groups) - nw - 4)) if need > inner_w else lw
        for k, row in enumerate(g):
            cy = y + k * line
            if cy + fs > r.bottom:
                break
            draw_text(surf, row.label, fs, _counter_colour(row), (cx, cy), max_width=max(8, cell))
            draw_text(surf, str(row.left), fs, ACCENT if row.left else ZERO, (cx + cell + 4 + nw, cy),
                      anchor="topright", bold=True)
        cx += cell + 4 + nw + gap


def _counter_colour(row: Any) -> tuple:
    """A counter row's label colour: its suit's (red ♥ ♦ and big joker, light ♠ ♣), dimmed at zero."""
    if not row.left:
        return ZERO
    card = getattr(row, "card", None)
    if card is None:
        return TEXT
    if card.suit is None:
        return COUNTER_RED if card.rank >= 16 else TEXT
    return COUNTER_RED if card.suit in ("H", "D") else TEXT


COUNTER_RED = (255, 128, 118)


_BUBBLES: dict[tuple, pygame.Surface] = {}


def bubble(text: str, size: int, color=TEXT, fill=(20, 36, 30, 235), border=ACCENT, icon: pygame.Surface | None = None) -> pygame.Surface:
    """A speech bubble (rounded box, per-pixel alpha) around ``text`` at ``size`` px, with an
    optional ``icon`` left of the text.  Cached by its arguments."""
    key = (text, size, tuple(color), tuple(fill), tuple(border), id(icon) if icon is not None else None)
    surf = _BUBBLES.get(key)
    if surf is not None:
        return surf
    t = fonts.render(text, size, color, bold=True)
    iw = icon.get_width() + 6 if icon is not None else 0
    padx, pady = max(8, size // 2), max(4, size // 4)
    w, h = t.get_width() + iw + 2 * padx, max(t.get_height(), icon.get_height() if icon else 0) + 2 * pady
    surf = pygame.Surface((w, h), pygame.SRCALPHA)
    rad = h // 2
    pygame.draw.rect(surf, fill, surf.get_rect(), border_radius=rad)
    pygame.draw.rect(surf, border, surf.get_rect(), width=max(2, size // 10), border_radius=rad)
    x = padx
    if icon is not None:
        surf.blit(icon, icon.get_rect(midleft=(x, h // 2)))
        x += iw
    surf.blit(t, t.get_rect(midleft=(x, h // 2)))
    if len(_BUBBLES) > 200:
        _BUBBLES.clear()
    _BUBBLES[key] = surf
    return surf


def stamp(text: str, size: int, color, outline=(40, 10, 10)) -> pygame.Surface:
    """Big outlined text for flourishes (e.g. "毙!" / "Ruff!"), per-pixel alpha."""
    key = ("stamp", text, size, tuple(color), tuple(outline))
    surf = _BUBBLES.get(key)
    if surf is not None:
        return surf
    inner = fonts.render(text, size, color, bold=True)
    edge = fonts.render(text, size, outline, bold=True)
    o = max(2, size // 14)
    surf = pygame.Surface((inner.get_width() + 2 * o, inner.get_height() + 2 * o), pygame.SRCALPHA)
    for dx in (-o, 0, o):
        for dy in (-o, 0, o):
            if dx or dy:
                surf.blit(edge, (o + dx, o + dy))
    surf.blit(inner, (o, o))
    if len(_BUBBLES) > 200:
        _BUBBLES.clear()
    _BUBBLES[key] = surf
    return surf


def draw_scores(surf: pygame.Surface, lay: Layout, view: Any, names: Sequence[str], totals: Sequence[int]) -> None:
    """Accumulated game points per seat in ``lay.scores_rect`` (kept for tools; the table
    shows :func:`draw_points`)."""
    draw_points(surf, lay, view, names, view.points_won, totals)
