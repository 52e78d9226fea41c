"""The expert search's utilities (ai_plugins/builtin/fastsim.py): smoothed bands, the fitted
play-out calibration, and the arena's per-deal numbers used to compare variants."""
from __future__ import annotations

import importlib.util
import json
import statistics
from pathlib import Path

import pytest

from ai_plugins.arena import ArenaConfig, run_arena
from ai_plugins.builtin import fastsim
from engine.ruleset import hongwu
from engine.scoring import band_multiplier, settle

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("decks", [2, 3])
def test_smooth_bands_match_plain_bands_without_spread_and_far_from_edges(decks):
    rs = hongwu(decks)
    plain = fastsim.smooth_band_table(rs, 0.0)
    smooth = fastsim.smooth_band_table(rs, 12.0)
    b = rs.options.base_score
    for x in (-300, -71, -30, 0, 1, 30, 31, 200):
        assert plain[x + fastsim.SMOOTH_RANGE] == band_multiplier(rs, x) * b
    # far from every edge the spread changes nothing; next to an edge it takes part of a step
    assert smooth[-400 + fastsim.SMOOTH_RANGE] == pytest.approx(plain[-400 + fastsim.SMOOTH_RANGE])
    assert smooth[400 + fastsim.SMOOTH_RANGE] == pytest.approx(plain[400 + fastsim.SMOOTH_RANGE])
    at0 = smooth[fastsim.SMOOTH_RANGE]
    assert band_multiplier(rs, 1) * b < at0 < band_multiplier(rs, 0) * b
    # a defender's expected gain never rises with the dealer final
    assert all(x >= y - 1e-12 for x, y in zip(smooth, smooth[1:]))


def _settlement(rs, dealer_points, bid, red_five=()):
    pts = [0] * rs.players
    pts[0] = dealer_points
    return settle(rs, 0, bid, pts, [], 1, red_five)


def test_calibrated_utility_without_change_is_the_plain_game_points_plus_the_slope():
    rs = hongwu(2)
    st = _settlement(rs, 95, 60)  # final +35: the dealer's second band
    for seat in range(rs.players):
        side = 1 if seat == 0 else -1
        u = fastsim.calibrated_utility(st, seat, rs, 0, (0.0, 1.0, 0.0))
        assert u == pytest.approx(st.game_points[seat] + side * fastsim.SMOOTH_SLOPE * st.dealer_final)


def test_calibration_shrinks_future_points_and_keeps_red_five_transfers():
    rs = hongwu(2)
    st = _settlement(rs, 140, 60)  # final +80: the top band
    shrunk = fastsim.calibrated_utility(st, 0, rs, 0, (0.0, 0.5, 0.0))  # 70 points: final +10
    assert shrunk == pytest.approx(-(rs.players - 1) * band_multiplier(rs, 10) * rs.options.base_score
                                   + fastsim.SMOOTH_SLOPE * 10)
    # points already won are not shrunk
    kept = fastsim.calibrated_utility(st, 0, rs, 140, (0.0, 0.5, 0.0))
    assert kept == pytest.approx(st.game_points[0] + fastsim.SMOOTH_SLOPE * st.dealer_final)
    # a red five captured from a defender: its base score stays with the dealer
    rf = settle(rs, 0, 60, [95, 0, 0, 0], [], 0, [(1, 0)])
    assert rf.game_points[0] - _settlement(rs, 115, 60).game_points[0] == rs.options.base_score
    u_rf = fastsim.calibrated_utility(rf, 0, rs, 0, (0.0, 1.0, 0.0))
    assert u_rf == pytest.approx(rf.game_points[0] + fastsim.SMOOTH_SLOPE * rf.dealer_final)


@pytest.mark.parametrize("tractors", [False, True])
def test_shipped_calibration_has_every_bin_and_flattens_early(tractors):
    for decks in (2, 3):
        table = fastsim.load_calibration(tractors)[decks]
        assert len(table) == fastsim.BUCKETS
        early, late = table[-1], table[0]
        assert 0 < early[1] < late[1] <= 1.1  # the slope: flatter early in the hand
        assert early[2] > late[2] > 0  # the spread: wider early
        assert fastsim.calibration_for(decks, 1.0, tractors) == early
        assert fastsim.calibration_for(decks, 0.0, tractors) == late
    assert fastsim.calibration_for(5, 0.5, tractors) == (0.0, 1.0, 0.0)
    # two fits of their own: the play-outs that lead tractors end differently
    assert fastsim.load_calibration(True) != fastsim.load_calibration(False)


