"""How long the review 复盘 of one hand takes (``ai_plugins.review.review``).

Plays ``--hands`` seeded hands with ``basic`` AIs on every seat (红五: four seats, ``--decks``;
``--ruleset zhaopengyou``: 找朋友, five seats, three decks), reviews the dealer's decisions at
``--samples`` (default: the review's default) and prints the median seconds a hand, with the
decisions a hand. Usage: ``PYTHONPATH=. python benchmarks/review_speed.py [--hands 5] [--decks 2]
[--ruleset hongwu|zhaopengyou]``.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ai_plugins.review import DEFAULT_SAMPLES, review  # noqa: E402
from engine import replay as R  # noqa: E402
from engine import replay_zpy as Z  # noqa: E402
from tests.review_hands import play_hand, play_zpy_hand, replay_text  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--hands", type=int, default=5)
    ap.add_argument("--decks", type=int, default=2)
    ap.add_argument("--samples", type=int, default=DEFAULT_SAMPLES)
    ap.add_argument("--seed", type=int, default=100)
    ap.add_argument("--ruleset", choices=("hongwu", "zhaopengyou"), default="hongwu")
    ns = ap.parse_args()
    zpy = ns.ruleset == "zhaopengyou"
    secs, decs = [], []
    for k in range(ns.hands):
        if zpy:
            g = play_zpy_hand(ns.seed + k, dealer_seat=None)
            rp = R.parse(Z.dumps(g, seat=g.dealer))
        else:
            g = play_hand(ns.seed + k, ns.decks)
            rp = R.parse(replay_text(g, g.dealer))
        t = time.perf_counter()
        rv = review(rp, g.dealer, ns.samples)
        secs.append(time.perf_counter() - t)
        decs.append(len(rv.decisions))
    what = "找朋友 (three decks)" if zpy else f"{ns.decks} decks"
    print(f"review of one hand, {what}, {ns.samples} samples a decision, {ns.hands} hands: "
          f"median {statistics.median(secs):.1f} s (min {min(secs):.1f}, max {max(secs):.1f}); "
          f"median {statistics.median(decs):.0f} decisions a hand")


if __name__ == "__main__":
    main()
