"""Screen geometry: where everything goes for a window of any size (800×480 and up).

Pure arithmetic on ``pygame.Rect``; no drawing.  Positions are relative to the local seat
and count counter-clockwise round the table: position 0 (``BOTTOM``) is the local player (or
seat 0 for an observer), position 1 the next seat (下家), and so on up to ``seats - 1``, the
previous seat (上家).  Each position sits on a *side* of the table (:func:`seat_sides`): the
bottom, the right, the top or the left.  Four seats (红五, RULES.md §1) give ``BOTTOM``,
``RIGHT``, ``TOP`` and ``LEFT``; five seats (找朋友) give the bottom, the right, two at the top
(right one first) and the left.

Every rectangle a layout hands out lies inside ``Layout.screen`` (tests check this from
800×480 to 3840×2160); the client builds a new layout on every resize.
"""
from __future__ import annotations

import math

import pygame

from engine.ruleset import hongwu
from game.cards_render import index_metrics

#: seats at the table when a caller names none: the Hong Wu ruleset's (RULES.md §1)
DEFAULT_SEATS = hongwu().players
#: the positions of a table of :data:`DEFAULT_SEATS` seats, counter-clockwise from the bottom
POSITIONS = tuple(range(DEFAULT_SEATS))
BOTTOM, RIGHT, TOP, LEFT = POSITIONS
#: the sides of the table a position can sit on
SIDES = ("bottom", "right", "top", "left")
MIN_SIZE = (800, 480)


def position_of(seat: int, local_seat: int | None, seats: int = DEFAULT_SEATS) -> int:
    """Screen position (0 = ``BOTTOM`` .. ``seats - 1``, counter-clockwise) of ``seat`` seen
    from ``local_seat`` (None = 0) at a table of ``seats`` seats."""
    return (seat - (local_seat or 0)) % seats


def seat_at(position: int, local_seat: int | None, seats: int = DEFAULT_SEATS) -> int:
    """The seat shown at screen ``position`` seen from ``local_seat`` (None = 0)."""
    return (position + (local_seat or 0)) % seats


def seat_sides(seats: int) -> tuple[str, ...]:
    """The side of the table (one of :data:`SIDES`) of each position 0..``seats - 1``.

    Position 0 is at the bottom; going counter-clockwise, one seat on the right, the rest
    along the top (right to left), one on the left: 3 seats -> bottom, right, left; 4 ->
    bottom, right, top, left; 5 -> bottom, right, top, top, left.  Raises ValueError for
    fewer than 3 seats or more than 5 (more do not fit an 800×480 window).
    """
    if not 3 <= seats <= 5:
        raise ValueError(f"the client lays out tables of 3 to 5 seats, not {seats!r}")
    return ("bottom", "right") + ("top",) * (seats - 3) + ("left",)


