"""Card order for one trump suit: effective suits, ranks and tractor adjacency (RULES.md §5).

A :class:`TrumpContext` precomputes, for every card id, three small integers so that the rest
of the engine never re-derives the order:

- ``SUITX[c]``: effective suit index, 0..3 for ♠ ♥ ♣ ♦ (non-trump) or 4 for trump;
- ``VAL[c]``: strength inside its effective suit (higher wins; equal cards, such as the 副2 of
  different suits, share a value);
- ``SEQ[c]``: position in its suit's natural sequence (consecutive positions are adjacent for
  tractors), or -1 for trumps above the trump ace, which never form tractors.

``STRONG_FIRST[c]`` (``-VAL[c] * 64 + c``) is a sort key for "strongest first, equal strengths
by card id", the order of components and of the cards inside them (RULES.md §6).
"""
from __future__ import annotations

from functools import lru_cache
from typing import Iterable

from engine.cards import ALL_CARDS, BIG_JOKER_ID, SMALL_JOKER_ID, SUITS, Card

TRUMP = "trump"
"""The name of the trump effective suit."""
TRUMP_INDEX = 4
EFFECTIVE_SUITS: tuple[str, ...] = SUITS + (TRUMP,)

SAME_COLOUR = {"S": "C", "C": "S", "H": "D", "D": "H"}
"""The other suit of the same colour (♠↔♣, ♥↔♦): its 3 is the 副参谋 (RULES.md §5)."""

# Strength values of the trumps above the trump suit's ace (RULES.md §5, lines 1-7).
VAL_OTHER_TWO = 20   # 副2
VAL_TRUMP_TWO = 21   # 主2
VAL_SIDE_THREE = 22  # 副参谋
VAL_TRUMP_THREE = 23  # 正参谋
VAL_SMALL_JOKER = 24  # 副司令
VAL_BIG_JOKER = 25   # 正司令
VAL_RED_FIVE = 26    # 红五


class TrumpContext:
    """The order of all cards once the trump suit ``trump`` (``"S" "H" "C" "D"``) is known.

    Use :func:`context` to get a cached instance. Raises ValueError for another suit.

    >>> ctx = context("S")
    >>> ctx.suit_of(Card.parse("5H")), ctx.suit_of(Card.parse("3C")), ctx.suit_of(Card.parse("9D"))
    ('trump', 'trump', 'D')
    >>> ctx.compare(Card.parse("3S"), Card.parse("3C"))
    1
    """

    __slots__ = ("trump", "trump_index", "SUITX", "VAL", "SEQ", "STRONG_FIRST", "_sort_key")

    def __init__(self, trump: str) -> None:
        if trump not in SUITS:
            raise ValueError(f"the trump suit must be one of S H C D, got {trump!r}")
        self.trump = trump
        t = SUITS.index(trump)
        self.trump_index = t
        side = SUITS.index(SAME_COLOUR[trump])
        suitx, val, seq = [0] * 54, [0] * 54, [-1] * 54
        for c in ALL_CARDS:
            if c == BIG_JOKER_ID:
                suitx[c], val[c] = TRUMP_INDEX, VAL_BIG_JOKER
                continue
            if c == SMALL_JOKER_ID:
                suitx[c], val[c] = TRUMP_INDEX, VAL_SMALL_JOKER
                continue
            s, r = c // 13, c % 13 + 2
            if s == 1 and r == 5:
                suitx[c], val[c] = TRUMP_INDEX, VAL_RED_FIVE
            elif r == 3 and s == t:
                suitx[c], val[c] = TRUMP_INDEX, VAL_TRUMP_THREE
            elif r == 3 and s == side:
                suitx[c], val[c] = TRUMP_INDEX, VAL_SIDE_THREE
            elif r == 2:
                suitx[c], val[c] = TRUMP_INDEX, VAL_TRUMP_TWO if s == t else VAL_OTHER_TWO
            else:
                suitx[c], val[c] = (TRUMP_INDEX if s == t else s), r
        # natural sequences: ascending ranks that remain in each effective suit (line 8 for trump)
        for sx in range(5):
            members = sorted(
                (c for c in ALL_CARDS if suitx[c] == sx and val[c] <= 14), key=lambda c: val[c]
            )
            for pos, c in enumerate(members):
                seq[c] = pos
        self.SUITX, self.VAL, self.SEQ = tuple(suitx), tuple(val), tuple(seq)
        self.STRONG_FIRST = tuple(-val[c] * 64 + c for c in ALL_CARDS)  # == order of (-VAL, id)
        # display order: non-trump suits (♠ ♥ ♣ ♦, the trump suit skipped), then trumps, each ascending
        self._sort_key = tuple(
            (suitx[c] if suitx[c] != TRUMP_INDEX else 9) * 100 + val[c] + (c // 13 if c < 52 else 0) / 10
            for c in ALL_CARDS
        )

    # --- queries -------------------------------------------------------------------------
    def suit_of(self, card: int) -> str:
        """Effective suit of ``card``: ``"trump"`` or its printed suit letter."""
        return EFFECTIVE_SUITS[self.SUITX[card]]

    def is_trump(self, card: int) -> bool:
        """True when ``card`` is a trump (RULES.md §5)."""
        return self.SUITX[card] == TRUMP_INDEX

    def rank(self, card: int) -> int:
        """Strength of ``card`` inside its effective suit (higher wins; equal cards equal)."""
        return self.VAL[card]

    def compare(self, a: int, b: int) -> int | None:
        """1 if ``a`` beats ``b``, -1 if lower, 0 if equal, None for two different side suits.

        A trump is higher than any non-trump card (RULES.md §5).
        """
        sa, sb = self.SUITX[a], self.SUITX[b]
        if sa != sb:
            if sa == TRUMP_INDEX:
                return 1
            if sb == TRUMP_INDEX:
                return -1
            return None
        va, vb = self.VAL[a], self.VAL[b]
        return (va > vb) - (va < vb)

    def sort_key(self, card: int) -> float:
        """Display key: side suits grouped in ♠ ♥ ♣ ♦ order, trumps last, each ascending."""
        return self._sort_key[card]

    def sort_hand(self, cards: Iterable[int]) -> tuple[Card, ...]:
        """``cards`` in display order (see :meth:`sort_key`), as Cards."""
        return tuple(ALL_CARDS[c] for c in sorted(cards, key=self._sort_key.__getitem__))

    def high_first(self, cards: Iterable[int]) -> tuple[Card, ...]:
        """``cards`` strongest first (trumps before side suits; ties in ♠ ♥ ♣ ♦ order)."""
        return tuple(
            ALL_CARDS[c]
            for c in sorted(cards, key=lambda c: (-(self.SUITX[c] == TRUMP_INDEX), -self.VAL[c], c))
        )

    def __repr__(self) -> str:
        return f"TrumpContext({self.trump!r})"


@lru_cache(maxsize=None)
def context(trump: str) -> TrumpContext:
    """The cached :class:`TrumpContext` for trump suit ``trump`` (``"S" "H" "C" "D"``)."""
    return TrumpContext(trump)
