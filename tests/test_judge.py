"""The JSON-lines judge: every shared worked case, bad input, and the real subprocess."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.judge import answer, answer_line

CASES = [json.loads(l) for l in (Path(__file__).parent / "data" / "judge-cases.jsonl").read_text(encoding="utf-8").splitlines() if l.strip()]


@pytest.mark.parametrize("case", CASES, ids=[c["request"].get("id", str(i)) for i, c in enumerate(CASES)])
def test_worked_cases(case):
    got = answer(case["request"])
    assert got["ok"] is True, got
    assert got.get("id") == case["request"].get("id")
    for key, value in case["expect"].items():
        assert got[key] == value, (key, got)


@pytest.mark.parametrize(
    "request_",
    [
        {"op": "nope"},
        {"op": "card", "trump": "S"},
        {"op": "card", "trump": "X", "card": "5H"},
        {"op": "card", "trump": "S", "card": "1H"},
        {"op": "classify", "trump": "S", "cards": ["7D", "7D", "7D"]},  # 3 copies, 2 decks
        {"op": "lead", "trump": "S", "lead": ["AD"], "hands": [[], []]},
        {"op": "follow", "trump": "S", "lead": [], "hand": ["4D"], "play": ["4D"]},
        {"op": "follow", "trump": "S", "lead": ["AD", "4S"], "hand": ["4D", "5D"], "play": ["4D", "5D"]},
        {"op": "winner", "trump": "S", "plays": [["9D"], ["9D", "9D"], ["4S"], ["5S"]]},
        {"op": "settle", "dealer": 5, "bid": 60, "points_won": [0, 0, 0, 0], "kitty": [], "last_trick_winner": 0},
        {"op": "bids", "start": 0, "actions": [55]},
        {"op": "card", "trump": "S", "card": "5H", "options": {"bogus": 1}},
        {"op": "card", "trump": "S", "card": "5H", "options": {"base_score": "2"}},
        {"op": "card", "trump": "S", "card": "5H", "decks": 4},
        [],
    ],
)
def test_bad_requests_are_answered(request_):
    got = answer(request_)
    assert got["ok"] is False and got["error"]


def test_follow_not_in_hand_is_illegal_not_an_error():
    got = answer({"op": "follow", "trump": "S", "lead": ["9D"], "hand": ["4D"], "play": ["5D"]})
    assert got == {"ok": True, "legal": False, "reason": got["reason"]} and got["reason"]
    got = answer({"op": "follow", "trump": "S", "lead": ["9D"], "hand": ["4D", "5D"], "play": ["4D", "5D"]})
    assert got["ok"] and got["legal"] is False


def test_lead_mixed_suits_is_invalid_with_null_forced():
    got = answer({"op": "lead", "trump": "S", "lead": ["AD", "4S"], "hands": [[], [], []]})
    assert got["ok"] and got["valid"] is False and got["forced"] is None


def test_options_change_settlement():
    req = {"op": "settle", "dealer": 0, "bid": 100, "points_won": [110, 0, 0, 0],
           "kitty": ["KD", "10D", "4D", "6D", "7D", "8D", "9D", "JD"], "last_trick_winner": 1}
    assert answer(req)["dealer_final"] == 10
    req["options"] = {"kitty_to_dealer_always": True}
    assert answer(req)["dealer_final"] == 30
    assert answer(req)["kitty_points"] == 20


def test_bids_done_and_not_done():
    assert answer({"op": "bids", "start": 1, "actions": [60, "pass", "pass", "pass"]}) == {
        "ok": True, "done": True, "dealer": 1, "bid": 60}
    got = answer({"op": "bids", "start": 1, "actions": [60], "decks": 3})
    assert got["ok"] is False  # 60 is below the three-deck minimum
    got = answer({"op": "bids", "start": 3, "actions": [80], "decks": 3})
    assert got == {"ok": True, "done": False, "to_act": 0, "options": [85, 90, 95]}


def test_non_json_line():
    out = json.loads(answer_line("{not json"))
    assert out["ok"] is False


def test_subprocess_judge_reads_on_after_bad_lines():
    lines = ["garbage", json.dumps({"op": "title", "points": 144, "id": 7}), "", "[1,2]",
             json.dumps({"op": "card", "trump": "S", "card": "5h"})]
    proc = subprocess.run(
        [sys.executable, "-m", "engine.judge"], input="\n".join(lines) + "\n",
        capture_output=True, text=True, timeout=60, encoding="utf-8",
    )
    assert proc.returncode == 0, proc.stderr
    answers = [json.loads(l) for l in proc.stdout.splitlines()]
    assert len(answers) == 5  # one answer per line, the blank one included
    assert answers[0]["ok"] is False
    assert answers[1] == {"id": 7, "ok": True, "title": "轿车", "title_en": "Sedan"}
    assert answers[2]["ok"] is False and "empty" in answers[2]["error"]
    assert answers[3]["ok"] is False
    assert answers[4] == {"ok": True, "suit": "trump", "points": 5}
