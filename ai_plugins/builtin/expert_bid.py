"""Auction and dealer decisions of the ``expert`` AI at 红五 (RULES.md §2–§4, §10).

A learned hand evaluation replaces play-outs for the bid and the trump:

- :func:`features` describes a dealt hand (25 cards with two decks, 39 with three) for one
  candidate trump suit: trump length and quality (red fives, jokers, 参谋, 2s, top trumps),
  trump pairs, triples and tractors, side aces and kings, side pairs, voids and short suits,
  points held. It also takes ``rival``: how strong the bids of the other seats say their
  hands are (card points above the minimum bid).
- :class:`BidModel` maps those features to the **mean** and the **spread** of the card points
  the seat takes as dealer (tricks, kitty when it counts, red-five 20s; RULES.md §10). The
  weights (``data/bid_model.json``) are least-squares fits on deals played out by the
  ``basic`` AI on every seat (``tools/train_bid_model.py``: seeded and reproducible).
- :func:`expected_gp` turns a mean and a spread into the dealer's expected game points at a
  bid under the band table (a normal distribution of the card points).
- :func:`choose_bid` bids the cheapest legal amount whose expected game points beat the
  value of passing (:data:`PASS_VALUE`: as a defender against a rival dealer the seat loses a
  little on average), reading the rivals' bids (a rival's bid says it is strong: the defence
  holds more).
- :func:`bury_candidates` proposes buries that keep trumps and pairs and empty short side
  suits, some keeping point cards out of the kitty and some putting them in (the kitty counts
  for the dealer only if the dealer wins the last trick, §10, which a dealer usually does).

Everything here is pure Python (the model is a dot product), deterministic, and reads only
what the seat may know (its hand, the bids so far).
"""
from __future__ import annotations

import json
import math
from collections import Counter
from functools import lru_cache
from importlib import resources
from typing import Any, Sequence

from engine.cards import Card
from engine.order import TRUMP_INDEX, context
from engine.scoring import band_multiplier

from .knowledge import RED_FIVE_ID

FEATURE_NAMES = (
    "const", "trumps", "trumps2", "red5", "bigj", "smallj", "main3", "sub3", "main2", "sub2",
    "t_ace", "t_king", "t_mid", "t_low", "t_pairs", "t_high_pairs", "t_triples", "t_tractor",
    "s_aces", "s_kings", "s_ak", "s_pairs", "s_high_pairs", "s_triples", "s_tractor",
    "voids", "singles", "doubles", "s_losers", "pts", "t_pts", "s_pts", "rival",
)
"""Names of the entries of :func:`features`, in order."""

SUITS_TRIED = 2
"""Suits the model compares (the best rated by ``basic``; the training play-outs tried as
many)."""

MODEL_FILE = "bid_model.json"
"""The weights, in ``ai_plugins/builtin/data/`` (package data)."""

PASS_VALUE = -0.5
"""The seat's expected game points when it passes and a rival deals (a defender loses about a
third of what the dealer wins); a bid must promise more than this."""

BID_CUSHION = 0.5
"""Extra expected game points a bid must promise beyond :data:`PASS_VALUE` (the model's
error)."""

FORCED_PASS_VALUE = 1.0
"""The seat's expected game points when it passes and the first bidder, a rival who passed,
must deal at the minimum bid."""

PLAY_BONUS = {2: 10.0, 3: 15.0}
"""Card points added to the model's mean per deck count, for an expert that plays a hand better
than the ``basic`` play-outs the model was fitted on. As dealer at ``--think-ms 100`` against
``basic`` (seed 2026) the expert took 8.6 (63 hands) and 12.4 (89 hands) card points more than
the model predicts with two decks, 0.9 with three (34 hands); but a bonus of 10 with two decks
made it deal too often and lose game points in the arena (seeds 4242 and 777, README "Arena
results"), so none is added. Re-measured with 1.6's bury and play at 100 ms, 400 deals each
paired with 1.6 (docs/EXPERT_NOTES.md "Tried after 1.6: a play bonus in the auction"): 20 with two
decks −0.00 ± 0.23 game points a hand, 15 with three +0.10 ± 0.22; still 0 then. Since 2.0 15
with three decks, together with the dealer's time (``expert.DEALER_TIME``): a dealer that
searches three times as long makes more of the hands the bonus adds, +0.33 ± 0.23 over 1.9
(400 three-deck deals at 100 ms, README "`expert` 2.0"). Since 2.1 10 with two decks, where the
dealer's time had come first (1.9): +0.23 ± 0.22 over 1.9 on 400 deals at 100 ms, 15 there
−0.15 ± 0.19 against 10 (README "`expert` 2.1")."""

