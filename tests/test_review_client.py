"""The client's review 复盘: the settlement's Review button -> a background process with a
progress bar -> the review screen (real pygame events, SDL dummy, a real SQLite store)."""
from __future__ import annotations

import pytest

pygame = pytest.importorskip("pygame")

from game.app import DEFAULT_SIZE  # noqa: E402
from game.scenes.review_screen import ReviewScreen  # noqa: E402
from tests.review_app import button_of, click, open_viewer, play_to_settlement, press  # noqa: E402
from tests.review_app import recorded_table, review_app, wait_review  # noqa: E402
from tests.review_hands import play_hand, record_hand, replay_text  # noqa: E402

SEATS = ["human", "basic", "basic", "basic"]


def _settled_app(tmp_path, monkeypatch):
    """A recorded 红五 table at its settlement: ``(app, store, recorder)``."""
    app, store, rec = recorded_table(tmp_path, monkeypatch, SEATS)
    assert app.scene.show_settlement and rec.last is not None
    return app, store, rec


def test_review_button_progress_then_ranked_screen_and_cache(tmp_path, monkeypatch):
    app, store, rec = _settled_app(tmp_path, monkeypatch)
    try:
        review = button_of(app.scene, "review")
        assert review.rect.h >= 40
        click(app, review.rect.center)
        screen = app.top
        assert isinstance(screen, ReviewScreen) and screen.state == "running"
        assert screen._proc is not None and screen._proc.is_alive()  # a background process
        total = screen.progress[1]
        assert total > 0
        seen = wait_review(app, screen)
        assert screen.state == "done", screen.message
        assert any(0 < d < t for d, t in seen) or len(seen) < 3  # the bar moved (unless very fast)
        rv = screen.review
        assert len(rv.decisions) == total and not screen.cached
        assert screen.marks == {d.trick: any(x.costly for x in rv.decisions if x.trick == d.trick)
                                for d in rv.decisions if d.trick and d.loss > 0}
        app.step([])
        win = app.window
        strip = screen.strip_rects()
        assert set(strip) == {d.trick for d in rv.decisions if d.trick}
        for t, r in strip.items():  # marked tricks are drawn in the mark colours
            col = tuple(win.get_at(r.move(3, 3).topleft))[:3]
            assert (col != (40, 70, 55)) == (t in screen.marks)
        back = button_of(screen, "back")
        click(app, back.rect.center)
        assert app.top is not screen
        # the second time comes from the store at once
        review = button_of(app.scene, "review")
        click(app, review.rect.center)
        again = app.top
        assert isinstance(again, ReviewScreen) and again.state == "done" and again.cached
        assert again.review == rv
    finally:
        app.close()
        store.close()


def test_no_review_button_without_a_record(tmp_path, monkeypatch):
    app = review_app(tmp_path, monkeypatch, DEFAULT_SIZE, seats=SEATS, seed=5, max_frames=50000)
    try:
        play_to_settlement(app)
        keys = {b.key for b in app.scene.buttons}
        assert "next" in keys and "review" not in keys
    finally:
        app.close()


def test_review_screen_and_xray_in_chinese(tmp_path, monkeypatch):
    """With the language set to Chinese the review screen and the X-ray panels draw no English."""
    import re

    from game import fonts, i18n

    seen: list[str] = []
    real = fonts.render

    def spy(text, size, color, bold=False):
        seen.append(str(text))
        return real(text, size, color, bold)

    app, store, rec = _settled_app(tmp_path, monkeypatch)
    try:
        app.set_language("zh")
        app.scene.invalidate()
        app.step([])
        monkeypatch.setattr(fonts, "render", spy)
        app.scene.invalidate()
        app.step([])
        table_only = set(seen)  # what the table draws without X-ray (checked by test_zh_everywhere)
        app.set_xray(True)
        app.step([])
        review = button_of(app.scene, "review")
        click(app, review.rect.center)
        screen = app.top
        wait_review(app, screen)
        assert screen.state == "done"
        app.step([])
        screen.invalidate()
        app.step([])
    finally:
        app.close()
        store.close()
        i18n.set_language("en")
    assert "复盘" in seen and any("透视" in t for t in seen)
    words = re.compile(r"[A-Za-z]{2,}")
    bad = [t for t in dict.fromkeys(seen) if t not in table_only and words.findall(t) and not re.fullmatch(r"[0-9SHCDJB +.−\-→]*", t)]
    bad = [t for t in bad if any(w not in {"SJ", "BJ", "AI"} for w in words.findall(t))]
    assert not bad, bad


def test_review_screen_from_a_replay_without_a_record(tmp_path, monkeypatch):
    """What a replay viewer's Review button opens: a parsed replay, reviewed, not cached."""
    from engine import replay as R

    g = play_hand(5)
    app = review_app(tmp_path, monkeypatch)
    try:
        screen = ReviewScreen(app, replay=R.parse(replay_text(g, 0)), samples=3)
        app.push_screen(screen)
        wait_review(app, screen)
        assert screen.state == "done" and not screen.cached and screen.review.seat == 0
        app.step([])
    finally:
        app.close()


def test_replay_viewer_review_button_opens_the_cached_review(tmp_path, monkeypatch):
    """The replay viewer of a record has a Review button; it opens the review of that record
    (computed in the background the first time, from the cache afterwards)."""
    rid = record_hand(tmp_path / "hongwu.db", play_hand(5))
    app = review_app(tmp_path, monkeypatch)
    try:
        viewer = open_viewer(app, rid)
        b = button_of(viewer, "review")
        assert b.rect.h >= 40 and app.window.get_rect().contains(b.rect)
        assert viewer.slider.w >= 40
        click(app, b.rect.center)
        screen = app.top
        assert isinstance(screen, ReviewScreen) and screen.record_id == rid and screen.state == "running"
        wait_review(app, screen)
        assert screen.state == "done" and not screen.cached
        press(app, screen, "back")
        assert app.top is viewer
        app.step([])
        press(app, viewer, "review")
        assert app.top.state == "done" and app.top.cached
    finally:
        app.close()
