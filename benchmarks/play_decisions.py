"""Decision quality of the ``expert`` play search against a fixed reference (红五).

``--build FILE``: plays ``--deals`` deals with ``basic`` in every seat; at every play decision
of one seat per deal (seat = deal number mod 4) with at least two candidates and more than one
trick left, each of ``basic``'s best six plays is tried in the *real* position and the hand is
finished by ``basic`` in every seat; the seat's game points and card points (the dealer's final,
RULES.md §10, signed for the seat's side) are kept per candidate (pickled to FILE with the
position; about 30 s for 400 two-deck deals). ``--eval FILE``: lets the expert search
(``--samples`` sampled worlds, expert options from ``--option KEY=VALUE``) choose among the same
candidates under each gate of ``--confidence`` (standard errors) × ``--margin`` (least mean
advantage, game points; see ``expert.pick``), and prints for each the mean gain in game points
and in card points per decision over ``basic``'s first choice, with 95% intervals, how often it
switched, and the best gain an oracle choosing per position could have (an upper bound inflated
by the noise of one continuation a candidate).

    PYTHONPATH=. python benchmarks/play_decisions.py --build /tmp/pos.pkl --deals 400 --seed 7100
    PYTHONPATH=. python benchmarks/play_decisions.py --eval /tmp/pos.pkl --samples 30 --confidence 0,0.5,1 --margin 0,0.5
    PYTHONPATH=. python benchmarks/play_decisions.py --eval /tmp/pos.pkl --samples 30 --option tractors=1

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
                    vals, cps = [], []
                    for c in cands:
                        h = g.clone()
                        h.apply(Play(s, c))
                        st = _finish(h, ais)
                        vals.append(st.game_points[s])
                        cps.append(st.dealer_final if s == st.dealer else -st.dealer_final)
                    positions.append((g.clone(), s, cands, vals, cps))
            g.apply(Play(s, tuple(ais[s].choose_play(v, o))))
        print(f"deal {d}: {len(positions)} positions", file=sys.stderr, flush=True)
    with open(path, "wb") as f:
        pickle.dump(positions, f)


def _half(d: list[float]) -> float:
    return 1.96 * statistics.stdev(d) / len(d) ** 0.5


def evaluate(path: str, samples: int, confs: list[float], margins: list[float],
             options: dict[str, str]) -> None:
    with open(path, "rb") as f:
        positions = pickle.load(f)
    gates = [(c, m) for c in confs for m in margins]
    gains = {gate: [] for gate in gates}
    cp_gains = {gate: [] for gate in gates}
    switched = {gate: 0 for gate in gates}
    oracle = []
    t0 = time.perf_counter()
    for i, (g, s, cands, vals, cps) in enumerate(positions):
        ex = E.ExpertAI(AISettings(seat=s, seed=i, options={"samples": samples, **options}))
        rows = ex._play_rows(g.view(s), cands)
        for gate in gates:
            k = E.pick(rows, gate[0], margin=gate[1])
            switched[gate] += k != 0
            gains[gate].append(vals[k] - vals[0])
            cp_gains[gate].append(cps[k] - cps[0])
        oracle.append(max(vals) - vals[0])
    for gate in gates:
        d, e = gains[gate], cp_gains[gate]
        print(f"samples {samples}, confidence {gate[0]}, margin {gate[1]}: {len(d)} decisions, "
              f"switched {switched[gate]}, gain {statistics.fmean(d):+.3f} ± {_half(d):.3f} game "
              f"points a decision, {statistics.fmean(e):+.2f} ± {_half(e):.2f} card points "
              f"(oracle {statistics.fmean(oracle):+.3f}); {time.perf_counter() - t0:.0f} s")


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--build")
    p.add_argument("--eval")
    p.add_argument("--decks", type=int, choices=(2, 3), default=2)
    p.add_argument("--deals", type=int, default=60)
    p.add_argument("--seed", type=int, default=5000)
    p.add_argument("--samples", type=int, default=20)
    p.add_argument("--confidence", default=str(E.PLAY_CONFIDENCE))
    p.add_argument("--margin", default="0",
                   help="comma-separated minimum mean advantages (utility units) to try")
    p.add_argument("--option", action="append", default=[],
                   help="expert option KEY=VALUE for the search (repeatable)")
    ns = p.parse_args(argv)
    if ns.build:
        build(ns.build, ns.decks, ns.deals, ns.seed)
    if ns.eval:
        options = dict(o.split("=", 1) for o in ns.option)
        evaluate(ns.eval, ns.samples, [float(x) for x in ns.confidence.split(",")],
                 [float(x) for x in ns.margin.split(",")], options)
    if not (ns.build or ns.eval):
        p.error("give --build FILE and/or --eval FILE")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