class Layout:
    """Geometry for a ``w``×``h`` window and hands of up to ``max_hand`` cards.

    Attributes (all ``pygame.Rect`` unless noted): ``screen``; ``margin`` (px);
    ``card_w``/``card_h`` hand card size; ``raise_px`` how far a selected card rises;
    ``two_rows`` (bool) whether a full hand is split over two rows; ``row_offset`` (px) how
    far the front row sits below the back row; ``index_w``/``index_h`` the rank-and-suit
    corner of a hand card, always left visible; ``min_font`` the smallest readable label
    size (px); ``note_w`` the narrowest note beside a plate (an X-ray panel, px); ``trick_w``/``trick_h``
    played-card size; ``back_w``/``back_h`` opponents' card backs; ``hand_area``;
    ``action_bar`` (buttons for the current phase); ``message_rect``; ``info_rect`` (trump,
    dealer, bid); ``toolbar`` (language/sound/speed buttons); ``scores_rect`` (the live points
    panel); ``tools_rect`` (last trick / auto-play buttons); ``counter_rect`` (card counter);
    ``arc_px`` (int, how far the middle of a one-row hand is lifted); ``overlay`` (settlement);
    ``trick_area``; ``plates[pos]`` name plates; ``backs[pos]`` opponents' card stacks;
    ``trick_centers[pos]`` (x, y) tuples.

    Seats: ``seats`` (int, from the ruleset: ``RuleSet.players``), ``positions`` (0..seats-1,
    counter-clockwise from the bottom), ``sides[pos]`` (see :func:`seat_sides`), ``tops`` (the
    positions along the top, right to left).  ``plates``, ``backs`` and ``trick_centers``
    have one entry per position; :meth:`trick_rects` and :meth:`back_rects` take a position.
    With more than one seat at the top each gets an equal share of the top band (its card
    backs beside its plate, or under it when the band is short of room) and of the trick
    area's top row (``trick_lanes[pos]``: its ``(left, right)`` x span).  Raises ValueError
    for a seat count :func:`seat_sides` refuses.
    """

    def __init__(self, w: int, h: int, max_hand: int = 33, seats: int = DEFAULT_SEATS) -> None:
        w, h = max(int(w), 1), max(int(h), 1)
        self.w, self.h = w, h
        self.screen = pygame.Rect(0, 0, w, h)
        self.unit = u = min(w / 1280, h / 720)
        self.margin = m = max(5, round(8 * u))
        self.font_size = max(16, round(20 * u))
        self.small_font = max(14, round(16 * u))
        self.max_hand = max_hand
        self.seats = seats
        self.sides = sides = seat_sides(seats)
        self.positions = tuple(range(seats))
        self.tops = tops = [p for p in self.positions if sides[p] == "top"]
        right_pos = sides.index("right")
        left_pos = sides.index("left")

        #: smallest font (px) a label may shrink to and stay readable (toolbar, helper buttons)
        self.min_font = max(14, round(15 * u))
        #: narrowest note beside a plate (px): an X-ray panel's value and a pair's cards at ``min_font``
        self.note_w = round(self.min_font * 8)

        # -- hand cards ------------------------------------------------------------------
        card_h = round(min(h * 0.205, w * 0.16, h * 0.19 + max(0, h - 480) * 0.06))
        card_w = round(card_h * 0.70)
        avail = w - 2 * m
        spacing = (avail - card_w) / max(1, max_hand - 1)
        self.two_rows = spacing < self._min_step(card_w)
        if self.two_rows:
            card_h = round(card_h * 0.82)
            card_w = round(card_h * 0.70)
        self.card_w, self.card_h = card_w, card_h
        #: the rank-and-suit index of a hand card (px from its top-left corner): what stays visible
        self.index_w, self.index_h = index_metrics(card_w)
        self.raise_px = round(card_h * 0.2)
        # the back row shows its cards' whole index (rank and suit pip) above the front row
        self.row_offset = max(round(card_h * 0.42), self.index_h + max(2, m // 2)) if self.two_rows else 0
        # a single row is fanned along a gentle arc (the middle cards sit higher)
        self.arc_px = 0 if self.two_rows else round(card_h * 0.07)
        hand_h = self.raise_px + self.arc_px + card_h + self.row_offset
        self.hand_area = pygame.Rect(m, h - m - hand_h, w - 2 * m, hand_h)

        # -- bars above the hand -----------------------------------------------------------
        self.button_h = max(40, round(42 * u))
        side = m + max(150, round(200 * u)) + m  # room for the local name plate on the left
        self.action_bar = pygame.Rect(side, self.hand_area.y - m - self.button_h, w - 2 * side, self.button_h)
        msg_h = max(24, round(28 * u))
        self.message_rect = pygame.Rect(side, self.action_bar.y - msg_h - m // 2, w - 2 * side, msg_h)

        # -- opponents -----------------------------------------------------------------------
        self.back_h = max(30, round(card_h * 0.5))
        self.back_w = round(self.back_h * 0.7)
        plate_w = max(150, round(200 * u))
        plate_h = max(46, round(52 * u))
        self.plate_w, self.plate_h = plate_w, plate_h
        top_y = m
        self.backs: dict[int, pygame.Rect] = {}
        self.plates: dict[int, pygame.Rect] = {}
        stack_w = self.back_w + 4 * max(3, round(self.back_w * 0.18))
        tb_h = max(40, round(40 * u))
        tb_w = max(280, round(300 * u))  # room for readable labels at 800×480 too
        info_w = max(190, round(260 * u))
        top_h = self._place_tops(tops, top_y, stack_w, info_w, tb_w)
        band_top = top_y + top_h + m
        band_bottom = self.message_rect.y - m // 2
        mid = (band_top + band_bottom) // 2
        side_h = self.back_h + m // 2 + plate_h
        # the points panel (top right, under the toolbar) shows a title and a line per seat
        # (a line of text is about 1.35 times the font size tall with the CJK font)
        rows_h = (seats + 1) * max(self.small_font + 4, round(self.small_font * 1.35)) + 2 * m
        scores_h = max(plate_h, round(118 * u), rows_h)
        scores_bottom = m + tb_h + m // 2 + scores_h
        for pos, x in ((left_pos, m), (right_pos, w - m - plate_w)):
            # the left seat right under the info panel (room for the helper buttons below it)
            top = (min(mid - side_h // 2, max(band_top, 2 * m + max(plate_h, round(118 * u)))) if pos == left_pos
                   else max(mid - side_h // 2, scores_bottom + m))
            plate = pygame.Rect(x, top + self.back_h + m // 2, plate_w, plate_h)
            backs = pygame.Rect(0, top, stack_w, self.back_h)
            if pos == left_pos:
                backs.x = x
            else:
                backs.right = w - m
            self.plates[pos] = plate
            self.backs[pos] = backs
        # local plate: left of the action bar
        self.plates[BOTTOM] = pygame.Rect(m, self.action_bar.y - plate_h + self.button_h, plate_w, plate_h)
        self.plates[BOTTOM].bottom = self.action_bar.bottom
        self.backs[BOTTOM] = pygame.Rect(self.hand_area.x, self.hand_area.y, 0, 0)

        # -- info / toolbar (corners of the top band) ----------------------------------------
        info_h = max(self.backs[left_pos].y - m - m, plate_h)
        info_h = min(info_h, max(plate_h, round(118 * u)))
        self.info_rect = pygame.Rect(m, m, info_w, info_h)
        self.toolbar = pygame.Rect(w - m - tb_w, m, tb_w, tb_h)
        self.scores_rect = pygame.Rect(w - m - tb_w, self.toolbar.bottom + m // 2, tb_w, scores_h)

        # -- helper buttons under the left-hand seat; card counter under the right-hand one ------
        free_top, free_bottom = self.plates[left_pos].bottom + m, self.plates[BOTTOM].y - m
        # one row of buttons, or two (the first button alone on top) when there is the room
        tools_h = 2 * tb_h + max(3, m // 2) if free_bottom - free_top >= 2 * tb_h + max(3, m // 2) else tb_h
        self.tools_rect = pygame.Rect(m, max(free_top, (free_top + free_bottom - tools_h) // 2), plate_w, tools_h)
        col_x = w - m - plate_w
        col_top = self.plates[right_pos].bottom + m
        self.counter_rect = pygame.Rect(col_x, col_top, plate_w,
                                        max(plate_h, self.action_bar.bottom - col_top))

        # -- trick area ------------------------------------------------------------------------
        left_edge = max(self.plates[left_pos].right, self.backs[left_pos].right, self.tools_rect.right) + m
        right_edge = min(self.plates[right_pos].x, self.backs[right_pos].x) - m
        self.trick_area = pygame.Rect(left_edge, band_top, right_edge - left_edge, band_bottom - band_top)
        ta = self.trick_area
        th = min(round(card_h * 0.8), (ta.h - 2 * m) // 2 - round(self.small_font * 0.2), round(ta.h * 0.27))
        th = max(th, 36)
        self.trick_h, self.trick_w = th, round(th * 0.70)
        cx, cy = ta.centerx, ta.centery
        dy = ta.h // 2 - th // 2 - m // 2
        dx = min(ta.w // 2 - self.trick_w * 2, round(self.trick_w * 2.6))
        at = {"bottom": (cx, cy + dy), "top": (cx, cy - dy), "right": (cx + dx, cy), "left": (cx - dx, cy)}
        self.trick_centers = {pos: at[side] for pos, side in enumerate(sides)}
        #: several seats at the top: each plays into an equal share of the top row, right to left
        self.trick_lanes: dict[int, tuple[int, int]] = {}
        if len(tops) > 1:
            # the row between the panels that reach down into the trick area's top corners
            row = pygame.Rect(ta.x, cy - dy - th // 2, ta.w, th)
            lo = max([ta.x + m] + [r.right + m for r in (self.info_rect, self.tools_rect) if r.colliderect(row)])
            hi = min([ta.right - m] + [r.x - m for r in (self.scores_rect, self.toolbar) if r.colliderect(row)])
            lane = (hi - lo) / len(tops)
            for i, pos in enumerate(tops):
                right, left = round(hi - i * lane), round(hi - (i + 1) * lane)
                self.trick_lanes[pos] = (left, right)
                self.trick_centers[pos] = ((left + right) // 2, cy - dy)

        # -- overlay (settlement) ----------------------------------------------------------------
        ow = min(w - 2 * m, max(760, round(w * 0.62)))
        oh = h - 2 * m
        oh = min(oh, max(460, round(h * 0.86)))
        self.overlay = pygame.Rect(0, 0, ow, oh)
        self.overlay.center = self.screen.center

    def _place_tops(self, tops: list[int], top_y: int, stack_w: int, info_w: int, tb_w: int) -> int:
        """Place the plates and card backs of the seats at the top (``tops``, right to left);
        returns the height of the top band they take (px).

        One seat: its backs then its plate, centred.  Several: equal shares of the band
        between the info panel and the toolbar, each with its backs beside the plate when
        they fit with room left there for a note of ``note_w`` over the backs (an X-ray panel,
        :mod:`game.scenes.xray`), else under it (a panel then goes under the plate)."""
        m, w = self.margin, self.w
        plate_w, plate_h = self.plate_w, self.plate_h
        if len(tops) == 1:
            pos = tops[0]
            self.backs[pos] = pygame.Rect(0, top_y, stack_w, self.back_h)
            self.backs[pos].centerx = w // 2 - plate_w // 2 - m
            self.plates[pos] = pygame.Rect(self.backs[pos].right + m, top_y, plate_w, plate_h)
            return max(self.back_h, plate_h)
        lo, hi = m + info_w + m, w - m - tb_w - m
        cell = (hi - lo) / max(1, len(tops))
        beside = stack_w + m + plate_w
        # beside: the room left of a plate (up to the info panel or the next plate; a note keeps
        # a gap of max(2, m // 4) to its plate) must hold a note over the backs
        side_by_side = cell >= beside + m and (cell - beside) / 2 + stack_w + 2 * m - max(2, m // 4) > self.note_w
        for i, pos in enumerate(tops):
            cx = round(hi - cell * (i + 0.5))
            if side_by_side:
                backs = pygame.Rect(cx - beside // 2, top_y, stack_w, self.back_h)
                plate = pygame.Rect(backs.right + m, top_y, plate_w, plate_h)
            else:
                plate = pygame.Rect(cx - plate_w // 2, top_y, plate_w, plate_h)
                backs = pygame.Rect(plate.x, plate.bottom + m // 2, stack_w, self.back_h)
            self.plates[pos], self.backs[pos] = plate, backs
        return max(self.back_h, plate_h) if side_by_side else plate_h + m // 2 + self.back_h

    @staticmethod
    def _min_step(card_w: int) -> float:
        """Smallest horizontal step between overlapping hand cards that leaves each card's
        rank and suit readable."""
        return max(0.33 * card_w, index_metrics(card_w)[0])

    # -- hand ------------------------------------------------------------------------------------
    def hand_rects(self, n: int, span: tuple[int, int] | None = None) -> list[pygame.Rect]:
        """Rects of ``n`` hand cards in display order (unraised), centred in ``hand_area`` (or
        in its part between x = ``span[0]`` and ``span[1]`` px, e.g. an observer's view of the
        bottom seat's card backs beside an X-ray panel, :func:`game.scenes.xray.backs_span`).

        A single row is fanned: card ``i`` is lifted by up to ``arc_px`` along a parabola, so
        the middle of the hand sits highest.  With ``two_rows`` and too many cards for one row, the first ceil(n/2) cards form the back
        row and the rest the front row (drawn later, lower); a single row sits low.  Later rects overlap earlier ones;
        hit-test from the end.
        """
        if n <= 0:
            return []
        left, right = span if span is not None else (self.hand_area.x, self.hand_area.right)
        avail = max(self.card_w, right - left)
        rows = [n]
        if self.two_rows and (avail - self.card_w) / max(1, n - 1) < self._min_step(self.card_w):
            rows = [math.ceil(n / 2), n // 2]
        rects: list[pygame.Rect] = []
        base_y = self.hand_area.y + self.raise_px + self.arc_px
        for r, count in enumerate(rows):
            spacing = min(self.card_w * 0.62, (avail - self.card_w) / max(1, count - 1)) if count > 1 else 0
            total = self.card_w + spacing * (count - 1)
            x0 = left + (avail - total) / 2
            y = base_y + r * self.row_offset
            if len(rows) == 1 and self.two_rows:
                y = base_y + self.row_offset
            mid = (count - 1) / 2
            for i in range(count):
                lift = 0
                if self.arc_px and count > 2:
                    d = (i - mid) / mid
                    lift = round(self.arc_px * (1 - d * d))
                rects.append(pygame.Rect(round(x0 + i * spacing), y - lift, self.card_w, self.card_h))
        return rects

    def trick_rects(self, pos: int, n: int) -> list[pygame.Rect]:
        """Rects of ``n`` played cards for the seat at screen ``pos``, fanned around its centre."""
        if n <= 0:
            return []
        cx, cy = self.trick_centers[pos]
        side = self.sides[pos]
        lane = self.trick_lanes.get(pos)
        spacing = round(self.trick_w * 0.3)
        max_total = (self.trick_area.w // 2 if side in ("left", "right") else
                     lane[1] - lane[0] - self.margin if lane else self.trick_area.w - 2 * self.margin)
        if n > 1:
            spacing = min(spacing, (max_total - self.trick_w) // (n - 1))
        total = self.trick_w + spacing * (n - 1)
        x0 = cx - total // 2
        if side == "left":
            x0 = max(x0, self.trick_area.x)
        elif side == "right":
            x0 = min(x0, self.trick_area.right - total)
        elif lane:
            x0 = max(lane[0], min(x0, lane[1] - total))
        y = cy - self.trick_h // 2
        if side in ("left", "right"):
            y = self._clear_of_corners(x0, y, total)
        return [pygame.Rect(x0 + i * spacing, y, self.trick_w, self.trick_h) for i in range(n)]

    def _clear_of_corners(self, x: int, y: int, w: int) -> int:
        """The top of a side seat's played cards at ``x``..``x + w`` that keeps them (and the
        winner's frame, 3 px around) off the panels reaching into the trick area's corners (the
        points panel, the toolbar, the info box, the helper buttons, the card counter): moved
        down below such a panel above the middle, or up above one below it, within the trick
        area."""
        frame = pygame.Rect(x - 3, y - 3, w + 6, self.trick_h + 6)
        ta = self.trick_area
        for r in (self.scores_rect, self.toolbar, self.info_rect, self.tools_rect, self.counter_rect):
            if not frame.colliderect(r):
                continue
            if r.centery < frame.centery:
                frame.y = min(r.bottom + 2, ta.bottom - frame.h)
            else:
                frame.bottom = max(r.y - 2, ta.y + frame.h)
        return frame.y + 3

    def back_rects(self, pos: int, n: int) -> list[pygame.Rect]:
        """Up to five overlapping card-back rects showing an opponent's hand at ``pos``."""
        box = self.backs[pos]
        k = min(5, n)
        if k <= 0:
            return []
        step = max(3, round(self.back_w * 0.18))
        return [pygame.Rect(box.x + i * step, box.y, self.back_w, self.back_h) for i in range(k)]

    def button_row(self, widths: list[int], area: pygame.Rect | None = None, gap: int | None = None) -> list[pygame.Rect]:
        """Rects for buttons of the given widths, centred in a row in ``area`` (default the
        action bar), shrunk proportionally if they would not fit."""
        area = area or self.action_bar
        gap = self.margin if gap is None else gap
        total = sum(widths) + gap * (len(widths) - 1)
        scale = min(1.0, (area.w - 2 * gap) / total) if total > 0 else 1.0
        widths = [max(20, int(wd * scale)) for wd in widths]
        total = sum(widths) + gap * (len(widths) - 1)
        x = area.centerx - total // 2
        out = []
        for wd in widths:
            out.append(pygame.Rect(x, area.y, wd, min(area.h, self.button_h)))
            x += wd + gap
        return out

    def all_rects(self) -> dict[str, pygame.Rect]:
        """Every fixed rectangle by name (for tests and debugging)."""
        out = {
            "hand_area": self.hand_area, "action_bar": self.action_bar, "message": self.message_rect,
            "info": self.info_rect, "toolbar": self.toolbar, "scores": self.scores_rect,
            "trick_area": self.trick_area, "overlay": self.overlay, "tools": self.tools_rect,
            "counter": self.counter_rect,
        }
        for pos in self.positions:
            out[f"plate{pos}"] = self.plates[pos]
            if pos != BOTTOM:
                out[f"backs{pos}"] = self.backs[pos]
            for i, r in enumerate(self.trick_rects(pos, 12)):
                out[f"trick{pos}_{i}"] = r
        for i, r in enumerate(self.hand_rects(self.max_hand)):
            out[f"hand{i}"] = r
            out[f"hand{i}_raised"] = r.move(0, -self.raise_px)
        return out
