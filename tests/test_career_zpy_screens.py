"""找朋友 hands in the client's career screens (issue 16, Deliver 3): the records list's game
switch 红五 / 找朋友, the 找朋友 rows (role, level, trump, catchers' points, levels gained),
a tap on a 找朋友 row, legible at 800×480 and 1920×1080 in both languages. Real pygame events
through the App, a real SQLite store in tmp_path, hands recorded by the real Recorder."""
from __future__ import annotations

import pytest

pygame = pytest.importorskip("pygame")

from engine.match import ZpyMatch  # noqa: E402
from engine.ruleset import zhaopengyou  # noqa: E402
from engine.zhaopengyou import first_legal_action  # noqa: E402
from game.career import Recorder, Store  # noqa: E402
from tests.test_career_screens import data, menu_app, play_recorded_hands, press, texts  # noqa: E402,F401


def record_zpy_match(store: Store, name: str, hands: int, seed: int = 9) -> None:
    """``hands`` hands of one 找朋友 match recorded for ``name`` (first legal actions, no AI)."""
    rec = Recorder(store, name, clock=lambda: 1_800_000_000.0)
    m = ZpyMatch(zhaopengyou(), seed=seed)
    for k in range(hands):
        while not m.hand.is_over:
            m.hand.apply(first_legal_action(m.hand))
        assert rec.zpy_hand_finished(m, [name, "b", "c", "d", "e"]) is not None
        if k + 1 < hands:
            m.next_hand()


def make_store(path, name="Ann", zpy=3, hongwu=2) -> None:
    store = Store.open(path)
    store.create_profile(name)
    store.use_profile(name)
    if hongwu:
        play_recorded_hands(store, name, hongwu)
    record_zpy_match(store, name, zpy)
    store.close()


def test_the_switch_lists_each_games_hands_and_zpy_rows_show_their_figures(data, texts):
    make_store(data)
    store = Store.open(data)
    pid = store.profile("Ann").id
    hw = store.records(pid, ruleset="hongwu")
    zp = store.zpy_hands(pid)
    store.close()
    assert len(hw) == 2 and len(zp) == 3
    app = menu_app(size=(800, 480))
    try:
        press(app, "records")
        scr = app.top
        assert scr.game == "hongwu" and [r.id for r in scr.records] == [r.id for r in reversed(hw)]
        press(app, "game:zhaopengyou")
        assert scr.game == "zhaopengyou"
        assert [r.record_id for r in scr.records] == [r.record_id for r in reversed(zp)]  # newest first
        app.step()
        assert [b.key for b in scr.buttons if b.key.startswith("rec:")] == [f"rec:{r.record_id}" for r in reversed(zp)]
        del texts[:]
        scr.invalidate()
        app.step()
        drawn = {t for t, _px in texts}
        assert {"Level", "Catchers' points", "Levels gained"} <= drawn and "Bid" not in drawn
        for r in zp:
            role = "Dealer" if r.dealer == r.seat else "Friend" if r.friend == r.seat else "Catcher"
            assert role in drawn and str(r.catcher_points) in drawn
            assert (f"{r.my_gain:+d}" if r.my_gain else "0") in drawn
        # a tap on a 找朋友 row opens its replay: hands face up, the kitty, trick by trick
        r0 = zp[-1]
        press(app, f"rec:{r0.record_id}")
        v = app.top
        assert type(v).__name__ == "ZpyReplayScreen" and v.replay.header["ruleset"] == "zhaopengyou"
        assert v.step == 0 and sum(len(h) for h in v.frames[0].hands) > 0 and v.frames[0].buried
        del texts[:]
        v.invalidate()
        app.step()
        drawn = {t for t, _px in texts}
        assert "Kitty dealt" in drawn and any(
            t.startswith(f"Dealer {v.names[r0.dealer]} · level") for t in drawn)
        press(app, "next")
        assert v.step == 1
        del texts[:]
        v.invalidate()
        app.step()
        assert any(t.startswith("Trick 1: led by") for t, _px in texts)
        revealed = next(k for k, f in enumerate(v.frames) if f.friend is not None or f.alone)
        press(app, "last")
        assert v.step == v.last_step == len(v.frames) - 1 and v.frames[-1].settlement is not None
        del texts[:]
        v.invalidate()
        app.step()
        drawn = {t for t, _px in texts}
        assert any(t.startswith("Levels after:") for t in drawn)
        assert any(t.startswith(("Dealer side wins", "Catchers win with")) for t in drawn)
        f = v.frames[-1]
        if f.friend is not None and f.friend != f.dealer:
            assert any(t.startswith("Friend ·") for t in drawn)  # marked once revealed
            assert all(v.frames[k].friend is None for k in range(revealed))
        press(app, "back")
        assert app.top is scr
        press(app, "game:hongwu")
        assert scr.game == "hongwu" and len(scr.records) == 2
        press(app, f"rec:{hw[0].id}")
        assert type(app.top).__name__ == "ReplayScreen"
    finally:
        app.close()


