"""``basic`` finish speed: :func:`ai_plugins.builtin.expert_bid.basic_play_out` from real positions.

The expert's play search finishes its candidates with ``basic`` on every seat when it thinks
300 ms or more (``expert.FINISH``), so the cost of one such finish sets how many sampled worlds
it sees. Deals ``--positions`` 红五 hands (``--decks``), lets ``basic`` bid, choose the trump,
bury and play 0 to 5 tricks (by seed), then times finishing each position (a fresh copy each
time) two ways, in turns within every repeat: ``kept``, the play-out as shipped (each seat's
card counting kept up to date play by play, ``Knowledge.observe``), and ``rebuilt``, the
baseline that asks ``BasicAI.choose_play`` and so counts the cards afresh from every view.
Both play the same cards (tests/test_knowledge_incremental.py). Prints milliseconds per finish
of each repeat, then the medians and the median ratio rebuilt/kept. Run:

    python benchmarks/basic_finish_speed.py [--decks 2|3] [--positions N] [--repeats R]
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ai_plugins.base import AISettings  # noqa: E402
from ai_plugins.builtin.basic import BasicAI  # noqa: E402
from ai_plugins.builtin.expert_bid import basic_play_out  # noqa: E402
from ai_plugins.builtin.simulate import play_with  # noqa: E402
from ai_plugins.runner import basic_position  # noqa: E402
from engine.ruleset import hongwu  # noqa: E402


def positions(decks: int, count: int) -> list:
    """``count`` games at a trick boundary (seeds 0.., ``basic`` on every seat, ``seed % 6``
    tricks played; a finished hand is skipped)."""
    out, seed = [], 0
    while len(out) < count:
        game = basic_position(hongwu(decks), seed, seed % 6)
        if not game.is_over:
            out.append(game)
        seed += 1
    return out


def rebuilt_play_out(game, seed: int) -> None:
    """The baseline: ``basic`` on every seat through its public ``choose_play`` (card counting
    rebuilt from each view)."""
    play_with(game, [BasicAI(AISettings(seat=s, seed=seed + s)) for s in range(game.ruleset.players)])


def ms_per_finish(games: list, finish) -> float:
    """Mean milliseconds of ``finish(copy, seed)`` over ``games``."""
    t0 = time.perf_counter()
    for i, g in enumerate(games):
        finish(g.clone(), i)
    return (time.perf_counter() - t0) * 1000 / len(games)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--decks", type=int, choices=(2, 3), default=2)
    p.add_argument("--positions", type=int, default=40)
    p.add_argument("--repeats", type=int, default=5)
    ns = p.parse_args(argv)
    games = positions(ns.decks, ns.positions)
    kept, rebuilt, ratios = [], [], []
    for r in range(ns.repeats):
        a = ms_per_finish(games, basic_play_out)
        b = ms_per_finish(games, rebuilt_play_out)
        kept.append(a)
        rebuilt.append(b)
        ratios.append(b / a)
        print(f"repeat {r + 1}: kept {a:.2f} ms, rebuilt {b:.2f} ms a finish (ratio {b / a:.2f})")
    print(f"ms per finish kept: {statistics.median(kept):.2f}")
    print(f"ms per finish rebuilt: {statistics.median(rebuilt):.2f}")
    print(f"ratio rebuilt/kept: {statistics.median(ratios):.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
