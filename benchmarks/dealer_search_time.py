"""How the `expert` dealer's play searches spend their time, and how many worlds they see.

With ``dealer_time`` (README "`expert` 1.9") the dealer's timed play decisions search for
three times ``think_ms`` (300 ms at ``--think-ms 100``) with the hybrid finish, and the
strength curve (README "`expert` 2.1") says the dealer gains from more of it. This script plays
``--deals`` 红五 hands from real positions (``basic`` bids, buries and plays the other seats;
the expert, with the options of each ``--ai`` spec in turn, plays the dealer's cards from the
first lead) and prints, per spec, over the dealer's play decisions:

- ``decisions``, ``forced`` (returned without a search) and ``stopped early`` (a search whose
  challengers were all pruned: it ends then, ``expert.ExpertAI._play_rows``);
- ``CPU / share``: the CPU time the dealer's decisions used over the time they were given
  (each decision's share, ``ExpertAI._role_think``, forced ones included);
- the median count of sampled worlds a searched decision saw (the most any candidate was
  played out in, from the decision's reasoning) when it was not stopped early, in the first,
  middle and last third of the hand (by cards in hand).

CPU time of the deciding thread is what the search counts, so other jobs on the machine
change the figures little. Run (each ``--ai`` an arena spec of the expert,
``expert@key=value,...``, :mod:`ai_plugins.specs`; default ``expert``):

    python benchmarks/dealer_search_time.py [--deals 12] [--decks 2] [--think-ms 100] \\
        [--ai expert] [--ai expert@finish_tricks=3] [--ai expert@dealer_bank=2]
"""
from __future__ import annotations

import argparse
import re
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ai_plugins.base import AISettings  # noqa: E402
from ai_plugins.builtin import expert  # noqa: E402
from ai_plugins.builtin.basic import BasicAI  # noqa: E402
from ai_plugins.runner import basic_position  # noqa: E402
from ai_plugins.specs import split_spec  # noqa: E402
from engine.ruleset import hongwu  # noqa: E402
from engine.state import Play  # noqa: E402

SAMPLES = re.compile(r"(\d+) samples")


def measure(options: dict[str, Any], deals: int, decks: int, think_ms: int, seed: int) -> dict:
    """Play the dealer's cards of ``deals`` positions (seeds ``seed``..) with the expert and
    ``options``: ``{"decisions", "forced", "stopped", "used", "given", "worlds": [(share of
    the hand still held, worlds) per searched decision not stopped early]}`` (seconds of CPU
    time)."""
    stopped = [0, False]
    prune = expert.prune_candidates

    def counting_prune(samples, active):
        prune(samples, active)
        if sum(active) == 1 and not stopped[1]:
            stopped[0] += 1
            stopped[1] = True

    expert.prune_candidates = counting_prune
    out = {"decisions": 0, "forced": 0, "used": 0.0, "given": 0.0, "worlds": []}
    try:
        for k in range(deals):
            game = basic_position(hongwu(decks), seed + k, 0)
            rs = game.ruleset
            d = game.dealer
            ai = expert.ExpertAI(AISettings(seat=d, seed=seed + k, options={"think_ms": think_ms, **options}))
            others = {s: BasicAI(AISettings(seat=s, seed=seed + k + s)) for s in range(rs.players) if s != d}
            while not game.is_over:
                s = game.to_act
                view = game.view(s)
                opts = view.play_options()
                if s != d:
                    play = others[s].choose_play(view, opts)
                else:
                    share = ai._role_think(view)
                    ai.last_reasoning = None
                    stopped[1] = False
                    t0 = time.thread_time()
                    play = ai.choose_play(view, opts)
                    out["used"] += time.thread_time() - t0
                    out["given"] += share
                    out["decisions"] += 1
                    notes = ai.last_reasoning
                    if notes is None:
                        out["forced"] += 1
                    elif not stopped[1]:
                        n = max(int(m.group(1)) for x in notes if (m := SAMPLES.search(x["note"])))
                        out["worlds"].append((len(view.hand) / rs.hand_size, n))
                game.apply(Play(s, tuple(play)))
    finally:
        expert.prune_candidates = prune
    out["stopped"] = stopped[0]
    return out


def main(argv: list[str] | None = None) -> int:
    """Parse ``argv``, measure each setting, print one line each; returns 0."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--deals", type=int, default=12)
    p.add_argument("--decks", type=int, choices=(2, 3), default=2)
    p.add_argument("--think-ms", type=int, default=100)
    p.add_argument("--seed", type=int, default=700)
    p.add_argument("--ai", action="append", default=None,
                   help="the expert with options, as the arena takes it: expert@key=value,... (repeatable)")
    ns = p.parse_args(argv)
    specs = ns.ai or ["expert"]
    for spec in specs:
        if split_spec(spec)[0] != "expert":
            p.error(f"--ai {spec!r}: this measures the built-in expert only")
    print(f"the expert dealer's play decisions, {ns.deals} deals, {ns.decks} decks, think_ms {ns.think_ms}")
    print(f"{'AI':<28} {'decisions':>9} {'forced':>7} {'stopped early':>13} {'CPU / share':>11} "
          f"{'worlds: first third':>19} {'middle':>7} {'last':>5}")
    for text in specs:
        r = measure(split_spec(text)[1], ns.deals, ns.decks, ns.think_ms, ns.seed)
        thirds = [[n for share, n in r["worlds"] if lo < share <= hi]
                  for lo, hi in ((2 / 3, 1.0), (1 / 3, 2 / 3), (0.0, 1 / 3))]
        med = [f"{statistics.median(t):g}" if t else "-" for t in thirds]
        print(f"{text:<28} {r['decisions']:>9} {r['forced']:>7} {r['stopped']:>13} "
              f"{r['used'] / r['given']:>11.2f} {med[0]:>19} {med[1]:>7} {med[2]:>5}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
