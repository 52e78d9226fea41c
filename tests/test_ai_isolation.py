"""Issue 12, part 1 and 2: a plugin that rewrites what it is given, or prints without end,
changes nothing in the game, the stand-in or the result lines. Real plugin files, real
discovery, real ``hongwu`` subprocesses."""
from __future__ import annotations

import dataclasses
import json
import logging
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from ai_helpers import manager_for, play_one, write_plugin
from ai_plugins.capture import capture_output
from ai_plugins.isolation import SHALLOW_TYPES, private_copy, private_view
from ai_plugins.runner import make_player, play_hand
from engine.cards import Card
from engine.ruleset import hongwu
from engine.state import Game, Phase

ROOT = Path(__file__).resolve().parent.parent

#: rewrites everything it is handed, through every back door, then asks basic to decide
WRECKER = """
import sys

from engine.patterns import classify
from engine.tricks import legal_leads

def wreck(view, options=None):
    hand = view.hand
    object.__setattr__(view, "hand", ())
    view.__dict__["legal_bid_amounts"] = ()
    view.__dict__["phase"] = None
    object.__setattr__(view.ruleset, "kitty_size", 0)
    object.__setattr__(view.ruleset.options, "base_score", 99)
    for t in view.tricks:
        object.__setattr__(t, "winner", 9)
        object.__setattr__(t, "plays", ())
    if view.settlement is not None:
        object.__setattr__(view.settlement, "game_points", (0, 0, 0, 0))
    ctx = view.__class__.ctx.fget(view) if view.trump else None
    if ctx is not None:
        # a corrupted card order, then engine calls with it: the engine's caches (keyed on
        # ctx.key) must not keep anything computed from it
        ctx.VAL = tuple(0 for _ in ctx.VAL)
        ctx.SUITX = tuple(4 for _ in ctx.SUITX)
        for i in range(0, len(hand) - 1):
            try:
                classify(hand[i:i + 2], ctx)
                next(iter(legal_leads(hand[i:i + 3], ctx)), None)
            except Exception:
                pass
    if options is not None:
        options.hand = ()
        options.lead = None
        options.ctx.VAL = ()
        options.leading = True
    for i in range(LINES):
        print("wrecker says", i)
    sys.stdout.write("no newline at the end")
    sys.stderr.write("wrecker on stderr\\n")

class AI:
    def __init__(self, settings):
        pass
    def choose_bid(self, view, bids):
        wreck(view)
        return None
    def choose_trump(self, view, suits):
        wreck(view)
        return None
    def choose_bury(self, view, count):
        wreck(view)
        return None
    def choose_play(self, view, options):
        wreck(view, options)
        return None

@hookimpl
def register_ais(register):
    print("wrecker registering")
    register("wrecker", AI, "6.6")
"""


def _wrecker(folder: Path, lines: int = 3) -> Path:
    return write_plugin(folder, "wrecker", f"LINES = {lines}\n" + WRECKER)


def _events(game):
    return [e.as_dict() for e in game.events]


@pytest.mark.parametrize("seat", [0, 3])
def test_a_plugin_rewriting_its_view_and_options_changes_nothing(tmp_path, seat):
    _wrecker(tmp_path)
    m = manager_for(tmp_path)
    assert m.problems == []
    names = ["basic"] * 4
    names[seat] = "wrecker"
    for seed in (2, 7):
        game, players = play_one(m, names, seed=seed, budget_s=2.0)
        ref, _ = play_one(m, ["basic"] * 4, seed=seed, budget_s=2.0)
        # the wrecker decided nothing (it always answers None): the hand is the all-basic one
        assert _events(game) == _events(ref)
        assert game.settlement == ref.settlement
        assert players[seat].faults == [] and players[seat].lost == 0
        assert game.ruleset.kitty_size == 8 and game.ruleset.options.base_score == 2


def test_the_engine_objects_behind_a_view_survive_a_wrecker(tmp_path):
    """The shared, cached things (the trump context, the ruleset) are the same objects,
    unchanged, after a hand with a wrecker."""
    from engine.order import context

    _wrecker(tmp_path)
    m = manager_for(tmp_path)
    before = {s: (context(s).VAL, context(s).SUITX) for s in "SHCD"}
    game, _ = play_one(m, ["wrecker"] * 4, seed=5, budget_s=2.0)
    assert {s: (context(s).VAL, context(s).SUITX) for s in "SHCD"} == before
    assert hongwu(2) == game.ruleset


