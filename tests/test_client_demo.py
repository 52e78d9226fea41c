"""``hongwu play`` with four AI seats and --hands is a demo / soak run that exits by itself."""
from __future__ import annotations

import re

import pytest

pytest.importorskip("pygame")

from game.cli import main  # noqa: E402

LINE = re.compile(r"^hand \d+: dealer seat [0-3] bid \d+ final [+-]\d+ game points \[([+-]\d+,){3}[+-]\d+\]$")


def test_demo_two_hands_prints_results(capsys):
    code = main(["play", "--seats", "basic,basic,basic,basic", "--hands", "2", "--speed", "instant"])
    assert code == 0
    lines = [ln for ln in capsys.readouterr().out.splitlines() if ln.startswith("hand ")]
    assert len(lines) == 2
    for i, ln in enumerate(lines, 1):
        assert LINE.match(ln), ln
        assert ln.startswith(f"hand {i}:")
        points = [int(x) for x in ln.split("[")[1].rstrip("]").split(",")]
        assert sum(points) == 0


def test_demo_is_reproducible_with_a_seed(capsys):
    args = ["play", "--seats", "random,basic,random,basic", "--hands", "1", "--speed", "instant", "--seed", "42",
            "--decks", "3", "--lang", "zh"]
    assert main(args) == 0
    first = capsys.readouterr().out
    assert main(args) == 0
    assert capsys.readouterr().out == first


def test_bad_seats_are_rejected(capsys):
    with pytest.raises(SystemExit):
        main(["play", "--seats", "human,human,basic,basic", "--hands", "1"])
    with pytest.raises(SystemExit):
        main(["play", "--seats", "basic,basic", "--hands", "1"])
