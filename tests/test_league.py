"""``hongwu league``: ratings fitted on paired duplicate deals, the table, JSON, the PNG plot,
and resuming from a results file."""
from __future__ import annotations

import json
import struct
import zlib

import pytest

from ai_helpers import write_plugin
from ai_plugins.arena import ArenaConfig
from ai_plugins.league import deal_outcome, load_results, pairs, run_league
from ai_plugins.png_chart import interval_chart
from ai_plugins.ratings import ci95_half_width, fit_bradley_terry, rate
from game.cli import main as hongwu_main


def test_pairs_in_order():
    assert pairs(2) == [(0, 1)]
    assert pairs(4) == [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]


def test_bradley_terry_fit():
    even = fit_bradley_terry(2, {(0, 1): 5.0}, {(0, 1): 10.0})
    assert even == pytest.approx([0.0, 0.0], abs=1e-6)
    # a transitive order is kept, ratings average 0, and an unbeaten AI stays finite
    r = fit_bradley_terry(3, {(0, 1): 8.0, (0, 2): 10.0, (1, 2): 7.0},
                          {(0, 1): 10.0, (0, 2): 10.0, (1, 2): 10.0})
    assert r[0] > r[1] > r[2] and sum(r) == pytest.approx(0.0, abs=1e-6)
    # with the prior (one virtual tie): 3.5 wins of 5, so p0/p1 = 3.5/1.5
    two = fit_bradley_terry(2, {(0, 1): 3.0}, {(0, 1): 4.0})
    assert two[0] - two[1] == pytest.approx(400 * __import__("math").log10(3.5 / 1.5))
    with pytest.raises(ValueError):
        fit_bradley_terry(2, {}, {(1, 0): 1.0})


def test_ci95_half_width():
    # stdev of (0, 2, 4, 6) is sqrt(20/3); the half-width is 1.96 of it over sqrt(4)
    assert ci95_half_width([0, 2, 4, 6]) == pytest.approx(1.96 * (20 / 3) ** 0.5 / 2)
    assert ci95_half_width([5.0, 5.0]) == 0.0
    assert ci95_half_width([1.0]) is None and ci95_half_width([]) is None


def test_bootstrap_intervals_contain_the_fit_and_repeat():
    outcomes = {(0, 1): {d: [1.0, 0.0, 1.0, 0.5][d % 4] for d in range(40)}}
    got = rate(2, outcomes, bootstrap=100, seed=7)
    for r, lo, hi in got:
        assert lo <= r <= hi and lo < hi
    assert rate(2, outcomes, bootstrap=100, seed=7) == got
    assert rate(2, {(0, 1): {}}, bootstrap=100)[0][1] is None


def _config(**kw):
    kw.setdefault("user_dir", False)
    kw.setdefault("entry_points", False)
    return ArenaConfig(**kw)


