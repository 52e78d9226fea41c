"""Review 复盘 marks inside the replay viewer 回放: a real recorded hand in a real SQLite store
(tmp_path), a real review (ai_plugins.review, few samples) cached with it, the viewer opened
as the app opens it, real pygame events (SDL dummy)."""
from __future__ import annotations

import pytest

pygame = pytest.importorskip("pygame")

from game.career import Store  # noqa: E402
from game.career.reviews import cached_review, review_record  # noqa: E402
from game.scenes import replay_marks as rm  # noqa: E402
from game.scenes.replay_view import ReplayScreen  # noqa: E402
from tests.review_app import button_of, check_marks_drawn, click, open_viewer, press, press_key  # noqa: E402
from tests.review_app import review_app, wait_review  # noqa: E402
from tests.review_hands import play_hand, record_hand  # noqa: E402


def _record(tmp_path, seed=5, samples=2):
    """A recorded hand and its review (computed and cached); returns (db path, id, review)."""
    path = tmp_path / "hongwu.db"
    rid = record_hand(path, play_hand(seed))
    with Store.open(path) as store:
        rv, cached = review_record(store, rid, samples=samples)
        assert not cached
    return path, rid, rv


def test_step_marks_follow_the_review(tmp_path):
    _, _, rv = _record(tmp_path)
    marks = rm.step_marks(rv, 100)
    lost = [d for d in rv.decisions if d.loss > 0 and not d.forced]
    assert lost, "the seeded hand has decisions that lost points"
    assert set(marks) == {rm.step_of(d) for d in lost}
    for k, mk in marks.items():
        ds = [d for d in lost if rm.step_of(d) == k]
        assert mk.costly == any(d.costly for d in ds)
        assert mk.loss == pytest.approx(sum(d.loss for d in ds), abs=1e-3)
        assert mk.decisions[0].loss == max(d.loss for d in ds)
    targets = rm.jump_targets(marks)
    assert targets == sorted(k for k, m in marks.items() if m.costly) or targets == sorted(marks)
    assert rm.next_target(marks, -1) == targets[0]
    assert rm.next_target(marks, targets[-1]) is None
    assert rm.next_target(marks, targets[-1], forward=False) == (targets[-2] if len(targets) > 1 else None)
    assert rm.step_marks(None, 10) == {} and rm.step_marks(rv, 0) == {k: v for k, v in marks.items() if k == 0}


@pytest.mark.parametrize("size", [(800, 480), (1920, 1080)])
def test_viewer_marks_badges_comparison_and_jumps(tmp_path, monkeypatch, size):
    path, rid, rv = _record(tmp_path)
    app = review_app(tmp_path, monkeypatch, size)
    try:
        app.open_replay(rid)
        viewer = app.top
        assert isinstance(viewer, ReplayScreen) and viewer.review_result is not None
        assert viewer.marks == rm.step_marks(rv, viewer.last_step)
        app.step([])
        win = app.window
        screen = win.get_rect()
        # a dot over each marked step's tick in the mark's colour; the jump button, big enough
        # to tap, inside the window, not over the slider
        jump = check_marks_drawn(app, viewer)
        targets = rm.jump_targets(viewer.marks)
        first = targets[0] if targets[0] > 0 else (targets[1] if len(targets) > 1 else None)
        if targets[0] == 0:  # step 0 is where we are: the first jump goes past it
            targets = targets[1:]
        if not targets:
            pytest.skip("the seeded hand has one marked step only, at step 0")
        click(app, jump.rect.center)
        assert viewer.step == first
        app.step([])
        mk = viewer.marks[viewer.step]
        d = mk.decisions[0]
        # the badge beside the heading and on the seat's trick, the comparison band
        for key in ("badge", "trick_badge", "compare", "compare_chosen", "compare_best", "compare_gain"):
            r = viewer.drawn[key]
            assert screen.contains(r), key
            assert viewer.area.contains(r), key
        band = viewer.drawn["compare"]
        for b in viewer.buttons:
            assert not b.rect.colliderect(band)
        assert not viewer.drawn["compare_chosen"].colliderect(viewer.drawn["compare_best"])
        assert not viewer.drawn["compare_best"].colliderect(viewer.drawn["compare_gain"])
        assert d.loss > 0 and rm.gain_text(d).startswith(f"+{d.loss:.1f}")
        badge = viewer.drawn["badge"]
        assert tuple(win.get_at((badge.x + 3, badge.centery)))[:3] == rm.mark_color(mk)
        # keyboard: N to the next, Shift+N / P back
        if len(targets) > 1:
            press_key(app, pygame.K_n)
            assert viewer.step == targets[1]
            press_key(app, pygame.K_n, pygame.KMOD_SHIFT)
            assert viewer.step == targets[0]
            press_key(app, pygame.K_n)
            press_key(app, pygame.K_p)
            assert viewer.step == targets[0]
        # touch: a tap on the jump button
        viewer.go(0)
        app.step([])
        jump = button_of(viewer, "next_costly")
        click(app, jump.rect.center, touch=True)
        assert viewer.step == first
        # past the last costly decision the button is disabled and N does nothing
        viewer.go(targets[-1])
        app.step([])
        jump = button_of(viewer, "next_costly")
        assert not jump.enabled
        press_key(app, pygame.K_n)
        assert viewer.step == targets[-1]
        # an unmarked step: no badge, the band says how to jump
        plain = next((k for k in range(viewer.last_step + 1) if k not in viewer.marks), None)
        if plain is not None:
            viewer.go(plain)
            app.step([])
            assert "badge" not in viewer.drawn and "compare" in viewer.drawn and "compare_best" not in viewer.drawn
    finally:
        app.close()


