"""Decision quality of the ``expert`` play search against a fixed reference (红五).

``--build FILE``: plays ``--deals`` deals with ``basic`` in every seat; at every play decision
of one seat per deal (seat = deal number mod 4) with at least two candidates and more than one
trick left, each of ``basic``'s best six plays (``--candidates``) is tried in the *real*
position and the hand is finished by ``basic`` in every seat; the seat's game points and card
points (the dealer's final, RULES.md §10, signed for the seat's side) are kept per candidate
(pickled to FILE with the position; about 30 s for 400 two-deck deals). ``--eval FILE``: lets
the expert search (``--samples`` sampled worlds, expert options from ``--option KEY=VALUE``;
``candidates=K`` lets it compare only the first K of them)
choose among the same candidates under each gate of ``--confidence`` (standard errors) ×
``--margin`` (least mean advantage, game points; see ``expert.pick``), and prints for each the
mean gain in game points and in card points per decision over ``basic``'s first choice, with 95%
intervals, how often it switched, and the best gain an oracle choosing per position could have
(an upper bound inflated by the noise of one continuation a candidate), for all decisions and
split into the dealer's and the defenders' (``--role`` scores only one of them). ``--json FILE``
keeps each decision's gain per gate; ``--paired A B`` prints B's gain minus A's on the same
positions with its 95% interval (two variants scored on one pickle are paired decision by
decision, so their difference is measured far more precisely than either gain). ``--real-world``
is a diagnostic: the search plays its candidates out on the real deal instead of sampled worlds
(what it would choose if it could see every hand), which separates the play-out's error from the
sampling's. ``--no-prune`` plays every candidate out in every world (none dropped early), so
that all gates score the same play-outs. Each gate's lines also split the gain by kind of
decision: the dealer's and the defenders' leads and follows.

    PYTHONPATH=. python benchmarks/play_decisions.py --build /tmp/pos.pkl --deals 400 --seed 7100
    PYTHONPATH=. python benchmarks/play_decisions.py --eval /tmp/pos.pkl --samples 30 --confidence 0,0.5,1 --margin 0,0.5
    PYTHONPATH=. python benchmarks/play_decisions.py --eval /tmp/pos.pkl --samples 30 --option tractors=1
    PYTHONPATH=. python benchmarks/play_decisions.py --eval /tmp/pos.pkl --json /tmp/a.json
    PYTHONPATH=. python benchmarks/play_decisions.py --eval /tmp/pos.pkl --option public=1 --json /tmp/b.json
    PYTHONPATH=. python benchmarks/play_decisions.py --paired /tmp/a.json /tmp/b.json
    PYTHONPATH=. python benchmarks/play_decisions.py --revalue /tmp/pos.pkl /tmp/pos_hwc.pkl --finisher hw_counter --plugin-dir docs/examples
    PYTHONPATH=. python benchmarks/play_decisions.py --transfer /tmp/pos.pkl /tmp/pos_hwc.pkl

``--revalue SRC DST --finisher NAME`` keeps SRC's positions and candidates and values every
candidate again with the AI ``NAME`` finishing the hand in every seat (any registered AI;
``--plugin-dir`` for drop-in ones such as ``docs/examples``), so that ``--eval DST`` scores the
search against a reference that does not play like ``basic``. ``--transfer A B [C ...]``
(pickles of the same positions valued by different finishers) prints how far the references
agree: per pair, the correlation of the candidates' differences from ``basic``'s first choice
and what each reference's best candidate gains when scored by the other (the part of an oracle's
gain that is not particular to one way of finishing a hand); with three or more, what the
candidate best by the mean of the other references gains in each.

A measurement script: nothing is asserted. The pickle is a local cache, not a data file.
"""
from __future__ import annotations

import argparse
import json
import pickle
import statistics
import sys
import time
from pathlib import Path
from typing import Sequence
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))  # finisher_transfer, also when loaded by path

