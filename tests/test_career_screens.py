"""The career in the client (README "Career"): the profile screen (clicks and typing, IME
composition), the menu's profile card, a hand under a profile (title and coins in the
settlement, the promotion call-out and its sound), records, statistics with the chart, the
replay viewer, the daily-cap refusal, and every new screen legible at 800×480 in both
languages. Real pygame events through the App, a real SQLite store in tmp_path."""
from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest

pygame = pytest.importorskip("pygame")

from tests.client_driver import click  # noqa: E402

from game import fonts, i18n  # noqa: E402
from game.app import App, Options  # noqa: E402
from game.career import Recorder, Store  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def data(monkeypatch, tmp_path):
    """The career database and settings of this test only; returns the db path."""
    monkeypatch.setenv("HONGWU_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("HONGWU_CONFIG_DIR", str(tmp_path))
    yield tmp_path / "hongwu.db"
    i18n.set_language("en")


@pytest.fixture
def texts(monkeypatch):
    """Every ``(text, px)`` rendered through game.fonts from now on."""
    log: list[tuple[str, int]] = []
    real_render, real_get = fonts.render, fonts.get_font

    def render(text, size, color, bold=False):
        log.append((str(text), max(6, int(size))))
        return real_render(text, size, color, bold)

    class Spy:
        def __init__(self, font, size):
            self._f, self._s = font, size

        def render(self, text, *a, **k):
            log.append((str(text), self._s))
            return self._f.render(text, *a, **k)

        def __getattr__(self, name):
            return getattr(self._f, name)

    monkeypatch.setattr(fonts, "render", render)
    monkeypatch.setattr(fonts, "get_font", lambda size, bold=False: Spy(real_get(size, bold), max(6, int(size))))
    fonts.clear_cache()
    return log


def menu_app(size=(1280, 720), lang="en", prompt=False) -> App:
    return App(Options(menu=True, profile_prompt=prompt, lang=lang, speed="instant", audio=False,
                       save_settings=False, user_plugins=False, size=size, max_frames=40000))


def press(app: App, key: str) -> None:
    """Click the top screen's button ``key`` (it must be on screen and enabled)."""
    app.step()
    b = next((b for b in app.top.buttons if b.key == key), None)
    assert b is not None, f"no button {key!r}: {[b.key for b in app.top.buttons]}"
    assert b.enabled and app.window.get_rect().contains(b.rect), (key, b.rect)
    click(app, b.rect.center)


def set_stake(app: App, coins: int) -> None:
    """Press the new-game screen's stake button until it shows ``coins``."""
    for _ in range(10):
        if app.top.stake == coins:
            return
        press(app, "stake")
    raise AssertionError(f"the stake button never offered {coins}")


def type_text(app: App, text: str) -> None:
    pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=text))
    app.step()


def play_recorded_hands(store: Store, name: str, n: int, seed: int = 11, stake: int = 10) -> None:
    """``n`` auto-played hands recorded for ``name`` (as ``hongwu play --profile`` does)."""
    rec = Recorder(store, name, stake=stake)
    app = App(Options(seats=["basic"] * 4, seed=seed, speed="instant", hands=n, audio=False, save_settings=False,
                      max_frames=60000, user_plugins=False, out=io.StringIO(), recorder=rec))
    while app.step([]):
        pass
    app.close()


