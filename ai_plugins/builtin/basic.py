"""The built-in ``basic`` AI: quick heuristics, and the fallback for every faulty plugin.

Decisions (each well under 5 ms on a laptop; ``benchmarks/ai_speed.py`` measures them):

- **bid** (RULES.md §2): rate the hand for each possible trump suit (:func:`hand_strength`:
  trump count and quality, trump pairs, side aces, short side suits), turn the best rating
  into an estimate of the card points the hand can take as dealer, and bid the cheapest legal
  amount below that estimate, or pass;
- **trump** (§3): the suit with the best rating (in practice the longest strong suit);
- **bury** (§4): keep every trump; empty the shortest side suits to make voids for ruffing;
  keep aces, pairs, point cards and red fives unless nothing else is left;
- **play** (§7–§9): score a few candidate plays by the expected card points for its side
  (the chance its side wins the trick, from card counting in :mod:`.knowledge`, times the
  points at stake), less the value of the cards spent, so that it wins points when it can do
  so cheaply, keeps trumps for ruffs, does not overtake a winning partner (the three defenders
  play together), feeds points to a partner who will win, dumps low cards otherwise, and never
  risks a red five in a trick the other side may take.

Legal plays and trick winners always come from the engine (:mod:`engine.tricks`).
"""
from __future__ import annotations

import random
from collections import Counter
from typing import Any, Iterable, Sequence

from engine.cards import POINTS, SUITS, Card
from engine.order import TRUMP_INDEX, TrumpContext, context
from engine.patterns import classify, counts_of, decompose_counts, suit_of_play
from engine.tricks import check_lead, play_key, takes_trick, trick_winner

from ..base import PASS, AISettings
from ..hookspecs import hookimpl
from . import zpy_basic
from .knowledge import RED_FIVE_ID, Knowledge, same_side


def _sides(view: Any):
    """``same(a, b)`` for this view: 红五's dealer-against-three, or 找朋友's sides as far as
    this seat knows them (:func:`.zpy_basic.side_fn`)."""
    if getattr(view.ruleset, "is_zhaopengyou", False):
        return zpy_basic.side_fn(view)
    dealer = view.dealer
    return lambda a, b: same_side(a, b, dealer)


def _red_five(view: Any) -> int:
    """The red five's card id where it is special (红五), else -1 (找朋友: just a 5)."""
    return -1 if getattr(view.ruleset, "is_zhaopengyou", False) else RED_FIVE_ID

VERSION = "1.0"

MAX_ENUMERATED_FOLLOWS = 400
"""Legal follows scored at most per decision (the generator is lazy; the rest are skipped)."""

RED_FIVE_RISK = 35.0
"""Card-point equivalent of losing a red five to the other side (20 points and a game-point
transfer, RULES.md §10)."""

FEED = 4.0
"""Card points per card a player is expected to add to a trick its side wins (feeding)."""

DUMP = 1.0
"""Card points per card a player is expected to add to a trick the other side wins."""

SPEND_WEIGHT = 0.3
"""Card points one unit of :func:`keep_value` is worth."""


# ---------------------------------------------------------------------------------------------
# hand evaluation (bidding, trump, bury)
# ---------------------------------------------------------------------------------------------
def _trump_weight(value: int) -> float:
    """Worth of one trump by its ``VAL`` (26 red five ... 20 副2, 14 trump ace ... 4)."""
    if value >= 20:
        return (3.2, 2.6, 2.3, 2.0, 1.8, 1.7, 1.5)[26 - value]
    return 0.7 + max(0, value - 9) * 0.12