def test_a_profile_without_zpy_hands_shows_the_empty_line(data, texts):
    store = Store.open(data)
    store.create_profile("Bo")
    store.use_profile("Bo")
    store.close()
    app = menu_app(size=(800, 480))
    try:
        press(app, "records")
        press(app, "game:zhaopengyou")
        assert app.top.records == []
        assert not [b for b in app.top.buttons if b.key.startswith("rec:")]
    finally:
        app.close()


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("size", [(800, 480), (1920, 1080)])
def test_zpy_records_are_legible(data, texts, lang, size):
    make_store(data, name="安妮", zpy=12, hongwu=0)
    app = menu_app(size=size, lang=lang)
    lo_t = max(14, int(14 * min(size[0] / 1280, size[1] / 720)))
    lo_b = max(40, int(40 * min(size[0] / 1280, size[1] / 720)))
    try:
        app.open_records()
        app.step()
        press(app, "game:zhaopengyou")
        scr = app.top
        del texts[:]
        scr.invalidate()
        app.step()
        assert texts
        small = sorted({(t, px) for t, px in texts if px < lo_t and t.strip()})
        assert not small, small[:20]
        screen = app.window.get_rect()
        for i, b in enumerate(scr.buttons):
            assert b.rect.h >= lo_b and b.rect.w >= lo_b, (b.key, b.rect)
            assert screen.contains(b.rect), (b.key, b.rect)
            for o in scr.buttons[i + 1:]:
                assert not b.rect.colliderect(o.rect), (b.key, o.key)
        drawn = {t for t, _px in texts}
        if lang == "zh":
            assert {"红五", "找朋友", "升级"} <= drawn
            english = sorted({t for t in drawn if any(w in t for w in (
                "Records", "Statistics", "Dealer", "Friend", "Catcher", "Level", "points", "Back", "Hong", "Find"))})
            assert not english, english
    finally:
        app.close()


