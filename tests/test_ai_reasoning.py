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


WAITER = '''
class Waiter:
    def __init__(self, settings):
        self.n = 0
        self.gate = None

    def choose_play(self, view, options):
        self.n += 1
        if self.gate is not None:
            self.entered.set()
            self.gate.wait(1.5)
        return list(options)[0]

    def reasoning(self):
        return [("decision %d" % self.n, float(self.n))]

@hookimpl
def register_ais(register):
    register("waiter", Waiter, "1")
'''


def test_last_reasoning_stays_until_the_next_decision_returns(tmp_path):
    """X-ray reads ``last_reasoning`` from the window's thread while the AI thinks in another:
    the previous decision's reasoning must stay until the new one replaces it (it used to be
    cleared when the decision began, so the panel vanished while the seat was thinking)."""
    import threading

    write_plugin(tmp_path, "waiter", WAITER)
    manager = manager_for(tmp_path)
    game = _to_play(manager)
    player = make_player(manager, "waiter", game.to_act, 2.0)
    try:
        view = game.view(game.to_act)
        player.act(view)
        assert [r.action for r in player.last_reasoning] == ["decision 1"]
        player.ai.gate, player.ai.entered = threading.Event(), threading.Event()
        worker = threading.Thread(target=player.act, args=(view,))
        worker.start()
        assert player.ai.entered.wait(1.0)  # the second decision is under way
        assert [r.action for r in player.last_reasoning] == ["decision 1"]
        player.ai.gate.set()
        worker.join(2.0)
        assert not worker.is_alive()
        assert [r.action for r in player.last_reasoning] == ["decision 2"]
    finally:
        player.close()
