"""Fit the weights of the ``expert`` AI's learned sampling prior (:mod:`ai_plugins.builtin.inference`).

Plays ``--deals`` deals per deck count with ``basic`` on every seat (auction, trump, bury and
play; deal ``seed + i``). At a random fifth of the play decisions, from the deciding seat's view,
up to ``--cards`` of the cards it cannot see are taken, each with the holders that may hold it
(a seat with cards left that has not shown a void in its effective suit; for a defender also
the buried kitty) and the one that does. The weights maximise the likelihood of the true
holders under ``P(holder) ∝ cards the holder has left × exp(w · φ)`` (a softmax with an offset;
Newton's method with a small ridge), which is how :func:`ai_plugins.builtin.simulate.sample_world`
deals a card. The last ``--test`` deals are held out: their mean log-likelihood a card is
printed for a uniform deal (w = 0), for the fixed defenders' prior of ``simulate`` and for the
fit.

    PYTHONPATH=. python tools/train_sample_prior.py [--deals 500] [--test 100] [--seed 52000]
        [--write]

``--write`` stores the weights in ``ai_plugins/builtin/data/sample_prior.json``. Pure Python,
seeded: the same arguments give the same file.
"""
from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.ruleset import hongwu  # noqa: E402
from engine.state import Phase, Play  # noqa: E402
from ai_plugins.builtin import inference, simulate  # noqa: E402
from ai_plugins.builtin.basic import auctioned  # noqa: E402
from ai_plugins.builtin.knowledge import Knowledge  # noqa: E402

OUT = ROOT / "ai_plugins" / "builtin" / "data" / inference.PRIOR_FILE


def decision_rows(game, seat: int, rng: random.Random, cards: int) -> list:
    """Rows ``(true holder index, [(log count, {feature index: value})...])`` for up to
    ``cards`` hidden cards of ``seat``'s view of ``game`` (play phase)."""
    v = game.view(seat)
    know = Knowledge.from_view(v)
    sx = v.ctx.SUITX
    holders = [s for s in range(game.ruleset.players) if s != seat and v.hand_sizes[s] > 0]
    hidden = [(int(c), s) for s in holders for c in game.hands[s]]
    if v.buried is None:
        holders.append(inference.KITTY)
        hidden += [(int(c), inference.KITTY) for c in game.buried]
    size = {h: (game.ruleset.kitty_size if h == inference.KITTY else v.hand_sizes[h]) for h in holders}
    signals = inference.seat_signals(v)
    rng.shuffle(hidden)
    rows = []
    for c, true in hidden[:cards]:
        opts = [h for h in holders if h == inference.KITTY or sx[c] not in know.voids[h]]
        if len(opts) < 2:
            continue
        alts = []
        for h in opts:
            f = inference.features(v, signals, h, c)
            alts.append((math.log(size[h]), {i: x for i, x in enumerate(f) if x}))
        rows.append((opts.index(true), alts))
    return rows


def deal_rows(rs, seed: int, cards: int, share: float) -> list:
    """The rows of one ``basic`` self-play deal (``seed``)."""
    g, ais = auctioned(rs, seed)
    rng = random.Random(seed * 31 + 7)
    rows = []
    for _ in range(1000):
        if g.phase is not Phase.PLAY:
            break
        s = g.to_act
        if rng.random() < share:
            rows += decision_rows(g, s, rng, cards)
        v = g.view(s)
        g.apply(Play(s, tuple(ais[s].choose_play(v, v.play_options()))))
    return rows


def loglik(rows, w) -> float:
    """Mean log-likelihood a row of the true holder under weights ``w``."""
    total = 0.0
    for y, alts in rows:
        z = [off + sum(w[i] * x for i, x in f.items()) for off, f in alts]
        m = max(z)
        total += z[y] - m - math.log(sum(math.exp(a - m) for a in z))
    return total / max(1, len(rows))