from ai_plugins.base import AISettings  # noqa: E402
from ai_plugins.builtin import expert as E  # noqa: E402
from ai_plugins.builtin.basic import auctioned  # noqa: E402
from ai_plugins.builtin.simulate import play_with  # noqa: E402
from ai_plugins.ratings import ci95_half_width  # noqa: E402
from engine.ruleset import hongwu  # noqa: E402
from engine.state import Phase, Play  # noqa: E402
from finisher_transfer import add_arguments, best_choices, consensus_choices, load_valuations, scored  # noqa: E402


def candidate_values(g, s: int, cands, ais) -> tuple[list[int], list[int]]:
    """``(game points, card points)`` for seat ``s`` of each play of ``cands`` made in a copy
    of ``g`` and finished by ``ais`` on every seat (card points: the dealer's final, RULES.md
    §10, signed for ``s``'s side)."""
    vals, cps = [], []
    for c in cands:
        h = g.clone()
        h.apply(Play(s, c))
        st = play_with(h, ais)
        vals.append(st.game_points[s])
        cps.append(st.dealer_final if s == st.dealer else -st.dealer_final)
    return vals, cps


def build(path: str, decks: int, deals: int, seed: int, candidates: int = 6) -> None:
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
                cands = [p for _, p in ais[s].ranked_plays(v, o)[:candidates]]
                if len(cands) > 1 and len(v.hand) > len(cands[0]):
                    positions.append((g.clone(), s, cands, *candidate_values(g, s, cands, ais)))
            g.apply(Play(s, tuple(ais[s].choose_play(v, o))))
        print(f"deal {d}: {len(positions)} positions", file=sys.stderr, flush=True)
    with open(path, "wb") as f:
        pickle.dump(positions, f)


KINDS = ("dealer leads", "dealer follows", "defender leads", "defender follows")
"""The kinds of decision each gate's gain is split into (:func:`decision_kind`)."""


def revalue(src: str, dst: str, finisher: str, plugin_dirs: list[str]) -> None:
    """Write to ``dst`` the positions of ``src`` with every candidate valued again by
    ``finisher`` (an AI name) playing the hand out in every seat (seeded by seat)."""
    from ai_plugins.manager import AIManager

    manager = AIManager(plugin_dirs, user_dir=False, entry_points=False)
    with open(src, "rb") as f:
        positions = pickle.load(f)
    out = []
    t0 = time.perf_counter()
    for i, (g, s, cands, _vals, _cps) in enumerate(positions):
        ais = [manager.create(finisher, AISettings(seat=k, seed=k)) for k in range(g.ruleset.players)]
        out.append((g.clone(), s, cands, *candidate_values(g, s, cands, ais)))
        if i % 500 == 0:
            print(f"{i} positions, {time.perf_counter() - t0:.0f} s", file=sys.stderr, flush=True)
    with open(dst, "wb") as f:
        pickle.dump(out, f)


def transfer(paths: Sequence[str]) -> None:
    """Print how far valuations of the same positions and candidates (two or more pickles,
    each by another finisher) agree (see the module docstring, ``--transfer``): per pair, the
    correlation of the candidates' differences from the first candidate and each reference's
    best candidate scored by the other; with three or more, per file, the candidate best by the
    mean of all the *other* files scored by this one."""
    refs = load_valuations(paths, "positions")
    for i in range(len(refs)):
        for j in range(i + 1, len(refs)):
            a, b = refs[i], refs[j]
            print(f"{paths[i]} and {paths[j]}:")
            for label, idx in (("game points", 3), ("card points", 4)):
                da = [x[idx][k] - x[idx][0] for x in a for k in range(1, len(x[2]))]
                db = [y[idx][k] - y[idx][0] for y in b for k in range(1, len(y[2]))]
                print(f"  {label}: correlation of the candidates' differences "
                      f"{statistics.correlation(da, db):+.3f} ({len(da)} candidates)")
            for name, ref, other in ((paths[i], a, b), (paths[j], b, a)):
                own = scored(ref, best_choices(ref))
                cross = scored(other, best_choices(ref))
                print(f"  {name}: oracle {statistics.fmean(own):+.3f} game points a decision on its own "
                      f"values, {statistics.fmean(cross):+.3f} ± {ci95_half_width(cross):.3f} scored by the other")
    if len(refs) < 3:
        return
    for i, ref in enumerate(refs):
        others = [r for j, r in enumerate(refs) if j != i]
        gains = scored(ref, consensus_choices(others))
        print(f"{paths[i]}: the best candidate by the other {len(others)} files' mean gains "
              f"{statistics.fmean(gains):+.3f} ± {ci95_half_width(gains):.3f} game points a decision here")


