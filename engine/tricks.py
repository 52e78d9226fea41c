"""Tricks: leading (throw adjudication), following (suit and structure obligations), the
legal-play generator and the trick winner (RULES.md §7, §8, §9).

The legality check (:func:`follow_error`) and the generator (:func:`legal_follows`) are built
on one definition, the *obligation*: for the led components in decomposition order, the most
structure (pairs, triples, tractors) the follower's holding in the led suit can give, compared
lexicographically. A follow is legal when its cards in the led suit give exactly that much.
"""
from __future__ import annotations

import random
from bisect import bisect_right
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations, product
from math import prod
from typing import Iterator, Sequence

from engine.cards import ALL_CARDS, SUIT_SYMBOLS, SUITS, Card
from engine.order import EFFECTIVE_SUITS, TRUMP_INDEX, TrumpContext
from engine.refusals import Refusal
from engine.patterns import (
    _UNITS, INVALID, THROW, Component, Pattern, classify, counts_of, runs, suit_of_play,
)

Counts = dict[int, int]
_new_object = object.__new__


# --------------------------------------------------------------------------------------
# small helpers on one-suit holdings
# --------------------------------------------------------------------------------------
def _minus(counts: Counts, cards: Sequence[int], group: int) -> Counts:
    out = dict(counts)
    for c in cards:
        n = out[c] - group
        if n:
            out[c] = n
        else:
            del out[c]
    return out


def _units(counts: Counts, group: int, length: int, ctx: TrumpContext) -> list[list[int]]:
    """Every unit of ``length`` consecutive groups of ``group`` identical cards in ``counts``
    (a pair may come out of a triple; any window of a longer tractor counts), highest top first."""
    if length == 1:
        cards = [c for c, n in counts.items() if n >= group]
        cards.sort(key=ctx.STRONG_FIRST.__getitem__)
        return [[c] for c in cards]
    out = []
    for run in runs(counts, group, ctx):
        for i in range(len(run) - length + 1):
            out.append(run[i:i + length])
    if ctx.tied_seq:  # overlapping runs (equal cards on one rung) repeat shared windows
        out = [list(u) for u in dict.fromkeys(map(tuple, out))]
    strong_first = ctx.STRONG_FIRST
    out.sort(key=lambda u: strong_first[u[-1]])
    return out


def _suit_name(suit: str) -> str:
    return "trump" if suit == "trump" else SUIT_SYMBOLS[suit]


def _must_follow(suit: str) -> Refusal:
    """The ``follow_suit`` refusal for effective suit ``suit``."""
    if suit == "trump":
        text = "you must follow suit: trumps were led and you hold trumps"
    else:
        text = f"you must follow suit: {SUIT_SYMBOLS[suit]} was led and you hold {SUIT_SYMBOLS[suit]}"
    return Refusal("follow_suit", text, suit=suit)


def _describe(group: int, length: int) -> str:
    if length > 1:
        return f"a tractor of {length} {'pairs' if group == 2 else 'triples'}"
    return ("a single", "a pair", "a triple")[group - 1]


# --------------------------------------------------------------------------------------
# leading (RULES.md §7)
# --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class LeadCheck:
    """Result of :func:`check_lead`: ``valid``; ``forced`` (the cards the leader must play
    instead when a throw fails, None if valid or if the cards cannot be led at all);
    ``failing`` (the components another player could beat); ``blocker`` (index into
    ``other_hands`` of the first hand that beats the forced component, or None); ``reason``."""

    valid: bool
    forced: tuple[Card, ...] | None
    failing: tuple[Component, ...] = ()
    blocker: int | None = None
    reason: str = ""


def _beatable(comp: Component, counts: Counts, ctx: TrumpContext) -> bool:
    """Can a holding of the component's suit form a unit that beats ``comp``?"""
    top = ctx.VAL[comp.top]
    if comp.length == 1:
        return any(n >= comp.group and ctx.VAL[c] > top for c, n in counts.items())
    return any(
        len(r) >= comp.length and ctx.VAL[r[-1]] > top for r in runs(counts, comp.group, ctx)
    )


def _forced_order(comp: Component, ctx: TrumpContext) -> tuple:
    kind = 3 if comp.length > 1 else comp.group - 1
    top = comp.top
    return (kind, ctx.VAL[top], comp.length, SUITS.index(top.suit) if top.suit else -1)