def test_first_start_asks_for_a_profile_created_by_typing_and_clicks(data, texts):
    app = menu_app(prompt=True)
    try:
        app.step()
        scr = app.top
        assert type(scr).__name__ == "ProfileScreen" and scr.first_run
        assert not next(b for b in scr.buttons if b.key == "create").enabled  # no name yet
        type_text(app, "An")
        pygame.event.post(pygame.event.Event(pygame.TEXTEDITING, text="ni", start=0, length=2))
        app.step()
        assert scr.field.composition == "ni" and scr.field.text == "An"  # composition is not the value yet
        type_text(app, "妮")  # the IME commits
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_SPACE, mod=0, unicode=" ", scancode=0))
        type_text(app, " ")  # a space is typed, it does not press a button
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_BACKSPACE, mod=0, unicode="", scancode=0))
        app.step()
        assert scr.field.text == "An妮" and app.top is scr
        press(app, "avatar:tiger")
        assert scr.avatar == "tiger"
        press(app, "create")
        assert type(app.top).__name__ == "MenuScene"
        store = Store.open(data)
        p = store.current_profile()
        assert (p.name, p.avatar, p.points) == ("An妮", "tiger", 0)
        store.close()
        del texts[:]
        app.top.invalidate()
        app.step()
        drawn = {t for t, _px in texts}
        assert "An妮" in drawn and "Barefoot · 0 points" in drawn  # the menu's card: title
        assert any(t.startswith("next: ") and "coins 0" in t for t in drawn)  # next title and coins
        # a duplicate name is refused on screen, in words
        press(app, "profile")
        type_text(app, "an妮")
        press(app, "create")
        assert type(app.top).__name__ == "ProfileScreen" and "taken" in app.top.error
    finally:
        app.close()


def test_pick_an_existing_profile_from_the_menu(data):
    store = Store.open(data)
    store.create_profile("Ann")
    store.create_profile("Bo", "crane")
    store.use_profile("Ann")
    store.close()
    app = menu_app(prompt=True)
    try:
        app.step()
        assert type(app.top).__name__ == "MenuScene"  # a current profile: no prompt
        press(app, "profile")
        assert {b.key for b in app.top.buttons} >= {"pick:Ann", "pick:Bo"}
        press(app, "pick:Bo")
        assert type(app.top).__name__ == "MenuScene" and app.career.current().name == "Bo"
    finally:
        app.close()


def _hand_gain(seed: int, tmp: Path) -> int:
    """Seat 0's game points in the first hand at ``seed`` (auto-played; a scratch store)."""
    store = Store.open(tmp / f"scratch{seed}.db")
    store.create_profile("x")
    play_recorded_hands(store, "x", 1, seed=seed, stake=0)
    g = store.records(store.profile("x").id)[0].my_points
    store.close()
    return g


def test_a_hand_under_a_profile_shows_title_coins_and_the_promotion(data, texts, tmp_path, monkeypatch):
    from engine.scoring import TITLES, title_for
    from engine.titles import promotions

    seed = next((s for s in range(11, 17) if _hand_gain(s, tmp_path) > 0), None)
    assert seed is not None, "no seed among 11..16 gives seat 0 a positive hand"
    threshold = TITLES[1][0]
    store = Store.open(data)
    store.create_profile("Ann")
    store.use_profile("Ann")
    store.conn.execute("UPDATE profiles SET points = ? WHERE name = 'Ann'", (threshold - 1,))
    store.conn.commit()
    store.close()
    app = menu_app()
    played = []
    monkeypatch.setattr(app.audio, "play", lambda name: played.append(name))
    try:
        app.options.seed = seed
        press(app, "new")
        set_stake(app, 10)
        press(app, "start")
        assert app.scene is not None and app.options.recorder is not None
        app.scene.toggle_auto(True)  # 托管: seat 0 is still the profile's
        for _ in range(40000):
            app.step([])
            if app.hands_done:
                break
        assert app.hands_done == 1
        rec = app.scene.career
        assert rec is not None and rec.points_before == threshold - 1
        assert rec.promotions[0] == TITLES[1][1] and rec.promotions == tuple(promotions(rec.points_before,
                                                                                        rec.points_after))
        assert rec.coins == 10 * (rec.points_after - rec.points_before)
        assert "promotion" in played
        over = app.top
        reached = promotions(rec.points_before, rec.points_after, "en")
        assert type(over).__name__ == "PromotionOverlay" and over.titles == reached
        app.scene.invalidate()
        for _ in range(3):
            app.step([])
        drawn = {t for t, _px in texts}
        now = title_for(rec.points_after, "en")
        assert "New title!" in drawn and now == reached[-1] and now in drawn
        assert any(t.startswith(f"Your title: {now}") and f"coins +{rec.coins:,}" in t for t in drawn)
        assert f"· {now}" in drawn  # on seat 0's name plate
        click(app, (10, 10))  # a tap closes the call-out; the settlement stays
        assert app.top is app.scene and app.scene.show_settlement
        store = Store.open(data)
        assert store.profile("Ann").points == rec.points_after and store.profile("Ann").coins == rec.coins
        store.close()
    finally:
        app.close()


