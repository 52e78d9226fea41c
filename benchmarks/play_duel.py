"""Play strength alone: two AIs play the same 红五 deals after one shared auction.

The arena (``hongwu arena``) lets each AI bid for itself, so a deal's dealer and contract
differ between its line-ups, and most of the spread of its numbers comes from the auction.
Here the auction, the trump and the bury of every deal are made by ``basic`` for all seats
(RULES.md §2–§4), and only the play (§7–§9) is left to the two AIs, in the line-ups ABAB and
BABA from that same position: the dealer and its contract are the same in both, so the
per-deal difference measures play alone.

With ``--dealer-only`` A plays only the dealer's seat and B the three defenders, against B on
every seat from the same position: the difference in the dealer's game points measures A's
play as dealer alone (a dealer's play decisions are a quarter of a hand's and weigh three
times a defender's, RULES.md §10).

Usage::

    PYTHONPATH=. python benchmarks/play_duel.py --a expert --b basic --deals 40 --seed 5 \\
        [--decks 2] [--think-ms 100] [--samples N] [--plugin-dir DIR] [--dealer-only] \\
        [--json FILE]

Prints A's mean game points per seat-hand with a 95% interval over deals (B's is its
negative: every hand is zero-sum), A's mean as dealer and as defender, and the wall time;
with ``--dealer-only``, the mean change of the dealer's game points a deal with its interval.
``--json`` writes the per-deal figures (``{"a", "b", "decks", "seed", "first", "mode",
"per_deal"}``) for pairing two runs deal by deal.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ai_plugins.arena import deal_seed  # noqa: E402
from ai_plugins.base import AISettings  # noqa: E402
from ai_plugins.builtin.basic import BasicAI, auctioned as basic_auctioned  # noqa: E402
from ai_plugins.manager import AIManager  # noqa: E402
from ai_plugins.ratings import ci95_half_width  # noqa: E402
from engine.ruleset import hongwu  # noqa: E402
from engine.state import Game, IllegalAction, Phase, Play  # noqa: E402


def auctioned(rs, seed: int, ai_seed: int | None = None) -> Game:
    """Deal ``seed`` with basic's auction, trump and bury done: the play phase, first lead.
    Seat s's ``basic`` is seeded ``ai_seed + s`` (default ``seed + s``;
    :func:`ai_plugins.builtin.basic.auctioned`)."""
    return basic_auctioned(rs, seed, ai_seed)[0]


def play(start: Game, names, manager, seed: int, options: dict) -> tuple[tuple[int, ...], int]:
    """Play ``start`` (a copy) out with AI ``names[seat]`` per seat; (game points, dealer)."""
    g = start.clone()
    ais = [manager.create(n, AISettings(seat=s, seed=seed * 7 + s, options=dict(options)))
           for s, n in enumerate(names)]
    stand_in = BasicAI(AISettings(seat=0, seed=seed))
    while g.phase is Phase.PLAY:
        s = g.to_act
        v = g.view(s)
        try:
            g.apply(Play(s, tuple(ais[s].choose_play(v, g.play_options(s)))))
        except IllegalAction:
            print(f"illegal play by {names[s]}; basic stands in", file=sys.stderr)
            g.apply(Play(s, tuple(stand_in.choose_play(v, g.play_options(s)))))
    return g.settlement.game_points, g.dealer


def duel_deal(start: Game, ns: argparse.Namespace, manager, dseed: int, options: dict,
              as_dealer: list, as_def: list) -> float:
    """One deal of the duel: ``start`` (after ``basic``'s auction) played twice, A on the
    seats of the alternate line-ups (ABAB…, BABA…); A's seat-hands' game points are appended
    to ``as_dealer`` / ``as_def`` by role. Returns A's mean game points a seat-hand."""
    n = start.ruleset.players
    pts = []
    for j, lineup in enumerate(((0, 1) * (n // 2), (1, 0) * (n // 2))):
        names = [(ns.a, ns.b)[k] for k in lineup]
        gp, dealer = play(start, names, manager, dseed + j, options)
        for s in range(n):
            if lineup[s] == 0:
                pts.append(gp[s])
                (as_dealer if s == dealer else as_def).append(gp[s])
    return statistics.fmean(pts)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--a", required=True)
    p.add_argument("--b", default="basic")
    p.add_argument("--deals", type=int, default=40)
    p.add_argument("--seed", type=int, default=5)
    p.add_argument("--first", type=int, default=0, help="first deal index (default 0)")
    p.add_argument("--decks", type=int, choices=(2, 3), default=2)
    p.add_argument("--think-ms", type=int, default=100)
    p.add_argument("--samples", type=int, default=None)
    p.add_argument("--plugin-dir", action="append", default=[])
    p.add_argument("--dealer-only", action="store_true",
                   help="A plays only the dealer's seat, B the defenders; baseline B on every seat")
    p.add_argument("--json", default=None, help="write the per-deal figures to this file")
    ns = p.parse_args(argv)
    rs = hongwu(ns.decks)
    manager = AIManager(ns.plugin_dir, [], user_dir=False, entry_points=False)
    options = {"think_ms": ns.think_ms}
    if ns.samples:
        options["samples"] = ns.samples
    per_deal, as_dealer, as_def = [], [], []
    t0 = time.perf_counter()
    n = rs.players
    for d in range(ns.first, ns.first + ns.deals):
        dseed = deal_seed(ns.seed, d)
        start = auctioned(rs, dseed)
        if ns.dealer_only:
            dealer = start.dealer
            base = play(start, [ns.b] * n, manager, dseed, options)[0]
            names = [ns.a if s == dealer else ns.b for s in range(n)]
            gp = play(start, names, manager, dseed, options)[0]
            per_deal.append(gp[dealer] - base[dealer])
            as_dealer.append(gp[dealer])
        else:
            per_deal.append(duel_deal(start, ns, manager, dseed, options, as_dealer, as_def))
        if (d - ns.first + 1) % 10 == 0:
            m = statistics.fmean(per_deal)
            print(f"  {d - ns.first + 1} deals: {m:+.2f}", file=sys.stderr, flush=True)
    m = statistics.fmean(per_deal)
    half = ci95_half_width(per_deal) or 0.0
    if ns.json:
        with open(ns.json, "w", encoding="utf-8") as f:
            json.dump({"a": ns.a, "b": ns.b, "decks": ns.decks, "seed": ns.seed, "first": ns.first,
                       "mode": "dealer-only" if ns.dealer_only else "duel", "per_deal": per_deal}, f)
    setting = (f"{ns.a} vs {ns.b}: {ns.deals} deals (from {ns.first}), {ns.decks} decks, seed {ns.seed}, "
               f"think {ns.think_ms} ms" + (f", {ns.samples} samples" if ns.samples else ""))
    if ns.dealer_only:
        print(f"dealer-only duel {setting}")
        print(f"{ns.a} as dealer: {m:+.2f} ± {half:.2f} game points a dealt hand over {ns.b}'s play "
              f"(dealer's mean {statistics.fmean(as_dealer):+.2f}); {time.perf_counter() - t0:.0f} s")
        return 0
    print(f"play duel {setting}")
    print(f"{ns.a}: {m:+.2f} ± {half:.2f} game points per seat-hand "
          f"(as dealer {statistics.fmean(as_dealer):+.2f}, as defender {statistics.fmean(as_def):+.2f}); "
          f"{time.perf_counter() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