def fit(rows, k: int, ridge: float = 1.0, steps: int = 12) -> list[float]:
    """Newton's method on the softmax log-likelihood with an L2 ridge; ``k`` features."""
    w = [0.0] * k
    for _ in range(steps):
        g = [-ridge * a for a in w]
        H = [[ridge if i == j else 0.0 for j in range(k)] for i in range(k)]
        for y, alts in rows:
            z = [off + sum(w[i] * x for i, x in f.items()) for off, f in alts]
            m = max(z)
            e = [math.exp(a - m) for a in z]
            t = sum(e)
            p = [a / t for a in e]
            mean: dict[int, float] = {}
            for pj, (_, f) in zip(p, alts):
                for i, x in f.items():
                    mean[i] = mean.get(i, 0.0) + pj * x
            for i, x in alts[y][1].items():
                g[i] += x
            for i, x in mean.items():
                g[i] -= x
            for pj, (_, f) in zip(p, alts):
                d = {i: f.get(i, 0.0) - mean.get(i, 0.0) for i in set(f) | set(mean)}
                for i, a in d.items():
                    if a:
                        Hi = H[i]
                        for j, b in d.items():
                            Hi[j] += pj * a * b
        step = solve(H, g)
        w = [a + b for a, b in zip(w, step)]
        if max(abs(s) for s in step) < 1e-4:
            break
    return w


def solve(A, b):
    """``A x = b`` by Gaussian elimination with partial pivoting (A symmetric positive definite)."""
    n = len(b)
    M = [row[:] + [b[i]] for i, row in enumerate(A)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(M[r][c]))
        M[c], M[p] = M[p], M[c]
        for r in range(c + 1, n):
            f = M[r][c] / M[c][c]
            if f:
                for j in range(c, n + 1):
                    M[r][j] -= f * M[c][j]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (M[r][n] - sum(M[r][j] * x[j] for j in range(r + 1, n))) / M[r][r]
    return x


def fixed_prior(decks: int) -> list[float]:
    """``simulate``'s fixed defenders' prior written as weights of these features."""
    w = [0.0] * len(inference.FEATURE_NAMES)
    names = inference.FEATURE_NAMES
    w[names.index("dealer_trump")] = math.log(simulate.DEALER_TRUMP_WEIGHT.get(decks, 1.5))
    w[names.index("kitty_trump")] = math.log(simulate.KITTY_TRUMP_WEIGHT)
    w[names.index("kitty_point")] = math.log(simulate.KITTY_POINT_WEIGHT)
    return w


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--deals", type=int, default=500, help="deals per deck count, held-out ones included")
    p.add_argument("--test", type=int, default=100, help="of which held out")
    p.add_argument("--seed", type=int, default=52000)
    p.add_argument("--cards", type=int, default=12, help="hidden cards taken per decision")
    p.add_argument("--share", type=float, default=0.2, help="share of the play decisions taken")
    p.add_argument("--decks", default="2,3")
    p.add_argument("--write", action="store_true")
    ns = p.parse_args(argv)
    weights = {}
    for decks in [int(d) for d in ns.decks.split(",")]:
        rs = hongwu(decks)
        t0 = time.perf_counter()
        train, test = [], []
        for i in range(ns.deals):
            rows = deal_rows(rs, ns.seed + 1000 * decks + i, ns.cards, ns.share)
            (test if i >= ns.deals - ns.test else train).extend(rows)
        w = fit(train, len(inference.FEATURE_NAMES))
        weights[str(decks)] = [round(a, 4) for a in w]
        print(f"{decks} decks: {len(train)} training rows, {len(test)} held out "
              f"({time.perf_counter() - t0:.0f} s)")
        zero = [0.0] * len(w)
        for label, ww in (("uniform", zero), ("fixed prior", fixed_prior(decks)), ("fit", w)):
            print(f"  held-out log-likelihood a card, {label}: {loglik(test, ww):.4f}")
        for name, a in zip(inference.FEATURE_NAMES, w):
            print(f"  {name:18s} {a:+.3f}")
    if ns.write:
        OUT.write_text(json.dumps({"features": list(inference.FEATURE_NAMES), "weights": weights,
                                   "trained": {"deals": ns.deals, "test": ns.test, "seed": ns.seed,
                                               "cards": ns.cards, "share": ns.share}},
                                  indent=1) + "\n", encoding="utf-8")
        print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