def check_lead(lead: Sequence[int], other_hands: Sequence[Sequence[int]], ctx: TrumpContext) -> LeadCheck:
    """Judge a lead (RULES.md §7). Any one pattern may be led; a throw stands only if no single
    other player's cards of its suit can beat one of its components. On failure the leader must
    play one failing component: the lowest single, else the lowest pair, then triples, then
    tractors (lowest top, then shorter); equal ranks go to the first suit in ♠ ♥ ♣ ♦ order.

    ``other_hands`` are the other players' whole hands. Returns a :class:`LeadCheck`.
    """
    pattern = classify(lead, ctx)
    if pattern.kind == INVALID:
        return LeadCheck(False, None, reason="a lead must be cards of one suit (or all trumps)")
    if pattern.kind != THROW:
        return LeadCheck(True, None)
    sx = TRUMP_INDEX if pattern.suit == "trump" else SUITS.index(pattern.suit)
    suitx = ctx.SUITX
    holdings = [counts_of([c for c in hand if suitx[c] == sx]) for hand in other_hands]
    val = ctx.VAL
    highest = max((val[c] for h in holdings for c in h), default=-1)  # for singles
    failing = [
        comp for comp in pattern.components
        if (highest > val[comp.top] if comp.size == 1 else any(_beatable(comp, h, ctx) for h in holdings))
    ]
    if not failing:
        return LeadCheck(True, None)
    forced = min(failing, key=lambda comp: _forced_order(comp, ctx))
    blocker = next(i for i, h in enumerate(holdings) if _beatable(forced, h, ctx))
    return LeadCheck(
        False, tuple(forced.cards), tuple(failing), blocker,
        reason=f"the throw fails: another player can beat {_describe(forced.group, forced.length)} in it",
    )


def _throw_verdict(lead: Sequence[int], counts: Counts, holdings: Sequence[Sequence[int]], ctx: TrumpContext) -> tuple[Component | None, int | None]:
    """The forced component of a lead and its blocker, as :func:`check_lead` decides them
    (RULES.md §7), without listing every failing component: ``(None, None)`` when the lead
    stands (every single pattern does), else ``(forced component, index into holdings of the
    first holding that beats it)``.

    ``lead`` is of one effective suit and ``counts`` its multiset; ``holdings`` are the other
    players' cards *of that suit* only (any order, any sequence type). Singles are judged
    first: with at most three copies of a card (any real deal), the singles of the throw's
    decomposition are exactly its one-copy cards (RULES.md §6); the lowest of them fails when
    some holding has a higher card, and a failing single is forced before any pair, triple or
    tractor. Only otherwise is the lead classified and its other components judged.
    """
    val = ctx.VAL
    if len(lead) > 1 and max(counts.values()) <= 3:
        low_key = None
        for c, k in counts.items():
            if k == 1:  # a single; key: strength, then ♠ ♥ ♣ ♦ order (jokers -1; _forced_order)
                key = val[c] * 8 + _SUIT_ORDER[c]
                if low_key is None or key < low_key:
                    low, low_key = c, key
        if low_key is not None:  # with a single, the lead is a throw: does its lowest fail?
            v = val[low]
            for i, h in enumerate(holdings):
                if h and max(map(val.__getitem__, h)) > v:
                    return _UNITS[1][low], i
    tops = [max(map(val.__getitem__, h)) if h else -1 for h in holdings]
    highest = max(tops, default=-1)
    if highest < 0:  # every other player is void in the suit: nobody can spoil a throw
        return None, None
    pattern = classify(lead, ctx)
    if pattern.kind != THROW:
        return None, None
    low, low_key = None, None
    for comp in reversed(pattern.components):  # singles come last in the decomposition
        if comp.group != 1:
            break
        top = comp.top
        key = (val[top], _SUIT_ORDER[top])
        if low_key is None or key < low_key:
            low, low_key = comp, key
    if low is not None and highest > low_key[0]:
        v = low_key[0]
        return low, next(i for i, t in enumerate(tops) if t > v)
    holdings_counts = [counts_of(h) for h in holdings]
    failing = [
        comp for comp in pattern.components
        if comp.group > 1 and any(_beatable(comp, h, ctx) for h in holdings_counts)
    ]
    if not failing:
        return None, None
    forced = min(failing, key=lambda comp: _forced_order(comp, ctx))
    return forced, next(i for i, h in enumerate(holdings_counts) if _beatable(forced, h, ctx))


_SUIT_ORDER: tuple[int, ...] = tuple(SUITS.index(c.suit) if c.suit else -1 for c in ALL_CARDS)
"""Per card id: its printed suit's place in ♠ ♥ ♣ ♦ order, -1 for a joker (tie-break, RULES.md §7)."""