def test_a_private_view_equals_the_engine_view_and_shares_nothing_changeable():
    game = Game.new(hongwu(), seed=3)
    m = manager_for()
    players = [make_player(m, "basic", s, 2.0, s) for s in range(4)]
    seen_play = False
    while game.phase is not Phase.SETTLE:
        view = game.view(game.to_act)
        mine = private_view(view)
        for f in dataclasses.fields(view):
            assert getattr(mine, f.name) == getattr(view, f.name), f.name
        assert mine.ruleset is not view.ruleset and mine.ruleset == view.ruleset
        if view.trump:
            assert mine.ctx is not view.ctx and mine.ctx.VAL == view.ctx.VAL
        if view.phase is Phase.PLAY:
            seen_play = True
            assert set(mine.play_options()) == set(view.play_options())
            assert all(a is not b for a, b in zip(mine.tricks, view.tricks))
        game.apply(players[game.to_act].act(view))
    assert seen_play


def _deep_immutable(value) -> bool:
    if isinstance(value, (int, str, float, type(None))) and not hasattr(value, "__dict__"):
        return True
    if type(value) is tuple:
        return all(_deep_immutable(v) for v in value)
    return False


def test_shallow_copied_engine_types_hold_only_immutable_values():
    """isolation.SHALLOW_TYPES are copied one level deep: their fields must stay immutable
    (catches a list or dict field added to FinishedTrick, Settlement or RuleOptions later)."""
    m = manager_for()
    for decks in (2, 3):
        game, _ = play_one(m, ["basic"] * 4, seed=decks, decks=decks)
        view = game.view(0)
        objs = list(view.tricks) + [view.settlement, view.ruleset.options]
        assert {type(o) for o in objs} == set(SHALLOW_TYPES)
        for obj in objs:
            for f in dataclasses.fields(obj):
                assert _deep_immutable(getattr(obj, f.name)), (type(obj).__name__, f.name)


def test_private_copy_copies_what_can_change():
    nested = {"a": [1, (2, [3])], "b": {4}}
    out = private_copy(nested)
    assert out == nested and out is not nested
    out["a"][1][1].append(9)
    assert nested["a"][1][1] == [3]
    cards = (Card.parse("10H"), Card.parse("BJ"))
    assert private_copy(cards) is cards  # immutable: shared


def test_card_text_construction_works():
    assert Card("10H") is Card.parse("10H") and Card("bj") is Card.parse("BJ")
    assert Card(5) is Card.parse("7S")
    with pytest.raises(ValueError, match="Card.parse"):
        Card("XX")