RIVAL_EXCESS = 8.0
"""Card points a rival's hand is taken to be worth above its highest bid (an AI bids the
cheapest amount it can afford, so its hand is usually worth a little more)."""


def features(hand: Sequence[int], trump: str, rival: float = 0.0) -> list[float]:
    """The feature vector (floats, :data:`FEATURE_NAMES` order) of ``hand`` (card ids, the
    dealt hand before the kitty) with trump ``trump`` (a suit letter). ``rival``: card points
    above the minimum bid that the other seats' bids show (0 when nobody else bid)."""
    ctx = context(trump)
    sx, val, seq = ctx.SUITX, ctx.VAL, ctx.SEQ
    counts = Counter(int(c) for c in hand)
    f = dict.fromkeys(FEATURE_NAMES, 0.0)
    f["const"] = 1.0
    side_len = [0, 0, 0, 0]
    side_pairs: dict[int, list[int]] = {}
    trump_pairs: list[int] = []
    for c, k in counts.items():
        pts = Card(c).points * k
        f["pts"] += pts
        v = val[c]
        if sx[c] == TRUMP_INDEX:
            f["trumps"] += k
            f["t_pts"] += pts
            if v >= 20:
                f[("sub2", "main2", "sub3", "main3", "smallj", "bigj", "red5")[v - 20]] += k
            elif v == 14:
                f["t_ace"] += k
            elif v == 13:
                f["t_king"] += k
            elif v >= 10:
                f["t_mid"] += k
            else:
                f["t_low"] += k
            if k >= 2:
                f["t_pairs"] += 1
                if v >= 13:
                    f["t_high_pairs"] += 1
                trump_pairs.append(c)
            if k >= 3:
                f["t_triples"] += 1
        else:
            s = sx[c]
            side_len[s] += k
            f["s_pts"] += pts
            if v == 14:
                f["s_aces"] += k
            elif v == 13:
                f["s_kings"] += k
                if counts.get(c + 1, 0):  # the ace of the suit held too
                    f["s_ak"] += k
            elif v <= 11:
                f["s_losers"] += k
            if k >= 2:
                f["s_pairs"] += 1
                if v >= 12:
                    f["s_high_pairs"] += 1
                side_pairs.setdefault(s, []).append(seq[c])
            if k >= 3:
                f["s_triples"] += 1
    pos = {seq[c] for c in trump_pairs if seq[c] >= 0}
    f["t_tractor"] = float(sum(1 for p in pos if p + 1 in pos))
    for seqs in side_pairs.values():
        ps = set(seqs)
        f["s_tractor"] += sum(1 for p in ps if p + 1 in ps)
    for s in range(4):
        if s == ctx.trump_index:
            continue
        n = side_len[s]
        if n == 0:
            f["voids"] += 1
        elif n == 1:
            f["singles"] += 1
        elif n == 2:
            f["doubles"] += 1
    f["trumps2"] = f["trumps"] ** 2 / 10.0
    f["rival"] = float(rival)
    return [f[n] for n in FEATURE_NAMES]


class BidModel:
    """Mean and spread of the dealer's card points from :func:`features` (one linear model a
    deck count). ``weights``: ``{"2": {"mean": [...], "sd": [...]}, "3": {...}}`` with one
    coefficient per :data:`FEATURE_NAMES` entry; the spread is floored at ``sd_min``."""

    def __init__(self, weights: dict[str, Any]) -> None:
        self.weights = weights

    def predict(self, hand: Sequence[int], trump: str, decks: int, rival: float = 0.0) -> tuple[float, float]:
        """``(mean, sd)`` of the card points ``hand`` takes as dealer with ``trump``.
        Raises KeyError for a deck count the model was not fitted for."""
        w = self.weights[str(decks)]
        x = features(hand, trump, rival)
        mean = sum(a * b for a, b in zip(w["mean"], x))
        sd = sum(a * b for a, b in zip(w["sd"], x))
        return mean, max(float(w.get("sd_min", 10.0)), sd)


