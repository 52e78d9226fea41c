"""Decision quality of the ``expert`` bury search against a fixed reference (红五, RULES.md §4).

``--build FILE``: deals ``--deals`` hands (seeds ``--seed``..), lets ``basic`` bid and name the
trump on every seat, and at the dealer's bury takes the expert's candidate buries
(``ExpertAI._bury_candidates``: ``basic``'s own, stored first as the baseline, and those of
``expert_bid.bury_candidates``, short side suits emptied, point cards kept or buried). Each
candidate is buried in the *real* deal and the hand finished by ``basic`` on every seat (two
play-out seeds, averaged); the dealer's game points (RULES.md §10) are kept per
candidate, pickled to FILE with the position (about a minute for 600 two-deck deals).
``--eval FILE``: lets the expert's bury search, with ``--samples`` sampled deals and the play-out
of ``--finish`` (the option ``bury_finish``: ``fast``, ``lean``, ``hybrid``, ``basic`` or ``auto``; more
options with ``--option KEY=VALUE``), choose among the same candidates from the dealer's own
view, and prints its mean gain in game points per bury over ``basic``'s bury with a 95%
interval, how often it chose another bury, and what an oracle choosing per position would gain
(an upper bound inflated by the noise of one deal per candidate). ``--json FILE`` keeps each
decision's gain; ``--paired A B`` prints B's gain minus A's on the same positions.
``--build`` with ``--weights W,W..`` also scores the candidates of more families of
``expert_bid.bury_candidates`` (those point weights), which the search does not see;
``--families FILE`` prints, per family (``--weights``, default the search's own), the mean
gain of its candidates, of its first one alone and of an oracle within it.

    PYTHONPATH=. python benchmarks/bury_decisions.py --build /tmp/bury2.pkl --deals 600 --seed 424242
    PYTHONPATH=. python benchmarks/bury_decisions.py --eval /tmp/bury2.pkl --finish fast --samples 30 --json /tmp/fast.json
    PYTHONPATH=. python benchmarks/bury_decisions.py --eval /tmp/bury2.pkl --finish lean --samples 120 --json /tmp/lean.json
    PYTHONPATH=. python benchmarks/bury_decisions.py --paired /tmp/fast.json /tmp/lean.json
    PYTHONPATH=. python benchmarks/bury_decisions.py --build /tmp/wide.pkl --deals 600 --weights 1.5,0.3,-1,-3
    PYTHONPATH=. python benchmarks/bury_decisions.py --families /tmp/wide.pkl --weights 1.5,0.3,-1,-3
    PYTHONPATH=. python benchmarks/bury_decisions.py --revalue /tmp/bury2.pkl /tmp/bury2_hwc.pkl --finisher hw_counter --plugin-dir docs/examples
    PYTHONPATH=. python benchmarks/bury_decisions.py --transfer /tmp/bury2.pkl /tmp/bury2_hwc.pkl /tmp/bury2_hwg.pkl

``--revalue SRC DST --finisher NAME`` keeps SRC's positions and candidates and values each
candidate again with the AI ``NAME`` playing the hand out on every seat (two seeds, averaged;
``--plugin-dir`` for drop-in AIs such as those of ``docs/examples``), so that ``--eval DST``
and ``--families DST`` score the buries against players that do not play like ``basic``.
``--transfer A B [C ...]`` (such valuations of the same buries) prints each one's oracle, what
each one's best candidate gains when scored by the others, and what the candidate best by the
mean of all the other files gains in each.

Sample counts stand in for thinking time: at ``--think-ms 100`` the bury searches for 500 ms
(``expert.BURY_THINK_SCALE``): with 1.4's six candidates about 30 deals with ``fast``
play-outs, 120 with ``lean`` and 16 with ``hybrid`` on one core of this machine; 1.6's
candidates (about eight a position with two decks, 3.6 with three) got a median of 7 ``fast``
or 33 ``lean`` deals with two decks and 8 ``fast`` or 89 ``lean`` with three, measured with
two other jobs on the two cores (docs/EXPERT_NOTES.md "`expert` 1.7"). A measurement script: nothing
is asserted. The pickle is a local cache, not a data file.
"""
from __future__ import annotations

