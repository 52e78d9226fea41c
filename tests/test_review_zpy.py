"""The review 复盘 of 找朋友 hands (ai_plugins.review with ai_plugins.review_zpy and
ZpyExpert.estimates): reproducible numbers in levels, a bad bury flagged, the CLI on a real
record (text and --json, real subprocess), the cache with the record (real SQLite file in
tmp_path), and the 找朋友 replay viewer and settlement showing it (real pygame events, SDL
dummy). Hands are real: seeded 找朋友 deals played by ``basic`` on every seat."""
from __future__ import annotations

import json

import pytest

from ai_plugins.builtin.expert import ExpertAI
from ai_plugins.builtin.expert_zpy import ZpyExpert
from ai_plugins.base import AISettings
from ai_plugins.review import Review, decision_points, review, rules_for, settings_key, table_lines
from ai_plugins.review_zpy import COSTLY_LEVELS
from engine import replay as R
from engine import replay_zpy as Z
from engine.state import Bury, Play
from engine.zhaopengyou import CallFriend, Declare, Pass, ZPhase
from game.career import Store
from game.career.reviews import cached_review, review_record
from tests.review_hands import play_zpy_hand, record_zpy, review_cli, worst_zpy_bury

SAMPLES = 3
SEED = 14  # seat 0 deals this hand (basic on every seat): its call and bury are reviewed too
NAMES = ["Ann", "basic", "basic", "basic", "basic"]


@pytest.fixture(scope="module")
def hand():
    h = play_zpy_hand(SEED)
    assert h.dealer == 0 and h.burier == 0
    return h


def _replay(h):
    return R.parse(Z.dumps(h, seat=0, seats=NAMES))


def test_calls_buries_and_plays_are_reviewed_in_levels_reproducibly(hand):
    rp = _replay(hand)
    a, b = review(rp, 0, SAMPLES, seed=3), review(rp, 0, SAMPLES, seed=3)
    assert a == b and a.as_dict() == b.as_dict()
    assert Review.from_dict(json.loads(a.dumps())) == a
    assert a.game == "zhaopengyou" and a.unit == "levels" and a.costly_at == COSTLY_LEVELS
    assert a.as_dict()["unit"] == "levels" and a.as_dict()["costly_gp"] == COSTLY_LEVELS
    mine = [x for x in rp.actions if x.seat == 0]
    reviewed = [x for x in mine if isinstance(x, (CallFriend, Bury, Play))]
    assert any(isinstance(x, (Declare, Pass)) for x in mine)  # declarations happened, not reviewed
    assert len(a.decisions) == len(reviewed) == decision_points(rp, 0)
    kinds = [d.kind for d in a.decisions]
    assert kinds[:2] == ["call", "bury"] and set(kinds[2:]) == {"play"}  # friend_call_time before_kitty
    call, bury = a.decisions[0], a.decisions[1]
    card, nth = hand.friend_call
    assert call.chosen == f"{card}/{nth}" and call.chosen_cards == () and call.trick == 0
    assert list(bury.chosen_cards) == [str(c) for c in sorted(hand.buried)]
    plays = [d for d in a.decisions if d.kind == "play"]
    assert [d.trick for d in plays] == list(range(1, len(hand.tricks) + 1))
    assert plays[-1].forced and plays[-1].loss == 0  # the last cards: listed, not searched
    for d in a.decisions:
        assert d.loss == pytest.approx(max(0.0, d.best_gp - d.chosen_gp), abs=1e-2)
        assert d.costly == (d.loss >= COSTLY_LEVELS)
        if not d.forced:
            assert d.samples == SAMPLES and d.candidates >= 2
            assert 0 <= d.chosen_points and 0 <= d.best_points  # the catchers' card points
    # the same replay, another seed: other numbers (the seed is used)
    assert review(rp, 0, SAMPLES, seed=4) != a
    text = "\n".join(table_lines(a))
    assert "levels" in text and "call" in text and "bury" in text and "game points" not in text


