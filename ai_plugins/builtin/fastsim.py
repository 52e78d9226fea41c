"""A lean play-out for the ``expert`` AI's search (红五, RULES.md §7–§10).

:func:`.simulate.play_out` drives an :class:`engine.state.Game` through ``Game.apply`` with a
policy that enumerates the engine's legal plays: exact, but several milliseconds per play-out
from early in a hand. This module plays the rest of a hand out on plain lists of card ids,
which is about ten times cheaper, so the search sees many more sampled worlds per decision.

What it simplifies (it is an evaluation, never a source of real moves):

- it starts at a trick boundary or inside a trick it could have led itself (the search
  finishes any other trick in progress with the engine);
- the policy leads only *groups*: a single, a pair or (three decks) a triple of identical
  cards — never a throw, and a tractor only with the ``tractors`` switch (below); the
  followers then obey the suit and structure rules of RULES.md §8 for such a lead (a pair must
  be answered by a pair of the suit when there is one; a triple by a triple, else by a pair and
  a card), and a follow beats the winner only with the same group shape in the lead suit or in
  trumps (§9);
- every seat sees every hand (perfect-information play-outs, like :mod:`.simulate`), unless
  the position is switched to the public-information policy (:func:`public_lean`, the
  ``expert`` option ``public``; off by default: no gain measured, docs/EXPERT_NOTES.md "Where the
  search's error comes from").

The policy (:func:`play_out_fast`): lead a group nobody on the other side can beat (most cards
and points first; the dealer draws trumps with its top trumps this way); a defender with no such
group leads a low card of a suit in which a partner beats the dealer; a dealer holding at least
half as many trumps as the defenders together leads a low trump; otherwise the weakest single
of the longest side suit. Follow: feed points to a partner whose win is safe, take the
trick with the cheapest play the later opponents cannot beat, else play the cheapest cards; a
red five is never thrown into a trick the other side may take. The result is settled by the
engine (:func:`engine.scoring.settle`), so the kitty and red-five rules are the engine's.

The ``tractors`` switch (argument of :func:`play_out_fast`, :func:`lean_settle` and
:func:`fast_settle`; default :data:`TRACTORS`, off; the ``expert`` option ``tractors``) is an
experiment: screened over the first 100 deals of seed 2027 at 100 ms against ``basic`` it was
not stronger than the default (paired −0.18 ± 0.39 game points a hand with two decks, −0.01 ±
0.36 with three; README "Arena results"), with the calibration fitted without it. When on:

- a leader may also lead a whole run of two or more pairs or triples of one suit (a tractor,
  RULES.md §6) that nobody on the other side can beat — no opponent holds a higher tractor of
  that shape in the suit, nor, void in a side suit, a trump one; such a tractor comes before
  any safe group, by the same key (more cards, more points, then the cheaper top);
- a tractor lead is answered by RULES.md §8: a tractor of the same shape when the follower
  holds one (a window of a longer run will do), else as many triples then pairs of the suit as
  it holds up to the tractor's length, then other cards of the suit; short in the suit, all of
  it and fillers (void in a side suit, the cheapest trump tractor that wins safely, if any).
  The choices follow the group policy: feed points to a partner whose win is safe, else win
  with the cheapest safe tractor, else play the cheapest cards;
- every trick goes to the seat the engine would give it (RULES.md §9). The group policy's
  shortcut without the switch (a follow that beats the winner without being played to win
  is not counted as winning) is gone, so group tricks can end differently too;
- a trick in progress led by a tractor can be handed over (:func:`lean_lead`), which the
  ``expert`` search then does instead of finishing that trick with the engine.

With the switch on, the search's calibrated utility uses a fit of its own
(``data/playout_calibration_tractors.json``, ``tools/fit_playout_calibration.py --tractors``);
screened again with it, still no gain (README "Arena results").
"""
from __future__ import annotations

import json
import math
from functools import lru_cache
from importlib import resources
from typing import Any, Sequence

from engine.cards import POINTS
from engine.order import TRUMP_INDEX, TrumpContext
from engine.scoring import band_multiplier, settle

from .knowledge import RED_FIVE_ID

_TRUMP = TRUMP_INDEX

TRACTORS = False
"""Default of the ``tractors`` switch of :func:`play_out_fast` (and of the ``expert`` option
``tractors``): when on, the policy also leads tractors nobody on the other side can beat and
the followers answer tractor leads by RULES.md §8; off, only groups are led. Experimental:
screened in the arena, not stronger (docs/EXPERT_NOTES.md "Tried: play-outs that lead
tractors"); each setting has its own play-out calibration (:func:`load_calibration`)."""


class Lean:
    """A play-phase position on plain lists, at a trick boundary (see the module docstring).

    ``suits[s][x]``: seat ``s``'s cards of effective suit ``x`` (0..3 side, 4 trump), card ids
    sorted weakest first (``(VAL, id)``); ``leader``: the seat to lead; ``points``: card points
    won in tricks per seat; ``red_fives``: ``(from_seat, to_seat)`` per red five captured so
    far (as the engine keeps them); ``last``: the winner of the latest trick (or None).
    """

    __slots__ = ("suits", "leader", "points", "red_fives", "last", "n", "dealer", "ctx", "voids")

    def __init__(self, hands: Sequence[Sequence[int]], ctx: TrumpContext, leader: int,
                 dealer: int, points: Sequence[int], red_fives: Sequence[tuple[int, int]]) -> None:
        sx, val = ctx.SUITX, ctx.VAL
        self.ctx = ctx
        self.n = len(hands)
        self.dealer = dealer
        self.leader = leader
        self.points = list(points)
        self.red_fives = list(red_fives)
        self.last = None
        self.voids = None
        """None: every seat sees every hand. Else the public-information policy (see
        :func:`public_lean`): per seat, a bit mask of the effective suits (bit ``x``) in which
        it has shown a void, kept up to date as the play-out goes."""
        suits = []
        for hand in hands:
            per: list[list[int]] = [[], [], [], [], []]
            for c in sorted(hand, key=lambda c: (val[c], c)):
                per[sx[c]].append(int(c))
            suits.append(per)
        self.suits = suits