def test_records_and_statistics_list_what_the_store_holds(data, texts):
    store = Store.open(data)
    store.create_profile("Ann")
    store.use_profile("Ann")
    play_recorded_hands(store, "Ann", 3)
    recs = store.records(store.profile("Ann").id)
    store.close()
    app = menu_app(size=(800, 480))
    try:
        press(app, "records")
        scr = app.top
        assert type(scr).__name__ == "RecordsScreen"
        assert [r.id for r in scr.records] == [r.id for r in reversed(recs)]  # newest first
        assert [b.key for b in scr.buttons if b.key.startswith("rec:")][:3] == [f"rec:{r.id}" for r in reversed(recs)]
        del texts[:]
        scr.invalidate()
        app.step()
        drawn = {t for t, _px in texts}
        r = recs[-1]
        assert f"{r.my_points:+d}" if r.my_points else "0" in drawn
        assert ("Dealer" if r.dealer == r.seat else "Defender") in drawn
        press(app, "stats")
        st = app.top
        assert type(st).__name__ == "StatsScreen" and st.stats.hands == 3
        assert st.stats.series == [x.total_after for x in recs]
        assert st.chart_rect is not None and st.chart_rect.w > 200
        values = dict(st.lines())
        assert values["Hands"] == "3"
        press(app, "back")
        press(app, f"rec:{recs[0].id}")  # a tap on a row opens its replay
        assert type(app.top).__name__ == "ReplayScreen" and app.top.replay.header["seats"][0] == "Ann"
    finally:
        app.close()


def test_records_scroll_by_drag_wheel_and_arrows(data):
    store = Store.open(data)
    store.create_profile("Ann")
    store.use_profile("Ann")
    play_recorded_hands(store, "Ann", 12, stake=0)
    store.close()
    app = menu_app(size=(800, 480))
    try:
        press(app, "records")
        scr = app.top
        assert len(scr.records) == 12 and scr.rows_shown < 12 and scr.offset == 0
        press(app, "down")
        assert scr.offset > 0
        press(app, "up")
        assert scr.offset == 0
        pygame.event.post(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=-2, flipped=False, precise_x=0.0,
                                             precise_y=-2.0, touch=False, which=0))
        app.step()
        assert scr.offset == 2
        row = next(b for b in scr.buttons if b.key.startswith("rec:"))
        x, y = row.rect.center
        step = row.rect.h + 4
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(x, y + step), button=1))
        pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=(x, y), rel=(0, -step), buttons=(1, 0, 0)))
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(x, y), button=1))
        app.step()
        assert scr.offset == 3 and app.top is scr  # dragged up one row, and nothing was opened
    finally:
        app.close()


def test_replay_viewer_steps_forwards_backwards_and_jumps(data):
    store = Store.open(data)
    store.create_profile("Ann")
    play_recorded_hands(store, "Ann", 1)
    rid = store.records(store.profile("Ann").id)[0].id
    store.close()
    app = menu_app(size=(800, 480))
    try:
        app.open_replay(rid)
        v = app.top
        assert type(v).__name__ == "ReplayScreen" and v.step == 0 and v.last_step >= 10
        assert len(v.frames[0].kitty) == len(v.frames[0].buried) == 8
        press(app, "next")
        press(app, "next")
        assert v.step == 2
        press(app, "prev")
        assert v.step == 1
        for k, want in ((pygame.K_RIGHT, 2), (pygame.K_LEFT, 1), (pygame.K_END, v.last_step), (pygame.K_HOME, 0)):
            pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode="", scancode=0))
            app.step()
            assert v.step == want
        click(app, (v.slider_x(5), v.slider.centery))  # jump with the slider
        assert v.step == 5
        a = v.area.center  # swipe left: forwards; right: backwards
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=a, button=1))
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(a[0] - 120, a[1]), button=1))
        app.step()
        assert v.step == 6
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=a, button=1))
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(a[0] + 120, a[1]), button=1))
        app.step()
        assert v.step == 5
        t = v.frames[5].last_trick
        assert v.status()[0].startswith("Trick 5:") and f"{t.points} points" in v.status()[0]
        press(app, "last")
        assert v.step == v.last_step and v.frames[-1].settlement is not None
        assert not next(b for b in v.buttons if b.key == "next").enabled
        press(app, "back")
        assert type(app.top).__name__ == "MenuScene"
    finally:
        app.close()