def test_burying_the_strongest_trumps_is_flagged(hand):
    bad = play_zpy_hand(SEED, override=worst_zpy_bury)
    rv = review(_replay(bad), 0, SAMPLES)
    bury = next(d for d in rv.decisions if d.kind == "bury")
    assert bury.costly and bury in rv.costly() and bury.best != bury.chosen
    good = next(d for d in review(_replay(hand), 0, SAMPLES).decisions if d.kind == "bury")
    assert bury.loss > good.loss + 1.0


def test_zpy_estimates_are_reproducible_and_reached_through_expert(hand):
    rp = _replay(hand)
    g = Z.start(rp)
    for action in rp.actions:  # up to seat 0's first lead
        if isinstance(action, Play) and action.seat == 0:
            break
        g.apply(action)
    view = g.view(0)
    assert view.phase is ZPhase.PLAY
    ai = ZpyExpert(AISettings(seat=0, seed=7, options={"samples": SAMPLES}))
    cands = [p for _, p in ai.basic.ranked_plays(view, view.play_options())[:3]]
    est = ai.estimates(view, "play", cands)
    again = ZpyExpert(AISettings(seat=0, seed=7, options={"samples": SAMPLES})).estimates(view, "play", cands)
    via = ExpertAI(AISettings(seat=0, seed=7, options={"samples": SAMPLES})).estimates(view, "play", cands)
    assert est == again == via and len(est) == len(cands)
    assert all(e["n"] == SAMPLES and isinstance(e["gp"], float) for e in est)
    with pytest.raises(ValueError):
        ai.estimates(view, "trump", ["S"])


def test_bad_seat_samples_and_game_are_refused(hand):
    rp = _replay(hand)
    with pytest.raises(ValueError):
        review(rp, 5)
    with pytest.raises(ValueError):
        review(rp, 0, samples=1)
    with pytest.raises(ValueError):
        rules_for("bridge")
    with pytest.raises(ValueError):
        Review.from_dict(review(rp, 0, 2).as_dict() | {"game": "bridge"})


def test_cache_and_cli_on_a_zpy_record(tmp_path, hand):
    path = tmp_path / "hongwu.db"
    rid = record_zpy(path, hand, NAMES)
    with Store.open(path) as store:
        assert store.record(rid).ruleset == "zhaopengyou"
        assert cached_review(store, rid) is None
        rv, cached = review_record(store, rid, samples=SAMPLES)
        assert not cached and rv.game == "zhaopengyou" and rv.seat == 0
        assert store.cached_review(rid, settings_key(0, SAMPLES, 0)) is not None
        again, cached = review_record(store, rid, samples=SAMPLES)
        assert cached and again == rv
        assert cached_review(store, rid) == rv
    out = review_cli(tmp_path, str(rid), "--json", "--samples", str(SAMPLES))
    assert out.returncode == 0, out.stderr
    d = json.loads(out.stdout)
    assert d["cached"] is True and d["game"] == "zhaopengyou" and d["unit"] == "levels"
    assert Review.from_dict(d) == rv
    out = review_cli(tmp_path, str(rid), "--samples", str(SAMPLES))
    assert out.returncode == 0, out.stderr
    assert "(cached)" in out.stdout and "total loss" in out.stdout and "levels" in out.stdout
    assert "call" in out.stdout and "bury" in out.stdout
    # a replay file, another seat and sample count: computed, not cached
    f = tmp_path / "hand.jsonl"
    f.write_text(Z.dumps(hand, seat=0, seats=NAMES), encoding="utf-8")
    out = review_cli(tmp_path, str(f), "--seat", "2", "--samples", "2", "--json")
    assert out.returncode == 0, out.stderr
    d = json.loads(out.stdout)
    assert d["cached"] is False and d["seat"] == 2 and {x["kind"] for x in d["decisions"]} <= {"call", "bury", "play"}
    bad = review_cli(tmp_path, str(f), "--seat", "5")
    assert bad.returncode == 2 and "seat" in bad.stderr


# --- the client ------------------------------------------------------------------------------
pygame = pytest.importorskip("pygame")