def _png_size(data: bytes) -> tuple[int, int]:
    """Check the PNG structure (signature, chunk CRCs, pixel data size); return its size."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, chunks = 8, {}
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos:pos + 4])
        kind, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + length]
        (crc,) = struct.unpack(">I", data[pos + 8 + length:pos + 12 + length])
        assert crc == zlib.crc32(kind + body) & 0xFFFFFFFF
        chunks.setdefault(kind, b"")
        chunks[kind] += body
        pos += 12 + length
    w, h, depth, color = struct.unpack(">IIBB", chunks[b"IHDR"][:10])
    assert (depth, color) == (8, 2) and b"IEND" in chunks
    assert len(zlib.decompress(chunks[b"IDAT"])) == h * (1 + 3 * w)
    return w, h


def test_chart_is_a_valid_png():
    w, h = _png_size(interval_chart([("basic", 100.0, 50.0, 150.0), ("random", -100.0, None, None)],
                                    "title"))
    assert w > 100 and h > 50
    with pytest.raises(ValueError):
        interval_chart([])


def test_cli_league_table_json_and_plot(tmp_path, capsys):
    write_plugin(tmp_path / "plugins", "firstbot", """
        class First:
            def __init__(self, settings):
                pass
            def choose_play(self, view, options):
                return next(iter(options))

        @hookimpl
        def register_ais(register):
            register("first", First, "1.0")
        """)
    out_json, plot = tmp_path / "league.json", tmp_path / "league.png"
    code = hongwu_main(["league", "--ai", "basic", "--ai", "random", "--ai", "first",
                        "--hands", "2", "--seed", "5", "--jobs", "1", "--no-user-plugins",
                        "--plugin-dir", str(tmp_path / "plugins"), "--bootstrap", "50",
                        "--json", str(out_json), "--plot", str(plot)])
    out, err = capsys.readouterr()
    assert code == 0, err
    progress = [line for line in err.splitlines() if " deals (" in line]
    assert progress and all(line.startswith("league: ") for line in progress), err  # not "arena:"
    data = json.loads(out_json.read_text())
    assert data["complete"] and data["deals"] == 2 and data["seed"] == 5
    assert set(data["ratings"]) == {"basic", "random", "first"}
    assert sum(s["rating"] for s in data["ratings"].values()) == pytest.approx(0.0, abs=1e-6)
    for label, s in data["ratings"].items():
        assert s["deals"] == 4 and s["won"] + s["lost"] + s["tied"] == 4
        assert s["low"] <= s["rating"] <= s["high"]
        assert any(line.split()[1:3] == [label, f"{s['rating']:+.0f}"] for line in out.splitlines())
    assert [(p["a"], p["b"]) for p in data["pairs"]] == [("basic", "random"), ("basic", "first"),
                                                         ("random", "first")]
    assert _png_size(plot.read_bytes())[0] > 100
    assert hongwu_main(["league", "--ai", "basic", "--hands", "1", "--no-user-plugins"]) == 2
    assert hongwu_main(["league", "--ai", "basic", "--ai", "nope", "--hands", "1",
                        "--no-user-plugins"]) == 2


def test_league_resumes_from_its_results_file(tmp_path):
    config = _config(ais=("basic", "random", "basic"), seed=8)
    fresh = run_league(config, 3, jobs=1, bootstrap=50)
    results = tmp_path / "league.jsonl"
    part = run_league(config, 3, jobs=1, bootstrap=50, results_file=results, limit=4)
    assert not part["complete"]
    assert len(results.read_text().splitlines()) == 1 + 4  # header + one line per chunk
    with results.open("a") as fh:
        fh.write('{"pair": [0, 1], "results": [[2, [')  # a line cut short by a crash
    ticks = []
    done = run_league(config, 3, jobs=2, bootstrap=50, results_file=results,
                      progress=ticks.append)
    assert done == fresh and done["complete"]
    assert ticks[0] == 4 and sum(ticks) == 9  # the 4 recorded deals, then the other 5
    again = run_league(config, 3, jobs=1, bootstrap=50, results_file=results, limit=0)
    assert again == fresh
    assert sum(len(v) for v in load_results(results, config).values()) == 9
    with pytest.raises(ValueError, match="another league"):
        run_league(_config(ais=("basic", "random"), seed=8), 3, jobs=1, results_file=results)


def test_cli_results_needs_a_seed(tmp_path, capsys):
    code = hongwu_main(["league", "--ai", "basic", "--ai", "random", "--hands", "1",
                        "--no-user-plugins", "--results", str(tmp_path / "r.jsonl")])
    assert code == 2 and "--seed" in capsys.readouterr().err


def test_deal_outcome():
    from ai_plugins.arena import SeatResult

    rows = [SeatResult(0, 0, 3, True, 80, 10, 0), SeatResult(1, 1, -1, False, 80, 10, 0),
            SeatResult(0, 2, -1, False, 80, 10, 0), SeatResult(1, 3, -1, False, 80, 10, 0)]
    assert deal_outcome(rows) == 1.0
    assert deal_outcome([rows[1], rows[0]]) == 1.0
    assert deal_outcome([SeatResult(0, 0, 0, True, 80, 0, 0), SeatResult(1, 1, 0, False, 80, 0, 0)]) == 0.5


# --- 找朋友 (--ruleset zhaopengyou) ---------------------------------------------------------

def test_zpy_deal_outcome_compares_mean_level_gain():
    from ai_plugins.arena_zpy import ZpySeatResult
    from ai_plugins.league import zpy_deal_outcome

    def row(ai, gain):
        return ZpySeatResult(ai, 0, gain, False, False, gain > 0, 0, 0)

    # A: 3 hands, mean 1; B: 2 hands, mean 1.5 -> B wins although A gained more in total
    rows = [row(0, 1), row(0, 1), row(0, 1), row(1, 3), row(1, 0)]
    assert zpy_deal_outcome(rows) == 0.0
    assert zpy_deal_outcome([row(0, 2), row(1, 1)]) == 1.0
    assert zpy_deal_outcome([row(0, 2), row(1, 2), row(0, 0), row(1, 0)]) == 0.5
    with pytest.raises(ValueError):
        zpy_deal_outcome([row(0, 1)])


def test_cli_zpy_league_table_json_plot_and_refusals(tmp_path, capsys):
    out_json, plot = tmp_path / "zpy.json", tmp_path / "zpy.png"
    code = hongwu_main(["league", "--ruleset", "zhaopengyou", "--ai", "basic", "--ai", "random",
                        "--hands", "2", "--seed", "4", "--jobs", "1", "--no-user-plugins",
                        "--quiet", "--bootstrap", "20", "--json", str(out_json),
                        "--plot", str(plot)])
    out, err = capsys.readouterr()
    assert code == 0, err
    data = json.loads(out_json.read_text())
    assert data["ruleset"] == "zhaopengyou" and data["decks"] == 3 and data["complete"]
    assert "levels/hand (95% CI)" in out and out.startswith("league (找朋友)")
    (pair,) = data["pairs"]
    assert pair["deals"] == 2 and pair["a_won"] + pair["b_won"] + pair["tied"] == 2
    for label, side in (("basic", "a"), ("random", "b")):
        s = data["ratings"][label]
        assert "mean_game_points" not in s and s["ci95"] is not None and s["ci95"] >= 0
        # two AIs: every deal has 25 seat-hands of each, so the AI's mean is its pair's
        assert s["mean_level_gain"] == pytest.approx(pair[f"{side}_mean_level_gain"])
        assert f"{s['mean_level_gain']:.3f} ± {s['ci95']:.3f}" in out
    assert _png_size(plot.read_bytes())[0] > 100
    # options that do not apply, and the ruleset check of run_league itself
    assert hongwu_main(["league", "--ruleset", "zhaopengyou", "--decks", "2", "--ai", "basic",
                        "--ai", "random", "--hands", "1", "--no-user-plugins"]) == 2
    assert "--decks does not apply" in capsys.readouterr().err
    with pytest.raises(ValueError, match="3 decks"):
        run_league(_config(ais=("basic", "random"), ruleset="zhaopengyou"), 1, jobs=1)
    with pytest.raises(ValueError, match="unknown ruleset"):
        run_league(_config(ais=("basic", "random"), ruleset="shengji"), 1, jobs=1)


def test_zpy_league_resumes_and_refuses_a_hongwu_file(tmp_path):
    config = _config(ais=("basic", "random"), seed=6, decks=3, ruleset="zhaopengyou")
    fresh = run_league(config, 2, jobs=1, bootstrap=20)
    results = tmp_path / "zpy.jsonl"
    part = run_league(config, 2, jobs=1, bootstrap=20, results_file=results, limit=1)
    assert not part["complete"]
    assert '"ruleset": "zhaopengyou"' in results.read_text().splitlines()[0]
    done = run_league(config, 2, jobs=1, bootstrap=20, results_file=results)
    assert done == fresh and done["complete"]
    with pytest.raises(ValueError, match="ruleset"):  # same AIs and seed, but 红五
        run_league(_config(ais=("basic", "random"), seed=6, decks=3), 2, jobs=1,
                   results_file=results)
