"""Issue 12, parts 3 and 4: fault reports an author can act on (file and line, one summary
block, ``faults`` = decisions lost), a plugin dropped after too many faults or time-outs, no
thread growth per hand, and one meaning of ``--ai module:object``. Real plugin files."""
from __future__ import annotations

import logging
import os
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import pytest

from ai_helpers import manager_for, play_one, write_plugin
from ai_plugins.arena import ArenaConfig, format_faults, run_arena
from ai_plugins.base import AIError
from ai_plugins.faults import DROP_AFTER_FAULTS, DROP_AFTER_TIMEOUTS, FaultLedger
from ai_plugins.runner import make_player, play_hand
from engine.ruleset import hongwu
from engine.state import Game, Phase
from game.cli import main as hongwu_main

ROOT = Path(__file__).resolve().parent.parent

RAISER = """
class AI:
    def __init__(self, settings):
        pass
    def choose_play(self, view, options):
        return helper(view)

def helper(view):
    raise RuntimeError("bad idea")  # RAISE_LINE

@hookimpl
def register_ais(register):
    register("raiser", AI)
"""


def _raise_line(path: Path) -> int:
    return next(i for i, ln in enumerate(path.read_text().splitlines(), 1) if "RAISE_LINE" in ln)


def _hands(manager, names, ledger, hands, budget_s=0.2, first_seed=1):
    """Play ``hands`` hands sharing ``ledger`` (as one run does); returns the players of each."""
    out = []
    for h in range(hands):
        game = Game.new(hongwu(), seed=first_seed + h)
        players = [make_player(manager, n, s, budget_s, seed=h * 10 + s, ledger=ledger)
                   for s, n in enumerate(names)]
        try:
            play_hand(game, players)
        finally:
            for p in players:
                p.close()
        assert game.phase is Phase.SETTLE
        out.append(players)
    return out


def test_a_fault_names_file_and_line_and_the_traceback_is_logged(tmp_path, caplog):
    path = write_plugin(tmp_path, "raiser", RAISER)
    m = manager_for(tmp_path)
    with caplog.at_level(logging.DEBUG, logger="ai_plugins.runner"):
        game, players = play_one(m, ["raiser", "basic", "basic", "basic"], seed=2)
    fault = players[0].faults[0]
    assert fault.kind == "exception"
    assert fault.reason == f"RuntimeError: bad idea at {path}:{_raise_line(path)} in helper"
    assert f'File "{path}", line {_raise_line(path)}, in helper' in fault.traceback
    assert f'File "{path}", line {_raise_line(path)}' in caplog.text  # the DEBUG log has it


def test_faults_column_counts_decisions_lost_not_fault_events(tmp_path):
    write_plugin(tmp_path, "raiser", RAISER)
    write_plugin(tmp_path, "lazy", """
        class AI:
            def __init__(self, settings):
                pass
            def choose_play(self, view, options):
                return None
        @hookimpl
        def register_ais(register):
            register("lazy", AI)
        """)
    m = manager_for(tmp_path)
    game, players = play_one(m, ["raiser", "lazy", "basic", "basic"], seed=6)
    raiser, lazy = players[0], players[1]
    plays = sum(1 for t in game.view(None).tricks for s, _ in t.plays if s == 0)
    # 3 faults, then the seat is disabled: every play decision of the hand was lost
    assert len(raiser.faults) == 3 and raiser.disabled
    assert raiser.lost == plays and raiser.lost_kinds == {"exception": 3, "disabled": plays - 3}
    assert lazy.lost == 0 and lazy.fallbacks > 0  # None asks basic on purpose: not lost

    config = ArenaConfig(ais=("raiser", "lazy"), deals=2, seed=3, plugin_dirs=(str(tmp_path),),
                         user_dir=False, entry_points=False)
    summary = run_arena(config, jobs=1)
    s = summary["ais"]["raiser"]
    assert s["faults"] == sum(s["fault_report"]["lost"].values()) > s["fault_report"]["faults"]
    assert summary["ais"]["lazy"]["faults"] == 0
    block = format_faults(summary)
    assert sum(ln.startswith("AI ") for ln in block) == 1  # one entry for the one faulty AI
    assert any("exception:" in ln and "raiser.py" in ln and "in helper" in ln for ln in block)
    assert not any("Traceback" in ln for ln in block)
    assert any("Traceback" in ln for ln in format_faults(summary, verbose=True))


def test_a_plugin_that_keeps_faulting_is_dropped_for_the_run(tmp_path):
    write_plugin(tmp_path, "counted", """
        BUILT = []
        class AI:
            def __init__(self, settings):
                BUILT.append(settings.seat)
            def choose_play(self, view, options):
                return ["not a card"]
        @hookimpl
        def register_ais(register):
            register("counted", AI)
        """)
    m = manager_for(tmp_path)
    ledger = FaultLedger(loud=False)
    built = m.get("counted").factory.__init__.__globals__["BUILT"]
    hands = _hands(m, ["counted", "counted", "basic", "basic"], ledger, hands=6)
    assert ledger.is_dropped("counted") == f"{DROP_AFTER_FAULTS} faults"
    assert ledger.faults["counted"] == DROP_AFTER_FAULTS  # no fault after the drop
    assert len(built) < 12  # not rebuilt for every hand any more
    last = hands[-1][0]
    assert last.ai is None and last.lost_kinds.keys() == {"dropped"}