def hand_strength(hand: Sequence[int], trump: str) -> float:
    """How well ``hand`` plays as dealer with trump ``trump`` (a unitless rating, ~10..45).

    Counts trumps by quality (:func:`_trump_weight`), trump pairs and tractors, side-suit aces
    and kings behind them, side pairs, and short side suits (ruffing chances).
    """
    ctx = context(trump)
    sx, val = ctx.SUITX, ctx.VAL
    counts = counts_of(hand)
    score = 0.0
    side_len = [0, 0, 0, 0]
    for c, k in counts.items():
        s = sx[c]
        if s == TRUMP_INDEX:
            score += _trump_weight(val[c]) * k
            if k >= 2:
                score += 1.0 + (0.6 if val[c] >= 20 else 0.0)
        else:
            side_len[s] += k
            if val[c] == 14:
                score += 1.2 * k
            elif val[c] == 13 and counts.get(c + 1, 0):
                score += 0.6 * k
            if k >= 2 and val[c] >= 10:
                score += 0.8
    for c in counts:  # trump tractors
        if sx[c] == TRUMP_INDEX and counts[c] >= 2 and 0 <= ctx.SEQ[c]:
            nxt = [d for d in counts if sx[d] == TRUMP_INDEX and counts[d] >= 2 and ctx.SEQ[d] == ctx.SEQ[c] + 1]
            if nxt:
                score += 1.5
    for s in range(4):
        if s == ctx.trump_index:
            continue
        if side_len[s] == 0:
            score += 1.5
        elif side_len[s] <= 2:
            score += 0.6
    return score


def best_trump(hand: Sequence[int]) -> tuple[str, float]:
    """``(suit, rating)`` of the best trump for ``hand`` (first in ♠ ♥ ♣ ♦ order on ties)."""
    best = max(SUITS, key=lambda s: (hand_strength(hand, s), -SUITS.index(s)))
    return best, hand_strength(hand, best)


def expected_points(strength: float, ruleset: Any) -> float:
    """Card points (kitty and red fives included) that a dealer whose best
    :func:`hand_strength` is ``strength`` takes on average with this AI's play.

    Linear fits on self-play (every seat ``basic``, dealers assigned at random, 400 deals with
    two decks, 200 with three; residual spread about 28 and 38 points).
    """
    if ruleset.decks == 3:
        return -33.9 + 3.37 * strength
    return 9.3 + 2.56 * strength


def keep_value(card: int, ctx: TrumpContext, counts: dict[int, int] | None = None) -> float:
    """How much keeping ``card`` is worth for later tricks (unitless, 0..~35): trumps most
    (higher ones more), side aces and kings next, low side cards nearly nothing; a card that
    is part of a pair is worth more."""
    v = ctx.VAL[card]
    if ctx.SUITX[card] == TRUMP_INDEX:
        base = 12.0 + (v - 4) * 0.6 if v <= 14 else 22.0 + (v - 20) * 2.0
    else:
        base = max(0.0, v - 9) * 2.0
    if counts is not None and counts.get(card, 0) >= 2:
        base += 3.0
    return base