import argparse
import json
import pickle
import statistics
import sys
from pathlib import Path
from typing import Sequence

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))  # finisher_transfer, also when loaded by path

from ai_plugins.base import AISettings  # noqa: E402
from ai_plugins.builtin.basic import BasicAI, keep_value  # noqa: E402
from ai_plugins.builtin.expert import BURY_FINISHES, ExpertAI  # noqa: E402
from ai_plugins.builtin.expert_bid import BURY_POINT_WEIGHTS, basic_play_out, bury_candidates  # noqa: E402
from ai_plugins.ratings import ci95_half_width  # noqa: E402
from engine.ruleset import hongwu  # noqa: E402
from engine.state import Bid, Bury, ChooseTrump, Game, Phase  # noqa: E402
from finisher_transfer import add_arguments, best_choices, consensus_choices, load_valuations, scored  # noqa: E402

TRUTH_SEEDS = 2
"""``basic`` play-outs of the real deal averaged per candidate."""


def at_bury(decks: int, seed: int):
    """The deal ``Game.new(hongwu(decks), seed=seed)`` after ``basic`` (seat s seeded
    ``seed + s``) bid and named the trump: ``(game at the dealer's bury, dealer seat)``."""
    rs = hongwu(decks)
    g = Game.new(rs, seed=seed)
    ais = [BasicAI(AISettings(seat=s, seed=seed + s)) for s in range(rs.players)]
    while g.phase in (Phase.BID, Phase.TRUMP):
        s = g.to_act
        v = g.view(s)
        if g.phase is Phase.BID:
            g.apply(Bid(s, ais[s].choose_bid(v, v.legal_bid_amounts) or None))
        else:
            g.apply(ChooseTrump(s, ais[s].choose_trump(v, "SHCD")))
    if g.phase is not Phase.BURY:  # pragma: no cover - every 红五 auction ends with a dealer
        raise RuntimeError(f"seed {seed}: no bury after the auction")
    return g, g.to_act


def bury_values(g: Game, me: int, cands: Sequence[tuple], finish) -> list[float]:
    """The dealer ``me``'s game points (RULES.md §10) for each bury of ``cands`` made in a copy
    of ``g`` and played out by ``finish(game, k)`` for k in ``range(TRUTH_SEEDS)``, averaged."""
    truth = []
    for cand in cands:
        points = []
        for k in range(TRUTH_SEEDS):
            h = g.clone()
            h.apply(Bury(me, cand))
            points.append(finish(h, k).game_points[me])
        truth.append(statistics.fmean(points))
    return truth


def basic_finish(game: Game, k: int):
    """``basic`` on every seat finishes ``game`` (play-out seed ``1000 + k``); its settlement."""
    basic_play_out(game, 1000 + k)
    return game.settlement


def build(path: str, decks: int, deals: int, seed: int, weights: Sequence[float] = ()) -> None:
    """Write the positions and each candidate's game points on the real deal to ``path``;
    ``weights``: point weights of more families of ``expert_bid.bury_candidates`` whose
    candidates are scored too (after the search's own, for ``--families``)."""
    out = []
    for d in range(deals):
        g, me = at_bury(decks, seed + d)
        v = g.view(me)
        ai = ExpertAI(AISettings(seat=me, options={"samples": 1}))
        cands = ai._bury_candidates(v, v.bury_count)
        own = tuple(sorted(ai.basic.choose_bury(v, v.bury_count)))
        cands = [own] + [c for c in cands if c != own]  # basic's bury first: the baseline
        if weights:
            cands += [c for c in bury_candidates(v, v.bury_count, keep_value, weights) if c not in cands]
        if len(cands) < 2:
            continue
        out.append((g, me, cands, bury_values(g, me, cands, basic_finish)))
    with open(path, "wb") as f:
        pickle.dump(out, f)
    print(f"{path}: {len(out)} buries of {deals} deals", file=sys.stderr)


