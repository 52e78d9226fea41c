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

The scene is split by job; :class:`TableScene` (this module: state, requests, the per-frame
update) combines the parts:

- :mod:`game.scenes.table_input` — pointer, touch and keys to intents;
- :mod:`game.scenes.table_model` — what is shown, derived from the view and the events;
- :mod:`game.scenes.table_motion` — table events to animations, sounds and announcements;
- :mod:`game.layout` — the rects for a window size (testable without drawing);
- :mod:`game.scenes.table_draw` and :mod:`game.scenes.table_buttons` — drawing and buttons;
- :mod:`game.scenes.table_notices` — where announcements go, and drawing them;
- :mod:`game.scenes.table_chat` — the chat panel and speech bubbles of a LAN table.
"""
from __future__ import annotations

import logging
import time
from typing import Any, Callable, Sequence

import pygame

from game.audio import Audio
from game.cards_render import CardRenderer
from game.i18n import _
from game.input import PointerInput
from game.layout import DEFAULT_SEATS, Layout, position_of
from game.pacing import Pace
from game.render_backend import SoftwareBackend
from game.scenes import hud
from game.scenes.animation import Flight, Timeline
from game.scenes.base import Panel
from game.scenes.bidding import BiddingPanel
from game.scenes.bury import BuryPanel
from game.scenes.hand import HandView
from game.scenes.play import PlayPanel
from game.scenes.settle import SettlePanel
from game.scenes import table_extras as extras
from game.scenes.table_buttons import TableButtons
from game.scenes.table_chat import TableChat
from game.scenes.table_draw import TableDraw
from game.scenes.table_input import TableInput
from game.scenes.table_model import _FACTOR, ANIMATIONS, GOOD, INFO, TableModel, _indices
from game.scenes.table_motion import TableMotion
from game.scenes.table_notices import TableNotices
from game.scenes.trump import TrumpPanel
from game.text import cards_label, reason_text, suit_label
from game.widgets import ERROR, Button, Toast

log = logging.getLogger(__name__)


class TableScene(TableInput, TableMotion, TableModel, TableDraw, TableButtons, TableNotices, TableChat):
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
        #: called by the Leave to menu button of a LAN 找朋友 table whose match is over (the app's
        #: ``leave_table``); None: the button is not offered
        self.on_leave: Callable[[], None] | None = None
        self.renderer = CardRenderer()
        self.hand = HandView()
        self.panels: dict[str, Panel] = {
            "bid": BiddingPanel(self), "trump": TrumpPanel(self), "bury": BuryPanel(self),
            "play": PlayPanel(self), "settle": SettlePanel(self),
        }
        if self._zpy_table():  # 找朋友: its own deal, friend call, counter round and settlement
            from game.scenes.zpy_panels import DeclarePanel, FriendPanel, ZpySettlePanel

            declare = DeclarePanel(self)
            self.panels.update({"deal": declare, "counter": declare, "call_friend": FriendPanel(self),
                                "settle": ZpySettlePanel(self)})
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
        self.points_shown = [0] * self._seat_count()
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
        self._deal_landed: list[int] = [0] * self._seat_count()
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
        self.layout = Layout(*size, max_hand=self._max_hand(), seats=self._seat_count())
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
            return (0,) * self.layout.seats

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

    def _zpy_table(self) -> bool:
        """True for a 找朋友 table (its ruleset says so)."""
        rs = getattr(self.table.view(), "ruleset", None)
        return bool(getattr(rs, "is_zhaopengyou", False))

    @property
    def zpy(self) -> bool:
        """True when the table plays 找朋友 (RULES.md "找朋友"): five seats, levels, a friend."""
        return bool(getattr(self.view.ruleset, "is_zhaopengyou", False))

    def _seat_count(self) -> int:
        """Seats at the table: the ruleset's ``players`` (RULES.md §1), else the default."""
        rs = getattr(self.table.view(), "ruleset", None)
        return rs.players if rs is not None else DEFAULT_SEATS

    def pos_of(self, seat: int) -> int:
        """Screen position of ``seat`` seen from the local seat (see :func:`game.layout.position_of`)."""
        return position_of(seat, self.view.seat, self.layout.seats)

    def _max_hand(self) -> int:
        rs = getattr(self.table.view(), "ruleset", None)
        return (rs.hand_size + rs.kitty_size) if rs is not None else 33

    # -- external requests ------------------------------------------------------------------------
    xray = False
    """X-ray 透视 on: AI reasoning panels beside the plates (:mod:`game.scenes.xray`; the
    app sets it from ``Settings.xray``)."""

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
        self.layout = Layout(w, h, max_hand=self._max_hand(), seats=self._seat_count())
        self._felt = hud.felt(w, h)
        self.renderer.clear()
        self._static = None
        self._queue_prewarm()
        if self.chat is not None:
            self.chat.layout()
            self._chat_rects = {}
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

    def request_leave(self) -> None:
        """The Leave to menu button (a LAN 找朋友 match that is over): hand over to the app."""
        if self.on_leave is not None:
            self.on_leave()

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
        if self.zpy:
            return self._zpy_hint(act)
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

    def _zpy_hint(self, act: Any) -> Any:
        """Show a 找朋友 suggestion: cards raised (play, bury), the friend call chosen, or the
        declaration / pass named."""
        kind = type(act).__name__
        if kind in ("Play", "Bury"):
            self.hand.selected = _indices(self.hand.cards, act.cards)
            self.toast(_("Suggested: {cards}").format(cards=cards_label(act.cards)), GOOD, 3.0, notice=False)
        elif kind == "CallFriend":
            self.panels["call_friend"].select(act.card, act.nth)
        elif kind == "Declare":
            self.toast(_("Suggested: {cards}").format(cards=cards_label(act.cards)), GOOD, 3.0, notice=False)
        else:
            self.toast(_("Suggested: pass"), GOOD, 3.0, notice=False)
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
        if getattr(self, "xray", False):  # X-ray: redraw when an AI's reasoning changed
            from game.scenes.xray import signature

            sig = signature(self.table, self.view)
            if sig != getattr(self, "_xray_sig", None):
                self._xray_sig = sig
                self.invalidate()
        self._update_countdown()
        if self.panel.update(self.view, now):
            self._refresh()
            self.invalidate(self.layout.message_rect)
        self._run_auto(now)
        self._chat_update(now)
        self._update_messages(now)
        if self._prewarm and not self.timeline.moving(now):  # only in frames with nothing moving
            self.renderer.prewarm(self._prewarm, 0.003)

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


