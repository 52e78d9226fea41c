"""A local 找朋友 (Finding Friends) table: an :class:`engine.match.ZpyMatch` in this process,
with AI players in the seats that are not the human's.

It speaks the :class:`game.table.Table` protocol of :mod:`game.table` with these differences
(RULES.md "找朋友"):

- five seats (the ruleset's ``players``), one deal per hand of 31 cards each and a kitty of 7;
- ``view()`` is an :class:`engine.zhaopengyou.ZpyView`; while the deal is being shown it is the
  view *as dealt so far* (see below), so the hand grows card by card;
- ``levels()``: every seat's level rank (2..14) before the current hand (the match standings);
  ``totals()`` are those levels too (the client shows them where 红五 shows game points);
- ``countdown()``: ``(seat, seconds left)`` of the local human's declaration or counter window,
  else None. A human who does nothing in a window passes when it runs out (找朋友 spec §3, §5:
  a window does not wait for ever); calling the friend and burying have no timer. A deal
  window that offers the same declarations as the last one the human let pass is short
  (:data:`REPEAT_WINDOW_S`), so holding level cards does not stall the deal after every card.

The deal is shown card by card: the engine deals up to the next seat it must ask, and the
table lets its ``CardDealt`` events out at ``card_s`` seconds a card (``instant``: all at once);
no seat acts before every card dealt so far has been shown.
"""
from __future__ import annotations

import concurrent.futures
import logging
import random
import time
from dataclasses import replace
from typing import Any, Callable, Sequence

from game.pacing import Pace, pace
from game.table import HUMAN, LocalTable

log = logging.getLogger(__name__)

#: seconds a human has to declare in a deal window before passing (normal pace)
DECLARE_WINDOW_S = 5.0
#: seconds a human has to counter (反牌) before passing
COUNTER_WINDOW_S = 10.0
#: seconds of a deal window that offers nothing new (the same declarations the human let pass
#: in the previous window): the Declare button stays lit, the deal keeps flowing
REPEAT_WINDOW_S = 0.8


def zpy_first_legal(view: Any) -> Any:
    """The simplest legal action in a :class:`~engine.zhaopengyou.ZpyView` (its seat to act):
    pass a window, the first legal friend call, bury the first 7 cards held, the first legal
    play. ValueError when the seat is not to act."""
    from engine.state import Bury, Play
    from engine.zhaopengyou import CallFriend, Pass, ZPhase, legal_friend_calls

    seat = view.seat
    if seat is None or not view.my_turn:
        raise ValueError("this seat is not to act")
    if view.phase in (ZPhase.DEAL, ZPhase.COUNTER):
        return Pass(seat)
    if view.phase is ZPhase.CALL_FRIEND:
        card, nth = legal_friend_calls(view.trump, view.level, view.ruleset.options)[0]
        return CallFriend(seat, card, nth)
    if view.phase is ZPhase.BURY:
        return Bury(seat, tuple(view.hand[: view.bury_count]))
    return Play(seat, next(iter(view.play_options())))


class ZpyFirstLegal:
    """Fallback AI for 找朋友 seats (no ``ai_plugins``): :func:`zpy_first_legal`."""

    def __init__(self, seat: int, seed: int | None = None) -> None:
        self.seat = seat

    def act(self, view: Any) -> Any:
        """The first legal action for ``view``."""
        return zpy_first_legal(view)

    def fallback_action(self, view: Any, reason: str | None = None) -> Any:
        """Same as :meth:`act`."""
        return self.act(view)

    def close(self) -> None:
        """Nothing to release."""


