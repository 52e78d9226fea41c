"""The review 复盘 (ai_plugins.review): reproducible numbers, a bad choice flagged, the CLI and
the cache with the record (real SQLite file, real subprocess)."""
from __future__ import annotations

import json

import pytest

from ai_plugins.review import Review, review, settings_key
from engine import replay as R
from game.career import Store
from game.career.reviews import review_record
from tests.review_hands import play_hand, record_hand, replay_text, review_cli, worst_trump

SAMPLES = 6


@pytest.fixture(scope="module")
def bad_trump_hand():
    g = play_hand(5, override=worst_trump)
    assert g.dealer == 0
    return g


def test_review_is_reproducible_at_a_fixed_sample_count(bad_trump_hand):
    rp = R.parse(replay_text(bad_trump_hand, 0))
    a, b = review(rp, 0, SAMPLES, seed=3), review(rp, 0, SAMPLES, seed=3)
    assert a == b and a.as_dict() == b.as_dict()
    assert Review.from_dict(json.loads(a.dumps())) == a
    kinds = [d.kind for d in a.decisions]
    assert kinds[:3] == ["bid", "trump", "bury"] and set(kinds[3:]) == {"play"}
    assert len(a.decisions) == sum(1 for x in rp.actions if x.seat == 0)
    # the forced last play is listed but not searched
    assert a.decisions[-1].forced and a.decisions[-1].loss == 0
    for d in a.decisions:
        assert d.loss == pytest.approx(max(0.0, d.best_gp - d.chosen_gp), abs=1e-2)


def test_the_weakest_trump_is_flagged_and_basics_trump_is_not(bad_trump_hand):
    rv = review(R.parse(replay_text(bad_trump_hand, 0)), 0, SAMPLES)
    trump = next(d for d in rv.decisions if d.kind == "trump")
    assert trump.chosen == "H" and trump.best != "H"
    assert trump.costly and trump in rv.costly()
    assert rv.ranked()[0].loss >= trump.loss
    # the same deal with basic's own (strongest) trump: that decision costs less
    good = play_hand(5)
    rv2 = review(R.parse(replay_text(good, 0)), 0, SAMPLES)
    trump2 = next(d for d in rv2.decisions if d.kind == "trump")
    assert trump2.chosen != "H"
    assert trump2.loss < trump.loss


def test_bad_seat_and_samples_are_refused(bad_trump_hand):
    rp = R.parse(replay_text(bad_trump_hand, 0))
    with pytest.raises(ValueError):
        review(rp, 9)
    with pytest.raises(ValueError):
        review(rp, 0, samples=1)


def test_cache_with_the_record_and_cli_json(tmp_path, bad_trump_hand):
    path = tmp_path / "hongwu.db"
    rid = record_hand(path, bad_trump_hand)
    store = Store.open(path)
    rv, cached = review_record(store, rid, samples=SAMPLES)
    assert not cached
    assert store.cached_review(rid, settings_key(0, SAMPLES, 0)) is not None
    again, cached = review_record(store, rid, samples=SAMPLES)
    assert cached and again == rv
    store.close()
    out = review_cli(tmp_path, str(rid), "--json", "--samples", str(SAMPLES))
    assert out.returncode == 0, out.stderr
    d = json.loads(out.stdout)
    assert d["cached"] is True and Review.from_dict(d) == rv
    # a replay file, other settings: computed, same shape
    f = tmp_path / "hand.jsonl"
    f.write_text(replay_text(bad_trump_hand, 0), encoding="utf-8")
    out = review_cli(tmp_path, str(f), "--samples", "3")
    assert out.returncode == 0, out.stderr
    assert "trump" in out.stdout and "total loss" in out.stdout
    bad = review_cli(tmp_path, "999", timeout=60)
    assert bad.returncode == 2 and "999" in bad.stderr
