"""The 找朋友 (Finding Friends) hand's vocabulary: its phases, its actions and what one seat
may see of it (:class:`ZpyView`). The phase machine that produces views is
:class:`engine.zhaopengyou.ZpyHand`; the rules it calls are :mod:`engine.zhaopengyou_rules`.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass
from functools import lru_cache

from engine import zhaopengyou_rules as zr
from engine.cards import ALL_CARDS, Card
from engine.order import level_context
from engine.ruleset import RuleSet
from engine.state import Bury, FinishedTrick, Play
from engine.tricks import PlayOptions


class ZPhase(enum.Enum):
    """Phases of a 找朋友 hand (找朋友 spec §3–§10). SETTLE: over and settled."""

    DEAL = "deal"
    CALL_FRIEND = "call_friend"
    BURY = "bury"
    COUNTER = "counter"
    PLAY = "play"
    SETTLE = "settle"


# --- actions ------------------------------------------------------------------------------
@dataclass(frozen=True)
class Declare:
    """``seat`` shows ``cards`` (1–3 identical level cards or jokers) to declare 亮主 in a deal
    window, or (2–3 cards) to counter 反牌 in the counter round (找朋友 spec §3, §5)."""

    seat: int
    cards: tuple[Card, ...]


@dataclass(frozen=True)
class Pass:
    """``seat`` passes its declaration window or counter turn (找朋友 spec §3, §5)."""

    seat: int


@dataclass(frozen=True)
class CallFriend:
    """The dealer ``seat`` calls "the ``nth`` (1..3) played ``card``" (找朋友 spec §4)."""

    seat: int
    card: Card
    nth: int


ZpyAction = Declare | Pass | CallFriend | Bury | Play

LEVEL_NAMES = {r: ("J", "Q", "K", "A")[r - 11] if r > 10 else str(r) for r in range(2, 15)}
"""Level ranks 2..14 as text (2..10 J Q K A)."""


# --- the per-seat view --------------------------------------------------------------------
TrickPlays = tuple[tuple[int, tuple[Card, ...]], ...]


@dataclass(frozen=True)
class ZpyView:
    """What one seat of a 找朋友 hand may know (``seat`` None: an observer).

    ``phase`` (:class:`ZPhase`); ``ruleset``; ``hand_no``; ``levels`` (five level ranks
    2..14); ``eligible`` (seats with the declaring right); ``first_card`` (seat dealt the
    first card); ``deal_no`` (1, then 2.. after redeals); ``cards_dealt``; ``to_act`` (the
    seat to act; in DEAL and COUNTER only shown to that seat itself, else None);
    ``hand`` (own cards); ``hand_sizes``; ``declarations`` (``(seat, cards, phase)`` shown so
    far); ``standing`` (``(seat, cards)`` of the standing declaration or None);
    ``legal_declarations`` (card tuples this seat may declare or counter now, when it is to
    act); ``dealer``/``level`` (None until the deal ends); ``trump`` (suit letter, None for
    no-trump or before it is known: see ``trump_known``); ``kitty_flip`` (the flipped kitty,
    public, or None); ``friend_call`` (``(card, nth)`` once called, public); ``friend`` (the
    friend's seat once revealed, else None); ``alone``; ``kitty`` (the cards the seat holds
    as kitty while it buries, else None); ``buried`` (the last cards this seat buried while
    they lie in the kitty, or everyone's view after settlement); ``burier`` (seat burying);
    ``trick_no``, ``trick_leader``, ``current_trick``, ``tricks``, ``points_won``,
    ``failed_throws``; ``settlement`` (a ``ZpySettlement`` after the hand).
    """

    seat: int | None
    phase: ZPhase
    ruleset: RuleSet
    hand_no: int
    levels: tuple[int, ...]
    eligible: tuple[int, ...]
    first_card: int
    deal_no: int
    cards_dealt: int
    to_act: int | None
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    declarations: tuple[tuple[int, tuple[Card, ...], str], ...]
    standing: tuple[int, tuple[Card, ...]] | None
    legal_declarations: tuple[tuple[Card, ...], ...]
    dealer: int | None
    level: int | None
    trump: str | None
    trump_known: bool
    kitty_flip: tuple[Card, ...] | None
    friend_call: tuple[Card, int] | None
    friend: int | None
    alone: bool
    kitty: tuple[Card, ...] | None
    buried: tuple[Card, ...] | None
    burier: int | None
    trick_no: int
    trick_leader: int | None
    current_trick: TrickPlays
    tricks: tuple[FinishedTrick, ...]
    points_won: tuple[int, ...]
    failed_throws: tuple[int, ...]
    settlement: object | None

    @property
    def ctx(self):
        """The card order (a TrumpContext from :func:`engine.order.level_context`) once the
        deal has ended, else None."""
        if not self.trump_known or self.level is None:
            return None
        return level_context(self.level, self.trump, self.ruleset.options.trump_top_tractors)

    @property
    def players(self) -> int:
        """Number of seats (5)."""
        return self.ruleset.players

    @property
    def my_turn(self) -> bool:
        """True when this seat is to act."""
        return self.seat is not None and self.to_act == self.seat

    @property
    def bury_count(self) -> int:
        """Cards to bury (the kitty size, 7)."""
        return self.ruleset.kitty_size

    @property
    def lead(self) -> tuple[Card, ...] | None:
        """The cards led to the current trick, or None."""
        return self.current_trick[0][1] if self.current_trick else None

    @property
    def last_trick(self) -> FinishedTrick | None:
        """The most recent finished trick, or None."""
        return self.tricks[-1] if self.tricks else None

    def dealer_side(self) -> frozenset[int]:
        """The seats known to this seat to be on the dealer side: the dealer, and the friend
        once revealed (empty before the deal ends)."""
        if self.dealer is None:
            return frozenset()
        if self.friend is None:
            return frozenset((self.dealer,))
        return frozenset((self.dealer, self.friend))

    def play_options(self) -> PlayOptions:
        """The plays open to this seat now (ValueError outside the play phase)."""
        if self.phase is not ZPhase.PLAY:
            raise ValueError("there are play options only in the play phase")
        return PlayOptions(self.hand, self.lead, self.ctx)

    def played_cards(self) -> tuple[Card, ...]:
        """Every card played so far this hand."""
        out: list[Card] = []
        for t in self.tricks:
            for _, cards in t.plays:
                out.extend(cards)
        for _, cards in self.current_trick:
            out.extend(cards)
        return tuple(out)

    def friend_calls(self) -> tuple[tuple[Card, int], ...]:
        """The calls the dealer may make now (``(card, nth)``; empty unless CALL_FRIEND)."""
        if self.phase is not ZPhase.CALL_FRIEND:
            return ()
        return legal_friend_calls(self.trump, self.level, self.ruleset.options)


@lru_cache(maxsize=256)
def legal_friend_calls(trump: str | None, level: int, options) -> tuple[tuple[Card, int], ...]:
    """Every ``(card, nth)`` the rules accept as a call with trump ``trump`` at level ``level``
    (:func:`engine.zhaopengyou_rules.friend_call_error` decides; 找朋友 spec §4). Cached."""
    out = []
    for c in ALL_CARDS:
        for nth in (1, 2, 3):
            if zr.friend_call_error(zr.FriendCall(c, nth), trump, level, options) is None:
                out.append((c, nth))
    return tuple(out)
