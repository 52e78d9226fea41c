"""Fit the expert AI's hand evaluation (ai_plugins/builtin/data/bid_model.json) at 红五.

Two steps, both seeded and reproducible:

1. ``generate``: deal ``--deals`` hands per deck count (deal i uses ``Game.new(seed=SEED*1000003+i)``);
   every seat in turn is made dealer at the minimum bid (``Game.after_auction``) with each of
   its best suits (``--trumps``, default 3) by ``basic``'s rating, buries with ``basic`` and the hand is played
   out by ``basic`` on all four seats. One row per play-out: the features of the dealt hand
   for that trump (:func:`ai_plugins.builtin.expert_bid.features`), the three other seats'
   ``basic`` bid targets, and the dealer's card points (tricks, kitty when it counts, red-five
   20s: the dealer final plus the bid, RULES.md §10). Rows go to a JSON file.
2. ``fit``: ordinary least squares (small ridge) of the card points on the features, the
   ``rival`` feature being how far the strongest other seat's target is above the minimum
   bid; then a second fit of the absolute residual (times sqrt(pi/2)) for the spread. Writes
   the JSON weights with the fit's figures.

    PYTHONPATH=. python tools/train_bid_model.py generate --decks 2 --deals 2000 --out /tmp/bid2.json
    PYTHONPATH=. python tools/train_bid_model.py fit --data 2=/tmp/bid2.json --data 3=/tmp/bid3.json
"""
from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

import random

from ai_plugins.base import AISettings
from ai_plugins.builtin.basic import BasicAI, best_trump, expected_points, hand_strength
from ai_plugins.builtin.expert_bid import FEATURE_NAMES, features
from engine.ruleset import hongwu
from engine.state import Bury, ChooseTrump, Game, Phase, Play

OUT = Path(__file__).resolve().parent.parent / "ai_plugins" / "builtin" / "data" / "bid_model.json"
TRUMPS_TRIED = 3


def play_as_dealer(hands, kitty, rs, dealer: int, suit: str, seed: int) -> int:
    """Card points ``dealer`` takes with ``suit`` when basic plays every seat."""
    g = Game.after_auction(hands, kitty, rs, dealer, rs.bid_min)
    ais = [BasicAI(AISettings(seat=s, seed=seed + s)) for s in range(rs.players)]
    g.apply(ChooseTrump(dealer, suit))
    v = g.view(dealer)
    g.apply(Bury(dealer, tuple(ais[dealer].choose_bury(v, v.bury_count))))
    while g.phase is Phase.PLAY:
        s = g.to_act
        v = g.view(s)
        g.apply(Play(s, tuple(ais[s].choose_play(v, v.play_options()))))
    st = g.settlement
    return st.dealer_final + st.bid


def generate(decks: int, deals: int, seed: int, out: str, tried: int = TRUMPS_TRIED) -> None:
    rs = hongwu(decks)
    X, R, Y, K = [], [], [], []
    t0 = time.perf_counter()
    for i in range(deals):
        g0 = Game.new(rs, seed=seed * 1_000_003 + i)
        hands = [list(g0.hands[s]) for s in range(rs.players)]
        kitty = list(g0.kitty)
        targets = [expected_points(best_trump([int(c) for c in h])[1], rs) for h in hands]
        for dealer in range(rs.players):
            hand = [int(c) for c in hands[dealer]]
            suits = sorted("SHCD", key=lambda s: -hand_strength(hand, s))[:tried]
            others = [targets[s] for s in range(rs.players) if s != dealer]
            for k, suit in enumerate(suits):
                pts = play_as_dealer(hands, kitty, rs, dealer, suit, seed + i * 17 + dealer)
                X.append(features(hand, suit))
                R.append(others)
                Y.append(pts)
                K.append(k)
        if (i + 1) % 100 == 0:
            print(f"{decks} decks: {i + 1}/{deals} deals, {time.perf_counter() - t0:.0f} s", file=sys.stderr)
    Path(out).write_text(json.dumps({"decks": decks, "seed": seed, "X": X, "R": R, "Y": Y, "K": K}),
                         encoding="utf-8")


def design(d, bid_min: int) -> tuple[list[list[float]], list[float]]:
    """Rows with the ``rival`` feature filled in, and the targets."""
    j = FEATURE_NAMES.index("rival")
    X = []
    for row, r in zip(d["X"], d["R"]):
        row = list(row)
        row[j] = max(0.0, max(r) - bid_min)
        X.append(row)
    return X, [float(y) for y in d["Y"]]


