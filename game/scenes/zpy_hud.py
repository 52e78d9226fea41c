"""Heads-up display of a 找朋友 (Finding Friends) table: the info box (trump, level, dealer,
the friend call), name plates with each seat's level and side, and the points panel (the
catchers' points against the threshold, and the match standings: every seat's level).

Sides are shown as they become known (RULES.md "找朋友"): the dealer once the deal ends, the
friend when the called card is played (or the dealer alone), the catchers then too. Every
function draws inside the rectangle the layout gives it, like :mod:`game.scenes.hud`.
"""
from __future__ import annotations

from typing import Any, Sequence

import pygame

from game import fonts
from game.i18n import _
from game.layout import BOTTOM, Layout, position_of
from game.scenes.hud import AUTO, BAR_BG, DEALER_RED, TITLE_COLOUR, URGENT, WIN_EDGE, suit_badge
from game.text import SUIT_NAMES, card_label, cards_label, seat_name
from game.widgets import ACCENT, MUTED, TEXT, draw_panel, draw_text

FRIEND_GOLD = (214, 160, 40)
CATCHER_BLUE = (60, 120, 200)


def level_name(rank: int | None) -> str:
    """A level rank 2..14 as shown: 2..10, J, Q, K, A ("?" for None)."""
    if rank is None:
        return "?"
    return {11: "J", 12: "Q", 13: "K", 14: "A"}.get(rank, str(rank))


def friend_call_text(call: Any) -> str:
    """``"找朋友：第2张 ♠A"`` / ``"Friend: 2nd ♠A"`` for a ``(card, nth)`` call (nth 1..3)."""
    card, nth = call
    return _(FRIEND_CALLS[min(max(nth, 1), 3) - 1]).format(card=card_label(card))


def N_(message: str) -> str:
    """Mark a message for the catalog (translated where shown)."""
    return message


#: the friend call as shown, by copy (1st, 2nd, 3rd)
FRIEND_CALLS = (N_("Friend: 1st {card}"), N_("Friend: 2nd {card}"), N_("Friend: 3rd {card}"))


def side_of(view: Any, seat: int) -> str | None:
    """``"dealer"``, ``"friend"``, ``"catcher"`` or None (not known yet to this view)."""
    if view.dealer is None:
        return None
    if seat == view.dealer:
        return "dealer"
    if view.friend is not None:
        return "friend" if seat == view.friend else "catcher"
    if getattr(view, "alone", False):
        return "catcher"
    st = view.settlement
    if st is not None:
        return "friend" if seat in st.dealer_side else "catcher"
    return None


SIDE_COLOURS = {"dealer": DEALER_RED, "friend": FRIEND_GOLD, "catcher": CATCHER_BLUE}


def side_badge_text(side: str) -> str:
    """The one-character badge of a side (庄 / 友 / 闲)."""
    return {"dealer": _("D"), "friend": _("F"), "catcher": _("C")}[side]


def catcher_points(view: Any, shown: Sequence[int]) -> int | None:
    """The catchers' card points so far as this view knows them (None before the sides are
    known: the friend not yet revealed)."""
    if view.dealer is None:
        return None
    if view.settlement is not None:
        return view.settlement.catcher_points
    if view.friend is None and not getattr(view, "alone", False):
        return None
    side = {view.dealer} | ({view.friend} if view.friend is not None else set())
    return sum(p for s, p in enumerate(shown) if s not in side)


def five_blank(names: Sequence[str]) -> tuple[str, ...]:
    """As many empty names as ``names`` has: :func:`game.text.seat_name` then gives the bare
    position ("Top right") of a five-seat table, without the AI's name (for narrow boxes)."""
    return ("",) * len(names)