@lru_cache(maxsize=1)
def load_model() -> BidModel:
    """The shipped :class:`BidModel` (``ai_plugins/builtin/data/bid_model.json``)."""
    text = resources.files(__package__).joinpath("data", MODEL_FILE).read_text(encoding="utf-8")
    return BidModel(json.loads(text)["weights"])


def _norm_cdf(z: float) -> float:
    return 0.5 * (1.0 + math.erf(z / math.sqrt(2.0)))


def band_edges(ruleset: Any) -> list[tuple[float, int]]:
    """The band table (RULES.md §10) as ``[(upper edge of the final, dealer game points)]``,
    lowest band first, the last edge infinite."""
    mult = lambda x: -(ruleset.players - 1) * band_multiplier(ruleset, x) * ruleset.options.base_score  # noqa: E731
    edges = sorted({e for e in range(-400, 401, 5) if mult(e) != mult(e + 5)})
    out = [(float(e), mult(e)) for e in edges]
    out.append((math.inf, mult(edges[-1] + 5)))
    return out


def expected_gp(ruleset: Any, mean: float, sd: float, bid: int) -> float:
    """The dealer's expected game points at ``bid`` when its card points are normal with
    ``mean`` and ``sd`` (finals on a grid of 5: a band edge e is taken at e + 2.5)."""
    total, lo = 0.0, 0.0
    for edge, gp in band_edges(ruleset):
        hi = 1.0 if edge == math.inf else _norm_cdf((edge + 2.5 + bid - mean) / sd)
        total += gp * (hi - lo)
        lo = hi
    return total


def candidate_suits(hand: Sequence[int], suits: Sequence[str] = "SHCD") -> list[str]:
    """The :data:`SUITS_TRIED` suits of ``suits`` with the best ``basic`` rating
    (:func:`.basic.hand_strength`): the model was fitted on those only."""
    from .basic import hand_strength

    return sorted(suits, key=lambda s: (-hand_strength(hand, s), "SHCD".index(s)))[:SUITS_TRIED]


def best_suit(model: BidModel, hand: Sequence[int], decks: int, suits: Sequence[str] = "SHCD",
              rival: float = 0.0) -> tuple[str, float, float]:
    """``(suit, mean, sd)`` of the suit of :func:`candidate_suits` with the highest
    predicted mean (the better-rated first on ties)."""
    suits = candidate_suits(hand, suits)
    best = None
    for s in suits:
        m, sd = model.predict(hand, s, decks, rival)
        if best is None or m > best[1] + 1e-9:
            best = (s, m, sd)
    assert best is not None
    return best


def auction_state(view: Any) -> tuple[int | None, frozenset[int], frozenset[int]]:
    """``(highest rival bid or None, rivals that passed, rivals that have not acted yet)``
    from ``view.bids`` (RULES.md §2: a pass is final)."""
    me = view.seat
    acted: set[int] = set()
    passed: set[int] = set()
    top = None
    for s, amt in view.bids:
        if s == me:
            continue
        acted.add(s)
        if amt:
            top = amt if top is None else max(top, amt)
        else:
            passed.add(s)
    others = {s for s in range(len(view.hand_sizes)) if s != me}
    return top, frozenset(passed), frozenset(others - acted)


def rival_strength(view: Any, model: BidModel) -> float:
    """Card points above the minimum bid that the other seats' hands are taken to be worth
    (the model's ``rival`` feature): the highest rival bid less the minimum plus
    :data:`RIVAL_EXCESS`; for seats yet to act, the fitted mean of that feature over random
    deals; the larger of the two (0 when every rival passed)."""
    rs = view.ruleset
    top, _, unknown = auction_state(view)
    shown = 0.0 if top is None else float(top - rs.bid_min) + RIVAL_EXCESS
    table = model.weights.get(str(rs.decks), {}).get("rival_unknown", {})
    hidden = float(table.get(str(len(unknown)), 0.0)) if unknown else 0.0
    return max(shown, hidden)


def pass_value(view: Any) -> float:
    """The seat's expected game points if it passes now: :data:`PASS_VALUE` against a rival
    who bid or may still bid; :data:`FORCED_PASS_VALUE` when every rival has passed without a
    bid and the first bidder is a rival (it then deals at the minimum with a hand it did not
    want to bid, RULES.md §2)."""
    top, passed, unknown = auction_state(view)
    if top is None and not unknown and view.first_bidder != view.seat:
        return FORCED_PASS_VALUE
    return PASS_VALUE


