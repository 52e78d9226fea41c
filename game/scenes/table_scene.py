"""The table scene: everything on screen during a hand, driven by the table's events.

Data flows one way: ``table.poll()`` events -> animations, sounds, messages; ``table.view()``
-> what is drawn.  Legality, winners and sorting come from the engine (via the view).

Drawing is split in two layers for speed: a cached *static* layer (felt, boxes, plates,
hands, trick cards at rest, buttons, messages) rebuilt only when something changes
(:meth:`TableScene.invalidate`), and the moving cards drawn over it every frame.
"""
from __future__ import annotations

import logging
import time
from typing import Any, Callable, Sequence

import pygame

from game import fonts
from game.audio import Audio
from game.cards_render import CardRenderer
from game.i18n import _, current_language
from game.layout import BOTTOM, Layout, position_of
from game.pacing import Pace
from game.scenes import hud
from game.scenes.animation import Flight
from game.scenes.base import Panel
from game.scenes.bidding import BiddingPanel
from game.scenes.bury import BuryPanel
from game.scenes.hand import HandView
from game.scenes.play import PlayPanel
from game.scenes.settle import SettlePanel
from game.scenes.trump import TrumpPanel
from game.text import cards_label, reason_text, seat_name, suit_label
from game.widgets import ACCENT, ERROR, TEXT, Button, Toast, draw_text

log = logging.getLogger(__name__)

GOOD = (150, 230, 160)
INFO = (230, 230, 210)