def copy_lean(lean: Lean) -> Lean:
    """An independent copy of ``lean`` (for trying several plays on one sampled world)."""
    out = Lean.__new__(Lean)
    out.ctx, out.n, out.dealer, out.leader, out.last = lean.ctx, lean.n, lean.dealer, lean.leader, lean.last
    out.voids = None if lean.voids is None else list(lean.voids)
    out.points = list(lean.points)
    out.red_fives = list(lean.red_fives)
    out.suits = [[list(x) for x in per] for per in lean.suits]
    return out


def lean_settle(game: Any, lean: Lean, current: Sequence[tuple[int, Sequence[int]]],
                tractors: bool = TRACTORS) -> Any:
    """Finish ``lean`` (a copy of ``game``'s position, the cards of ``current`` already out of
    the hands) with :func:`play_out_fast` (switch ``tractors``) and settle it with the
    engine's rules for ``game`` (its ruleset, dealer, bid, buried cards and failed throws)."""
    points, red_fives, last = play_out_fast(lean, current, tractors)
    return settle(game.ruleset, game.dealer, game.bid, points, game.buried, last, red_fives,
                  game.failed_throws)


def lean_from_game(game: Any) -> Lean:
    """The :class:`Lean` of an engine ``Game`` in the play phase at a trick boundary."""
    return Lean(game.hands, game.ctx, game.leader, game.dealer, game.points_won, game.red_fives)


def shown_voids(tricks: Sequence[Sequence[tuple[int, Sequence[int]]]], ctx: TrumpContext,
                players: int) -> list[int]:
    """Per seat, a bit mask of the effective suits (bit ``x``: 0..3 side, 4 trump) in which it
    has shown a void: in some trick of ``tricks`` (each the ``(seat, cards)`` plays from its
    leader on) it played a card of another suit to a lead of that suit (RULES.md §8: a seat
    must follow suit while it can). Public facts, the same from every seat's view."""
    sx = ctx.SUITX
    voids = [0] * players
    for plays in tricks:
        if not plays:
            continue
        lsx = sx[int(plays[0][1][0])]
        for s, cards in plays[1:]:
            if any(sx[int(c)] != lsx for c in cards):
                voids[s] |= 1 << lsx
    return voids


def game_voids(game: Any) -> list[int]:
    """:func:`shown_voids` of an engine ``Game``'s finished tricks and the trick in progress."""
    tricks = [t.plays for t in game.tricks] + ([list(game.current)] if game.current else [])
    return shown_voids(tricks, game.ctx, game.ruleset.players)


def public_lean(lean: Lean, voids: Sequence[int]) -> Lean:
    """``lean`` switched to the public-information policy (returned, changed in place): each
    seat still plays its own cards, but judges whether a lead or a winning follow is safe as
    a player at the table would, not seeing the others' hands — a higher card or group held by
    any other seat still to play counts as a threat (it cannot tell a partner's from an
    opponent's), and a ruff is feared only from an opponent that has shown a void in the suit
    (``voids``, :func:`shown_voids`; the play-out adds the voids it shows). A defender's lead
    to a partner goes to a suit that partner has shown void (and the dealer has not). The
    ``expert`` option ``public``."""
    lean.voids = list(voids)
    return lean


def _groups(cards: Sequence[int], g: int) -> list[int]:
    """Ids holding at least ``g`` copies in ``cards`` (sorted weakest first), weakest first."""
    out = []
    i, n = 0, len(cards)
    while i < n:
        c = cards[i]
        j = i + 1
        while j < n and cards[j] == c:
            j += 1
        if j - i >= g:
            out.append(c)
        i = j
    return out


def _beats(suits: list[list[int]], lsx: int, g: int, wsx: int, wval: int, val: Sequence[int],
           k: int = 1, seq: Sequence[int] = ()) -> bool:
    """Whether a hand (``suits``, per effective suit) can beat a winning group of ``g`` cards
    (with ``k`` > 1: a tractor of ``k`` such groups, ``seq`` the natural-sequence positions)
    of effective suit ``wsx`` and strength (top) ``wval`` in a trick led in ``lsx``: the same
    shape higher in the led suit, or in trumps when void in it (RULES.md §8–§9)."""
    mine = suits[lsx]
    if mine:
        if wsx != lsx or len(mine) < g * k:
            return False
        if k > 1:
            return _best_top(mine, g, k, seq, val) > wval
        if g == 1:
            return val[mine[-1]] > wval
        return any(val[c] > wval for c in _groups(mine, g))
    if lsx == _TRUMP:
        return False
    trumps = suits[_TRUMP]
    if len(trumps) < g * k:
        return False
    floor = wval if wsx == _TRUMP else -1
    if k > 1:
        return _best_top(trumps, g, k, seq, val) > floor
    if g == 1:
        return val[trumps[-1]] > floor
    return any(val[c] > floor for c in _groups(trumps, g))