def test_a_hanging_plugin_is_dropped_after_three_time_outs(tmp_path):
    write_plugin(tmp_path, "sleepy", """
        import time
        class AI:
            def __init__(self, settings):
                pass
            def choose_bid(self, view, bids):
                time.sleep(0.6)
        @hookimpl
        def register_ais(register):
            register("sleepy", AI)
        """)
    m = manager_for(tmp_path)
    ledger = FaultLedger(loud=False)
    _hands(m, ["sleepy", "basic", "basic", "basic"], ledger, hands=6, budget_s=0.1)
    assert ledger.timeouts["sleepy"] == DROP_AFTER_TIMEOUTS
    assert ledger.is_dropped("sleepy") == f"{DROP_AFTER_TIMEOUTS} time-outs"


def test_no_thread_survives_per_hand_even_one_that_swallows_the_abandon(tmp_path):
    write_plugin(tmp_path, "stubborn", """
        STOP = []
        class AI:
            def __init__(self, settings):
                pass
            def choose_bid(self, view, bids):
                while not STOP:
                    try:
                        sum(range(1000))
                    except BaseException:   # swallows AIAbandoned: cannot be stopped
                        pass
        @hookimpl
        def register_ais(register):
            register("stubborn", AI)
        """)
    m = manager_for(tmp_path)
    stop = m.get("stubborn").factory.choose_bid.__globals__["STOP"]
    ledger = FaultLedger(loud=False)
    counts = []
    try:
        for h in range(7):
            _hands(m, ["stubborn", "basic", "basic", "basic"], ledger, hands=1, budget_s=0.05,
                   first_seed=h + 1)
            counts.append(threading.active_count())
        assert ledger.is_dropped("stubborn")
        # at most one leaked (daemon) thread per time-out before the drop, none after it
        assert counts[-1] == counts[DROP_AFTER_TIMEOUTS], counts
        assert ledger.threads_running("stubborn") <= DROP_AFTER_TIMEOUTS
        report = ledger.as_dict()["stubborn"]
        assert report["threads_running"] >= 1
        from ai_plugins.faults import format_fault_summary

        assert any("still running" in ln for ln in format_fault_summary({"stubborn": report}))
        leaked = [t for t in threading.enumerate() if t.name.startswith("hongwu-ai-")
                  and t.name.endswith(":stubborn")]
        assert leaked and all(t.daemon for t in leaked)
        assert all(t.name == "hongwu-ai-stuck:stubborn" for t in leaked)
        # the next run in this process (an arena worker's next batch) adopts those threads:
        # the AI is dropped at once, no new thread is started
        again = FaultLedger(loud=False)
        assert again.adopt_running_threads() == {"stubborn": len(leaked)}
        if len(leaked) >= DROP_AFTER_TIMEOUTS:
            assert again.is_dropped("stubborn")
            _hands(m, ["stubborn", "basic", "basic", "basic"], again, hands=2, budget_s=0.05)
            assert threading.active_count() == counts[-1]
    finally:
        stop.append(True)


