"""Simulation helpers for the ``expert`` AI on 找朋友: sampled worlds and fast play-outs
(RULES.md "找朋友" §3-§10).

A *world* is an :class:`engine.zhaopengyou.ZpyHand` rebuilt from one seat's
:class:`~engine.zhaopengyou.ZpyView`, with every card the seat cannot see dealt at random but
consistent with what it has seen: the hand sizes, the cards played, the kitty (known only to
the seat that buried it), the cards others showed when declaring or countering (they stay in
the hand until played), and the voids others showed by not following. The friend is not
sampled separately: before the reveal, where the remaining copies of the called card lie is
part of the random deal (the dealer knows his own copies, everyone sees the copies played),
and the world's engine then names the friend when the Nth copy is played, exactly as in a
real hand. Every action goes through ``ZpyHand.apply``, so the rules, the friend's reveal and
the settlement are the engine's.

The play-out policy (:func:`rollout_action`) sees every hand of the world (the usual
perfect-information simplification). Before the reveal it takes the seat holding most of the
remaining called copies as the friend-to-be (:func:`presumed_friend`); that seat plays a
called copy as soon as it can do so usefully, so that the sides form as they would at a table.
"""
from __future__ import annotations

import random
from collections import Counter
from itertools import islice
from typing import Any, Callable, Sequence

from engine.cards import POINTS, Card, make_deck
from engine.order import TRUMP_INDEX
from engine.state import Bury, Play
from engine.tricks import trick_winner
from engine.zhaopengyou import CallFriend, Pass, ZPhase, ZpyHand

from . import zpy_basic
from .knowledge import seen_tricks

MAX_FOLLOW_CANDIDATES = 24
"""Legal follows the play-out policy looks at (the generator is lazy)."""

LEVEL_WEIGHT_SMOOTH = 1.0
"""Levels that one ``step`` (60) of the catchers' points past the threshold is worth in
:func:`utility` on top of the settled level result: the level table is a staircase in those
points, and comparing candidates on the points as well gives paired differences far less
noisy than the stairs alone."""


# --------------------------------------------------------------------------------------------
# what a seat knows
# --------------------------------------------------------------------------------------------
def shown_cards(view: Any) -> dict[int, Counter]:
    """Per seat, the cards it showed in declarations or counters that it has not played since
    (they are still in its hand, or in the kitty if it buried them; 找朋友 §3, §5)."""
    shown: dict[int, Counter] = {}
    for seat, cards, _phase in view.declarations:
        have = shown.setdefault(seat, Counter())
        for c, k in Counter(cards).items():
            have[c] = max(have[c], k)
    if not shown:
        return shown
    played: dict[int, Counter] = {}
    for t in view.tricks:
        for s, cards in t.plays:
            played.setdefault(s, Counter()).update(cards)
    for s, cards in view.current_trick:
        played.setdefault(s, Counter()).update(cards)
    for s in list(shown):
        shown[s] = shown[s] - played.get(s, Counter())
    return shown


def voids(view: Any, ctx: Any) -> list[set[int]]:
    """Per seat, the effective suits (0..3 side, 4 trump) it has shown to be void in by not
    following a lead of that suit in full."""
    out: list[set[int]] = [set() for _ in range(view.players)]
    sx = ctx.SUITX
    for plays in seen_tricks(view):
        lead = plays[0][1]
        lsx, n = sx[lead[0]], len(lead)
        for s, cards in plays:
            if sum(1 for c in cards if sx[c] == lsx) < n:
                out[s].add(lsx)
    return out


def _deal(rng: random.Random, cards: list[int], capacity: dict[Any, int],
          forbidden: dict[Any, set[int]], sx: Sequence[int] | None) -> dict[Any, list[int]] | None:
    """Deal ``cards`` into the holders of ``capacity`` (exact counts), never giving a holder a
    card whose effective suit is in ``forbidden[holder]``; None if that failed."""
    rng.shuffle(cards)
    if sx is not None:  # the most constrained cards first
        cards.sort(key=lambda c: -sum(1 for h in capacity if sx[c] in forbidden.get(h, ())))
    left = {h: k for h, k in capacity.items() if k > 0}
    out: dict[Any, list[int]] = {h: [] for h in capacity}
    for c in cards:
        holders = [h for h in left if sx is None or sx[c] not in forbidden.get(h, ())]
        if not holders:
            return None
        h = rng.choices(holders, [left[x] for x in holders])[0]
        out[h].append(c)
        left[h] -= 1
        if not left[h]:
            del left[h]
    return out


