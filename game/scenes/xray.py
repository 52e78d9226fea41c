"""X-ray 透视 (a setting, off by default; for learners and plugin authors): beside each AI
seat's plate, the candidates that AI weighed for its last decision and its estimate of each,
best first (PLUGINS.md "Reasoning"). The seat to act keeps its previous decision's panel
until its new answer arrives. Each panel takes the place of its seat's card backs (the plate
keeps the card count) or another free spot beside the plate, never over the trick area, a
plate, the panels, the helper buttons, the prompt, the action bar or the hand
(:func:`place_panels`); where room is short it shows fewer candidates (two at least) and
drops its heading, and its text stays at the layout's smallest font (``Layout.min_font``). The built-in ``expert`` gives mean game points over its sampled
deals, ``basic`` its heuristic card points (PLUGINS.md). Nothing is shown for humans or AIs
that give no reasoning. At a LAN table the AIs run on the host: their reasoning comes only
from a learners' table (``hongwu host --xray``), sent after each AI decision to the sessions
that asked (PROTOCOL.md ``xray``); elsewhere nothing is shown.
"""
from __future__ import annotations

from typing import Any, Callable

import pygame

from game.i18n import _
from game.layout import BOTTOM, LEFT, RIGHT, TOP, position_of
from game.widgets import ACCENT, MUTED, TEXT, draw_panel, draw_text

MAX_SHOWN = 3
"""Candidates shown a seat."""


def reasoning_by_seat(table: Any) -> dict[int, tuple]:
    """``{seat: (Reasoning, ...)}`` for the AI seats of a local ``table`` that explained their
    last decision (``SafePlayer.last_reasoning``), or what the host of a LAN learners' table
    sent (``RemoteTable.reasoning_by_seat()``: AI seats only, after each decision; PROTOCOL.md
    ``xray``); empty for any other table."""
    remote = getattr(table, "reasoning_by_seat", None)
    if callable(remote):
        return {seat: tuple(r[:MAX_SHOWN]) for seat, r in remote().items() if r}
    players = getattr(table, "players", None)
    if not isinstance(players, dict):
        return {}
    out = {}
    for seat, p in players.items():
        r = getattr(p, "last_reasoning", None)
        if r:
            out[seat] = tuple(r[:MAX_SHOWN])
    return out


def line_h(lay: Any) -> int:
    """Height of one panel line (px): the heading or a candidate."""
    return round(lay.min_font * 1.35)


def panel_height(lay: Any, rows: int, heading: bool = True) -> int:
    """Height (px) of a panel with ``rows`` candidate lines, under a heading line or not."""
    return line_h(lay) * (rows + (1 if heading else 0)) + lay.margin


def obstacles(lay: Any, own_pos: int) -> list[pygame.Rect]:
    """What a panel must not cover: the trick area, every plate, the other seats' card backs,
    the info, points and toolbar panels, the helper buttons, the card counter, the message
    line, the action bar and the hand. Its own seat's card backs may be covered (they are
    then not drawn; the plate still shows the card count); so may the hand area for the
    bottom seat, which only has a panel for an observer (the hand area then shows that
    seat's card backs beside the panel, never under it: :func:`backs_span`)."""
    out = [lay.trick_area, lay.info_rect, lay.toolbar, lay.scores_rect, lay.tools_rect, lay.counter_rect,
           lay.message_rect, lay.action_bar]
    if own_pos != BOTTOM:
        out.append(lay.hand_area)
    out += [lay.plates[p] for p in lay.positions]
    out += [lay.backs[p] for p in lay.positions if p != BOTTOM and p != own_pos and lay.backs[p].w]
    return out


Slot = Callable[[int, int], pygame.Rect]


