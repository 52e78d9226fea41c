"""Events: what happened in a hand, and what each seat may see of it.

The engine emits events; the client animates them, the server sends each seat its own
filtered copy, AIs may read them. ``event.for_seat(seat)`` returns the event as that seat may
see it (``seat=None`` is an observer): private cards of other seats are replaced by ``None``
with their count kept in ``count``.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, ClassVar

from engine.cards import Card


@dataclass(frozen=True)
class Event:
    """Base class. ``kind`` names the event (snake case, used on the wire)."""

    kind: ClassVar[str] = "event"

    def for_seat(self, seat: int | None) -> "Event":
        """This event as ``seat`` may see it (public events are returned unchanged)."""
        return self

    def as_dict(self) -> dict[str, Any]:
        """Plain form: ``{"kind": ..., field: value}`` with cards as text (for logs and JSON)."""
        out: dict[str, Any] = {"kind": self.kind}
        for name in self.__dataclass_fields__:
            out[name] = _plain(getattr(self, name))
        return out


def _plain(value: Any) -> Any:
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    if hasattr(value, "__dataclass_fields__"):
        return {k: _plain(getattr(value, k)) for k in value.__dataclass_fields__}
    return value


@dataclass(frozen=True)
class _Private(Event):
    """An event whose ``cards`` only ``seat`` may see; others get ``cards=None``, ``count``."""

    seat: int = 0
    cards: tuple[Card, ...] | None = ()
    count: int = 0

    def for_seat(self, seat: int | None) -> "Event":
        """The event itself for its own seat; for anyone else the cards are hidden (None)."""
        if seat == self.seat:
            return self
        return replace(self, cards=None)


@dataclass(frozen=True)
class HandStarted(Event):
    """A new hand: ``hand_no`` (1-based in a match), ``seed`` (the host's only: ``for_seat``
    blanks it), ``decks``, ``first_bidder``."""

    kind: ClassVar[str] = "hand_started"
    hand_no: int = 1
    seed: int | None = None
    decks: int = 2
    first_bidder: int = 0

    def for_seat(self, seat: int | None) -> "Event":
        """Players and observers never see the seed: it would reveal the whole deal."""
        return replace(self, seed=None)


@dataclass(frozen=True)
class CardsDealt(_Private):
    """``seat`` was dealt ``cards`` (its whole hand; ``count`` cards). Private (RULES.md §1)."""

    kind: ClassVar[str] = "cards_dealt"


@dataclass(frozen=True)
class BidMade(Event):
    """``seat`` bid ``amount`` points, or passed (``amount`` None) (RULES.md §2)."""

    kind: ClassVar[str] = "bid_made"
    seat: int = 0
    amount: int | None = None


@dataclass(frozen=True)
class DealerChosen(Event):
    """The auction ended: ``seat`` is dealer at ``bid`` (RULES.md §2)."""

    kind: ClassVar[str] = "dealer_chosen"
    seat: int = 0
    bid: int = 0


@dataclass(frozen=True)
class TrumpChosen(Event):
    """The dealer ``seat`` chose trump ``suit``; ``timed_out`` if by time-out (♠; RULES.md §3)."""

    kind: ClassVar[str] = "trump_chosen"
    seat: int = 0
    suit: str = "S"
    timed_out: bool = False


@dataclass(frozen=True)
class KittyTaken(_Private):
    """The dealer ``seat`` took the kitty ``cards`` into hand. Private (RULES.md §4)."""

    kind: ClassVar[str] = "kitty_taken"


@dataclass(frozen=True)
class KittyBuried(_Private):
    """The dealer ``seat`` buried ``cards``. Private until settlement (RULES.md §4)."""

    kind: ClassVar[str] = "kitty_buried"


@dataclass(frozen=True)
class CardsPlayed(Event):
    """``seat`` played ``cards`` to trick ``trick_no`` (1-based); ``lead`` if it led (RULES.md §7, §8)."""

    kind: ClassVar[str] = "cards_played"
    seat: int = 0
    cards: tuple[Card, ...] = ()
    trick_no: int = 1
    lead: bool = False


@dataclass(frozen=True)
class ThrowFailed(Event):
    """``seat`` tried to throw ``attempted``; another player (``blocker``) could beat part of it,
    so ``forced`` is played instead and the rest goes back to the hand (RULES.md §7)."""

    kind: ClassVar[str] = "throw_failed"
    seat: int = 0
    attempted: tuple[Card, ...] = ()
    forced: tuple[Card, ...] = ()
    blocker: int | None = None


@dataclass(frozen=True)
class TrickWon(Event):
    """``seat`` won trick ``trick_no`` and its ``points``; ``plays`` are ((seat, cards), ...) in
    play order; ``ruff`` if it was won by trumping a side-suit lead; ``red_fives`` the
    ((from_seat, to_seat), ...) captures across sides in it (RULES.md §9, §10)."""

    kind: ClassVar[str] = "trick_won"
    seat: int = 0
    points: int = 0
    trick_no: int = 1
    plays: tuple[tuple[int, tuple[Card, ...]], ...] = ()
    ruff: bool = False
    red_fives: tuple[tuple[int, int], ...] = ()


@dataclass(frozen=True)
class HandSettled(Event):
    """The hand is over; ``settlement`` is an :class:`engine.scoring.Settlement` (public, the
    kitty is shown to all; RULES.md §10)."""

    kind: ClassVar[str] = "hand_settled"
    settlement: Any = None


EVENT_TYPES: dict[str, type[Event]] = {
    cls.kind: cls
    for cls in (HandStarted, CardsDealt, BidMade, DealerChosen, TrumpChosen, KittyTaken,
                KittyBuried, CardsPlayed, ThrowFailed, TrickWon, HandSettled)
}
"""Event classes by ``kind``."""


# --- 找朋友 (Finding Friends) events ---------------------------------------------------------
@dataclass(frozen=True)
class CardDealt(_Private):
    """Card number ``card_no`` (1-based) of the deal went to ``seat``: ``cards`` is that one
    card (``count`` 1). Private: other seats see ``cards=None`` (找朋友 spec §1, §3)."""

    kind: ClassVar[str] = "card_dealt"
    card_no: int = 0


@dataclass(frozen=True)
class Declared(Event):
    """``seat`` declared 亮主 (``phase`` ``"deal"``) or countered 反牌 (``"counter"``) with the
    shown ``cards``; trump is now ``trump`` (a suit letter, or None for no-trump 无主) and, in the
    deal, ``level`` the declarer's level rank (2..14). Public (找朋友 spec §3, §5)."""

    kind: ClassVar[str] = "declared"
    seat: int = 0
    cards: tuple[Card, ...] = ()
    phase: str = "deal"
    trump: str | None = None
    level: int = 2