def sample_hidden(view: Any, rng: random.Random, *, kitty_hidden: bool, ctx: Any | None,
                  void_sets: Sequence[set[int]] | None = None, tries: int = 20
                  ) -> tuple[list[list[Card]], tuple[Card, ...]]:
    """Deal every card ``view``'s seat cannot see: the other hands (``view.hand_sizes``) and,
    when ``kitty_hidden``, the kitty (7 cards). Cards a seat showed (:func:`shown_cards`) go
    to that seat; ``void_sets`` (per seat, with ``ctx``'s effective suits) are respected when
    possible (after ``tries`` failures they are ignored). Returns (five hands, the seat's own
    being ``view.hand``; the sampled kitty or ``()``)."""
    me = view.seat
    n = view.players
    unseen = Counter(make_deck(view.ruleset.decks))
    unseen.subtract(Counter(view.hand))
    for t in view.tricks:
        for _, cards in t.plays:
            unseen.subtract(Counter(cards))
    for _, cards in view.current_trick:
        unseen.subtract(Counter(cards))
    if view.buried is not None and not kitty_hidden:
        unseen.subtract(Counter(view.buried))
    # a flipped kitty (§3) went to the dealer, who may have buried it again: no constraint
    fixed: dict[int, list[int]] = {s: [] for s in range(n)}
    capacity: dict[Any, int] = {s: view.hand_sizes[s] for s in range(n) if s != me}
    for s, cards in shown_cards(view).items():
        if s == me:
            continue
        for c, k in cards.items():
            k = min(k, max(0, unseen[c]), capacity[s] - len(fixed[s]))
            if k > 0:
                fixed[s].extend([c] * k)
                unseen[c] -= k
    for s in fixed:
        if s != me:
            capacity[s] -= len(fixed[s])
    if kitty_hidden:
        capacity["kitty"] = view.ruleset.kitty_size
    pool = sorted(c for c, k in unseen.items() for _ in range(max(0, k)))
    forbidden = {s: void_sets[s] for s in capacity if s != "kitty"} if void_sets else {}
    sx = ctx.SUITX if (ctx is not None and void_sets) else None
    dealt = None
    for _ in range(tries if sx is not None else 1):
        dealt = _deal(rng, list(pool), capacity, forbidden, sx)
        if dealt is not None:
            break
    if dealt is None:
        dealt = _deal(rng, list(pool), capacity, {}, None)
    assert dealt is not None
    hands = [list(view.hand) if s == me else [Card(c) for c in fixed[s] + dealt[s]] for s in range(n)]
    kitty = tuple(Card(c) for c in dealt.get("kitty", ()))
    return hands, kitty