def revalue(src: str, dst: str, finisher: str, plugin_dirs: Sequence[str]) -> None:
    """Write to ``dst`` the positions of ``src`` with each candidate bury valued again by
    ``finisher`` (an AI name) playing the real deal out on every seat, :data:`TRUTH_SEEDS`
    seeds averaged (the dealer's game points, RULES.md §10)."""
    from ai_plugins.manager import AIManager
    from ai_plugins.builtin.simulate import play_with

    manager = AIManager(plugin_dirs, user_dir=False, entry_points=False)
    with open(src, "rb") as f:
        positions = pickle.load(f)

    def finish(game: Game, k: int):
        ais = [manager.create(finisher, AISettings(seat=s, seed=1000 + k + s))
               for s in range(game.ruleset.players)]
        return play_with(game, ais)

    out = []
    for g, me, cands, _truth in positions:
        out.append((g.clone(), me, cands, bury_values(g, me, cands, finish)))
    with open(dst, "wb") as f:
        pickle.dump(out, f)
    print(f"{dst}: {len(out)} buries valued by {finisher}", file=sys.stderr)


def transfer(paths: Sequence[str]) -> None:
    """Print how far valuations of the same buries by different finishers agree (see the
    module docstring, ``--transfer``), in game points a bury over ``basic``'s."""
    refs = load_valuations(paths, "buries")
    for i, ref in enumerate(refs):
        line = [f"{paths[i]}: oracle {statistics.fmean(scored(ref, best_choices(ref))):+.2f}"]
        for j, other in enumerate(refs):
            if j != i:
                cross = scored(other, best_choices(ref))
                line.append(f"its choice scored by {paths[j]} {statistics.fmean(cross):+.2f} "
                            f"± {ci95_half_width(cross):.2f}")
        best = scored(ref, consensus_choices([r for j, r in enumerate(refs) if j != i]))
        line.append(f"the best by the others' mean scored here {statistics.fmean(best):+.2f} "
                    f"± {ci95_half_width(best):.2f}")
        print("; ".join(line))


def evaluate(path: str, finish: str, samples: int, options: dict, json_path: str | None) -> None:
    """Print the search's mean gain over ``basic``'s bury on the positions of ``path``."""
    with open(path, "rb") as f:
        positions = pickle.load(f)
    gains, best = [], []
    for i, (g, me, cands, truth) in enumerate(positions):
        v = g.view(me)
        opts = {**options, "samples": samples, "bury_finish": finish}
        ai = ExpertAI(AISettings(seat=me, seed=7 + i, options=opts))
        chosen = tuple(sorted(ai.choose_bury(v, v.bury_count)))
        gains.append(truth[cands.index(chosen)] - truth[0])
        best.append(max(truth) - truth[0])
    print(f"{finish}, {samples} samples, {options or 'default options'}: "
          f"{statistics.fmean(gains):+.3f} ± {ci95_half_width(gains):.3f} game points a bury over basic's "
          f"({len(gains)} buries, {sum(1 for x in gains if x)} changed the result); "
          f"oracle {statistics.fmean(best):+.3f}")
    if json_path:
        with open(json_path, "w", encoding="utf-8") as f:
            json.dump({"positions": path, "finish": finish, "samples": samples, "options": options,
                       "gains": gains}, f)