# --------------------------------------------------------------------------------------
# following (RULES.md §8): the obligation
# --------------------------------------------------------------------------------------
def _choices(counts: Counts, group: int, length: int, ctx: TrumpContext) -> tuple[tuple, list[tuple[list[int], ...]]]:
    """Best value a component (``group``, ``length``) can get from ``counts``, and every way
    to get it: a list of ``(cards taken as triples, cards taken as pairs)``."""
    if group == 1:
        return (), [([], [])]
    if length == 1:
        if group == 3:
            triples = [c for c, n in counts.items() if n >= 3]
            if triples:
                return (2,), [([c], []) for c in triples]
        pairs = [c for c, n in counts.items() if n >= 2]
        if pairs:
            return (1,), [([], [c]) for c in pairs]
        return (0,), [([], [])]
    windows = _units(counts, group, length, ctx)
    if windows:
        if group == 2:
            return (1, length), [([], w) for w in windows]
        return (1, length, 0), [(w, []) for w in windows]
    if group == 2:
        pairs = sorted(c for c, n in counts.items() if n >= 2)
        m = min(length, len(pairs))
        return (0, m), [([], list(p)) for p in combinations(pairs, m)]
    triples = sorted(c for c, n in counts.items() if n >= 3)
    t = min(length, len(triples))
    found: dict[tuple, list] = {}
    for tri in combinations(triples, t):
        rest = _minus(counts, tri, 3)
        pairs = sorted(c for c, n in rest.items() if n >= 2)
        p = min(length - t, len(pairs))
        found.setdefault((0, t, p), []).extend((list(tri), list(pp)) for pp in combinations(pairs, p))
    best = max(found)
    return best, found[best]


def _take(counts: Counts, choice: tuple[list[int], list[int]]) -> Counts:
    triples, pairs = choice
    if triples:
        counts = _minus(counts, triples, 3)
    if pairs:
        counts = _minus(counts, pairs, 2)
    return counts


def _structured(shapes: tuple[tuple[int, int], ...]) -> bool:
    return any(g > 1 for g, _ in shapes)


@lru_cache(maxsize=4096)
def _obligation_cached(key: tuple, shapes: tuple[tuple[int, int], ...], ctx_key) -> tuple:
    from engine.order import context_for_key

    return _obligation(dict(key), shapes, context_for_key(ctx_key))


def _obligation(counts: Counts, shapes: tuple[tuple[int, int], ...], ctx: TrumpContext) -> tuple:
    """Lexicographically greatest structure vector that ``counts`` gives to ``shapes``."""
    if not shapes or not _structured(shapes):
        return ()
    (group, length), rest = shapes[0], shapes[1:]
    value, options = _choices(counts, group, length, ctx)
    if not _structured(rest):
        return (value,)
    best = None
    for choice in options:
        tail = _obligation(_take(counts, choice), rest, ctx)
        if best is None or tail > best:
            best = tail
    return (value,) + best


def obligation(counts: Counts, shapes: tuple[tuple[int, int], ...], ctx: TrumpContext) -> tuple:
    """The structure owed to a lead of component ``shapes`` by a one-suit holding ``counts``
    (RULES.md §8), as a comparable tuple of per-component values in decomposition order."""
    if not _structured(shapes):
        return ()
    return _obligation_cached(tuple(sorted(counts.items())), shapes, ctx.key)


def _shortfall(lead: Pattern, owed: tuple, given: tuple, suit: str) -> str:
    for comp, o, g in zip(lead.components, owed, given):
        if o != g:
            name = _suit_name(suit)
            if comp.length > 1 and o[0] == 1:
                return Refusal("tractor_owed", f"{_describe(comp.group, comp.length)} was led and you hold a {name} tractor like it", suit=suit, group=comp.group, length=comp.length)
            if comp.length > 1:
                if comp.group == 2:
                    return Refusal("pairs_owed", f"{_describe(comp.group, comp.length)} was led: you hold {name} pairs "
                                   f"and must play {o[1]} of them", suit=suit, length=comp.length, pairs=o[1])
                return Refusal("groups_owed", f"{_describe(comp.group, comp.length)} was led: you must play {o[1]} {name} "
                               f"triple(s) and {o[2]} pair(s)", suit=suit, length=comp.length, triples=o[1], pairs=o[2])
            if comp.group == 3 and o == (2,):
                return Refusal("triple_owed", f"a triple was led and you hold a {name} triple", suit=suit)
            if lead.kind == THROW:
                return Refusal("pair_owed", f"the throw includes {_describe(comp.group, 1)} and you hold a {name} pair to match it", suit=suit, throw=True)
            return Refusal("pair_owed", f"{_describe(comp.group, 1)} was led and you hold a {name} pair", suit=suit, throw=False)
    return Refusal("structure_owed", "your play does not give the structure the lead requires", suit=suit)


