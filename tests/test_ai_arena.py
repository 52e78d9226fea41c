"""The arena: line-ups, duplicate deals, reproducibility across job counts, JSON output."""
from __future__ import annotations

import json

import pytest

from ai_helpers import write_plugin
from ai_plugins.arena import ArenaConfig, Progress, format_summary, label_names, lineups, run_arena
from ai_plugins.base import UnknownAIError
from game.cli import main as hongwu_main


def test_lineups_put_every_ai_in_every_seat_equally():
    assert lineups(1) == [(0, 0, 0, 0)]
    assert lineups(2) == [(0, 1, 0, 1), (1, 0, 1, 0)]
    for k in (2, 3, 4):
        lus = lineups(k)
        assert len(set(lus)) == len(lus)
        for seat in range(4):
            per_ai = [sum(1 for lu in lus if lu[seat] == ai) for ai in range(k)]
            assert len(set(per_ai)) == 1, (k, seat, per_ai)
    with pytest.raises(ValueError):
        lineups(5)


def test_label_names():
    assert label_names(["basic", "basic", "random"]) == ["basic", "basic#2", "random"]


def _config(**kw):
    kw.setdefault("user_dir", False)
    kw.setdefault("entry_points", False)
    return ArenaConfig(**kw)


def test_tiny_arena_is_reproducible_with_one_or_two_jobs():
    config = _config(ais=("basic", "random"), deals=3, seed=5)
    ticks = []
    one = run_arena(config, jobs=1, progress=ticks.append)
    two = run_arena(config, jobs=2)
    assert sum(ticks) == 3
    assert one == two
    assert one["lineups"] == ["ABAB", "BABA"] and one["deals"] == 3
    basic, rnd = one["ais"]["basic"], one["ais"]["random"]
    assert basic["hands"] == rnd["hands"] == 3 * 2 * 2
    # zero-sum: both AIs hold the same number of seat-hands, so their means cancel
    assert basic["mean_game_points"] == pytest.approx(-rnd["mean_game_points"])
    assert basic["ci95"] is not None and basic["ci95"] >= 0
    dealer_hands = sum(s["dealer_rate"] * s["hands"] for s in one["ais"].values())
    assert dealer_hands == pytest.approx(3 * 2)  # one dealer per hand
    other = run_arena(_config(ais=("basic", "random"), deals=3, seed=6), jobs=1)
    assert other != one


def test_arena_three_decks_and_three_ais():
    summary = run_arena(_config(ais=("basic", "random", "basic"), deals=1, decks=3, seed=2), jobs=1)
    assert set(summary["ais"]) == {"basic", "random", "basic#2"}
    assert all(s["hands"] == 16 for s in summary["ais"].values())
    lines = format_summary(summary)
    assert lines[0].startswith("arena: 1 deals x 12 line-ups") and "3 decks" in lines[0]


def test_arena_rejects_unknown_ai():
    with pytest.raises(UnknownAIError):
        run_arena(_config(ais=("basic", "nope"), deals=1), jobs=1)


def test_arena_cli_with_a_plugin_and_json(tmp_path, capsys):
    write_plugin(tmp_path / "plugins", "first", """
        class First:
            def __init__(self, settings):
                pass
            def choose_play(self, view, options):
                return next(iter(options))

        @hookimpl
        def register_ais(register):
            register("first", First, "1.0")
        """)
    out_json = tmp_path / "result.json"
    code = hongwu_main(["arena", "--ai", "first", "--ai", "basic", "--hands", "2", "--seed", "3",
                        "--jobs", "2", "--json", str(out_json), "--no-user-plugins",
                        "--plugin-dir", str(tmp_path / "plugins"), "--budget", "1"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "2/2 deals" in err and "\r" not in err  # progress: lines, stderr is no terminal
    data = json.loads(out_json.read_text())
    assert data["seed"] == 3 and data["deals"] == 2 and set(data["ais"]) == {"first", "basic"}
    for name, s in data["ais"].items():
        assert s["hands"] == 8
        row = next(line for line in out.splitlines() if line.startswith(name + " "))
        assert f"{s['mean_game_points']:+.2f}" in row
        assert s["faults"] == 0
    assert hongwu_main(["arena", "--ai", "nope", "--hands", "1", "--no-user-plugins"]) == 2


def test_progress_bar_text():
    import io

    buf = io.StringIO()
    bar = Progress(4, stream=buf, width=8, tty=True)
    bar.advance(2)
    bar.advance(2)
    assert "\rarena [####....] 2/4 deals" in buf.getvalue() and buf.getvalue().endswith("\n")


def test_progress_off_a_terminal_prints_a_line_per_tenth():
    import io

    buf = io.StringIO()  # not a terminal: no \r redraws
    bar = Progress(40, stream=buf)
    assert not bar.tty
    for _ in range(40):
        bar.advance(1)
    lines = buf.getvalue().splitlines()
    assert "\r" not in buf.getvalue() and len(lines) == 10
    assert lines[0].startswith("arena: 4/40 deals (10%)")
    assert lines[-1].startswith("arena: 40/40 deals (100%)")
    few = io.StringIO()
    small = Progress(3, stream=few)
    small.advance(2)
    small.advance(1)
    assert few.getvalue().splitlines()[-1].startswith("arena: 3/3 deals (100%)")
    quiet = io.StringIO()
    Progress(3, stream=quiet, enabled=False).advance(3)
    assert quiet.getvalue() == ""


def test_arena_hands_help_says_deals_per_line_up(capsys):
    with pytest.raises(SystemExit):
        hongwu_main(["arena", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "--hands N number of deals" in text and "once per line-up" in text


def test_ai_speed_benchmark_runs(capsys):
    import runpy
    from pathlib import Path

    script = Path(__file__).resolve().parent.parent / "benchmarks" / "ai_speed.py"
    module = runpy.run_path(str(script))
    assert module["main"](["--hands", "1", "--repeats", "1", "--ai", "basic"]) == 0
    out = capsys.readouterr().out
    assert "basic    play" in out and "median" in out


def test_ai_specs_carry_their_own_options_and_budget():
    from ai_plugins.specs import spec_label, spec_player, split_spec

    assert split_spec("basic") == ("basic", {})
    assert split_spec("basic@blunder=0.35") == ("basic", {"blunder": 0.35})
    assert split_spec("expert@think_ms=100,samples=4,x=yes,y=true") == (
        "expert", {"think_ms": 100, "samples": 4, "x": "yes", "y": True})
    assert split_spec("mod.ule:Obj@a=1") == ("mod.ule:Obj", {"a": 1})
    for bad in ("@a=1", "basic@a", "basic@=3"):
        with pytest.raises(ValueError):
            split_spec(bad)
    assert spec_player("expert@budget=0.5,think_ms=200", 2.0, {"think_ms": 100, "samples": 3}) == (
        "expert", 0.5, {"think_ms": 200, "samples": 3})
    assert spec_player("basic", 2.0, {"think_ms": 100}) == ("basic", 2.0, {"think_ms": 100})
    assert spec_label("basic", "basic@blunder=0.35") == "basic@blunder=0.35"


def test_arena_plays_one_ai_against_itself_with_other_options():
    # the easy preset's AI (basic with blunders) against plain basic: the blunders cost points
    summary = run_arena(_config(ais=("basic@blunder=0.9", "basic"), deals=6, seed=11), jobs=1)
    assert list(summary["ais"]) == ["basic@blunder=0.9", "basic"]
    by = summary["ais"]
    assert by["basic"]["mean_game_points"] > by["basic@blunder=0.9"]["mean_game_points"]
