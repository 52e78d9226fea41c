"""The optional plugin reasoning (PLUGINS.md "Reasoning"): real plugin files through the runner."""
from __future__ import annotations

from ai_helpers import manager_for, write_plugin
from ai_plugins.runner import Reasoning, make_player
from engine.ruleset import hongwu
from engine.state import Game, Phase

BODY = '''
class Talker:
    def __init__(self, settings):
        self.mode = settings.options.get("mode", "good")

    def choose_play(self, view, options):
        self.plays = list(options)[:4]
        return self.plays[-1]

    def reasoning(self):
        if self.mode == "raise":
            raise RuntimeError("no thoughts")
        if self.mode == "nan":
            return [("x", float("nan"))]
        if self.mode == "junk":
            return "thinking..."
        return [(" ".join(map(str, p)), float(i), "n" * 100) for i, p in enumerate(self.plays)] * 3

@hookimpl
def register_ais(register):
    register("talker", Talker, "1")
'''


def _to_play(manager):
    game = Game.new(hongwu(2), seed=11)
    while game.phase is not Phase.PLAY:
        p = make_player(manager, "basic", game.to_act, 2.0)
        game.apply(p.act(game.view(game.to_act)))
        p.close()
    return game


def _ask(manager, game, mode):
    player = make_player(manager, "talker", game.to_act, 2.0, options={"mode": mode})
    try:
        action = player.act(game.view(game.to_act))
    finally:
        player.close()
    return player, action


def test_reasoning_is_made_plain_and_cut(tmp_path):
    write_plugin(tmp_path, "talker", BODY)
    manager = manager_for(tmp_path)
    game = _to_play(manager)
    player, action = _ask(manager, game, "good")
    r = player.last_reasoning
    assert isinstance(r, tuple) and len(r) == 5 and all(type(x) is Reasoning for x in r)
    assert r[0].value == 0.0 and len(r[0].note) == 60
    assert action.cards in {tuple(p) for p in game.play_options(game.to_act)}
    assert player.reasoning_errors == 0 and not player.faults


def test_bad_reasoning_is_dropped_never_a_fault(tmp_path):
    write_plugin(tmp_path, "talker", BODY)
    manager = manager_for(tmp_path)
    game = _to_play(manager)
    good, good_action = _ask(manager, game, "good")
    for mode in ("raise", "nan", "junk"):
        player, action = _ask(manager, game, mode)
        assert player.last_reasoning is None
        assert player.reasoning_errors == 1
        assert not player.faults and player.lost == 0
        assert action == good_action  # the decision itself stands


def test_builtin_ais_give_reasoning(tmp_path):
    manager = manager_for(tmp_path)
    game = _to_play(manager)
    for name in ("basic", "expert"):
        player = make_player(manager, name, game.to_act, 5.0, options={"samples": 4})
        try:
            action = player.act(game.view(game.to_act))
        finally:
            player.close()
        r = player.last_reasoning
        if r is None:  # expert: a forced play is answered without search
            assert name == "expert"
            continue
        assert 1 <= len(r) <= 3 and all(isinstance(x.value, float) for x in r)
        if name == "expert":
            assert "chosen" in r[0].note and r[0].action == " ".join(map(str, action.cards))