def follow_error(lead: Sequence[int], hand: Sequence[int], play: Sequence[int], ctx: TrumpContext) -> str | None:
    """Why ``play`` may not follow ``lead`` from ``hand`` (the whole hand, play included), or
    None when it is legal (RULES.md §8): as many cards as led; the led effective suit first
    (all of it if short, trumps first when trump is led); then as much structure (pairs,
    triples, tractors, in the led components' order) as the holding can give.

    Raises ValueError when ``lead`` is empty or of mixed suits.
    """
    n = len(lead)
    if n == 1 and len(play) == 1:  # fast path: a single led, a single played
        led, card = lead[0], play[0]
        if card not in hand:
            return Refusal("not_held", f"you do not hold {ALL_CARDS[card]}", card=str(ALL_CARDS[card]))
        sx = ctx.SUITX
        s = sx[led]
        if sx[card] != s:
            for c in hand:
                if sx[c] == s:
                    return _must_follow(EFFECTIVE_SUITS[s])
        return None
    pattern = classify(lead, ctx)
    if pattern.kind == INVALID:
        raise ValueError("the lead must be one or more cards of one effective suit")
    if len(play) != n:
        return Refusal("wrong_count", f"play exactly {n} card{'s' if n != 1 else ''}: {n} {'were' if n != 1 else 'was'} led", count=n)
    have = counts_of(hand)
    for c, k in counts_of(play).items():
        if have.get(c, 0) < k:
            return Refusal("not_held", f"you do not hold {'that many ' if have.get(c) else ''}{ALL_CARDS[c]}", card=str(ALL_CARDS[c]))
    suit = pattern.suit
    sx = TRUMP_INDEX if suit == "trump" else SUITS.index(suit)
    in_hand = [c for c in hand if ctx.SUITX[c] == sx]
    in_play = [c for c in play if ctx.SUITX[c] == sx]
    name = _suit_name(suit)
    if len(in_hand) >= n and len(in_play) < n:
        return _must_follow(suit)
    if len(in_hand) < n and len(in_play) < len(in_hand):
        return Refusal("play_all_suit", f"you must play all your {name} cards ({len(in_hand)}) before other cards", suit=suit, count=len(in_hand))
    if len(in_hand) <= n or len(in_play) == len(in_hand):
        return None  # every card of the suit is played: all the structure there is, is given
    shapes = pattern.shapes
    owed = obligation(counts_of(in_hand), shapes, ctx)
    given = obligation(counts_of(in_play), shapes, ctx)
    if given < owed:
        return _shortfall(pattern, owed, given, suit)
    return None


def _multiset_combos(counts: Counts, m: int) -> Iterator[tuple[int, ...]]:
    """Every sub-multiset of size ``m`` of ``counts`` (sorted tuples of card ids)."""
    items = sorted(counts.items())

    def rec(i: int, m: int) -> Iterator[tuple[int, ...]]:
        if m == 0:
            yield ()
            return
        if i == len(items):
            return
        c, n = items[i]
        for k in range(min(n, m), -1, -1):
            for tail in rec(i + 1, m - k):
                yield (c,) * k + tail

    return rec(0, m)


def _structure_paths(counts: Counts, shapes, owed: tuple, ctx: TrumpContext) -> Iterator[Counts]:
    """Yield, for every way the holding gives exactly ``owed``, the cards it leaves over."""
    if not owed:
        yield counts
        return
    (group, length), rest = shapes[0], shapes[1:]
    value, options = _choices(counts, group, length, ctx)
    if value != owed[0]:
        return
    for choice in options:
        left = _take(counts, choice)
        if len(owed) > 1 and _obligation(left, rest, ctx) != owed[1:]:
            continue
        yield from _structure_paths(left, rest, owed[1:], ctx)