def _top_group(cards: Sequence[int], g: int, val: Sequence[int]) -> int:
    """The strongest ``VAL`` of a group of ``g`` identical cards in ``cards`` (sorted weakest
    first), or -1 when there is none."""
    if g == 1:
        return val[cards[-1]] if cards else -1
    i = len(cards) - 1
    while i >= g - 1:
        c = cards[i]
        j = i - 1
        while j >= 0 and cards[j] == c:
            j -= 1
        if i - j >= g:
            return val[c]
        i = j
    return -1


def _bar(suits: Sequence[list[list[int]]], opps: Sequence[int], x: int, g: int, val: Sequence[int],
         k: int = 1, seq: Sequence[int] = ()) -> int:
    """The ``VAL`` a group of ``g`` cards (with ``k`` > 1: the top of a tractor of ``k`` such
    groups, ``seq`` the natural-sequence positions) led in effective suit ``x`` needs so that
    none of ``opps`` can beat it (a tie stands: the first played wins); 999 when one of them
    ruffs."""
    bar = -1
    for o in opps:
        cards = suits[o][x]
        if cards:
            if len(cards) >= g * k:
                t = _top_group(cards, g, val) if k == 1 else _best_top(cards, g, k, seq, val)
                if t >= 0 and t + 1 > bar:
                    bar = t + 1
        elif x != _TRUMP:
            trumps = suits[o][_TRUMP]
            if (_top_group(trumps, g, val) if k == 1 else _best_top(trumps, g, k, seq, val)) >= 0:
                return 999
    return bar


def _public_bar(suits: Sequence[list[list[int]]], others: Sequence[int], opps: Sequence[int],
                voids: Sequence[int], x: int, g: int, val: Sequence[int]) -> int:
    """:func:`_bar` as a player sees it (:func:`public_lean`): the ``VAL`` a group of ``g``
    cards led in effective suit ``x`` needs so that no higher group of ``x`` is left with
    ``others`` (every other seat), 999 when one of ``opps`` has shown a void in ``x`` (a side
    suit) and holds trumps to ruff."""
    bar = -1
    for o in others:
        cards = suits[o][x]
        if len(cards) >= g:
            t = _top_group(cards, g, val)
            if t >= 0 and t + 1 > bar:
                bar = t + 1
    if x != _TRUMP:
        for o in opps:
            if voids[o] >> x & 1 and not suits[o][x] and len(suits[o][_TRUMP]) >= g:
                return 999
    return bar


def _cost(c: int, sx: Sequence[int], val: Sequence[int]) -> int:
    """Strength spent by playing ``c`` (trumps above side cards; a red five dearest)."""
    return val[c] + (30 if sx[c] == _TRUMP else 0) + (60 if c == RED_FIVE_ID else 0)


def _lead(lean: Lean, seat: int, tractors: bool = False) -> tuple[list[int], int, int, int]:
    """The policy's lead for ``seat``: ``(cards, effective suit, group size, length)`` (length
    1 for a group; with ``tractors``, a safe tractor may be led, see :func:`_tractor_lead`)."""
    ctx = lean.ctx
    sx, val = ctx.SUITX, ctx.VAL
    suits = lean.suits
    mine = suits[seat]
    dealer = lean.dealer
    me_dealer = seat == dealer
    n = lean.n
    opps = [s for s in range(n) if (s == dealer) != me_dealer]
    voids = lean.voids
    others = [s for s in range(n) if s != seat] if voids is not None else opps
    total = sum(len(x) for x in mine)
    bars: dict[tuple[int, int], int] = {}
    best = None
    best_key = None
    for x in range(5):
        cards = mine[x]
        if not cards:
            continue
        i, m = 0, len(cards)
        while i < m:
            c = cards[i]
            j = i + 1
            while j < m and cards[j] == c:
                j += 1
            k = j - i
            i = j
            if c == RED_FIVE_ID and total > 3:
                continue
            for g in ((k, 1) if k > 1 else (1,)):
                v = val[c]
                b = bars.get((x, g))
                if b is None:
                    b = bars[(x, g)] = (_bar(suits, opps, x, g, val) if voids is None
                                        else _public_bar(suits, others, opps, voids, x, g, val))
                if v < b:
                    continue
                key = (g, POINTS[c] * g, -v - (30 if x == _TRUMP else 0))
                if best_key is None or key > best_key:
                    best, best_key = (c, x, g), key
    if tractors:
        pick = _tractor_lead(lean, mine, opps, best_key)
        if pick is not None:
            return pick
    if best is not None:
        c, x, g = best
        return [c] * g, x, g, 1
    if not me_dealer:  # lead low into a suit where a partner beats the dealer
        dh = suits[dealer]
        partners = [s for s in range(n) if s != seat and s != dealer]

        def to_partner(x: int) -> bool:
            if voids is not None:  # public: a partner's shown void the dealer has not shown
                return not voids[dealer] >> x & 1 and any(voids[p] >> x & 1 and suits[p][_TRUMP]
                                                          for p in partners)
            if dh[x]:
                top = val[dh[x][-1]]
                return any(suits[p][x] and val[suits[p][x][-1]] > top for p in partners)
            # the dealer void: only when it has no trumps either (an over-ruff is too deep)
            return not dh[_TRUMP] and any(suits[p][x] for p in partners)

        pick = None
        for x in range(4):
            cards = mine[x]
            if cards and to_partner(x):
                low = min(cards, key=lambda c: (POINTS[c], val[c]))
                key = (POINTS[low], val[low])
                if pick is None or key < pick[0]:
                    pick = (key, low, x)
        if pick is not None:
            return [pick[1]], pick[2], 1, 1
    elif mine[_TRUMP] and len(mine[_TRUMP]) * 2 >= sum(len(suits[o][_TRUMP]) for o in opps) > 0:
        low = [c for c in mine[_TRUMP] if c != RED_FIVE_ID and not POINTS[c]] or mine[_TRUMP]
        return [low[0]], _TRUMP, 1, 1  # the dealer draws trumps with a low one
    # the weakest single of the longest side suit (trumps last)
    choice, ckey = None, None
    for x in range(5):
        cards = mine[x]
        if not cards:
            continue
        for c in cards[:3]:
            key = (x == _TRUMP, -len(cards), POINTS[c], val[c], c == RED_FIVE_ID)
            if ckey is None or key < ckey:
                choice, ckey = c, key
    return [choice], sx[choice], 1, 1


