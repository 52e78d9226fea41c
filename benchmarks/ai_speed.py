"""Decision times of the built-in AIs, per phase (bid, trump, bury, play).

Plays whole hands with the chosen AI in every seat, timing each decision call directly (no
runner thread, no fallback), and prints the median and 95th percentile per phase in
milliseconds. With several repeats each figure is the median over the repeats.

    python benchmarks/ai_speed.py [--ai basic] [--hands 20] [--repeats 3] [--decks 2] [--seed 1]

Figures depend on the machine; the target for ``basic`` is a median play decision of at most
5 ms. Nothing is asserted: this is a measurement script.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ai_plugins.base import AISettings  # noqa: E402
from ai_plugins.manager import AIManager  # noqa: E402
from engine.cards import SUITS  # noqa: E402
from engine.ruleset import hongwu  # noqa: E402
from engine.state import Bid, Bury, ChooseTrump, Game, Phase, Play  # noqa: E402

PHASES = ("bid", "trump", "bury", "play")


def run_once(ai_name: str, hands: int, decks: int, seed: int, options: dict) -> dict[str, list[float]]:
    """Play ``hands`` hands; returns seconds per decision, by phase."""
    manager = AIManager(user_dir=False, entry_points=False)
    info = manager.get(ai_name)
    times: dict[str, list[float]] = {p: [] for p in PHASES}
    for h in range(hands):
        game = Game.new(hongwu(decks), seed=seed * 10_000 + h)
        ais = [info.factory(AISettings(seat=s, seed=h * 4 + s, options=options)) for s in range(4)]
        while game.phase is not Phase.SETTLE:
            seat = game.to_act
            view = game.view(seat)
            ai = ais[seat]
            t0 = time.perf_counter()
            if game.phase is Phase.BID:
                amount = ai.choose_bid(view, view.legal_bids())
                action, phase = Bid(seat, amount or None), "bid"
            elif game.phase is Phase.TRUMP:
                action, phase = ChooseTrump(seat, ai.choose_trump(view, SUITS)), "trump"
            elif game.phase is Phase.BURY:
                action, phase = Bury(seat, tuple(ai.choose_bury(view, view.bury_count))), "bury"
            else:
                action, phase = Play(seat, tuple(ai.choose_play(view, view.play_options()))), "play"
            times[phase].append(time.perf_counter() - t0)
            game.apply(action)
    return times


def p95(xs: list[float]) -> float:
    """95th percentile (nearest rank) of ``xs``."""
    s = sorted(xs)
    return s[min(len(s) - 1, int(0.95 * len(s)))]


def main(argv: list[str] | None = None) -> int:
    """Parse ``argv``, run the measurements, print the table; returns 0."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--ai", action="append", default=None, help="AI name (repeatable; default basic, random)")
    p.add_argument("--hands", type=int, default=20)
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--decks", type=int, choices=(2, 3), default=2)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--think-ms", type=int, default=None, help="for searching AIs (expert)")
    ns = p.parse_args(argv)
    options = {"think_ms": ns.think_ms} if ns.think_ms is not None else {}
    print(f"AI decision times, {ns.hands} hands x {ns.repeats} repeats, {ns.decks} decks "
          f"(median of repeats; ms)")
    print(f"{'AI':<8} {'phase':<6} {'decisions':>9} {'median':>8} {'p95':>8}")
    for name in ns.ai or ["basic", "random"]:
        runs = [run_once(name, ns.hands, ns.decks, ns.seed + r, options) for r in range(ns.repeats)]
        for phase in PHASES:
            samples = [r[phase] for r in runs if r[phase]]
            if not samples:
                continue
            med = statistics.median(statistics.median(s) for s in samples) * 1e3
            q95 = statistics.median(p95(s) for s in samples) * 1e3
            count = sum(len(s) for s in samples) // len(samples)
            print(f"{name:<8} {phase:<6} {count:>9} {med:>8.3f} {q95:>8.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