def bid_values(view: Any, bids: Sequence[int], model: BidModel | None = None,
               bonus: float | None = None) -> tuple[str, dict[int, float], float, float]:
    """``(suit, {bid: expected dealer game points}, mean, sd)`` for the seat's best suit;
    ``bonus`` card points are added to the model's mean (default :data:`PLAY_BONUS` for the
    deck count)."""
    model = model or load_model()
    rs = view.ruleset
    suit, mean, sd = best_suit(model, [int(c) for c in view.hand], rs.decks, rival=rival_strength(view, model))
    mean += PLAY_BONUS.get(rs.decks, 0.0) if bonus is None else bonus
    return suit, {b: expected_gp(rs, mean, sd, b) for b in bids}, mean, sd


def choose_bid(view: Any, bids: Sequence[int], model: BidModel | None = None,
               bonus: float | None = None) -> tuple[int, list[dict]]:
    """``(amount or 0 for a pass, reasoning rows)``: the cheapest of ``bids`` whose expected
    game points exceed :func:`pass_value` + :data:`BID_CUSHION`, else a pass (``bonus``: see
    :func:`bid_values`)."""
    if not bids:
        return 0, []
    suit, values, mean, sd = bid_values(view, bids, model, bonus)
    cheapest = min(bids)
    need = pass_value(view) + BID_CUSHION
    choice = cheapest if values[cheapest] > need else 0
    note = f"model {suit}: {mean:.0f}±{sd:.0f} pts"
    rows = [{"action": str(cheapest), "value": round(values[cheapest], 2),
             "note": note + (", chosen" if choice else "")},
            {"action": "pass", "value": round(need, 2), "note": "pass" + ("" if choice else ", chosen")}]
    if not choice:
        rows.reverse()
    return choice, rows


def choose_trump(view: Any, suits: Sequence[str], model: BidModel | None = None) -> tuple[str, list[dict]]:
    """``(suit, reasoning rows)``: the suit of ``suits`` with the best predicted mean card
    points for the dealt hand (the hand before the kitty: trump is named first, §3)."""
    model = model or load_model()
    decks = view.ruleset.decks
    hand = [int(c) for c in view.hand]
    preds = [(s, *model.predict(hand, s, decks)) for s in candidate_suits(hand, suits)]
    order = sorted(preds, key=lambda t: -t[1])
    rows = [{"action": s, "value": round(expected_gp(view.ruleset, m, sd, view.bid or view.ruleset.bid_min), 2),
             "note": f"model {m:.0f}±{sd:.0f} pts"} for s, m, sd in order[:3]]
    return order[0][0], rows


BURY_POINT_WEIGHTS = (1.5, 0.3, -1.0)
"""The families of :func:`bury_candidates`, by what a card point adds to the cost of burying
it: 1.5 and 0.3 keep point cards in the hand (to be won in tricks), -1.0 buries them first. A
kitty's points count for the dealer only if the dealer wins the last trick and are lost to
nobody otherwise (RULES.md §10), so burying them is often the better bet: on the positions of
``benchmarks/bury_decisions.py`` (two decks, 600 buries finished by ``basic`` on the real deal)
the point-burying candidates averaged +3.0 game points over ``basic``'s own bury, the others
+0.35 (docs/EXPERT_NOTES.md "The bury search's play-outs")."""


