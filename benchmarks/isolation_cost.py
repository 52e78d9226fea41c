"""What isolating a plugin costs per decision: the private copy of the view and options.

Plays whole hands with ``basic`` in every seat and, at each decision, times
``ai_plugins.isolation.private_args`` (the copy a plugin's hook is given) against the engine's
own ``game.view(seat)``; then times a whole ``SafePlayer.act`` decision of a do-nothing plugin
(its worker thread, copy, validation and the stand-in's answer) for scale. Prints medians in
microseconds per phase; with several repeats each figure is the median over the repeats.

    python benchmarks/isolation_cost.py [--hands 10] [--repeats 3] [--decks 2]
                                        [--ruleset hongwu|zhaopengyou]

With ``--ruleset zhaopengyou`` the hands are 找朋友 hands (five seats, a ``ZpyView`` copied).

Nothing is asserted: this is a measurement script (figures depend on the machine).
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ai_plugins.isolation import private_args  # noqa: E402
from ai_plugins.manager import AIManager  # noqa: E402
from ai_plugins.runner import SafePlayer, make_player  # noqa: E402
from engine.ruleset import hongwu  # noqa: E402
from engine.state import Game  # noqa: E402

NOOP = """
from ai_plugins import hookimpl
class AI:
    rulesets = ("hongwu", "zhaopengyou")
    def __init__(self, settings):
        pass
    def choose_play(self, view, options):
        return None
@hookimpl
def register_ais(register):
    register("noop", AI)
"""


def _us(f, n: int = 20) -> float:
    t = time.perf_counter()
    for _ in range(n):
        f()
    return (time.perf_counter() - t) / n * 1e6


def _new_hand(ruleset: str, decks: int, seed: int):
    if ruleset == "zhaopengyou":
        from engine.ruleset import zhaopengyou
        from engine.zhaopengyou import ZpyHand

        return ZpyHand.new(zhaopengyou(), seed=seed)
    return Game.new(hongwu(decks), seed=seed)


def measure(hands: int, decks: int, manager: AIManager,
            ruleset: str = "hongwu") -> dict[str, dict[str, float]]:
    """Median microseconds per phase: ``copy`` (private_args), ``view`` (game.view),
    ``act`` (a whole SafePlayer decision of the no-op plugin)."""
    got: dict[str, dict[str, list[float]]] = {}
    for h in range(hands):
        game = _new_hand(ruleset, decks, h + 1)
        seats = game.ruleset.players
        players = [make_player(manager, "basic", s, 2.0, s) for s in range(seats)]
        noop = [make_player(manager, "noop", s, 2.0, s) for s in range(seats)]
        while not game.is_over:
            seat = game.to_act
            view = game.view(seat)
            hook, kwargs = SafePlayer._request(players[seat], view)
            row = got.setdefault(view.phase.name, {"copy": [], "view": [], "act": []})
            row["copy"].append(_us(lambda: private_args(hook, kwargs)))
            row["view"].append(_us(lambda: game.view(seat)))
            if view.phase.name == "PLAY":
                row["act"].append(_us(lambda: noop[seat].act(view), 3))
            game.apply(players[seat].act(view))
        for p in players + noop:
            p.close()
    return {ph: {k: statistics.median(v) for k, v in d.items() if v} for ph, d in got.items()}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=10)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--decks", type=int, choices=(2, 3), default=2)
    ap.add_argument("--ruleset", choices=("hongwu", "zhaopengyou"), default="hongwu")
    ns = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "noop.py").write_text(NOOP)
        manager = AIManager(plugin_dirs=[tmp], user_dir=False, entry_points=False)
        runs = [measure(ns.hands, ns.decks, manager, ns.ruleset) for _ in range(ns.repeats)]
    table = "找朋友" if ns.ruleset == "zhaopengyou" else f"{ns.decks} decks"
    print(f"isolation cost, {ns.hands} hands x {ns.repeats} repeats, {table} "
          f"(median microseconds per decision)")
    width = max(6, *(len(ph) for ph in runs[0]))
    print(f"{'phase':{width}} {'private copy':>13} {'game.view':>10} {'whole act (no-op plugin)':>25}")
    for ph in runs[0]:
        med = {k: statistics.median(r[ph][k] for r in runs if k in r.get(ph, {}))
               for k in runs[0][ph]}
        act = f"{med['act']:.0f}" if "act" in med else "-"
        print(f"{ph:{width}} {med['copy']:13.1f} {med['view']:10.1f} {act:>25}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
