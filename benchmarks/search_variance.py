"""Can a cheaper estimate or a balanced choice of worlds steady the dealer's play search?

The `expert` dealer's play search (two decks, ``dealer_time``: 300 ms a decision at 100 ms)
finishes each of its candidates in each sampled world with the hybrid finish (``basic`` on
every seat for ``expert.FINISH_TRICKS`` tricks, then the calibrated lean play-out) and sees
about seven worlds early in a hand; docs/EXPERT_NOTES.md "Tried after 2.1" found that twice
the worlds would gain. This script measures, from real positions where the dealer is to play
(``basic`` bid, buried and played the first tricks on every seat; seeds ``--seed``..), what two
classic ways of getting more from the same play-outs would have to work with:

- **A control variate.** If the paired difference of two candidates in a world under a cheap
  finish (the lean play-out alone, or the hybrid with fewer ``basic`` tricks) moved with the
  hybrid's, many cheap worlds could correct the few dear ones. Printed per cheap finish: the
  mean correlation across worlds of the two paired differences (candidate k minus ``basic``'s
  first choice, every k), and the variance of the hybrid difference, of the cheap one and of
  their gap. A control variate pays only when the gap's variance is well below the hybrid's.
- **Balanced worlds.** Each sampled world is followed by the two worlds that pass the three
  defenders' hands round (where their hand sizes are equal and the voids shown allow it,
  else fresh samples), so every hidden card visits each defender. Printed: the variance of
  the mean difference over such a triple against three independent worlds; below 1 the
  balance helps.

A measurement script: nothing is asserted, ``--json`` writes the figures. Run:

    python benchmarks/search_variance.py [--positions 30] [--worlds 12] [--seed 5000] \\
        [--finish-tricks 1,3] [--triples 5] [--json FILE]

Each position costs a few seconds of one core (hybrid finishes of six candidates).
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ai_plugins.base import AISettings  # noqa: E402
from ai_plugins.builtin.expert import MAX_CANDIDATES, ExpertAI  # noqa: E402
from ai_plugins.builtin.knowledge import Knowledge  # noqa: E402
from ai_plugins.builtin.simulate import _game_at, sample_world  # noqa: E402
from ai_plugins.runner import SafePlayer, basic_position  # noqa: E402
from engine.ruleset import hongwu  # noqa: E402


def dealer_positions(count: int, seed: int, decks: int = 2) -> list[Any]:
    """``count`` play-phase games (seeds ``seed``..) with the dealer to play and two
    candidates at least: ``basic`` on every seat through the auction, the bury and
    ``seed % 8`` tricks, then on until the dealer's turn (within the trick). RuntimeError if
    50 × ``count`` deals do not give them."""
    out: list[Any] = []
    s = seed
    while len(out) < count:
        if s - seed >= 50 * count:  # a bound: nearly every deal gives one
            raise RuntimeError(f"only {len(out)} dealer decisions in {s - seed} deals")
        game = basic_position(hongwu(decks), s, (s - seed) % 8)
        players = [SafePlayer(None, "basic", p, seed=s + p) for p in range(game.ruleset.players)]
        s += 1
        for _ in range(game.ruleset.players):
            if game.is_over or game.to_act == game.dealer:
                break
            game.apply(players[game.to_act].act(game.view(game.to_act)))
        if game.is_over or game.to_act != game.dealer:
            continue
        view = game.view(game.dealer)
        if len(candidates(view)) >= 2:
            out.append(game)
    return out


def candidates(view: Any) -> list[tuple[Any, ...]]:
    """The expert's candidates of a play decision: the plays ``basic`` ranks first, at most
    ``expert.MAX_CANDIDATES`` of them, its first choice first."""
    ai = ExpertAI(AISettings(seat=view.seat, seed=0, options={"samples": 1}))
    return [p for _, p in ai.basic.ranked_plays(view, view.play_options())[:MAX_CANDIDATES]]


def _diffs(rows: list[list[float]], k: int) -> list[float]:
    """Paired differences candidate ``k`` minus candidate 0, one per world."""
    return [r[k] - r[0] for r in rows]


def rotated(view: Any, world: Any, r: int) -> Any | None:
    """``world`` with the defenders' hands passed ``r`` places round (in seat order), or None
    when their hand sizes differ or a hand would break a void shown (RULES.md §8)."""
    defenders = [s for s in range(len(view.hand_sizes)) if s != view.dealer]
    if len({view.hand_sizes[s] for s in defenders}) != 1:
        return None
    voids = Knowledge.from_view(view).voids
    sx = view.ctx.SUITX
    hands = [list(h) for h in world.hands]
    new = [list(h) for h in hands]
    for i, s in enumerate(defenders):
        new[s] = list(hands[defenders[(i + r) % len(defenders)]])
        if any(sx[c] in voids[s] for c in new[s]):
            return None
    return _game_at(view, new, tuple(view.buried))


def measure(games: list[Any], worlds: int, finish_tricks: list[int], triples: int,
            seed: int) -> dict[str, Any]:
    """The figures described in the module docstring over ``games`` (dealer to play):
    ``{"cheap": {name: {"pairs", "corr", "var_hybrid", "var_cheap", "var_gap"}},
    "balanced": {"pairs", "var_balanced", "var_independent", "ratio"}}`` (variances in
    squared game points of the dealer's utility, RULES.md §10)."""
    cheap: dict[str, dict[str, list[float]]] = {}
    bal, ind = [], []
    for i, game in enumerate(games):
        view = game.view(game.dealer)
        # the option set, so that the dealer's searches play ai.finish_tricks tricks (without it
        # they play expert.DEALER_FINISH_TRICKS whatever the attribute says)
        ai = ExpertAI(AISettings(seat=game.dealer, seed=seed + i, options={"samples": 1, "finish_tricks": 6}))
        cands = candidates(view)
        me = game.dealer
        sampled = [sample_world(view, ai.rng, prior=True) for _ in range(worlds)]
        ai.finish_tricks = 6
        hybrid = [ai._hybrid_outcomes(w, cands, me) for w in sampled]
        others: dict[str, list[list[float]]] = {
            "lean": [ai._play_outcomes(w, cands, me, finish_kind="lean") for w in sampled]}
        for t in finish_tricks:
            ai.finish_tricks = t
            others[f"hybrid, {t} basic tricks"] = [ai._hybrid_outcomes(w, cands, me) for w in sampled]
        ai.finish_tricks = 6
        for name, rows in others.items():
            acc = cheap.setdefault(name, {"corr": [], "var_hybrid": [], "var_cheap": [], "var_gap": []})
            for k in range(1, len(cands)):
                dh, dc = _diffs(hybrid, k), _diffs(rows, k)
                if statistics.pstdev(dh) > 0 and statistics.pstdev(dc) > 0:
                    acc["corr"].append(statistics.correlation(dh, dc))
                    acc["var_hybrid"].append(statistics.variance(dh))
                    acc["var_cheap"].append(statistics.variance(dc))
                    acc["var_gap"].append(statistics.variance([a - b for a, b in zip(dh, dc)]))
        trip_b, trip_i = [], []
        for _ in range(triples):
            w = sample_world(view, ai.rng, prior=True)
            group = [w] + [rotated(view, w, r) or sample_world(view, ai.rng, prior=True) for r in (1, 2)]
            trip_b.append([ai._hybrid_outcomes(x, cands, me) for x in group])
            trip_i.append([ai._hybrid_outcomes(sample_world(view, ai.rng, prior=True), cands, me)
                           for _ in range(3)])
        if triples >= 2:
            for k in range(1, len(cands)):
                bal.append(statistics.variance([statistics.fmean(_diffs(t, k)) for t in trip_b]))
                ind.append(statistics.variance([statistics.fmean(_diffs(t, k)) for t in trip_i]))
    out: dict[str, Any] = {"positions": len(games), "worlds": worlds, "cheap": {}, "balanced": None}
    for name, acc in cheap.items():
        out["cheap"][name] = {"pairs": len(acc["corr"])} | {
            key: statistics.fmean(v) if v else float("nan") for key, v in acc.items()}
    if bal:
        vb, vi = statistics.fmean(bal), statistics.fmean(ind)
        out["balanced"] = {"pairs": len(bal), "var_balanced": vb, "var_independent": vi,
                           "ratio": vb / vi if vi else float("nan")}
    return out


def main(argv: list[str] | None = None) -> int:
    """Measure and print (see the module docstring)."""
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--positions", type=int, default=30)
    p.add_argument("--worlds", type=int, default=12, help="worlds per position for the correlations")
    p.add_argument("--seed", type=int, default=5000)
    p.add_argument("--finish-tricks", default="1,3",
                   help="comma-separated basic tricks of the cheaper hybrid finishes compared")
    p.add_argument("--triples", type=int, default=5, help="balanced and independent triples per position")
    p.add_argument("--json", default=None)
    ns = p.parse_args(argv)
    tricks = [int(x) for x in ns.finish_tricks.split(",") if x.strip()]
    games = dealer_positions(ns.positions, ns.seed)
    res = measure(games, ns.worlds, tricks, ns.triples, ns.seed)
    print(f"{res['positions']} dealer decisions, {ns.worlds} worlds each, two decks, seed {ns.seed}")
    for name, r in res["cheap"].items():
        print(f"  {name}: correlation with the hybrid's paired differences {r['corr']:+.2f} "
              f"({r['pairs']} candidate pairs); variance hybrid {r['var_hybrid']:.1f}, "
              f"{name} {r['var_cheap']:.1f}, their gap {r['var_gap']:.1f}")
    if res["balanced"]:
        b = res["balanced"]
        print(f"  balanced worlds: variance of a triple's mean {b['var_balanced']:.1f} against "
              f"{b['var_independent']:.1f} for three independent worlds (ratio {b['ratio']:.2f}, "
              f"{b['pairs']} candidate pairs)")
    if ns.json:
        Path(ns.json).write_text(json.dumps(res, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