def test_a_damaged_replay_file_is_told_not_shown(data, tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"format": "hongwu-replay"}\nnot json\n', encoding="utf-8")
    app = menu_app()
    try:
        app.open_replay(str(bad))
        assert type(app.top).__name__ == "MessageScreen" and "damaged" in app.top.lines[0]
    finally:
        app.close()


def test_a_capped_profile_is_told_why_and_until_when(data):
    from engine.coins import DAY_CAP
    from game.career import local_day

    store = Store.open(data)
    p = store.create_profile("Ann")
    store.use_profile("Ann")
    store.conn.execute("INSERT INTO coin_days(profile_id, day, net, hands) VALUES (?, ?, ?, 1)",
                       (p.id, local_day(), -DAY_CAP))
    store.conn.commit()
    store.close()
    app = menu_app()
    try:
        press(app, "new")
        set_stake(app, 100)
        press(app, "start")
        msg = app.top
        assert type(msg).__name__ == "MessageScreen" and app.scene is None
        assert msg.title == "Daily coin limit" and "Ann" in msg.lines[0]
        assert any("start again at" in ln and ":00" in ln for ln in msg.lines)
        press(app, "ok")
        set_stake(app, 0)  # without coins the same profile plays
        press(app, "start")
        assert app.scene is not None and app.options.recorder.stake == 0
    finally:
        app.close()


def _screens(app: App, data_path: Path):
    """Yield (name, screen) for every new screen, each drawn."""
    from game.career import Recorded
    from game.scenes.promotion import PromotionOverlay

    app.step()
    yield "menu", app.top
    app.open_profiles()
    app.step()
    yield "profile", app.top
    app.pop_screen()
    app.open_new_game()
    app.step()
    yield "newgame", app.top
    app.pop_screen()
    app.open_records()
    app.step()
    yield "records", app.top
    app.open_stats()
    app.step()
    yield "stats", app.top
    app.pop_screen()
    app.open_replay(app.top.records[0].id)
    app.step()
    yield "replay", app.top
    app.top.go(app.top.last_step)
    app.step()
    yield "replay_end", app.top
    app.pop_screen()
    app.push_screen(PromotionOverlay(app, Recorded(1, 4, 9, 20, ("穿鞋", "穿袜"))))
    app.started = app.top.started = app.clock() - 1.0
    app.step()
    yield "promotion", app.top


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("size", [(800, 480), (1920, 1080)])
def test_every_new_screen_is_legible(data, texts, lang, size):
    store = Store.open(data)
    store.create_profile("安妮")
    store.use_profile("安妮")
    play_recorded_hands(store, "安妮", 12)
    store.close()
    app = menu_app(size=size, lang=lang)
    lo_t = max(14, int(14 * min(size[0] / 1280, size[1] / 720)))
    lo_b = max(40, int(40 * min(size[0] / 1280, size[1] / 720)))
    try:
        seen = set()
        for name, scr in _screens(app, data):
            seen.add(name)
            del texts[:]
            scr.invalidate()
            app.step()
            assert texts, name
            small = sorted({(t, px) for t, px in texts if px < lo_t and t.strip()})
            assert not small, (name, small[:20])
            screen = app.window.get_rect()
            for i, b in enumerate(scr.buttons):
                assert b.rect.h >= lo_b, (name, b.key, b.rect)
                if name != "newgame" or b.key == "stake":  # (the older rows keep their ◀ ▶)
                    assert b.rect.w >= lo_b, (name, b.key, b.rect)
                assert screen.contains(b.rect), (name, b.key, b.rect)
                for o in scr.buttons[i + 1:]:
                    assert not b.rect.colliderect(o.rect), (name, b.key, o.key)
            if lang == "zh":  # zh everywhere: no English word left on a career screen
                english = sorted({t for t, _px in texts if any(w in t for w in (
                    "Records", "Statistics", "Profile", "profile", "Stake", "Replay", "Trick", "points",
                    "Dealer", "Coins", "coins", "title", "Title", "Back", "Kitty", "Hands", "basic"))})
                assert not english, (name, english)
        assert len(seen) == 8
    finally:
        app.close()


