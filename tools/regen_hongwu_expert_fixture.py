"""Rewrite tests/data/hongwu-expert-fixture.json: the events of the 红五 hands that
``tests/test_zhaopengyou_expert.py::test_hongwu_expert_is_unchanged`` replays (seats expert,
basic, expert, random; 3 samples a decision), for the keys ``"decks:seed"`` already in it.

Run it only when a change to the ``expert`` AI is meant to alter its decisions, and commit the
result on its own, saying why::

    PYTHONPATH=.:tests python tools/regen_hongwu_expert_fixture.py
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from ai_helpers import manager_for, play_one  # noqa: E402

FIXTURE = ROOT / "tests" / "data" / "hongwu-expert-fixture.json"


def main() -> int:
    data = json.loads(FIXTURE.read_text(encoding="utf-8"))
    manager = manager_for(ROOT / "docs" / "examples")
    for key in sorted(data):
        decks, seed = map(int, key.split(":"))
        game, _ = play_one(manager, ["expert", "basic", "expert", "random"], seed=seed, decks=decks,
                           budget_s=30.0, options={"samples": 3})
        data[key] = json.loads(json.dumps([e.as_dict() for e in game.events]))
        print(f"{key}: {len(data[key])} events")
    FIXTURE.write_text(json.dumps(data, ensure_ascii=False, separators=(",", ":")), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