def families(path: str, weights: Sequence[float]) -> None:
    """Print, for each point weight of ``weights``, what the candidates of that family of
    ``expert_bid.bury_candidates`` gain over ``basic``'s bury on the positions of ``path``: on
    average, its first candidate (no side suit emptied) alone, and an oracle within it."""
    with open(path, "rb") as f:
        positions = pickle.load(f)
    print(f"{len(positions)} buries, {statistics.fmean(len(p[2]) for p in positions):.1f} candidates "
          f"each; oracle over all {statistics.fmean(max(p[3]) - p[3][0] for p in positions):+.2f}")
    for w in weights:
        mean, first, best = [], [], []
        for g, me, cands, truth in positions:
            v = g.view(me)
            idx = [cands.index(c) for c in bury_candidates(v, v.bury_count, keep_value, (w,)) if c in cands]
            if not idx:
                continue
            mean.append(statistics.fmean(truth[i] for i in idx) - truth[0])
            first.append(truth[idx[0]] - truth[0])
            best.append(max(truth[i] for i in idx) - truth[0])
        if not mean:
            print(f"weight {w:+.1f}: no candidate of this family was scored (build with --weights)")
            continue
        print(f"weight {w:+.1f}: family mean {statistics.fmean(mean):+.2f} ± {ci95_half_width(mean):.2f}, "
              f"its first candidate {statistics.fmean(first):+.2f} ± {ci95_half_width(first):.2f}, "
              f"oracle within it {statistics.fmean(best):+.2f} ({len(mean)} buries)")


def paired(a_path: str, b_path: str) -> None:
    """Print ``b``'s gain minus ``a``'s on the same positions with its 95% interval."""
    with open(a_path, encoding="utf-8") as f:
        a = json.load(f)
    with open(b_path, encoding="utf-8") as f:
        b = json.load(f)
    if a["positions"] != b["positions"] or len(a["gains"]) != len(b["gains"]):
        raise SystemExit("the two files score different positions")
    d = [y - x for x, y in zip(a["gains"], b["gains"])]
    print(f"{b['finish']} {b['samples']} minus {a['finish']} {a['samples']}: "
          f"{statistics.fmean(d):+.3f} ± {ci95_half_width(d):.3f} game points a bury "
          f"({len(d)} buries, {sum(1 for x in d if x)} differ)")


def main(argv=None) -> int:
    """Parse the command line (see the module docstring) and run."""
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--build")
    p.add_argument("--eval")
    p.add_argument("--decks", type=int, choices=(2, 3), default=2)
    p.add_argument("--deals", type=int, default=200)
    p.add_argument("--seed", type=int, default=424242)
    p.add_argument("--finish", choices=BURY_FINISHES, default="fast")
    p.add_argument("--samples", type=int, default=30)
    p.add_argument("--option", action="append", default=[],
                   help="expert option KEY=VALUE for the search (repeatable)")
    p.add_argument("--json", help="with --eval: write each bury's gain to this file")
    p.add_argument("--paired", nargs=2, metavar=("A", "B"),
                   help="compare two --json files of the same positions: B's gain minus A's")
    p.add_argument("--weights", help="point weights of bury families, comma-separated: with --build, "
                   "more families scored beside the search's; with --families, the families reported")
    p.add_argument("--families", metavar="FILE", help="per-family gains of a --build FILE")
    add_arguments(p, "buries")
    ns = p.parse_args(argv)
    if ns.transfer:
        if len(ns.transfer) < 2:
            p.error("--transfer needs two or more files")
        transfer(ns.transfer)
    if ns.revalue:
        revalue(*ns.revalue, ns.finisher, ns.plugin_dir)
    weights = [float(w) for w in ns.weights.split(",")] if ns.weights else []
    if ns.build:
        build(ns.build, ns.decks, ns.deals, ns.seed, weights)
    if ns.families:
        families(ns.families, weights or BURY_POINT_WEIGHTS)
    if ns.eval:
        evaluate(ns.eval, ns.finish, ns.samples, dict(o.split("=", 1) for o in ns.option), ns.json)
    if ns.paired:
        paired(*ns.paired)
    if not (ns.build or ns.eval or ns.paired or ns.families or ns.revalue or ns.transfer):
        p.error("give --build FILE and/or --eval FILE, or --paired A B, --families FILE, --revalue SRC DST")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