@dataclass(frozen=True)
class Passed(Event):
    """``seat`` passed its chance to declare (``phase`` ``"deal"``) or counter (``"counter"``).
    Other seats see ``seat=None``: who was asked would tell who holds declarable cards
    (找朋友 spec §3, §5)."""

    kind: ClassVar[str] = "passed"
    seat: int | None = 0
    phase: str = "deal"

    def for_seat(self, seat: int | None) -> "Event":
        """The pass itself for its seat; anonymous (``seat=None``) for anyone else."""
        return self if seat == self.seat else replace(self, seat=None)


@dataclass(frozen=True)
class Redealt(Event):
    """Nobody declared: the cards are shuffled again for deal number ``deal_no`` (2, 3, ...),
    same first seat and rights (找朋友 spec §3, ``no_declaration``)."""

    kind: ClassVar[str] = "redealt"
    deal_no: int = 2


@dataclass(frozen=True)
class KittyFlipped(Event):
    """Nobody declared: ``dealer`` (the first seat with the right from the first-card seat)
    deals; the kitty ``cards`` are shown to all in deal order and set trump ``trump``
    (找朋友 spec §3)."""

    kind: ClassVar[str] = "kitty_flipped"
    dealer: int = 0
    cards: tuple[Card, ...] = ()
    trump: str | None = None


@dataclass(frozen=True)
class DealFinished(Event):
    """The deal is over: ``dealer`` deals at level rank ``level`` with trump ``trump`` (None:
    no-trump); ``declared`` False after a kitty flip (找朋友 spec §3)."""

    kind: ClassVar[str] = "deal_finished"
    dealer: int = 0
    level: int = 2
    trump: str | None = None
    declared: bool = True


@dataclass(frozen=True)
class FriendCalled(Event):
    """The dealer ``seat`` called "the ``nth`` played ``card``" as the friend 叫朋友. Public
    (找朋友 spec §4)."""

    kind: ClassVar[str] = "friend_called"
    seat: int = 0
    card: Card | None = None
    nth: int = 1


@dataclass(frozen=True)
class FriendRevealed(Event):
    """The called copy was played: ``seat`` is the friend from now on (``alone`` True: the
    dealer played it himself, or it never came, ``seat`` then being the dealer) in trick
    ``trick_no``. Public, told to all at once (找朋友 spec §4)."""

    kind: ClassVar[str] = "friend_revealed"
    seat: int = 0
    alone: bool = False
    trick_no: int = 0


ZPY_EVENT_TYPES: dict[str, type[Event]] = {
    cls.kind: cls
    for cls in (CardDealt, Declared, Passed, Redealt, KittyFlipped, DealFinished, FriendCalled,
                FriendRevealed)
}
"""The 找朋友-only event classes by ``kind`` (kept apart from :data:`EVENT_TYPES`, which the
network protocol maps one to one: 找朋友 is not played over the network yet). A 找朋友 hand also
emits ``hand_started``, ``kitty_taken``, ``kitty_buried``, ``cards_played``, ``throw_failed``,
``trick_won`` and ``hand_settled``."""
