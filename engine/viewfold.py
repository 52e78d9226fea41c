"""Folding events into a seat's view: ``view after = advance(view before, event)``.

The engine's data flows one way: state -> events -> views. A seat that holds the full
:class:`~engine.state.PlayerView` of some moment and then receives the events that followed
(each as ``event.for_seat(seat)`` gives them) can rebuild every later view itself with
:func:`advance` instead of being sent a fresh copy each time. The network host relies on it
(PROTOCOL.md, protocol 2: full views only at a hand's start and on request, events otherwise).

The result equals ``game.view(seat)`` after the same events (the tests check this over many
random hands for every seat and for observers). One action can cause several events (a trump
choice and the kitty taken; the fourth card of a trick and the trick won...); in a view
folded only part of the way through such a batch ``to_act`` is None, so that nobody acts on a
state the game never rested in. A new hand cannot be folded: its cards and
options come with a fresh full view, so :func:`advance` raises :class:`NeedsFullView` for
``hand_started`` and ``cards_dealt``.

Rule sources: RULES.md §2 (auction), §3 (trump), §4 (kitty and burying), §7–§9 (tricks),
§10 (settlement).
"""
from __future__ import annotations

from collections import Counter
from typing import Any, Iterable

from engine.bidding import Auction
from engine.cards import Card
from engine.events import (
    BidMade, CardsDealt, CardsPlayed, DealerChosen, Event, HandSettled, HandStarted,
    KittyBuried, KittyTaken, ThrowFailed, TrickWon, TrumpChosen,
)
from engine.order import context
from engine.state import FinishedTrick, Phase, PlayerView


class NeedsFullView(ValueError):
    """The event cannot be folded into the view: a new hand began (``hand_started``,
    ``cards_dealt``), or the event does not fit the view (out of order, another hand).
    The holder must get a fresh full view (a ``view`` or ``snapshot`` on the wire)."""


def replace(v: PlayerView, **changes: Any) -> PlayerView:
    """A copy of ``v`` with ``changes`` (field name -> value): ``dataclasses.replace`` without
    its per-call field introspection (a view is folded once per event for every seat).
    PlayerView is a plain frozen dataclass (no ``__post_init__``, no slots), so copying its
    instance dictionary makes the same object. Raises TypeError for an unknown field."""
    unknown = changes.keys() - _VIEW_FIELDS
    if unknown:
        raise TypeError(f"PlayerView has no field(s) {sorted(unknown)}")
    new = object.__new__(PlayerView)
    d = new.__dict__
    d.update(v.__dict__)
    d.update(changes)
    return new


_VIEW_FIELDS = frozenset(PlayerView.__dataclass_fields__)


def _without(hand: tuple[Card, ...], cards: Iterable[Card]) -> tuple[Card, ...]:
    """``hand`` minus ``cards`` (each once), keeping the display order. Raises
    :class:`NeedsFullView` when a card is not in the hand (the view is out of step)."""
    gone = Counter(cards)
    out = []
    for c in hand:
        if gone[c]:
            gone[c] -= 1
        else:
            out.append(c)
    if +gone:
        raise NeedsFullView(f"the view's hand lacks {sorted(map(str, +gone))}")
    return tuple(out)


def _sizes(sizes: tuple[int, ...], seat: int, delta: int) -> tuple[int, ...]:
    out = list(sizes)
    out[seat] += delta
    return tuple(out)


def _after_bid(v: PlayerView, e: BidMade) -> PlayerView:
    """A bid or pass (RULES.md §2): the auction is replayed from the bids the view holds."""
    if v.phase is not Phase.BID or v.to_act != e.seat:
        raise NeedsFullView(f"seat {e.seat} cannot bid now in this view")
    bids = v.bids + ((e.seat, e.amount),)
    auction = Auction(v.ruleset, v.first_bidder, tuple(a for _, a in bids))
    to_act = auction.to_act
    legal = auction.options() if v.seat is not None and v.seat == to_act else ()
    return replace(v, bids=bids, to_act=to_act, legal_bid_amounts=legal)


def _after_dealer(v: PlayerView, e: DealerChosen) -> PlayerView:
    """The auction is over; the dealer names the trump next (RULES.md §2, §3)."""
    return replace(v, phase=Phase.TRUMP, dealer=e.seat, bid=e.bid, to_act=e.seat,
                   legal_bid_amounts=())


def _after_trump(v: PlayerView, e: TrumpChosen) -> PlayerView:
    """Trump named: the hand is shown in the new card order; the dealer buries next (§3, §4)."""
    ctx = context(e.suit)
    return replace(v, phase=Phase.BURY, trump=e.suit, to_act=None,  # the kitty comes next
                   hand=ctx.sort_hand(sorted(v.hand)))