def _pick_cards(pool: Sequence[int], k: int, feed: bool, sx: Sequence[int], val: Sequence[int]) -> list[int]:
    """``k`` cards of ``pool``: the richest in points when ``feed`` (cheap ones among equals),
    else the cheapest with the fewest points."""
    if feed:
        def key(c: int) -> tuple[int, int]:
            return (-POINTS[c], val[c] + (30 if sx[c] == _TRUMP else 0) + (60 if c == RED_FIVE_ID else 0))
    else:
        def key(c: int) -> tuple[int, int]:
            return (POINTS[c], val[c] + (30 if sx[c] == _TRUMP else 0) + (60 if c == RED_FIVE_ID else 0))
    if k == 1:
        return [min(pool, key=key)] if pool else []
    return sorted(pool, key=key)[:k]


def _follow(lean: Lean, seat: int, lsx: int, g: int, wseat: int, wsx: int, wval: int,
            later: Sequence[int], table: int) -> tuple[list[int], bool]:
    """The policy's follow: ``(cards, beats the current winner)``."""
    ctx = lean.ctx
    sx, val = ctx.SUITX, ctx.VAL
    suits = lean.suits
    mine = suits[seat]
    dealer = lean.dealer
    me_dealer = seat == dealer
    partner_wins = (wseat == dealer) == me_dealer
    later_opps = [s for s in later if (s == dealer) != me_dealer]
    suit = mine[lsx]
    ns = len(suit)
    voids = lean.voids

    if voids is None:
        def safe(x: int, v: int) -> bool:
            return not any(_beats(suits[o], lsx, g, x, v, val) for o in later_opps)
    else:  # as a player sees it (public_lean)
        def safe(x: int, v: int) -> bool:
            if x == lsx:  # a higher group of the suit with any seat still to play
                for o in later:
                    cards = suits[o][lsx]
                    if len(cards) >= g and _top_group(cards, g, val) > v:
                        return False
            elif x == _TRUMP and lsx != _TRUMP:  # ruffed: an over-ruff by a shown void
                for o in later:
                    if voids[o] >> lsx & 1 and not suits[o][lsx] and _top_group(suits[o][_TRUMP], g, val) > v:
                        return False
            if lsx != _TRUMP:
                for o in later_opps:  # a ruff from an opponent that has shown a void
                    if (voids[o] >> lsx & 1 and not suits[o][lsx]
                            and _top_group(suits[o][_TRUMP], g, val) > (v if x == _TRUMP else -1)):
                        return False
            return True

    if ns < g:  # forced: all of the suit, fillers from the rest (never wins)
        if ns == 0 and lsx != _TRUMP:
            trumps = mine[_TRUMP]
            if len(trumps) >= g and not (partner_wins and safe(wsx, wval)):
                floor = wval if wsx == _TRUMP else -1
                wins = [c for c in (_groups(trumps, g) if g > 1 else trumps) if val[c] > floor]
                for c in wins:  # the cheapest ruff the later opponents cannot beat
                    if safe(_TRUMP, val[c]) and (c != RED_FIVE_ID or len(wins) == 1):
                        return [c] * g, True
        rest = [c for x in range(5) if x != lsx for c in mine[x]]
        feed = partner_wins and safe(wsx, wval)
        fill = _pick_cards([c for c in rest if c != RED_FIVE_ID] or rest, g - ns, feed, sx, val)
        if len(fill) < g - ns:
            fill = _pick_cards(rest, g - ns, feed, sx, val)
        return list(suit) + fill, False
    # enough cards of the suit: the structure rule picks the shape
    if g == 1:
        if partner_wins and safe(wsx, wval):
            pool = [c for c in suit if c != RED_FIVE_ID] or suit
            return _pick_cards(pool, 1, True, sx, val), False
        if wsx == lsx:
            for c in suit:
                if val[c] > wval and safe(lsx, val[c]) and not (c == RED_FIVE_ID and len(suit) > 1 and table == 0):
                    return [c], True
        pool = [c for c in suit if c != RED_FIVE_ID] or suit
        return _pick_cards(pool, 1, False, sx, val), False
    groups = _groups(suit, g)
    if groups:  # must play one of them
        if not (partner_wins and safe(wsx, wval)) and wsx == lsx:
            for c in groups:
                if val[c] > wval and safe(lsx, val[c]):
                    return [c] * g, True
        if partner_wins and safe(wsx, wval):
            c = max(groups, key=lambda c: (POINTS[c], -_cost(c, sx, val)))
        else:
            c = min(groups, key=lambda c: (POINTS[c], _cost(c, sx, val)))
        return [c] * g, False
    feed = partner_wins and safe(wsx, wval)
    if g == 3:
        pairs = _groups(suit, 2)
        if pairs:
            p = (max if feed else min)(pairs, key=lambda c: (POINTS[c], -_cost(c, sx, val) if feed else _cost(c, sx, val)))
            rest = list(suit)
            rest.remove(p)
            rest.remove(p)
            return [p, p] + _pick_cards(rest, 1, feed, sx, val), False
    return _pick_cards(suit, g, feed, sx, val), False