def _script(relpath: str):
    """The project script at ``relpath`` (benchmarks/, tools/: not packages) loaded as a module."""
    path = ROOT / relpath
    spec = importlib.util.spec_from_file_location(path.stem, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_fit_script_writes_the_tractors_calibration(tmp_path):
    """tools/fit_playout_calibration.py --tractors on a few deals: a table per deck count with
    every bin, marked as fitted with the switch on (the shipped file is its 300-deal run)."""
    mod = _script("tools/fit_playout_calibration.py")
    out = tmp_path / "cal.json"
    assert mod.main(["--deals", "4", "--tractors", "--out", str(out)]) == 0
    data = json.loads(out.read_text(encoding="utf-8"))
    for decks in ("2", "3"):
        assert len(data[decks]) == fastsim.BUCKETS
        assert data["fit"][decks]["tractors"] is True and data["fit"][decks]["deals"] == 4
    shipped = json.loads((ROOT / "ai_plugins" / "builtin" / "data" / fastsim.CALIBRATION_FILE_TRACTORS)
                         .read_text(encoding="utf-8"))
    assert shipped["fit"]["2"]["tractors"] is True and shipped["fit"]["2"]["deals"] == 300


def test_arena_reports_per_deal_means_and_roles_that_add_up():
    config = ArenaConfig(ais=("basic", "random"), deals=3, seed=11, user_dir=False, entry_points=False)
    summary = run_arena(config, jobs=1)
    for label, row in summary["ais"].items():
        assert len(row["per_deal"]) == 3
        assert sum(row["per_deal"]) / 3 == pytest.approx(row["mean_game_points"])
        roles = row["by_role"]
        assert sum(r["hands"] for r in roles.values()) == row["hands"]
        assert roles["dealt"]["hands"] == round(row["dealer_rate"] * row["hands"])
        total = sum(r["hands"] * r["mean_game_points"] for r in roles.values() if r["hands"])
        assert total / row["hands"] == pytest.approx(row["mean_game_points"])
    mod = _script("benchmarks/arena_paired.py")
    a, b = summary["ais"]["basic"]["per_deal"], summary["ais"]["random"]["per_deal"]
    diff, half = mod.paired(a, b)
    assert diff == pytest.approx(sum(y - x for x, y in zip(a, b)) / 3) and half >= 0
    with pytest.raises(ValueError):
        mod.paired(a, b[:2])


def test_arena_hand_records_and_the_split_script_add_up_to_the_mean(tmp_path, capsys):
    """Every hand of a run is recorded (one dealer, zero-sum game points, the bid and final
    the seat results carry), and ``arena_split.py``'s parts add up to the AI's mean."""
    config = ArenaConfig(ais=("basic", "random"), deals=6, seed=13, user_dir=False, entry_points=False)
    summary = run_arena(config, jobs=1)
    hands = summary["hands"]
    assert [(h["deal"], h["lineup"]) for h in hands] == [(d, j) for d in range(6) for j in range(2)]
    rs = hongwu(2)
    for h in hands:
        assert sum(h["game_points"]) == 0 and 0 <= h["dealer"] < rs.players
        assert rs.bid_min <= h["bid"] <= rs.bid_max
    dealt = [h for h in hands if summary["lineups"][h["lineup"]][h["dealer"]] == "A"]
    assert len(dealt) == round(summary["ais"]["basic"]["dealer_rate"] * summary["ais"]["basic"]["hands"])
    mod = _script("benchmarks/arena_split.py")
    path = tmp_path / "run.json"
    path.write_text(json.dumps(summary), encoding="utf-8")
    first, deals = mod.load(str(path))
    out = mod.split(first, deals, "basic")
    assert out["deals"] == 6
    assert sum(p["share"] for p in out["parts"].values()) == pytest.approx(summary["ais"]["basic"]["mean_game_points"])
    assert sum(p["deals"] for p in out["parts"].values()) == 6
    same = out["parts"]["the same seat dealt both times (the same hand, once each)"]["deals"]
    assert same == sum(1 for d in range(6) if hands[2 * d]["dealer"] == hands[2 * d + 1]["dealer"])
    assert mod.main([str(path), "--label", "random"]) == 0
    assert "random against basic" in capsys.readouterr().out
    del summary["hands"]
    path.write_text(json.dumps(summary), encoding="utf-8")
    with pytest.raises(SystemExit, match="no hand records"):
        mod.load(str(path))


def test_play_duel_dealer_only_changes_the_dealer_seat_alone(tmp_path, capsys):
    """``play_duel.py --dealer-only``: A plays only the dealer's seat against B's play of the
    same position. The same AI on both sides changes nothing (every per-deal figure 0), and a
    ``random`` dealer among ``basic`` defenders loses game points on nearly every deal; the
    per-deal figures are written with ``--json``."""
    mod = _script("benchmarks/play_duel.py")
    same, worse = tmp_path / "same.json", tmp_path / "worse.json"
    assert mod.main(["--a", "basic", "--b", "basic", "--deals", "4", "--seed", "3", "--dealer-only",
                     "--json", str(same)]) == 0
    assert mod.main(["--a", "random", "--b", "basic", "--deals", "6", "--seed", "3", "--dealer-only",
                     "--json", str(worse)]) == 0
    out = capsys.readouterr().out
    assert "basic as dealer: +0.00 ± 0.00" in out and "random as dealer: -" in out
    got = json.loads(same.read_text(encoding="utf-8"))
    assert got["mode"] == "dealer-only" and got["per_deal"] == [0, 0, 0, 0]
    bad = json.loads(worse.read_text(encoding="utf-8"))["per_deal"]
    assert len(bad) == 6 and sum(bad) < 0 and sum(x < 0 for x in bad) >= 4


def test_arena_first_deal_extends_a_run_and_the_paired_script_joins_the_parts(tmp_path, capsys):
    """``first_deal`` plays the seed's later deals: deals 0-1 and 2-3 played as two runs are
    deals 0-3 of one run, and ``arena_paired.py a.json,b.json`` joins them by deal index;
    ``a.json+b.json`` averages repeats of the same deals, on the deals all of them played."""
    def run(first: int, deals: int) -> dict:
        config = ArenaConfig(ais=("basic", "random"), deals=deals, seed=12, user_dir=False,
                             entry_points=False, first_deal=first)
        return run_arena(config, jobs=1)

    whole, head, tail = run(0, 4), run(0, 2), run(2, 2)
    assert (head["first_deal"], tail["first_deal"]) == (0, 2)
    assert head["ais"]["basic"]["per_deal"] + tail["ais"]["basic"]["per_deal"] == whole["ais"]["basic"]["per_deal"]
    paths = []
    for name, summary in (("whole", whole), ("head", head), ("tail", tail)):
        paths.append(tmp_path / f"{name}.json")
        paths[-1].write_text(json.dumps(summary), encoding="utf-8")
    mod = _script("benchmarks/arena_paired.py")
    assert mod.main([str(paths[0]), f"{paths[1]},{paths[2]}", str(paths[2])]) == 0
    out = capsys.readouterr().out.splitlines()
    assert "over 4 common deals; paired difference +0.00 ± 0.00" in out[1]
    assert "over 2 common deals" in out[2]
    with pytest.raises(SystemExit):  # a deal in two of the joined runs
        mod.main([str(paths[0]), f"{paths[1]},{paths[0]}"])
    with pytest.raises(SystemExit, match="missing.json: No such file"):
        mod.main([str(paths[0]), str(tmp_path / "missing.json")])
    shifted = json.loads(json.dumps(whole))  # a repeat of deals 0-3 two points better a deal
    shifted["ais"]["basic"]["per_deal"] = [x + 2.0 for x in whole["ais"]["basic"]["per_deal"]]
    paths.append(tmp_path / "shifted.json")
    paths[-1].write_text(json.dumps(shifted), encoding="utf-8")
    capsys.readouterr()
    assert mod.main([f"{paths[0]}+{paths[3]}", str(paths[0]), f"{paths[1]}+{paths[3]}"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert "over 4 deals (baseline)" in out[0]
    assert "over 4 common deals; paired difference -1.00 ± 0.00" in out[1]
    assert "over 2 common deals; paired difference +0.00 ± 0.00" in out[2]  # only deals 0-1 in both repeats
    with pytest.raises(ValueError):
        run(-1, 2)


def test_arena_paired_by_dealer_splits_the_difference_by_who_dealt(tmp_path, capsys):
    """``arena_paired.py --by-dealer`` pairs two runs hand by hand (deal and line-up) and splits
    the difference by who dealt: a run against itself differs nowhere; a copy whose AI gains
    two game points a seat on exactly the hands it dealt shows +2 there and 0 on the others."""
    config = ArenaConfig(ais=("basic", "random"), deals=4, seed=24, user_dir=False, entry_points=False)
    summary = run_arena(config, jobs=1)
    lineups = summary["lineups"]
    dealt = [lineups[h["lineup"]][h["dealer"]] == "A" for h in summary["hands"]]
    assert any(dealt) and not all(dealt)
    better = json.loads(json.dumps(summary))
    for h, mine in zip(better["hands"], dealt):
        if mine:
            h["game_points"] = [g + 2 if lineups[h["lineup"]][s] == "A" else g
                                for s, g in enumerate(h["game_points"])]
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    a.write_text(json.dumps(summary), encoding="utf-8")
    b.write_text(json.dumps(better), encoding="utf-8")
    mod = _script("benchmarks/arena_paired.py")
    split = mod.by_dealer(mod.hand_means(str(a), None), mod.hand_means(str(b), None))
    assert split["dealt"][:2] == (sum(dealt), 2.0) and split["other"][:2] == (len(dealt) - sum(dealt), 0.0)
    assert split["differs"][0] == 0
    assert mod.main([str(a), str(a), str(b), "--by-dealer"]) == 0
    out = capsys.readouterr().out
    assert f"hands basic's side dealt in both runs: {sum(dealt)}, paired difference +0.00 ± 0.00" in out
    assert f"hands basic's side dealt in both runs: {sum(dealt)}, paired difference +2.00 ± 0.00" in out
    with pytest.raises(SystemExit, match="no \\+ repeats"):
        mod.main([f"{a}+{a}", str(b), "--by-dealer"])


def _play_decisions(deals: int, tricks: int):
    """``(seed, seat, view, play options)`` of the seat to play at the start of trick
    ``tricks + 1`` of two-deck deals 0..deals-1 played by ``basic`` (a hand over by then is
    skipped)."""
    from ai_plugins.runner import basic_position

    for seed in range(deals):
        g = basic_position(hongwu(2), seed, tricks)
        if not g.is_over:
            yield seed, g.to_act, g.view(g.to_act), g.play_options(g.to_act)


@pytest.mark.parametrize("tractors", [0, 1])
def test_expert_play_search_uses_the_calibration_of_its_play_outs(monkeypatch, tractors):
    """``expert@tractors=1`` values its play-outs with the calibration fitted on play-outs that
    lead tractors; the default with the other one (real positions played by ``basic``)."""
    from ai_plugins.base import AISettings
    from ai_plugins.builtin import expert

    asked = []
    real = expert.calibration_for

    def spy(decks, share, switch=False):
        asked.append(switch)
        return real(decks, share, switch)

    monkeypatch.setattr(expert, "calibration_for", spy)
    searched = 0
    for seed, s, v, opts in _play_decisions(8, 2):
        ai = expert.ExpertAI(AISettings(seat=s, seed=seed, options={"samples": 2, "tractors": tractors}))
        ai.choose_play(v, opts)
        searched += ai.last_reasoning is not None
    assert searched and asked and set(asked) == {bool(tractors)}


def test_widen_brings_in_the_next_ranked_plays_once_pruning_drops_candidates():
    """``expert@widen=1``: after a pruning checkpoint the next plays of ``basic``'s ranking
    join the search (their earlier samples None), so as many candidates stay active as at the
    start; without the option the candidate list never grows."""
    from ai_plugins.base import AISettings
    from ai_plugins.builtin import expert

    grown = 0
    for seed, s, v, opts in _play_decisions(12, 1):
        for widen in (0, 1):
            ai = expert.ExpertAI(AISettings(seat=s, seed=seed, options={"samples": 40, "widen": widen}))
            ranked = [p for _, p in ai.basic.ranked_plays(v, opts)]
            if len(ranked) <= ai.play_candidates + 1:
                continue
            cands = ranked[:ai.play_candidates]
            extra = ranked[ai.play_candidates:] if ai.widen else []
            rows = ai._play_rows(v, cands, extra=extra)
            assert len(rows) == 40 and all(len(r) == len(cands) for r in rows)
            assert cands[:ai.play_candidates] == ranked[:ai.play_candidates]
            if not widen:
                assert len(cands) == ai.play_candidates
                continue
            assert cands == ranked[:len(cands)]  # added in ranking order
            for k in range(ai.play_candidates, len(cands)):
                assert all(r[k] is None for r in rows[:expert.PRUNE_AFTER])  # joined at a checkpoint
            grown += len(cands) > ai.play_candidates
            assert 0 <= expert.pick(rows, ai.play_confidence) < len(cands)
    assert grown >= 2


def test_pick_margin_keeps_the_default_unless_the_advantage_is_large_enough():
    """``pick``'s ``margin``: a candidate whose paired advantage is certain (every sample +0.4)
    overrules the default at margin 0 and 0.35, not at 0.5; a larger advantage still wins."""
    from ai_plugins.builtin import expert

    rows = [[1.0, 1.4, 0.9 + 0.01 * i] for i in range(10)]
    assert expert.pick(rows, 0.5) == 1
    assert expert.pick(rows, 0.5, margin=0.35) == 1
    assert expert.pick(rows, 0.5, margin=0.5) == 0
    rows = [[1.0, 1.4, 2.0 + 0.01 * i] for i in range(10)]
    assert expert.pick(rows, 0.5, margin=0.5) == 2


def test_decision_quality_harness_builds_and_scores_real_positions(tmp_path, capsys):
    """benchmarks/play_decisions.py on two real deals: every kept position has each
    candidate's game points and card points for the seat from a real ``basic`` finish (zero-sum
    game points; card points the dealer's final, signed for the seat's side), and ``--eval``
    prints one line per gate with both gains."""
    import pickle

    mod = _script("benchmarks/play_decisions.py")
    path = tmp_path / "pos.pkl"
    assert mod.main(["--build", str(path), "--deals", "2", "--seed", "5"]) == 0
    positions = pickle.loads(path.read_bytes())
    assert positions
    for g, s, cands, vals, cps in positions:
        assert len(cands) == len(vals) == len(cps) > 1 and g.to_act == s
        assert all(v % 2 == 0 for v in vals)  # base score 2 (RULES.md §10)
    assert mod.main(["--eval", str(path), "--samples", "2", "--confidence", "0,1", "--margin", "0,0.5"]) == 0
    lines = [ln for ln in capsys.readouterr().out.splitlines() if ln.startswith("samples 2,")]
    assert len(lines) == 4 and all("card points" in ln for ln in lines)
    assert not any(ln.startswith("samples 2, confidence 0.0") and "switched 0," in ln for ln in lines)
    # the option candidates=K compares only basic's first K plays: with one, nothing to switch to
    assert mod.main(["--eval", str(path), "--samples", "2", "--confidence", "0", "--option", "candidates=1"]) == 0
    one = [ln for ln in capsys.readouterr().out.splitlines() if ln.startswith("samples 2,")]
    assert len(one) == 1 and "switched 0," in one[0]
    # per role, the per-decision file and a paired comparison of two variants
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    assert mod.main(["--eval", str(path), "--samples", "2", "--confidence", "0.5", "--json", str(a)]) == 0
    assert mod.main(["--eval", str(path), "--samples", "2", "--confidence", "0.5", "--option", "public=1",
                     "--json", str(b)]) == 0
    out = capsys.readouterr().out
    assert "    dealer:" in out or "    defenders:" in out
    import json

    ga = json.loads(a.read_text())["gains"]["0.5,0.0"]
    assert len(ga) == len(positions)
    assert mod.main(["--paired", str(a), str(a)]) == 0
    assert "+0.000 ± 0.000" in capsys.readouterr().out  # a variant against itself differs nowhere
    assert mod.main(["--paired", str(a), str(b)]) == 0
    assert "{'public': '1'} minus default" in capsys.readouterr().out
    assert mod.main(["--eval", str(path), "--samples", "2", "--role", "dealer", "--real-world"]) == 0
    n_dealer = sum(1 for g, s, *_ in positions if s == g.dealer)
    assert f"{n_dealer} decisions" in capsys.readouterr().out
    # every candidate in every world, and the gains split by kind of decision
    assert mod.main(["--eval", str(path), "--samples", "2", "--confidence", "0.5", "--no-prune"]) == 0
    lines = [ln.strip() for ln in capsys.readouterr().out.splitlines() if ln.startswith("    ")]
    kinds = [ln.split(":")[0] for ln in lines if ln.split(":")[0].endswith(("leads", "follows"))]
    assert kinds and set(kinds) <= {"dealer leads", "dealer follows", "defender leads", "defender follows"}
    from collections import Counter

    seen = Counter(mod.decision_kind(g, s) for g, s, *_ in positions)
    assert sorted(kinds) == sorted(k for k, n in seen.items() if n > 1)


def test_refine_replays_the_best_lean_challengers_with_basic_finishes():
    """``expert@refine=2``: after the lean search, ``basic``'s first choice and the two
    challengers with the best lean means are played out again in sampled worlds finished by
    ``basic``, and those rows decide; with fewer worlds than
    ``REFINE_MIN_SAMPLES`` the lean rows decide after all. ``finish=basic`` finishes every
    candidate with ``basic``."""
    from ai_plugins.base import AISettings
    from ai_plugins.builtin import expert

    refined = 0
    for seed, s, v, opts in _play_decisions(10, 3):
        ai = expert.ExpertAI(AISettings(seat=s, seed=seed, options={
            "samples": 6, "refine": 2, "refine_samples": expert.REFINE_MIN_SAMPLES}))
        ranked = [p for _, p in ai.basic.ranked_plays(v, opts)]
        if len(ranked) < 4 or len(v.hand) <= len(ranked[0]):
            continue
        cands = ranked[:ai.play_candidates]
        lean = ai._play_rows(v, list(cands))
        means = {k: sum(r[k] for r in lean if r[k] is not None) / max(1, sum(r[k] is not None for r in lean))
                 for k in range(1, len(cands))}
        rows, used = ai._refine(v, list(cands), lean)
        assert used[0] == cands[0] and len(used) == 3 and set(used) <= set(cands)
        assert len(rows) == expert.REFINE_MIN_SAMPLES and all(len(r) == 3 for r in rows)
        assert min(means[cands.index(p)] for p in used[1:]) >= max(
            (m for k, m in means.items() if cands[k] not in used), default=float("-inf"))
        few = expert.ExpertAI(AISettings(seat=s, seed=seed, options={
            "samples": 6, "refine": 2, "refine_samples": expert.REFINE_MIN_SAMPLES - 1}))
        back_rows, back = few._refine(v, list(cands), lean)
        assert back == cands and back_rows == [list(r) for r in lean]
        play = expert.ExpertAI(AISettings(seat=s, seed=seed, options={
            "samples": 4, "refine": 2, "refine_samples": 6})).choose_play(v, opts)
        assert opts.is_legal(tuple(play))
        full = expert.ExpertAI(AISettings(seat=s, seed=seed, options={"samples": 3, "finish": "basic"}))
        assert opts.is_legal(tuple(full.choose_play(v, opts)))
        refined += 1
    assert refined >= 3


def test_finish_auto_uses_hybrid_finishes_only_for_long_timed_searches():
    """``finish`` (default ``auto``): a timed search of at least ``FINISH_LONG_MS`` finishes
    with the hybrid (``basic`` for some tricks, then lean); a shorter one, or one with a fixed sample count (tests, the review), with
    the lean play-out; an explicit value wins; anything else is refused."""
    from ai_plugins.base import AISettings
    from ai_plugins.builtin import expert

    def finish(**options):
        return expert.ExpertAI(AISettings(seat=0, seed=1, options=options)).finish

    assert finish(think_ms=expert.FINISH_LONG_MS) == "hybrid"
    assert finish() == ("hybrid" if expert.DEFAULT_THINK_MS >= expert.FINISH_LONG_MS else "lean")
    assert finish(think_ms=100) == "lean"
    assert finish(think_ms=1000, samples=4) == "lean"
    assert finish(think_ms=100, finish="basic") == "basic"
    assert finish(think_ms=1000, finish="lean") == "lean"
    assert finish(think_ms=100, finish="hybrid") == "hybrid"
    with pytest.raises(ValueError, match="finish"):
        finish(finish="perfect")
    with pytest.raises(ValueError, match="finish_tricks"):
        finish(finish="hybrid", finish_tricks=0)


def test_dealer_finish_defaults_to_finish_and_an_explicit_value_wins():
    """``dealer_finish`` (default unset): the dealer's searches finish as ``finish`` resolves
    (``auto`` included); ``lean``, ``basic`` or ``hybrid`` override it for the dealer only;
    anything else is refused."""
    from ai_plugins.base import AISettings
    from ai_plugins.builtin import expert

    def ai(**options):
        return expert.ExpertAI(AISettings(seat=0, seed=1, options=options))

    assert ai(think_ms=100).dealer_finish == "lean"
    assert ai(think_ms=expert.FINISH_LONG_MS).dealer_finish == "hybrid"
    assert ai(think_ms=100, samples=4, finish="basic").dealer_finish == "basic"
    x = ai(think_ms=100, dealer_finish="hybrid")
    assert (x.dealer_finish, x.finish) == ("hybrid", "lean")
    assert ai(think_ms=1000, dealer_finish="lean").dealer_finish == "lean"
    with pytest.raises(ValueError, match="dealer_finish"):
        ai(dealer_finish="auto")


def test_the_dealers_play_search_finishes_with_basic_and_the_defenders_lean(monkeypatch):
    """With ``dealer_finish=hybrid`` and ``finish=lean`` the dealer's sampled worlds go to the
    hybrid finish (``_hybrid_outcomes``) and a defender's to the lean play-out, on a real
    position; both still choose a legal play."""
    from ai_plugins.base import AISettings
    from ai_plugins.builtin import expert
    from ai_plugins.runner import basic_position

    calls = []
    real = expert.ExpertAI._hybrid_outcomes

    def spy(self, world, cands, me, active=None):
        calls.append(me == world.dealer)
        return real(self, world, cands, me, active)

    monkeypatch.setattr(expert.ExpertAI, "_hybrid_outcomes", spy)
    g = basic_position(hongwu(2), 11, 2)
    for s in range(4):
        g2 = g.clone()
        while g2.to_act != s:  # let basic play up to seat s
            v = g2.view(g2.to_act)
            g2.apply(expert.Play(g2.to_act, tuple(expert.BasicAI().ranked_plays(v, v.play_options())[0][1])))
        v = g2.view(s)
        opts = v.play_options()
        ai = expert.ExpertAI(AISettings(seat=s, seed=3, options={
            "samples": 3, "finish": "lean", "dealer_finish": "hybrid", "finish_tricks": 2}))
        before = len(calls)
        assert opts.is_legal(tuple(ai.choose_play(v, opts)))
        ranked = ai.basic.ranked_plays(v, opts)
        searched = len(ranked) > 1 and len(v.hand) > len(ranked[0][1])
        assert len(calls) - before == (3 if searched and s == g.dealer else 0)
    assert calls and all(calls)


def test_time_bank_gives_the_follows_a_share_and_the_leads_the_rest(monkeypatch):
    """Option ``time_bank`` (experimental): through a whole real hand a timed follow is given
    ``time_bank`` × ``think_ms`` and the lean finish; a lead ``think_ms`` plus what the hand's
    follows left, at most ``LEAD_CAP`` × ``think_ms`` (the first lead may overdraw), finished
    as ``finish=auto`` would at that time. The search is replaced by a spy that uses no time,
    so nothing here depends on the machine's speed; with ``samples`` fixed the bank is not
    used. Values outside 0..1 are refused."""
    from ai_plugins.base import AISettings
    from ai_plugins.builtin import expert
    from ai_plugins.builtin.basic import auctioned
    from engine.state import Phase, Play

    given = []

    def spy(self, view, cands, prune=True, extra=(), think_s=None, finish_kind=None):
        given.append((think_s, finish_kind))
        return [[0.0] * len(cands)] * 2

    monkeypatch.setattr(expert.ExpertAI, "_play_rows", spy)
    think = expert.FINISH_LONG_MS / expert.LEAD_CAP / 1000.0  # so a full lead reaches the hybrid
    g, ais = auctioned(hongwu(2), 17)
    me = g.dealer
    ai = expert.ExpertAI(AISettings(seat=me, seed=1, options={"think_ms": think * 1000, "time_bank": 0.5}))
    kinds = []
    while g.phase is Phase.PLAY:
        s = g.to_act
        v = g.view(s)
        opts = v.play_options()
        if s == me:
            before = len(given)
            play = ai.choose_play(v, opts)
            if len(given) > before:
                kinds.append(opts.leading)
        else:
            play = ais[s].choose_play(v, opts)
        g.apply(Play(s, tuple(play)))
    assert True in kinds and False in kinds
    cap = expert.LEAD_CAP * think
    for lead, (t, finish) in zip(kinds, given):
        if lead:
            assert think - 1e-9 <= t <= cap + 1e-9
            assert finish == ("hybrid" if t * 1000 >= expert.FINISH_LONG_MS - 1e-6 else "lean")
        else:
            assert t == pytest.approx(0.5 * think) and finish == "lean"
    first_lead = kinds.index(True)
    assert given[first_lead][0] == pytest.approx(cap)  # the spy used no time: the bank is full
    given.clear()
    g2, _ = auctioned(hongwu(2), 17)
    v = g2.view(g2.to_act)
    fixed = expert.ExpertAI(AISettings(seat=g2.to_act, seed=1, options={"samples": 3, "time_bank": 0.5}))
    fixed.choose_play(v, v.play_options())
    assert given and all(t is None for t, _ in given)
    with pytest.raises(ValueError, match="time_bank"):
        expert.ExpertAI(AISettings(options={"time_bank": 1.5}))


def _spied_hand(monkeypatch, decks: int, seed: int, options: dict) -> tuple:
    """A whole real hand (deal ``seed``, ``basic``'s auction) played by an expert with
    ``options`` on every seat, a spy standing in for the play search: ``(the finished game,
    [(the seat is the dealer, cards in hand, think_s, finish_kind) per searched decision])``.
    No timing is measured."""
    from ai_plugins.base import AISettings
    from ai_plugins.builtin import expert
    from ai_plugins.builtin.basic import auctioned
    from engine.state import Phase, Play

    given = []

    def spy(self, view, cands, prune=True, extra=(), think_s=None, finish_kind=None):
        given.append((view.seat == view.dealer, len(view.hand), think_s, finish_kind))
        return [[0.0] * len(cands)] * 2

    monkeypatch.setattr(expert.ExpertAI, "_play_rows", spy)
    g, _ = auctioned(hongwu(decks), seed)
    ais = [expert.ExpertAI(AISettings(seat=s, seed=s, options=dict(options)))
           for s in range(g.ruleset.players)]
    while g.phase is Phase.PLAY:
        s = g.to_act
        v = g.view(s)
        g.apply(Play(s, tuple(ais[s].choose_play(v, v.play_options()))))
    return g, given


def test_dealer_time_moves_the_defenders_time_to_the_dealer(monkeypatch):
    """Option ``dealer_time``: through a whole real hand, with an expert on every seat, the
    dealer's timed play decisions search ``dealer_time`` × ``think_ms`` (the hybrid finish
    from ``FINISH_LONG_MS``), each defender's ``think_ms`` less a third of the dealer's extra
    time, so that a trick's four decisions together think four × ``think_ms``; the dealer's
    time is capped at ``DEALER_CAP_S``; a fixed ``samples`` count is not affected; values
    outside 0.1..3 are refused. A spy stands in for the search, so no timing is measured."""
    from ai_plugins.base import AISettings
    from ai_plugins.builtin import expert
    from ai_plugins.builtin.basic import auctioned

    _, given = _spied_hand(monkeypatch, 2, 23, {"think_ms": 100, "dealer_time": 3})
    roles = {d for d, _, _, _ in given}
    assert roles == {True, False}
    for dealer, _, t, finish in given:
        if dealer:
            assert t == pytest.approx(0.3) and finish == "hybrid"
        else:
            assert t == pytest.approx(0.1 - 0.2 / 3) and finish == "lean"
    given.clear()
    g, _ = auctioned(hongwu(2), 23)
    v = g.view(g.to_act)
    slow = expert.ExpertAI(AISettings(seat=g.to_act, seed=1, options={"think_ms": 500, "dealer_time": 3}))
    assert slow._role_think(v) == pytest.approx(
        expert.DEALER_CAP_S if g.to_act == g.dealer else 0.5 - (expert.DEALER_CAP_S - 0.5) / 3)
    fixed = expert.ExpertAI(AISettings(seat=g.to_act, seed=1, options={"samples": 3, "dealer_time": 3}))
    fixed.choose_play(v, v.play_options())
    assert given and all(t is None for _, _, t, _ in given)
    for bad in (0.05, 3.5):
        with pytest.raises(ValueError, match="dealer_time"):
            expert.ExpertAI(AISettings(options={"dealer_time": bad}))
    monkeypatch.setattr(expert, "DEALER_TIME", {2: 2.0})  # the default by deck count
    plain = expert.ExpertAI(AISettings(seat=g.dealer, seed=1, options={"think_ms": 100}))
    assert plain._role_think(g.view(g.dealer)) == pytest.approx(0.2)
    three, _ = auctioned(hongwu(3), 23)
    assert plain._dealer_factor(three.view(three.dealer)) == 1.0


def test_stage_time_gives_the_first_tricks_more_time_and_averages_out(monkeypatch):
    """Option ``stage_time``: through a whole real hand with an expert on every seat, a timed
    play decision's search time follows the cards still in hand (more than ``think_ms`` with
    a full hand, less near the end), the finish is chosen from the unscaled time (the
    dealer's hybrid under ``dealer_time`` stays hybrid late in the hand), and over the hand's
    searched decisions the times average about ``think_ms`` (within 15%); values outside 0..1
    are refused. A spy stands in for the search, so no timing is measured."""
    from ai_plugins.base import AISettings
    from ai_plugins.builtin import expert

    for dealer_time, decks in ((1, 2), (3, 2), (1, 3)):
        opts = {"think_ms": 100, "dealer_time": dealer_time, "stage_time": 1}
        g, given = _spied_hand(monkeypatch, decks, 29, opts)
        defenders = [(h, t) for d, h, t, _ in given if not d]
        base = 0.1 - (min(0.1 * dealer_time, expert.DEALER_CAP_S) - 0.1) / 3
        early = [t for h, t in defenders if h == g.ruleset.hand_size]
        late = [t for h, t in defenders if h <= 3]
        assert early and late and min(early) > 1.5 * base and max(late) < 0.5 * base
        assert statistics.fmean(t for _, t in defenders) == pytest.approx(base, rel=0.15)
        if dealer_time == 3:
            assert {f for d, _, _, f in given if d} == {"hybrid"}
    for bad in (-0.1, 1.5):
        with pytest.raises(ValueError, match="stage_time"):
            expert.ExpertAI(AISettings(options={"stage_time": bad}))


def test_basic_play_out_can_stop_after_some_tricks_at_a_trick_boundary():
    """``expert_bid.basic_play_out(game, seed, tricks=K)`` plays exactly K more tricks (the one
    in progress counting as the first) and leaves the game in play between tricks, with the
    tricks one uninterrupted call plays; a second call with the same seed finishes the hand
    as that call did."""
    from ai_plugins.builtin import expert_bid
    from ai_plugins.runner import basic_position

    for seed in range(4):
        g = basic_position(hongwu(2), seed, 2)
        start = len(g.tricks)
        part = g.clone()
        expert_bid.basic_play_out(part, 9, tricks=3)
        assert len(part.tricks) == start + 3 and not part.current and not part.is_over
        full = g.clone()
        expert_bid.basic_play_out(full, 9)
        assert [t.plays for t in full.tricks[:start + 3]] == [t.plays for t in part.tricks]
        expert_bid.basic_play_out(part, 9)
        assert part.is_over and [t.plays for t in part.tricks] == [t.plays for t in full.tricks]


def test_hybrid_finish_is_the_basic_finish_when_basic_plays_every_trick_left():
    """``finish=hybrid``: ``basic`` plays ``finish_tricks`` tricks, the lean play-out the rest.
    With ``finish_tricks`` at least the tricks left its rows are the ``basic`` finish's, sample
    for sample; with fewer they stay finite, and the chosen play is legal."""
    import math

    from ai_plugins.base import AISettings
    from ai_plugins.builtin import expert

    checked = 0
    for seed, s, v, opts in _play_decisions(6, 4):
        def ai(**o):
            return expert.ExpertAI(AISettings(seat=s, seed=seed, options={"samples": 4, **o}))

        cands = [p for _, p in ai().basic.ranked_plays(v, opts)][:4]
        if len(cands) < 2 or len(v.hand) <= len(cands[0]):
            continue
        basic_rows = ai(finish="basic")._play_rows(v, list(cands), prune=False)
        whole = ai(finish="hybrid", finish_tricks=99)._play_rows(v, list(cands), prune=False)
        assert whole == basic_rows
        short = ai(finish="hybrid", finish_tricks=1)._play_rows(v, list(cands), prune=False)
        assert len(short) == 4 and all(math.isfinite(x) for r in short for x in r)
        assert opts.is_legal(tuple(ai(finish="hybrid", finish_tricks=2).choose_play(v, opts)))
        checked += 1
    assert checked >= 3


def test_bury_quality_harness_scores_the_candidates_on_the_real_deal(tmp_path, capsys):
    """benchmarks/bury_decisions.py on three real deals: each kept bury has every candidate's
    game points for the dealer from real ``basic`` finishes (basic's own bury first), and
    ``--eval`` / ``--paired`` print the gain over it."""
    import json
    import pickle

    mod = _script("benchmarks/bury_decisions.py")
    path = tmp_path / "bury.pkl"
    assert mod.main(["--build", str(path), "--deals", "3", "--seed", "11"]) == 0
    positions = pickle.loads(path.read_bytes())
    assert positions
    from ai_plugins.base import AISettings
    from ai_plugins.builtin.expert import ExpertAI
    for g, me, cands, truth in positions:
        assert g.to_act == me == g.dealer and len(cands) == len(truth) > 1
        v = g.view(me)
        own = ExpertAI(AISettings(seat=me, options={"samples": 1})).basic.choose_bury(v, v.bury_count)
        assert cands[0] == tuple(sorted(own))  # the baseline, whatever the search's default
        assert all(len(c) == v.bury_count for c in cands)
        assert all(abs(t) <= 60 for t in truth)
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    assert mod.main(["--eval", str(path), "--finish", "fast", "--samples", "2", "--json", str(a)]) == 0
    assert mod.main(["--eval", str(path), "--finish", "lean", "--samples", "2", "--json", str(b)]) == 0
    out = capsys.readouterr().out
    assert out.count("game points a bury over basic's") == 2 and "oracle" in out
    assert len(json.loads(a.read_text())["gains"]) == len(positions)
    assert mod.main(["--paired", str(a), str(a)]) == 0
    assert "+0.000 ± 0.000" in capsys.readouterr().out
    assert mod.main(["--paired", str(a), str(b)]) == 0
    assert "lean 2 minus fast 2" in capsys.readouterr().out
    wide = tmp_path / "wide.pkl"
    assert mod.main(["--build", str(wide), "--deals", "3", "--seed", "11", "--weights=-3"]) == 0
    widened = pickle.loads(wide.read_bytes())
    assert [len(p[2]) for p in widened] >= [len(p[2]) for p in positions]
    assert all(w[2][:len(p[2])] == p[2] and w[3][:len(p[3])] == p[3] for w, p in zip(widened, positions))
    assert mod.main(["--families", str(wide), "--weights=-1,-3"]) == 0
    out = capsys.readouterr().out
    assert out.count("family mean") == 2 and "weight -3.0" in out


def test_auction_counterfactual_replays_the_runs_auctions_and_revalues_a_bid(tmp_path, capsys):
    """``auction_counterfactual.py``: replaying the runs' own A setting ends every auction as the
    run did (every hand valued, each deal's figure the arena's own per-deal mean); another
    setting is paired with it; and a hand dealt at a higher bid keeps the card points taken,
    the final falling by the difference and the game points still summing to zero (RULES.md
    §10)."""
    config = ArenaConfig(ais=("basic", "random"), deals=4, seed=21, user_dir=False, entry_points=False)
    summary = run_arena(config, jobs=1)
    path = tmp_path / "run.json"
    path.write_text(json.dumps(summary), encoding="utf-8")
    mod = _script("benchmarks/auction_counterfactual.py")
    runs, seed, decks, b_label = mod.load_runs(str(path))
    assert (seed, decks, b_label, len(runs)) == (21, 2, "random", 1)
    manager = config.manager()
    means, a_deals, unvalued, hands = mod.evaluate(manager, runs, seed, decks, "basic", "random", 10.0, {})
    assert unvalued == 0 and hands == 8
    assert [means[d] for d in range(4)] == pytest.approx(summary["ais"]["basic"]["per_deal"])
    assert a_deals == round(summary["ais"]["basic"]["dealer_rate"] * 8)
    rs = hongwu(2)
    h = summary["hands"][0]
    same = mod.value_hand(runs, (0, 0), h["dealer"], h["bid"], rs)
    assert same == pytest.approx(h["game_points"])
    dearer = mod.value_hand(runs, (0, 0), h["dealer"], h["bid"] + 20, rs)
    gp = -(rs.players - 1) * rs.options.base_score
    assert dearer[h["dealer"]] - same[h["dealer"]] == pytest.approx(
        gp * (band_multiplier(rs, h["final"] - 20) - band_multiplier(rs, h["final"])))
    assert sum(dearer) == pytest.approx(0)
    assert mod.value_hand(runs, (0, 0), (h["dealer"] + 1) % rs.players, h["bid"], rs) is None
    assert mod.main([str(path), "--ai", "basic", "--ai", "basic@blunder=0.5"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "1 runs, seed 21, 2 decks, B = random"
    assert out[1].startswith("basic: ") and "0 unvalued" in out[1]
    assert out[2].startswith("basic@blunder=0.5: ") and ("paired with basic" in out[2] or "no deal" in out[2])
    del summary["hands"]
    path.write_text(json.dumps(summary), encoding="utf-8")
    with pytest.raises(SystemExit, match="no hand records"):
        mod.load_runs(str(path))


def test_a_timed_search_stops_once_pruning_leaves_only_the_default(monkeypatch):
    """A timed play search whose challengers are all pruned stops at once instead of playing
    ``basic``'s choice alone until its time is up; :func:`expert.pick` compares a challenger
    only on the samples that played it, so the samples it no longer takes could not have
    changed the choice. With a challenger still in the running it searches to the end of its
    time; a fixed ``samples`` count is unaffected. A stand-in for the play-outs and a fake CPU
    clock (each sample costs 10 ms) replace the real ones, so no timing is measured."""
    import random

    from ai_plugins.base import AISettings
    from ai_plugins.builtin import expert
    from ai_plugins.builtin.basic import auctioned

    clock = [0.0]
    monkeypatch.setattr(expert.time, "thread_time", lambda: clock[0])
    rng = random.Random(3)

    def outcomes(self, world, cands, me, active=None, finish_kind=None):
        clock[0] += 0.01
        behind = {1: -5.0, 2: -5.0, 3: self_close[0]}
        return [None if active is not None and not active[k] else
                (1.0 if k == 0 else 1.0 + behind.get(k, -5.0)) + rng.gauss(0, 0.3) for k in range(len(cands))]

    monkeypatch.setattr(expert.ExpertAI, "_play_outcomes", outcomes)
    g, _ = auctioned(hongwu(2), 5)
    v = g.view(g.to_act)
    cands = [(c,) for c in sorted(set(v.hand))[:4]]
    ai = expert.ExpertAI(AISettings(seat=g.to_act, seed=2, options={"think_ms": 1000}))
    self_close = [-5.0]  # every challenger far behind: pruned at the first checkpoint
    rows = ai._play_rows(v, list(cands), think_s=1.0)
    assert len(rows) == expert.PRUNE_AFTER and expert.pick(rows, 0.5) == 0
    longer = rows + [[r[0]] + [None] * 3 for r in rows]  # more samples of the default alone
    assert expert.pick(longer, 0.5) == expert.pick(rows, 0.5)
    self_close[0] = 0.0  # one challenger level with the default: never pruned
    rows = ai._play_rows(v, list(cands), think_s=0.5)
    assert len(rows) == pytest.approx(50, abs=1)
    self_close[0] = -5.0
    fixed = expert.ExpertAI(AISettings(seat=g.to_act, seed=2, options={"samples": 20}))
    assert len(fixed._play_rows(v, list(cands))) == 20


def test_dealer_bank_lends_the_first_decisions_time_and_keeps_the_hand_within_its_shares(monkeypatch):
    """Option ``dealer_bank=D`` (with ``dealer_time``): through whole real hands with an
    expert on every seat, the dealer's first searched decision takes ``DEALER_CAP_S`` (its
    share plus the overdraft, capped), every searched decision at least a third of its share,
    the defenders' time is unchanged, and over each hand the dealer's decisions use no more
    than their shares together, forced plays included, plus the D shares the bank may end the
    hand overdrawn by (a spy stands in for the search and
    spends its whole time on a fake CPU clock, or half of it, as an early stop would); a new
    hand starts from an empty bank; negative values are refused; without the option the
    dealer's decisions take their share."""
    from ai_plugins.base import AISettings
    from ai_plugins.builtin import expert
    from ai_plugins.builtin.basic import auctioned
    from engine.state import Phase, Play

    clock = [0.0]
    monkeypatch.setattr(expert.time, "thread_time", lambda: clock[0])
    for spend in (1.0, 0.5):
        given = []

        def spy(self, view, cands, prune=True, extra=(), think_s=None, finish_kind=None):
            given.append((view.seat == view.dealer, think_s, finish_kind))
            clock[0] += spend * think_s
            return [[0.0] * len(cands)] * 2

        monkeypatch.setattr(expert.ExpertAI, "_play_rows", spy)
        ais = None
        for seed in (31, 32):
            g, _ = auctioned(hongwu(2), seed)
            if ais is None:  # the same AIs for both hands: the bank must start again
                ais = [expert.ExpertAI(AISettings(seat=s, seed=s, options={
                    "think_ms": 100, "dealer_time": 3, "dealer_bank": 2})) for s in range(4)]
            start = len(given)
            dealer_decisions = 0
            while g.phase is Phase.PLAY:
                s = g.to_act
                v = g.view(s)
                dealer_decisions += s == g.dealer
                g.apply(Play(s, tuple(ais[s].choose_play(v, v.play_options()))))
            mine = [(t, f) for d, t, f in given[start:] if d]
            assert mine[0][0] == pytest.approx(expert.DEALER_CAP_S)
            assert all(t >= 0.1 - 1e-9 and f == "hybrid" for t, f in mine)
            # at most the shares of its decisions, plus the overdraft the bank may end with
            assert sum(spend * t for t, _ in mine) <= 0.3 * (dealer_decisions + 2) + 1e-9
            assert all(t == pytest.approx(0.1 - 0.2 / 3) for d, t, _ in given[start:] if not d)
            if spend < 1.0:  # half of each search saved: later decisions get it back
                assert sum(1 for t, _ in mine if t > 0.3 + 1e-9) > 2
    with pytest.raises(ValueError, match="dealer_bank"):
        expert.ExpertAI(AISettings(options={"dealer_bank": -1}))
    g, _ = auctioned(hongwu(2), 31)
    plain = expert.ExpertAI(AISettings(seat=g.dealer, seed=1, options={"think_ms": 100, "dealer_time": 3}))
    assert not plain._banking(g.view(g.dealer))


def test_search_variance_script_measures_real_dealer_decisions(tmp_path, capsys, monkeypatch):
    """benchmarks/search_variance.py on two positions: each is a real play decision of the
    dealer with two candidates or more; a rotation passes the defenders' hands round and
    keeps every card; the figures come out for each cheap finish and for balanced worlds."""
    mod = _script("benchmarks/search_variance.py")
    games = mod.dealer_positions(2, 5000)
    turned = 0
    for g in games:
        view = g.view(g.dealer)
        assert g.to_act == g.dealer and len(mod.candidates(view)) >= 2
        for r in (1, 2):
            w = mod.rotated(view, g, r)
            if w is None:
                continue
            defenders = [s for s in range(4) if s != g.dealer]
            assert sorted(map(sorted, (w.hands[s] for s in defenders))) == \
                sorted(map(sorted, (g.hands[s] for s in defenders)))
            assert w.hands[g.dealer] == g.hands[g.dealer]
            assert [w.hands[s] for s in defenders] != [g.hands[s] for s in defenders]
            turned += 1
    assert turned  # these positions allow rotations (equal hands, no void in the way)
    out = tmp_path / "sv.json"
    from ai_plugins.builtin import expert_bid

    asked = set()
    real = expert_bid.basic_play_out

    def spy(game, seed, max_actions=1000, tricks=None):
        asked.add(tricks)
        real(game, seed, max_actions, tricks)

    monkeypatch.setattr(expert_bid, "basic_play_out", spy)
    assert mod.main(["--positions", "2", "--worlds", "3", "--triples", "2", "--finish-tricks", "2",
                     "--json", str(out)]) == 0
    assert asked == {6, 2}  # the hybrid compared and the cheaper one really play those tricks
    text = capsys.readouterr().out
    assert "lean: correlation" in text and "hybrid, 2 basic tricks" in text and "balanced worlds" in text
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["positions"] == 2 and set(data["cheap"]) == {"lean", "hybrid, 2 basic tricks"}
    assert all(-1.0 <= r["corr"] <= 1.0 and r["var_hybrid"] >= 0 for r in data["cheap"].values())
    assert data["balanced"]["pairs"] > 0 and data["balanced"]["ratio"] > 0


def test_the_two_deck_dealers_hybrid_finish_plays_three_basic_tricks(monkeypatch):
    """2.2 (expert.DEALER_FINISH_TRICKS): without the option ``finish_tricks`` the dealer's own
    hybrid play-outs give ``basic`` three tricks with two decks and six with three, a
    defender's six; the option, when given, sets every seat's. Seen on a real position through
    the tricks each play-out asks ``basic_play_out`` for, and the dealer's play-outs really
    stop three tricks on."""
    from ai_plugins.base import AISettings
    from ai_plugins.builtin import expert, expert_bid
    from ai_plugins.runner import basic_position

    asked = []
    real = expert_bid.basic_play_out

    def spy(game, seed, max_actions=1000, tricks=None):
        start = len(game.tricks)
        real(game, seed, max_actions, tricks)
        asked.append((tricks, game.is_over or len(game.tricks) - start == tricks))

    monkeypatch.setattr(expert_bid, "basic_play_out", spy)
    assert expert.DEALER_FINISH_TRICKS.get(2) == 3 and expert.DEALER_FINISH_TRICKS.get(3, 6) == 6
    for decks, dealer_tricks in ((2, 3), (3, 6)):
        g = basic_position(hongwu(decks), 11, 2)
        for s in (g.dealer, (g.dealer + 1) % 4):
            g2 = g.clone()
            while g2.to_act != s:  # let basic play up to seat s
                v = g2.view(g2.to_act)
                g2.apply(expert.Play(g2.to_act, tuple(expert.BasicAI().ranked_plays(v, v.play_options())[0][1])))
            v = g2.view(s)
            for options, want in (({}, dealer_tricks if s == g.dealer else 6), ({"finish_tricks": 4}, 4)):
                ai = expert.ExpertAI(AISettings(seat=s, seed=3, options={"samples": 2, "finish": "hybrid"} | options))
                assert ai.hybrid_tricks(g2, s) == want
                asked.clear()
                ai._hybrid_outcomes(g2, [p for _, p in ai.basic.ranked_plays(v, v.play_options())[:2]], s)
                assert asked and all(t == want and done for t, done in asked), (decks, s, options)
