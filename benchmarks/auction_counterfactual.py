"""What another auction would have made on deals already played (红五, RULES.md §2, §10).

Arena runs (``hongwu arena --json``) of one seed and deck count, whose A AIs bid differently
but play alike (say ``expert@play_bonus=0`` and ``expert@play_bonus=10`` against ``basic``),
together record, for most seats of most deals, what that seat took as dealer. This script
replays each deal's auction, line-up by line-up, with another bidding setting on the A seats
(``--ai SPEC``, one or more) and the runs' B AI on the others — real AI objects from the
plugin manager, seeded as the arena seeds them (:func:`ai_plugins.arena.ai_seed`), so a
setting the runs used replays their auctions exactly — and values the auction it ends with
from the runs:

- a hand whose dealer seat dealt in some run keeps the card points that seat took there
  (final + bid, the mean over the runs that had its bid, else over all that had the seat); its
  final is that less the new bid, and the band table (RULES.md §10) gives the dealer's game
  points, the defenders sharing the difference equally (red-five transfers kept);
- a hand whose dealer seat dealt in no run cannot be valued: it is counted (``unvalued``) and
  its deal left out of that setting's mean and of its paired difference.

Prints, per setting, the A AI's mean game points a seat-hand over the valued deals, how many
hands it deals, the unvalued hands, and its paired difference from the first setting with a
95% interval over deals::

    python benchmarks/auction_counterfactual.py dt2.json+pb10a.json,pb10b.json \\
        --ai expert@play_bonus=10 --ai expert@play_bonus=0 --ai expert@play_bonus=15

(the runs: ``+`` between runs, ``,`` joins a run's halves made with ``--first-deal``.)
It assumes that a dealer plays a hand the same at any bid (the play search's utility does
depend on the bid, a little) and that one timed run's outcome stands for the hand's value, so
a setting chosen on these numbers must be checked in the arena on other deals; and a setting
that moves many hands to seats that never dealt (many unvalued) is judged on the hands it
kept. It takes seconds, not the hour an arena run
takes. A measurement script: nothing is asserted.
"""
from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path
from typing import Any, Sequence

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))  # arena_split, also when loaded by path

import arena_split  # noqa: E402

from ai_plugins.arena import ArenaConfig, ai_seed, deal_seed, lineups  # noqa: E402
from ai_plugins.builtin.simulate import dealer_game_points  # noqa: E402
from ai_plugins.ratings import ci95_half_width  # noqa: E402
from ai_plugins.runner import make_player  # noqa: E402
from ai_plugins.specs import spec_player  # noqa: E402
from engine.ruleset import hongwu  # noqa: E402
from engine.state import Bid, Game, Phase  # noqa: E402

Hand = dict[str, Any]
"""One hand of an arena ``--json`` file: ``deal``, ``lineup``, ``dealer``, ``bid``, ``final``,
``game_points`` (one per seat)."""


def load_runs(arg: str) -> tuple[list[dict[tuple[int, int], Hand]], int, int, str]:
    """``(runs, seed, decks, B label)`` from ``arg`` (runs joined by ``+``, a run's files by
    ``,``, each read by ``arena_split.load``): each run maps ``(deal, line-up index)`` to its
    hand. SystemExit when a file lacks hand records, is not of two AIs in two line-ups, or the
    runs differ in seed, deck count or B AI."""
    runs, meta = [], None
    for run in arg.split("+"):
        first, deals = arena_split.load(run)
        this = (int(first["seed"]), int(first["decks"]), str(first["legend"]["B"]))
        if meta is not None and this != meta:
            raise SystemExit(f"{run}: seed, decks or B AI differ from the first run's")
        meta = this
        runs.append({(d, int(h["lineup"])): h for d, hands in deals.items() for h in hands})
    assert meta is not None
    return runs, *meta


def _letters(decks: int) -> list[list[str]]:
    """The line-ups of a two-AI 红五 arena as letters (``[['A','B','A','B'], ...]``)."""
    return [["AB"[i] for i in lu] for lu in lineups(2, hongwu(decks).players)]