# -- tractors (behind the ``tractors`` switch, see :data:`TRACTORS`) ----------------------------
def _runs(cards: Sequence[int], g: int, seq: Sequence[int]) -> list[list[int]]:
    """Maximal runs of distinct ids holding at least ``g`` copies in ``cards`` (one effective
    suit, sorted weakest first) at consecutive natural-sequence positions (``SEQ``; cards with
    ``SEQ`` -1 never join one; RULES.md §6), each ascending; runs of one card included. For
    红五 contexts, where each sequence position holds one id (not 找朋友's tied ranks)."""
    out: list[list[int]] = []
    cur: list[int] | None = None
    prev = -9
    for c in _groups(cards, g):
        s = seq[c]
        if s < 0:
            continue
        if cur is not None and s == prev + 1:
            cur.append(c)
        else:
            cur = [c]
            out.append(cur)
        prev = s
    return out


def _windows(cards: Sequence[int], g: int, k: int, seq: Sequence[int]) -> list[list[int]]:
    """Every tractor of ``k`` groups of ``g`` in ``cards`` (sorted weakest first) as its ``k``
    ids ascending (any window of a longer run), weakest top first."""
    return [run[i:i + k] for run in _runs(cards, g, seq) if len(run) >= k
            for i in range(len(run) - k + 1)]


def _best_top(cards: Sequence[int], g: int, k: int, seq: Sequence[int], val: Sequence[int]) -> int:
    """The strongest top ``VAL`` of a tractor of ``k`` groups of ``g`` in ``cards`` (sorted
    weakest first; a longer run holds one), or -1 when there is none."""
    top = -1
    for run in _runs(cards, g, seq):
        if len(run) >= k and val[run[-1]] > top:
            top = val[run[-1]]
    return top


def _tractor_shape(cards: Sequence[int], sx: Sequence[int], seq: Sequence[int]) -> tuple[int, int] | None:
    """``(group size, length)`` when ``cards`` are one tractor (2 or more pairs or triples of
    one effective suit at consecutive ``SEQ`` positions, RULES.md §6), else None."""
    counts: dict[int, int] = {}
    for c in cards:
        counts[c] = counts.get(c, 0) + 1
    k = len(counts)
    if k < 2:
        return None
    g = counts[cards[0]]
    if g not in (2, 3) or any(m != g for m in counts.values()):
        return None
    x = sx[cards[0]]
    if any(sx[c] != x for c in counts):
        return None
    pos = sorted(seq[c] for c in counts)
    if pos[0] < 0 or pos[-1] - pos[0] != k - 1 or len(set(pos)) != k:
        return None
    return g, k


def _overtakes(cards: Sequence[int], g: int, k: int, wsx: int, wval: int, sx: Sequence[int],
               seq: Sequence[int], val: Sequence[int]) -> int:
    """The top ``VAL`` of a follow ``cards`` when it beats the winner so far (effective suit
    ``wsx``, strength ``wval``) of a trick led by ``k`` groups of ``g`` (RULES.md §9: the same
    shape in the winner's suit and higher, or in trumps against a side-suit winner), else -1."""
    c0 = cards[0]
    x = sx[c0]
    if x != wsx and not (x == _TRUMP and wsx != _TRUMP):
        return -1
    if k == 1:
        if any(c != c0 for c in cards):
            return -1
        v = val[c0]
    else:
        if _tractor_shape(cards, sx, seq) != (g, k):
            return -1
        v = max(val[c] for c in cards)
    return v if (x != wsx or v > wval) else -1


def _tractor_lead(lean: Lean, mine: list[list[int]], opps: Sequence[int], best_key: Any
                  ) -> tuple[list[int], int, int, int] | None:
    """The safe tractor ``mine`` (the leader's cards per effective suit) may lead instead of
    the group of key ``best_key`` (None: no safe group): ``(cards, suit, group, length)`` of
    the whole run nobody of ``opps`` can beat with the best key (cards, points, then the
    cheapest top, as for groups), or None when none beats ``best_key``."""
    ctx = lean.ctx
    val, seq = ctx.VAL, ctx.SEQ
    suits = lean.suits
    best = None
    for x in range(5):
        cards = mine[x]
        for g in (2, 3):
            if len(cards) < 2 * g:
                break
            for run in _runs(cards, g, seq):
                k = len(run)
                if k < 2:
                    continue
                v = val[run[-1]]
                if v < _bar(suits, opps, x, g, val, k, seq):
                    continue
                key = (g * k, g * sum(POINTS[c] for c in run), -v - (30 if x == _TRUMP else 0))
                if best_key is None or key > best_key:
                    best, best_key = (run, x, g, k), key
    if best is None:
        return None
    run, x, g, k = best
    return [c for c in run for _ in range(g)], x, g, k