def legal_follows(lead: Sequence[int], hand: Sequence[int], ctx: TrumpContext) -> Iterator[tuple[Card, ...]]:
    """Every legal follow to ``lead`` from ``hand``, each once, as card tuples sorted by id
    (a lazy generator; RULES.md §8). Agrees with :func:`follow_error` on every position."""
    pattern = classify(lead, ctx)
    if pattern.kind == INVALID:
        raise ValueError("the lead must be one or more cards of one effective suit")
    n = len(lead)
    suit = pattern.suit
    sx = TRUMP_INDEX if suit == "trump" else SUITS.index(suit)
    in_suit = counts_of(c for c in hand if ctx.SUITX[c] == sx)
    h = sum(in_suit.values())
    if h <= n:
        fixed = tuple(c for c, k in in_suit.items() for _ in range(k))
        others = counts_of(c for c in hand if ctx.SUITX[c] != sx)
        for extra in _multiset_combos(others, n - h):
            yield tuple(ALL_CARDS[c] for c in sorted(fixed + extra))
        return
    shapes = pattern.shapes
    owed = obligation(in_suit, shapes, ctx)
    if not owed:
        for combo in _multiset_combos(in_suit, n):
            yield tuple(ALL_CARDS[c] for c in combo)
        return
    seen: set[tuple[int, ...]] = set()
    for left in _structure_paths(in_suit, shapes, owed, ctx):
        used = _minus_counts(in_suit, left)
        base = tuple(c for c, k in used.items() for _ in range(k))
        for extra in _multiset_combos(left, n - len(base)):
            play = tuple(sorted(base + extra))
            if play not in seen:
                seen.add(play)
                yield tuple(ALL_CARDS[c] for c in play)


def _minus_counts(a: Counts, b: Counts) -> Counts:
    return {c: k - b.get(c, 0) for c, k in a.items() if k - b.get(c, 0) > 0}


def legal_leads(hand: Sequence[int], ctx: TrumpContext) -> Iterator[tuple[Card, ...]]:
    """Every lead the player may attempt: any non-empty set of cards of one effective suit
    (single patterns always stand; throws are then judged by :func:`check_lead`). Lazy."""
    by_suit: dict[int, Counts] = {}
    for c in hand:
        d = by_suit.setdefault(ctx.SUITX[c], {})
        d[c] = d.get(c, 0) + 1
    for sx in sorted(by_suit):
        items = sorted(by_suit[sx].items())
        for ks in product(*(range(k + 1) for _, k in items)):
            play = tuple(ALL_CARDS[c] for (c, _), k in zip(items, ks) for _ in range(k))
            if play:
                yield play


def lead_units(hand: Sequence[int], ctx: TrumpContext) -> list[tuple[Card, ...]]:
    """Every one-pattern lead in ``hand`` (singles, pairs, triples, tractors of any length,
    every window of a longer tractor), strongest first within each shape. These always stand."""
    by_suit: dict[int, Counts] = {}
    for c in hand:
        d = by_suit.setdefault(ctx.SUITX[c], {})
        d[c] = d.get(c, 0) + 1
    out: list[tuple[Card, ...]] = []
    for counts in by_suit.values():
        for group in (1, 2, 3):
            for unit in _units(counts, group, 1, ctx):
                out.append(tuple(ALL_CARDS[c] for c in unit for _ in range(group)))
            for run in runs(counts, group, ctx) if group > 1 else ():
                for length in range(2, len(run) + 1):
                    for i in range(len(run) - length + 1):
                        out.append(tuple(ALL_CARDS[c] for c in run[i:i + length] for _ in range(group)))
    if ctx.tied_seq:  # overlapping runs (equal cards on one rung) repeat shared windows
        out = list(dict.fromkeys(out))
    return out


# --------------------------------------------------------------------------------------
# trick winner (RULES.md §9)
# --------------------------------------------------------------------------------------
def _fits(counts: Counts, shapes: list[tuple[int, int]], ctx: TrumpContext) -> bool:
    if not shapes:
        return True
    (group, length), rest = shapes[0], shapes[1:]
    for unit in _units(counts, group, length, ctx):
        if _fits(_minus(counts, unit, group), rest, ctx):
            return True
    return False


def play_key(play: Sequence[int], lead_shapes: tuple[tuple[int, int], ...], ctx: TrumpContext) -> int | None:
    """Strength of ``play`` against a lead of component ``lead_shapes`` (RULES.md §9): the top
    card's value of the largest component (most cards, then larger group) in the split of the
    play into exactly the lead's shapes that is best for its player; None when no such split
    exists or the cards are of mixed suits."""
    if suit_of_play(play, ctx) is None:
        return None
    if len(lead_shapes) == 1 and lead_shapes[0][0] == 1:
        return ctx.VAL[play[0]] if len(play) == 1 else None
    counts = counts_of(play)
    shapes = sorted(
        ((g, l) for g, l in lead_shapes if g > 1), key=lambda s: (s[0] * s[1], s[0]), reverse=True
    )
    if not shapes:  # a throw of singles only
        return max(ctx.VAL[c] for c in play)
    (group, length), rest = shapes[0], shapes[1:]
    for unit in _units(counts, group, length, ctx):  # highest top first
        if _fits(_minus(counts, unit, group), rest, ctx):
            return ctx.VAL[unit[-1]] if length > 1 else ctx.VAL[unit[0]]
    return None


