"""Engine speed: random-legal full hands from deal to settlement, one core.

Prints the legal-play calls per second (``PlayOptions.sample`` over legal plays, the call a
random player makes each turn) and, as its last line, ``hands/s: <number>``: the median of
several repeats. Target (issue 2): ≥ 1,000 hands/s with two decks. With ``--ruleset
zhaopengyou``: random-legal 找朋友 hands (five seats, three decks: the deal with its
declaration windows, the call, the bury, the counter round and 155 cards of play; issue 15
target ≥ 400 hands/s). Run:

    python benchmarks/engine_speed.py [--hands N] [--repeats R] [--decks 2|3] [--ruleset hongwu|zhaopengyou]
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.ruleset import hongwu  # noqa: E402
from engine.state import Bid, Bury, ChooseTrump, Game, Phase, Play  # noqa: E402


def play_hand(ruleset, seed: int, counter: list[int]) -> Game:
    """Play one hand with uniformly random legal actions; counts legal-play calls."""
    rng = random.Random(seed)
    g = Game.new(ruleset, seed=seed)
    while g.phase is not Phase.PLAY:
        s = g.to_act
        if g.phase is Phase.BID:
            opts = g.auction.options()
            g.apply(Bid(s, rng.choice(opts + (None, None, None))))
        elif g.phase is Phase.TRUMP:
            g.apply(ChooseTrump(s, rng.choice("SHCD")))
        else:
            g.apply(Bury(s, tuple(rng.sample(g.hands[s], ruleset.kitty_size))))
    while g.phase is Phase.PLAY:
        s = g.to_act
        play = g.play_options(s).sample(rng)
        counter[0] += 1
        g.apply(Play(s, play))
    return g


def play_zpy_hand(ruleset, seed: int, counter: list[int]):
    """One 找朋友 hand with uniformly random legal actions (declarations, passes and calls
    from ``legal_actions``, a random bury, ``PlayOptions.sample`` plays)."""
    from engine.zhaopengyou import ZPhase, ZpyHand

    rng = random.Random(seed)
    h = ZpyHand.new(ruleset, seed=seed)
    play_phase, bury_phase = ZPhase.PLAY, ZPhase.BURY
    while not h.is_over:
        s = h.to_act
        phase = h.phase
        if phase is play_phase:
            counter[0] += 1
            h.apply(Play(s, h.play_options(s).sample(rng)))
        elif phase is bury_phase:
            h.apply(Bury(s, tuple(rng.sample(h.hands[s], ruleset.kitty_size))))
        else:
            h.apply(rng.choice(list(h.legal_actions(s))))
    return h


def main(argv=None) -> int:
    """Run the benchmark and print the figures."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hands", type=int, default=300)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--decks", type=int, default=2, choices=(2, 3))
    ap.add_argument("--ruleset", default="hongwu", choices=("hongwu", "zhaopengyou"))
    args = ap.parse_args(argv)
    if args.ruleset == "zhaopengyou":
        from engine.ruleset import zhaopengyou

        rs, one_hand = zhaopengyou(), play_zpy_hand
    else:
        rs, one_hand = hongwu(args.decks), play_hand
    rates, call_rates = [], []
    for r in range(args.repeats):
        counter = [0]
        t0 = time.perf_counter()
        for i in range(args.hands):
            one_hand(rs, r * 100_000 + i, counter)
        dt = time.perf_counter() - t0
        rates.append(args.hands / dt)
        call_rates.append(counter[0] / dt)
    print(f"ruleset: {rs.name}, decks: {rs.decks}, hands per repeat: {args.hands}, repeats: {args.repeats}")
    print(f"legal-play calls/s: {statistics.median(call_rates):.0f}")
    print(f"hands/s: {statistics.median(rates):.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
