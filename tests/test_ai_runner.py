"""Isolation: faulty AI plugins lose decisions to the basic AI and the hand goes on.

Each fault is a real plugin file discovered through a real ``--plugin-dir`` folder, and each
test plays at least one full hand through the engine with the faulty AI in a seat.
"""
from __future__ import annotations

import logging
import textwrap
import threading
import time

import pytest

from ai_helpers import manager_for, play_one, write_plugin
from ai_plugins.base import AISettings
from ai_plugins.runner import SafePlayer, make_player
from engine.ruleset import hongwu
from engine.state import Bid, Game, Phase, Play

BUDGET = 0.2

FAULTY = {
    "raiser": """
        class AI:
            def __init__(self, settings):
                pass
            def choose_play(self, view, options):
                raise RuntimeError("plugin bug")
        """,
    "illegal": """
        class AI:
            def __init__(self, settings):
                pass
            def choose_play(self, view, options):
                # a card the seat may not play: all of the hand at once, or another seat's
                return list(view.hand) if len(view.hand) > 1 else ["BJ", "BJ", "BJ"]
            def choose_bid(self, view, bids):
                return 999
            def choose_trump(self, view, suits):
                return "NT"
            def choose_bury(self, view, count):
                return list(view.hand)[: count - 1]
        """,
    "malformed": """
        class AI:
            def __init__(self, settings):
                pass
            def choose_play(self, view, options):
                return {"cards": "nonsense"}
            def choose_bid(self, view, bids):
                return "seventy"
            def choose_trump(self, view, suits):
                return 3
            def choose_bury(self, view, count):
                return 42
        """,
    "sleeper": """
        import time
        class AI:
            def __init__(self, settings):
                pass
            def choose_bid(self, view, bids):
                time.sleep(1.0)
                return PASS
            def choose_play(self, view, options):
                time.sleep(1.0)
                return next(iter(options))
        """,
    "looper": """
        class AI:
            def __init__(self, settings):
                pass
            def choose_bid(self, view, bids):
                while True:
                    pass
            def choose_play(self, view, options):
                while True:
                    pass
        """,
}


@pytest.fixture
def faulty_manager(tmp_path):
    for name, body in FAULTY.items():
        write_plugin(tmp_path, name, textwrap.dedent(body) + f"""
@hookimpl
def register_ais(register):
    register({name!r}, AI, "0.0.1")
""")
    manager = manager_for(tmp_path)
    assert manager.problems == []
    return manager


@pytest.mark.parametrize("name,kinds", [
    ("raiser", {"exception"}),
    ("illegal", {"illegal"}),
    ("malformed", {"malformed"}),
    ("sleeper", {"timeout", "busy"}),
    ("looper", {"timeout", "busy"}),  # busy: on a loaded machine the interrupt may lag
])
@pytest.mark.parametrize("seat", [0, 2])
def test_faulty_plugin_does_not_stop_the_hand(faulty_manager, caplog, name, kinds, seat):
    names = ["basic"] * 4
    names[seat] = name
    started = time.monotonic()
    with caplog.at_level(logging.WARNING, logger="ai_plugins.runner"):
        game, players = play_one(faulty_manager, names, seed=11 + seat, budget_s=BUDGET)
    elapsed = time.monotonic() - started
    bad = players[seat]
    assert bad.faults, "the faulty AI must have been caught"
    assert {f.kind for f in bad.faults} <= kinds
    assert bad.faults[0].kind in kinds and bad.faults[0].ai == name
    assert bad.disabled and len(bad.faults) == 3  # switched to basic after 3 faults
    assert f"AI {name!r} (seat {seat})" in caplog.text
    assert "switched to the basic AI for good" in caplog.text
    assert all(not p.faults for i, p in enumerate(players) if i != seat)
    assert elapsed < 10  # bounded: at most a few budgets were waited for


def test_endless_loop_is_interrupted(faulty_manager):
    before = {t.ident for t in threading.enumerate()}
    game, players = play_one(faulty_manager, ["looper", "basic", "basic", "basic"], seed=3,
                             budget_s=BUDGET)
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        leftover = [t for t in threading.enumerate()
                    if t.ident not in before and t.name.startswith("hongwu-ai") and t.is_alive()]
        if not leftover:
            break
        time.sleep(0.05)
    assert not leftover, "runaway plugin threads must be stopped"


