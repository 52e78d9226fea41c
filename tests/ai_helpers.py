"""Shared helpers for the AI plugin tests: write real plugin files, play real hands."""
from __future__ import annotations

import textwrap
from pathlib import Path

from ai_plugins.manager import AIManager
from ai_plugins.runner import make_player, play_hand
from engine.ruleset import hongwu
from engine.state import Game, Phase

PLUGIN_HEADER = "from ai_plugins import hookimpl, PASS\n"


def write_plugin(folder: Path, stem: str, body: str) -> Path:
    """Write ``folder/stem.py`` with the hookimpl import and ``body`` (dedented)."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{stem}.py"
    path.write_text(PLUGIN_HEADER + textwrap.dedent(body), encoding="utf-8")
    return path


def manager_for(*dirs: Path, **kw) -> AIManager:
    """A manager without the user folder and, unless asked, without entry points."""
    kw.setdefault("entry_points", False)
    return AIManager(plugin_dirs=dirs, user_dir=False, **kw)


def play_one(manager: AIManager, names, seed: int = 1, decks: int = 2, budget_s: float = 0.2,
             max_faults: int = 3, options: dict | None = None):
    """Play one full hand; ``names`` gives the AI of each seat. Returns (game, players)."""
    game = Game.new(hongwu(decks), seed=seed)
    players = [make_player(manager, n, s, budget_s, seed=seed + s, max_faults=max_faults,
                           options=options)
               for s, n in enumerate(names)]
    try:
        settlement = play_hand(game, players)
    finally:
        for p in players:
            p.close()
    assert game.phase is Phase.SETTLE
    assert settlement is not None and sum(settlement.game_points) == 0
    return game, players
