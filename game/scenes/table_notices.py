"""Table notices: where announcements (dealer, trump, failed throws, red fives) go on the
table, clear of every played card, and how they are drawn.

Placement is plain geometry over rects (:func:`_spots`, :func:`_free_spot`,
:func:`_least_covering_spot`); the mixin caches a placement while nothing it depends on
changes.  Mixed into :class:`game.scenes.table_scene.TableScene`.
"""
from __future__ import annotations

from typing import Sequence

import pygame

from game import fonts
from game.i18n import _, current_language
from game.layout import BOTTOM
from game.widgets import ACCENT, TEXT, Toast, draw_panel, draw_text


class TableNotices:
    """Notice placement and drawing of the table scene (see the module docstring)."""

    def _active_notices(self) -> list[Toast]:
        """The announcements shown now (at most two, newest last)."""
        now = self.clock()
        return [t for t in self.toasts if t.notice and t.until > now][-2:]

    def _trick_obstacles(self) -> list[pygame.Rect]:
        """Where played cards lie (or are about to land) on the table, with the room of the
        "Winning"/"Won" label, and the last-trick box when it is open: what notices avoid."""
        lay = self.layout
        out: list[pygame.Rect] = []
        if self.show_last or self.show_buried:
            out.append(self.last_trick_box())
        plays, winner, _done, _last = self._trick_on_table()
        for seat, cards in plays:
            rects = lay.trick_rects(self.pos_of(seat), len(cards))
            if not rects:
                continue
            box = rects[0].unionall(rects).inflate(8, 8)
            if seat == winner:
                label_h = round(lay.small_font * 1.5)
                if not self._label_below(box.inflate(-2, -2)):
                    box.y -= label_h
                box.h += label_h
            out.append(box)
        return out

    def _notice_plan(self, notes: Sequence[Toast], fs: int, ch: int, wrap_w: int | None,
                     stack: bool) -> tuple[int, int, list[tuple]]:
        """Lay out a notice box: ``(width, height, ops)`` for text at ``fs`` px wrapped to
        ``wrap_w`` (None: one line each), cards ``ch`` px high (0: none) and a failed throw's
        two card groups side by side or ``stack``-ed.  ``ops`` are ``("text", line, colour,
        centre y)`` and ``("cards", [(label, colour, cards), ...], top y)``, relative to the box."""
        from game.scenes.rules_screen import wrap

        m = self.layout.margin
        font = fonts.get_font(fs, bold=True)
        line_h = round(fs * 1.5)
        ops: list[tuple] = []
        width = 0
        y = m
        for t in notes:
            for line in (wrap(t.text, font, wrap_w) if wrap_w else [t.text]):
                ops.append(("text", line, t.color, y + line_h // 2))
                width = max(width, font.size(line)[0])
                y += line_h
            if t.cards and ch:
                groups = ([(_("Tried:"), TEXT, tuple(t.tried)), (_("Played:"), ACCENT, tuple(t.cards))] if t.tried
                          else [("", TEXT, tuple(t.cards))])
                for row in ([[g] for g in groups] if stack else [groups]):
                    ops.append(("cards", row, y))
                    width = max(width, self._card_row_width(row, fs, ch))
                    y += ch + m // 2
        return width + 2 * m, y + m // 2, ops

    def _card_row_width(self, row: Sequence[tuple], fs: int, ch: int) -> int:
        """Width of a row of ``(label, colour, cards)`` groups (labels at ``fs``, cards ``ch`` high)."""
        cw = round(ch * 0.7)
        font = fonts.get_font(fs, bold=True)
        w = 0
        for label, _col, cards in row:
            if w:
                w += max(6, fs // 2)
            if label:
                w += font.size(label)[0] + 4
            w += cw + max(0, len(cards) - 1) * round(cw * 0.42)
        return w

    def notice_boxes(self) -> list[tuple[pygame.Rect, int, int, list[Toast]]]:
        """Where the announcements go now: ``[(box, text px, card px, toasts)]`` (empty
        without notices).  The box lies in the trick area, clear of every played card and the
        winner's label (and of the last-trick box), and if it can of the places of seats yet to
        play; it sits as near as possible to the thrower's cards for a failed throw, else to the
        middle.  When it does not fit, its text wraps, a failed throw's card groups stack and
        shrink, the other notices give way, and only as a last resort its cards go."""
        return [p[:4] for p in self._notice_layout()]

    def _notice_layout(self) -> list[tuple]:
        """``[(box, fs, ch, toasts, ops)]`` for :meth:`notice_boxes` and the drawing (cached
        while the notices, the cards on the table and the layout stay the same)."""
        notes = self._active_notices()
        if not notes:
            return []
        lay = self.layout
        obstacles = self._trick_obstacles()
        key = (tuple(id(t) for t in notes), tuple(tuple(o) for o in obstacles), lay.w, lay.h,
               self.view.seat, current_language(), tuple(s for s, _c in self._trick_on_table()[0]))
        cached = self._notice_cache
        if cached is not None and cached[0] == key:
            return cached[1]
        out = [self._place_notices(notes, obstacles)]
        self._notice_cache = (key, out)
        return out

    def _place_notices(self, notes: list[Toast], obstacles: list[pygame.Rect]) -> tuple:
        """Find the first variant of the notice box (see :meth:`notice_boxes`) that fits."""
        lay = self.layout
        ta = lay.trick_area
        thrower = next((t.seat for t in reversed(notes) if t.tried and t.seat is not None), None)
        pref = lay.trick_centers[self.pos_of(thrower)] if thrower is not None else ta.center
        played = {seat for seat, _c in self._trick_on_table()[0]}
        slots = [lay.trick_rects(self.pos_of(seat), 1)[0].inflate(8, 8)
                 for seat in range(lay.seats) if seat not in played]
        # boxes of the HUD reaching into the trick area's corners (the points panel...)
        hud = [r.inflate(4, 4) for r in (lay.info_rect, lay.toolbar, lay.scores_rect, lay.tools_rect, lay.counter_rect,
                                         *lay.plates.values(), *(lay.backs[p] for p in lay.backs if p != BOTTOM))
               if r.colliderect(ta)]
        obstacles = obstacles + hud
        fs = max(lay.min_font, lay.font_size)
        small = max(lay.min_font, fs - 2)
        tiny = lay.min_font
        ch1 = max(24, round(lay.trick_h * 0.55))
        ch2, ch3 = max(22, round(ch1 * 0.75)), max(20, round(ch1 * 0.55))
        half, third = round(ta.w * 0.4), round(ta.w * 0.3)
        key_notes = [t for t in notes if t.cards] or notes[-1:]
        variants = [(notes, fs, ch1, None, False)]
        if key_notes != notes:  # older announcements give way to a failed throw first
            variants += [(key_notes, fs, ch1, None, False)]
        variants += [(key_notes, small, ch2, None, False), (notes, small, ch1, half, False),
                     (key_notes, small, ch2, half, False)]
        good = len(variants)
        variants += [(key_notes, tiny, ch3, None, False), (key_notes, tiny, ch3, half, False),
                     (key_notes, tiny, ch3, third, True), (key_notes, tiny, 0, half, False),
                     (notes[-1:], tiny, 0, third, False)]
        # first the roomier boxes clear of the places still to be played, then any box clear of cards
        passes = [(v, obstacles + slots) for v in variants[:good]] + [(v, obstacles) for v in variants]
        for (group, size, ch, wrap_w, stack), obs in passes:
            ch = ch if any(t.cards for t in group) else 0
            w, h, ops = self._notice_plan(group, size, ch, wrap_w, stack)
            w, h = min(w, ta.w), min(h, ta.h)
            box = _free_spot(ta, (w, h), obs, pref, lay.margin)
            if box is not None:
                return (box, size, ch, list(group), ops)
        # nothing fits anywhere: the smallest box where it covers least
        box = _least_covering_spot(ta, (w, h), obstacles, pref, lay.margin)
        return (box, size, ch, list(group), ops)

    def _draw_notices(self, surf: pygame.Surface) -> None:
        """Announcements in a banner on the table where it hides no played card (see
        :meth:`notice_boxes`), newest at the bottom; a failed throw shows the attempted cards
        and the cards played instead."""
        lay = self.layout
        for box, fs, ch, _notes, ops in self._notice_layout():
            draw_panel(surf, box, color=(0, 0, 0, 170), border=None, radius=6)
            clip = surf.get_clip()
            surf.set_clip(box.clip(clip))
            for op in ops:
                if op[0] == "text":
                    _k, line, color, cy = op
                    draw_text(surf, line, fs, color, (box.centerx, box.y + cy), anchor="center", bold=True,
                              max_width=box.w - 2 * lay.margin)
                else:
                    self._draw_card_row(surf, op[1], box, box.y + op[2], fs, ch)
            surf.set_clip(clip)

    def _draw_card_row(self, surf: pygame.Surface, row: Sequence[tuple], box: pygame.Rect, y: int, fs: int,
                       ch: int) -> None:
        """One row of ``(label, colour, cards)`` groups, centred in ``box`` at ``y``."""
        cw = round(ch * 0.7)
        step = round(cw * 0.42)
        x = box.centerx - self._card_row_width(row, fs, ch) // 2
        first = True
        for label, color, cards in row:
            if not first:
                x += max(6, fs // 2)
            first = False
            if label:
                x = draw_text(surf, label, fs, color, (x, y + ch // 2), anchor="midleft", bold=True).right + 4
            for i, c in enumerate(cards):
                surf.blit(self.renderer.face(c, cw, ch), (x + i * step, y))
            x += cw + max(0, len(cards) - 1) * step


def _spots(area: pygame.Rect, size: tuple[int, int], obstacles: Sequence[pygame.Rect], pref: tuple[int, int],
           gap: int) -> list[pygame.Rect]:
    """Candidate places for a ``size`` box inside ``area``, nearest to ``pref`` first: centred
    on ``pref``, and flush with an edge of the area or ``gap`` px beside an obstacle, on both
    axes."""
    w, h = min(size[0], area.w), min(size[1], area.h)
    xs = {pref[0] - w // 2, area.x, area.right - w}
    ys = {pref[1] - h // 2, area.y, area.bottom - h}
    for o in obstacles:
        xs.update((o.right + gap, o.x - gap - w))
        ys.update((o.bottom + gap, o.y - gap - h))
    xs = {min(max(x, area.x), area.right - w) for x in xs}
    ys = {min(max(y, area.y), area.bottom - h) for y in ys}
    boxes = [pygame.Rect(x, y, w, h) for x in xs for y in ys]
    boxes.sort(key=lambda b: (b.centerx - pref[0]) ** 2 + (b.centery - pref[1]) ** 2)
    return boxes


def _free_spot(area: pygame.Rect, size: tuple[int, int], obstacles: Sequence[pygame.Rect],
               pref: tuple[int, int], gap: int) -> pygame.Rect | None:
    """The place for a ``size`` box inside ``area`` touching none of ``obstacles``, nearest to
    ``pref`` (see :func:`_spots`); None when there is none."""
    for box in _spots(area, size, obstacles, pref, gap):
        if box.collidelist(obstacles) < 0:
            return box
    return None


def _least_covering_spot(area: pygame.Rect, size: tuple[int, int], obstacles: Sequence[pygame.Rect],
                         pref: tuple[int, int], gap: int) -> pygame.Rect:
    """The place for a ``size`` box inside ``area`` covering the least of ``obstacles`` (px²),
    nearest to ``pref`` among equals."""
    def covered(box: pygame.Rect) -> int:
        return sum(box.clip(o).w * box.clip(o).h for o in obstacles)

    return min(_spots(area, size, obstacles, pref, gap), key=covered)  # stable: nearest first among equals