def _follow_tractor(lean: Lean, seat: int, lsx: int, g: int, k: int, wseat: int, wsx: int,
                    wval: int, later: Sequence[int]) -> list[int]:
    """The policy's follow to a tractor of ``k`` groups of ``g`` led in ``lsx`` (RULES.md §8):
    a tractor of that shape when held (the cheapest one that wins safely, else the richest when
    a partner's win is safe, else the cheapest); else as many triples (triple tractors) then
    pairs as held up to ``k``, then other cards of the suit; short in the suit, all of it and
    fillers (void in a side suit, the cheapest trump tractor that wins safely, if any)."""
    ctx = lean.ctx
    sx, val, seq = ctx.SUITX, ctx.VAL, ctx.SEQ
    suits = lean.suits
    mine = suits[seat]
    dealer = lean.dealer
    me_dealer = seat == dealer
    later_opps = [s for s in later if (s == dealer) != me_dealer]
    suit = mine[lsx]
    ns, n = len(suit), g * k

    def safe(x: int, v: int) -> bool:
        return not any(_beats(suits[o], lsx, g, x, v, val, k, seq) for o in later_opps)

    feed = (wseat == dealer) == me_dealer and safe(wsx, wval)
    if ns < n:  # forced: all of the suit, fillers from the rest
        if ns == 0 and lsx != _TRUMP and not feed:
            floor = wval if wsx == _TRUMP else -1
            for w in _windows(mine[_TRUMP], g, k, seq):
                v = val[w[-1]]
                if v > floor and safe(_TRUMP, v):
                    return [c for c in w for _ in range(g)]
        rest = [c for x in range(5) if x != lsx for c in mine[x]]
        fill = _pick_cards([c for c in rest if c != RED_FIVE_ID] or rest, n - ns, feed, sx, val)
        if len(fill) < n - ns:
            fill = _pick_cards(rest, n - ns, feed, sx, val)
        return list(suit) + fill
    wins = _windows(suit, g, k, seq)
    if wins:  # must play one of them
        if not feed and wsx == lsx:
            for w in wins:
                v = val[w[-1]]
                if v > wval and safe(lsx, v):
                    return [c for c in w for _ in range(g)]

        def wkey(w: list[int]) -> tuple[int, int]:
            return (sum(POINTS[c] for c in w), sum(_cost(c, sx, val) for c in w))
        if feed:
            w = max(wins, key=lambda w: (wkey(w)[0], -wkey(w)[1]))
        else:
            w = min(wins, key=wkey)
        return [c for c in w for _ in range(g)]

    def key(c: int) -> tuple[int, int]:
        return (-POINTS[c] if feed else POINTS[c], _cost(c, sx, val))
    rest = list(suit)
    out: list[int] = []
    need = k
    for size in ((3, 2) if g == 3 else (2,)):
        for c in sorted(_groups(rest, size), key=key)[:need]:
            for _ in range(size):
                rest.remove(c)
            out += [c] * size
            need -= 1
    pool = [c for c in rest if c != RED_FIVE_ID]
    if len(pool) < n - len(out):
        pool = rest
    return out + _pick_cards(pool, n - len(out), feed, sx, val)


def lean_lead(cards: Sequence[int], ctx: TrumpContext, tractors: bool = False) -> bool:
    """Whether the lean play-out can answer a lead of ``cards``: a :func:`group_lead`, or with
    ``tractors`` a tractor (RULES.md §6); never a throw."""
    return group_lead(cards) or (tractors and _tractor_shape(cards, ctx.SUITX, ctx.SEQ) is not None)


def group_lead(cards: Sequence[int]) -> bool:
    """Whether a lead is one the lean play-out can answer: 1 to 3 identical cards."""
    return 0 < len(cards) <= 3 and all(c == cards[0] for c in cards)