def test_faults_below_the_limit_keep_the_plugin(faulty_manager):
    game, players = play_one(faulty_manager, ["malformed", "basic", "basic", "basic"], seed=5,
                             max_faults=1000)
    bad = players[0]
    assert not bad.disabled
    # every decision of the malformed AI was replaced: its bids, trump, bury and plays
    assert len(bad.faults) == bad.fallbacks == bad.decisions
    plays = sum(1 for t in game.view(None).tricks for s, _ in t.plays if s == 0)
    assert plays == len(game.view(None).tricks) and plays <= bad.decisions


def test_partial_ai_defers_to_basic_without_faults(tmp_path):
    write_plugin(tmp_path, "lazy", """
        class AI:
            calls = 0
            def __init__(self, settings):
                self.seen = []
            @hookimpl
            def choose_play(self, view, options):
                self.seen.append(view.trick_no)
                return None   # no opinion: basic plays

        @hookimpl
        def register_ais(register):
            register("lazy", AI)
        """)
    m = manager_for(tmp_path)
    game, players = play_one(m, ["lazy", "basic", "basic", "basic"], seed=8)
    assert players[0].faults == [] and players[0].fallbacks == players[0].decisions
    assert len(players[0].ai.seen) == len(game.view(None).tricks)


def test_factory_failures_fall_back(tmp_path):
    write_plugin(tmp_path, "broken", """
        import time
        def bad_factory(settings):
            raise ValueError("no model file")
        def slow_factory(settings):
            time.sleep(1.0)
        def none_factory(settings):
            return None
        class WrongHook:
            def __init__(self, settings):
                pass
            @hookimpl
            def choose_play(self, view, options, extra_arg):
                return None

        @hookimpl
        def register_ais(register):
            register("bad", bad_factory)
            register("slow", slow_factory)
            register("none", none_factory)
            register("wrong", WrongHook)
        """)
    m = manager_for(tmp_path)
    game, players = play_one(m, ["bad", "slow", "none", "wrong"], seed=9)
    assert [p.disabled for p in players] == [True] * 4
    assert "no model file" in players[0].faults[0].reason
    assert players[1].faults[0].kind == "timeout"
    assert "None" in players[2].faults[0].reason
    assert "extra_arg" in players[3].faults[0].reason


def test_unknown_ai_plays_basic():
    m = manager_for()
    game, players = play_one(m, ["no-such-ai", "random", "random", "random"], seed=1)
    assert players[0].disabled and "no AI named" in players[0].faults[0].reason


def test_act_returns_engine_actions_and_validates_against_the_view():
    game = Game.new(hongwu(), seed=21)
    player = SafePlayer(None, "none", game.to_act, budget_s=BUDGET)
    action = player.act(game.view(game.to_act))
    assert isinstance(action, Bid) and action.seat == game.to_act
    with pytest.raises(ValueError):
        SafePlayer(None, "x", 0, budget_s=0)


def test_play_hand_replaces_actions_the_engine_rejects(caplog):
    class Liar:
        """Claims to be seat 3 whatever seat it plays: the engine rejects its actions."""

        def __init__(self, seat):
            self.inner = SafePlayer(None, "liar", seat, budget_s=BUDGET)
            self.faults = self.inner.faults

        def act(self, view):
            action = self.inner.act(view)
            if view.phase is Phase.PLAY:
                return Play((view.seat + 1) % 4, action.cards)
            return action

        def fallback_action(self, view, reason=None):
            return self.inner.fallback_action(view, reason)

    from ai_plugins.runner import play_hand

    game = Game.new(hongwu(), seed=4)
    liar = Liar(0)
    players = [liar] + [SafePlayer(None, "basic", s) for s in (1, 2, 3)]
    with caplog.at_level(logging.WARNING):
        play_hand(game, players)
    assert game.phase is Phase.SETTLE
    assert liar.faults and liar.faults[0].kind == "rejected"


def test_make_player_passes_settings(tmp_path):
    write_plugin(tmp_path, "settings_probe", """
        SEEN = []
        class AI:
            def __init__(self, settings):
                SEEN.append(settings)
        @hookimpl
        def register_ais(register):
            register("probe", AI)
        """)
    m = manager_for(tmp_path)
    player = make_player(m, "probe", 2, 0.5, seed=77, options={"think_ms": 10})
    settings = player.ai.__class__.__init__.__globals__["SEEN"][0]
    assert settings == AISettings(seat=2, seed=77, budget_s=0.5, options={"think_ms": 10})