# --------------------------------------------------------------------------------------------
# rebuilding a hand
# --------------------------------------------------------------------------------------------
def hand_from_view(view: Any, hands: list[list[Card]], kitty: Sequence[Card]) -> ZpyHand:
    """A :class:`ZpyHand` equal to ``view``'s position after the deal (CALL_FRIEND, BURY,
    COUNTER; PLAY is the engine's :meth:`ZpyHand.from_view`) with the given hands (the burier's including the kitty while it buries)
    and ``kitty`` (the buried cards, or in CALL_FRIEND the undealt kitty). Raises ValueError
    in the DEAL or SETTLE phase."""
    phase = view.phase
    if phase in (ZPhase.DEAL, ZPhase.SETTLE):
        raise ValueError("a world can be rebuilt only between the deal and the settlement")
    if phase is ZPhase.PLAY:
        return ZpyHand.from_view(view, hands, kitty)
    rs = view.ruleset
    n = rs.players
    h = ZpyHand(rs, None, view.hand_no, tuple(view.levels), tuple(view.eligible), view.first_card,
                random.Random(0), [])
    h.phase = phase
    h.deal_no = view.deal_no
    h.dealt = n * rs.hand_size
    h.hands = [list(x) for x in hands]
    h.kitty = tuple(kitty)
    h.declarations = list(view.declarations)
    h.standing = view.standing
    if view.standing is not None:
        last = view.standing[1][0]
        h._standing_trump = None if last.suit is None else last.suit
    h.dealer = view.dealer
    h.level = view.level
    h.trump = view.trump
    h.trump_known = True
    h.kitty_flip = view.kitty_flip
    h.friend_call = view.friend_call
    h.friend = view.friend
    h.alone = view.alone
    h.friend_resolved = view.friend is not None or view.alone
    h.burier = view.burier
    h.points_won = list(view.points_won)
    h.failed_throws = list(view.failed_throws)
    h._relevant = [0] * n
    h._can = [False] * n
    h._set_ctx()
    if phase is ZPhase.BURY or phase is ZPhase.CALL_FRIEND:
        h.buried = ()
        h.counter_done = False
        h._passes = 0
        return h
    h.buried = tuple(kitty)
    h._passes = 0
    h._to_act = view.to_act
    return h


def clone(hand: ZpyHand) -> ZpyHand:
    """A copy of ``hand`` to play on (the engine's :meth:`ZpyHand.clone`)."""
    return hand.clone()


def sample_world(view: Any, rng: random.Random) -> ZpyHand:
    """A play-phase world for ``view`` (a PLAY view): hidden cards sampled by
    :func:`sample_hidden` with the voids seen so far. Raises ValueError in another phase."""
    if view.phase is not ZPhase.PLAY:
        raise ValueError("sample_world needs a play-phase view")
    ctx = view.ctx
    mine = view.buried is not None
    hands, kitty = sample_hidden(view, rng, kitty_hidden=not mine, ctx=ctx, void_sets=voids(view, ctx))
    return hand_from_view(view, hands, tuple(view.buried) if mine else kitty)


# --------------------------------------------------------------------------------------------
# play-outs
# --------------------------------------------------------------------------------------------
def presumed_friend(hand: ZpyHand) -> int | None:
    """Who the play-out treats as the friend: the revealed friend; None once the dealer is
    known to be alone; before the reveal, the seat other than the dealer holding most of the
    called copies still to come (None if nobody else holds one)."""
    if hand.friend_resolved:
        return hand.friend
    card = hand.friend_call[0]
    best, best_k = None, 0
    n = hand.ruleset.players
    start = hand.to_act if hand.to_act is not None else hand.dealer
    for i in range(n):
        s = (start + i) % n
        if s == hand.dealer:
            continue
        k = hand.hands[s].count(card)
        if k > best_k:
            best, best_k = s, k
    return best


def _value(c: int, ctx: Any) -> int:
    """Strength spent by playing ``c``: trumps above every side card."""
    return ctx.VAL[c] + (30 if ctx.SUITX[c] == TRUMP_INDEX else 0)