# ---------------------------------------------------------------------------------------------
# the AI
# ---------------------------------------------------------------------------------------------
class BasicAI:
    """Heuristic AI; see the module docstring. ``settings.seed`` seeds tie-breaks.

    Option ``blunder`` (float 0..1, default 0; ``settings.options["blunder"]``): the chance
    that a play decision takes a random one of its candidate plays instead of the best, and
    that a bid is made without looking at the hand's strength. The ``easy`` difficulty uses it.
    """

    rulesets = ("hongwu", "zhaopengyou")
    """Plays both rulesets (找朋友's own decisions: :mod:`.zpy_basic`)."""

    def __init__(self, settings: AISettings | None = None) -> None:
        settings = settings or AISettings()
        self.rng = random.Random(settings.seed)
        try:
            self.blunder = min(1.0, max(0.0, float(settings.options.get("blunder", 0.0))))
        except (TypeError, ValueError):
            self.blunder = 0.0
        self.last_reasoning: tuple[dict, ...] | None = None

    def reasoning(self) -> tuple[dict, ...] | None:
        """The optional reasoning answer (PLUGINS.md "Reasoning"): after a play, its best
        ranked plays (at most three) as ``{"action": cards text, "value": heuristic card
        points for the side, "note": "pts"}``; None for other decisions."""
        return self.last_reasoning

    # -- bidding (RULES.md §2) ------------------------------------------------------------
    def choose_bid(self, view: Any, bids: Sequence[int]) -> int:
        """The cheapest legal bid not above the hand's expected points, or ``PASS``."""
        self.last_reasoning = None
        if not bids:
            return PASS
        if self.blunder and self.rng.random() < self.blunder:
            return self.rng.choice([bids[0], PASS])
        _, strength = best_trump(view.hand)
        target = expected_points(strength, view.ruleset)
        affordable = [b for b in bids if b <= target]
        return min(affordable) if affordable else PASS

    # -- trump (RULES.md §3) --------------------------------------------------------------
    def choose_trump(self, view: Any, suits: Sequence[str]) -> str:
        """The suit of ``suits`` with the best :func:`hand_strength`."""
        order = sorted(suits, key=lambda s: (-hand_strength(view.hand, s), SUITS.index(s)))
        self.last_reasoning = tuple({"action": s, "value": round(hand_strength(view.hand, s), 2),
                                     "note": "strength"} for s in order[:3])
        return max(suits, key=lambda s: (hand_strength(view.hand, s), -SUITS.index(s)))

    # -- 找朋友 (RULES.md "找朋友" §3-§5) -----------------------------------------------------
    def choose_declaration(self, view: Any, options: Sequence) -> tuple[Card, ...]:
        """Declare with a long trump, else pass (:func:`.zpy_basic.choose_declaration`)."""
        return zpy_basic.choose_declaration(view, options)

    def choose_counter(self, view: Any, options: Sequence) -> tuple[Card, ...]:
        """Counter to a clearly longer trump, else pass (:func:`.zpy_basic.choose_counter`)."""
        return zpy_basic.choose_counter(view, options)

    def choose_friend(self, view: Any, calls: Sequence) -> tuple[Card, int]:
        """Call an ace it lacks (:func:`.zpy_basic.choose_friend`)."""
        return zpy_basic.choose_friend(view, calls)

    # -- bury (RULES.md §4) ---------------------------------------------------------------
    def choose_bury(self, view: Any, count: int) -> list[Card]:
        """``count`` cards: whole short side suits first (voids), then the cheapest side
        cards; trumps, aces, pairs, point cards and red fives only when unavoidable."""
        self.last_reasoning = None
        ctx = view.ctx
        hand = list(view.hand)
        counts = counts_of(hand)
        sx, val = ctx.SUITX, ctx.VAL
        red_five = _red_five(view)
        pts_weight = 3.0 if red_five < 0 else 1.5  # 找朋友: a captured kitty counts 2m times

        suit_len = Counter(sx[c] for c in hand)

        def cost(c: int) -> float:
            pts = Card(c).points
            return (keep_value(c, ctx, counts) + pts * pts_weight + suit_len[sx[c]] * 0.5
                    + (100.0 if c == red_five else 0.0))

        side: dict[int, list[int]] = {}
        for c in hand:
            if sx[c] != TRUMP_INDEX:
                side.setdefault(sx[c], []).append(c)
        chosen: list[int] = []
        # empty whole suits, cheapest per card first, when they fit and hold nothing precious
        for s, cards in sorted(side.items(), key=lambda kv: (len(kv[1]), sum(map(cost, kv[1])))):
            if len(chosen) + len(cards) > count:
                continue
            if any(val[c] == 14 for c in cards) or sum(Card(c).points for c in cards) > 10:
                continue
            chosen.extend(cards)
        rest = Counter(hand) - Counter(chosen)
        pool = sorted(rest.elements(), key=lambda c: (cost(c), c))
        chosen.extend(pool[: count - len(chosen)])
        return [Card(c) for c in chosen[:count]]

    # -- play (RULES.md §7–§9) ------------------------------------------------------------
    def choose_play(self, view: Any, options: Any) -> tuple[Card, ...]:
        """The candidate play with the best expected value (see the module docstring)."""
        ranked = self.ranked_plays(view, options)
        if not ranked:  # pragma: no cover - there is always a candidate with cards in hand
            return tuple(options.sample(self.rng))
        self.last_reasoning = tuple({"action": " ".join(str(Card(c)) for c in p), "value": round(v, 2),
                                     "note": "pts"} for v, p in ranked[:3])
        if self.blunder and len(ranked) > 1 and self.rng.random() < self.blunder:
            return self.rng.choice(ranked)[1]
        return ranked[0][1]

    def ranked_plays(self, view: Any, options: Any, know: Knowledge | None = None
                     ) -> list[tuple[float, tuple[Card, ...]]]:
        """Every candidate play with its heuristic value, best first: ``[(value, cards), ...]``
        (``value`` in expected card points for the seat's side; ties in card order).
        ``know``: the seat's :class:`.knowledge.Knowledge` of this view when the caller keeps
        one up to date (:func:`.expert_bid.basic_play_out`); built from ``view`` if None."""
        if know is None:
            know = Knowledge.from_view(view)
        scored = self._lead(view, options, know) if options.leading else self._follow(view, options, know)
        best: dict[tuple[Card, ...], float] = {}
        for ev, play in scored:
            key = tuple(sorted(play))
            if key not in best or ev > best[key]:
                best[key] = ev
        return sorted(((ev, play) for play, ev in best.items()), key=lambda t: (-t[0], t[1]))

    # leading ------------------------------------------------------------------------------
    def _lead(self, view: Any, options: Any, know: Knowledge) -> list[tuple[float, tuple[Card, ...]]]:
        ctx = know.ctx
        me, dealer = view.seat, view.dealer
        n_seats = len(view.hand_sizes)
        others = [(me + i) % n_seats for i in range(1, n_seats)]
        same = _sides(view)
        red_five = _red_five(view)
        opps = [s for s in others if not same(s, me)]
        friends = [s for s in others if same(s, me)]
        counts = counts_of(view.hand)
        last = len(view.hand) <= 1
        keep = {c: keep_value(c, ctx, counts) for c in counts}  # per card, for the spend term
        candidates: list[tuple[Card, ...]] = list(options.units())
        candidates.extend(self._safe_throws(view.hand, know))
        my_trumps = sum(1 for c in view.hand if ctx.SUITX[c] == TRUMP_INDEX)
        unseen_trumps = know.suit_unseen(TRUMP_INDEX)
        scored: list[tuple[float, tuple[Card, ...]]] = []
        for play in candidates:
            pattern = classify(play, ctx)
            main = max(pattern.components, key=lambda comp: (comp.size, comp.group))
            psx = ctx.SUITX[play[0]]
            value = play_key(play, pattern.shapes, ctx)
            if value is None:
                continue
            risk = know.p_any_beats(opps, psx, psx, value, main.group, main.length)
            if pattern.kind == "throw":
                risk = 0.0 if psx == TRUMP_INDEX else know.p_any_beats(
                    opps, psx, psx, 99, main.group, main.length)
            q = 1.0 - risk
            if psx != TRUMP_INDEX and friends and q < 0.9:
                # a partner void in the suit may ruff for the side
                help_ = max((know.p_void(f, psx) for f in friends), default=0.0) * 0.5
                q = q + (1.0 - q) * help_
            pts = sum(POINTS[c] for c in play)
            n = len(play)
            win_total = pts + n * (FEED * len(friends) + DUMP * len(opps))
            lose_total = pts + n * (FEED * max(0, len(opps) - 1) + DUMP * (len(friends) + 1))
            ev = q * win_total - (1.0 - q) * lose_total
            rf = sum(1 for c in play if c == red_five)
            ev -= RED_FIVE_RISK * rf * (1.0 - q)
            if not last:
                ev -= SPEND_WEIGHT * sum(keep[c] for c in play) * (0.4 + 0.6 * (1 - q))
            if me == dealer and psx == TRUMP_INDEX and unseen_trumps and my_trumps * 2 >= unseen_trumps:
                ev += 2.0 * len(play) * q  # draw the defenders' trumps
            if me != dealer and psx != TRUMP_INDEX and dealer is not None and psx in know.voids[dealer]:
                ev -= 4.0 * len(play)  # the dealer ruffs
            scored.append((ev, tuple(play)))
        return scored

    def _safe_throws(self, hand: Sequence[int], know: Knowledge) -> list[tuple[Card, ...]]:
        """Throws 甩牌 that would stand even if one player held every unseen card (checked by
        :func:`engine.tricks.check_lead`), at most one per suit, of two or more components."""
        ctx = know.ctx
        by_suit: dict[int, list[int]] = {}
        for c in hand:
            by_suit.setdefault(ctx.SUITX[c], []).append(c)
        out = []
        for suitx, cards in by_suit.items():
            comps = decompose_counts(counts_of(cards), ctx)
            if len(comps) < 2:
                continue
            pool = know.unseen_cards(suitx)  # only the suit's cards can beat a throw of it
            comps.sort(key=lambda comp: -ctx.VAL[comp.top])
            taken: list[int] = []
            for comp in comps:
                trial = taken + list(comp.cards)
                if not check_lead(trial, [pool], ctx).valid:
                    break
                taken = trial
            if len(decompose_counts(counts_of(taken), ctx)) >= 2:
                out.append(tuple(Card(c) for c in sorted(taken)))
        return out

    # following ----------------------------------------------------------------------------
    def _follow(self, view: Any, options: Any, know: Knowledge) -> list[tuple[float, tuple[Card, ...]]]:
        ctx = know.ctx
        sx = ctx.SUITX
        me = view.seat
        n_seats = len(view.hand_sizes)
        trick = view.current_trick
        plays = [cards for _, cards in trick]
        seats = [s for s, _ in trick]
        lead = plays[0]
        n = len(lead)
        lsx = sx[lead[0]]
        pattern = classify(lead, ctx)
        shapes = pattern.shapes
        main = max(pattern.components, key=lambda comp: (comp.size, comp.group))
        later = [(me + i) % n_seats for i in range(1, n_seats - len(plays))]
        same = _sides(view)
        red_five = _red_five(view)
        later_opps = [s for s in later if not same(s, me)]
        later_friends = [s for s in later if same(s, me)]
        table_pts = sum(POINTS[c] for p in plays for c in p)
        counts = counts_of(view.hand)
        last_trick = len(view.hand) == n
        keep = {c: keep_value(c, ctx, counts) for c in counts}  # per card, for the spend term
        kitty_stake = 0.0
        if last_trick:
            if view.buried is not None:
                kitty_stake = float(sum(Card(c).points for c in view.buried))
            else:
                seen_pts = sum(Card(c).points for c in view.played_cards()) + sum(
                    Card(c).points for c in view.hand)
                kitty_stake = max(0.0, view.ruleset.total_points - seen_pts) * 0.8
        cur = trick_winner(plays, ctx)
        cur_play = plays[cur]
        cur_value = play_key(cur_play, shapes, ctx)

        def q_for(winning_seat: int, winning_play: Sequence[int], value: int) -> float:
            wsx = sx[winning_play[0]]
            if same(winning_seat, me):
                return 1.0 - know.p_any_beats(later_opps, lsx, wsx, value, main.group, main.length)
            if not later_friends:
                return 0.0
            p = know.p_any_beats(later_friends, lsx, wsx, value, main.group, main.length)
            return 0.6 * p * (1.0 - 0.5 * bool(later_opps))

        scored: list[tuple[float, tuple[Card, ...]]] = []
        cur_suit = suit_of_play(cur_play, ctx)
        for play in self._follow_candidates(view, options, lsx, n, table_pts, know):
            value = takes_trick(play, pattern.suit, shapes, cur_suit, cur_value, ctx)
            if value is not None:  # the play would win the trick as it stands
                q = q_for(me, play, value)
            else:
                q = q_for(seats[cur], cur_play, cur_value if cur_value is not None else 0)
            pts = sum(POINTS[c] for c in play)
            win_total = table_pts + pts + kitty_stake + n * (FEED * len(later_friends) + DUMP * len(later_opps))
            lose_total = table_pts + pts + kitty_stake + n * (DUMP * len(later_friends) + FEED * len(later_opps))
            ev = q * win_total - (1.0 - q) * lose_total
            ev -= RED_FIVE_RISK * sum(1 for c in play if c == red_five) * (1.0 - q)
            if not last_trick:
                ev -= SPEND_WEIGHT * sum(keep[c] for c in play)
            scored.append((ev, tuple(play)))
        return scored

    def _follow_candidates(self, view: Any, options: Any, lsx: int, n: int, table_pts: int,
                           know: Knowledge) -> Iterable[tuple[Card, ...]]:
        """A small set of legal follows worth comparing.

        Holding more cards of the led suit than were led: the engine's legal follows (up to
        :data:`MAX_ENUMERATED_FOLLOWS`). Otherwise the suit's cards are forced and only the
        fillers are chosen: the cheapest, the richest in points, and (when void) the cheapest
        trump units shaped like the lead, each checked with ``options.is_legal``.
        """
        ctx = know.ctx
        sx = ctx.SUITX
        hand = list(view.hand)
        in_suit = [c for c in hand if sx[c] == lsx]
        if len(in_suit) > n or n == 1:
            for i, play in enumerate(options):
                if i >= MAX_ENUMERATED_FOLLOWS:
                    break
                yield play
            return
        counts = counts_of(hand)
        red_five = _red_five(view)
        others = [c for c in hand if sx[c] != lsx]
        k = n - len(in_suit)
        seen: set[tuple[int, ...]] = set()

        def emit(fill: Sequence[int]):
            play = tuple(sorted(in_suit + list(fill)))
            if len(play) == n and play not in seen and options.is_legal(play):
                seen.add(play)
                return tuple(Card(c) for c in play)
            return None

        def dump_cost(c: int) -> float:
            return keep_value(c, ctx, counts) + Card(c).points * 2.0 + (60.0 if c == red_five else 0)

        def feed_cost(c: int) -> float:
            return keep_value(c, ctx, counts) - Card(c).points * 2.0 + (60.0 if c == red_five else 0)

        for key in (dump_cost, feed_cost):
            got = emit(sorted(others, key=lambda c: (key(c), c))[:k])
            if got:
                yield got
        if not in_suit and lsx != TRUMP_INDEX:
            trumps = [c for c in hand if sx[c] == TRUMP_INDEX]
            if len(trumps) >= n:
                for fill in self._trump_shapes(view.lead, trumps, ctx):
                    got = emit(fill)
                    if got:
                        yield got

    @staticmethod
    def _trump_shapes(lead: Sequence[int], trumps: Sequence[int], ctx: TrumpContext) -> list[list[int]]:
        """Trump plays with the lead's component shapes: the lowest such, and the lowest one
        built from the strongest units (to over-ruff)."""
        shapes = classify(lead, ctx).shapes
        out = []
        for strongest in (False, True):
            left = counts_of(trumps)
            play: list[int] = []
            ok = True
            for group, length in shapes:
                fit = _units_of(left, group, length, ctx)
                if not fit:
                    ok = False
                    break
                unit = fit[0] if strongest else fit[-1]
                for c in unit:
                    left[c] -= group
                    if not left[c]:
                        del left[c]
                play.extend(c for c in unit for _ in range(group))
            if ok:
                out.append(play)
        return out