def takes_trick(play: Sequence[int], lead_suit: str, lead_shapes: tuple[tuple[int, int], ...],
                best_suit: str, best_key: int, ctx: TrumpContext) -> int | None:
    """The key (:func:`play_key`) of ``play`` when it takes the trick from the play now winning
    it, else None (RULES.md §9). ``lead_suit``, ``lead_shapes``: the lead's effective suit name
    and component shapes (:func:`classify`); ``best_suit``, ``best_key``: the winning play's
    suit name and key. A later play takes the trick only if it is of one effective suit,
    splits into the lead's shapes, and either ruffs (all trump against a non-trump winner) or
    is in the winner's suit with a strictly higher key; equal plays leave the first winning.
    The one comparison :func:`trick_winner` makes for every play after the lead."""
    suit = suit_of_play(play, ctx)
    if suit is None or (suit != lead_suit and suit != "trump"):
        return None
    if suit != best_suit and not (suit == "trump" and best_suit != "trump"):
        return None
    key = play_key(play, lead_shapes, ctx)
    if key is None or (suit == best_suit and key <= best_key):
        return None
    return key


def trick_winner(plays: Sequence[Sequence[int]], ctx: TrumpContext) -> int:
    """Index of the play that wins the trick (``plays[0]`` is the lead; RULES.md §9).

    Every later play is compared with the play winning so far by :func:`takes_trick`.
    Raises ValueError if the plays differ in length or the lead is not of one suit.
    """
    lead = plays[0]
    n = len(lead)
    if any(len(p) != n for p in plays):
        raise ValueError("every play of a trick has as many cards as the lead")
    sx, val = ctx.SUITX, ctx.VAL
    if n == 1:  # fast path: singles
        best, bs, bv = 0, sx[lead[0]], val[lead[0]]
        for i in range(1, len(plays)):
            c = plays[i][0]
            s = sx[c]
            if s == bs:
                if val[c] > bv:
                    best, bv = i, val[c]
            elif s == TRUMP_INDEX and bs != TRUMP_INDEX:  # a ruff
                best, bs, bv = i, s, val[c]
        return best
    pattern = classify(lead, ctx)
    if pattern.kind == INVALID:
        raise ValueError("the lead must be cards of one effective suit")
    shapes = pattern.shapes
    best, best_suit, best_key = 0, pattern.suit, play_key(lead, shapes, ctx)
    for i in range(1, len(plays)):
        key = takes_trick(plays[i], pattern.suit, shapes, best_suit, best_key, ctx)
        if key is not None:
            best, best_suit, best_key = i, suit_of_play(plays[i], ctx), key
    return best


# --------------------------------------------------------------------------------------
# what a seat may play now
# --------------------------------------------------------------------------------------
def split_suits(hand: Sequence[int], ctx: TrumpContext) -> tuple[tuple[int, ...], ...]:
    """``hand`` split by effective suit: five tuples, for suit indices 0..3 (♠ ♥ ♣ ♦, side
    suits) and 4 (trump; RULES.md §5), each keeping the hand's order."""
    out: tuple[list[int], ...] = ([], [], [], [], [])
    add = [part.append for part in out]
    sx = ctx.SUITX
    for c in hand:
        add[sx[c]](c)
    return tuple(map(tuple, out))


def _lead_facts(cards: tuple[int, ...]) -> tuple:
    """What the lead sampler needs of one suit's ``cards``: ``(cards, number of non-empty
    sub-multisets, distinct cards ascending by id as Cards, copies + 1 of each)``. The number
    is the product of (copies + 1) over the distinct cards, minus one (the empty set)."""
    distinct: list[Card] = []
    copies: list[int] = []
    last = None
    for c in sorted(cards):
        if c == last:
            copies[-1] += 1
        else:
            distinct.append(ALL_CARDS[c])
            copies.append(2)
            last = c
    return cards, prod(copies) - 1, distinct, copies


