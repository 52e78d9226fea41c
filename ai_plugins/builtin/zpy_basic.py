"""The ``basic`` AI's 找朋友 decisions: declaring, countering, calling the friend, and who is on
which side while the friend is unknown (RULES.md "找朋友" §3-§5, §8).

Every rule comes from the engine: the options offered were checked by
:func:`engine.zhaopengyou_rules.check_declaration`, the card order is
:func:`engine.order.level_context`. Only the judgement is here.
"""
from __future__ import annotations

from collections import Counter
from typing import Any, Callable, Sequence

from engine.cards import SUITS, Card
from engine.order import TRUMP_INDEX, level_context

DECLARE_SHARE = 0.36
"""Declare when at least this share of the cards held so far would be trump (a third of the
pack is trump in a suit game; more than that is a long suit)."""

COUNTER_GAIN = 4
"""Counter when the new trump gives at least this many more trumps than the current one."""


def trump_count(hand: Sequence[int], level: int, trump: str | None) -> int:
    """Cards of ``hand`` that are trump at level ``level`` with trump ``trump`` (None: no-trump)."""
    sx = level_context(level, trump).SUITX
    return sum(1 for c in hand if sx[c] == TRUMP_INDEX)


def trump_quality(hand: Sequence[int], level: int, trump: str | None) -> float:
    """A rating of ``hand`` with that trump: trumps counted, jokers and level cards more, plus
    a bonus for trump pairs (unitless; higher is better)."""
    ctx = level_context(level, trump)
    sx, val = ctx.SUITX, ctx.VAL
    counts = Counter(hand)
    score = 0.0
    for c, k in counts.items():
        if sx[c] != TRUMP_INDEX:
            continue
        score += k * (1.6 if val[c] > 14 else 1.0)
        if k >= 2:
            score += 0.8 * (k - 1)
    return score


def choose_declaration(view: Any, options: Sequence[Sequence[Card]]) -> tuple[Card, ...]:
    """A declaration of ``options`` when its trump would be long in the hand, else pass ``()``.

    Judges each option's trump (its suit, or no-trump for jokers) by the share of the hand that
    would be trump; declares the cheapest (fewest cards) option of the best trump when that
    share reaches :data:`DECLARE_SHARE`, or when the deal is over and the hand has enough
    jokers for no-trump. Never outbids itself."""
    if not options or view.seat is None:
        return ()
    if view.standing is not None and view.standing[0] == view.seat:
        return ()
    hand = list(view.hand)
    level = view.levels[view.seat]
    best, best_key = (), None
    for cards in options:
        trump = cards[0].suit
        share = trump_count(hand, level, trump) / max(1, len(hand))
        key = (share + 0.02 * trump_quality(hand, level, trump) / max(1, len(hand)), -len(cards))
        if best_key is None or key > best_key:
            best, best_key = tuple(cards), key
    if best_key is None:
        return ()
    share = best_key[0]
    need = DECLARE_SHARE if len(hand) >= 10 else 0.5
    if view.cards_dealt >= 5 * view.ruleset.hand_size and view.standing is None:
        need = 0.0  # the last windows: better to deal than to see the kitty flipped or a redeal
    return best if share >= need else ()


def choose_counter(view: Any, options: Sequence[Sequence[Card]]) -> tuple[Card, ...]:
    """The counter of ``options`` whose trump gives the hand :data:`COUNTER_GAIN` or more trumps
    than the current trump (the best such), else pass ``()``."""
    if not options or view.level is None:
        return ()
    hand = list(view.hand)
    now = trump_count(hand, view.level, view.trump)
    best, best_gain = (), COUNTER_GAIN - 1
    for cards in options:
        gain = trump_count(hand, view.level, cards[0].suit) - now
        if gain > best_gain:
            best, best_gain = tuple(cards), gain
    return best


def choose_friend(view: Any, calls: Sequence[tuple[Card, int]]) -> tuple[Card, int]:
    """The friend call: the first ace of a side suit the dealer does not hold (the longest such
    suit first), else the next copy of an ace it holds, else of a king; else the first call."""
    valid = set(calls)
    hand = Counter(view.hand)
    ctx = view.ctx
    side_len = Counter(ctx.SUITX[c] for c in view.hand if ctx.SUITX[c] != TRUMP_INDEX)
    suits = sorted((s for s in SUITS), key=lambda s: -side_len.get(SUITS.index(s), 0))
    for rank in ("A", "K"):
        for s in suits:
            card = Card.parse(rank + s)
            if (card, 1) in valid and hand[card] == 0:
                return (card, 1)
        for s in suits:
            card = Card.parse(rank + s)
            nth = hand[card] + 1
            if nth <= 3 and (card, nth) in valid:
                return (card, nth)
    return tuple(calls[0])


def will_be_friend(view: Any) -> bool:
    """True when this seat holds enough copies of the called card to become the friend by
    playing them (before the friend is revealed)."""
    if view.friend_call is None or view.friend is not None or view.alone or view.seat == view.dealer:
        return False
    card, nth = view.friend_call
    played = sum(1 for c in view.played_cards() if c == card)
    held = sum(1 for c in view.hand if c == card)
    return played < nth <= played + held


def side_fn(view: Any) -> Callable[[int, int], bool]:
    """``same(a, b)``: whether this seat should treat seats ``a`` and ``b`` as one side.

    Known: the dealer and a revealed friend are the dealer side, everyone else catches. While
    the friend is unknown: the dealer treats every other seat as a catcher; a catcher treats
    the unknown seats as fellow catchers (three of the four are); a seat that will be the
    friend (:func:`will_be_friend`) sides with the dealer."""
    dealer = view.dealer
    me = view.seat
    revealed = view.friend is not None or view.alone
    known = set(view.dealer_side())
    mine = me in known or (not revealed and will_be_friend(view))

    def on_dealer_side(s: int) -> bool:
        if s in known:
            return True
        if s == me:
            return mine
        return False

    if dealer is None:
        return lambda a, b: a == b
    return lambda a, b: on_dealer_side(a) == on_dealer_side(b)
