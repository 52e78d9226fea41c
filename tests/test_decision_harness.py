"""The decision harnesses' re-valuation by another finisher (benchmarks/play_decisions.py and
benchmarks/bury_decisions.py ``--revalue``, ``--transfer``; docs/EXPERT_NOTES.md "Tried after 1.7:
what a decision's value owes to who finishes the hand").

Real positions, real AIs from the plugin manager (the built-ins and the drop-in examples of
``docs/examples`` found by folder discovery), real pickles in a temporary folder."""
from __future__ import annotations

import pickle
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

import bury_decisions  # noqa: E402
import play_decisions  # noqa: E402


def _load(path):
    with open(path, "rb") as f:
        return pickle.load(f)


def test_play_revalue_by_basic_gives_back_the_build_values_and_another_finisher_differs(tmp_path):
    """Re-valued by ``basic`` itself, every candidate keeps the game and card points the build
    gave it (the same play-outs); re-valued by ``hw_greedy`` the positions and candidates are
    the same, the values are that AI's own finishes and differ somewhere."""
    src, same, other = tmp_path / "p.pkl", tmp_path / "p_basic.pkl", tmp_path / "p_hwg.pkl"
    play_decisions.build(str(src), 2, 2, 7100)
    play_decisions.revalue(str(src), str(same), "basic", [])
    play_decisions.revalue(str(src), str(other), "hw_greedy", [str(ROOT / "docs" / "examples")])
    a, b, c = _load(src), _load(same), _load(other)
    assert len(a) >= 10 and len(a) == len(b) == len(c)
    assert [(x[1], x[2], x[3], x[4]) for x in a] == [(y[1], y[2], y[3], y[4]) for y in b]
    assert [(x[1], x[2]) for x in a] == [(z[1], z[2]) for z in c]
    assert all(len(z[3]) == len(z[2]) == len(z[4]) for z in c)
    assert any(x[3] != z[3] for x, z in zip(a, c))


def test_transfer_of_a_valuation_with_itself_agrees_fully(tmp_path, capsys):
    """``--transfer A A``: the candidates' differences correlate perfectly and each oracle
    scored by the other valuation gains exactly its own oracle."""
    src = tmp_path / "p.pkl"
    play_decisions.build(str(src), 2, 2, 7100)
    play_decisions.transfer([str(src), str(src)])
    out = capsys.readouterr().out
    assert out.count("correlation of the candidates' differences +1.000") == 2
    lines = [ln for ln in out.splitlines() if "oracle" in ln]
    assert len(lines) == 2
    for ln in lines:
        own = ln.split("oracle ")[1].split(" ")[0]
        cross = ln.split("values, ")[1].split(" ")[0]
        assert own == cross


def test_bury_revalue_by_basic_gives_back_the_build_values(tmp_path):
    """The bury harness: re-valued by ``basic`` the candidates keep their values; by
    ``hw_counter`` the same candidates get that AI's finishes."""
    src, same, other = tmp_path / "b.pkl", tmp_path / "b_basic.pkl", tmp_path / "b_hwc.pkl"
    bury_decisions.build(str(src), 2, 3, 424242)
    bury_decisions.revalue(str(src), str(same), "basic", [])
    bury_decisions.revalue(str(src), str(other), "hw_counter", [str(ROOT / "docs" / "examples")])
    a, b, c = _load(src), _load(same), _load(other)
    assert len(a) == 3 and len(b) == len(c) == 3
    assert [(x[1], x[2], x[3]) for x in a] == [(y[1], y[2], y[3]) for y in b]
    assert [(x[1], x[2]) for x in a] == [(z[1], z[2]) for z in c]
    assert all(len(z[3]) == len(z[2]) for z in c)


def test_bury_transfer_of_a_valuation_with_itself_agrees_fully(tmp_path, capsys):
    """``bury_decisions.py --transfer A A``: the oracle's choice scored by the same values and
    the choice best by the other file's mean both gain exactly the oracle."""
    src = tmp_path / "b.pkl"
    bury_decisions.build(str(src), 2, 3, 424242)
    bury_decisions.transfer([str(src), str(src)])
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2
    for ln in lines:
        oracle = ln.split("oracle ")[1].split(";")[0]
        assert ln.count(f" {oracle} ± ") == 2