# -- output capture ----------------------------------------------------------------------
def _hongwu(*args, cwd: Path, timeout: float = 240) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT), SDL_VIDEODRIVER="dummy",
               SDL_AUDIODRIVER="dummy", HONGWU_LOG="WARNING")
    env["XDG_DATA_HOME"] = str(cwd / "data")
    env["XDG_CONFIG_HOME"] = str(cwd / "config")
    return subprocess.run([sys.executable, "-m", "game", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=timeout)


def test_demo_result_lines_are_exactly_the_result_lines(tmp_path):
    """A plugin printing 10,000 lines per decision (and wrecking its view) in a 2-hand demo:
    standard output is exactly the result lines of the all-basic demo with the same seed."""
    plugins = tmp_path / "plugins"
    _wrecker(plugins, lines=10_000)
    log = tmp_path / "plugin.log"
    common = ["play", "--hands", "2", "--speed", "instant", "--seed", "11", "--mute",
              "--no-user-plugins", "--plugin-dir", str(plugins)]
    bad = _hongwu(*common, "--seats", "wrecker,basic,basic,basic", "--plugin-log", str(log),
                  cwd=tmp_path)
    good = _hongwu(*common, "--seats", "basic,basic,basic,basic", cwd=tmp_path)
    assert bad.returncode == 0, bad.stderr[-2000:]
    assert good.returncode == 0, good.stderr[-2000:]
    assert bad.stdout == good.stdout
    assert [ln.split(":")[0] for ln in bad.stdout.splitlines()] == ["hand 1", "hand 2"]
    assert "wrecker says" not in bad.stderr  # not at the default log level
    assert len(bad.stderr.splitlines()) < 20, bad.stderr[:3000]
    assert "printed" in bad.stderr and "wrecker" in bad.stderr
    kept = log.read_text(encoding="utf-8")
    assert "hongwu.ai.wrecker: [stdout] wrecker says 0" in kept
    assert "more lines of output were dropped" in kept
    # bounded: at most KEPT_LINES_PER_HAND lines per seat and hand reach the file
    from ai_plugins.capture import KEPT_LINES_PER_HAND

    assert kept.count("wrecker says") <= 2 * KEPT_LINES_PER_HAND


def test_arena_table_and_json_are_clean_and_match_the_stand_in(tmp_path):
    plugins = tmp_path / "plugins"
    _wrecker(plugins, lines=2000)
    common = ["arena", "--hands", "3", "--seed", "4", "--jobs", "2", "--quiet",
              "--no-user-plugins", "--plugin-dir", str(plugins)]
    bad = _hongwu(*common, "--ai", "wrecker", "--ai", "basic", "--json", "bad.json", cwd=tmp_path)
    good = _hongwu(*common, "--ai", "basic", "--ai", "basic", "--json", "good.json", cwd=tmp_path)
    assert bad.returncode == 0 and good.returncode == 0, bad.stderr[-2000:]
    assert "wrecker says" not in bad.stdout + bad.stderr
    rows = bad.stdout.splitlines()
    assert rows[0].startswith("arena: 3 deals") and len(rows) == 4  # heading + 3 table lines
    b = json.loads((tmp_path / "bad.json").read_text())["ais"]
    g = json.loads((tmp_path / "good.json").read_text())["ais"]
    for key in ("mean_game_points", "dealer_rate", "dealer_success_rate", "mean_bid"):
        assert b["wrecker"][key] == g["basic"][key], key
    assert b["wrecker"]["faults"] == 0  # None is not a fault
    assert b["wrecker"]["fault_report"]["printed"] > 0


def test_threads_a_plugin_starts_during_its_decision_are_captured(tmp_path, capsys, caplog):
    write_plugin(tmp_path, "chatty", """
        import threading, sys
        class AI:
            def __init__(self, settings):
                pass
            def choose_bid(self, view, bids):
                t = threading.Thread(target=lambda: print("from my thread"))
                t.start(); t.join()
                sys.stdout.write("direct write\\n")
                sys.stderr.write("to stderr\\n")
                return None
        @hookimpl
        def register_ais(register):
            register("chatty", AI)
        """)
    with caplog.at_level(logging.INFO, logger="hongwu.ai"), capture_output():
        m = manager_for(tmp_path)
        print("main thread passes")
        play_one(m, ["chatty", "basic", "basic", "basic"], seed=3, budget_s=2.0)
    out, err = capsys.readouterr()
    assert out == "main thread passes\n" and err == ""
    texts = [r.getMessage() for r in caplog.records if r.name == "hongwu.ai.chatty"]
    assert "[stdout] from my thread" in texts and "[stdout] direct write" in texts
    assert "[stderr] to stderr" in texts
    assert sys.stdout is not None and not type(sys.stdout).__name__ == "_Router"
    assert threading.active_count() >= 1


def test_a_log_handler_writing_to_the_captured_stream_does_not_loop(tmp_path, capsys):
    """A handler on sys.stderr made while capturing (so it writes to the router) logging a
    plugin's captured line: the line goes out once, no recursion."""
    from ai_plugins.capture import OutputSink, attributed

    with capture_output():
        handler = logging.StreamHandler(sys.stderr)
        lg = logging.getLogger("hongwu.ai.loopy")
        lg.addHandler(handler)
        lg.setLevel(logging.INFO)
        try:
            done = []

            def worker():
                with attributed(OutputSink("loopy")):
                    print("hello from a plugin")
                done.append(True)

            t = threading.Thread(target=worker)
            t.start()
            t.join(10)
        finally:
            lg.removeHandler(handler)
            lg.setLevel(logging.NOTSET)
    assert done
    err = capsys.readouterr().err
    assert err.count("hello from a plugin") == 1
