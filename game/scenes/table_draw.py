"""Table drawing: the cached static layer, its components and the sprites over it.

The static layer is redrawn only where damaged (:meth:`TableDraw.frame`); each component
(info, points, plates, backs, trick area, message line, hand) draws into the clip it is
given.  Geometry comes from :class:`game.layout.Layout`.  Mixed into
:class:`game.scenes.table_scene.TableScene`.
"""
from __future__ import annotations

from typing import Callable

import pygame

from game import fonts
from game.i18n import _
from game.layout import BOTTOM
from game.render_backend import Frame, SoftwareBackend, _merge
from game.scenes import hud, zpy_hud
from game.scenes import table_extras as extras
from game.text import seat_name
from game.widgets import ACCENT, TEXT, draw_panel, draw_text


def v_phase(view) -> str:
    """The view's phase name (``"play"``, ``"call_friend"``...)."""
    return view.phase.value


class TableDraw:
    """Drawing of the table scene (see the module docstring)."""

    # -- drawing --------------------------------------------------------------------------------------
    def frame(self) -> Frame:
        """The static layer (redrawn where damaged), its damage since the last frame, and the
        sprites of ``now`` — for :meth:`game.render_backend.Backend.present_frame`."""
        now = self.clock()
        size = (self.layout.w, self.layout.h)
        if self._static is None or self._static.get_size() != size:
            self._static = self._new_static(size)
            self._damage = None
        if self._damage is None or self._damage:
            drawn = self._render_static(self._damage)
            self._damage = []
            if drawn is None or self._out_damage is None:
                self._out_damage = None
            else:
                self._out_damage.extend(drawn)
        damage, self._out_damage = self._out_damage, []
        self._frames_made += 1
        return Frame(self._static, damage, self._sprites(now), source=self)

    def draw(self, screen: pygame.Surface) -> list[pygame.Rect]:
        """Draw a frame on ``screen`` (any surface); returns the rects that changed."""
        if (self.layout.w, self.layout.h) != screen.get_size():
            self.resize(*screen.get_size())
        if self._compat is None or self._compat.surface is not screen:
            self._compat = SoftwareBackend(screen, update_display=False)
        elif self._compat_seq != self._frames_made:  # frames went to another backend meanwhile
            self._compat.expose()
        rects = self._compat.present_frame(self.frame())
        self._compat_seq = self._frames_made
        return rects

    @staticmethod
    def _new_static(size: tuple[int, int]) -> pygame.Surface:
        surf = pygame.Surface(size)
        if pygame.display.get_init() and pygame.display.get_surface() is not None:
            surf = surf.convert()
        return surf

    def _sprites(self, now: float) -> list[tuple]:
        out: list[tuple] = []
        if self._dealing:
            lay = self.layout
            back = self.renderer.back(lay.back_w, lay.back_h)
            r = back.get_rect(center=lay.trick_area.center)
            for i in range(3):
                out.append((back, (r.x - 2 * i, r.y - 2 * i), None))
        out.extend(self.timeline.sprites(now))
        if out and self._static is not None:  # notices stay above flying cards: their pixels on top
            bounds = self._static.get_rect()
            for box, *_rest in self._notice_layout():
                box = box.clip(bounds)
                if box and any(pygame.Rect(pos, img.get_size()).colliderect(box) for img, pos, _a in out):
                    key = (self._notice_cache[0] if self._notice_cache else None, tuple(box))
                    if self._notice_sprite is None or self._notice_sprite[0] != key:
                        self._notice_sprite = (key, self._static.subsurface(box).copy())
                    out.append((self._notice_sprite[1], box.topleft, None))
        if out:
            self._chat_over_sprites(out)
        return out

    def _components(self) -> list[tuple[pygame.Rect, Callable[[pygame.Surface], None]]]:
        lay = self.layout
        v = self.view
        zpy = self.zpy
        h = zpy_hud if zpy else hud
        comps: list[tuple[pygame.Rect, Callable]] = [
            (lay.info_rect, lambda s: h.draw_info(s, lay, v, self.names, getattr(self.table, "hand_no", v.hand_no))),
            (lay.scores_rect, lambda s: h.draw_points(s, lay, v, self.names, self.points_shown, self.totals)),
        ]
        if not zpy and (v.phase.value in ("trump", "bury", "play", "settle") or v.tricks):
            comps.append((lay.counter_rect, self._draw_counter))
        xr = []
        if getattr(self, "xray", False):  # X-ray 透视 panels beside the AI plates (game.scenes.xray)
            from game.scenes import xray

            xr = xray.panels(lay, v, self.table)
        hidden = {self.pos_of(seat) for seat, rect, _c in xr if xray.covers_backs(lay, rect, self.pos_of(seat))}
        for seat in range(lay.seats):
            pos = self.pos_of(seat)
            comps.append((lay.plates[pos], lambda s, seat=seat: self._draw_plate(s, seat)))
            if pos != BOTTOM and pos not in hidden:  # a panel in their place: the plate has the count
                comps.append((lay.backs[pos], lambda s, seat=seat: self._draw_backs(s, seat)))
        comps.append((self.trick_region(), self._draw_trick_area))
        comps.append((lay.message_rect, self._draw_message))
        # watching: the bottom seat's card backs keep clear of its X-ray panel (xray.backs_span)
        bottom = next((rect for seat, rect, _c in xr if self.pos_of(seat) == BOTTOM), None)
        comps.append((lay.hand_area, lambda s, p=bottom: self._draw_hand(s, p)))
        for seat, rect, cands in xr:
            comps.append((rect, lambda s, r=rect, c=cands, t=v.to_act == seat: xray.draw_panel_for(s, lay, r, c, t)))
        return comps

    def trick_region(self) -> pygame.Rect:
        """The part of the screen the trick component draws on: the trick area plus room
        for the "Winning"/"Won" labels above the top seat's cards."""
        lay = self.layout
        return lay.trick_area.inflate(lay.margin * 2, lay.small_font * 4).clip(lay.screen)

    def _render_static(self, damage: list[pygame.Rect] | None) -> list[pygame.Rect] | None:
        """Redraw the damaged parts of the static layer; returns the rects redrawn (None: all)."""
        surf = self._static
        assert surf is not None
        bounds = surf.get_rect()
        rects = [bounds] if damage is None else _merge(list(damage), bounds)
        if rects and sum(r.w * r.h for r in rects) > bounds.w * bounds.h * 0.6:
            rects, damage = [bounds], None
        self.buttons = self._build_buttons()
        comps = self._components()
        overlay = self.show_settlement
        for clip in rects:
            surf.set_clip(clip)
            surf.blit(self._felt, clip, clip)
            for rect, fn in comps:
                if rect.colliderect(clip):
                    fn(surf)
            for b in self.buttons:
                if b.key not in ("next", "review") and b.rect.colliderect(clip):
                    b.draw(surf, self.layout.font_size)
            if overlay and self.layout.overlay.colliderect(clip):
                sp = self.panels["settle"]
                sp.draw(surf, self.view)
                for b in self.buttons:
                    if b.key in ("next", "review"):
                        b.draw(surf, self.layout.font_size)
            self._draw_chat(surf, clip)
        surf.set_clip(None)
        return None if damage is None else rects

    def _draw_plate(self, surf: pygame.Surface, seat: int) -> None:
        v = self.view
        cd = self.countdown
        (zpy_hud if self.zpy else hud).draw_plate(surf, self.layout, v, seat, self.names, self._deal_count(seat),
                       points=self.points_shown[seat], auto=self.auto and seat == v.seat,
                       winning=seat == self.winning_seat,
                       countdown=cd[1] if cd is not None and cd[0] == seat else None,
                       title=self._seat_title(seat))

    def _seat_title(self, seat: int) -> str:
        """The seat's title 等级 for its plate (``self.titles``: a callable the app sets; "")."""
        titles = getattr(self, "titles", None)
        try:
            shown = titles() if callable(titles) else titles or ()
            return str(shown[seat]) if seat < len(shown) and shown[seat] else ""
        except Exception:  # decoration: never break the table
            return ""

    def _draw_backs(self, surf: pygame.Surface, seat: int) -> None:
        lay = self.layout
        pos = self.pos_of(seat)
        count = self._deal_count(seat)
        count = self.view.hand_sizes[seat] if count is None else count
        back = self.renderer.back(lay.back_w, lay.back_h)
        for r in lay.back_rects(pos, count):
            surf.blit(back, r)

    def _draw_counter(self, surf: pygame.Surface) -> None:
        from game.helpers import card_counter

        hud.draw_counter(surf, self.layout, card_counter(self.view))

    def _draw_hand(self, surf: pygame.Surface, panel: pygame.Rect | None = None) -> None:
        """The local hand; for an observer the bottom seat's card backs instead, beside that
        seat's X-ray ``panel`` when there is one (:func:`game.scenes.xray.backs_span`)."""
        lay = self.layout
        v = self.view
        if v.seat is None:  # observer: the bottom seat's backs in the hand area
            from game.scenes.xray import backs_span

            count = self._deal_count(0)
            count = v.hand_sizes[0] if count is None else count
            rects = lay.hand_rects(count, backs_span(lay, panel))
            back = self.renderer.back(lay.card_w, lay.card_h)
            for r in rects[: min(len(rects), 40)]:
                surf.blit(back, r)
            return
        self.hand.draw(surf, lay, self.renderer)

    def _draw_trick_area(self, surf: pygame.Surface) -> None:
        if self.show_buried:
            extras.draw_buried(surf, self)
        elif self.show_last:
            self._draw_last_trick(surf)
        else:
            self._draw_trick(surf)
        if self.zpy and v_phase(self.view) == "call_friend" and not self.show_settlement:
            self.panel.draw(surf, self.view)
        self._draw_notices(surf)

    def _draw_trick(self, surf: pygame.Surface) -> None:
        v = self.view
        lay = self.layout
        plays, winner, done, last = self._trick_on_table()
        trick_no = last.trick_no if last is not None else v.trick_no
        flying = {f.key[1] for f in self.flights if f.key[0] == "play" and f.key[2] == trick_no}
        for seat, cards in plays:
            if seat in flying:
                continue
            pos = self.pos_of(seat)
            rects = lay.trick_rects(pos, len(cards))
            for c, r in zip(cards, rects):
                surf.blit(self.renderer.face(c, lay.trick_w, lay.trick_h), r)
            if seat == winner and rects:
                box = rects[0].unionall(rects).inflate(6, 6)
                pygame.draw.rect(surf, ACCENT, box, width=3, border_radius=8)
                label = _("Won") if done else _("Winning")
                if done and last is not None and last.points:
                    label += f" +{last.points}"
                if self._label_below(box, label):
                    draw_text(surf, label, lay.small_font, ACCENT, (box.centerx, box.bottom + 2), anchor="midtop",
                              bold=True)
                else:
                    draw_text(surf, label, lay.small_font, ACCENT, (box.centerx, box.y - 2), anchor="midbottom",
                              bold=True)

    def _label_below(self, box: pygame.Rect, label: str = "") -> bool:
        """True when the "Winning"/"Won" ``label`` of the cards in ``box`` goes under them:
        above them it would run into the top seat's name plate or cards, the points panel, the
        buttons or an X-ray panel there."""
        lay = self.layout
        h = round(lay.small_font * 1.5)
        w = max(box.w, fonts.get_font(lay.small_font, bold=True).size(label)[0] if label else 0)
        above = pygame.Rect(box.centerx - w // 2, box.y - 2 - h, w, h)
        if above.y < 0 or any(above.colliderect(lay.plates[p]) or above.colliderect(lay.backs[p]) for p in lay.tops):
            return True
        if above.colliderect(lay.scores_rect) or above.colliderect(lay.tools_rect):
            return True
        if getattr(self, "xray", False):
            from game.scenes import xray

            return any(above.colliderect(r) for _s, r, _c in xray.panels(lay, self.view, self.table))
        return False

    def last_trick_box(self) -> pygame.Rect:
        """Where the last-trick view is drawn: the middle of the trick area, inside it."""
        lay = self.layout
        ta = lay.trick_area
        box = pygame.Rect(0, 0, min(ta.w, round(lay.trick_w * 7.5)), min(ta.h, round(lay.trick_h * 2.9)))
        box.center = ta.center
        for hud_rect in (lay.scores_rect, lay.tools_rect):  # never over the points panel or the buttons
            r = hud_rect.inflate(lay.margin * 2, lay.margin * 2)
            if box.colliderect(r):  # below or above it, or narrower: whichever leaves more room
                half = max(0, r.x - box.centerx if r.centerx > box.centerx else box.centerx - r.right)
                box = max((pygame.Rect(box.x, r.bottom, box.w, max(0, box.bottom - r.bottom)),
                           pygame.Rect(box.x, box.y, box.w, max(0, r.y - box.y)),
                           pygame.Rect(box.centerx - half, box.y, 2 * half, box.h)), key=lambda c: c.w * c.h)
        return box

    def _draw_last_trick(self, surf: pygame.Surface) -> None:
        """The previous trick (上一轮) in a box over the table: each play towards its seat,
        in smaller cards, the winner edged, with a title line."""
        v = self.view
        lay = self.layout
        last = v.last_trick
        box = self.last_trick_box()
        m = lay.margin
        draw_panel(surf, box, color=(6, 26, 18, 235), border=(120, 220, 255), radius=12)
        if last is None:
            draw_text(surf, _("No trick has been played yet"), lay.font_size, TEXT, box.center, anchor="center",
                      max_width=box.w - 2 * m)
            return
        title = _("Last trick (trick {n}): {name} won {p} points").format(
            n=last.trick_no, name=seat_name(last.winner, v.seat, self.names), p=last.points)
        lines = [title]
        if fonts.fit_size(title, lay.small_font, box.w - 2 * m, bold=True) < lay.min_font:  # two lines
            cut = max(title.find(": "), title.find("："))
            if cut > 0:
                lines = [title[:cut + 1].strip(), title[cut + 1:].strip()]
        t = pygame.Rect(box.centerx, box.y + m // 2, 0, 0)
        for line in lines:
            t = draw_text(surf, line, lay.small_font, (150, 230, 255), (box.centerx, t.bottom), anchor="midtop",
                          bold=True, max_width=box.w - 2 * m)
        inner = pygame.Rect(box.x + m, t.bottom + m // 2, box.w - 2 * m, box.bottom - m - t.bottom - m // 2)
        ch = max(24, min(round(lay.trick_h * 0.72), inner.h // 2 - 2))
        cw = round(ch * 0.7)
        step = max(4, round(cw * 0.3))
        cx, cy = inner.center
        anchors = {"bottom": (cx, inner.bottom - ch // 2), "top": (cx, inner.y + ch // 2),
                   "right": (inner.right - cw * 2, cy), "left": (inner.x + cw * 2, cy)}
        tops = lay.tops
        room = inner.w // (3 if len(tops) <= 1 else 2 * len(tops))
        for seat, cards in last.plays:
            pos = self.pos_of(seat)
            n = len(cards)
            st = min(step, (room - cw) // max(1, n - 1)) if n > 1 else 0
            width = cw + st * (n - 1)
            ax, ay = anchors[lay.sides[pos]]
            if len(tops) > 1 and pos in tops:  # several seats at the top: each its share, right to left
                ax = round(inner.right - inner.w * (tops.index(pos) + 0.5) / len(tops))
            x0 = ax - width // 2
            rects = [pygame.Rect(x0 + i * st, ay - ch // 2, cw, ch) for i in range(n)]
            for c, r in zip(cards, rects):
                surf.blit(self.renderer.face(c, cw, ch), r)
            if seat == last.winner and rects:
                edge = rects[0].unionall(rects).inflate(4, 4)
                pygame.draw.rect(surf, (120, 220, 255), edge, width=2, border_radius=6)

    def _draw_message(self, surf: pygame.Surface) -> None:
        r = self.layout.message_rect
        text, color, cards = self.message, self.message_color, self.message_cards
        if not text:
            return
        ch = r.h
        cw = round(ch * 0.7)
        cards_w = (cw + 2) * len(cards) if cards else 0
        rect = draw_text(surf, text, self.layout.font_size, color, (r.centerx - cards_w // 2, r.centery),
                         anchor="center", bold=True, max_width=r.w - cards_w - 8)
        for i, c in enumerate(cards):
            surf.blit(self.renderer.face(c, cw, ch), (rect.right + 6 + i * (cw + 2), r.y))