class PlayOptions:
    """The plays open to one seat at this moment (RULES.md §7, §8).

    ``leading`` (bool); ``lead`` (the cards led this trick, None when leading); ``hand``;
    ``ctx``. Iterating yields every legal play lazily (when leading, every set of cards of one
    effective suit; throws are judged when played). ``explain(cards)`` gives the reason a play
    is refused (None when legal); ``is_legal(cards)``; ``units()`` the one-pattern leads;
    ``singles()`` the legal one-card plays;
    ``sample(rng)`` one legal play (uniform over legal plays).
    """

    __slots__ = ("hand", "lead", "ctx", "leading", "_suits", "_memo")

    def __init__(self, hand: Sequence[int], lead: Sequence[int] | None, ctx: TrumpContext) -> None:
        self.hand = tuple(hand)
        self.lead = tuple(lead) if lead else None
        self.ctx = ctx
        self.leading = self.lead is None
        self._suits: tuple[tuple[int, ...], ...] | None = None  # split_suits(hand), made when needed
        # per effective suit, the _lead_facts of a suit's cards, valid while its first item *is*
        # that suit's tuple (a Game shares one such list per seat across its PlayOptions)
        self._memo: list[tuple | None] | None = None

    @classmethod
    def _prepared(cls, hand: Sequence[int], lead: tuple[Card, ...] | None, ctx: TrumpContext,
                  suits: tuple[tuple[int, ...], ...], memo: list) -> "PlayOptions":
        """``PlayOptions(hand, lead, ctx)`` whose :func:`split_suits` of ``hand`` (``suits``)
        and sampler memo are already kept by the caller (:meth:`engine.state.Game.play_options`);
        ``lead`` is a non-empty tuple or None."""
        opts = _new_object(cls)
        opts.hand = tuple(hand)
        opts.lead = lead
        opts.ctx = ctx
        opts.leading = lead is None
        opts._suits = suits
        opts._memo = memo
        return opts

    def _by_suit(self) -> tuple[tuple[int, ...], ...]:
        """The hand split by effective suit (:func:`split_suits`), computed once."""
        suits = self._suits
        if suits is None:
            suits = self._suits = split_suits(self.hand, self.ctx)
        return suits

    def __iter__(self) -> Iterator[tuple[Card, ...]]:
        if self.leading:
            return legal_leads(self.hand, self.ctx)
        return legal_follows(self.lead, self.hand, self.ctx)

    def explain(self, cards: Sequence[int]) -> str | None:
        """None when ``cards`` may be played now, else the reason in words."""
        if self.leading:
            if not cards:
                return Refusal("empty_lead", "choose at least one card to lead")
            have = counts_of(self.hand)
            for c, k in counts_of(cards).items():
                if have.get(c, 0) < k:
                    return Refusal("not_held", f"you do not hold {ALL_CARDS[c]}", card=str(ALL_CARDS[c]))
            if suit_of_play(cards, self.ctx) is None:
                return Refusal("mixed_lead", "a lead must be cards of one suit (or all trumps)")
            return None
        return follow_error(self.lead, self.hand, cards, self.ctx)

    def is_legal(self, cards: Sequence[int]) -> bool:
        """True when ``cards`` may be played now."""
        return self.explain(cards) is None

    def singles(self) -> list[tuple[Card, ...]]:
        """Legal one-card plays now (every distinct card when leading; when following, the
        legal plays if one card was led, else an empty list)."""
        if self.leading:
            return [(ALL_CARDS[c],) for c in sorted(set(self.hand))]
        if len(self.lead) != 1:
            return []
        return list(legal_follows(self.lead, self.hand, self.ctx))

    def units(self) -> list[tuple[Card, ...]]:
        """One-pattern leads (when leading) — see :func:`lead_units`."""
        return lead_units(self.hand, self.ctx)

    def sample(self, rng: random.Random) -> tuple[Card, ...]:
        """One legal play drawn uniformly at random with ``rng``.

        Leading: uniform over every non-empty set of cards of one effective suit (a suit is
        drawn with weight its number of such sets, then each distinct card's copies uniformly
        in 0..k, retrying the empty set). Following: uniform over :func:`legal_follows`
        (counted and unranked, not listed, where the obligation leaves a free choice)."""
        suits = self._suits
        if suits is None:
            suits = self._by_suit()
        if self.leading:
            memo = self._memo
            if memo is None:
                memo = self._memo = [None] * 5
            # rng.choices(suits held, their weights), drawn the same way: one random() and a
            # bisect of the cumulative weights (empty suits add nothing and are never drawn)
            cum: list[int] = []
            found: list[tuple | None] = [None] * 5  # this hand's facts (the memo may move on)
            total, last = 0, 0
            for sx in range(5):
                cards = suits[sx]
                if cards:
                    facts = memo[sx]
                    if facts is None or facts[0] is not cards:
                        facts = memo[sx] = _lead_facts(cards)
                    found[sx] = facts
                    total += facts[1]
                    last = sx
                cum.append(total)
            if not total:
                raise IndexError("there is nothing to lead: the hand is empty")
            _, _, distinct, copies = found[bisect_right(cum, rng.random() * (total + 0.0), 0, last)]
            rand = rng.random
            while True:  # each card's copies uniform in 0..k (k + 1 choices); retry the empty set
                play: list[Card] = []
                for c, k in zip(distinct, copies):
                    j = int(rand() * k)
                    if j:
                        play.append(c)
                        if j > 1:
                            play.extend([c] * (j - 1))
                if play:
                    return tuple(play)
        lead = self.lead
        n = len(lead)
        ctx = self.ctx
        lsx = ctx.SUITX[lead[0]]
        in_suit = suits[lsx]
        if n == 1:
            pool = list(dict.fromkeys(in_suit or self.hand))  # distinct cards, in hand order
            return (ALL_CARDS[pool[int(rng.random() * len(pool))]],)
        if len(in_suit) <= n:  # all of the suit, the rest uniform from the other cards
            others = counts_of(c for sx, cards in enumerate(suits) if sx != lsx for c in cards)
            extra = _sample_multiset(others, n - len(in_suit), rng)
            return tuple(ALL_CARDS[c] for c in sorted(in_suit + tuple(extra)))
        pattern = classify(lead, ctx)
        counts = counts_of(in_suit)
        if pattern.kind != INVALID and obligation(counts, pattern.shapes, ctx) == obligation({}, pattern.shapes, ctx):
            # the holding owes no more structure than no cards would (RULES.md §8): any n cards
            # of the suit are legal, and legal_follows lists them in _multiset_combos order
            items = sorted(counts.items())
            ways = _multiset_ways(items, n)
            return tuple(ALL_CARDS[c] for c in _unrank_multiset(items, n, rng.randrange(ways[0][n]), ways))
        return rng.choice(list(legal_follows(lead, self.hand, ctx)))


