"""The independent 红五 example plugins in docs/examples (issue #11): hw_greedy, hw_counter and
hw_bold, written from RULES.md and PLUGINS.md alone as a plugin author would.

Each one is found by ``--plugin-dir docs/examples`` discovery, plays whole two- and three-deck
hands (bidding, and as dealer trump, bury and play) with no fault and no decision handed to
``basic``, replays exactly from its seed, imports nothing of the built-in AIs nor of the other
examples, and runs in the arena from the command line with zero faults.
"""
from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

from ai_plugins.manager import AIManager
from ai_plugins.runner import make_player, play_hand
from engine.ruleset import hongwu
from engine.state import Game, Phase

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "docs" / "examples"
NAMES = ("hw_greedy", "hw_counter", "hw_bold")


@pytest.fixture(scope="module")
def manager():
    return AIManager(plugin_dirs=[EXAMPLES], user_dir=False, entry_points=False)


def _play(manager, game, names, seed):
    players = [make_player(manager, name, seat, 2.0, seed=seed + seat) for seat, name in enumerate(names)]
    try:
        settlement = play_hand(game, players)
    finally:
        for p in players:
            p.close()
    assert game.phase is Phase.SETTLE and sum(settlement.game_points) == 0
    return settlement, players


def _clean(players, names, name):
    for seat, player in enumerate(players):
        if names[seat] == name:
            assert player.faults == [], player.faults
            assert player.lost == 0 and player.fallbacks == 0
            assert player.decisions > 0


@pytest.mark.parametrize("name", NAMES)
def test_each_example_is_discovered_from_its_file(manager, name):
    info = manager.get(name)
    assert Path(str(info.origin)).resolve() == (EXAMPLES / f"{name}.py").resolve()
    assert not [p for p in manager.problems if name in str(p)]


@pytest.mark.parametrize("decks", [2, 3])
@pytest.mark.parametrize("name", NAMES)
def test_each_example_plays_whole_hands_without_faults(manager, name, decks):
    rs = hongwu(decks)
    # a whole hand from the deal, the auction included
    names = [name, "basic", name, "basic"]
    _, players = _play(manager, Game.new(rs, seed=11), names, seed=11)
    _clean(players, names, name)
    # and one where it is the dealer: trump, bury and the dealer's play are asked of it
    dealt = Game.new(rs, seed=12)
    hands = [dealt.hand_of(s) for s in range(rs.players)]
    game = Game.after_auction(hands, dealt.kitty, rs, 1, rs.bid_min)
    names = ["basic", name, "random", name]
    settlement, players = _play(manager, game, names, seed=12)
    _clean(players, names, name)
    assert settlement.dealer == 1 and len(game.view(None).buried) == rs.kitty_size


@pytest.mark.parametrize("name", NAMES)
def test_each_example_replays_from_its_seed(manager, name):
    def run():
        names = [name, "basic", name, "random"]
        game = Game.new(hongwu(2), seed=21)
        settlement, _ = _play(manager, game, names, seed=21)
        return [e.as_dict() for e in game.events], settlement.game_points

    assert run() == run()


@pytest.mark.parametrize("name", NAMES)
def test_each_example_is_written_apart_from_the_built_ins(name):
    tree = ast.parse((EXAMPLES / f"{name}.py").read_text(encoding="utf-8"))
    modules = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    modules |= {n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    project = {m for m in modules if m.split(".")[0] in {"ai_plugins", "engine", "game", "net"}}
    assert project <= {"ai_plugins"} | {m for m in project if m.startswith("engine.")}
    assert not any(m.split(".")[0].startswith(("hw_", "zpy_")) for m in modules)


def test_the_examples_play_an_arena_from_the_command_line(tmp_path):
    out = tmp_path / "arena.json"
    args = [sys.executable, "-m", "game", "arena", "--plugin-dir", str(EXAMPLES), "--no-user-plugins",
            "--ai", "hw_greedy", "--ai", "hw_counter", "--ai", "hw_bold", "--hands", "1", "--seed", "4",
            "--jobs", "1", "--quiet", "--json", str(out)]
    done = subprocess.run(args, cwd=ROOT, capture_output=True, text=True, timeout=300,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", "HONGWU_DATA_DIR": str(tmp_path)})
    assert done.returncode == 0, done.stderr
    report = json.loads(out.read_text(encoding="utf-8"))
    assert set(report["ais"]) == set(NAMES)
    for name in NAMES:
        assert report["ais"][name]["hands"] == 16 and report["ais"][name]["faults"] == 0
        assert report["ais"][name]["fault_report"]["printed"] == 0