def _after_kitty(v: PlayerView, e: KittyTaken) -> PlayerView:
    """The dealer takes the kitty; only the dealer's view gets its cards (RULES.md §4)."""
    sizes = _sizes(v.hand_sizes, e.seat, e.count)
    if e.cards is None or v.seat != e.seat:
        return replace(v, hand_sizes=sizes, to_act=e.seat)
    hand = context(v.trump).sort_hand(sorted(v.hand + tuple(e.cards)))
    return replace(v, hand_sizes=sizes, hand=hand, kitty=tuple(e.cards), to_act=e.seat)


def _after_bury(v: PlayerView, e: KittyBuried) -> PlayerView:
    """The dealer buries; play starts with the dealer's lead (RULES.md §4, §7)."""
    sizes = _sizes(v.hand_sizes, e.seat, -e.count)
    v = replace(v, phase=Phase.PLAY, hand_sizes=sizes, trick_leader=e.seat, to_act=e.seat)
    if e.cards is None or v.seat != e.seat:
        return v
    return replace(v, hand=_without(v.hand, e.cards), buried=tuple(e.cards))


def _after_cards(v: PlayerView, e: CardsPlayed) -> PlayerView:
    """Cards played to the current trick; the next seat in play order acts (RULES.md §7, §8)."""
    expected = (v.trick_leader + len(v.current_trick)) % v.ruleset.players \
        if v.trick_leader is not None else None
    if v.phase is not Phase.PLAY or expected != e.seat or e.trick_no != v.trick_no:
        raise NeedsFullView(f"seat {e.seat} cannot play to trick {e.trick_no} in this view")
    n = v.ruleset.players
    current = v.current_trick + ((e.seat, tuple(e.cards)),)
    changes = dict(
        hand_sizes=_sizes(v.hand_sizes, e.seat, -len(e.cards)),
        current_trick=current,
        to_act=(e.seat + 1) % n if len(current) < n else None,  # a full trick: trick_won next
    )
    if v.seat == e.seat:
        changes["hand"] = _without(v.hand, e.cards)
    return replace(v, **changes)


def _after_trick(v: PlayerView, e: TrickWon) -> PlayerView:
    """The trick is won: its points to the winner, who leads the next one (RULES.md §9, §10)."""
    if e.trick_no != v.trick_no or v.trick_leader is None:
        raise NeedsFullView(f"trick {e.trick_no} does not follow this view")
    done = FinishedTrick(e.trick_no, v.trick_leader, tuple(e.plays), e.seat, e.points)
    points = list(v.points_won)
    points[e.seat] += e.points
    last = not any(v.hand_sizes)  # the last trick: the settlement comes next
    return replace(v, tricks=v.tricks + (done,), points_won=tuple(points),
                   red_fives=v.red_fives + tuple(e.red_fives), current_trick=(),
                   trick_leader=e.seat, trick_no=v.trick_no + 1,
                   to_act=None if last else e.seat)


def _after_settle(v: PlayerView, e: HandSettled) -> PlayerView:
    """The hand is settled: everyone sees the buried kitty (RULES.md §10)."""
    s = e.settlement
    return replace(v, phase=Phase.SETTLE, to_act=None, settlement=s,
                   buried=tuple(s.kitty) if s is not None else v.buried)


def _after_failed_throw(v: PlayerView, e: ThrowFailed) -> PlayerView:
    """A failed throw is recorded against its seat (RULES.md §7, penalty in §10); the forced
    cards are played next."""
    return replace(v, failed_throws=v.failed_throws + (e.seat,), to_act=None)


_FOLDS = {
    BidMade: _after_bid,
    DealerChosen: _after_dealer,
    TrumpChosen: _after_trump,
    KittyTaken: _after_kitty,
    KittyBuried: _after_bury,
    ThrowFailed: _after_failed_throw,
    CardsPlayed: _after_cards,
    TrickWon: _after_trick,
    HandSettled: _after_settle,
}


def advance(view: PlayerView, event: Event) -> PlayerView:
    """The view after ``event`` (as ``event.for_seat(view.seat)`` gives it; an unfiltered
    event works too, its hidden cards are ignored for other seats).

    Returns a new :class:`PlayerView`; ``view`` is unchanged. Raises :class:`NeedsFullView`
    for ``hand_started`` / ``cards_dealt`` (a new hand comes with a full view), for an event
    the view is not ready for (an action by a seat that is not to act, another trick), and
    for event kinds this module does not know.
    """
    if isinstance(event, (HandStarted, CardsDealt)):
        raise NeedsFullView(f"{event.kind}: a new hand starts from a full view")
    if view.phase is Phase.SETTLE:
        raise NeedsFullView(f"{event.kind}: the view's hand is already settled")
    fold = _FOLDS.get(type(event))
    if fold is None:
        raise NeedsFullView(f"no fold for events of kind {event.kind!r}")
    return fold(view, event)


def advance_all(view: PlayerView, events: Iterable[Event]) -> PlayerView:
    """:func:`advance` over ``events`` in order. Raises :class:`NeedsFullView` as it does."""
    for ev in events:
        view = advance(view, ev)
    return view