def replay_auction(manager: Any, seed: int, decks: int, deal: int, lineup: int,
                   specs: dict[str, str], budget_s: float, options: dict[str, Any]) -> tuple[int, int]:
    """``(dealer seat, bid)`` that the auction of ``deal`` (0-based) in line-up ``lineup``
    ends with when the A seats bid as ``specs["A"]`` and the B seats as ``specs["B"]``
    (RULES.md §2). Players are built as the arena builds them (same seeds and options)."""
    rs = hongwu(decks)
    dseed = deal_seed(seed, deal)
    game = Game.new(rs, seed=dseed)
    letters = _letters(decks)[lineup]
    players = []
    for seat, letter in enumerate(letters):
        name, budget, opts = spec_player(specs[letter], budget_s, options)
        players.append(make_player(manager, name, seat, budget, ai_seed(dseed, lineup, seat), options=opts))
    try:
        for _ in range(rs.players * (2 + (rs.bid_max - rs.bid_min) // rs.bid_step)):
            if game.phase is not Phase.BID:
                break
            seat = game.to_act
            action = players[seat].act(game.view(seat))
            game.apply(action if isinstance(action, Bid) else Bid(seat, None))
        else:
            raise RuntimeError(f"deal {deal}: the auction did not end")
    finally:
        for p in players:
            p.close()
    return int(game.dealer), int(game.bid)


def value_hand(runs: Sequence[dict[tuple[int, int], Hand]], key: tuple[int, int], dealer: int,
               bid: int, ruleset: Any) -> list[float] | None:
    """Game points per seat of hand ``key`` dealt by ``dealer`` at ``bid``, from the runs where
    that seat dealt it (card points kept, final and band recomputed, RULES.md §10); None when
    no run had ``dealer`` as the dealer of this hand."""
    exact, moved = [], []
    n = ruleset.players
    for run in runs:
        h = run.get(key)
        if h is None or int(h["dealer"]) != dealer:
            continue
        final = int(h["final"]) + int(h["bid"]) - bid
        d = dealer_game_points(ruleset, final) - dealer_game_points(ruleset, int(h["final"]))
        gp = [float(x) + (d if s == dealer else -d / (n - 1)) for s, x in enumerate(h["game_points"])]
        (exact if int(h["bid"]) == bid else moved).append(gp)
    use = exact or moved
    return [statistics.fmean(xs) for xs in zip(*use)] if use else None


def evaluate(manager: Any, runs: Sequence[dict[tuple[int, int], Hand]], seed: int, decks: int,
             spec_a: str, spec_b: str, budget_s: float, options: dict[str, Any]
             ) -> tuple[dict[int, float], int, int, int]:
    """``({deal: A's mean game points a seat-hand}, hands A deals, unvalued hands, hands)``
    for A bidding as ``spec_a`` against ``spec_b``, over the deals whose every line-up could
    be valued."""
    rs = hongwu(decks)
    keys = sorted(set().union(*(set(r) for r in runs)))
    per: dict[int, list[float]] = {}
    bad: set[int] = set()
    a_deals = unvalued = 0
    for deal, lu in keys:
        dealer, bid = replay_auction(manager, seed, decks, deal, lu, {"A": spec_a, "B": spec_b},
                                     budget_s, options)
        letters = _letters(decks)[lu]
        a_deals += letters[dealer] == "A"
        gp = value_hand(runs, (deal, lu), dealer, bid, rs)
        if gp is None:
            unvalued += 1
            bad.add(deal)
            continue
        per.setdefault(deal, []).append(statistics.fmean(gp[s] for s, x in enumerate(letters) if x == "A"))
    means = {d: statistics.fmean(v) for d, v in per.items() if d not in bad}
    return means, a_deals, unvalued, len(keys)


def main(argv: list[str] | None = None) -> int:
    """Print each ``--ai`` setting's counterfactual result on the runs (see the module)."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("runs", help="arena --json files of one seed: runs joined by '+', "
                    "a run's halves (--first-deal) by ','")
    ap.add_argument("--ai", action="append", required=True,
                    help="an A setting to replay (repeatable; the first is the baseline)")
    ap.add_argument("--plugin-dir", action="append", default=[], help="also load AIs from here")
    ap.add_argument("--think-ms", type=int, default=100, help="think_ms given to the AIs (as the runs')")
    ap.add_argument("--budget", type=float, default=10.0, help="seconds a decision (as the runs')")
    ns = ap.parse_args(argv)
    runs, seed, decks, b_label = load_runs(ns.runs)
    config = ArenaConfig(ais=tuple(ns.ai) + (b_label,), plugin_dirs=tuple(ns.plugin_dir))
    manager = config.manager()
    options = {"think_ms": ns.think_ms}
    print(f"{len(runs)} runs, seed {seed}, {decks} decks, B = {b_label}")
    base: dict[int, float] | None = None
    base_spec = ""
    for spec in ns.ai:
        means, a_deals, unvalued, hands = evaluate(manager, runs, seed, decks, spec, b_label,
                                                   ns.budget, options)
        if not means:
            print(f"{spec}: no deal could be valued ({unvalued} unvalued hands)")
            continue
        line = (f"{spec}: {statistics.fmean(means.values()):+.3f} over {len(means)} deals; "
                f"A deals {100 * a_deals / hands:.1f}% of {hands} hands, {unvalued} unvalued")
        if base is None:
            base, base_spec = means, spec
        else:
            common = sorted(set(base) & set(means))
            if len(common) >= 2:
                diff = [means[d] - base[d] for d in common]
                line += (f"; paired with {base_spec} {statistics.fmean(diff):+.3f} ± "
                         f"{ci95_half_width(diff):.3f} ({len(common)} deals)")
        print(line, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
