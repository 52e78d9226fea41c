"""What one seat of a LAN 找朋友 table saw of a hand, and the whole hand rebuilt from it once
it is over (so that a client can record the hands it played: README "Career").

During the hand a seat sees only its own cards, anonymous passes and no buried kitty
(PROTOCOL.md section 14). At the end the host's ``hand_settled`` event adds the buried cards
and the hand's deal seed (``ZpySettlement.seed``). From the seed the hand is dealt again
exactly as the host dealt it (redeals included), and the decisions the seat saw are applied
in order: declarations, friend call and plays as sent, an anonymous pass as a pass of the
seat the engine polls at that moment, the bury as the settlement's kitty. The result is
checked against everything the seat received: every event, seen as that seat sees it, and
the host's settlement must come out the same, so a rebuilt hand is the host's hand.

:class:`ZpyHandLog` collects the raw ``event`` / ``view`` notifications (it works with the
notification maps, so the window's :class:`~net.remote_table.RemoteTable` and a headless
``hongwu join`` share it); :func:`rebuild_hand` is the pure part. No pygame, no sockets.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from engine.state import Bury, Play
from engine.zhaopengyou import CallFriend, Declare, Pass, ZPhase, ZpyHand

from . import zpy_codec
from .codec import cards_in

log = logging.getLogger(__name__)


class RebuildError(ValueError):
    """The hand cannot be rebuilt from what the seat received (a sentence says why)."""


@dataclass(frozen=True)
class SeenHand:
    """Everything one seat received of one settled 找朋友 hand.

    ``hand_no``; ``options`` (the 找朋友 rule options, ``{name: value}``); ``levels`` (each
    seat's level rank before the hand); ``eligible`` (seats with the declaring right);
    ``first_card`` (the seat dealt the first card); ``seat`` (the receiving seat, None for an
    observer); ``events`` (the engine events as that seat received them, from ``hand_started``
    to ``hand_settled``); ``seed`` (the host's deal seed of the hand); ``kitty`` (the buried
    cards, from the settlement)."""

    hand_no: int
    options: Mapping[str, Any]
    levels: tuple[int, ...]
    eligible: tuple[int, ...]
    first_card: int
    seat: int | None
    events: tuple[Any, ...]
    seed: int
    kitty: tuple[Any, ...]


def _decisions(seen: SeenHand) -> list[tuple[str, Any]]:
    """The decisions in the events, in order, as ``(kind, event)``: a failed throw's
    attempted cards replace the forced ones of the play that follows it."""
    out: list[tuple[str, Any]] = []
    attempted: dict[int, tuple[Any, ...]] = {}
    for ev in seen.events:
        kind = ev.kind
        if kind == "throw_failed":
            attempted[ev.seat] = tuple(ev.attempted)
        elif kind == "cards_played":
            out.append(("play", Play(ev.seat, attempted.pop(ev.seat, tuple(ev.cards)))))
        elif kind in ("declared", "passed", "friend_called", "kitty_buried"):
            out.append((kind, ev))
    return out


def _deal(seen: SeenHand, drawn: bool) -> ZpyHand:
    rs = zpy_codec.ruleset_in(seen.options)
    return ZpyHand.new(rs, seen.seed, hand_no=seen.hand_no, levels=seen.levels, eligible=seen.eligible,
                       first_card=None if drawn else seen.first_card)


def _replay(hand: ZpyHand, seen: SeenHand) -> None:
    """Apply the seat's decisions to the freshly dealt ``hand``; RebuildError when one does not
    fit (another deal, or a gap in the events)."""
    from engine.state import IllegalAction

    for kind, ev in _decisions(seen):
        if kind == "play":
            action: Any = ev
        elif kind == "declared":
            action = Declare(ev.seat, tuple(ev.cards))
        elif kind == "passed":
            seat = ev.seat if ev.seat is not None else hand.to_act
            if seat is None or hand.phase not in (ZPhase.DEAL, ZPhase.COUNTER):
                raise RebuildError("a pass where nobody is polled")
            action = Pass(seat)
        elif kind == "friend_called":
            action = CallFriend(ev.seat, ev.card, ev.nth)
        else:  # kitty_buried: the cards only the burier saw, public in the settlement
            action = Bury(ev.seat, tuple(ev.cards) if ev.cards else tuple(seen.kitty))
        try:
            hand.apply(action)
        except IllegalAction as exc:
            raise RebuildError(f"the engine refuses {type(action).__name__} of seat {action.seat}: {exc}") from None


def rebuild_hand(seen: SeenHand) -> ZpyHand:
    """The settled engine :class:`~engine.zhaopengyou.ZpyHand` the host played, rebuilt from
    ``seen`` (see the module doc), with its seed (so :func:`engine.replay_zpy.dumps` writes
    the same replay as for a local hand). Both ways a hand may draw its first-card seat are
    tried (a match's first hand draws it from its seed). Raises :class:`RebuildError` when
    no deal reproduces every event the seat received and the host's settlement."""
    got = list(seen.events)
    if not got or got[-1].kind != "hand_settled":
        raise RebuildError("the hand is not settled")
    why = "no deal from the seed gives the cards this seat received"
    for drawn in (False, True):
        try:
            hand = _deal(seen, drawn)
        except ValueError as exc:
            raise RebuildError(f"cannot deal the hand: {exc}") from None
        if hand.first_card != seen.first_card:
            continue
        try:
            _replay(hand, seen)
        except RebuildError as exc:
            why = str(exc)
            continue
        if hand.settlement is None:
            why = "the decisions received do not finish the hand"
            continue
        mine = [ev.for_seat(seen.seat) for ev in hand.events]
        if mine != got:
            why = "the rebuilt hand's events differ from those received"
            continue
        return hand
    raise RebuildError(why)


class ZpyHandLog:
    """The events of the current 找朋友 hand as one seat receives them, from the raw
    notifications (:meth:`feed` with every ``(method, params)``; other methods are ignored).

    A hand is complete when its events arrived without a gap from ``n`` 0 (``hand_started``)
    to ``hand_settled``; one joined late, or a reconnect that missed events, is not (it cannot
    be rebuilt, and :attr:`problem` says so). :meth:`settled` returns the last complete settled
    hand as a :class:`SeenHand` (kept until the next one settles, so the next deal does not
    lose it); :meth:`rebuilt` the engine hand (cached). Not thread-safe: feed and read under
    the caller's lock (``RemoteTable``) or in one task (a headless join).
    """

    def __init__(self) -> None:
        self._hand_no: int | None = None
        self._next = 0
        self._events: list[Any] = []
        self._complete = False
        self._header: dict[str, Any] = {}
        self._settled: SeenHand | None = None
        self._rebuilt: tuple[SeenHand, ZpyHand] | None = None
        #: why the last hand cannot be recorded ("" when it can, or none has settled yet)
        self.problem = ""

    def feed(self, method: str, params: Mapping[str, Any], seat: int | None) -> None:
        """Take one notification received by ``seat``; malformed parts mark the hand incomplete."""
        try:
            if method == "event":
                self._on_event(int(params["hand_no"]), int(params["n"]), params["event"], seat)
            elif method == "view" and zpy_codec.is_zpy_view(params.get("view")):
                self._on_view(int(params["hand_no"]), params["view"])
        except (KeyError, TypeError, ValueError) as exc:
            log.info("找朋友 hand log: bad %s notification (%r): this hand cannot be rebuilt", method, exc)
            self._complete = False

    def view(self, hand_no: int, wire_view: Mapping[str, Any]) -> None:
        """A full view of ``hand_no`` from a snapshot (a welcome or a resync)."""
        self.feed("view", {"hand_no": hand_no, "view": wire_view}, None)

    def _on_view(self, hand_no: int, v: Mapping[str, Any]) -> None:
        if hand_no != self._hand_no:
            return
        self._header = {"options": dict(v["options"]), "levels": tuple(v["levels"]),
                        "eligible": tuple(v["eligible"]), "first_card": int(v["first_card"])}

    def _on_event(self, hand_no: int, n: int, wire: Mapping[str, Any], seat: int | None) -> None:
        if hand_no != self._hand_no:
            self._hand_no, self._events, self._header = hand_no, [], {}
            self._complete = n == 0
            self._next = n
        if n != self._next:
            self._complete = False  # a gap: events were missed (a reconnect, a resync)
        self._next = n + 1
        if not self._complete:
            if wire.get("kind") == "hand_settled":
                self.problem = f"hand {hand_no}: not every event of it reached this seat"
            return
        self._events.append(zpy_codec.event_in(wire))
        if wire.get("kind") != "hand_settled":
            return
        st = wire.get("settlement") or {}
        seed = st.get("seed")
        h = self._header
        first = self._events[0]
        if type(seed) is not int:
            self.problem = f"hand {hand_no}: the host sent no seed (an older host)"
            return
        if first.kind != "hand_started":
            self.problem = f"hand {hand_no}: its first event is missing"
            return
        self._settled = SeenHand(
            hand_no=hand_no, options=h.get("options") or {}, levels=tuple(st.get("levels_before") or h.get("levels") or ()),
            eligible=tuple(h.get("eligible") or ()), first_card=int(first.first_bidder), seat=seat,
            events=tuple(self._events), seed=seed, kitty=tuple(cards_in(st.get("kitty")) or ()))
        self.problem = ""

    def settled(self) -> SeenHand | None:
        """The last complete settled hand seen (None before one)."""
        return self._settled

    def rebuilt(self) -> ZpyHand | None:
        """:func:`rebuild_hand` of :meth:`settled` (cached), or None (no settled hand, or it does
        not rebuild: :attr:`problem` says why)."""
        seen = self._settled
        if seen is None:
            return None
        if self._rebuilt is not None and self._rebuilt[0] is seen:
            return self._rebuilt[1]
        if not seen.eligible:
            self.problem = f"hand {seen.hand_no}: no view of it arrived"
            return None
        try:
            hand = rebuild_hand(seen)
        except RebuildError as exc:
            self.problem = f"hand {seen.hand_no}: {exc}"
            log.warning("找朋友 hand %d not rebuilt: %s", seen.hand_no, exc)
            return None
        self._rebuilt = (seen, hand)
        return hand


def seat_names(seats: Sequence[Mapping[str, Any]], n: int) -> list[str]:
    """Plain seat names from a ``Table.seats`` list (``"seat N"`` where empty)."""
    return [str((seats[i] if i < len(seats) else {}).get("name") or f"seat {i}") for i in range(n)]