def rollout_action(hand: ZpyHand, rng: random.Random, bury: Callable[[ZpyHand], Any] | None = None) -> Any:
    """A quick action for ``hand.to_act``, with sight of every hand.

    COUNTER: pass. CALL_FRIEND: ``basic``'s call. BURY: ``bury(hand)`` if given, else the cheapest side cards. PLAY, leading:
    the friend-to-be leads a called copy; otherwise the unit nobody on the other side can
    beat, most cards and points first, else the weakest single of the longest side suit.
    Following: the friend-to-be plays a called copy when it wins or the dealer is winning;
    win the trick cheaply when it holds points (or no partner has played), feed points to a
    partner winning as the last to play, else play the cheapest cards. The dealer avoids
    playing the Nth called copy himself (it would leave him alone)."""
    seat = hand.to_act
    phase = hand.phase
    if phase is ZPhase.COUNTER:
        return Pass(seat)
    if phase is ZPhase.CALL_FRIEND:
        view = hand.view(seat)
        card, nth = zpy_basic.choose_friend(view, view.friend_calls())
        return CallFriend(seat, card, nth)
    if phase is ZPhase.BURY:
        if bury is not None:
            return bury(hand)
        ctx = hand._ctx
        cards = sorted(hand.hands[seat], key=lambda c: (_value(c, ctx) + POINTS[c], c))
        return Bury(seat, tuple(cards[: hand.ruleset.kitty_size]))
    ctx = hand._ctx
    sx = ctx.SUITX
    n_seats = hand.ruleset.players
    dealer = hand.dealer
    friend = presumed_friend(hand)
    called = None if hand.friend_resolved else hand.friend_call[0]

    def dealer_side(s: int) -> bool:
        return s == dealer or s == friend

    mine = dealer_side(seat)
    my_hand = hand.hands[seat]
    opts = hand.play_options(seat)
    if not hand.current:
        if called is not None and seat == friend and called in my_hand:
            return Play(seat, (called,))
        others = [s for s in range(n_seats) if s != seat and dealer_side(s) != mine]
        best, best_key = None, None
        for unit in opts.units():
            u_sx = sx[unit[0]]
            top = max(ctx.VAL[c] for c in unit)
            safe = True
            for s in others:
                oh = hand._suit_ix[s][u_sx]
                if oh:
                    if len(unit) == 1:
                        if any(ctx.VAL[c] > top for c in oh):
                            safe = False
                            break
                    else:
                        cnt: dict[int, int] = {}
                        for c in oh:
                            if ctx.VAL[c] > top:
                                cnt[c] = cnt.get(c, 0) + 1
                        if any(k >= 2 for k in cnt.values()):
                            safe = False
                            break
                elif u_sx != TRUMP_INDEX and hand._suit_ix[s][TRUMP_INDEX]:
                    safe = False
                    break
            if not safe:
                continue
            if seat == dealer and called is not None and called in unit:
                continue
            key = (len(unit), sum(POINTS[c] for c in unit), -sum(_value(c, ctx) for c in unit))
            if best_key is None or key > best_key:
                best, best_key = unit, key
        if best is None:
            counts = Counter(sx[c] for c in my_hand)
            best = min(((c,) for c in my_hand), key=lambda p: (
                sx[p[0]] == TRUMP_INDEX, -counts[sx[p[0]]], POINTS[p[0]], _value(p[0], ctx),
                seat == dealer and p[0] == called))
        return Play(seat, tuple(best))
    plays = [p for _, p in hand.current]
    seats = [s for s, _ in hand.current]
    if len(plays[0]) == 1:  # a single led: the follows are single cards, compared directly
        return _follow_single(hand, seat, plays, seats, dealer_side, mine, called, friend)
    cands = list(islice(opts, MAX_FOLLOW_CANDIDATES))
    cur = trick_winner(plays, ctx)
    partner_wins = dealer_side(seats[cur]) == mine
    if called is not None:
        if seat == friend:
            with_called = [p for p in cands if called in p]
            if with_called:
                good = [p for p in with_called if partner_wins and seats[cur] == dealer
                        or trick_winner(plays + [p], ctx) == len(plays)]
                if good:
                    return Play(seat, tuple(min(good, key=lambda p: sum(_value(c, ctx) for c in p))))
        elif seat == dealer and len(cands) > 1:
            cands = [p for p in cands if called not in p] or cands
    last = len(plays) == n_seats - 1
    table = sum(POINTS[c] for p in plays for c in p)

    def cost(p: Sequence[int]) -> tuple:
        return (sum(POINTS[c] for c in p), sum(_value(c, ctx) for c in p))

    if partner_wins:
        if last:
            choice = max(cands, key=lambda p: sum(POINTS[c] for c in p) - sum(_value(c, ctx) for c in p) * 0.2)
        else:
            choice = min(cands, key=cost)
        return Play(seat, tuple(choice))
    winners = [p for p in cands if trick_winner(plays + [p], ctx) == len(plays)]
    if winners and (table > 0 or last or not any(dealer_side(s) == mine for s in seats)):
        return Play(seat, tuple(min(winners, key=lambda p: sum(_value(c, ctx) for c in p))))
    return Play(seat, tuple(min(cands, key=cost)))