def test_no_marks_without_a_cached_review(tmp_path, monkeypatch):
    rid = record_hand(tmp_path / "hongwu.db", play_hand(5))
    with Store.open(tmp_path / "hongwu.db") as store:
        assert cached_review(store, rid) is None
    app = review_app(tmp_path, monkeypatch)
    try:
        viewer = open_viewer(app, rid)
        assert viewer.marks == {} and viewer.review_result is None and viewer.mark_dots == {}
        assert not any(b.key == "next_costly" for b in viewer.buttons)
        assert any(b.key == "review" for b in viewer.buttons)
        assert "compare" not in viewer.drawn
        press_key(app, pygame.K_n)  # nothing to jump to
        assert viewer.step == 0
    finally:
        app.close()


def test_review_button_result_marks_the_viewer(tmp_path, monkeypatch):
    """The Review button computes the review; back in the viewer its steps are marked."""
    from game.scenes.review_screen import ReviewScreen

    rid = record_hand(tmp_path / "hongwu.db", play_hand(5))
    app = review_app(tmp_path, monkeypatch)
    try:
        viewer = open_viewer(app, rid)
        press(app, viewer, "review")
        screen = app.top
        assert isinstance(screen, ReviewScreen)
        wait_review(app, screen)
        assert screen.state == "done", screen.message
        assert viewer.review_result is screen.review
        press(app, screen, "back")
        assert app.top is viewer
        app.step([])
        assert viewer.marks == rm.step_marks(screen.review, viewer.last_step)
        assert bool(viewer.marks) == any(b.key == "next_costly" for b in viewer.buttons)
        with Store.open(tmp_path / "hongwu.db") as store:  # and it is the cached one from now on
            assert cached_review(store, rid) == screen.review
    finally:
        app.close()


def test_cached_review_prefers_default_settings_and_skips_damage(tmp_path):
    from ai_plugins.review import DEFAULT_SAMPLES, settings_key

    path, rid, rv = _record(tmp_path, samples=2)
    with Store.open(path) as store:
        assert cached_review(store, rid) == rv  # the only one: made with 2 samples
        assert cached_review(store, rid, seat=1) is None  # another seat's: none
        store.save_review(rid, settings_key(rv.seat, 3, 0), "{not json")
        assert cached_review(store, rid) == rv  # the damaged newer entry is skipped
        other = rv.as_dict() | {"samples": DEFAULT_SAMPLES}
        import json

        store.save_review(rid, settings_key(rv.seat, DEFAULT_SAMPLES, 0), json.dumps(other), now=0.0)
        assert cached_review(store, rid).samples == DEFAULT_SAMPLES  # the default settings first


def test_marks_in_chinese(tmp_path, monkeypatch):
    path, rid, rv = _record(tmp_path)
    app = review_app(tmp_path, monkeypatch, lang="zh")
    try:
        open_viewer(app, rid)
        from game.i18n import _

        assert _("You:") != "You:" and _("better:") != "better:"
        assert "复盘" in _("Review: points lost at {n} steps, {costly} costly · !▶ or N: next costly decision")
        assert "积分" in _("+{gp} game points")
    finally:
        app.close()