from tests.review_app import button_of, check_marks_drawn, click, open_viewer, press, press_key  # noqa: E402
from tests.review_app import recorded_table, review_app, wait_review  # noqa: E402


@pytest.mark.parametrize("size", [(800, 480), (1920, 1080)])
def test_zpy_viewer_shows_the_cached_reviews_marks(tmp_path, monkeypatch, hand, size):
    from game.scenes import replay_marks as rm
    from game.scenes.replay_zpy_view import ZpyReplayScreen

    rid = record_zpy(tmp_path / "hongwu.db", hand, NAMES)
    with Store.open(tmp_path / "hongwu.db") as store:
        rv, _ = review_record(store, rid, samples=SAMPLES)
    games = []
    real_gain = rm.gain_text
    monkeypatch.setattr(rm, "gain_text", lambda d, game="hongwu": games.append(game) or real_gain(d, game))
    app = review_app(tmp_path, monkeypatch, size)
    try:
        app.open_replay(rid)
        viewer = app.top
        assert isinstance(viewer, ZpyReplayScreen) and viewer.review_result == rv
        assert viewer.marks == rm.step_marks(rv, viewer.last_step) and viewer.marks
        # the call and the bury belong to step 0 (after the bury), plays to their tricks
        early = [d for d in rv.decisions if d.kind in ("call", "bury") and d.loss > 0]
        assert (0 in viewer.marks) == bool(early)
        app.step([])
        assert any(b.key == "review" for b in viewer.buttons)
        jump = check_marks_drawn(app, viewer)
        targets = [k for k in rm.jump_targets(viewer.marks) if k > 0]
        assert targets, "the seeded hand has a marked play"
        click(app, jump.rect.center)
        assert viewer.step == targets[0]
        app.step([])
        for key in ("badge", "trick_badge", "compare", "compare_chosen", "compare_best", "compare_gain"):
            assert viewer.area.contains(viewer.drawn[key]), key
        assert not viewer.drawn["compare_chosen"].colliderect(viewer.drawn["compare_best"])
        assert games and set(games) == {"zhaopengyou"}  # the band speaks of levels
        d = viewer.marks[viewer.step].decisions[0]
        assert rm.gain_text(d, "zhaopengyou").startswith(f"+{d.loss:.1f} levels")
        assert "catchers' card points" in rm.gain_text(d, "zhaopengyou")
        if len(targets) > 1:
            press_key(app, pygame.K_n)
            assert viewer.step == targets[1]
        if 0 in viewer.marks:  # the call or the bury: text and cards in the band at step 0
            viewer.go(0)
            app.step([])
            assert "compare_best" in viewer.drawn and viewer.area.contains(viewer.drawn["compare_gain"])
    finally:
        app.close()


def test_zpy_viewer_review_button_computes_caches_and_marks(tmp_path, monkeypatch, hand):
    from game.scenes import replay_marks as rm
    from game.scenes.review_screen import ReviewScreen

    rid = record_zpy(tmp_path / "hongwu.db", hand, NAMES)
    app = review_app(tmp_path, monkeypatch)
    try:
        viewer = open_viewer(app, rid)
        assert viewer.marks == {} and viewer.review_result is None
        press(app, viewer, "review")
        screen = app.top
        assert isinstance(screen, ReviewScreen) and screen.record_id == rid and screen.state == "running"
        assert screen._proc is not None and screen.progress[1] == decision_points(viewer.replay, 0)
        seen = wait_review(app, screen)
        assert screen.state == "done", screen.message
        assert any(0 < dn < t for dn, t in seen) or len(seen) < 3  # the bar moved (unless very fast)
        assert screen.review.game == "zhaopengyou" and viewer.review_result is screen.review
        app.step([])
        strip = screen.strip_rects()  # every trick in the window, none overlapping
        assert set(strip) == {d.trick for d in screen.review.decisions if d.trick}
        rects = list(strip.values())
        assert all(app.window.get_rect().contains(r) for r in rects)
        assert not any(a.colliderect(b) for i, a in enumerate(rects) for b in rects[i + 1:])
        # 31 tricks (a 找朋友 hand of single plays) do not fit one row at 800 px: rows, all inside
        import dataclasses

        real = screen.review
        play = next(d for d in real.decisions if d.kind == "play")
        screen.review = dataclasses.replace(real, decisions=tuple(dataclasses.replace(play, trick=k)
                                                                  for k in range(1, 32)))
        wide = screen.strip_rects()
        assert len(wide) == 31 and len({r.y for r in wide.values()}) >= 2
        assert all(app.window.get_rect().contains(r) for r in wide.values())
        assert not any(a.colliderect(b) for i, a in enumerate(wide.values()) for b in list(wide.values())[i + 1:])
        screen.review = real
        press(app, screen, "back")
        assert app.top is viewer
        app.step([])
        assert viewer.marks == rm.step_marks(screen.review, viewer.last_step)
        with Store.open(tmp_path / "hongwu.db") as store:
            assert cached_review(store, rid) == screen.review
        press(app, viewer, "review")
        assert app.top.state == "done" and app.top.cached and app.top.review == screen.review
    finally:
        app.close()