def _follow_single(hand: ZpyHand, seat: int, plays: list, seats: list, dealer_side: Callable[[int], bool],
                   mine: bool, called: int | None, friend: int | None) -> Play:
    """:func:`rollout_action`'s follow to a single lead, without the general generator: the
    same policy on single cards (a card beats the winning one when it is higher in the same
    effective suit, or a trump on a side card; equal cards: the first played wins)."""
    ctx = hand._ctx
    sx, val = ctx.SUITX, ctx.VAL
    lsx = sx[plays[0][0]]
    pool = hand._suit_ix[seat][lsx] or hand.hands[seat]
    cands = sorted(set(pool))
    w = 0
    for i in range(1, len(plays)):
        c, b = plays[i][0], plays[w][0]
        if (sx[c] == sx[b] and val[c] > val[b]) or (sx[c] == TRUMP_INDEX and sx[b] != TRUMP_INDEX):
            w = i
    best = plays[w][0]
    bsx, bval = sx[best], val[best]

    def wins(c: int) -> bool:
        return (sx[c] == bsx and val[c] > bval) or (sx[c] == TRUMP_INDEX and bsx != TRUMP_INDEX)

    partner_wins = dealer_side(seats[w]) == mine
    if called is not None:
        if seat == friend and called in cands and ((partner_wins and seats[w] == hand.dealer) or wins(called)):
            return Play(seat, (called,))
        if seat == hand.dealer and len(cands) > 1 and called in cands:
            cands.remove(called)
    last = len(plays) == hand.ruleset.players - 1
    table = sum(POINTS[p[0]] for p in plays)

    def spend(c: int) -> int:
        return val[c] + (30 if sx[c] == TRUMP_INDEX else 0)

    if partner_wins:
        if last:
            choice = max(cands, key=lambda c: POINTS[c] - spend(c) * 0.2)
        else:
            choice = min(cands, key=lambda c: (POINTS[c], spend(c)))
        return Play(seat, (Card(choice),))
    winners = [c for c in cands if wins(c)]
    if winners and (table > 0 or last or not any(dealer_side(s) == mine for s in seats)):
        return Play(seat, (Card(min(winners, key=spend)),))
    return Play(seat, (Card(min(cands, key=lambda c: (POINTS[c], spend(c)))),))


def play_out(hand: ZpyHand, rng: random.Random, bury: Callable[[ZpyHand], Any] | None = None,
             max_actions: int = 1000) -> None:
    """Finish ``hand`` (BURY, COUNTER or PLAY) with :func:`rollout_action` for every seat."""
    for _ in range(max_actions):
        if hand.phase is ZPhase.SETTLE:
            return
        hand.apply(rollout_action(hand, rng, bury))
    raise RuntimeError("play-out did not finish")  # pragma: no cover


def utility(hand: ZpyHand, seat: int) -> float:
    """How good a settled ``hand`` is for ``seat``: the levels its final side gained (negative:
    the levels the other side gained), plus :data:`LEVEL_WEIGHT_SMOOTH` per ``step`` of
    catchers' points past the threshold, signed for the seat's side (RULES.md "找朋友" §8-§10)."""
    st = hand.settlement
    opts = hand.ruleset.options
    on_dealer_side = seat in st.dealer_side
    won = (st.winner == "dealer") == on_dealer_side
    g = max(st.gains)
    margin = (st.catcher_points - opts.threshold + 2.5) / opts.step
    if on_dealer_side:
        margin = -margin
    return (g if won else -g) + LEVEL_WEIGHT_SMOOTH * margin


__all__ = ["shown_cards", "voids", "sample_hidden", "hand_from_view", "clone", "sample_world",
           "presumed_friend", "rollout_action", "play_out", "utility", "CallFriend"]