def _units_of(counts: dict[int, int], group: int, length: int, ctx: TrumpContext) -> list[list[int]]:
    """Units of ``length`` consecutive groups of ``group`` identical cards, strongest first
    (singles when ``group`` is 1)."""
    from engine.tricks import lead_units

    cards = [c for c, k in counts.items() for _ in range(k)]
    found = []
    for unit in lead_units(cards, ctx):
        c = counts_of(unit)
        if len(c) == length and all(k == group for k in c.values()):
            found.append(sorted(c, key=lambda x: ctx.VAL[x]))
    found.sort(key=lambda u: -ctx.VAL[u[-1]])
    return found


def auctioned(ruleset: Any, seed: int, ai_seed: int | None = None) -> tuple[Any, list[BasicAI]]:
    """A 红五 deal (``Game.new(ruleset, seed=seed)``) with the auction, the trump and the bury
    made by ``basic`` on every seat (RULES.md §2–§4): ``(game in the play phase at the first
    lead, the four AIs)``. Seat s's AI is seeded ``ai_seed + s`` (default ``seed + s``). For
    benchmarks and tools that study the play from the same starting positions."""
    from engine.state import Bid, Bury, ChooseTrump, Game, Phase

    g = Game.new(ruleset, seed=seed)
    base = seed if ai_seed is None else ai_seed
    ais = [BasicAI(AISettings(seat=s, seed=base + s)) for s in range(ruleset.players)]
    while g.phase is not Phase.PLAY:
        s = g.to_act
        v = g.view(s)
        if g.phase is Phase.BID:
            g.apply(Bid(s, ais[s].choose_bid(v, v.legal_bid_amounts) or None))
        elif g.phase is Phase.TRUMP:
            g.apply(ChooseTrump(s, ais[s].choose_trump(v, "SHCD")))
        else:
            g.apply(Bury(s, tuple(ais[s].choose_bury(v, v.bury_count))))
    return g, ais


@hookimpl
def register_ais(register) -> None:
    """Register ``basic``."""
    register("basic", BasicAI, VERSION)