def play_out_fast(lean: Lean, current: Sequence[tuple[int, Sequence[int]]] = (),
                  tractors: bool = TRACTORS, trace: list | None = None
                  ) -> tuple[list[int], list[tuple[int, int]], int]:
    """Play ``lean`` to the end with the policy of the module docstring (mutates it).

    ``current``: the plays already made in the trick in progress, ``(seat, cards)`` from its
    leader on, whose lead must be a :func:`lean_lead` for ``tractors`` (those cards are already
    out of the hands; ``lean.leader`` is that trick's leader). ``tractors`` (default
    :data:`TRACTORS`): tractors may be led and are answered by RULES.md §8, and every trick's
    winner is the engine's (RULES.md §9). ``trace``, when a list, receives per trick
    ``(plays, winner)``: ``plays`` the ``(seat, cards)`` from the leader on. Returns
    ``(points per seat, red-five captures, winner of the last trick)``. Raises ValueError when
    the lead of ``current`` is neither a group nor (with ``tractors``) a tractor."""
    ctx = lean.ctx
    sx, val, seq = ctx.SUITX, ctx.VAL, ctx.SEQ
    suits = lean.suits
    n = lean.n
    dealer = lean.dealer
    points = lean.points
    red_fives = lean.red_fives
    leader = lean.leader
    last = lean.last
    pending = list(current)
    while pending or any(suits[leader]):
        if pending:
            plays = [(s, list(cs)) for s, cs in pending]
            pending = []
            cards = plays[0][1]
            lsx, g, k = sx[cards[0]], len(cards), 1
            if not group_lead(cards):
                shape = _tractor_shape(cards, sx, seq) if tractors else None
                if shape is None:
                    raise ValueError("the lean play-out answers only group leads"
                                     + (" and tractors" if tractors else ""))
                g, k = shape
            wseat, wsx, wval = leader, lsx, max(val[c] for c in cards)
            for s, cs in plays[1:]:
                if k == 1:
                    c0 = cs[0]
                    if all(c == c0 for c in cs) and (
                            (sx[c0] == _TRUMP and wsx != _TRUMP) or (sx[c0] == wsx and val[c0] > wval)):
                        wseat, wsx, wval = s, sx[c0], val[c0]
                else:
                    v = _overtakes(cs, g, k, wsx, wval, sx, seq, val)
                    if v >= 0:
                        wseat, wsx, wval = s, sx[cs[0]], v
            table = sum(POINTS[c] for _, cs in plays for c in cs)
            removed = len(plays)
        else:
            cards, lsx, g, k = _lead(lean, leader, tractors)
            plays = [(leader, cards)]
            wseat, wsx, wval = leader, lsx, val[cards[-1]]
            table = sum(POINTS[c] for c in cards)
            removed = 0
        order = [(leader + i) % n for i in range(len(plays), n)]
        for i, s in enumerate(order):
            if not tractors:
                cards_s, wins = _follow(lean, s, lsx, g, wseat, wsx, wval, order[i + 1:], table)
                if wins:
                    wseat, wsx, wval = s, sx[cards_s[0]], val[cards_s[0]]
            else:  # the winner as the engine judges it (RULES.md §9)
                if k == 1:
                    cards_s = _follow(lean, s, lsx, g, wseat, wsx, wval, order[i + 1:], table)[0]
                else:
                    cards_s = _follow_tractor(lean, s, lsx, g, k, wseat, wsx, wval, order[i + 1:])
                v = _overtakes(cards_s, g, k, wsx, wval, sx, seq, val)
                if v >= 0:
                    wseat, wsx, wval = s, sx[cards_s[0]], v
            table += sum(POINTS[c] for c in cards_s)
            plays.append((s, cards_s))
        if lean.voids is not None:
            for s, cs in plays[1:]:
                if any(sx[c] != lsx for c in cs):
                    lean.voids[s] |= 1 << lsx
        for j, (s, cs) in enumerate(plays):
            per = suits[s]
            for c in cs:
                if j >= removed:
                    per[sx[c]].remove(c)
                if c == RED_FIVE_ID and (s == dealer) != (wseat == dealer):
                    red_fives.append((s, wseat))
        points[wseat] += table
        if trace is not None:
            trace.append(([(s, tuple(cs)) for s, cs in plays], wseat))
        leader = last = wseat
    lean.leader, lean.last = leader, last
    return points, red_fives, last


def fast_settle(game: Any, tractors: bool = TRACTORS, public: bool = False) -> Any:
    """The :class:`engine.scoring.Settlement` of ``game`` (an engine ``Game`` in the play
    phase at a trick boundary or inside a trick led by a :func:`lean_lead` for ``tractors``,
    or already settled) once :func:`play_out_fast` (switch ``tractors``) has finished it
    (``game`` itself is not changed); with ``public`` the play-out is the public-information
    one of :func:`public_lean`, from the voids ``game``'s tricks have shown."""
    st = game.settlement
    if st is None:
        lean = lean_from_game(game)
        if public:
            public_lean(lean, game_voids(game))
        points, red_fives, last = play_out_fast(lean, game.current, tractors)
        st = settle(game.ruleset, game.dealer, game.bid, points, game.buried, last, red_fives,
                    game.failed_throws)
    return st


def settled_utility(st: Any, seat: int) -> float:
    """:func:`.simulate.utility` of a settlement ``st`` for ``seat``: its game points plus a
    tenth of the dealer final, signed for its side."""
    side = 1 if seat == st.dealer else -1
    return st.game_points[seat] + 0.1 * side * st.dealer_final


SMOOTH_RANGE = 600
"""Dealer finals tabulated by :func:`smooth_band_table` run from ``-SMOOTH_RANGE`` to
``+SMOOTH_RANGE`` card points (beyond, the nearest end is used)."""

SMOOTH_SLOPE = 0.02
"""Game points per card point of the dealer final added to :func:`smooth_utility`, signed for
the seat's side: a tie-break where the smoothed bands are flat (far beyond the last band)."""


