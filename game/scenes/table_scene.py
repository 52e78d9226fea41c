"""The table scene: everything on screen during a hand, driven by the table's events.

Data flows one way: ``table.poll()`` events -> animations, sounds, messages; ``table.view()``
-> what is drawn.  Legality, winners and sorting come from the engine (via the view); the
helpers (hint, auto-play) ask the built-in ``basic`` AI and the engine checks its answer.

Drawing is layered for speed (see :mod:`game.render_backend`):

- a cached *static layer* (felt, boxes, plates, hands, trick cards at rest, buttons,
  messages) redrawn only where something changed — :meth:`TableScene.invalidate` with rects
  (or nothing for all of it) records damage, and only the components touching a damaged
  region are redrawn there, clipped;
- *sprites* over it (cards flying, call-outs, flourishes) from the animation
  :class:`~game.scenes.animation.Timeline`.

:meth:`TableScene.frame` hands both to the backend; with nothing moving and nothing damaged
the backend does not touch the screen.  :meth:`TableScene.draw` does the same into any
surface (tests, tools).

Animation follows the engine's events: the deal flies from a pile in the middle to every
seat; played cards slide to the table; a finished trick is held, then swept to its winner,
whose points count up in the points panel; bids and the trump appear as call-outs; a
captured red five (``TrickWon.red_fives``) and a ruff (``TrickWon.ruff``) get a flourish.
The animation speed is ``off``, ``normal`` or ``fast`` (``instant`` pace: none at all); the
skip key (S) or a tap on the table finishes everything at once.

Turn timers: a table hosted elsewhere (LAN) offers ``countdown()`` (the host's timer for the
seat to act); its seconds are shown on that seat's name plate and, on the local player's
turn, after the prompt.  A local game has no turn timers but the trump panel's 30 s.
"""
from __future__ import annotations

import logging
import math
import time
from typing import Any, Callable, Sequence

import pygame

from game import fonts
from game.audio import Audio
from game.cards_render import GOLD, CardRenderer, pip
from game.i18n import _, current_language
from game.input import HOLD_S, PointerInput, escape, key_action
from game.layout import BOTTOM, LEFT, RIGHT, TOP, Layout, position_of
from game.pacing import Pace
from game.render_backend import Frame, SoftwareBackend, _merge
from game.scenes import hud
from game.scenes.animation import Burst, Callout, Delay, Flight, Timeline, Tween, ease_in
from game.scenes.base import Panel
from game.scenes.bidding import BiddingPanel
from game.scenes.bury import BuryPanel
from game.scenes.hand import HandView
from game.scenes.play import PlayPanel
from game.scenes.settle import SettlePanel
from game.scenes import table_extras as extras
from game.scenes.trump import SUIT_ORDER, TrumpPanel
from game.text import SUIT_NAMES, cards_label, reason_text, seat_name, suit_label
from game.widgets import (ACCENT, ERROR, TEXT, Button, RowItem, button_width, Toast, draw_panel, draw_text, fit_row, icon,
                          label_color)

log = logging.getLogger(__name__)

GOOD = (150, 230, 160)
INFO = (230, 230, 210)
RUFF_RED = (255, 96, 80)

#: seconds a failed throw stays announced (attempted and forced cards)
THROW_NOTICE_S = 6.0

#: animation speeds the player can choose (``off`` = no movement; ``instant`` pace implies it)
ANIMATIONS = ("off", "normal", "fast")
_FACTOR = {"off": 0.0, "normal": 1.0, "fast": 0.5}


def N_(message: str) -> str:
    """Mark a message for the catalog (translated where shown)."""
    return message


N_("off"), N_("normal"), N_("fast")