def _slots(lay: Any, pos: int) -> list[Slot]:
    """Candidate places for position ``pos``'s panel, best first, each a function of the
    panel's (width, height) giving its rect: over the seat's own card backs (in the plate's
    column when the backs are above or below the plate, beside the plate when they are beside
    it; for the bottom seat the hand area's corner), then beside, above and below the plate;
    last, for a seat at the top, beside the plate from the screen's top edge (a few pixels
    more height)."""
    plate, g = lay.plates[pos], max(2, lay.margin // 4)
    backs = lay.backs.get(pos) if pos != BOTTOM else None
    out: list[Slot] = []
    if pos == BOTTOM:
        out.append(lambda w, h: pygame.Rect(lay.hand_area.x, lay.hand_area.y, w, h))
    elif backs is not None and backs.w:
        if backs.bottom <= plate.y:  # backs above the plate (the side seats)
            if lay.sides[pos] == "right":
                out.append(lambda w, h: pygame.Rect(plate.right - w, plate.y - g - h, w, h))
            else:
                out.append(lambda w, h: pygame.Rect(plate.x, plate.y - g - h, w, h))
        elif backs.y >= plate.bottom:  # backs under the plate (crowded top seats)
            out.append(lambda w, h: pygame.Rect(plate.x, plate.bottom + g, w, h))
        elif backs.right <= plate.x:  # backs left of the plate
            out.append(lambda w, h: pygame.Rect(plate.x - g - w, plate.y, w, h))
        else:  # backs right of the plate
            out.append(lambda w, h: pygame.Rect(plate.right + g, plate.y, w, h))
    out += [lambda w, h: pygame.Rect(plate.x - g - w, plate.y, w, h),
            lambda w, h: pygame.Rect(plate.right + g, plate.y, w, h),
            lambda w, h: pygame.Rect(plate.x, plate.y - g - h, w, h),
            lambda w, h: pygame.Rect(plate.x, plate.bottom + g, w, h)]
    if lay.sides[pos] == "top" and plate.y > g:  # beside a top plate, from the screen's top edge
        out += [lambda w, h: pygame.Rect(plate.x - g - w, g, w, h),
                lambda w, h: pygame.Rect(plate.right + g, g, w, h)]
    return out


def min_width(lay: Any) -> int:
    """The narrowest panel (px): a value and a pair's cards at the smallest font
    (``Layout.note_w``, which the layout leaves free beside each top plate)."""
    return getattr(lay, "note_w", round(lay.min_font * 8))


def pad(lay: Any) -> int:
    """Inner padding of a panel (px), left and right of its text."""
    return lay.margin // 2 + 2


def heading_width(lay: Any) -> int:
    """Width (px) a panel needs for its longer heading at ``min_font`` in the current language
    (narrower panels show no heading)."""
    from game import fonts

    font = fonts.get_font(lay.min_font)
    return max(font.size(t)[0] for t in (_("X-ray: thinking…"), _("X-ray: last decision"))) + 2 * pad(lay)


def place_panels(lay: Any, me: int, rows: dict[int, int]) -> dict[int, tuple[pygame.Rect, int, bool]]:
    """Lay the panels out: ``rows`` is ``{seat: candidates it has}``; returns ``{seat: (rect,
    rows shown, heading shown)}``. Each panel takes the first free slot (:func:`_slots`) that
    shows the most: all its candidates under the heading if possible, else fewer lines
    (candidates first, the heading dropped), at least one; a slot is tried at the plate's
    width, then narrower down to :func:`min_width` (a heading only where it fits,
    :func:`heading_width`). A free rect lies inside the screen and meets none of
    :func:`obstacles` nor an earlier panel. The layout keeps room for at least two
    candidates beside every plate (``Layout.note_w``; tests/test_xray_layout.py checks every
    window from 800×480 up, both seat counts); should none be free, the panel goes beside
    the plate towards the middle, clamped to the screen."""
    placed: dict[int, tuple[pygame.Rect, int, bool]] = {}
    narrowest = min_width(lay)
    widths = list(range(lay.plate_w, narrowest, -max(4, lay.margin))) + [narrowest]
    head_w = heading_width(lay)
    for seat in sorted(rows):
        want = max(1, min(MAX_SHOWN, rows[seat]))
        pos = position_of(seat, me, lay.seats)
        blocked = obstacles(lay, pos) + [r for r, _n, _h in placed.values()]
        slots = _slots(lay, pos)
        best = None
        for n, head in [(n, head) for n in range(want, 0, -1) for head in (True, False)]:
            h = panel_height(lay, n, head)
            best = next(((r, n, head) for slot in slots for w in widths if w >= head_w or not head
                         for r in (slot(w, h),) if lay.screen.contains(r) and r.collidelist(blocked) < 0), None)
            if best:
                break
        placed[seat] = best or (_fallback(lay, pos, want), want, True)
    return placed


def _fallback(lay: Any, pos: int, rows: int) -> pygame.Rect:
    """The old placement: beside the plate towards the middle of the table, clamped."""
    plate = lay.plates[pos]
    r = pygame.Rect(0, 0, lay.plate_w, panel_height(lay, rows))
    side = lay.sides[pos]
    if side == "left":
        r.topleft = (plate.right + lay.margin, plate.y)
    elif side == "right":
        r.topright = (plate.x - lay.margin, plate.y)
    elif side == "bottom":
        r.bottomleft = (plate.x, plate.y - lay.margin)
    else:
        r.midtop = (plate.centerx, plate.bottom + lay.margin // 2)
    return r.clamp(lay.screen)


def panel_rect(lay: Any, seat: int, me: int, rows: int) -> pygame.Rect:
    """Where seat ``seat``'s panel goes when it is the only one (:func:`place_panels`)."""
    return place_panels(lay, me, {seat: rows})[seat][0]


def panels(lay: Any, view: Any, table: Any) -> list[tuple[int, pygame.Rect, tuple]]:
    """``[(seat, rect, candidates)]`` to draw for ``view`` (the local seat's view): the
    candidates cut to the lines that fit (:func:`place_panels`)."""
    me = view.seat if view.seat is not None else 0
    shown = {seat: rs for seat, rs in sorted(reasoning_by_seat(table).items()) if seat != view.seat}
    placed = place_panels(lay, me, {seat: len(rs) for seat, rs in shown.items()})
    return [(seat, placed[seat][0], shown[seat][:placed[seat][1]]) for seat in shown]


def backs_span(lay: Any, panel: pygame.Rect | None) -> tuple[int, int] | None:
    """The ``(left, right)`` x span (px) of the hand area an observer's view of the bottom
    seat's card backs keeps to (``Layout.hand_rects(n, span)``) so that none lies under that
    seat's X-ray ``panel`` (in the hand area's left corner, :func:`_slots`): right of the
    panel with a small gap; None (the whole hand area) without a panel or with one outside
    the hand area."""
    if panel is None or not panel.colliderect(lay.hand_area):
        return None
    g = max(2, lay.margin // 4)
    return min(panel.right + g, lay.hand_area.right - lay.card_w), lay.hand_area.right


def flight_origin(lay: Any, pos: int, origin: pygame.Rect, panel: pygame.Rect | None) -> pygame.Rect:
    """Where a card played by the seat at position ``pos`` starts its flight to the trick area
    so that it never rises out of that seat's X-ray ``panel``: ``origin`` (the seat's usual
    start, a card-sized rect) when it is clear of the panel; else the same rect centred on the
    seat's plate (for the bottom seat being watched: at the usual start) and then pushed just
    clear of the panel by the shortest move up, down, left or right that stays on the screen.
    Returns a new rect; ``origin`` is not changed."""
    if panel is None or not origin.colliderect(panel):
        return origin
    r = origin.copy()
    if pos != BOTTOM:
        r.center = lay.plates[pos].center
        r = r.clamp(lay.screen)
    if not r.colliderect(panel):
        return r
    g = max(2, lay.margin // 4)
    moves = [r.move(0, panel.bottom + g - r.top), r.move(0, panel.top - g - r.bottom),
             r.move(panel.right + g - r.left, 0), r.move(panel.left - g - r.right, 0)]
    inside = [m for m in moves if lay.screen.contains(m)] or [m.clamp(lay.screen) for m in moves]
    return min(inside, key=lambda m: (m.colliderect(panel), abs(m.x - r.x) + abs(m.y - r.y)))


def covers_backs(lay: Any, rect: pygame.Rect, pos: int) -> bool:
    """True when a panel at ``rect`` covers position ``pos``'s card backs (not drawn then)."""
    b = lay.backs.get(pos)
    return pos != BOTTOM and b is not None and b.w > 0 and rect.colliderect(b)


def elide(text: str, size: int, max_width: int, bold: bool = False) -> str:
    """``text`` as it fits ``max_width`` px at ``size`` px (never a smaller font: X-ray text
    stays at ``Layout.min_font``): whole, else cut to its leading words (cards) or characters
    and ended with "…"."""
    from game import fonts

    font = fonts.get_font(size, bold)
    if font.size(text)[0] <= max_width:
        return text
    words = text.split(" ")
    for k in range(len(words) - 1, 0, -1):
        cut = " ".join(words[:k]) + " …"
        if font.size(cut)[0] <= max_width:
            return cut
    for k in range(len(text) - 1, 0, -1):
        if font.size(text[:k] + "…")[0] <= max_width:
            return text[:k] + "…"
    return "…"


def draw_panel_for(surf: pygame.Surface, lay: Any, rect: pygame.Rect, cands: tuple, thinking: bool) -> None:
    """One seat's panel: a heading ("Thinking…" while the seat is to act, else "Last
    decision") when ``rect`` has the room (:func:`place_panels`), and one line per candidate:
    its value, then the action. Every text is drawn at ``lay.min_font`` (never smaller; an
    action too long for the panel ends in "…", :func:`elide`). The border is bright while
    the seat is to act."""
    draw_panel(surf, rect, color=(10, 24, 40, 235), border=ACCENT if thinking else (90, 120, 160), radius=8)
    fs = lay.min_font
    line = line_h(lay)
    x, y = rect.x + pad(lay), rect.y + lay.margin // 2
    right = rect.right - pad(lay)
    heading = rect.h >= panel_height(lay, len(cands), True) and rect.w >= heading_width(lay)
    if heading:
        head = _("X-ray: thinking…") if thinking else _("X-ray: last decision")
        draw_text(surf, elide(head, fs, right - x), fs, MUTED, (x, y))
    else:
        y -= line
    for i, c in enumerate(cands):
        y += line
        value = elide(f"{c.value:+.1f}", fs, right - x, bold=i == 0)
        v = draw_text(surf, value, fs, ACCENT if i == 0 else TEXT, (x, y), bold=i == 0)
        ax = v.right + fs // 2
        if right - ax > fs:
            draw_text(surf, elide(action_label(c.action), fs, right - ax), fs, TEXT, (ax, y))


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