class TableScene:
    """The in-game screen for one :class:`game.table.Table`.

    Arguments: ``table``; ``size`` (w, h) in px; ``pace`` (:class:`game.pacing.Pace`);
    ``audio`` (:class:`game.audio.Audio`); ``clock`` (seconds); ``on_event`` called with
    every table event after the scene handled it; ``on_next_hand`` called when the player (or
    the demo timer) asks for the next hand; ``toolbar`` a list of ``(key, label)`` built by the
    app each redraw via ``toolbar_items`` and ``on_toolbar(key)`` for clicks.

    Public state for tests: ``view``, ``layout``, ``hand`` (:class:`HandView`), ``buttons``
    (current buttons, panel and toolbar), ``message`` (the text in the message line),
    ``show_settlement``, ``flights``.
    """

    def __init__(self, table: Any, size: tuple[int, int], pace: Pace, audio: Audio | None = None,
                 clock: Callable[[], float] = time.monotonic,
                 on_event: Callable[[Any], None] | None = None,
                 on_next_hand: Callable[[], None] | None = None,
                 toolbar_items: Callable[[], list[tuple[str, str]]] | None = None,
                 on_toolbar: Callable[[str], None] | None = None) -> None:
        self.table = table
        self.pace = pace
        self.audio = audio or Audio(enabled=False)
        self.clock = clock
        self.on_event = on_event
        self.on_next_hand = on_next_hand
        self.toolbar_items = toolbar_items or (lambda: [])
        self.on_toolbar = on_toolbar
        self.renderer = CardRenderer()
        self.hand = HandView()
        self.panels: dict[str, Panel] = {
            "bid": BiddingPanel(self), "trump": TrumpPanel(self), "bury": BuryPanel(self),
            "play": PlayPanel(self), "settle": SettlePanel(self),
        }
        self.flights: list[Flight] = []
        self.toasts: list[Toast] = []
        self.buttons: list[Button] = []
        self.message = ""
        self.message_color = INFO
        self.notices: list[str] = []
        self.show_settlement = False
        self._settle_at: float | None = None
        self.settled_at: float | None = None
        self._deal_start = 0.0
        self._deal_end = 0.0
        self._pressed: Button | None = None
        self._static: pygame.Surface | None = None
        self._dirty = True
        self._last_prompt = ""
        self._play_origin: list[pygame.Rect] = []
        self.layout = Layout(*size, max_hand=self._max_hand())
        self._felt = hud.felt(*size)
        self.view = table.view()
        self._sync_hand()

    # -- properties -----------------------------------------------------------------------------
    @property
    def names(self) -> tuple[str, ...]:
        """The table's display names."""
        return tuple(getattr(self.table, "names", ()) or ())

    @property
    def totals(self) -> tuple[int, ...]:
        """Accumulated game points per seat."""
        try:
            return tuple(self.table.totals())
        except Exception:  # pragma: no cover - a remote table without totals yet
            return (0, 0, 0, 0)

    @property
    def panel(self) -> Panel:
        """The panel of the current phase."""
        return self.panels[self.view.phase.value if self.view.phase.value in self.panels else "bid"]

    def _max_hand(self) -> int:
        rs = getattr(self.table.view(), "ruleset", None)
        return (rs.hand_size + rs.kitty_size) if rs is not None else 33

    # -- external requests ------------------------------------------------------------------------
    def invalidate(self) -> None:
        """Ask for the static layer to be rebuilt before the next frame."""
        self._dirty = True

    def resize(self, w: int, h: int) -> None:
        """Lay everything out again for a ``w``×``h`` window."""
        self.layout = Layout(w, h, max_hand=self._max_hand())
        self._felt = hud.felt(w, h)
        self.renderer.clear()
        self._static = None
        self.flights.clear()
        self.invalidate()

    def submit(self, action: Any) -> str | None:
        """Send ``action`` to the table; a refusal is shown in the message line (translated).

        Returns None when accepted, else the engine's (English) reason.
        """
        if type(action).__name__ == "Play":
            self._play_origin = [r for i, r in enumerate(self.hand.rects(self.layout)) if i in self.hand.selected]
        reason = self.table.submit(action)
        if reason is None:
            self.audio.play("click")
            self.hand.selected.clear()
            self._refresh()
        else:
            log.info("refused %r: %s", action, reason)
            self.toast(reason_text(reason), ERROR, 6.0)
        self.invalidate()
        return reason

    def toast(self, text: str, color=INFO, seconds: float = 3.0, cards: Sequence = (), notice: bool | None = None) -> None:
        """Show ``text`` (and small ``cards``) for ``seconds``.

        Notices (announcements: dealer, trump, failed throws, red fives) appear in a banner in
        the middle of the table; other toasts (refusals) replace the prompt in the message line.
        ``notice`` defaults to True for every colour but the error colour.
        """
        if notice is None:
            notice = color != ERROR
        self.toasts = [t for t in self.toasts if t.text != text]
        self.toasts.append(Toast(text, color, self.clock() + max(seconds, 0.5), tuple(cards), notice))
        self.invalidate()

    def request_next_hand(self) -> None:
        """The Next hand button (or the demo timer): hand over to the app."""
        if self.on_next_hand is not None:
            self.on_next_hand()

    def set_pace(self, pace: Pace) -> None:
        """Change the animation speed."""
        self.pace = pace

    # -- events -------------------------------------------------------------------------------------
    def handle_event(self, ev: pygame.event.Event) -> None:
        """Mouse and keyboard input (positions in scene pixels)."""
        if ev.type == pygame.MOUSEBUTTONDOWN:
            if ev.button == 3:
                if self.hand.selected:
                    self.hand.selected.clear()
                    self.invalidate()
                return
            if ev.button != 1:
                return
            for b in self.buttons:
                if b.rect.collidepoint(ev.pos):
                    self._pressed = b if b.enabled else None
                    return
            if self.panel.selectable and self.view.seat is not None and not self.show_settlement:
                idx = self.hand.card_at(self.layout, ev.pos)
                if idx is not None:
                    self.hand.toggle(idx)
                    self.invalidate()
        elif ev.type == pygame.MOUSEBUTTONUP and ev.button == 1:
            pressed, self._pressed = self._pressed, None
            if pressed is None:
                return
            for b in self.buttons:
                if b.key == pressed.key and b.hit(ev.pos):
                    self._click(b)
                    return
        elif ev.type == pygame.MOUSEMOTION:
            changed = False
            for b in self.buttons:
                hov = b.rect.collidepoint(ev.pos)
                if hov != b.hover:
                    b.hover = hov
                    changed = True
            if changed:
                self.invalidate()
        elif ev.type == pygame.KEYDOWN:
            if ev.key == pygame.K_ESCAPE and self.hand.selected:
                self.hand.selected.clear()
                self.invalidate()
            elif ev.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                for b in self.buttons:
                    if b.style == "primary" and b.enabled:
                        self._click(b)
                        return

    def _click(self, b: Button) -> None:
        if b.key.startswith("tool:"):
            if self.on_toolbar is not None:
                self.on_toolbar(b.key[5:])
            self.renderer.clear()
            fonts.clear_cache()
            self.invalidate()
            return
        panel = self.panels["settle"] if b.key == "next" else self.panel
        panel.on_button(b, self.view)
        self.invalidate()

    # -- per frame ------------------------------------------------------------------------------------
    def update(self) -> None:
        """Poll the table, turn its events into animations/sounds/messages, run timers."""
        now = self.clock()
        events = self.table.poll()
        if events:
            self._refresh()
            for ev in events:
                try:
                    self._on_table_event(ev, now)
                except Exception:  # never let a display problem stop the game
                    log.exception("could not show event %r", ev)
                if self.on_event is not None:
                    self.on_event(ev)
            self.invalidate()
        # deal animation: reveal the hand progressively
        if now < self._deal_end:
            k = (now - self._deal_start) / max(1e-6, self._deal_end - self._deal_start)
            vis = int(len(self.hand.cards) * k)
            if vis != self.hand.visible:
                self.hand.visible = vis
                self.invalidate()
        elif self.hand.visible is not None:
            self.hand.visible = None
            self.invalidate()
        # finished flights land on the static layer
        if self.flights:
            before = len(self.flights)
            self.flights = [f for f in self.flights if not f.done(now)]
            if len(self.flights) != before:
                self.invalidate()
        # toasts expire
        if self.toasts and any(t.until <= now for t in self.toasts):
            self.toasts = [t for t in self.toasts if t.until > now]
            self.invalidate()
        # settlement overlay after the last trick has been seen
        if self._settle_at is not None and not self.show_settlement and now >= self._settle_at and not self.flights:
            self.show_settlement = True
            self.settled_at = now
            self.invalidate()
        if self.panel.update(self.view, now):
            self._refresh()
            self.invalidate()
        prompt = self.panel.prompt(self.view, now) if not self.show_settlement else ""
        if prompt != self._last_prompt:
            self._last_prompt = prompt
            self.invalidate()

    def _refresh(self) -> None:
        self.view = self.table.view()
        self._sync_hand()

    def _sync_hand(self) -> None:
        v = self.view
        marked = v.kitty if (v.kitty and v.phase.value == "bury") else ()
        self.hand.set_cards(v.hand, marked)

    def _on_table_event(self, ev: Any, now: float) -> None:
        kind = getattr(ev, "kind", "")
        v = self.view
        me = v.seat
        names = self.names
        if kind == "hand_started":
            self.show_settlement = False
            self._settle_at = None
            self.settled_at = None
            self.flights.clear()
            self.toasts.clear()
            for p in self.panels.values():
                p.reset()
            self.hand.selected.clear()
            if not self.pace.instant:
                self._deal_start, self._deal_end = now, now + self.pace.deal_s
                self.hand.visible = 0
                self._deal_flights(now)
            self.audio.play("deal")
        elif kind == "bid_made":
            self.audio.play("click")
        elif kind == "dealer_chosen":
            txt = (_("You are the dealer at {bid}").format(bid=ev.bid) if ev.seat == me else
                   _("{name} is the dealer at {bid}").format(name=seat_name(ev.seat, me, names), bid=ev.bid))
            self.toast(txt, INFO, 2.5)
        elif kind == "trump_chosen":
            txt = _("Trump suit: {suit}").format(suit=suit_label(ev.suit))
            if ev.timed_out:
                txt += " " + _("(time ran out)")
            self.toast(txt, ACCENT, 2.5)
        elif kind == "kitty_buried":
            self.toast(_("{name} buried the kitty").format(name=seat_name(ev.seat, me, names)), INFO, 2.0)
        elif kind == "throw_failed":
            txt = (_("Your throw failed: {cards} must be played") if ev.seat == me else
                   _("{name}'s throw failed: {cards} must be played"))
            self.toast(txt.format(name=seat_name(ev.seat, me, names), cards=cards_label(ev.forced)),
                       ERROR, 5.0, ev.forced, notice=True)
        elif kind == "cards_played":
            self._fly_play(ev, now)
            self.audio.play("play")
        elif kind == "trick_won":
            self.audio.play("ruff" if getattr(ev, "ruff", False) else "trick_won")
            if getattr(ev, "red_fives", ()):
                self.audio.play("red_five")
                for frm, to in ev.red_fives:
                    self.toast(_("Red five captured: ♥5 of {a} taken by {b}").format(
                        a=seat_name(frm, me, names), b=seat_name(to, me, names)), ACCENT, 4.0)
        elif kind == "hand_settled":
            s = ev.settlement
            land = max([f.t0 + f.duration for f in self.flights], default=now)
            self._settle_at = land + (0 if self.pace.instant else self.pace.trick_s)
            if me is not None:
                won = (s.dealer_final > 0) == (me == s.dealer)
                self.audio.play("win" if won else "lose")

    def _seat_origin(self, seat: int) -> pygame.Rect:
        pos = position_of(seat, self.view.seat)
        lay = self.layout
        if pos == BOTTOM:
            r = pygame.Rect(0, 0, lay.trick_w, lay.trick_h)
            r.midbottom = (lay.w // 2, lay.h)
            return r
        box = lay.backs[pos]
        return pygame.Rect(box.x, box.y, lay.trick_w, lay.trick_h)

    def _fly_play(self, ev: Any, now: float) -> None:
        if self.pace.instant or self.pace.anim_s <= 0:
            return
        pos = position_of(ev.seat, self.view.seat)
        end = self.layout.trick_rects(pos, len(ev.cards))
        origin = self._play_origin if (ev.seat == self.view.seat and len(self._play_origin) == len(end)) else None
        start = [pygame.Rect(o.x, o.y, e.w, e.h) for o, e in zip(origin, end)] if origin else [self._seat_origin(ev.seat)] * len(end)
        self._play_origin = []
        imgs = [self.renderer.face(c, self.layout.trick_w, self.layout.trick_h) for c in ev.cards]
        t0 = max([now] + [f.t0 + f.duration * 0.5 for f in self.flights if f.key[0] == "play"])
        self.flights.append(Flight(("play", ev.seat, ev.trick_no), imgs, start, end, t0, self.pace.anim_s))

    def _deal_flights(self, now: float) -> None:
        lay = self.layout
        back = self.renderer.back(lay.back_w, lay.back_h)
        centre = pygame.Rect(0, 0, lay.back_w, lay.back_h)
        centre.center = lay.trick_area.center
        rounds = 6
        step = self.pace.deal_s / (rounds * 4)
        for r in range(rounds):
            for k in range(4):
                seat = (k + (self.view.seat or 0)) % 4
                pos = position_of(seat, self.view.seat)
                if pos == BOTTOM:
                    end = pygame.Rect(0, 0, lay.back_w, lay.back_h)
                    end.midbottom = (lay.w // 2, lay.hand_area.bottom)
                else:
                    end = lay.backs[pos].copy()
                    end.size = (lay.back_w, lay.back_h)
                t0 = now + (r * 4 + k) * step
                self.flights.append(Flight(("deal", seat, r), [back], [centre], [end], t0, max(step * 2, 0.12)))

    # -- drawing --------------------------------------------------------------------------------------
    def draw(self, screen: pygame.Surface) -> list[pygame.Rect]:
        """Draw a frame on ``screen``; returns the rects that changed (for partial updates)."""
        now = self.clock()
        full = False
        if self._dirty or self._static is None or self._static.get_size() != screen.get_size():
            self._render_static(screen)
            self._dirty = False
            full = True
        screen.blit(self._static, (0, 0))
        changed: list[pygame.Rect] = []
        for f in self.flights:
            changed.extend(f.draw(screen, now))
        if full:
            return [screen.get_rect()]
        return changed

    def _render_static(self, screen: pygame.Surface) -> None:
        size = screen.get_size()
        if (self.layout.w, self.layout.h) != size:
            self.layout = Layout(*size, max_hand=self._max_hand())
            self._felt = hud.felt(*size)
        if self._static is None or self._static.get_size() != size:
            self._static = pygame.Surface(size).convert() if pygame.display.get_init() and pygame.display.get_surface() else pygame.Surface(size)
        surf = self._static
        lay = self.layout
        v = self.view
        names = self.names
        surf.blit(self._felt, (0, 0))
        hud.draw_info(surf, lay, v, names, getattr(self.table, "hand_no", v.hand_no))
        hud.draw_scores(surf, lay, v, names, self.totals)
        dealing = self.hand.visible is not None
        for seat in range(4):
            pos = position_of(seat, v.seat)
            count = v.hand_sizes[seat]
            if dealing:
                count = int(count * (self.hand.shown() / max(1, len(self.hand.cards)))) if self.hand.cards else 0
            hud.draw_plate(surf, lay, v, seat, names, count)
            if pos != BOTTOM or v.seat is None:
                if pos == BOTTOM:
                    continue
                for r in lay.back_rects(pos, count):
                    surf.blit(self.renderer.back(lay.back_w, lay.back_h), r)
        self._draw_trick(surf)
        self.hand.draw(surf, lay, self.renderer)
        if v.seat is None:  # observer: the bottom seat's backs in the hand area
            count = v.hand_sizes[0]
            rects = lay.hand_rects(count)
            for r in rects[: min(len(rects), 40)]:
                surf.blit(self.renderer.back(lay.card_w, lay.card_h), r)
        self._draw_message(surf)
        self._draw_notices(surf)
        # buttons: toolbar + phase panel (+ settlement overlay on top)
        self.buttons = self._toolbar_buttons()
        if not self.show_settlement and not dealing:
            self.buttons += self.panel.buttons(v)
        for b in self.buttons:
            b.draw(surf, lay.font_size)
        if self.show_settlement:
            sp = self.panels["settle"]
            sp.draw(surf, v)
            nb = sp.buttons(v)
            for b in nb:
                b.draw(surf, lay.font_size)
            self.buttons += nb

    def _toolbar_buttons(self) -> list[Button]:
        items = self.toolbar_items()
        if not items:
            return []
        lay = self.layout
        gap = max(3, lay.margin // 2)
        n = len(items)
        w = (lay.toolbar.w - gap * (n - 1)) // n
        out = []
        for i, (key, label) in enumerate(items):
            r = pygame.Rect(lay.toolbar.x + i * (w + gap), lay.toolbar.y, w, lay.toolbar.h)
            out.append(Button(f"tool:{key}", r, label, style="flat"))
        return out

    def _draw_trick(self, surf: pygame.Surface) -> None:
        v = self.view
        lay = self.layout
        plays = v.current_trick
        trick_no = v.trick_no
        winner = None
        done = False
        if plays:
            try:
                from engine.tricks import trick_winner

                winner = plays[trick_winner([c for _s, c in plays], v.ctx)][0]
            except Exception:  # pragma: no cover - a partial trick the engine cannot judge
                winner = None
        elif v.last_trick is not None:
            plays = v.last_trick.plays
            trick_no = v.last_trick.trick_no
            winner = v.last_trick.winner
            done = True
        flying = {f.key[1] for f in self.flights if f.key[0] == "play" and f.key[2] == trick_no}
        for seat, cards in plays:
            if seat in flying:
                continue
            pos = position_of(seat, v.seat)
            rects = lay.trick_rects(pos, len(cards))
            for c, r in zip(cards, rects):
                surf.blit(self.renderer.face(c, lay.trick_w, lay.trick_h), r)
            if seat == winner and rects:
                box = rects[0].unionall(rects).inflate(6, 6)
                pygame.draw.rect(surf, ACCENT, box, width=3, border_radius=8)
                label = _("Won") if done else _("Winning")
                if done and v.last_trick is not None and v.last_trick.points:
                    label += f" +{v.last_trick.points}"
                draw_text(surf, label, lay.small_font, ACCENT, (box.centerx, box.y - 2), anchor="midbottom", bold=True)
        if done and v.phase.value == "play" and not any(t.notice for t in self.toasts):
            draw_text(surf, _("Last trick"), lay.small_font, (200, 220, 200), lay.trick_area.center, anchor="center")

    def _draw_message(self, surf: pygame.Surface) -> None:
        lay = self.layout
        r = lay.message_rect
        now = self.clock()
        toast = next((t for t in reversed(self.toasts) if t.until > now and not t.notice), None)
        if toast is not None:
            text, color, cards = toast.text, toast.color, toast.cards
        else:
            text, color, cards = self._last_prompt, TEXT, ()
        self.message = text
        self.message_color = color
        if not text:
            return
        ch = r.h
        cw = round(ch * 0.7)
        cards_w = (cw + 2) * len(cards) if cards else 0
        rect = draw_text(surf, text, lay.font_size, color, (r.centerx - cards_w // 2, r.centery), anchor="center",
                         bold=True, max_width=r.w - cards_w - 8)
        for i, c in enumerate(cards):
            surf.blit(self.renderer.face(c, cw, ch), (rect.right + 6 + i * (cw + 2), r.y))

    def _draw_notices(self, surf: pygame.Surface) -> None:
        """Announcements in a banner across the middle of the table (newest at the bottom)."""
        now = self.clock()
        notes = [t for t in self.toasts if t.notice and t.until > now][-2:]
        self.notices = [t.text for t in notes]
        if not notes:
            return
        lay = self.layout
        ta = lay.trick_area
        fs = lay.font_size
        line_h = round(fs * 1.6)
        ch = round(lay.trick_h * 0.55) if any(t.cards for t in notes) else 0
        box_h = line_h * len(notes) + ch + lay.margin * 2
        box = pygame.Rect(0, 0, ta.w, box_h)
        box.center = ta.center
        panel = pygame.Surface(box.size, pygame.SRCALPHA)
        panel.fill((0, 0, 0, 150))
        surf.blit(panel, box.topleft)
        y = box.y + lay.margin
        for t in notes:
            draw_text(surf, t.text, fs, t.color, (box.centerx, y + line_h // 2), anchor="center", bold=True,
                      max_width=box.w - 2 * lay.margin)
            y += line_h
            if t.cards:
                cw = round(ch * 0.7)
                x0 = box.centerx - (len(t.cards) * (cw + 3)) // 2
                for i, c in enumerate(t.cards):
                    surf.blit(self.renderer.face(c, cw, ch), (x0 + i * (cw + 3), y))
                y += ch