def decision_kind(game, seat: int) -> str:
    """One of :data:`KINDS` for ``seat``'s play decision in ``game``: the dealer's or a
    defender's, leading (no trick in progress) or following."""
    return f"{'dealer' if seat == game.dealer else 'defender'} {'follows' if game.current else 'leads'}"


def evaluate(path: str, samples: int, confs: list[float], margins: list[float],
             options: dict[str, str], role: str = "all", out: str | None = None,
             real_world: bool = False, limit: int | None = None, prune: bool = True) -> None:
    with open(path, "rb") as f:
        positions = pickle.load(f)
    if limit:  # a quick screen: the first positions only
        positions = positions[:limit]
    if role != "all":  # only the dealer's decisions, or only the defenders'
        positions = [p for p in positions if (p[1] == p[0].dealer) is (role == "dealer")]
    if len(positions) < 2:
        raise SystemExit(f"{path}: fewer than two positions to score ({role})")
    gates = [(c, m) for c in confs for m in margins]
    gains = {gate: [] for gate in gates}
    cp_gains = {gate: [] for gate in gates}
    switched = {gate: 0 for gate in gates}
    oracle = []
    dealer = []
    kinds = []
    t0 = time.perf_counter()
    for i, (g, s, cands, vals, cps) in enumerate(positions):
        dealer.append(s == g.dealer)
        kinds.append(decision_kind(g, s))
        ex = E.ExpertAI(AISettings(seat=s, seed=i, options={"samples": samples, **options}))
        searched = list(cands[:ex.play_candidates])  # the option candidates=K compares fewer
        if real_world:  # a diagnostic: every "sampled" world is the real deal
            with mock.patch.object(E, "sample_world", lambda view, rng, g=g, **kw: g.clone()):
                rows, used = ex._search(g.view(s), searched)
        elif not prune:  # every candidate in every world
            rows, used = ex._play_rows(g.view(s), searched, prune=False), searched
        else:
            rows, used = ex._search(g.view(s), searched)
        for gate in gates:
            k = cands.index(used[E.pick(rows, gate[0], margin=gate[1])])
            switched[gate] += k != 0
            gains[gate].append(vals[k] - vals[0])
            cp_gains[gate].append(cps[k] - cps[0])
        oracle.append(max(vals) - vals[0])
    if out:  # per-decision gains, for --paired
        with open(out, "w", encoding="utf-8") as f:
            json.dump({"positions": path, "role": role, "samples": samples, "options": options, "limit": limit,
                       "gains": {f"{c},{m}": gains[(c, m)] for c, m in gates}}, f)
    for gate in gates:
        d, e = gains[gate], cp_gains[gate]
        print(f"samples {samples}, confidence {gate[0]}, margin {gate[1]}: {len(d)} decisions, "
              f"switched {switched[gate]}, gain {statistics.fmean(d):+.3f} ± {ci95_half_width(d):.3f} game "
              f"points a decision, {statistics.fmean(e):+.2f} ± {ci95_half_width(e):.2f} card points "
              f"(oracle {statistics.fmean(oracle):+.3f}); {time.perf_counter() - t0:.0f} s")
        for side, is_dealer in (("dealer", True), ("defenders", False)):
            r = [x for x, dl in zip(d, dealer) if dl is is_dealer]
            q = [x for x, dl in zip(e, dealer) if dl is is_dealer]
            if len(r) > 1:
                print(f"    {side}: {len(r)} decisions, gain {statistics.fmean(r):+.3f} ± {ci95_half_width(r):.3f} "
                      f"game points, {statistics.fmean(q):+.2f} ± {ci95_half_width(q):.2f} card points")
        for kind in KINDS:
            r = [x for x, k in zip(d, kinds) if k == kind]
            if len(r) > 1:
                print(f"    {kind}: {len(r)} decisions, gain {statistics.fmean(r):+.3f} ± {ci95_half_width(r):.3f}")