def _hongwu(*args, cwd: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT), SDL_VIDEODRIVER="dummy",
               SDL_AUDIODRIVER="dummy", HONGWU_LOG="WARNING")
    env["XDG_DATA_HOME"] = str(cwd / "data")
    return subprocess.run([sys.executable, "-m", "game", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=240)


def test_arena_cli_ends_with_one_summary_block_and_tracebacks_with_verbose(tmp_path):
    plugins = tmp_path / "plugins"
    path = write_plugin(plugins, "raiser", RAISER)
    common = ["arena", "--ai", "raiser", "--ai", "basic", "--hands", "4", "--seed", "2",
              "--jobs", "2", "--quiet", "--no-user-plugins", "--plugin-dir", str(plugins)]
    quiet = _hongwu(*common, cwd=tmp_path)
    assert quiet.returncode == 0, quiet.stderr[-2000:]
    err = quiet.stderr.splitlines()
    assert err[0] == "faults (decisions lost to the basic AI, by reason):"
    assert err[1].startswith("AI raiser: ") and "lost to the basic AI" in err[1]
    assert f"{path}:{_raise_line(path)} in helper" in quiet.stderr
    assert "the basic AI takes this decision" not in quiet.stderr  # no line per fault
    assert len(err) < 10
    loud = _hongwu(*common, "-v", cwd=tmp_path)
    assert f'File "{path}", line {_raise_line(path)}, in helper' in loud.stderr
    assert loud.stdout == quiet.stdout  # the table is the same, only stderr says more


def test_play_cli_tells_file_and_line_and_the_traceback_with_verbose(tmp_path):
    plugins = tmp_path / "plugins"
    path = write_plugin(plugins, "raiser", RAISER)
    common = ["play", "--seats", "raiser,basic,basic,basic", "--hands", "1", "--speed",
              "instant", "--seed", "3", "--mute", "--no-user-plugins", "--plugin-dir", str(plugins)]
    plain = _hongwu(*common, cwd=tmp_path)
    assert plain.returncode == 0, plain.stderr[-2000:]
    assert plain.stdout.startswith("hand 1: ") and len(plain.stdout.splitlines()) == 1
    assert f"at {path}:{_raise_line(path)} in helper" in plain.stderr
    assert "AI faults this game:" in plain.stderr and "Traceback" not in plain.stderr
    loud = _hongwu(*common, "-v", cwd=tmp_path)
    assert f'File "{path}", line {_raise_line(path)}, in helper' in loud.stderr
    debug = _hongwu(*common, "--debug", cwd=tmp_path)
    assert debug.stderr.count(f'File "{path}", line {_raise_line(path)}, in helper') >= 3
    assert loud.stdout == plain.stdout == debug.stdout


# -- one meaning of --ai module:object ----------------------------------------------------
MODULE = '''
from ai_plugins import hookimpl

class Solo:
    def __init__(self, s):          # any parameter name: the factory is called positionally
        self.seat = s.seat

def keyword_factory(*, settings):   # keyword-only: accepted for compatibility
    return Solo(settings)

def two_args(a, b):
    return None

def choose_play(view, options):
    return None

class Pair:
    @hookimpl
    def register_ais(self, register):
        register("pair-one", Solo)
        register("pair-two", Solo)

pair = Pair()

class One:
    @hookimpl
    def register_ais(self, register):
        register("only-one", Solo)

one = One()
'''


@pytest.fixture
def module_dir(tmp_path, monkeypatch):
    (tmp_path / "hongwu_shapes.py").write_text(textwrap.dedent(MODULE))
    monkeypatch.syspath_prepend(str(tmp_path))
    yield tmp_path
    sys.modules.pop("hongwu_shapes", None)


def test_module_object_has_one_name_in_list_play_and_arena(module_dir, capsys):
    from game.table import LocalTable

    for spec, name in (("hongwu_shapes:Solo", "hongwu_shapes:Solo"),
                       ("hongwu_shapes:one", "only-one")):
        assert hongwu_main(["ai", "list", "--no-user-plugins", "--ai", spec]) == 0
        listed = capsys.readouterr().out
        assert f" {name} " in listed
        table = LocalTable([spec, "basic", "basic", "basic"], seed=1, speed="instant",
                           ai_specs=[spec], user_plugins=False)
        try:
            assert table.names[0] == name
        finally:
            table.close()
        config = ArenaConfig(ais=(spec, "basic"), deals=1, seed=1, user_dir=False,
                             entry_points=False)
        assert list(run_arena(config, jobs=1)["ais"]) == [name, "basic"]


def test_ai_list_table_is_not_mixed_with_what_plugins_print(tmp_path, capsys):
    write_plugin(tmp_path, "loud", """
        print("LOUD AT IMPORT")
        class A:
            def __init__(self, s):
                pass
        @hookimpl
        def register_ais(register):
            print("LOUD REGISTER")
            register("loud", A)
        """)
    assert hongwu_main(["ai", "list", "--no-user-plugins", "--plugin-dir", str(tmp_path)]) == 0
    out, err = capsys.readouterr()
    assert "LOUD" not in out + err and " loud " in out


def test_factories_are_called_positionally_or_by_keyword(module_dir):
    m = manager_for()
    for spec in ("hongwu_shapes:Solo", "hongwu_shapes:keyword_factory"):
        player = make_player(m, spec, 2, 1.0, seed=1)
        assert not player.faults and player.ai.seat == 2


@pytest.mark.parametrize("spec,words", [
    ("hongwu_shapes:two_args", ["two_args(a, b)", "exactly one argument"]),
    ("hongwu_shapes:choose_play", ["decision hook, not a factory"]),
    ("hongwu_shapes:pair", ["registers 2 AIs", "pair-one", "pair-two"]),
])
def test_wrong_shapes_are_refused_with_the_reason(module_dir, spec, words):
    m = manager_for()
    with pytest.raises(AIError) as err:
        m.resolve(spec)
    for w in words:
        assert w in str(err.value)
    assert "pair-one" not in m.names()  # not half-accepted


def test_a_plugin_file_with_a_bad_factory_or_a_reserved_name_is_refused(tmp_path):
    write_plugin(tmp_path, "shapes", """
        class NoArgs:
            def __init__(self):
                pass
        class Fine:
            def __init__(self, settings):
                pass
        @hookimpl
        def register_ais(register):
            register("human", Fine)
            register("fine", Fine)
        """)
    write_plugin(tmp_path, "noargs", """
        class NoArgs:
            def __init__(self):
                pass
        @hookimpl
        def register_ais(register):
            register("noargs", NoArgs)
        """)
    m = manager_for(tmp_path)
    assert "fine" in m.names() and "human" not in m.names() and "noargs" not in m.names()
    assert any("reserved name 'human'" in p and "shapes.py" in p for p in m.problems)
    assert any("noargs.py" in p and "exactly one argument" in p for p in m.problems)
