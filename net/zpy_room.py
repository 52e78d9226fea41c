"""A 找朋友 table on the LAN host: five seats, a match carried from hand to hand.

:class:`ZpyRoom` is a :class:`net.server.Room` whose hands are
:class:`engine.zhaopengyou.ZpyHand` of one :class:`engine.match.ZpyMatch` (levels, the
declaring right and the first card carried on, 找朋友 spec §10). Everything else (seats,
tokens, reconnect grace, auto-play 托管, observers, chat, limits) is the Room's. What differs:

- **Who may join**: only sessions speaking protocol 3 (older clients cannot read a
  ``ZpyView``): anyone else gets a fatal ``VERSION_MISMATCH`` naming the ruleset
  (PROTOCOL.md §13).
- **Actions**: ``declare``/``pass`` in a deal window or a counter turn, ``call_friend``,
  ``bury`` (7 cards), ``play``; :data:`net.zpy_codec.METHOD_PHASES` says when.
- **Timers** (:class:`net.server.Timers`): ``deal`` seconds for a polled seat's declaration
  window and ``counter`` for a counter turn, after which the seat *passes* (no auto-play);
  ``call_friend``, ``bury`` and ``play`` as 红五's turn timer (then auto-play takes the seat).
  AI and auto-played seats decide windows and counter turns at once (no ``ai_delay_s``).
- **Hidden information**: in the deal and counter round only the polled seat learns it is
  polled (its own ``turn``/``view``); everyone else gets ``seat`` nil, and anonymous passes
  (``Event.for_seat``). Views are the engine's per-seat ``ZpyView``: other hands, the kitty
  (except to the seat holding it while it buries) and the friend (until revealed) are never
  in them. A full view follows every batch of events (``views_always``).
- **The deal, card by card**: the engine deals up to the next polled seat at once; the room
  sends those ``card_dealt`` events one at a time, ``TableConfig.deal_card_s`` seconds apart,
  each with the views of the deal so far (:func:`net.zpy_deal.view_so_far`), and only then
  opens the polled seat's window (its AI acts, or its timer starts). While cards are still
  being sent nobody is to act (``turn.seat`` nil) and an action is refused NOT_YOUR_TURN, so
  every seat sees the same cards at the same time and its window is a real one.
- **The seed after the hand**: the hand's seed goes out once the hand is over, in the ``hand_settled`` settlement (``seed``), so that a
  client can re-deal and record the hand it played (:mod:`net.zpy_log`); the match seed
  the next hands come from never leaves the host.
- **Scores**: a seat's ``score`` is the levels it gained at this table; the ``Table`` map
  carries ``ruleset`` and the ``Match`` standings; no hand is dealt once the game is over.
"""
from __future__ import annotations

import logging
from typing import Any

from engine.match import MatchOver, ZpyMatch
from engine.ruleset import zhaopengyou
from engine.state import IllegalAction
from engine.zhaopengyou import Pass, ZPhase

from . import zpy_codec
from .zpy_deal import view_so_far
from .protocol import ErrorCode, ProtocolError
from .server import Room, TableConfig, _refusal

log = logging.getLogger(__name__)

ZPY = "zhaopengyou"
"""The ruleset name of 找朋友 tables (``TableConfig.ruleset``)."""

ZPY_PROTOCOL = 3
"""The oldest protocol version a session at a 找朋友 table may speak."""

_WINDOWS = (ZPhase.DEAL, ZPhase.COUNTER)


def make_room(server: Any, config: TableConfig) -> Room:
    """A :class:`ZpyRoom` for a 找朋友 table config, a :class:`Room` otherwise. Raises
    ValueError for an unknown ruleset name, or a stake at a 找朋友 table."""
    if config.ruleset == ZPY:
        if config.stake:
            raise ValueError("找朋友 tables play without coins (RULES.md §12 defines coins for 红五 "
                             "only): leave the stake at 0")
        return ZpyRoom(server, config)
    if config.ruleset in ("hongwu", "", None):
        return Room(server, config)
    raise ValueError(f"unknown ruleset {config.ruleset!r} (hongwu or zhaopengyou)")


