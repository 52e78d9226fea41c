"""Patterns 牌型: single, pair, triple, tractor and throw, and the decomposition of a throw
into components (RULES.md §6).

All functions take card lists of Cards (or card ids) and a :class:`~engine.order.TrumpContext`.
Internally a holding of one effective suit is a ``dict card -> count``.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Iterable, NamedTuple, Sequence

from engine.cards import ALL_CARDS, Card
from engine.order import EFFECTIVE_SUITS, TrumpContext, context, context_for_key

SINGLE, PAIR, TRIPLE, TRACTOR, THROW, INVALID = (
    "single", "pair", "triple", "tractor", "throw", "invalid",
)


class Component(NamedTuple):
    """One unit of a play (an immutable value): ``shape`` (single/pair/triple/tractor),
    ``group`` (cards per rank: 1, 2 or 3), ``length`` (number of groups; 1 except for
    tractors), ``cards`` (strongest first) and ``top`` (the strongest card; for a tractor, its
    highest group)."""

    shape: str
    group: int
    length: int
    cards: tuple[Card, ...]
    top: Card

    @property
    def size(self) -> int:
        """Number of cards in the component (``group * length``)."""
        return self.group * self.length

    def as_json(self) -> dict:
        """The judge's form: ``{"shape", "group", "length", "cards"}`` (RULES.md §6)."""
        return {
            "shape": self.shape, "group": self.group, "length": self.length,
            "cards": [str(c) for c in self.cards],
        }


@dataclass(frozen=True)
class Pattern:
    """What a set of cards is: ``kind`` (single/pair/triple/tractor/throw/invalid), its
    effective ``suit`` (None when invalid) and its ``components`` in decomposition order."""

    kind: str
    suit: str | None
    components: tuple[Component, ...]

    @property
    def shapes(self) -> tuple[tuple[int, int], ...]:
        """``(group, length)`` of each component, in decomposition order."""
        return tuple((c.group, c.length) for c in self.components)


def counts_of(cards: Iterable[int]) -> dict[int, int]:
    """Multiset of ``cards`` as ``{card id: count}``."""
    counts: dict[int, int] = {}
    for c in cards:
        counts[c] = counts.get(c, 0) + 1
    return counts


def runs(counts: dict[int, int], group: int, ctx: TrumpContext) -> list[list[int]]:
    """Maximal runs of cards with at least ``group`` copies whose natural-sequence positions
    are consecutive (RULES.md §6: tractor adjacency). Each run is ascending; runs of length 1
    are included. Cards above the trump ace (``SEQ == -1``) are never in a run. Where equal
    cards share one position (找朋友's 副级牌 with ``trump_top_tractors``), a run goes through
    one of them, so runs may then overlap (every maximal path is listed once)."""
    if ctx.tied_seq:
        return _tied_runs(counts, group, ctx)
    seq = ctx.SEQ
    cards = sorted((c for c, n in counts.items() if n >= group and seq[c] >= 0), key=seq.__getitem__)
    out: list[list[int]] = []
    for c in cards:
        if out and seq[out[-1][-1]] + 1 == seq[c] and ctx.SUITX[out[-1][-1]] == ctx.SUITX[c]:
            out[-1].append(c)
        else:
            out.append([c])
    return out


def _tied_runs(counts: dict[int, int], group: int, ctx: TrumpContext) -> list[list[int]]:
    """:func:`runs` for a context where several cards may share a sequence position."""
    seq, suitx = ctx.SEQ, ctx.SUITX
    layers: dict[tuple[int, int], list[int]] = {}
    for c, n in counts.items():
        if n >= group and seq[c] >= 0:
            layers.setdefault((suitx[c], seq[c]), []).append(c)
    out: list[list[int]] = []
    segment: list[list[int]] = []
    last = None
    for key in sorted(layers) + [None]:
        if key is not None and last is not None and key[0] == last[0] and key[1] == last[1] + 1:
            segment.append(sorted(layers[key]))
        else:
            if segment:
                paths: list[list[int]] = [[]]
                for layer in segment:
                    paths = [p + [c] for p in paths for c in layer]
                out.extend(paths)
            segment = [sorted(layers[key])] if key is not None else []
        last = key
    return out


_UNITS: tuple[tuple[Component, ...], ...] = ((),) + tuple(
    tuple(Component((SINGLE, PAIR, TRIPLE)[g - 1], g, 1, (card,) * g, card) for card in ALL_CARDS)
    for g in (1, 2, 3)
)
"""``_UNITS[group][card id]``: the single, pair or triple of that card (the same for any trump)."""


