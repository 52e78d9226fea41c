"""Lean play-out speed: :func:`ai_plugins.builtin.fastsim.play_out_fast` from real positions.

Deals ``--positions`` 红五 hands (``--decks``), lets the ``basic`` AI bid, choose the trump,
bury and play a few tricks (0 to 5, by seed), then times lean play-outs from those positions to
the end of the hand (each from a fresh copy), one core. Prints, for the ``tractors`` switch off
and on (``--tractors off|on|both``; the two take turns), the play-outs per second of each
repeat, the median ratio on/off of each repeat's two runs (back to back, so a busy machine
disturbs it less), then the medians as ``play-outs/s <off|on>: <number>``. Run:

    python benchmarks/lean_speed.py [--decks 2|3] [--positions N] [--rounds K] [--repeats R] [--tractors both]
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ai_plugins.builtin.fastsim import copy_lean, lean_from_game, play_out_fast  # noqa: E402
from ai_plugins.runner import basic_position  # noqa: E402
from engine.ruleset import hongwu  # noqa: E402


def positions(decks: int, count: int) -> list:
    """``count`` lean positions at a trick boundary (seeds 0..count-1, ``basic`` on every seat,
    ``seed % 6`` tricks played)."""
    out = []
    seed = 0
    while len(out) < count:
        game = basic_position(hongwu(decks), seed, seed % 6)
        if not game.is_over:
            out.append(lean_from_game(game))
        seed += 1
    return out


def rate(leans: list, rounds: int, tractors: bool) -> float:
    """Lean play-outs per second over ``rounds`` passes through ``leans`` (copies)."""
    copies = [copy_lean(lean) for _ in range(rounds) for lean in leans]
    start = time.perf_counter()
    for lean in copies:
        play_out_fast(lean, (), tractors)
    return len(copies) / (time.perf_counter() - start)


def main(argv: list[str] | None = None) -> int:
    """Parse the options, time the play-outs, print the figures."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--decks", type=int, choices=(2, 3), default=2)
    ap.add_argument("--positions", type=int, default=40)
    ap.add_argument("--rounds", type=int, default=10, help="passes through the positions per repeat")
    ap.add_argument("--repeats", type=int, default=9)
    ap.add_argument("--tractors", choices=("off", "on", "both"), default="both")
    args = ap.parse_args(argv)
    leans = positions(args.decks, args.positions)
    modes = ("off", "on") if args.tractors == "both" else (args.tractors,)
    rates: dict[str, list[float]] = {mode: [] for mode in modes}
    for _ in range(args.repeats):  # the modes take turns, so a busy spell hits both alike
        for mode in modes:
            rates[mode].append(rate(leans, args.rounds, mode == "on"))
    for mode in modes:
        print(f"tractors {mode}: " + " ".join(f"{r:.0f}" for r in rates[mode]) + " play-outs/s")
    if len(modes) == 2:  # each repeat's two runs were back to back: their ratio is steadier
        ratio = statistics.median(on / off for on, off in zip(rates["on"], rates["off"]))
        print(f"on/off (median of the repeats' ratios): {ratio:.2f}")
    for mode in modes:
        print(f"play-outs/s {mode}: {statistics.median(rates[mode]):.0f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
