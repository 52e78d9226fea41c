"""Decision quality of the ``expert`` play search against a fixed reference (红五).

``--build FILE``: plays ``--deals`` deals with ``basic`` in every seat; at every play decision
of one seat per deal (seat = deal number mod 4) with at least two candidates and more than one
trick left, each of ``basic``'s best six plays is tried in the *real* position and the hand is
finished by ``basic`` in every seat; the seat's game points are kept per candidate (pickled to
FILE with the position). ``--eval FILE``: lets the expert search (``--samples`` sampled worlds,
each gate in ``--confidence``) choose among the same candidates, and prints the mean gain in
game points per decision over ``basic``'s first choice, with a 95% interval, how often it
switched, and the best gain an oracle choosing per position could have (an upper bound
inflated by the noise of one continuation a candidate).

    PYTHONPATH=. python benchmarks/play_decisions.py --build /tmp/pos.pkl --deals 60 --seed 5000
    PYTHONPATH=. python benchmarks/play_decisions.py --eval /tmp/pos.pkl --samples 20 --confidence 0.5,1,2.5

A measurement script: nothing is asserted. The pickle is a local cache, not a data file.
"""
from __future__ import annotations

import argparse
import pickle
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ai_plugins.base import AISettings  # noqa: E402
from ai_plugins.builtin import expert as E  # noqa: E402
from ai_plugins.builtin.basic import auctioned  # noqa: E402
from engine.ruleset import hongwu  # noqa: E402
from engine.state import Game, Phase, Play  # noqa: E402


def _finish(g: Game, ais) -> object:
    while g.phase is Phase.PLAY:
        s = g.to_act
        v = g.view(s)
        g.apply(Play(s, tuple(ais[s].choose_play(v, g.play_options(s)))))
    return g.settlement


def build(path: str, decks: int, deals: int, seed: int) -> None:
    rs = hongwu(decks)
    positions = []
    for d in range(deals):
        g, ais = auctioned(rs, seed + d, ai_seed=0)
        me = d % rs.players
        while g.phase is Phase.PLAY:
            s = g.to_act
            v = g.view(s)
            o = g.play_options(s)
            if s == me:
                cands = [p for _, p in ais[s].ranked_plays(v, o)[:6]]
                if len(cands) > 1 and len(v.hand) > len(cands[0]):
                    vals = []
                    for c in cands:
                        h = g.clone()
                        h.apply(Play(s, c))
                        vals.append(_finish(h, ais).game_points[s])
                    positions.append((g.clone(), s, cands, vals))
            g.apply(Play(s, tuple(ais[s].choose_play(v, o))))
        print(f"deal {d}: {len(positions)} positions", file=sys.stderr, flush=True)
    with open(path, "wb") as f:
        pickle.dump(positions, f)


def evaluate(path: str, samples: int, confs: list[float]) -> None:
    with open(path, "rb") as f:
        positions = pickle.load(f)
    gains = {c: [] for c in confs}
    switched = {c: 0 for c in confs}
    oracle = []
    t0 = time.perf_counter()
    for i, (g, s, cands, vals) in enumerate(positions):
        ex = E.ExpertAI(AISettings(seat=s, seed=i, options={"samples": samples}))
        rows = ex._play_rows(g.view(s), cands)
        for c in confs:
            k = E.pick(rows, c)
            switched[c] += k != 0
            gains[c].append(vals[k] - vals[0])
        oracle.append(max(vals) - vals[0])
    for c in confs:
        d = gains[c]
        half = 1.96 * statistics.stdev(d) / len(d) ** 0.5
        print(f"samples {samples}, confidence {c}: {len(d)} decisions, switched {switched[c]}, "
              f"gain {statistics.fmean(d):+.3f} ± {half:.3f} game points a decision "
              f"(oracle {statistics.fmean(oracle):+.3f}); {time.perf_counter() - t0:.0f} s")


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--build")
    p.add_argument("--eval")
    p.add_argument("--decks", type=int, choices=(2, 3), default=2)
    p.add_argument("--deals", type=int, default=60)
    p.add_argument("--seed", type=int, default=5000)
    p.add_argument("--samples", type=int, default=20)
    p.add_argument("--confidence", default=str(E.CONFIDENCE))
    ns = p.parse_args(argv)
    if ns.build:
        build(ns.build, ns.decks, ns.deals, ns.seed)
    if ns.eval:
        evaluate(ns.eval, ns.samples, [float(x) for x in ns.confidence.split(",")])
    if not (ns.build or ns.eval):
        p.error("give --build FILE and/or --eval FILE")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