def _component(cards: list[int], group: int, ctx: TrumpContext) -> Component:
    if len(cards) == 1:  # single, pair or triple: one card, no ordering needed
        return _UNITS[group][cards[0]]
    top = max(cards, key=lambda c: (ctx.VAL[c], -c))
    length = len(cards)
    shape = TRACTOR if length > 1 else (SINGLE, PAIR, TRIPLE)[group - 1]
    ordered = sorted(cards, key=ctx.STRONG_FIRST.__getitem__)
    return Component(
        shape, group, length, tuple(ALL_CARDS[c] for c in ordered for _ in range(group)), ALL_CARDS[top]
    )


def decompose_counts(counts: dict[int, int], ctx: TrumpContext) -> list[Component]:
    """Decompose a one-suit holding into components (RULES.md §6): repeatedly the longest
    tractor of triples, then triples, then the longest tractor of pairs, then pairs, then
    singles; ties go to the higher top card. ``counts`` is not modified."""
    val = ctx.VAL
    strong_first = ctx.STRONG_FIRST.__getitem__  # stronger first, equal strengths by id
    most = max(counts.values(), default=0)
    if most == 1:  # singles only: strongest first (equal strengths: lower id first)
        return [_UNITS[1][c] for c in sorted(counts, key=strong_first)]
    counts = dict(counts)
    out: list[Component] = []

    def take(cards: list[int], group: int) -> None:
        for c in cards:
            counts[c] -= group
            if not counts[c]:
                del counts[c]
        out.append(_component(cards, group, ctx))

    suitx = ctx.SUITX
    one_suit = len({suitx[c] for c in counts}) == 1
    for group in (3, 2):
        if most < group:
            continue
        if most < 2 * group and one_suit and not ctx.tied_seq:
            # taking a whole run leaves each of its cards below ``group`` copies and every
            # other run of the suit as it was, so the runs are found once and taken longest
            # first, ties to the higher top (no two runs of one suit share a top strength)
            tractors = [r for r in runs(counts, group, ctx) if len(r) >= 2]
            tractors.sort(key=lambda r: (len(r), val[r[-1]]), reverse=True)
            for r in tractors:
                take(r, group)
        else:  # more copies than decks hold, or several suits (hand-made lists): one at a time
            while True:  # longest tractor of this group size, ties: higher top
                best = max(
                    (r for r in runs(counts, group, ctx) if len(r) >= 2),
                    key=lambda r: (len(r), val[r[-1]]),
                    default=None,
                )
                if best is None:
                    break
                take(best, group)
        for c in sorted([c for c, n in counts.items() if n >= group], key=strong_first):
            counts[c] -= group
            if not counts[c]:
                del counts[c]
            out.append(_UNITS[group][c])
    single = _UNITS[1]
    for c in sorted(counts, key=strong_first):
        out.extend([single[c]] * counts[c])
    return out


def suit_of_play(cards: Sequence[int], ctx: TrumpContext) -> str | None:
    """The one effective suit of ``cards``, or None if empty or of mixed suits."""
    if not cards:
        return None
    sx = ctx.SUITX
    s = sx[cards[0]]
    for c in cards:
        if sx[c] != s:
            return None
    return EFFECTIVE_SUITS[s]


def classify(cards: Sequence[int], ctx: TrumpContext) -> Pattern:
    """Classify a play (see :func:`classify_uncached`); results are cached per context
    (``ctx.key``: the 红五 trump suit, or a 找朋友 level context)."""
    return _classify_cached(tuple(sorted(cards)), ctx.key)


@lru_cache(maxsize=4096)
def _classify_cached(cards: tuple[int, ...], key) -> Pattern:
    return classify_uncached(cards, context_for_key(key))


def classify_uncached(cards: Sequence[int], ctx: TrumpContext) -> Pattern:
    """Classify a play (RULES.md §6): one component gives its shape, several give ``throw``,
    an empty list or mixed effective suits give ``invalid``.

    >>> from engine.order import context; from engine.cards import parse_cards
    >>> classify(parse_cards("4H 4H 6H 6H"), context("S")).kind
    'tractor'
    >>> classify(parse_cards("BJ BJ SJ SJ"), context("S")).kind
    'throw'
    """
    suit = suit_of_play(cards, ctx)
    if suit is None:
        return Pattern(INVALID, None, ())
    comps = tuple(decompose_counts(counts_of(cards), ctx))
    kind = comps[0].shape if len(comps) == 1 else THROW
    return Pattern(kind, suit, comps)