def test_zpy_statistics_show_the_figures_and_the_latest_matchs_levels(data, texts, monkeypatch):
    from game.career import chart
    from game.career.zpy_stats import zpy_stats

    make_store(data, zpy=3, hongwu=1)
    store = Store.open(data)
    want = zpy_stats(store, "Ann")
    store.close()
    calls = []
    real = chart.draw_levels_chart
    monkeypatch.setattr(chart, "draw_levels_chart", lambda *a, **k: calls.append((a, k)) or real(*a, **k))
    app = menu_app(size=(800, 480))
    try:
        press(app, "records")
        press(app, "game:zhaopengyou")
        press(app, "stats")
        st = app.top
        assert type(st).__name__ == "StatsScreen" and st.game == "zhaopengyou"
        assert st.stats.hands == 3 and st.my_seat == 0
        values = dict(st.lines())
        assert values["Hands"] == "3" and values["Levels gained"] == (f"{want.levels_gained:+d}" if want.levels_gained else "0")
        assert values["Matches / games won"] == f"1 / {want.games_won}"
        app.step()
        assert calls, "no levels chart drawn"
        series, kw = calls[-1][0][2], calls[-1][1]
        assert [list(s) for s in series] == [list(s) for s in want.levels] and len(series) == 5
        assert kw["highlight"] == 0 and kw["labels"][0] == "Ann"
        assert st.chart_rect is not None and st.chart_rect.w > 200
        press(app, "game:hongwu")  # the switch on the statistics screen
        assert st.game == "hongwu" and st.stats.hands == 1
        press(app, "game:zhaopengyou")
        press(app, "records")  # back to the list, showing the same game
        assert type(app.top).__name__ == "RecordsScreen" and app.top.game == "zhaopengyou"
    finally:
        app.close()


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("size", [(800, 480), (1920, 1080)])
def test_zpy_statistics_are_legible(data, texts, lang, size):
    make_store(data, name="安妮", zpy=4, hongwu=0)
    app = menu_app(size=size, lang=lang)
    lo_t = max(14, int(14 * min(size[0] / 1280, size[1] / 720)))
    lo_b = max(40, int(40 * min(size[0] / 1280, size[1] / 720)))
    try:
        app.open_stats("zhaopengyou")
        app.step()
        scr = app.top
        del texts[:]
        scr.invalidate()
        app.step()
        small = sorted({(t, px) for t, px in texts if px < lo_t and t.strip()})
        assert not small, small[:20]
        screen = app.window.get_rect()
        for i, b in enumerate(scr.buttons):
            assert b.rect.h >= lo_b and b.rect.w >= lo_b, (b.key, b.rect)
            assert screen.contains(b.rect), (b.key, b.rect)
            for o in scr.buttons[i + 1:]:
                assert not b.rect.colliderect(o.rect), (b.key, o.key)
        assert scr.chart_rect is not None and scr.chart_rect.h >= 60
        drawn = {t for t, _px in texts}
        if lang == "zh":
            assert {"做朋友", "最近一局的级别"} <= drawn
            english = sorted({t for t in drawn if any(w in t for w in (
                "Records", "Statistics", "Dealer", "friend", "Catcher", "Level", "points", "Back", "Hands",
                "Matches", "seat"))})
            assert not english, english
    finally:
        app.close()


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("size", [(800, 480), (1920, 1080)])
def test_zpy_replay_is_legible(data, texts, lang, size, monkeypatch):
    """The viewer's own text and targets, and the text drawn on its cards: with five seats and
    the kitty the rows are about 30×43 px cards at 800×480, which keep their corner index
    (never under 14 px) and leave off the decorative text that would be smaller (the J/Q/K
    centre letter, a joker's English word: game.cards_render.MIN_TEXT_PX)."""
    from game.cards_render import MIN_TEXT_PX, CardRenderer

    inside: list[tuple[int, int]] = []
    on_card: list[tuple[str, int]] = []  # every text a card face was drawn with, all steps
    faces: list[tuple[int, int]] = []  # the sizes of the faces drawn
    real_draw = CardRenderer._draw_face

    def draw_face(self, card, w, h, *a, **k):
        n = len(texts)
        out = real_draw(self, card, w, h, *a, **k)
        inside.append((n, len(texts)))
        on_card.extend(texts[n:])
        faces.append((w, h))
        return out

    monkeypatch.setattr(CardRenderer, "_draw_face", draw_face)
    make_store(data, name="安妮", zpy=2, hongwu=0)
    store = Store.open(data)
    rid = store.zpy_hands(store.profile("安妮").id)[-1].record_id
    store.close()
    app = menu_app(size=size, lang=lang)
    lo_t = max(14, int(14 * min(size[0] / 1280, size[1] / 720)))
    lo_b = max(40, int(40 * min(size[0] / 1280, size[1] / 720)))
    try:
        app.open_replay(rid)
        app.step()
        scr = app.top
        assert type(scr).__name__ == "ZpyReplayScreen"
        for step in (0, 1, scr.last_step):
            scr.go(step)
            del texts[:]
            inside.clear()
            scr.invalidate()
            app.step()
            on_cards = {i for lo, hi in inside for i in range(lo, hi)}
            own = [tp for i, tp in enumerate(texts) if i not in on_cards]
            small = sorted({(t, px) for t, px in own if px < lo_t and t.strip()})
            assert not small, (step, small[:20])
            inside.clear()
            screen = app.window.get_rect()
            for i, b in enumerate(scr.buttons):
                assert b.rect.h >= lo_b and b.rect.w >= lo_b, (b.key, b.rect)
                assert screen.contains(b.rect), (b.key, b.rect)
            if lang == "zh":
                english = sorted({t for t, _px in texts if any(w in t for w in (
                    "Dealer", "Friend", "Trick", "points", "Back", "Kitty", "level", "Levels", "trump", "friend"))})
                assert not english, (step, english)
        assert faces and on_card, "no card face was drawn"
        tiny = sorted({(t, px) for t, px in on_card if px < MIN_TEXT_PX and t.strip()})
        assert not tiny, (min(faces), tiny[:20])
    finally:
        app.close()


def test_the_replay_window_opens_a_zpy_replay_in_its_viewer(data, monkeypatch):
    from game import replay_window
    from game.app import App
    from game.career import load_replay

    make_store(data, zpy=1, hongwu=0)
    store = Store.open(data)
    rep = load_replay(store.zpy_hands(store.profile("Ann").id)[0].record_id, store)
    store.close()
    seen = []
    real_run = App.run
    monkeypatch.setattr(App, "run", lambda self: seen.append(type(self.screens[-1]).__name__) or real_run(self))
    assert replay_window.run_viewer(rep, lang="en", size=(800, 480), max_frames=5) == 3  # the window ran
    assert seen == ["ZpyReplayScreen"]