def lstsq(X: list[list[float]], y: list[float], ridge: float = 20.0) -> list[float]:
    """Ridge least squares (no ridge on the constant, column 0) by Gaussian elimination."""
    m = len(X[0])
    A = [[0.0] * m for _ in range(m)]
    b = [0.0] * m
    for row, t in zip(X, y):
        for i, xi in enumerate(row):
            if xi:
                b[i] += xi * t
                Ai = A[i]
                for k, xk in enumerate(row):
                    Ai[k] += xi * xk
    for i in range(1, m):
        A[i][i] += ridge
    for col in range(m):  # elimination with partial pivoting
        piv = max(range(col, m), key=lambda r: abs(A[r][col]))
        A[col], A[piv] = A[piv], A[col]
        b[col], b[piv] = b[piv], b[col]
        for r in range(col + 1, m):
            f = A[r][col] / A[col][col]
            if f:
                for k in range(col, m):
                    A[r][k] -= f * A[col][k]
                b[r] -= f * b[col]
    w = [0.0] * m
    for i in range(m - 1, -1, -1):
        w[i] = (b[i] - sum(A[i][k] * w[k] for k in range(i + 1, m))) / A[i][i]
    return w


def dot(w: list[float], x: list[float]) -> float:
    return sum(a * b for a, b in zip(w, x))


def _mean(xs) -> float:
    xs = list(xs)
    return sum(xs) / len(xs)


def fit(data: list[str], out: Path) -> None:
    weights, report = {}, {}
    for spec in data:
        decks, path = spec.split("=", 1)
        rs = hongwu(int(decks))
        d = json.loads(Path(path).read_text(encoding="utf-8"))
        X, y = design(d, rs.bid_min)
        n = len(y)
        idx = list(range(n))
        random.Random(0).shuffle(idx)
        test, train = idx[: n // 5], idx[n // 5:]
        w = lstsq([X[i] for i in train], [y[i] for i in train])
        res_test = [y[i] - dot(w, X[i]) for i in test]
        w = lstsq(X, y)  # final fit on everything
        res = [t - dot(w, x) for x, t in zip(X, y)]
        ws = lstsq(X, [abs(r) * math.sqrt(math.pi / 2) for r in res])
        z = [r / max(10.0, dot(ws, x)) for r, x in zip(res, X)]
        unknown = {}
        for k in (1, 2, 3):
            unknown[str(k)] = _mean(max(max(0.0, v - rs.bid_min) for v in r[:k]) for r in d["R"])
        y_mean = _mean(y)
        weights[decks] = {"mean": [round(float(v), 5) for v in w], "sd": [round(float(v), 5) for v in ws],
                          "sd_min": 10.0, "rival_unknown": unknown}
        report[decks] = {"rows": n, "y_mean": round(y_mean, 2),
                         "y_sd": round(math.sqrt(_mean((t - y_mean) ** 2 for t in y)), 2),
                         "holdout_rmse": round(math.sqrt(_mean(r * r for r in res_test)), 2),
                         "fit_rmse": round(math.sqrt(_mean(r * r for r in res)), 2),
                         "z_sd": round(math.sqrt(_mean(v * v for v in z)), 3)}
        print(decks, report[decks], file=sys.stderr)
        for name, v in zip(FEATURE_NAMES, w):
            print(f"  {name:>14} {v:8.2f}", file=sys.stderr)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({"features": list(FEATURE_NAMES), "weights": weights, "fit": report,
                               "made_by": "tools/train_bid_model.py"}, indent=1) + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    g = sub.add_parser("generate")
    g.add_argument("--decks", type=int, default=2)
    g.add_argument("--deals", type=int, default=2000)
    g.add_argument("--seed", type=int, default=1)
    g.add_argument("--trumps", type=int, default=TRUMPS_TRIED, help="best suits tried per dealer")
    g.add_argument("--out", required=True)
    f = sub.add_parser("fit")
    f.add_argument("--data", action="append", required=True, help="DECKS=FILE.json")
    f.add_argument("--out", type=Path, default=OUT)
    ns = p.parse_args(argv)
    if ns.cmd == "generate":
        generate(ns.decks, ns.deals, ns.seed, ns.out, ns.trumps)
    else:
        fit(ns.data, ns.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