def _multiset_ways(items: Sequence[tuple[int, int]], m: int) -> list[list[int]]:
    """``ways[i][r]``: how many sub-multisets of size ``r`` the ``(card, copies)`` ``items[i:]``
    have, for ``r`` in 0..``m``."""
    k = len(items)
    ways: list[list[int]] = [[]] * k + [[1] + [0] * m]
    nxt = ways[k]
    for i in range(k - 1, -1, -1):
        n = items[i][1]
        row = []
        window = 0  # sum of nxt[r - j] for j in 0..min(n, r): a sliding window over nxt
        for r in range(m + 1):
            window += nxt[r]
            if r > n:
                window -= nxt[r - n - 1]
            row.append(window)
        ways[i] = nxt = row
    return ways


def _unrank_multiset(items: Sequence[tuple[int, int]], m: int, index: int, ways: list[list[int]]) -> list[int]:
    """The ``index``-th sub-multiset of size ``m`` of ``items`` in :func:`_multiset_combos`
    order (cards ascending, each card's copies from most to fewest), as a sorted card list."""
    out: list[int] = []
    r = m
    for i, (c, n) in enumerate(items):
        if r == 0:
            break
        for j in range(min(n, r), -1, -1):
            w = ways[i + 1][r - j]
            if index < w:
                out.extend([c] * j)
                r -= j
                break
            index -= w
    return out


def _sample_multiset(counts: Counts, m: int, rng: random.Random) -> list[int]:
    """A sub-multiset of size ``m`` of ``counts``, uniform over all such sub-multisets."""
    items = sorted(counts.items())
    if m == 1:  # the same draws as below, where ways[i][1] = k - i and ways[i + 1][0] = 1
        k = len(items)
        for i in range(k):
            if rng.randrange(k - i) == k - i - 1:  # past the k - i - 1 ways that skip item i
                return [items[i][0]]
    ways = _multiset_ways(items, m)
    out: list[int] = []
    r = m
    for i in range(len(items)):
        if r == 0:
            break
        c, n = items[i]
        x = rng.randrange(ways[i][r])
        for j in range(min(n, r) + 1):
            w = ways[i + 1][r - j]
            if x < w:
                out.extend([c] * j)
                r -= j
                break
            x -= w
    return out