def draw_info(surf: pygame.Surface, lay: Layout, view: Any, names: Sequence[str], hand_no: int) -> None:
    """Top-left box: hand number and level; the trump (a pip on a badge, or no-trump); the
    dealer (or the standing declaration while dealing); the friend call and who it is."""
    r = lay.info_rect
    draw_panel(surf, r)
    pad = lay.margin
    fs = lay.small_font
    line = max(fs + 2, (r.h - 2 * pad) // 4)
    x, y = r.x + pad + 2, r.y + pad
    maxw = r.w - 2 * pad
    head = _("Hand {n}").format(n=hand_no)
    if view.level is not None:
        head += " · " + _("Level {r}").format(r=level_name(view.level))
    draw_text(surf, head, fs, MUTED, (x, y), max_width=maxw)
    y += line
    if view.trump_known and view.trump:
        lbl = draw_text(surf, _("Trump:"), fs, TEXT, (x, y), max_width=maxw // 2, bold=True)
        icon = suit_badge(view.trump, lbl.h)
        surf.blit(icon, (lbl.right + 6, lbl.y))
        draw_text(surf, _(SUIT_NAMES[view.trump]), fs, ACCENT, (lbl.right + 10 + icon.get_width(), lbl.y), bold=True,
                  max_width=r.right - pad - (lbl.right + 10 + icon.get_width()))
    elif view.trump_known:
        draw_text(surf, _("Trump: no trump"), fs, ACCENT, (x, y), max_width=maxw, bold=True)
    elif view.standing is not None:
        seat, cards = view.standing
        draw_text(surf, _("Declared: {cards}").format(cards=cards_label(cards)), fs, ACCENT, (x, y),
                  max_width=maxw, bold=True)
        draw_text(surf, _("Dealer-to-be: {name}").format(name=seat_name(seat, view.seat, five_blank(names))), fs, TEXT,
                  (x, y + line), max_width=maxw)
    else:
        draw_text(surf, _("Dealing: no declaration yet"), fs, TEXT, (x, y), max_width=maxw)
    y += line
    if view.dealer is not None:
        draw_text(surf, _("Dealer: {name}").format(name=seat_name(view.dealer, view.seat, five_blank(names))),
                  fs, TEXT, (x, y), max_width=maxw)
    y += line
    if view.friend_call is not None and y + fs <= r.bottom:
        txt = friend_call_text(view.friend_call)
        if getattr(view, "alone", False):
            txt += " · " + _("alone")
        draw_text(surf, txt, fs, FRIEND_GOLD, (x, y), max_width=maxw, bold=True)


def draw_plate(surf: pygame.Surface, lay: Layout, view: Any, seat: int, names: Sequence[str],
               count: int | None = None, *, points: int | None = None, auto: bool = False,
               winning: bool = False, countdown: int | None = None, title: str = "") -> None:
    """A seat's name plate: name (and the player's ``title`` 等级 when known and there is
    room), side badge (once known), the countdown of a window, the seat's level, points taken
    and cards left."""
    pos = position_of(seat, view.seat, lay.seats)
    r = lay.plates[pos]
    turn = view.to_act == seat
    side = side_of(view, seat)
    edge = ACCENT if turn else WIN_EDGE if winning else SIDE_COLOURS.get(side, (90, 140, 110))
    draw_panel(surf, r, border=edge)
    pad = lay.margin
    fs = lay.small_font
    small = max(lay.min_font, fs - 2)
    x, y = r.x + pad, r.y + pad // 2 + 1
    right = r.right - pad
    if side is not None:
        b = pygame.Rect(right - fs - 6, y, fs + 6, fs + 4)
        pygame.draw.rect(surf, SIDE_COLOURS[side], b, border_radius=4)
        draw_text(surf, side_badge_text(side), small, TEXT, b.center, anchor="center", bold=True)
        right = b.x - 4
    for label, colour, on in ((_("{s} s").format(s=countdown), URGENT if (countdown or 0) <= 2 else ACCENT,
                               countdown is not None), (_("Auto"), AUTO, auto)):
        if not on:
            continue
        tw = fonts.get_font(small, bold=True).size(label)[0] + 8
        b = pygame.Rect(right - tw, y, tw, fs + 4)
        pygame.draw.rect(surf, colour, b, border_radius=4)
        draw_text(surf, label, small, (30, 20, 10), b.center, anchor="center", bold=True)
        right = b.x - 4
    if winning:
        s = max(4, fs // 2)
        cx, cy = right - s, y + fs // 2 + 1
        pygame.draw.polygon(surf, WIN_EDGE, [(cx - s, cy + s // 2), (cx + s, cy + s // 2), (cx, cy - s)])
        right = cx - s - 4
    nr = draw_text(surf, seat_name(seat, view.seat, names), fs, ACCENT if turn else TEXT, (x, y), bold=True,
                   max_width=max(10, right - x))
    if title and right - nr.right > fs * 2:
        draw_text(surf, "· " + title, fs, TITLE_COLOUR, (nr.right + 4, y), max_width=right - nr.right - 4)
    y = r.y + r.h // 2 + 1
    p = view.points_won[seat] if points is None else points
    n = view.hand_sizes[seat] if count is None else count
    lv = _("Lv {r}").format(r=level_name(view.levels[seat]))
    shown = [cards for s, cards, _ph in view.declarations if s == seat]
    if shown and view.phase.value in ("deal", "call_friend", "bury", "counter"):
        # before play, the seat's latest declaration (or counter) stays on its plate
        said = _("Declared: {cards}").format(cards=cards_label(shown[-1]))
        for text in (f"{lv} · {said}", said, cards_label(shown[-1])):  # the longest that keeps its size
            if fonts.fit_size(text, fs, r.w - 2 * pad) >= lay.min_font:
                break
        draw_text(surf, text, fs, ACCENT, (x, y), max_width=r.w - 2 * pad)
        return
    cards = [_("{n} cards").format(n=n)] if pos != BOTTOM else []
    room = r.w - 2 * pad
    # the longest line that keeps its size: with the words, then without the card count, then bare
    for parts in ([lv, _("Points {p}").format(p=p)] + cards, [lv, _("Points {p}").format(p=p)], [lv, str(p)]):
        text = " · ".join(parts)
        if fonts.fit_size(text, fs, room) >= lay.min_font:
            break
    draw_text(surf, text, fs, MUTED, (x, y), max_width=room)


def draw_points(surf: pygame.Surface, lay: Layout, view: Any, names: Sequence[str], shown: Sequence[int],
                levels: Sequence[int]) -> None:
    """Top-right box: the catchers' points against the threshold on a bar (once the sides are
    known; before that the points on the table), then the standings: every seat's level."""
    r = lay.scores_rect
    draw_panel(surf, r)
    pad = lay.margin
    fs = lay.small_font
    rows = lay.seats + 1
    line = max(fs + 1, (r.h - 2 * pad) // rows)
    x, y = r.x + pad + 2, r.y + pad
    right = r.right - pad - 2
    threshold = view.ruleset.options.threshold if hasattr(view.ruleset.options, "threshold") else 120
    cp = catcher_points(view, shown)
    if cp is None:
        txt = _("Catchers: ? / {t}").format(t=threshold)
    else:
        txt = _("Catchers: {p} / {t}").format(p=cp, t=threshold)
    bar = pygame.Rect(x - 2, y - 1, right - x + 4, min(line, fs + 4))
    pygame.draw.rect(surf, BAR_BG, bar, border_radius=3)
    if cp:
        k = min(1.0, cp / max(1, threshold))
        fill = pygame.Rect(bar.x, bar.y, max(3, round(bar.w * k)), bar.h)
        pygame.draw.rect(surf, (60, 90, 150) if cp >= threshold else (50, 70, 110), fill, border_radius=3)
    draw_text(surf, txt, fs, TEXT, (x, y), bold=True, max_width=right - x)
    for seat in range(len(view.levels)):
        y += line
        if y + fs > r.bottom:
            break
        side = side_of(view, seat)
        colour = SIDE_COLOURS.get(side, TEXT) if side != "catcher" else (150, 190, 250)
        lv = levels[seat] if seat < len(levels) else view.levels[seat]
        value = _("Lv {r}").format(r=level_name(lv))
        vw = fonts.get_font(fs, bold=True).size(value)[0]
        draw_text(surf, seat_name(seat, view.seat, names), fs, colour, (x, y), max_width=max(10, right - vw - x - 6))
        draw_text(surf, value, fs, colour, (right, y), anchor="topright", bold=True)
