"""X-ray 透视 (a setting, off by default; for learners and plugin authors): beside each AI
seat's plate, the candidates that AI weighed for its last decision and its estimate of each,
best first (PLUGINS.md "Reasoning"). The seat to act keeps its previous decision's panel
until its new answer arrives. The built-in ``expert`` gives mean game points over its sampled
deals, ``basic`` its heuristic card points (PLUGINS.md). Nothing is shown for humans, LAN
tables (their AIs run on the host) or AIs that give no reasoning.
"""
from __future__ import annotations

from typing import Any

import pygame

from game.i18n import _
from game.layout import BOTTOM, LEFT, RIGHT, TOP, position_of
from game.widgets import ACCENT, MUTED, TEXT, draw_panel, draw_text

MAX_SHOWN = 3
"""Candidates shown a seat."""


def reasoning_by_seat(table: Any) -> dict[int, tuple]:
    """``{seat: (Reasoning, ...)}`` for the AI seats of a local ``table`` that explained their
    last decision (``SafePlayer.last_reasoning``); empty for any other table."""
    players = getattr(table, "players", None)
    if not isinstance(players, dict):
        return {}
    out = {}
    for seat, p in players.items():
        r = getattr(p, "last_reasoning", None)
        if r:
            out[seat] = tuple(r[:MAX_SHOWN])
    return out


def panel_rect(lay: Any, seat: int, me: int, rows: int) -> pygame.Rect:
    """Where seat ``seat``'s panel goes: beside its plate, towards the middle of the table
    (below it for the top seats). ``rows`` candidate lines under a heading line."""
    pos = position_of(seat, me, lay.seats)
    plate = lay.plates[pos]
    line = round(lay.min_font * 1.35)
    h = line * (rows + 1) + lay.margin
    w = max(plate.w, round(lay.min_font * 14))
    r = pygame.Rect(0, 0, w, h)
    if pos == LEFT:
        r.topleft = (plate.right + lay.margin, plate.y)
    elif pos == RIGHT:
        r.topright = (plate.x - lay.margin, plate.y)
    elif pos == BOTTOM:
        r.bottomleft = (plate.x, plate.y - lay.margin)
    else:  # TOP and the other top seats of 找朋友
        r.midtop = (plate.centerx, plate.bottom + lay.margin // 2)
    return r.clamp(lay.screen)


def panels(lay: Any, view: Any, table: Any) -> list[tuple[int, pygame.Rect, tuple]]:
    """``[(seat, rect, candidates)]`` to draw for ``view`` (the local seat's view)."""
    me = view.seat if view.seat is not None else 0
    return [(seat, panel_rect(lay, seat, me, len(rs)), rs)
            for seat, rs in sorted(reasoning_by_seat(table).items()) if seat != view.seat]


def draw_panel_for(surf: pygame.Surface, lay: Any, rect: pygame.Rect, cands: tuple, thinking: bool) -> None:
    """One seat's panel: a heading ("Thinking…" while the seat is to act, else "Last
    decision") and one line per candidate: its value, then the action."""
    draw_panel(surf, rect, color=(10, 24, 40, 225), border=ACCENT if thinking else (90, 120, 160), radius=8)
    fs = lay.min_font
    line = round(fs * 1.35)
    x, y = rect.x + lay.margin // 2 + 2, rect.y + lay.margin // 2
    head = _("X-ray: thinking…") if thinking else _("X-ray: last decision")
    draw_text(surf, head, fs, MUTED, (x, y), max_width=rect.w - lay.margin)
    for i, c in enumerate(cands):
        y += line
        v = draw_text(surf, f"{c.value:+.1f}", fs, ACCENT if i == 0 else TEXT, (x, y), bold=i == 0)
        draw_text(surf, action_label(c.action), fs, TEXT, (v.right + fs // 2, y), max_width=rect.right - v.right - fs)


def action_label(text: str) -> str:
    """A reasoning ``action`` as shown: card texts (``"10S 10S"``) with suit symbols
    (:func:`game.text.cards_label`), a suit letter as the suit, ``"pass"`` translated; any
    other text (a plugin's own) as it is."""
    from engine.cards import Card
    from game.text import cards_label, suit_label

    if text == "pass":
        return _("Pass")
    if text in ("S", "H", "C", "D"):
        return suit_label(text)
    try:
        return cards_label([Card.parse(t) for t in text.split()]) if text.strip() else text
    except (ValueError, KeyError):
        return text


def signature(table: Any, view: Any) -> tuple:
    """What the panels show (compared each frame to redraw only on a change)."""
    return tuple(sorted((s, r, view.to_act == s) for s, r in reasoning_by_seat(table).items()))