class TableScene:
    """The in-game screen for one :class:`game.table.Table`.

    Arguments: ``table``; ``size`` (w, h) in px; ``pace`` (:class:`game.pacing.Pace`);
    ``audio`` (:class:`game.audio.Audio`); ``clock`` (seconds); ``on_event`` called with
    every table event after the scene handled it; ``on_next_hand`` called when the player (or
    the demo timer) asks for the next hand; ``toolbar_items`` returns ``[(key, label)]`` for
    the toolbar and ``on_toolbar(key)`` handles its clicks; ``animations`` one of
    :data:`ANIMATIONS`; ``on_escape`` called on Esc (None: a ``game.input.MENU_EVENT`` is
    posted instead).

    Public state for tests: ``view``, ``layout``, ``hand`` (:class:`HandView`), ``buttons``
    (current buttons: toolbar, helpers, phase panel, settlement), ``message`` (the text in
    the message line), ``notices`` (banner texts), ``show_settlement``, ``timeline`` and
    ``flights`` (running animations), ``auto`` (auto-play on), ``show_last`` (last trick
    shown), ``points_shown`` (points as displayed, counting up), ``flourishes`` (log of
    ``(kind, trick_no)`` flourishes started), ``callouts`` (log of ``(kind, seat, text)``),
    ``countdown`` (``(seat, whole seconds left)`` of the host's turn timer shown now, or None).
    """

    def __init__(self, table: Any, size: tuple[int, int], pace: Pace, audio: Audio | None = None,
                 clock: Callable[[], float] = time.monotonic,
                 on_event: Callable[[Any], None] | None = None,
                 on_next_hand: Callable[[], None] | None = None,
                 toolbar_items: Callable[[], list[tuple[str, str]]] | None = None,
                 on_toolbar: Callable[[str], None] | None = None, *,
                 animations: str = "normal",
                 on_escape: Callable[[], None] | None = None) -> None:
        if animations not in ANIMATIONS:
            raise ValueError(f"animations must be one of {', '.join(ANIMATIONS)}, not {animations!r}")
        self.table = table
        self.pace = pace
        self.animations = animations
        self.audio = audio or Audio(enabled=False)
        self.clock = clock
        self.on_event = on_event
        self.on_next_hand = on_next_hand
        self.toolbar_items = toolbar_items or (lambda: [])
        self.on_toolbar = on_toolbar
        self.on_escape = on_escape
        self.renderer = CardRenderer()
        self.hand = HandView()
        self.panels: dict[str, Panel] = {
            "bid": BiddingPanel(self), "trump": TrumpPanel(self), "bury": BuryPanel(self),
            "play": PlayPanel(self), "settle": SettlePanel(self),
        }
        self.timeline = Timeline()
        self.toasts: list[Toast] = []
        self.buttons: list[Button] = []
        self.message = ""
        self.message_color = INFO
        self.message_cards: tuple = ()
        self.notices: list[str] = []
        self.show_settlement = False
        self.auto = False
        self.show_last = False
        self.show_buried = False  # the dealer's buried cards shown (查看底牌, see table_extras)
        self.prefs = extras.TablePrefs()
        self.flourishes: list[tuple[str, int]] = []
        self.callouts: list[tuple[str, int, str]] = []
        self.points_shown = [0, 0, 0, 0]
        self.winning_seat: int | None = None
        self.countdown: tuple[int, int] | None = None
        self._settle_at: float | None = None
        self.settled_at: float | None = None
        self._pressed: Button | None = None
        self._last_press: tuple[bool, float] | None = None  # the 上一轮 button held: (opened it, since)
        self._drag: tuple[bool, set[int]] | None = None
        self._static: pygame.Surface | None = None
        self._damage: list[pygame.Rect] | None = None  # None: everything
        self._out_damage: list[pygame.Rect] | None = None
        self._last_prompt = ""
        self._play_origin: list[pygame.Rect] = []
        self._swept = 0
        self._dealing = False
        self._deal_landed: list[int] = [0, 0, 0, 0]
        self._deal_rounds = 1
        self._auto_at: float | None = None
        self._last_down: float | None = None
        self._hint_key: str | None = None
        self._prewarm: list[tuple] = []
        self._notice_cache: tuple | None = None  # (key, placed notices), see _notice_layout
        self._notice_sprite: tuple | None = None  # (key, image): a notice drawn over flying cards
        self._compat: SoftwareBackend | None = None
        self._frames_made = 0
        self._compat_seq = 0
        self.pointer = PointerInput(lambda: (self.layout.w, self.layout.h), time.monotonic)
        self.layout = Layout(*size, max_hand=self._max_hand())
        self._felt = hud.felt(*size)
        self.view = table.view()
        self._sync_hand()
        self.points_shown = list(self.view.points_won)
        self._queue_prewarm()

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
    def remote_timers(self) -> bool:
        """True when the table's turn timers run elsewhere (a LAN host: ``table.countdown``);
        the scene then shows the host's countdown and never times a turn out itself."""
        return callable(getattr(self.table, "countdown", None))

    @property
    def panel(self) -> Panel:
        """The panel of the current phase."""
        return self.panels[self.view.phase.value if self.view.phase.value in self.panels else "bid"]

    @property
    def flights(self) -> list[Flight]:
        """The card flights running now (plays, deal, sweeps)."""
        return [a for a in self.timeline if isinstance(a, Flight)]

    @property
    def factor(self) -> float:
        """Animation length multiplier: 0 (off / instant pace), 1 (normal), 0.5 (fast)."""
        if self.pace.instant:
            return 0.0
        return _FACTOR.get(self.animations, 1.0)

    @property
    def dealing(self) -> bool:
        """True while the deal animation runs."""
        return self._dealing

    @property
    def idle(self) -> bool:
        """True when nothing moves and nothing waits to be drawn (the app may sleep)."""
        return (not self.timeline.busy() and self._damage == [] and not self._prewarm
                and self._auto_at is None)

    def _max_hand(self) -> int:
        rs = getattr(self.table.view(), "ruleset", None)
        return (rs.hand_size + rs.kitty_size) if rs is not None else 33

    # -- external requests ------------------------------------------------------------------------
    def invalidate(self, *rects: pygame.Rect) -> None:
        """Ask for the static layer to be redrawn before the next frame: only ``rects`` when
        given (screen px), else all of it."""
        if not rects:
            self._damage = None
        elif self._damage is not None:
            self._damage.extend(pygame.Rect(r) for r in rects)

    def resize(self, w: int, h: int) -> None:
        """Lay everything out again for a ``w``×``h`` window (running animations finish)."""
        self.timeline.skip(self.clock())
        self._dealing = False
        self.hand.visible = None
        self.layout = Layout(w, h, max_hand=self._max_hand())
        self._felt = hud.felt(w, h)
        self.renderer.clear()
        self._static = None
        self._queue_prewarm()
        self.invalidate()

    def set_pace(self, pace: Pace) -> None:
        """Change the pace (animation lengths follow it)."""
        self.pace = pace

    def set_animations(self, animations: str) -> None:
        """Change the animation speed (one of :data:`ANIMATIONS`)."""
        if animations not in ANIMATIONS:
            raise ValueError(f"animations must be one of {', '.join(ANIMATIONS)}, not {animations!r}")
        self.animations = animations

    def submit(self, action: Any) -> str | None:
        """Send ``action`` to the table; a refusal is shown in the message line (translated).

        Returns None when accepted, else the engine's reason (a ``Refusal`` str or text).
        """
        if type(action).__name__ == "Play":
            rects = self.hand.rects(self.layout)
            self._play_origin = [r for i, r in enumerate(rects) if i in self.hand.selected]
            if not self._play_origin:  # auto-play / hint: find the cards' own places
                idx = sorted(_indices(self.hand.cards, action.cards))
                self._play_origin = [rects[i] for i in idx if i < len(rects)]
        reason = self.table.submit(action)
        if reason is None:
            self.audio.play("click")
            self.hand.selected.clear()
            self._hint_key = None
            self._refresh()
        else:
            log.info("refused %r: %s", action, reason)
            self.toast(reason_text(reason), ERROR, 6.0)
        self.invalidate()
        return reason

    def toast(self, text: str, color=INFO, seconds: float = 3.0, cards: Sequence = (), notice: bool | None = None,
              *, tried: Sequence = (), seat: int | None = None) -> None:
        """Show ``text`` (and small ``cards``) for ``seconds``.

        Notices (announcements: dealer, trump, failed throws, red fives) appear in a banner on
        the table, placed where it covers no played card (:meth:`notice_boxes`); other toasts
        (refusals, hints) replace the prompt in the message line.  ``notice`` defaults to True
        for every colour but the error colour.  A failed throw passes the attempted cards as
        ``tried`` (``cards``: the forced ones) and the thrower as ``seat``.
        """
        if notice is None:
            notice = color != ERROR
        self.toasts = [t for t in self.toasts if t.text != text]
        self.toasts.append(Toast(text, color, self.clock() + max(seconds, 0.5), tuple(cards), notice,
                                 tuple(tried), seat))
        self._update_messages(self.clock())

    def request_next_hand(self) -> None:
        """The Next hand button (or the demo timer): hand over to the app."""
        if self.on_next_hand is not None:
            self.on_next_hand()

    # -- helpers (hint, auto-play, last trick, skip) ----------------------------------------------
    def hint(self) -> Any | None:
        """Suggest an action for the local seat (the ``basic`` AI, checked by the engine):
        cards to play or bury are raised, a bid or suit button is highlighted.  Returns the
        suggested action, or None when it is not the local seat's turn."""
        from engine.state import Phase
        from game.helpers import suggest_action

        v = self.view
        if v.seat is None or self.show_settlement:
            return None
        act = suggest_action(v) if not self._dealing else None
        if act is None:
            self.toast(_("Hints are given on your turn"), INFO, 2.0, notice=False)
            return None
        if v.phase in (Phase.PLAY, Phase.BURY):
            self.hand.selected = _indices(self.hand.cards, act.cards)
            self.toast(_("Suggested: {cards}").format(cards=cards_label(act.cards)), GOOD, 3.0, notice=False)
        elif v.phase == Phase.BID:
            self._hint_key = f"bid:{act.amount}" if act.amount is not None else "bid:pass"
            txt = _("Suggested: bid {n}").format(n=act.amount) if act.amount is not None else _("Suggested: pass")
            self.toast(txt, GOOD, 3.0, notice=False)
        elif v.phase == Phase.TRUMP:
            self._hint_key = f"trump:{act.suit}"
            self.toast(_("Suggested trump: {suit}").format(suit=suit_label(act.suit)), GOOD, 3.0, notice=False)
        self.invalidate()
        return act

    def toggle_auto(self, on: bool | None = None) -> bool:
        """Turn auto-play (托管: the ``basic`` AI plays for the local seat) on/off; returns
        the new state."""
        if self.view.seat is None:
            return False
        self.auto = (not self.auto) if on is None else bool(on)
        self._auto_at = None
        self.invalidate()
        return self.auto

    def toggle_last_trick(self, on: bool | None = None) -> bool:
        """Show/hide the previous trick (上一轮) over the table; returns the new state."""
        self.show_last = (not self.show_last) if on is None else bool(on)
        self.show_buried = self.show_buried and not self.show_last
        self.invalidate()
        return self.show_last

    def skip_animation(self) -> int:
        """Finish every running animation now (the skip key); returns how many were running."""
        now = self.clock()
        n = self.timeline.skip(now)
        if self._dealing:
            self._end_deal()
        self.invalidate()
        return n

    # -- input ----------------------------------------------------------------------------------------
    def handle_event(self, ev: pygame.event.Event) -> None:
        """Mouse, touch and keyboard input (positions in scene pixels)."""
        if ev.type in (pygame.KEYDOWN, pygame.KEYUP):
            self._on_key(ev)
            return
        p = self.pointer.translate(ev)
        if p is None:
            return
        kind, pos, source = p
        if kind == "secondary":
            if self.hand.selected:
                self.hand.selected.clear()
                self._damage_hand()
        elif kind == "down":
            self._pointer_down(pos, source)
        elif kind == "move":
            self._pointer_move(pos, source)
        elif kind == "up":
            self._pointer_up(pos)

    def _pointer_down(self, pos: tuple[int, int], source: str) -> None:
        for b in self.buttons:
            if b.rect.collidepoint(pos):
                self._pressed = b if b.enabled else None
                if b.key == "help:last" and b.enabled:  # like L: shown while held, a tap toggles
                    self._last_press = (not self.show_last, self.clock())
                    if not self.show_last:
                        self.toggle_last_trick(True)
                return
        if self.show_settlement:
            return
        if self.hand.cursor is not None:
            self.hand.cursor = None
            self._damage_hand()
        if self.panel.selectable and self.view.seat is not None and not self._dealing:
            idx = self.hand.card_at(self.layout, pos)
            if idx is not None:
                self.hand.toggle(idx)
                extras.smart_raise(self, idx)
                self._drag = (idx in self.hand.selected, {idx})
                self._damage_hand()
                return
        if self.layout.trick_area.collidepoint(pos) and self.timeline.moving(self.clock()):
            self.skip_animation()

    def _pointer_move(self, pos: tuple[int, int], source: str) -> None:
        if self._drag is not None and self.pointer.down:
            raise_, done = self._drag
            idx = self.hand.card_at(self.layout, pos)
            if idx is not None and idx not in done:
                done.add(idx)
                if self.hand.set_raised(idx, raise_):
                    self._damage_hand()
            return
        if source != "mouse":
            return
        for b in self.buttons:
            hov = b.rect.collidepoint(pos)
            if hov != b.hover:
                b.hover = hov
                self.invalidate(b.rect)

    def _pointer_up(self, pos: tuple[int, int]) -> None:
        self._drag = None
        pressed, self._pressed = self._pressed, None
        if pressed is None:
            return
        if pressed.key == "help:last":
            opened, t0 = self._last_press or (False, self.clock())
            self._last_press = None
            if not opened or self.clock() - t0 >= HOLD_S:  # a tap on an open view or a hold: hide
                self.toggle_last_trick(False)
            return
        for b in self.buttons:
            if b.key == pressed.key and b.hit(pos):
                self._click(b)
                return

    def _on_key(self, ev: Any) -> None:
        act = key_action(ev)
        if act is None:
            return
        now = self.clock()
        if ev.type == pygame.KEYUP:
            if act == "buried":
                extras.on_buried_key(self, ev, now)
            if act == "last" and self._last_down is not None:
                held = now - self._last_down >= HOLD_S
                self._last_down = None
                if held and self.show_last:
                    self.toggle_last_trick(False)
            return
        if act == "menu":  # Esc always opens the menu (Backspace lowers raised cards)
            escape(self.on_escape, "table")
        elif act == "skip":
            self.skip_animation()
        elif act == "hint":
            self.hint()
        elif act == "auto":
            self.toggle_auto()
        elif act == "buried":
            extras.on_buried_key(self, ev, now)
        elif act == "last":
            if getattr(ev, "repeat", False) or self._last_down is not None:
                return
            if self.show_last:
                self.toggle_last_trick(False)
            else:
                self.toggle_last_trick(True)
                self._last_down = now
        elif act in ("left", "right", "first", "last_card"):
            step = {"left": -1, "right": 1, "first": -10_000, "last_card": 10_000}[act]
            self.hand.move_cursor(step)
            self._damage_hand()
        elif act in ("raise", "lower", "toggle"):
            if not (self.panel.selectable and self.view.seat is not None) or self._dealing or self.show_settlement:
                return
            if self.hand.cursor is None:
                self.hand.move_cursor(0)
            i = self.hand.cursor
            if i is None:
                return
            if act == "toggle":
                self.hand.toggle(i)
            else:
                self.hand.set_raised(i, act == "raise")
            extras.smart_raise(self, i)
            self._damage_hand()
        elif act == "clear":
            if self.hand.selected:
                self.hand.selected.clear()
                self._damage_hand()
        elif act == "confirm":
            for b in self.buttons:
                if b.style == "primary" and b.enabled:
                    self._click(b)
                    return
        elif act.startswith("pick") or act == "pass":
            self._pick(act)

    def _pick(self, act: str) -> None:
        """Number keys: the n-th bid (1–4) or suit, 0/P pass."""
        from engine.state import Phase

        v = self.view
        if not v.my_turn or self._dealing or self.show_settlement:
            return
        key = None
        if v.phase == Phase.BID:
            if act == "pass":
                key = "bid:pass"
            else:
                legal = v.legal_bids()
                n = int(act[4:]) - 1
                if n < len(legal):
                    key = f"bid:{legal[n]}"
        elif v.phase == Phase.TRUMP and act != "pass":
            key = f"trump:{SUIT_ORDER[int(act[4:]) - 1]}"
        for b in self.buttons:
            if b.key == key and b.enabled:
                self._click(b)
                return

    def _click(self, b: Button) -> None:
        if b.key.startswith("tool:"):
            if self.on_toolbar is not None:
                self.on_toolbar(b.key[5:])
            self.renderer.clear()
            fonts.clear_cache()
            self._queue_prewarm()
            self.invalidate()
            return
        if b.key == "help:hint":
            self.hint()
            return
        if b.key == "help:auto":
            self.toggle_auto()
            return
        if b.key == "help:last":
            self.toggle_last_trick()
            return
        if b.key == "help:buried":
            extras.toggle_buried(self)
            return
        panel = self.panels["settle"] if b.key == "next" else self.panel
        panel.on_button(b, self.view)
        self.invalidate()

    def _damage_hand(self) -> None:
        lay = self.layout
        self.invalidate(lay.hand_area, lay.action_bar, lay.message_rect)

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
        self.timeline.update(now)
        if self._dealing and not self.timeline.find("deal"):
            self._end_deal()
        if not self.timeline.busy() and self.points_shown != list(self.view.points_won):
            self.points_shown = list(self.view.points_won)
            self._damage_points()
        # toasts expire
        if self.toasts and any(t.until <= now for t in self.toasts):
            self.toasts = [t for t in self.toasts if t.until > now]
        # settlement overlay after the last trick has been seen
        if (self._settle_at is not None and not self.show_settlement and now >= self._settle_at
                and not self.timeline.busy()):
            self.show_settlement = True
            self.settled_at = now
            self.invalidate()
        self._update_countdown()
        if self.panel.update(self.view, now):
            self._refresh()
            self.invalidate(self.layout.message_rect)
        self._run_auto(now)
        self._update_messages(now)
        if self._prewarm and not self.timeline.moving(now):  # only in frames with nothing moving
            self.renderer.prewarm(self._prewarm, 0.003)

    def _update_countdown(self) -> None:
        """Follow the host's turn timer (whole seconds, for the seat to act in our view);
        redraw the plates it is shown on when it changes."""
        cd = None
        if self.remote_timers and not self.show_settlement:
            try:
                got = self.table.countdown()
            except Exception:  # a display aid: never let it stop the game
                log.exception("turn countdown unavailable")
                got = None
            if got is not None and got[0] == self.view.to_act:
                cd = (got[0], max(0, math.ceil(got[1])))
        if cd != self.countdown:
            for c in (self.countdown, cd):
                if c is not None:
                    self.invalidate(self.layout.plates[position_of(c[0], self.view.seat)])
            self.countdown = cd

    def _run_auto(self, now: float) -> None:
        v = self.view
        if not (self.auto and v.my_turn and not self.show_settlement and not self._dealing):
            self._auto_at = None
            return
        if self._auto_at is None:
            self._auto_at = now + (0.0 if self.pace.instant else self.pace.action_s * 0.6)
            return
        if now < self._auto_at:
            return
        self._auto_at = None
        from game.helpers import suggest_action

        act = suggest_action(v)
        if act is not None:
            self.hand.selected.clear()
            self.submit(act)

    def _update_messages(self, now: float) -> None:
        """Work out the message line and the notice banner; damage what changed."""
        prompt = ""
        if not self.show_settlement:
            if self.auto and self.view.seat is not None and self.view.phase.value != "settle":
                prompt = _("Auto-play is on (press A or the Auto button to take over)")
            else:
                prompt = self.panel.prompt(self.view, now)
                cd = self.countdown
                if prompt and cd is not None and cd[0] == self.view.seat and self.view.phase.value != "trump":
                    prompt = _("{prompt} ({s} s left)").format(prompt=prompt, s=cd[1])
        self._last_prompt = prompt
        toast = next((t for t in reversed(self.toasts) if t.until > now and not t.notice), None)
        if toast is not None:
            msg = (toast.text, toast.color, toast.cards)
        else:
            msg = (prompt, TEXT, ())
        if msg != (self.message, self.message_color, self.message_cards):
            self.message, self.message_color, self.message_cards = msg
            self.invalidate(self.layout.message_rect)
        notes = [t.text for t in self.toasts if t.notice and t.until > now][-2:]
        if notes != self.notices:
            self.notices = notes
            self.invalidate(self.trick_region())

    def _refresh(self) -> None:
        self.view = self.table.view()
        self._sync_hand()
        v = self.view
        win = None
        if v.current_trick and v.ctx is not None:
            try:
                from engine.tricks import trick_winner

                win = v.current_trick[trick_winner([c for _s, c in v.current_trick], v.ctx)][0]
            except Exception:  # pragma: no cover - a partial trick the engine cannot judge
                win = None
        self.winning_seat = win

    def _sync_hand(self) -> None:
        v = self.view
        marked = v.kitty if (v.kitty and v.phase.value == "bury") else ()
        self.hand.trump_ctx = v.ctx
        self.hand.set_cards(extras.arrange(v.hand, v.ctx, self.prefs), marked)
        self.show_buried = self.show_buried and extras.can_show_buried(v)

    def _queue_prewarm(self) -> None:
        """Render card faces ahead of need, a few per frame: the hand, and every card at the
        played-card size (so that the first play of a card does not stall a frame)."""
        from engine.cards import Card

        lay = self.layout
        ctx = self.view.ctx if hasattr(self, "view") else None
        jobs = [(Card(i), lay.trick_w, lay.trick_h, False) for i in range(54)]
        hand = getattr(self.hand, "cards", ())
        jobs += [(c, lay.card_w, lay.card_h, bool(ctx and ctx.is_trump(c))) for c in hand]
        self._prewarm = jobs

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
            self.points_shown = [0, 0, 0, 0]
            self._dealing = False
            self.hand.visible = None
            if self.factor > 0:
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
        elif kind == "hand_settled":
            s = ev.settlement
            self._settle_at = now + (0.0 if self.factor <= 0 else 0.3 * self.factor)
            if me is not None:
                won = (s.dealer_final > 0) == (me == s.dealer)
                self.audio.play("win" if won else "lose")

    # -- animation builders ---------------------------------------------------------------------------
    def _callout(self, kind: str, seat: int, text: str, now: float, icon: str | None = None) -> None:
        """A speech bubble at ``seat``'s place on the table (bids, trump, points won)."""
        self.callouts.append((kind, seat, text))
        if self.factor <= 0:
            return
        lay = self.layout
        pos = position_of(seat, self.view.seat)
        size = round(lay.font_size * (1.35 if kind == "trump" else 1.1))
        ic = hud.suit_badge(icon, round(size * 1.1)) if icon else None
        img = hud.bubble(text, size, ACCENT if kind == "trump" else TEXT, icon=ic)
        if kind == "points":
            center = lay.plates[pos].center
            rise = round(lay.plate_h * 0.9)
        elif kind == "trump":
            center = lay.trick_area.center
            rise = round(lay.font_size * 1.2)
        else:
            center = lay.trick_centers[pos]
            rise = round(lay.font_size * 0.8)
        dur = (1.6 if kind in ("trump", "dealer") else 1.2) * max(0.6, self.factor)
        for a in self.timeline.find("callout"):
            if a.key[2] == seat and (a.key[1] == kind or kind == "dealer"):
                self.timeline.anims.remove(a)  # the dealer call-out replaces that seat's bid
        self.timeline.add(Callout(("callout", kind, seat), img, center, now, dur, rise, bounds=lay.screen))

    def _start_deal(self, now: float, first: int) -> None:
        lay = self.layout
        self._dealing = True
        self.hand.visible = 0
        self._deal_landed = [0, 0, 0, 0]
        back = self.renderer.back(lay.back_w, lay.back_h)
        centre = pygame.Rect(0, 0, lay.back_w, lay.back_h)
        centre.center = lay.trick_area.center
        hand_size = max(1, self.view.ruleset.hand_size)
        rounds = min(hand_size, 8)
        self._deal_rounds = rounds
        total = self.pace.deal_s * self.factor
        step = total / (rounds * 4 + 2)
        fly = max(step * 3, 0.12 * self.factor)
        for r in range(rounds):
            for k in range(4):
                seat = (first + k) % 4
                pos = position_of(seat, self.view.seat)
                if pos == BOTTOM:
                    end = pygame.Rect(0, 0, lay.back_w, lay.back_h)
                    end.midbottom = (lay.w // 2, lay.hand_area.bottom - lay.card_h // 3)
                else:
                    end = lay.backs[pos].copy()
                    end.size = (lay.back_w, lay.back_h)
                t0 = now + (r * 4 + k) * step
                self.timeline.add(Flight(("deal", seat, r), [back], [centre], [end], t0, fly,
                                         on_done=lambda s=seat: self._deal_landing(s)))

    def _deal_landing(self, seat: int) -> None:
        self._deal_landed[seat] += 1
        lay = self.layout
        pos = position_of(seat, self.view.seat)
        if pos == BOTTOM or self.view.seat is None and pos == BOTTOM:
            n = len(self.hand.cards)
            self.hand.visible = min(n, round(n * self._deal_landed[seat] / self._deal_rounds))
            self.invalidate(lay.hand_area)
        self.invalidate(lay.plates[pos], lay.backs[pos] if pos != BOTTOM else lay.plates[pos])

    def _end_deal(self) -> None:
        self._dealing = False
        self.hand.visible = None
        self.invalidate()

    def _deal_count(self, seat: int) -> int | None:
        """Cards shown for ``seat`` while dealing (None when not dealing)."""
        if not self._dealing:
            return None
        n = self.view.hand_sizes[seat]
        return min(n, round(n * self._deal_landed[seat] / max(1, self._deal_rounds)))

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
        if self.factor <= 0 or self.pace.anim_s <= 0:
            self._play_origin = []
            self.invalidate(self.trick_region())
            return
        pos = position_of(ev.seat, self.view.seat)
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
        pos = position_of(ev.seat, self.view.seat)
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
        wpos = position_of(winner, self.view.seat)
        target = lay.plates[wpos]
        flights = []
        dur = max(0.2, 0.4 * f)
        for seat, cards in plays:
            pos = position_of(seat, self.view.seat)
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
        seats = range(4) if seat is None else (seat,)
        rects += [lay.plates[position_of(s, self.view.seat)] for s in seats]
        self.invalidate(*rects)

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
        return out

    def _components(self) -> list[tuple[pygame.Rect, Callable[[pygame.Surface], None]]]:
        lay = self.layout
        v = self.view
        comps: list[tuple[pygame.Rect, Callable]] = [
            (lay.info_rect, lambda s: hud.draw_info(s, lay, v, self.names, getattr(self.table, "hand_no", v.hand_no))),
            (lay.scores_rect, lambda s: hud.draw_points(s, lay, v, self.names, self.points_shown, self.totals)),
        ]
        if v.phase.value in ("trump", "bury", "play", "settle") or v.tricks:
            comps.append((lay.counter_rect, self._draw_counter))
        for seat in range(4):
            pos = position_of(seat, v.seat)
            comps.append((lay.plates[pos], lambda s, seat=seat: self._draw_plate(s, seat)))
            if pos != BOTTOM:
                comps.append((lay.backs[pos], lambda s, seat=seat: self._draw_backs(s, seat)))
        comps.append((self.trick_region(), self._draw_trick_area))
        comps.append((lay.message_rect, self._draw_message))
        comps.append((lay.hand_area, self._draw_hand))
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
                if b.key != "next" and b.rect.colliderect(clip):
                    b.draw(surf, self.layout.font_size)
            if overlay and self.layout.overlay.colliderect(clip):
                sp = self.panels["settle"]
                sp.draw(surf, self.view)
                for b in self.buttons:
                    if b.key == "next":
                        b.draw(surf, self.layout.font_size)
        surf.set_clip(None)
        return None if damage is None else rects

    def _build_buttons(self) -> list[Button]:
        v = self.view
        out = self._toolbar_buttons() + self._tool_buttons()
        if not self.show_settlement and not self._dealing:
            panel_buttons = self.panel.buttons(v)
            for b in panel_buttons:
                if b.key == self._hint_key:
                    b.selected = True
            out += panel_buttons
        if self.show_settlement:
            out += self.panels["settle"].buttons(v)
        old = {b.key: b.hover for b in self.buttons}
        for b in out:
            b.hover = old.get(b.key, False)
        return out

    def _toolbar_buttons(self) -> list[Button]:
        """The toolbar (top right): ``toolbar_items()`` as a row of buttons whose labels keep
        at least ``layout.min_font`` px (shorter labels or icons alone when room is short).

        An item is ``(key, label)`` or ``(key, label, icon, short[, enabled])``: ``icon`` a
        :data:`game.widgets.ICONS` name drawn left of the label, ``short`` the label used when
        the row is short of room (``""``: the icon alone)."""
        items = [RowItem(*it) for it in self.toolbar_items()]
        return self._fit_buttons(items, self.layout.toolbar, "tool:", [it.enabled for it in items],
                                 [False] * len(items))

    def _tool_buttons(self) -> list[Button]:
        """Last trick / Hint / Auto-play under the left-hand seat (on two rows when one is short of room)."""
        v = self.view
        items = [("help:last", _("Last trick"), v.last_trick is not None, self.show_last)]
        if extras.can_show_buried(v):
            items.append(("help:buried", _("Kitty"), True, self.show_buried))
        if v.seat is not None:
            items.append(("help:hint", _("Hint"), v.my_turn and not self._dealing and not self.show_settlement, False))
            items.append(("help:auto", _("Auto"), True, self.auto))
        lay = self.layout
        rows, area = [items], lay.tools_rect
        gap = max(3, lay.margin // 2)
        if area.h >= 2 * lay.button_h and len(items) > 1:
            one_row = sum(button_width(label, lay.min_font, pad=12) for _k, label, _e, _s in items)
            rows = [items] if one_row + gap * (len(items) - 1) <= area.w else [items[:1], items[1:]]
        row_h = min(lay.toolbar.h, (area.h - gap * (len(rows) - 1)) // len(rows))
        top = area.centery - (row_h * len(rows) + gap * (len(rows) - 1)) // 2
        out = []
        for i, row in enumerate(rows):
            out += self._fit_buttons([RowItem(k, label) for k, label, _e, _s in row],
                                     pygame.Rect(area.x, top + i * (row_h + gap), area.w, row_h), "",
                                     [e for _k, _l, e, _s in row], [sel for _k, _l, _e, sel in row])
        return out

    def _fit_buttons(self, items: list[RowItem], area: pygame.Rect, prefix: str, enabled: list[bool],
                     selected: list[bool]) -> list[Button]:
        """``items`` as flat buttons filling ``area`` (see :func:`game.widgets.fit_row`)."""
        lay = self.layout
        gap = max(3, lay.margin // 2)
        size, placed = fit_row(items, area, lay.font_size, lay.min_font, gap)
        out = []
        for it, (rect, label, isz), en, sel in zip(items, placed, enabled, selected):
            ic = icon(it.icon, isz, label_color("flat", en)) if it.icon and isz else None
            out.append(Button(prefix + it.key, rect, label, enabled=en, style="flat", selected=sel, icon=ic,
                              font_size=size))
        return out

    def _draw_plate(self, surf: pygame.Surface, seat: int) -> None:
        v = self.view
        cd = self.countdown
        hud.draw_plate(surf, self.layout, v, seat, self.names, self._deal_count(seat),
                       points=self.points_shown[seat], auto=self.auto and seat == v.seat,
                       winning=seat == self.winning_seat,
                       countdown=cd[1] if cd is not None and cd[0] == seat else None)

    def _draw_backs(self, surf: pygame.Surface, seat: int) -> None:
        lay = self.layout
        pos = position_of(seat, self.view.seat)
        count = self._deal_count(seat)
        count = self.view.hand_sizes[seat] if count is None else count
        back = self.renderer.back(lay.back_w, lay.back_h)
        for r in lay.back_rects(pos, count):
            surf.blit(back, r)

    def _draw_counter(self, surf: pygame.Surface) -> None:
        from game.helpers import card_counter

        hud.draw_counter(surf, self.layout, card_counter(self.view))

    def _draw_hand(self, surf: pygame.Surface) -> None:
        lay = self.layout
        v = self.view
        if v.seat is None:  # observer: the bottom seat's backs in the hand area
            count = self._deal_count(0)
            count = v.hand_sizes[0] if count is None else count
            rects = lay.hand_rects(count)
            back = self.renderer.back(lay.card_w, lay.card_h)
            for r in rects[: min(len(rects), 40)]:
                surf.blit(back, r)
            return
        self.hand.draw(surf, lay, self.renderer)

    def _trick_on_table(self) -> tuple[Sequence, int | None, bool, Any]:
        """What lies on the table at rest: ``(plays, winner, finished, trick)``."""
        v = self.view
        if v.current_trick:
            return v.current_trick, self.winning_seat, False, None
        last = v.last_trick
        if last is not None and last.trick_no > self._swept and v.phase.value in ("play", "settle"):
            return last.plays, last.winner, True, last
        return (), None, False, None

    def _draw_trick_area(self, surf: pygame.Surface) -> None:
        if self.show_buried:
            extras.draw_buried(surf, self)
        elif self.show_last:
            self._draw_last_trick(surf)
        else:
            self._draw_trick(surf)
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
            pos = position_of(seat, v.seat)
            rects = lay.trick_rects(pos, len(cards))
            for c, r in zip(cards, rects):
                surf.blit(self.renderer.face(c, lay.trick_w, lay.trick_h), r)
            if seat == winner and rects:
                box = rects[0].unionall(rects).inflate(6, 6)
                pygame.draw.rect(surf, ACCENT, box, width=3, border_radius=8)
                label = _("Won") if done else _("Winning")
                if done and last is not None and last.points:
                    label += f" +{last.points}"
                if self._label_below(box):
                    draw_text(surf, label, lay.small_font, ACCENT, (box.centerx, box.bottom + 2), anchor="midtop",
                              bold=True)
                else:
                    draw_text(surf, label, lay.small_font, ACCENT, (box.centerx, box.y - 2), anchor="midbottom",
                              bold=True)

    def _label_below(self, box: pygame.Rect) -> bool:
        """True when the "Winning"/"Won" label of the cards in ``box`` goes under them: above
        them it would run into the top seat's name plate or cards."""
        lay = self.layout
        h = round(lay.small_font * 1.5)
        above = pygame.Rect(box.x, box.y - 2 - h, box.w, h)
        return above.colliderect(lay.plates[TOP]) or above.colliderect(lay.backs[TOP]) or above.y < 0

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
        anchors = {BOTTOM: (cx, inner.bottom - ch // 2), TOP: (cx, inner.y + ch // 2),
                   RIGHT: (inner.right - cw * 2, cy), LEFT: (inner.x + cw * 2, cy)}
        for seat, cards in last.plays:
            pos = position_of(seat, v.seat)
            n = len(cards)
            st = min(step, (inner.w // 3 - cw) // max(1, n - 1)) if n > 1 else 0
            width = cw + st * (n - 1)
            ax, ay = anchors[pos]
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

    def _active_notices(self) -> list[Toast]:
        """The announcements shown now (at most two, newest last)."""
        now = self.clock()
        return [t for t in self.toasts if t.notice and t.until > now][-2:]

    def _trick_obstacles(self) -> list[pygame.Rect]:
        """Where played cards lie (or are about to land) on the table, with the room of the
        "Winning"/"Won" label, and the last-trick box when it is open: what notices avoid."""
        lay = self.layout
        v = self.view
        out: list[pygame.Rect] = []
        if self.show_last or self.show_buried:
            out.append(self.last_trick_box())
        plays, winner, _done, _last = self._trick_on_table()
        for seat, cards in plays:
            rects = lay.trick_rects(position_of(seat, v.seat), len(cards))
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
        pref = lay.trick_centers[position_of(thrower, self.view.seat)] if thrower is not None else ta.center
        played = {seat for seat, _c in self._trick_on_table()[0]}
        slots = [lay.trick_rects(position_of(seat, self.view.seat), 1)[0].inflate(8, 8)
                 for seat in range(4) if seat not in played]
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


def _indices(hand: Sequence[Any], cards: Sequence[Any]) -> set[int]:
    from game.helpers import indices_of

    return indices_of(hand, cards)
