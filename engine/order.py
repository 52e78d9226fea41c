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

    __slots__ = (
        "trump", "trump_index", "level", "top_tractors", "key", "tied_seq",
        "SUITX", "VAL", "SEQ", "STRONG_FIRST", "_sort_key",
    )

    def __init__(self, trump: str) -> None:
        if trump not in SUITS:
            raise ValueError(f"the trump suit must be one of S H C D, got {trump!r}")
        self.trump = trump
        self.level = None
        self.top_tractors = False
        self.key = trump  # 红五: the trump letter (the caches in patterns/tricks key on this)
        self.tied_seq = False
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
        self._finish(suitx, val, seq)

    def _finish(self, suitx: list[int], val: list[int], seq: list[int]) -> None:
        """Freeze the three tables and derive the sort keys from them."""
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
        if self.level is not None:
            return f"level_context({self.level!r}, {self.trump!r}, top_tractors={self.top_tractors!r})"
        return f"TrumpContext({self.trump!r})"


@lru_cache(maxsize=None)
def context(trump: str) -> TrumpContext:
    """The cached 红五 :class:`TrumpContext` for trump suit ``trump`` (``"S" "H" "C" "D"``)."""
    return TrumpContext(trump)


# --- 找朋友: level cards 级牌 and no-trump 无主 (zhaopengyou-spec §6, §7; RULES.md 找朋友 §6-§7) ---
NO_TRUMP = "none"
"""The trump text of a no-trump (无主) hand: only jokers and level cards are trump."""

VAL_SIDE_LEVEL = 20   # 副级牌 (level cards of the other suits; all four in no-trump)
VAL_TRUMP_LEVEL = 21  # 主级牌 (the level card of the trump suit)


def _level_tables(level: int, trump: str | None, top_tractors: bool) -> tuple[list, list, list]:
    t = SUITS.index(trump) if trump is not None else -1
    suitx, val, seq = [0] * 54, [0] * 54, [-1] * 54
    for c in ALL_CARDS:
        if c == BIG_JOKER_ID:
            suitx[c], val[c] = TRUMP_INDEX, VAL_BIG_JOKER
        elif c == SMALL_JOKER_ID:
            suitx[c], val[c] = TRUMP_INDEX, VAL_SMALL_JOKER
        else:
            s, r = c // 13, c % 13 + 2
            if r == level:
                suitx[c], val[c] = TRUMP_INDEX, VAL_TRUMP_LEVEL if s == t else VAL_SIDE_LEVEL
            else:
                suitx[c], val[c] = (TRUMP_INDEX if s == t else s), r
    # natural sequences: the ranks A..2 of each suit without the level rank (line 5 for trump)
    for sx in range(5):
        members = sorted((c for c in ALL_CARDS if suitx[c] == sx and val[c] <= 14), key=val.__getitem__)
        for pos, c in enumerate(members):
            seq[c] = pos
    if top_tractors:  # top of line 5 (if any), 副级牌 (one rung, equal), 主级牌, small, big
        base = sum(1 for c in ALL_CARDS if suitx[c] == TRUMP_INDEX and val[c] <= 14)
        rungs = (VAL_SIDE_LEVEL, VAL_TRUMP_LEVEL, VAL_SMALL_JOKER, VAL_BIG_JOKER)
        present = [v for v in rungs if any(suitx[c] == TRUMP_INDEX and val[c] == v for c in ALL_CARDS)]
        for c in ALL_CARDS:
            if suitx[c] == TRUMP_INDEX and val[c] > 14:
                seq[c] = base + present.index(val[c])
    return suitx, val, seq


def _level_context_new(level: int, trump: str | None, top_tractors: bool) -> TrumpContext:
    ctx = TrumpContext.__new__(TrumpContext)
    ctx.trump = trump
    ctx.trump_index = SUITS.index(trump) if trump is not None else TRUMP_INDEX
    ctx.level = level
    ctx.top_tractors = top_tractors
    ctx.key = f"L{level}:{trump or NO_TRUMP}:{int(top_tractors)}"  # a str: its hash is cached
    suitx, val, seq = _level_tables(level, trump, top_tractors)
    # equal cards sharing one sequence position (副级牌 in top tractors, level cards in no-trump)
    positions = [(suitx[c], seq[c]) for c in ALL_CARDS if seq[c] >= 0]
    ctx.tied_seq = len(positions) != len(set(positions))
    ctx._finish(suitx, val, seq)
    return ctx


@lru_cache(maxsize=None)
def _level_context(level: int, trump: str | None, top_tractors: bool) -> TrumpContext:
    return _level_context_new(level, trump, top_tractors)


def level_context(level: int, trump: str | None, top_tractors: bool = False) -> TrumpContext:
    """The cached 找朋友 :class:`TrumpContext` for level rank ``level`` (2..14, A = 14) and
    trump suit ``trump`` (``"S" "H" "C" "D"``, or None / ``"none"`` for no-trump 无主).

    Order (zhaopengyou-spec §6): big joker, small joker, 主级牌 (L of trump), 副级牌 (L of the
    other suits, equal), then the trump suit A..2 without L; side suits A..2 without L. In
    no-trump the four level cards are equal and every suit is a side suit. Tractor sequences
    (§7): each suit's ranks without L (so with L = 5, 4 and 6 are adjacent); jokers and level
    cards join no tractor unless ``top_tractors`` (option ``trump_top_tractors``), which makes
    the top of the trump suit, the 副级牌 (one rung), 主级牌, small and big joker consecutive.
    ``ctx.key`` is ``"L<level>:<trump or none>:<0|1>"`` (e.g. ``"L5:S:0"``), unlike any 红五
    key; ``ctx.trump`` is None in no-trump (``ctx.trump_index`` is then 4, no suit).
    Raises ValueError for a level outside 2..14 or another trump text.
    """
    if trump == NO_TRUMP:
        trump = None
    if trump is not None and trump not in SUITS:
        raise ValueError(f"the trump suit must be one of S H C D or 'none', got {trump!r}")
    if isinstance(level, bool) or not isinstance(level, int) or not 2 <= level <= 14:
        raise ValueError(f"the level must be a rank 2..14 (A = 14), got {level!r}")
    return _level_context(level, trump, bool(top_tractors))


def context_for_key(key: str) -> TrumpContext:
    """The cached context whose ``key`` is ``key`` (a 红五 trump letter, or a 找朋友
    ``"L<level>:<trump>:<top>"``); used by the per-context caches in patterns and tricks."""
    if len(key) == 1:
        return context(key)
    level, trump, top = key[1:].split(":")
    return _level_context(int(level), None if trump == NO_TRUMP else trump, top == "1")
