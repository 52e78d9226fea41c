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
  in them. A full view follows every batch of events (``views_always``). The hand's seed
  goes out once the hand is over, in the ``hand_settled`` settlement (``seed``), so that a
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
        polled seat is named only to itself (everyone else: ``seat`` nil, no timeout)."""
        out = super().turn_wire()
        g = self.game
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
        window is told NOT_YOUR_TURN without learning who is."""
        g = self.game
        seat = session.seat
        if g is None or not self.in_hand:
            raise ProtocolError(ErrorCode.NO_HAND,
                                refusal=_refusal("hand_over") if g is not None else None)
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
    def _start_ai(self, seat: int, delay: float) -> None:
        g = self.game
        if g is not None and g.phase in _WINDOWS:
            delay = 0.0  # AI and auto-played seats decide a window at once
        super()._start_ai(seat, delay)

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
