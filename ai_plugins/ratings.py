"""Ratings from paired duplicate results: Bradley–Terry on deals, bootstrap intervals.

Input is one *outcome* per pair and deal: ``1`` when the first AI of the pair scored more game
points than the second over that deal's line-ups (``ABAB`` and ``BABA``, so both held every
seat's cards), ``0`` when fewer, ``0.5`` for a tie. The Bradley–Terry model says AI ``i`` wins a
deal against ``j`` with probability ``p_i / (p_i + p_j)``; the strengths ``p`` are fitted by
maximum likelihood with the minorise–maximise iteration (Hunter 2004), ties counting half a
win each way. Every pair also gets one virtual tied deal, a mild prior that keeps the rating
of an AI that never lost finite. Ratings are on the Elo scale, ``400 * log10(p)``, shifted so
that their mean is 0: a gap of 200 points means about a 76% chance of winning a deal.

The 95% interval of each rating is the 2.5th to 97.5th percentile over ``bootstrap``
resamples: the deal numbers are drawn with replacement (the same draw for every pair, since
the pairs play the same deals), the model is refitted, and the ratings recentred. The draws
come from ``random.Random(seed)``, so the same outcomes give the same intervals.
"""
from __future__ import annotations

import math
import random
import statistics
from typing import Mapping, Sequence

Pair = tuple[int, int]
#: ``{(i, j): {deal: outcome for i}}`` with ``i < j`` indices of the AIs.
Outcomes = Mapping[Pair, Mapping[int, float]]


def ci95_half_width(xs: Sequence[float]) -> float | None:
    """Half-width of the normal 95% interval of the mean of ``xs`` (``1.96`` sample standard
    deviations over the square root of the count), in the units of ``xs``; None for fewer than
    two values. The interval the arena, the league and the benchmarks print beside a mean
    (README "Arena results")."""
    if len(xs) < 2:
        return None
    return 1.96 * statistics.stdev(xs) / math.sqrt(len(xs))


PRIOR_TIES = 1.0
"""Virtual tied deals added to every pair (see the module docstring)."""


def fit_bradley_terry(k: int, wins: Mapping[Pair, float], games: Mapping[Pair, float],
                      prior_ties: float = PRIOR_TIES, tol: float = 1e-10,
                      max_iter: int = 10_000) -> list[float]:
    """Elo-scale ratings (mean 0) of ``k`` AIs from ``wins[(i, j)]`` (deals ``i`` won against
    ``j``, ties as 0.5) out of ``games[(i, j)]`` deals, for pairs ``i < j``.

    >>> [round(r) for r in fit_bradley_terry(2, {(0, 1): 3.0}, {(0, 1): 4.0})]
    [74, -74]

    Raises ValueError for ``k < 1`` or a pair outside ``0..k-1`` or with ``i >= j``.
    """
    if k < 1:
        raise ValueError("need at least one AI")
    w = [[0.0] * k for _ in range(k)]
    n = [[0.0] * k for _ in range(k)]
    for i in range(k):
        for j in range(i + 1, k):
            n[i][j] = n[j][i] = prior_ties
            w[i][j] = w[j][i] = prior_ties / 2
    for (i, j), g in games.items():
        if not 0 <= i < j < k:
            raise ValueError(f"bad pair {(i, j)} for {k} AIs")
        won = wins.get((i, j), 0.0)
        n[i][j] += g
        n[j][i] += g
        w[i][j] += won
        w[j][i] += g - won
    total_wins = [sum(row) for row in w]
    p = [1.0] * k
    for _ in range(max_iter):
        new = []
        for i in range(k):
            denom = sum(n[i][j] / (p[i] + p[j]) for j in range(k) if j != i and n[i][j])
            new.append(total_wins[i] / denom if denom else p[i])
        geo = math.exp(sum(math.log(x) for x in new) / k)
        new = [x / geo for x in new]
        change = max(abs(a - b) / b for a, b in zip(new, p))
        p = new
        if change < tol:
            break
    ratings = [400 * math.log10(x) for x in p]
    mean = sum(ratings) / k
    return [r - mean for r in ratings]


def _counts(outcomes: Outcomes, deals: Sequence[int]) -> tuple[dict[Pair, float], dict[Pair, float]]:
    wins: dict[Pair, float] = {}
    games: dict[Pair, float] = {}
    for pair, by_deal in outcomes.items():
        won = played = 0.0
        for d in deals:
            o = by_deal.get(d)
            if o is not None:
                won += o
                played += 1
        wins[pair], games[pair] = won, played
    return wins, games


def rate(k: int, outcomes: Outcomes, bootstrap: int = 200, seed: int = 0
         ) -> list[tuple[float, float | None, float | None]]:
    """``[(rating, low, high), ...]`` per AI: the Bradley–Terry fit of ``outcomes`` and its
    95% bootstrap interval over deals (``bootstrap`` resamples drawn from
    ``random.Random(seed)``; ``bootstrap=0`` or no deal played: ``low = high = None``)."""
    deals = sorted({d for by_deal in outcomes.values() for d in by_deal})
    ratings = fit_bradley_terry(k, *_counts(outcomes, deals))
    if not bootstrap or not deals:
        return [(r, None, None) for r in ratings]
    rng = random.Random(seed)
    samples: list[list[float]] = [[] for _ in range(k)]
    for _ in range(bootstrap):
        draw = [deals[rng.randrange(len(deals))] for _ in deals]
        wins: dict[Pair, float] = {}
        games: dict[Pair, float] = {}
        for pair, by_deal in outcomes.items():
            got = [by_deal[d] for d in draw if d in by_deal]
            wins[pair], games[pair] = sum(got), float(len(got))
        for i, r in enumerate(fit_bradley_terry(k, wins, games)):
            samples[i].append(r)
    out = []
    for r, xs in zip(ratings, samples):
        xs.sort()
        lo = xs[int(0.025 * (len(xs) - 1))]
        hi = xs[int(math.ceil(0.975 * (len(xs) - 1)))]
        out.append((r, lo, hi))
    return out


__all__ = ["fit_bradley_terry", "rate", "PRIOR_TIES", "Outcomes"]