def bury_candidates(view: Any, count: int, keep_value: Any,
                    weights: Sequence[float] | None = None) -> list[tuple[Card, ...]]:
    """Buries of ``count`` cards from the dealer's hand with the kitty (``view.hand``):
    side cards only while possible (trumps and above all the red five cost extra); for each
    point weight of ``weights`` in turn (default :data:`BURY_POINT_WEIGHTS`), one candidate per
    set of short side suits it can empty (none, each one, each two), then the cheapest other
    side cards, cards ranked by ``keep_value(card, ctx, counts)`` plus the weight times their
    points. A list of distinct sorted tuples of ``count`` :class:`Card`, in that order
    (RULES.md §4, §10)."""
    weights = BURY_POINT_WEIGHTS if weights is None else weights
    ctx = view.ctx
    hand = [int(c) for c in view.hand]
    counts = Counter(hand)
    sx = ctx.SUITX

    def cost(c: int, pts_w: float) -> float:
        return (keep_value(c, ctx, counts) + Card(c).points * pts_w
                + (200.0 if c == RED_FIVE_ID else 0.0) + (60.0 if sx[c] == TRUMP_INDEX else 0.0))

    side: dict[int, list[int]] = {}
    for c in hand:
        if sx[c] != TRUMP_INDEX:
            side.setdefault(sx[c], []).append(c)
    suits = sorted(side, key=lambda s: len(side[s]))
    out: list[tuple[Card, ...]] = []

    def add(chosen: list[int], pts_w: float) -> None:
        rest = sorted((Counter(hand) - Counter(chosen)).elements(), key=lambda c: (cost(c, pts_w), c))
        cand = tuple(sorted(Card(c) for c in chosen + rest[: count - len(chosen)]))
        if len(cand) == count and cand not in out:
            out.append(cand)

    for pts_w in weights:
        add([], pts_w)
        for s in suits:
            if len(side[s]) <= count:
                add(list(side[s]), pts_w)
        for i, a in enumerate(suits):
            for b in suits[i + 1:]:
                if len(side[a]) + len(side[b]) <= count:
                    add(side[a] + side[b], pts_w)
    return out


BURY_DEFAULT_WEIGHT = -1.0
"""The family of :func:`bury_candidates` (a weight of :data:`BURY_POINT_WEIGHTS`) whose first
candidate is the bury search's default, the one the search keeps unless its sampled deals favour
another (:func:`.expert.pick`). docs/EXPERT_NOTES.md "`expert` 1.6": on the positions of
``benchmarks/bury_decisions.py`` that candidate alone gained more over ``basic``'s bury than the
search did with ``basic``'s bury as its default."""


def default_bury(view: Any, count: int, keep_value: Any) -> tuple[Card, ...]:
    """The first candidate of :func:`bury_candidates` for the weight
    :data:`BURY_DEFAULT_WEIGHT`: ``count`` side cards (trumps only once the side cards run
    out) of the least keep value less their points, so point cards go first; a sorted tuple of
    :class:`Card` (RULES.md §4, §10)."""
    return bury_candidates(view, count, keep_value, (BURY_DEFAULT_WEIGHT,))[0]


def basic_play_out(game: Any, seed: int, max_actions: int = 1000, tricks: int | None = None) -> None:
    """Finish ``game`` (play phase) with a ``basic`` AI on every seat (seeded ``seed + seat``):
    a play-out in which no seat sees another's cards, unlike the fast
    :func:`.simulate.play_out`. With ``tricks``, stop instead once that many more tricks are
    complete (at a trick boundary, the game still in play unless the hand is over). Raises
    RuntimeError if it does not end."""
    from engine.state import Phase, Play

    from ..base import AISettings
    from .basic import BasicAI
    from .knowledge import Knowledge

    ais = [BasicAI(AISettings(seat=s, seed=seed + s)) for s in range(game.ruleset.players)]
    knows: list[Any] = [None] * game.ruleset.players  # each seat's card counting, kept up to date
    stop = None if tricks is None else len(game.tricks) + tricks
    for _ in range(max_actions):
        if game.phase is not Phase.PLAY or (stop is not None and len(game.tricks) >= stop):
            return
        s = game.to_act
        v = game.view(s)
        if knows[s] is None:
            knows[s] = Knowledge.from_view(v)
        options = v.play_options()
        ranked = ais[s].ranked_plays(v, options, knows[s])
        play = ranked[0][1] if ranked else tuple(options.sample(ais[s].rng))
        lead = game.current[0][1] if game.current else play
        lsx = game.ctx.SUITX[lead[0]]
        game.apply(Play(s, tuple(play)))
        for k in knows:
            if k is not None:
                k.observe(s, play, lsx)
    raise RuntimeError("play-out did not finish")  # pragma: no cover


__all__ = ["basic_play_out", "FEATURE_NAMES", "features", "BidModel", "load_model", "expected_gp", "band_edges",
           "candidate_suits", "best_suit", "auction_state", "rival_strength", "pass_value", "bid_values", "choose_bid", "choose_trump",
           "bury_candidates", "default_bury", "BURY_DEFAULT_WEIGHT", "BURY_POINT_WEIGHTS", "PASS_VALUE", "BID_CUSHION", "RIVAL_EXCESS"]