class ZpyLocalTable(LocalTable):
    """A 找朋友 match at one screen (see the module docstring).

    Arguments: ``kinds`` (five seat kinds, ``"human"`` or an AI name; at most one human);
    ``seed`` (match seed: hand k from ``engine.state.match_seed(seed, k)``; None random);
    ``speed``; ``players`` (``{seat: player}`` instead of making AIs); ``names``; ``clock``;
    ``zpy_options`` (keyword options for :func:`engine.ruleset.zhaopengyou`, e.g.
    ``{"kitty_multiplier": "power"}``); ``max_hands`` (None: until the game ends);
    ``declare_window_s`` / ``counter_window_s`` (the human's windows, seconds). Raises
    ValueError for a wrong seat count, two humans or a bad option.
    """

    def __init__(self, kinds: Sequence[str], *, seed: int | None = None, speed: str = "normal",
                 players: dict[int, Any] | None = None, names: Sequence[str] | None = None,
                 clock: Callable[[], float] = time.monotonic, zpy_options: dict[str, Any] | None = None,
                 max_hands: int | None = None, budget_s: float = 2.0, plugin_dirs: Sequence[str] = (),
                 ai_specs: Sequence[str] = (), user_plugins: bool = True, slice_s: float = 0.012,
                 declare_window_s: float = DECLARE_WINDOW_S, counter_window_s: float = COUNTER_WINDOW_S,
                 **_ignored: Any) -> None:
        from engine.match import ZpyMatch
        from engine.ruleset import zhaopengyou

        #: the 找朋友 options this table was made with (``{name: value}``, RULES.md "找朋友")
        self.zpy_options = dict(zpy_options or {})
        self.ruleset = zhaopengyou(**self.zpy_options)
        n = self.ruleset.players
        kinds = list(kinds)
        if len(kinds) != n:
            raise ValueError(f"找朋友 needs {n} seats, got {len(kinds)}")
        humans = [i for i, k in enumerate(kinds) if k == HUMAN]
        if len(humans) > 1:
            raise ValueError("at most one human seat is supported at a local table")
        self.kinds = kinds
        self.seat: int | None = humans[0] if humans else None
        self.names = tuple(names) if names else tuple(kinds)
        self.pace: Pace = pace(speed)
        self._clock = clock
        self._slice_s = slice_s
        self.match_seed = seed if seed is not None else random.SystemRandom().getrandbits(32)
        if players is None:
            from game.table import make_ai_players

            players = make_ai_players(kinds, seed=seed, budget_s=budget_s, plugin_dirs=plugin_dirs,
                                      ai_specs=ai_specs, user_plugins=user_plugins)
        self.players = players
        self._pool = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="hongwu-ai")
        self._pending: tuple[int, Any, concurrent.futures.Future] | None = None
        self._outbox: list[Any] = []
        self._held: list[Any] = []  # engine events not yet shown (the deal, card by card)
        self._shown_deal: list[list[Any]] = [[] for _ in range(n)]  # cards shown per seat this deal
        self._card_at = 0.0
        self._window: tuple[int, str, float] | None = None  # the human's open window: (seat, phase, ends)
        self.declare_window_s = declare_window_s
        self.repeat_window_s = min(REPEAT_WINDOW_S, declare_window_s)
        self._passed_offer: tuple | None = None  # the declarations offered in the last window passed
        self.counter_window_s = counter_window_s
        self._view_cache: Any = None
        self._next_at = 0.0
        self.settlements: list[Any] = []
        self.hand_seeds: list[int] = []
        self.closed = False
        self.match = ZpyMatch(self.ruleset, seed=self.match_seed, max_hands=max_hands)
        self.hand_no = 1
        self.game: Any = self.match.hand
        self._start_hand()

    # -- pacing of the deal --------------------------------------------------------------------
    @property
    def card_s(self) -> float:
        """Seconds between two dealt cards shown (0 at ``instant`` pace)."""
        return self.pace.deal_s / 32.0

    def _start_hand(self) -> None:
        self._view_cache = None
        self._shown_deal = [[] for _ in range(self.ruleset.players)]
        self._window = None
        self._hold(self.game.events)
        self._next_at = self._clock()

    def _hold(self, events: Sequence[Any]) -> None:
        self._held.extend(events)
        self._release()

    def _release(self) -> None:
        """Let out the held events whose time has come: everything up to the next dealt card,
        then a card every :attr:`card_s` seconds."""
        now = self._clock()
        step = self.card_s
        while self._held:
            ev = self._held[0]
            kind = ev.kind
            if kind == "card_dealt" and step > 0:
                if now < self._card_at:  # not yet: the last card shown was less than a step ago
                    break
                self._card_at = max(self._card_at, now - step) + step  # the next card's time
            del self._held[0]
            if kind in ("hand_started", "redealt"):
                self._shown_deal = [[] for _ in range(self.ruleset.players)]
            elif kind == "card_dealt":
                self._shown_deal[ev.seat].append(ev.cards[0])
            self._view_cache = None
            seen = ev.for_seat(self.seat)
            if seen is not None:
                self._outbox.append(seen)

    @property
    def showing_deal(self) -> bool:
        """True while dealt cards are still waiting to be shown."""
        return bool(self._held)

    # -- Table protocol ----------------------------------------------------------------------
    def view(self) -> Any:
        """The local seat's view; while the deal is being shown, the view as dealt so far
        (own cards shown, hand sizes, nobody to act, no dealer yet)."""
        if self._view_cache is None:
            v = self.game.view(self.seat)
            if self._held:
                from engine.zhaopengyou import ZPhase

                mine = tuple(sorted(self._shown_deal[self.seat])) if self.seat is not None else ()
                v = replace(v, phase=ZPhase.DEAL, hand=mine, hand_sizes=tuple(len(h) for h in self._shown_deal),
                            cards_dealt=sum(len(h) for h in self._shown_deal), to_act=None,
                            legal_declarations=(), dealer=None, level=None, trump=None, trump_known=False,
                            kitty=None, kitty_flip=None, friend_call=None, burier=None, buried=None)
            self._view_cache = v
        return self._view_cache

    def submit(self, action: Any) -> str | None:
        """Apply the local human's ``action`` (None: accepted, else the engine's reason)."""
        if self._held:
            return "wait for the deal"
        from engine.zhaopengyou import ZPhase

        offer = tuple(self.game.declarations_for(self.seat)) if self.game.phase is ZPhase.DEAL else None
        reason = super().submit(action)
        if reason is None:
            self._window = None
            self._passed_offer = offer if type(action).__name__ == "Pass" else None
        return reason

    def poll(self) -> list[Any]:
        """Events since the last poll (the deal shown card by card); lets the AIs act and
        passes the human's window when it runs out."""
        if not self.closed:
            self._release()
            if not self._held:
                self._run_window()
                self._run_ais()
        out, self._outbox = self._outbox, []
        return out

    def next_hand(self) -> str | None:
        """Deal the next hand of the match once this one is settled (None), else why not
        (not over, or the match is over: the game has been won or the hand limit reached)."""
        from engine.match import MatchOver

        if self.closed:
            return "the table is closed"
        if not self.game.is_over:
            return "the hand is not over"
        try:
            self.game = self.match.next_hand()
        except MatchOver as exc:
            return str(exc)
        self.hand_no = self.match.hand_no
        self._start_hand()
        return None

    def levels(self) -> tuple[int, ...]:
        """Every seat's level rank (2..14) before the current hand (after it once settled)."""
        st = self.game.settlement
        return tuple(st.levels) if st is not None else tuple(self.match.levels)

    def totals(self) -> tuple[int, ...]:
        """The match standings: every seat's level (see :meth:`levels`)."""
        return self.levels()

    def countdown(self) -> tuple[int, float] | None:
        """``(seat, seconds left)`` of the local human's open declaration/counter window."""
        w = self._window
        if w is None or self._held:
            return None
        return (w[0], max(0.0, w[2] - self._clock()))

    # -- internals ---------------------------------------------------------------------------
    def _run_window(self) -> None:
        """Open a window when the engine asks the human to declare or counter; pass for them
        when it runs out."""
        from engine.zhaopengyou import Pass, ZPhase

        g = self.game
        seat = self.seat
        phase = g.phase
        if seat is None or g.to_act != seat or phase not in (ZPhase.DEAL, ZPhase.COUNTER):
            self._window = None
            return
        key = (seat, phase.value)
        now = self._clock()
        if self._window is None or self._window[:2] != key:
            length = self.declare_window_s if phase is ZPhase.DEAL else self.counter_window_s
            offer = tuple(g.declarations_for(seat))
            if phase is ZPhase.DEAL and offer == self._passed_offer:
                length = self.repeat_window_s  # nothing new since the last window you let pass
            self._window = (seat, phase.value, now + length)
            self._view_cache = None
            return
        if now >= self._window[2]:
            log.info("seat %d's %s window ran out: pass", seat, phase.value)
            self._window = None
            self._passed_offer = tuple(g.declarations_for(seat))
            self._accept(g.apply(Pass(seat)))

    def _accept(self, events: Sequence[Any]) -> None:
        """After any applied action: hold the events (the deal is shown card by card), pace
        the AIs, keep the settlements."""
        self._view_cache = None
        self._hold(events)
        delay = self.pace.action_s
        for ev in events:
            kind = getattr(ev, "kind", "")
            if kind == "trick_won":
                delay = self.pace.action_s + self.pace.trick_s
            elif kind in ("passed", "card_dealt") and self.game.phase.value in ("deal", "counter"):
                delay = 0.0  # a pass in a window is instant: the deal goes on
            elif kind == "declared":
                delay = self.pace.action_s * 0.5
            elif kind == "hand_settled":
                self.settlements.append(ev.settlement)
                try:
                    self.match.finish_hand()
                except ValueError:  # pragma: no cover - settled means over
                    pass
        self._next_at = self._clock() + delay

    def _first_legal(self, seat: int, view: Any) -> Any:
        """The first legal 找朋友 action for ``view`` (a lost or refused AI answer)."""
        return zpy_first_legal(view)

    def _quick(self) -> bool:
        """Decisions in the deal's windows do not wait for the pace (nor at instant pace)."""
        from engine.zhaopengyou import ZPhase

        return self.pace.instant or self.game.phase in (ZPhase.DEAL, ZPhase.COUNTER)

    def _may_run_ais(self) -> bool:
        """The AIs wait while dealt cards are still being shown (held events)."""
        return not self._held
