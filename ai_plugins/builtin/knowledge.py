"""Card counting for the built-in AIs: unseen cards, known voids, sides, win chances.

Everything here is derived from a :class:`engine.state.PlayerView` (what the seat may know) and
the engine's card order (:class:`engine.order.TrumpContext`: ``SUITX`` effective suit index,
4 = trump; ``VAL`` strength inside it). No rule is re-derived: legality and trick winners
always come from :mod:`engine.tricks`.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Sequence

from engine.cards import RED_FIVE
from engine.order import TRUMP_INDEX, TrumpContext

RED_FIVE_ID = int(RED_FIVE)


def same_side(a: int, b: int, dealer: int | None) -> bool:
    """True when seats ``a`` and ``b`` play for the same side (the dealer is alone against the
    three defenders, RULES.md §2)."""
    if dealer is None:
        return a == b
    return (a == dealer) == (b == dealer)


def seen_tricks(view: Any) -> list[Any]:
    """The plays of every trick the seat of ``view`` has seen, oldest first, the trick in
    progress last when it has begun: per trick the ``(seat, cards)`` pairs from its leader on."""
    tricks = [t.plays for t in view.tricks]
    if view.current_trick:
        tricks.append(view.current_trick)
    return tricks


@dataclass
class Knowledge:
    """What one seat knows about the hidden cards during play.

    Attributes:
        ctx: the trump order.
        seat, dealer: seats 0..n-1 (n = the ruleset's players).
        unseen: ``list[int]`` of 54 counts: copies of each card id not in the own hand, not
            played, and (for the dealer) not buried; i.e. in other hands or (for defenders)
            possibly in the kitty.
        unseen_total: ``sum(unseen)``.
        hand_sizes: cards each seat still holds (one int per seat).
        voids: ``list[set[int]]`` per seat, effective-suit indexes (0..3 side, 4 trump) in
            which that seat has shown it is void (it did not follow a lead of that suit fully).
    """

    ctx: TrumpContext
    seat: int
    dealer: int
    unseen: list[int]
    unseen_total: int
    hand_sizes: tuple[int, ...]
    voids: list[set[int]]
    _by_suit: dict[int, list[int]] | None = field(default=None, init=False, repr=False, compare=False)
    """Unseen card ids per effective suit, in id order (built on first use, then kept up to
    date by :meth:`observe`; nothing else changes ``unseen``)."""
    _suit_totals: dict[int, int] = field(default_factory=dict, init=False, repr=False, compare=False)
    """Unseen cards per effective suit, built with ``_by_suit``."""
    _misses: dict[tuple[int, int, int, int], float] = field(default_factory=dict, init=False, repr=False,
                                                            compare=False)
    """:meth:`p_higher`'s chance of holding no stronger unit, by ``(suitx, value, group, the
    seat's hand size)`` (all it depends on once the seat's voids are checked), for the present
    state: emptied by :meth:`observe`, the only change of state. A ``basic`` decision asks it
    for each seat of each candidate, most of them alike."""
    _beats: dict[tuple, float] = field(default_factory=dict, init=False, repr=False, compare=False)
    """:meth:`p_beats` answers for the present state by the seat's hand size and voids in the
    two suits concerned (all it depends on from the seat) and the other arguments; emptied by
    :meth:`observe` like ``_misses``."""
    _pools: dict[int, list[int]] = field(default_factory=dict, init=False, repr=False, compare=False)
    """:meth:`unseen_cards` by effective suit, built on first use, emptied by :meth:`observe`."""

    def _suit_cards(self, suitx: int) -> list[int]:
        """The card ids of effective suit ``suitx`` with unseen copies, in id order."""
        if self._by_suit is None:
            by: dict[int, list[int]] = {}
            totals: dict[int, int] = {}
            sx = self.ctx.SUITX
            for c, k in enumerate(self.unseen):
                if k:
                    by.setdefault(sx[c], []).append(c)
                    totals[sx[c]] = totals.get(sx[c], 0) + k
            self._by_suit = by
            self._suit_totals = totals
        return self._by_suit.get(suitx, [])

    @classmethod
    def from_view(cls, view: Any) -> "Knowledge":
        """Build from a play-phase ``PlayerView`` (``view.ctx`` must be set)."""
        ctx = view.ctx
        decks = view.ruleset.decks
        unseen = [decks] * 54
        for c in view.hand:
            unseen[c] -= 1
        voids: list[set[int]] = [set() for _ in range(len(view.hand_sizes))]
        sx = ctx.SUITX
        for plays in seen_tricks(view):
            lead = plays[0][1]
            lsx, n = sx[lead[0]], len(lead)
            for s, cards in plays:
                for c in cards:
                    unseen[c] -= 1
                if len(cards) < n or any(sx[c] != lsx for c in cards):
                    voids[s].add(lsx)
        if view.buried:
            for c in view.buried:
                unseen[c] -= 1
        unseen = [max(0, k) for k in unseen]
        return cls(ctx, view.seat, view.dealer, unseen, sum(unseen), tuple(view.hand_sizes), voids)

    def observe(self, seat: int, cards: Sequence[int], lead_suitx: int) -> None:
        """Update in place for ``seat`` playing ``cards`` (card ids) to a trick led in
        effective suit ``lead_suitx`` (the play's own suit when it leads): afterwards equal to
        :meth:`from_view` of the seat's next view (tests/test_knowledge_incremental.py). The
        seat's own plays change only its hand size and voids (its cards were never unseen)."""
        sx = self.ctx.SUITX
        self._misses.clear()
        self._beats.clear()
        self._pools.clear()
        if seat != self.seat:
            unseen = self.unseen
            by, totals = self._by_suit, self._suit_totals
            for c in cards:
                if unseen[c] > 0:
                    unseen[c] -= 1
                    self.unseen_total -= 1
                    if by is not None:  # kept up to date as a rebuild would leave it
                        totals[sx[c]] -= 1
                        if not unseen[c]:
                            by[sx[c]].remove(c)
        if any(sx[c] != lead_suitx for c in cards):
            self.voids[seat].add(lead_suitx)
        sizes = list(self.hand_sizes)
        sizes[seat] -= len(cards)
        self.hand_sizes = tuple(sizes)

    def unseen_cards(self, suitx: int) -> list[int]:
        """The unseen cards of effective suit ``suitx``, a card id once per unseen copy, in id
        order (``list[int]``, shared: the caller must not change it)."""
        got = self._pools.get(suitx)
        if got is None:
            unseen = self.unseen
            got = self._pools[suitx] = [c for c in self._suit_cards(suitx) for _ in range(unseen[c])]
        return got

    # ------------------------------------------------------------------ probabilities
    def share(self, seat: int) -> float:
        """Fraction of the unseen cards that ``seat`` holds (0..1)."""
        if self.unseen_total <= 0:
            return 0.0
        return min(1.0, self.hand_sizes[seat] / self.unseen_total)

    def suit_unseen(self, suitx: int) -> int:
        """Unseen cards of effective suit ``suitx``."""
        if self._by_suit is None:
            self._suit_cards(suitx)
        return self._suit_totals.get(suitx, 0)

    def p_void(self, seat: int, suitx: int) -> float:
        """Chance that ``seat`` holds no card of effective suit ``suitx``."""
        if suitx in self.voids[seat]:
            return 1.0
        if self.hand_sizes[seat] == 0:
            return 1.0
        return (1.0 - self.share(seat)) ** self.suit_unseen(suitx)

    def p_higher(self, seat: int, suitx: int, value: int, group: int = 1, length: int = 1) -> float:
        """Chance that ``seat`` holds a unit of ``group`` identical cards (``length`` groups for a
        tractor) of effective suit ``suitx`` stronger than ``value`` (a ``VAL``)."""
        if suitx in self.voids[seat] or self.hand_sizes[seat] < group * length:
            return 0.0
        key = (suitx, value, group, self.hand_sizes[seat])
        miss = self._misses.get(key)
        if miss is None:
            f = self.share(seat)
            val, unseen = self.ctx.VAL, self.unseen
            miss = 1.0
            for c in self._suit_cards(suitx):
                k = unseen[c]
                if k >= group and val[c] > value:
                    if group == 1:
                        miss *= (1.0 - f) ** k
                    else:
                        miss *= 1.0 - f ** group
            self._misses[key] = miss
        p = 1.0 - miss
        if length > 1:
            p *= 0.35 ** (length - 1)
        return p

    def p_beats(self, seat: int, lead_suitx: int, play_suitx: int, value: int,
                group: int = 1, length: int = 1) -> float:
        """Chance that ``seat``, playing later in this trick, beats a winning play of effective
        suit ``play_suitx`` and strength ``value``, the lead being of ``lead_suitx``."""
        voids = self.voids[seat]
        key = (self.hand_sizes[seat], lead_suitx in voids, TRUMP_INDEX in voids, lead_suitx, play_suitx,
               value, group, length)
        got = self._beats.get(key)
        if got is None:
            got = self._beats[key] = self._p_beats(seat, lead_suitx, play_suitx, value, group, length)
        return got

    def _p_beats(self, seat: int, lead_suitx: int, play_suitx: int, value: int,
                 group: int, length: int) -> float:
        """:meth:`p_beats` computed afresh."""
        if self.hand_sizes[seat] == 0:
            return 0.0
        if lead_suitx == TRUMP_INDEX:
            return self.p_higher(seat, TRUMP_INDEX, value, group, length)
        pv = self.p_void(seat, lead_suitx)
        if play_suitx == TRUMP_INDEX:  # already ruffed: an over-ruff needs a void too
            return pv * self.p_higher(seat, TRUMP_INDEX, value, group, length)
        in_suit = (1.0 - pv) * self.p_higher(seat, lead_suitx, value, group, length)
        ruff = pv * self.p_higher(seat, TRUMP_INDEX, 0, group, length)
        return 1.0 - (1.0 - in_suit) * (1.0 - ruff)

    def p_any_beats(self, seats: Sequence[int], lead_suitx: int, play_suitx: int, value: int,
                    group: int = 1, length: int = 1) -> float:
        """Chance that at least one of ``seats`` beats the play (see :meth:`p_beats`)."""
        miss = 1.0
        for s in seats:
            miss *= 1.0 - self.p_beats(s, lead_suitx, play_suitx, value, group, length)
        return 1.0 - miss


def copy_caps(view: Any) -> list[dict[int, int]]:
    """What the seat of ``view`` has learned about the *structure* of the others' hands.

    Returns, per seat, ``{effective suit index: most copies of one card the seat can still
    hold in that suit}`` (1: no pair left, 2: no triple left; a suit absent from the dict is
    unconstrained). Derived from the follows seen so far (``view.tricks`` and
    ``view.current_trick``) with the structure rules of RULES.md §8: a follower who played
    only cards of the led suit owes the lead as many pairs (triples) as it can give, up to
    the lead's number, so giving fewer proves it has no more. With two decks, fewer pairs than
    the lead's pairs: no pair left. With three decks, fewer triples than the lead's triples:
    no triple left; fewer units of two or more identical cards than the lead's: no pair left.
    A follower that did not follow the suit fully is void in it (:class:`Knowledge`), which
    says more. Cards only leave a hand during play, so a constraint holds to the end of the
    hand. ``view`` must be a play-phase ``PlayerView`` with ``ctx`` set.
    """
    sx = view.ctx.SUITX
    caps: list[dict[int, int]] = [{} for _ in range(len(view.hand_sizes))]
    for plays in seen_tricks(view):
        lead = plays[0][1]
        counts = Counter(lead)
        groups = sum(1 for k in counts.values() if k >= 2)
        if not groups:
            continue
        triples = sum(1 for k in counts.values() if k >= 3)
        lsx = sx[lead[0]]
        for s, cards in plays[1:]:
            in_suit = [c for c in cards if sx[c] == lsx]
            if len(in_suit) < len(lead):
                continue  # a void: Knowledge.voids has it
            got = Counter(in_suit)
            cap = caps[s].get(lsx, 99)
            if triples and sum(1 for k in got.values() if k >= 3) < triples:
                cap = min(cap, 2)
            if sum(1 for k in got.values() if k >= 2) < groups:
                cap = 1
            if cap < 99:
                caps[s][lsx] = cap
    return caps