def paired(a_path: str, b_path: str) -> None:
    """Print, for every gate both files hold, the per-decision gain of ``b`` minus ``a`` on
    the same positions (files of ``--eval ... --json``) with its 95% interval."""
    with open(a_path, encoding="utf-8") as f:
        a = json.load(f)
    with open(b_path, encoding="utf-8") as f:
        b = json.load(f)
    if (a["positions"], a["role"], a.get("limit")) != (b["positions"], b["role"], b.get("limit")):
        raise SystemExit("the two files score different positions")
    for gate, ga in a["gains"].items():
        gb = b["gains"].get(gate)
        if gb is None:
            continue
        d = [y - x for x, y in zip(ga, gb)]
        print(f"gate {gate}: {b['options'] or 'default'} minus {a['options'] or 'default'}: "
              f"{statistics.fmean(d):+.3f} ± {ci95_half_width(d):.3f} game points a decision "
              f"({len(d)} decisions, {sum(1 for x in d if x)} differ)")


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--build")
    p.add_argument("--eval")
    p.add_argument("--decks", type=int, choices=(2, 3), default=2)
    p.add_argument("--deals", type=int, default=60)
    p.add_argument("--seed", type=int, default=5000)
    p.add_argument("--samples", type=int, default=20)
    p.add_argument("--candidates", type=int, default=6,
                   help="with --build: how many of basic's best plays are kept and valued (default 6)")
    p.add_argument("--confidence", default=str(E.PLAY_CONFIDENCE))
    p.add_argument("--margin", default="0",
                   help="comma-separated minimum mean advantages (utility units) to try")
    p.add_argument("--role", choices=("all", "dealer", "defenders"), default="all",
                   help="score only the dealer's or only the defenders' decisions")
    p.add_argument("--real-world", action="store_true",
                   help="diagnostic: the search plays out the real deal instead of sampled worlds")
    p.add_argument("--no-prune", action="store_true",
                   help="with --eval: play every candidate out in every world (no pruning)")
    p.add_argument("--limit", type=int, help="with --eval: score only the first LIMIT positions")
    p.add_argument("--json", help="with --eval: write each decision's gain per gate to this file")
    p.add_argument("--paired", nargs=2, metavar=("A", "B"),
                   help="compare two --json files of the same positions: B's gain minus A's")
    p.add_argument("--option", action="append", default=[],
                   help="expert option KEY=VALUE for the search (repeatable)")
    add_arguments(p, "positions")
    ns = p.parse_args(argv)
    if ns.revalue:
        revalue(*ns.revalue, ns.finisher, ns.plugin_dir)
    if ns.transfer:
        if len(ns.transfer) < 2:
            p.error("--transfer needs two or more files")
        transfer(ns.transfer)
    if ns.build:
        build(ns.build, ns.decks, ns.deals, ns.seed, ns.candidates)
    if ns.eval:
        options = dict(o.split("=", 1) for o in ns.option)
        evaluate(ns.eval, ns.samples, [float(x) for x in ns.confidence.split(",")],
                 [float(x) for x in ns.margin.split(",")], options, ns.role, ns.json, ns.real_world,
                 ns.limit, not ns.no_prune)
    if ns.paired:
        paired(*ns.paired)
    if not (ns.build or ns.eval or ns.paired or ns.revalue or ns.transfer):
        p.error("give --build FILE and/or --eval FILE, or --paired A B, --revalue SRC DST, --transfer A B [C ...]")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