def test_zpy_settlement_review_button(tmp_path, monkeypatch):
    """At a local 找朋友 table whose hand was recorded: Review beside Next hand, the review
    in the background with its progress, cached with the record."""
    from game.scenes.review_screen import ReviewScreen

    app, store, rec = recorded_table(tmp_path, monkeypatch, ["human"] + ["basic"] * 4, ruleset="zhaopengyou")
    try:
        assert app.scene.show_settlement and rec.last_zpy is not None
        review = button_of(app.scene, "review")
        nxt = button_of(app.scene, "next")
        assert review.rect.h >= 40 and not review.rect.colliderect(nxt.rect)
        assert app.scene.layout.overlay.contains(review.rect)
        click(app, review.rect.center)
        screen = app.top
        assert isinstance(screen, ReviewScreen) and screen.state == "running"
        assert screen.record_id == rec.last_zpy.record_id and screen.progress[1] > 0
        wait_review(app, screen)
        assert screen.state == "done", screen.message
        assert screen.review.game == "zhaopengyou" and len(screen.review.decisions) == screen.progress[1]
        app.step([])
        press(app, screen, "back")
        press(app, app.scene, "review")
        again = app.top
        assert isinstance(again, ReviewScreen) and again.cached and again.review == screen.review
    finally:
        app.close()
        store.close()


def test_zpy_review_texts_in_chinese(tmp_path, monkeypatch, hand):
    from game.i18n import _, set_language
    from game.scenes import replay_marks as rm
    from game.scenes.review_screen import SUMMARIES

    app = review_app(tmp_path, monkeypatch, lang="zh")
    try:
        assert "级" in _(SUMMARIES["levels"]) and "级" in _(rm.GAIN_TEXTS["levels"])
        assert "闲家" in _(rm.POINTS_TEXTS["catchers"]) and _(rm.KIND_LABELS["call"]) == "叫朋友"
        call = next(d for d in review(_replay(hand), 0, 2).decisions if d.kind == "call")
        assert "A" in rm.action_text(call, (), call.chosen) and "/" not in rm.action_text(call, (), call.chosen)
    finally:
        app.close()
        set_language("en")


def test_review_screen_of_a_zpy_replay_file(tmp_path, monkeypatch, hand):
    """What the 找朋友 viewer of a replay file (no record) opens: reviewed, not cached."""
    from game.scenes.review_screen import ReviewScreen, replay_text

    rp = _replay(hand)
    assert R.parse(replay_text(rp)).actions == rp.actions  # the text the background process gets
    app = review_app(tmp_path, monkeypatch)
    try:
        screen = ReviewScreen(app, replay=rp, samples=2)
        app.push_screen(screen)
        wait_review(app, screen)
        assert screen.state == "done", screen.message
        assert not screen.cached and screen.review.game == "zhaopengyou" and screen.review.seat == 0
        assert screen.review == review(rp, 0, 2)  # the same numbers as in this process
        app.step([])
    finally:
        app.close()
