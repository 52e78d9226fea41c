"""Table animation: the table's events turned into timelines (:mod:`game.scenes.animation`).

The deal flies from a pile in the middle to every seat; played cards slide to the table; a
finished trick is held, then swept to its winner, whose points count up; bids and the trump
appear as call-outs; a captured red five and a ruff get a flourish (RULES.md §8).  Sounds and
announcements for the events start here too.  Mixed into
:class:`game.scenes.table_scene.TableScene`.
"""
from __future__ import annotations

from typing import Any, Sequence

import pygame

from game.cards_render import GOLD, pip
from game.i18n import _
from game.layout import BOTTOM
from game.scenes import hud
from game.scenes.animation import Burst, Callout, Delay, Flight, Tween, ease_in
from game.scenes.callout_spot import callout_spot
from game.scenes.table_model import INFO, RUFF_RED, THROW_NOTICE_S
from game.text import SUIT_NAMES, cards_label, seat_name, suit_label
from game.widgets import ACCENT, ERROR, TEXT


#: the 找朋友 events :meth:`TableMotion._zpy_event` shows
ZPY_EVENTS = frozenset(("card_dealt", "declared", "redealt", "kitty_flipped", "deal_finished", "friend_called",
                        "friend_revealed"))


class TableMotion:
    """Event handling and animation builders of the table scene (see the module docstring)."""

    # -- table events -----------------------------------------------------------------------------------
    def _on_table_event(self, ev: Any, now: float) -> None:
        kind = getattr(ev, "kind", "")
        v = self.view
        me = v.seat
        names = self.names
        if kind == "hand_started":
            self.show_settlement = False
            self._settle_at = None
            self.settled_at = None
            self.timeline.clear()
            self.toasts.clear()
            for p in self.panels.values():
                p.reset()
            self.hand.selected.clear()
            self.show_last = False
            self._swept = 0
            self._hint_key = None
            self.points_shown = [0] * self.layout.seats
            self._dealing = False
            self.hand.visible = None
            if self.factor > 0 and not self.zpy:  # 找朋友: the table deals card by card itself
                self._start_deal(now, getattr(ev, "first_bidder", 0))
            self._queue_prewarm()
            self.audio.play("deal")
        elif kind == "bid_made":
            self.audio.play("click")
            txt = _("Pass") if ev.amount is None else str(ev.amount)
            self._callout("bid", ev.seat, txt, now)
        elif kind == "dealer_chosen":
            if self.factor > 0:  # a call-out at the dealer's place instead of a banner
                self._callout("dealer", ev.seat, _("Dealer · {bid}").format(bid=ev.bid), now)
            else:
                txt = (_("You are the dealer at {bid}").format(bid=ev.bid) if ev.seat == me else
                       _("{name} is the dealer at {bid}").format(name=seat_name(ev.seat, me, names), bid=ev.bid))
                self.toast(txt, INFO, 2.5)
        elif kind == "trump_chosen":
            if self.factor > 0 and not ev.timed_out:
                self._callout("trump", ev.seat, _(SUIT_NAMES[ev.suit]), now, icon=ev.suit)
            else:
                txt = _("Trump suit: {suit}").format(suit=suit_label(ev.suit))
                if ev.timed_out:
                    txt += " " + _("(time ran out)")
                self.toast(txt, ACCENT, 2.5)
            self._queue_prewarm()
        elif kind == "kitty_buried":
            self.toast(_("{name} buried the kitty").format(name=seat_name(ev.seat, me, names)), INFO, 2.0)
        elif kind == "throw_failed":  # everyone sees the attempted throw and the forced cards
            txt = (_("Your throw failed: {cards} must be played") if ev.seat == me else
                   _("{name}'s throw failed: {cards} must be played"))
            self.toast(txt.format(name=seat_name(ev.seat, me, names), cards=cards_label(ev.forced)),
                       ERROR, THROW_NOTICE_S, ev.forced, notice=True,
                       tried=tuple(getattr(ev, "attempted", ()) or ()), seat=ev.seat)
        elif kind == "cards_played":
            if getattr(ev, "lead", False):
                self._flush_sweeps()
            self._fly_play(ev, now)
            self.audio.play("play")
        elif kind == "trick_won":
            self._trick_won(ev, now)
        elif kind in ZPY_EVENTS:
            self._zpy_event(ev, now)
        elif kind == "hand_settled":
            s = ev.settlement
            self._settle_at = now + (0.0 if self.factor <= 0 else 0.3 * self.factor)
            if self.zpy:
                if me is not None:
                    self.audio.play("win" if (me in s.dealer_side) == (s.winner == "dealer") else "lose")
            elif me is not None:
                won = (s.dealer_final > 0) == (me == s.dealer)
                self.audio.play("win" if won else "lose")

    def _zpy_event(self, ev: Any, now: float) -> None:
        """找朋友 events: dealt cards fly to their seat; declarations, the deal's end, the
        friend call and the friend's reveal are called out and announced (RULES.md "找朋友")."""
        from game.scenes.zpy_hud import FRIEND_GOLD, friend_call_text, level_name

        kind = ev.kind
        me, names = self.view.seat, self.names
        if kind == "card_dealt":
            self._fly_dealt(ev.seat, now)
            return
        if kind == "declared":
            self.audio.play("click")
            who = seat_name(ev.seat, me, names)
            if ev.phase == "counter":
                txt = _("{name} counters with {cards}").format(name=who, cards=cards_label(ev.cards))
                short = _("Counter {cards}").format(cards=cards_label(ev.cards))
            else:
                txt = _("{name} declares {cards}: dealer-to-be").format(name=who, cards=cards_label(ev.cards))
                short = _("Declare {cards}").format(cards=cards_label(ev.cards))
            self._callout("declare", ev.seat, short, now)
            self.toast(txt, ACCENT, 3.5)
        elif kind == "redealt":
            self.toast(_("Nobody declared: the cards are dealt again (deal {n})").format(n=ev.deal_no), INFO, 3.0)
        elif kind == "kitty_flipped":
            self.toast(_("Nobody declared: the kitty is turned over, {name} deals").format(
                name=seat_name(ev.dealer, me, names)), INFO, 4.0, tuple(ev.cards))
        elif kind == "deal_finished":
            trump = suit_label(ev.trump) if ev.trump else _("no trump")
            self.toast(_("{name} deals at level {r}, trump {suit}").format(
                name=seat_name(ev.dealer, me, names), r=level_name(ev.level), suit=trump), ACCENT, 3.5)
            self._queue_prewarm()
        elif kind == "friend_called":
            txt = friend_call_text((ev.card, ev.nth))
            self._callout("friend_call", ev.seat, txt, now)
            self.toast(txt, FRIEND_GOLD, 5.0, (ev.card,))
        elif kind == "friend_revealed":
            self.audio.play("red_five")
            if ev.alone:
                txt = _("No friend: the dealer plays alone")
            else:
                txt = (_("You are the friend!") if ev.seat == me else
                       _("{name} is the friend!").format(name=seat_name(ev.seat, me, names)))
                self._callout("friend", ev.seat, _("Friend!"), now)
                self.flourishes.append(("friend", ev.trick_no))
            self.toast(txt, FRIEND_GOLD, 4.0)
            self._damage_points()

    def _fly_dealt(self, seat: int, now: float) -> None:
        """One dealt card (a back) flies from the pile to ``seat``."""
        lay = self.layout
        pos = self.pos_of(seat)
        self.invalidate(lay.plates[pos], lay.backs[pos] if pos != BOTTOM else lay.hand_area)
        if self.factor <= 0:
            return
        back = self.renderer.back(lay.back_w, lay.back_h)
        centre = pygame.Rect(0, 0, lay.back_w, lay.back_h)
        centre.center = lay.trick_area.center
        if pos == BOTTOM:
            end = pygame.Rect(0, 0, lay.back_w, lay.back_h)
            end.midbottom = (lay.w // 2, lay.hand_area.bottom - lay.card_h // 3)
        else:
            end = lay.backs[pos].copy()
            end.size = (lay.back_w, lay.back_h)
        for a in self.timeline.find("dealt"):  # at most a few in the air
            if a.key[1] == seat:
                self.timeline.anims.remove(a)
        self.timeline.add(Flight(("dealt", seat, 0), [back], [centre], [end], now, 0.18 * self.factor))

    # -- animation builders ---------------------------------------------------------------------------
    def _callout(self, kind: str, seat: int, text: str, now: float, icon: str | None = None) -> None:
        """A speech bubble at ``seat``'s place on the table (bids, trump, points won), placed
        clear of the name plates and the points panel where it can be
        (:func:`game.scenes.callout_spot.callout_spot`)."""
        self.callouts.append((kind, seat, text))
        if self.factor <= 0:
            return
        lay = self.layout
        pos = self.pos_of(seat)
        size = round(lay.font_size * (1.35 if kind == "trump" else 1.1))
        ic = hud.suit_badge(icon, round(size * 1.1)) if icon else None
        img = hud.bubble(text, size, ACCENT if kind == "trump" else TEXT, icon=ic)
        if kind == "points":
            rise = round(lay.plate_h * 0.9)
        elif kind == "trump":
            rise = round(lay.font_size * 1.2)
        else:
            rise = round(lay.font_size * 0.8)
        # beside the seat, clear of every name plate and the points panel (game.scenes.callout_spot)
        center, rise = callout_spot(lay, kind, pos, img.get_size(), rise)
        dur = (1.6 if kind in ("trump", "dealer") else 1.2) * max(0.6, self.factor)
        for a in self.timeline.find("callout"):
            if a.key[2] == seat and (a.key[1] == kind or kind == "dealer"):
                self.timeline.anims.remove(a)  # the dealer call-out replaces that seat's bid
        self.timeline.add(Callout(("callout", kind, seat), img, center, now, dur, rise, bounds=lay.screen))

    def _start_deal(self, now: float, first: int) -> None:
        lay = self.layout
        self._dealing = True
        self.hand.visible = 0
        self._deal_landed = [0] * lay.seats
        back = self.renderer.back(lay.back_w, lay.back_h)
        centre = pygame.Rect(0, 0, lay.back_w, lay.back_h)
        centre.center = lay.trick_area.center
        hand_size = max(1, self.view.ruleset.hand_size)
        rounds = min(hand_size, 8)
        self._deal_rounds = rounds
        total = self.pace.deal_s * self.factor
        n = lay.seats
        step = total / (rounds * n + 2)
        fly = max(step * 3, 0.12 * self.factor)
        for r in range(rounds):
            for k in range(n):
                seat = (first + k) % n
                pos = self.pos_of(seat)
                if pos == BOTTOM:
                    end = pygame.Rect(0, 0, lay.back_w, lay.back_h)
                    end.midbottom = (lay.w // 2, lay.hand_area.bottom - lay.card_h // 3)
                else:
                    end = lay.backs[pos].copy()
                    end.size = (lay.back_w, lay.back_h)
                t0 = now + (r * n + k) * step
                self.timeline.add(Flight(("deal", seat, r), [back], [centre], [end], t0, fly,
                                         on_done=lambda s=seat: self._deal_landing(s)))

    def _deal_landing(self, seat: int) -> None:
        self._deal_landed[seat] += 1
        lay = self.layout
        pos = self.pos_of(seat)
        if pos == BOTTOM or self.view.seat is None and pos == BOTTOM:
            n = len(self.hand.cards)
            self.hand.visible = min(n, round(n * self._deal_landed[seat] / self._deal_rounds))
            self.invalidate(lay.hand_area)
        self.invalidate(lay.plates[pos], lay.backs[pos] if pos != BOTTOM else lay.plates[pos])

    def _end_deal(self) -> None:
        self._dealing = False
        self.hand.visible = None
        self.invalidate()

    def _seat_origin(self, seat: int) -> pygame.Rect:
        pos = self.pos_of(seat)
        lay = self.layout
        if pos == BOTTOM:
            r = pygame.Rect(0, 0, lay.trick_w, lay.trick_h)
            r.midbottom = (lay.w // 2, lay.h)
        else:
            box = lay.backs[pos]
            r = pygame.Rect(box.x, box.y, lay.trick_w, lay.trick_h)
        if getattr(self, "xray", False):  # never out of the seat's X-ray panel (xray.flight_origin)
            from game.scenes import xray

            panel = next((rect for s, rect, _c in xray.panels(lay, self.view, self.table) if s == seat), None)
            r = xray.flight_origin(lay, pos, r, panel)
        return r

    def _fly_play(self, ev: Any, now: float) -> None:
        if self.factor <= 0 or self.pace.anim_s <= 0:
            self._play_origin = []
            self.invalidate(self.trick_region())
            return
        pos = self.pos_of(ev.seat)
        end = self.layout.trick_rects(pos, len(ev.cards))
        origin = self._play_origin if (ev.seat == self.view.seat and len(self._play_origin) == len(end)) else None
        start = [pygame.Rect(o.x, o.y, e.w, e.h) for o, e in zip(origin, end)] if origin else [self._seat_origin(ev.seat)] * len(end)
        self._play_origin = []
        imgs = [self.renderer.face(c, self.layout.trick_w, self.layout.trick_h) for c in ev.cards]
        t0 = max([now] + [f.t0 + f.duration * 0.5 for f in self.flights if f.key[0] == "play"])
        dur = self.pace.anim_s * self.factor
        self.timeline.add(Flight(("play", ev.seat, ev.trick_no), imgs, start, end, t0, dur,
                                 on_done=lambda: self.invalidate(self.trick_region())))

    def _trick_won(self, ev: Any, now: float) -> None:
        red = tuple(getattr(ev, "red_fives", ()) or ())
        ruff = bool(getattr(ev, "ruff", False))
        me, names = self.view.seat, self.names
        self.audio.play("ruff" if ruff else "trick_won")
        if red:
            self.audio.play("red_five")
            for frm, to in red:
                self.toast(_("Red five captured: ♥5 of {a} taken by {b}").format(
                    a=seat_name(frm, me, names), b=seat_name(to, me, names)), ACCENT, 4.0)
        f = self.factor
        if f <= 0:
            return  # the finished trick stays on the table until the next lead; points show at once
        land = max([now] + [a.end_time() for a in self.flights if a.key[0] == "play"])
        hold = max(0.25, min(0.6, self.pace.trick_s * 0.45)) * f
        if red:
            hold = max(hold, 1.1 * f)
            self._flourish_red_five(ev, land)
        if ruff:
            hold = max(hold, 0.8 * f)
            self._flourish_ruff(ev, land)
        plays, winner, pts, no = tuple(ev.plays), ev.seat, int(ev.points), ev.trick_no
        self.timeline.add(Delay(("sweep_wait", no), now, max(0.0, land + hold - now),
                                on_done=lambda: self._start_sweep(no, plays, winner, pts)))

    def _flourish_red_five(self, ev: Any, t0: float) -> None:
        from engine.cards import Card

        lay = self.layout
        f = self.factor
        self.flourishes.append(("red_five", ev.trick_no))
        card = next((c for _s, cards in ev.plays for c in cards if c.suit == "H" and c.rank == 5), Card.parse("5H"))
        big = self.renderer.face(card, round(lay.trick_w * 1.35), round(lay.trick_h * 1.35))
        label = hud.stamp(_("Red five!"), round(lay.font_size * 1.8), GOLD)
        star = pip("*", max(10, round(lay.font_size * 0.9)), GOLD)
        star2 = pip("*", max(8, round(lay.font_size * 0.6)), (255, 120, 90))
        parts = [star, star2] * 7
        self.timeline.add(Burst(("red_five", ev.trick_no), lay.trick_area.center, t0, 1.3 * f, big, label, parts,
                                radius=round(min(lay.trick_area.w, lay.trick_area.h) * 0.45), seed=ev.trick_no))

    def _flourish_ruff(self, ev: Any, t0: float) -> None:
        lay = self.layout
        f = self.factor
        self.flourishes.append(("ruff", ev.trick_no))
        pos = self.pos_of(ev.seat)
        label = hud.stamp(_("Ruff!"), round(lay.font_size * 1.6), RUFF_RED, (60, 0, 0))
        spark = pip("*", max(8, round(lay.font_size * 0.6)), RUFF_RED)
        self.timeline.add(Burst(("ruff", ev.trick_no), lay.trick_centers[pos], t0, 0.9 * f, None, label, [spark] * 8,
                                radius=round(lay.trick_h * 0.8), seed=100 + ev.trick_no))

    def _flush_sweeps(self) -> None:
        """A new trick starts: sweep any finished trick still waiting on the table now."""
        for a in self.timeline.find("sweep_wait"):
            self.timeline.anims.remove(a)
            if a.on_done is not None:
                a.on_done()

    def _start_sweep(self, trick_no: int, plays: Sequence, winner: int, points: int) -> None:
        if self._swept >= trick_no:
            return
        self._swept = trick_no
        lay = self.layout
        now = self.clock()
        f = self.factor
        self.invalidate(self.trick_region())
        wpos = self.pos_of(winner)
        target = lay.plates[wpos]
        flights = []
        dur = max(0.2, 0.4 * f)
        for seat, cards in plays:
            pos = self.pos_of(seat)
            rects = lay.trick_rects(pos, len(cards))
            imgs = [self.renderer.face(c, lay.trick_w, lay.trick_h) for c in cards]
            ends = [pygame.Rect(0, 0, r.w, r.h) for r in rects]
            for e in ends:
                e.center = target.center
            flights.append(Flight(("sweep", seat, trick_no), imgs, rects, ends, now, dur, ease=ease_in, fade=0.35))
        if flights:
            flights[-1].on_done = lambda: self._count_points(winner, points)
            for fl in flights:
                self.timeline.add(fl)
        else:
            self._count_points(winner, points)

    def _count_points(self, seat: int, points: int) -> None:
        if points <= 0:
            return
        now = self.clock()
        start = self.points_shown[seat]
        running = [a for a in self.timeline.find("count") if a.key[1] == seat]
        stop = max([start] + [a.stop for a in running]) + points  # one count per seat, never backwards
        for a in running:
            self.timeline.anims.remove(a)

        def show(v: int, s: int = seat) -> None:
            self.points_shown[s] = v
            self._damage_points(s)

        self.timeline.add(Tween(("count", seat), start, stop, now, max(0.3, 0.7 * self.factor), on_value=show))
        self._callout("points", seat, f"+{points}", now)

    def _damage_points(self, seat: int | None = None) -> None:
        lay = self.layout
        rects = [lay.scores_rect]
        seats = range(lay.seats) if seat is None else (seat,)
        rects += [lay.plates[self.pos_of(s)] for s in seats]
        self.invalidate(*rects)