class ZpyRoom(Room):
    """One 找朋友 table (see the module doc). ``match`` is the running
    :class:`~engine.match.ZpyMatch` (None before the first hand)."""

    views_always = True

    def __init__(self, server: Any, config: TableConfig) -> None:
        self.match: ZpyMatch | None = None
        self._paced: Any = None  # the hand whose events are being paced out (None: none yet)
        self._sent = 0  # events of ``_paced`` sent to the sessions
        self._shown: list[list[Any]] = []  # per seat, the dealt cards sent this deal
        self._next_card = 0.0  # loop time the next dealt card may go out
        self._tick: Any = None  # asyncio.TimerHandle of the next card
        self._held_window: int | None = None  # a window held for a seat since a resume
        super().__init__(server, config)

    # ------------------------------------------------------------------ hooks
    @staticmethod
    def _make_ruleset(config: TableConfig) -> Any:
        return zhaopengyou(**config.options)

    def check_protocol(self, version: int) -> None:
        """Only protocol 3 and later can play or watch 找朋友: else a fatal VERSION_MISMATCH."""
        if version < ZPY_PROTOCOL:
            raise ProtocolError(
                ErrorCode.VERSION_MISMATCH,
                f"table {self.name!r} plays 找朋友 (zhaopengyou): it needs protocol "
                f"{ZPY_PROTOCOL}, this session speaks {version}", fatal=True)

    def _new_hand(self) -> Any:
        if self.match is None:
            self.match = ZpyMatch(self.ruleset, seed=self.rng.getrandbits(63))
            return self.match.hand
        if self.match.game_over:
            return None
        try:
            return self.match.next_hand()
        except MatchOver:
            return None

    def _hand_points(self, g: Any) -> list[int]:
        assert self.match is not None
        self.match.finish_hand()
        before, after = g.levels, g.settlement.levels
        return [a - b for a, b in zip(after, before)]

    def _event_wire(self, ev: Any) -> dict[str, Any]:  # type: ignore[override]
        g = self.game
        seed = g.seed if g is not None and ev.kind == "hand_settled" else None  # the hand is over
        return zpy_codec.event_out(ev, g.levels if g is not None else (),
                                   (g.buried if g is not None else ()) or (), seed)

    def _view_wire(self, view: Any) -> dict[str, Any]:
        return zpy_codec.view_out(view, self.tricks_wire())

    # ------------------------------------------------------------------ the paced deal
    @property
    def dealing(self) -> bool:
        """True while dealt cards of the current hand are still to be sent out."""
        g = self.game
        return g is not None and g is self._paced and self._sent < len(g.events)

    def _events_shown(self) -> int:
        g = self.game
        if g is None:
            return 0
        return self._sent if g is self._paced else len(g.events)

    def _seat_view(self, seat: int | None) -> Any:
        g = self.game
        assert g is not None
        view = g.view(seat)
        if not self.dealing:
            return view
        held = sum(ev.kind == "redealt" for ev in g.events[self._sent:])
        return view_so_far(view, self._shown, held)

    def _send_events(self, start: int, events: list[Any]) -> None:
        """Pace the hand's new events out (:meth:`_pump`); a new hand (``start`` 0) starts
        the pacing afresh."""
        g = self.game
        assert g is not None
        if start == 0 or g is not self._paced:
            self._cancel_tick()
            self._paced, self._sent = g, start
            self._shown = [[] for _ in range(self.ruleset.players)]
        self._pump()

    def _pump(self) -> None:
        """Send every held event up to the next dealt card whose time has not come (at most
        one card a call), then schedule the next card."""
        g = self.game
        if g is None or g is not self._paced or self.closed:
            return
        events = g.events
        start = self._sent
        step = float(self.config.deal_card_s)
        now = self.server.loop.time()
        j = start
        cards = 0
        while j < len(events):
            ev = events[j]
            if ev.kind == "card_dealt" and step > 0:
                if cards or now < self._next_card:
                    break
                cards = 1
                late = now - self._next_card
                self._next_card = (self._next_card if late < step else now) + step
            if ev.kind in ("hand_started", "redealt"):
                self._shown = [[] for _ in range(self.ruleset.players)]
            elif ev.kind == "card_dealt":
                self._shown[ev.seat].append(ev.cards[0])
            j += 1
        if j > start:
            self._sent = j
            super()._send_events(start, events[start:j])
        if j < len(events) and self._tick is None:
            self._tick = self.server.loop.call_later(max(0.0, self._next_card - now), self._on_tick)

    def _on_tick(self) -> None:
        """The next dealt card's time: send it; once the deal has caught up with the engine,
        set up the polled seat's turn."""
        self._tick = None
        if not self.dealing:
            return
        self._pump()
        if not self.dealing:
            self._next_turn()

    def _cancel_tick(self) -> None:
        if self._tick is not None:
            self._tick.cancel()
            self._tick = None

    def _next_turn(self, announce: bool = True) -> None:
        """As :meth:`net.server.Room._next_turn`, but nobody's turn while cards are still
        being sent out (the polled seat's turn starts when they are)."""
        if self.dealing:
            self._cancel_turn()
            if announce:
                self._announce_turn()
            return
        super()._next_turn(announce)

    def close(self) -> None:
        """Stop the deal's timer, then as :meth:`net.server.Room.close`."""
        self._cancel_tick()
        super().close()

    # ------------------------------------------------------------------ wire maps
    def match_wire(self) -> dict[str, Any]:
        """The ``Match`` map: standings (levels per seat), the declaring right, game over."""
        n = self.ruleset.players
        m = self.match
        if m is None:
            return {"hand_no": 0, "levels": [2] * n, "eligible": list(range(n)),
                    "game_over": False, "winners": []}
        return {"hand_no": len(m.results), "levels": list(m.levels),
                "eligible": list(m.eligible), "game_over": bool(m.game_over),
                "winners": list(m.winners)}

    def table_wire(self) -> dict[str, Any]:
        """The ``Table`` map with the 找朋友 timers, ``ruleset`` and the ``Match`` standings."""
        out = super().table_wire()
        t = self.config.timers
        out["timers"] = {**out["timers"], "deal": float(t.deal),
                         "call_friend": float(t.call_friend), "counter": float(t.counter)}
        out["ruleset"] = ZPY
        out["match"] = self.match_wire()
        return out

    def summary(self) -> dict[str, Any]:
        """The ``TableSummary`` map with ``ruleset`` and ``seats`` (5)."""
        out = super().summary()
        out["ruleset"] = ZPY
        out["seats"] = len(self.seats)
        return out

    def turn_wire(self, seat: int | None = None) -> dict[str, Any] | None:  # type: ignore[override]
        """The ``Turn`` map as ``seat`` may see it: in a deal window or counter turn the
        polled seat is named only to itself (everyone else: ``seat`` nil, no timeout); while
        the deal is being sent out nobody is named."""
        out = super().turn_wire()
        g = self.game
        if out is not None and self.dealing:
            return {**out, "phase": "deal", "seat": None, "timeout": None, "auto": False}
        if out is not None and g is not None and g.phase in _WINDOWS and out["seat"] != seat:
            out = {**out, "seat": None, "timeout": None, "auto": False}
        return out

    def snapshot(self, seat: int | None) -> dict[str, Any]:
        """The ``Snapshot`` map for ``seat``, its ``turn`` as that seat may see it."""
        out = super().snapshot(seat)
        out["turn"] = self.turn_wire(seat)
        return out

    def _announce_turn(self) -> None:
        """Send each session the ``turn`` as its seat may see it."""
        cache: dict[int | None, dict[str, Any] | None] = {}
        for s in self.sessions():
            if s.seat not in cache:
                cache[s.seat] = self.turn_wire(s.seat)
            s.notify("turn", {"turn": cache[s.seat]})

    # ------------------------------------------------------------------ actions
    def act(self, session: Any, method: str, params: dict[str, Any]) -> dict[str, Any]:
        """Apply the 找朋友 action request ``method`` of the session's seat; errors as
        :meth:`net.server.Room.act` (NO_HAND, NOT_YOUR_TURN, WRONG_PHASE, BAD_PARAMS,
        ILLEGAL_ACTION with the engine's coded refusal). A seat that is not polled in a deal
        window, or that acts while the deal is still being sent out, is told NOT_YOUR_TURN
        without learning who is polled."""
        g = self.game
        seat = session.seat
        if g is None or not self.in_hand:
            raise ProtocolError(ErrorCode.NO_HAND,
                                refusal=_refusal("hand_over") if g is not None else None)
        if self.dealing:
            raise ProtocolError(ErrorCode.NOT_YOUR_TURN, "wait for the deal",
                                refusal=_refusal("not_your_turn", seat=seat, to_act=None))
        if g.to_act != seat:
            shown = None if g.phase in _WINDOWS else g.to_act
            raise ProtocolError(
                ErrorCode.NOT_YOUR_TURN,
                "it is not your turn" if shown is None else f"it is seat {shown}'s turn, not seat {seat}'s",
                refusal=_refusal("not_your_turn", seat=seat, to_act=shown))
        if g.phase not in zpy_codec.METHOD_PHASES.get(method, ()):
            raise ProtocolError(
                ErrorCode.WRONG_PHASE, f"{method} is not possible in the {g.phase.value} phase",
                refusal=_refusal("wrong_phase", action=method, phase=g.phase.value))
        action = zpy_codec.action_in(method, params, seat)
        st = self.seats[seat]
        was_auto = st.auto
        st.auto = False
        try:
            self.apply(action)
        except IllegalAction as exc:
            st.auto = was_auto
            from . import codec

            raise ProtocolError(ErrorCode.ILLEGAL_ACTION, str(exc) or "illegal action",
                                refusal=codec.refusal_out(exc)) from None
        if was_auto:
            st.auto_reason = None
            self._announce_auto(st, "action")
        return {}

    # ------------------------------------------------------------------ turns
    def turn_limit(self, seat: int, phase: Any) -> float:
        """Seconds the human ``seat`` has for its turn in ``phase``: the table's timer
        (:class:`net.server.Timers`), except after ``hongwu host --resume``: a declaration
        window or counter turn polling a seat whose player has not come back since the
        restart (its pre-restart token not yet presented) waits for them until the seat
        grace (``seat_grace_s``, counted from the restart; 0: for ever) is over instead of
        passing after a few seconds; the player, once back, gets the full window
        (:meth:`resume`). Other turns restart with their full timer, as at a 红五 table
        (PROTOCOL.md §10)."""
        limit = super().turn_limit(seat, phase)
        tlog = self.journal
        if (limit > 0 and phase in _WINDOWS and tlog is not None and seat in tlog.pending
                and tlog.restored_at is not None):
            grace = float(self.config.seat_grace_s)
            if grace <= 0:
                self._held_window = seat
                return 0.0
            left = tlog.restored_at + grace - self.server.loop.time()
            if left > limit:
                self._held_window = seat
                return left
        return limit

    def resume(self, session: Any, token: str, name: str) -> None:
        """:meth:`net.server.Room.resume`; a player coming back to a window held for them
        since the restart (:meth:`turn_limit`) gets the full window from now on."""
        super().resume(session, token, name)
        held, self._held_window = self._held_window, None
        g = self.game
        if (held is not None and held == session.seat and self.in_hand and g is not None
                and g.phase in _WINDOWS and g.to_act == held):
            self._next_turn()
        elif held is not None and held != session.seat:
            self._held_window = held

    def _start_ai(self, seat: int, delay: float) -> None:
        g = self.game
        if g is not None and g.phase in _WINDOWS:
            delay = 0.0  # AI and auto-played seats decide a window at once
        super()._start_ai(seat, delay)

    def reasoning_public(self, phase: Any) -> bool:
        """No X-ray reasoning for a deal or counter window's decision: whether a seat was
        polled, and that it passed, is told to that seat alone (PROTOCOL.md section 14)."""
        return phase not in _WINDOWS

    def _on_timeout(self, turn_id: int) -> None:
        """A polled seat's window or counter turn ran out: it passes (auto-play stays off).
        Any other decision: auto-play takes the seat, as at a 红五 table."""
        g = self.game
        if turn_id != self.turn_id or g is None or not self.in_hand:
            return
        if g.phase in _WINDOWS:
            seat = g.to_act
            self._timer = None
            log.info("%s: seat %s let its %s window pass", self.name, seat, g.phase.value)
            try:
                self.apply(Pass(seat))
            except IllegalAction:  # pragma: no cover - a polled seat may always pass
                log.exception("time-out pass rejected")
            return
        super()._on_timeout(turn_id)