@lru_cache(maxsize=16)
def smooth_band_table(ruleset: Any, sigma: float) -> tuple[float, ...]:
    """Each defender's expected band gain in game points (``band_multiplier * base_score``,
    RULES.md §10) for every dealer final ``x`` in ``-SMOOTH_RANGE..SMOOTH_RANGE`` when the final
    is really ``x + e`` with ``e`` normal of spread ``sigma`` card points: the bands' steps made
    smooth, so that a play worth a few card points near a band edge is worth a part of a step.
    Index ``x + SMOOTH_RANGE``. ``sigma`` ≤ 0 gives the plain bands."""
    b = ruleset.options.base_score
    edges = list(ruleset.bands)
    mults = list(ruleset.band_multipliers)
    out = []
    for x in range(-SMOOTH_RANGE, SMOOTH_RANGE + 1):
        if sigma <= 0:
            out.append(float(band_multiplier(ruleset, x) * b))
            continue
        # P(final + e ≤ edge) for each edge; a final of exactly an edge is in the band below
        # (bands closed above), which the continuous spread ignores
        cdf = [0.5 * (1.0 + math.erf((e - x) / (sigma * math.sqrt(2.0)))) for e in edges]
        probs = [cdf[0]] + [cdf[i] - cdf[i - 1] for i in range(1, len(cdf))] + [1.0 - cdf[-1]]
        out.append(b * sum(p * m for p, m in zip(probs, mults)))
    return tuple(out)


def smooth_utility(st: Any, seat: int, ruleset: Any, sigma: float) -> float:
    """A smoother :func:`settled_utility` of settlement ``st`` for ``seat`` (game points): the
    red-five and other transfers as settled, the band gain replaced by its expectation under a
    spread of ``sigma`` card points around the dealer final (:func:`smooth_band_table`), plus
    :data:`SMOOTH_SLOPE` per card point of the final for the seat's side (RULES.md §10)."""
    return _band_utility(st, seat, ruleset, st.dealer_final, sigma)


def _band_utility(st: Any, seat: int, ruleset: Any, final: int, sigma: float) -> float:
    """``st``'s game points for ``seat`` with the band gain of its dealer final replaced by the
    smoothed band gain (:func:`smooth_band_table`, spread ``sigma``) at dealer final ``final``,
    plus :data:`SMOOTH_SLOPE` per card point of ``final`` for the seat's side (RULES.md §10)."""
    d_plain = band_multiplier(ruleset, st.dealer_final) * ruleset.options.base_score
    table = smooth_band_table(ruleset, sigma)
    d_smooth = table[max(0, min(len(table) - 1, final + SMOOTH_RANGE))]
    dealer = seat == st.dealer
    side = -(ruleset.players - 1) if dealer else 1
    return (st.game_points[seat] + side * (d_smooth - d_plain)
            + (SMOOTH_SLOPE if dealer else -SMOOTH_SLOPE) * final)


BUCKETS = 10
"""Bins of the share of cards still in the hands used by the play-out calibration
(``tools/fit_playout_calibration.py``; bin 0 holds the last cards of a hand)."""

CALIBRATION_FILE = "playout_calibration.json"
"""The fitted calibration, in ``ai_plugins/builtin/data/`` (package data)."""

CALIBRATION_FILE_TRACTORS = "playout_calibration_tractors.json"
"""The same fit for play-outs with the ``tractors`` switch on (``tools/fit_playout_calibration.py
--tractors``)."""

SIGMA_STEPS = 4
"""Spreads are rounded to this many card points (so few smoothed band tables are built)."""


@lru_cache(maxsize=2)
def load_calibration(tractors: bool = False) -> dict[int, tuple[tuple[float, float, float], ...]]:
    """``{decks: ((a, b, sd) per bin of the share of cards left, bin 0 last)}``: real future
    dealer card points ≈ ``a + b *`` the lean play-out's, with residual spread ``sd``
    (``ai_plugins/builtin/data/playout_calibration.json``, or with ``tractors`` the fit for
    play-outs that lead and answer tractors, :data:`CALIBRATION_FILE_TRACTORS`; both written by
    ``tools/fit_playout_calibration.py``)."""
    name = CALIBRATION_FILE_TRACTORS if tractors else CALIBRATION_FILE
    text = resources.files(__package__).joinpath("data", name).read_text(encoding="utf-8")
    data = json.loads(text)
    return {int(k): tuple(tuple(float(x) for x in row) for row in v)
            for k, v in data.items() if k.isdigit()}


def calibration_for(decks: int, share_left: float, tractors: bool = False) -> tuple[float, float, float]:
    """The ``(a, b, sd)`` of :func:`load_calibration` (switch ``tractors``) for ``decks`` and
    the share of cards still in the hands (0..1); ``(0, 1, 0)`` (no change) for a deck count
    not fitted."""
    table = load_calibration(tractors).get(decks)
    if not table:
        return (0.0, 1.0, 0.0)
    k = min(len(table) - 1, max(0, math.ceil(share_left * len(table)) - 1))
    return table[k]


def calibrated_utility(st: Any, seat: int, ruleset: Any, known: int, cal: tuple[float, float, float],
                       scale: float = 1.0) -> float:
    """Expected game points for ``seat`` of a lean play-out that ended in settlement ``st``,
    allowing for the play-out's error (RULES.md §10): the dealer's card points won after the
    decision (``st``'s dealer points minus ``known``, those it had already won) are mapped to
    real play's by ``cal = (a, b, sd)`` (:func:`calibration_for`) and the game-point bands are
    smoothed with a spread of ``sd * scale`` (:func:`smooth_band_table`, rounded to
    :data:`SIGMA_STEPS`); red-five and other transfers stay as settled."""
    a, b, sd = cal
    points = st.dealer_final + st.bid
    est = known + a + b * (points - known)
    final = int(round(est)) - st.bid
    sigma = SIGMA_STEPS * round(sd * scale / SIGMA_STEPS)
    return _band_utility(st, seat, ruleset, final, float(sigma))