def test_hongwu_replay_prints_text_headless_and_opens_the_viewer_with_a_display(data):
    store = Store.open(data)
    store.create_profile("Ann")
    play_recorded_hands(store, "Ann", 1)
    rid = store.records(store.profile("Ann").id)[0].id
    store.close()
    env = {**__import__("os").environ, "PYTHONPATH": str(ROOT), "SDL_VIDEODRIVER": "dummy"}
    p = subprocess.run([sys.executable, "-m", "game", "replay", str(rid)], cwd=ROOT, env=env, capture_output=True,
                       text=True, timeout=120)
    assert p.returncode == 0 and "trick 1:" in p.stdout  # no display: the text
    from engine import replay as R
    from game import replay_window
    from game.career import load_replay

    store = Store.open(data)
    rep = load_replay(rid, store)
    store.close()
    assert replay_window.run_viewer(rep, lang="en", size=(800, 480), max_frames=5) == 3  # the window ran
    assert R.frames(rep)


def test_the_next_staked_hand_at_the_cap_is_told_in_the_window(data):
    """In the window (no --hands) the capped next hand is not dealt: the game closes and a
    message says why and until when (a scripted run still exits with status 4)."""
    from engine.coins import DAY_CAP

    store = Store.open(data)
    store.create_profile("Ann")
    rec = Recorder(store, "Ann", stake=1000)
    app = App(Options(seats=["basic"] * 4, seed=3, speed="instant", audio=False, save_settings=False,
                      max_frames=40000, user_plugins=False, out=io.StringIO(), recorder=rec))
    try:
        for _ in range(40000):
            if app.hands_done or not app.step([]):
                break
        assert app.hands_done == 1
        store.conn.execute("UPDATE coin_days SET net = ?", (DAY_CAP,))
        store.conn.commit()
        app.next_hand()
        assert app.running and app.scene is None
        assert type(app.top).__name__ == "MessageScreen" and app.top.title == "Daily coin limit"
        assert "+80,000,000" in app.top.lines[1]
    finally:
        app.close()
        store.close()


def test_touch_drags_the_records_and_swipes_the_replay(data):
    """Fingers (FINGERDOWN/MOTION/UP, SDL's normalised coordinates): a drag scrolls the list
    without opening a hand; a swipe steps the replay."""
    from tests.client_driver import finger

    store = Store.open(data)
    store.create_profile("Ann")
    store.use_profile("Ann")
    play_recorded_hands(store, "Ann", 10, stake=0)
    store.close()
    app = menu_app(size=(800, 480))
    try:
        press(app, "records")
        scr = app.top
        row = next(b for b in scr.buttons if b.key.startswith("rec:"))
        x, y = row.rect.center
        step = row.rect.h + 4
        finger(app, "down", (x, y + 2 * step))
        finger(app, "move", (x, y))
        finger(app, "up", (x, y))
        app.step()
        assert scr.offset == 2 and app.top is scr
        press(app, row.key if row.key in {b.key for b in scr.buttons} else scr.buttons[0].key)
        v = app.top
        assert type(v).__name__ == "ReplayScreen"
        a = v.area.center
        finger(app, "down", a)
        finger(app, "up", (a[0] - 150, a[1]))
        app.step()
        assert v.step == 1
        finger(app, "down", a)
        finger(app, "up", (a[0] + 150, a[1] + 10))
        app.step()
        assert v.step == 0
    finally:
        app.close()
