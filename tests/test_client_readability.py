"""What a new player reported: announcements hiding played cards, unreadable toolbar labels,
small print and a see-through settlement, clipped hand cards, rules text over the panel
border, a sound button that lied, AI names silently replaced, and Ctrl-C tracebacks.

Everything drives the real client with a fake clock; loops are bounded in frames; nothing
measures time.
"""
from __future__ import annotations

import textwrap

import pytest

pygame = pytest.importorskip("pygame")

from engine.state import Bid, Phase, first_legal_action  # noqa: E402
from game import fonts, i18n, settings  # noqa: E402
from game.app import EXIT_INTERRUPTED, App, Options  # noqa: E402
from game.cli import main as hongwu_main  # noqa: E402
from game.layout import Layout, position_of  # noqa: E402
from game.pacing import SPEEDS  # noqa: E402
from tests.client_driver import THROW_ATTEMPT, make_app, throw_action, throw_table  # noqa: E402


@pytest.fixture(autouse=True)
def _english_after(tmp_path, monkeypatch):
    monkeypatch.setenv(settings.CONFIG_ENV, str(tmp_path))
    yield
    i18n.set_language("en")


def _card_rects(scene) -> list[pygame.Rect]:
    """Every played card lying on the table now (the trick in progress, or the finished one)."""
    lay = scene.layout
    plays = scene._trick_on_table()[0]
    out = []
    for seat, cards in plays:
        out += lay.trick_rects(position_of(seat, scene.view.seat), len(cards))
    return out


# -- 1. announcements never hide played cards; a failed throw shows attempt and forced cards ----------
@pytest.mark.parametrize("size", [(800, 480), (1280, 720)])
@pytest.mark.parametrize("thrower", [0, 1, 2, 3])
def test_failed_throw_banner_shows_both_and_hides_no_card(thrower, size):
    now = [1000.0]
    table = throw_table(thrower, clock=lambda: now[0])
    app = make_app(table=table, size=size, lang="zh" if thrower % 2 else "en", clock=lambda: now[0])
    seen_throw = checked = 0
    try:
        for _ in range(3000):
            now[0] += 0.05
            assert app.step([])
            sc = app.scene
            v = sc.view
            throw = next((t for t in sc.toasts if t.tried), None)
            if throw is not None:
                if not seen_throw:  # the moment it happened: everyone is told, for a few seconds
                    seen_throw = 1
                    assert throw.seat == thrower and throw.notice
                    assert sorted(map(str, throw.tried)) == sorted(THROW_ATTEMPT)
                    assert [str(c) for c in throw.cards] == ["QD"]
                    assert throw.until - now[0] >= 3.0
                    assert any("♦Q" in n for n in sc.notices)
                placed = sc.notice_boxes()
                assert placed, "the failed throw is not shown"
                box, _fs, ch, notes = placed[0]
                assert throw in notes and ch > 0, "the cards of the failed throw are not shown"
                assert sc.layout.trick_area.contains(box)
                for r in _card_rects(sc):
                    assert not box.colliderect(r), (box, r, v.current_trick)
                checked += 1
            elif seen_throw:
                break
            if v.my_turn and not sc.dealing:
                act = throw_action(v) if thrower == 0 else (Bid(0, None) if v.phase == Phase.BID
                                                            else first_legal_action(v))
                sc.submit(act)
        assert seen_throw and checked > 3
    finally:
        app.close()


@pytest.mark.parametrize("size", [(800, 480), (1280, 720)])
def test_announcements_avoid_cards_on_every_frame_of_a_hand(size):
    """Kitty buried, dealer, red fives...: wherever the banner goes, no played card is under it."""
    now = [1000.0]
    table = throw_table(3, clock=lambda: now[0])  # the dealer (left) leads the first trick
    app = make_app(table=table, size=size, clock=lambda: now[0])
    shown = 0
    try:
        for _ in range(4000):
            now[0] += 0.05
            if not app.step([]) or app.scene.show_settlement:
                break
            sc = app.scene
            for box, _fs, _ch, _notes in sc.notice_boxes():
                shown += 1
                for r in _card_rects(sc):
                    assert not box.colliderect(r), (box, r)
            if sc.view.my_turn and not sc.dealing:
                v = sc.view
                sc.submit(Bid(0, None) if v.phase == Phase.BID else first_legal_action(v))
        assert shown > 0
    finally:
        app.close()


# -- 2. toolbar and helper buttons keep readable labels -------------------------------------------------
@pytest.mark.parametrize("size", [(800, 480), (1024, 768), (1280, 720), (1920, 1080)])
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_toolbar_labels_keep_a_readable_size(size, lang):
    app = make_app(size=size, lang=lang)
    try:
        extra: list[tuple] = []
        base = app._toolbar_items
        app._toolbar_items = lambda: base() + extra  # noqa: E731 - as a LAN game adds its auto-play toggle
        screen = app.window.get_rect()
        for speed in SPEEDS:
            for remote in (False, True):
                extra[:] = [("auto", "托管 off")] if remote else []
                app.set_speed(speed)
                app.step([])
                sc = app.scene
                lay = sc.layout
                bar = [b for b in sc.buttons if b.key.startswith(("tool:", "help:"))]
                assert {"tool:menu", "tool:lang", "tool:sound", "tool:speed", "help:last"} <= {b.key for b in bar}
                for b in bar:
                    assert screen.contains(b.rect), (b.key, b.rect)
                    assert b.label or b.icon is not None, b.key
                    if b.label:
                        assert b.label_size(lay.font_size) >= lay.min_font >= 12, (b.key, b.label, size)
                for i, a in enumerate(bar):
                    for b in bar[i + 1:]:
                        assert not a.rect.colliderect(b.rect), (a.key, b.key)
                speed_button = next(b for b in bar if b.key == "tool:speed")
                assert speed_button.label == i18n._(speed) and speed_button.icon is not None
    finally:
        app.close()


def test_sound_button_and_settings_note_tell_the_real_state():
    app = make_app()  # audio=False: no mixer at all
    try:
        app.step([])
        b = next(b for b in app.scene.buttons if b.key == "tool:sound")
        assert not b.enabled and b.label == "Off"  # greyed out: there is no sound to switch on
        from game.scenes.pause import SettingsScreen

        note = SettingsScreen(app).note()
        assert "no sound output" in note and "Not saved" in note  # make_app saves nothing
    finally:
        app.close()
    app = App(Options(seats=["human", "basic", "basic", "basic"], seed=3, lang="en", speed="instant",
                      audio=True, save_settings=True, user_plugins=False, size=(800, 480)))
    try:
        if not app.audio.available:
            pytest.skip("no audio output, not even SDL's dummy driver")
        app.step([])
        b = next(b for b in app.scene.buttons if b.key == "tool:sound")
        assert b.enabled and b.label == "On"
        from game.scenes.pause import SettingsScreen

        assert SettingsScreen(app).note() == "Saved automatically"
        app.scene._click(b)  # mute
        app.step([])
        b = next(b for b in app.scene.buttons if b.key == "tool:sound")
        assert b.enabled and b.label == "Off" and app.audio.muted
    finally:
        app.close()


# -- 3. settlement: notes at the row's size, an opaque panel ------------------------------------------
def _settled_app(size):
    app = make_app(seats=("basic",) * 4, size=size, hands=None, seed=5)
    for _ in range(3000):
        app.step([])
        if app.scene.show_settlement:
            return app
    app.close()
    raise AssertionError("no settlement")


@pytest.mark.parametrize("size", [(800, 480), (1280, 720)])
def test_settlement_small_print_is_row_sized_and_panel_opaque(size, monkeypatch):
    app = _settled_app(size)
    try:
        sc = app.scene
        sp = sc.panels["settle"]
        import game.scenes.settle as settle_mod

        drawn: list[tuple[str, int]] = []
        real = settle_mod.draw_text

        def spy(surf, text, size, color, pos, **kw):
            mw = kw.get("max_width")
            drawn.append((text, fonts.fit_size(text, size, mw, bold=kw.get("bold", False)) if mw else size))
            return real(surf, text, size, color, pos, **kw)

        monkeypatch.setattr(settle_mod, "draw_text", spy)
        surfs = []
        for fill in ((255, 255, 255), (0, 0, 0)):
            s = pygame.Surface(app.window.get_size())
            s.fill(fill)
            sp.draw(s, sc.view)
            surfs.append(s)
        row = dict(drawn)[i18n._("Kitty points")]
        note = next(sz for t, sz in drawn if t in (i18n._("counted for the dealer"),) or "not counted" in t)
        assert note == row >= sc.layout.min_font
        inner = sc.layout.overlay.inflate(-30, -30)
        a = pygame.image.tobytes(surfs[0].subsurface(inner), "RGB")
        b = pygame.image.tobytes(surfs[1].subsurface(inner), "RGB")
        assert a == b, "the table shows through the settlement panel"
    finally:
        app.close()


# -- 4. hand cards: both rows show rank and suit; everything on screen ----------------------------------
@pytest.mark.parametrize("size", [(800, 480), (960, 540), (1280, 720), (1920, 1080)])
@pytest.mark.parametrize("max_hand", [33, 45])
def test_every_hand_card_shows_its_rank_and_suit(size, max_hand):
    lay = Layout(*size, max_hand=max_hand)
    for n in range(1, max_hand + 1):
        rects = lay.hand_rects(n)
        for i, r in enumerate(rects):
            corner = pygame.Rect(r.x, r.y, lay.index_w, lay.index_h)
            assert lay.screen.contains(corner) and lay.screen.contains(r.move(0, -lay.raise_px))
            assert r.bottom <= lay.h - lay.margin // 2, (n, i, r)
            for j in range(i + 1, n):  # cards drawn later (to the right, or the front row)
                assert not rects[j].colliderect(corner), (size, n, i, j)
    if max_hand == 45:
        assert lay.two_rows and lay.row_offset >= lay.index_h


def test_three_deck_bury_at_800x480_uses_two_readable_rows():
    from engine.state import ChooseTrump
    from game.table import FirstLegalPlayer, LocalTable

    players = {s: FirstLegalPlayer(s) for s in (1, 2, 3)}
    table = LocalTable(["human", "first", "first", "first"], seed=4, decks=3, speed="instant", players=players)
    app = make_app(table=table, size=(800, 480))
    try:
        for _ in range(500):
            app.step([])
            v = app.scene.view
            if v.my_turn and v.phase == Phase.BID:
                app.scene.submit(Bid(0, v.legal_bids()[-1]))
            elif v.my_turn and v.phase == Phase.TRUMP:
                app.scene.submit(ChooseTrump(0, "S"))
            elif v.phase == Phase.BURY:
                break
        sc = app.scene
        assert sc.view.phase == Phase.BURY and len(sc.hand.cards) == 45
        rects = sc.hand.rects(sc.layout)
        assert len({r.y for r in rects}) == 2  # two rows
        for i, r in enumerate(rects):
            corner = pygame.Rect(r.x, r.y, sc.layout.index_w, sc.layout.index_h)
            assert app.window.get_rect().contains(corner)
            assert not any(rects[j].colliderect(corner) for j in range(i + 1, len(rects)))
    finally:
        app.close()


# -- 5. rules text never crosses the panel border ---------------------------------------------------
@pytest.mark.parametrize("size", [(800, 480), (1280, 720)])
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_rules_text_is_clipped_inside_the_panel(size, lang):
    app = App(Options(menu=True, lang=lang, speed="instant", audio=False, user_plugins=False, size=size,
                      save_settings=False))
    try:
        app.open_rules()
        rs = app.top
        app.step([])
        v = rs.view_rect
        inner = rs.content_rect()
        assert v.contains(inner) and inner.y > v.y and inner.bottom < v.bottom
        bands = [pygame.Rect(v.x + 3, v.y + 2, v.w - 6, inner.y - v.y - 2),
                 pygame.Rect(v.x + 3, inner.bottom, v.w - 6, v.bottom - 2 - inner.bottom)]
        lines = list(rs.lines)
        step = max(1, rs.max_scroll // 23)
        for scroll in list(range(0, rs.max_scroll + 1, step)) + [rs.max_scroll]:
            shots = []
            for ls in (lines, []):
                rs.lines = ls
                rs.scroll = scroll
                surf = pygame.Surface(app.window.get_size())
                rs.draw(surf, force=True)
                shots.append([pygame.image.tobytes(surf.subsurface(b), "RGB") for b in bands])
            assert shots[0] == shots[1], f"text drawn over the panel border at scroll {scroll}"
        rs.lines = lines
    finally:
        app.close()


# -- 7. unknown or clashing AI names stop `hongwu play` before any window ---------------------------------
def _no_window(monkeypatch):
    def refuse(*a, **k):
        raise AssertionError("a window was opened")

    monkeypatch.setattr("game.app.App.__init__", refuse)


def test_play_with_an_unknown_ai_exits_2_naming_it(monkeypatch, capsys):
    _no_window(monkeypatch)
    code = hongwu_main(["play", "--seats", "greedy,basic,basic,basic", "--no-user-plugins", "--hands", "1"])
    err = capsys.readouterr().err
    assert code == 2
    assert "greedy" in err and "no AI named" in err and "seat 0" in err


def test_play_with_a_clashing_ai_exits_2_naming_both_sources(tmp_path, monkeypatch, capsys):
    for sub, stem in (("one", "mytwin"), ("two", "othertwin")):
        folder = tmp_path / sub
        folder.mkdir()
        (folder / f"{stem}.py").write_text(textwrap.dedent("""
            from ai_plugins import hookimpl

            class Bot:
                def __init__(self, settings):
                    self.settings = settings

            @hookimpl
            def register_ais(register):
                register("twin", Bot, "9.9")
            """), encoding="utf-8")
    _no_window(monkeypatch)
    code = hongwu_main(["play", "--seats", "human,twin,twin,twin", "--no-user-plugins",
                        "--plugin-dir", str(tmp_path / "one"), "--plugin-dir", str(tmp_path / "two")])
    err = capsys.readouterr().err
    assert code == 2
    assert "'twin'" in err and "mytwin.py" in err and "othertwin.py" in err
    assert err.count("\n") == 1  # one message for the three seats


def test_a_plugin_cannot_take_the_name_basic(tmp_path, monkeypatch, capsys):
    """A reserved name is refused (PLUGINS.md): the built-in keeps it, the seats resolve."""
    from game.app import seat_errors

    (tmp_path / "mybasic.py").write_text(textwrap.dedent("""
        from ai_plugins import hookimpl

        class Bot:
            def __init__(self, settings):
                self.settings = settings

        @hookimpl
        def register_ais(register):
            register("basic", Bot, "9.9")
        """), encoding="utf-8")
    assert seat_errors(Options(seats=["human", "basic", "basic", "basic"], user_plugins=False,
                               plugin_dirs=[str(tmp_path)])) == []


def test_menu_start_does_not_check_saved_seats(monkeypatch):
    from game.app import seat_errors

    assert seat_errors(Options(seats=["human", "basic", "random", "expert"], user_plugins=False)) == []
    assert seat_errors(Options(seats=["human", "nope", "basic", "basic"], user_plugins=False))


# -- 8. Ctrl-C ----------------------------------------------------------------------------------------
def test_ctrl_c_in_the_loop_exits_130_without_a_traceback(capsys):
    app = make_app()
    calls = []

    def step(events=None):
        calls.append(1)
        if len(calls) > 2:
            raise KeyboardInterrupt
        return True

    app.step = step
    assert app.run() == EXIT_INTERRUPTED == 130
    err = capsys.readouterr().err
    assert "interrupted" in err and "Traceback" not in err
    assert not pygame.get_init()
    again = make_app(size=(800, 480))  # pygame starts again cleanly afterwards
    try:
        assert again.step([])
        assert fonts.get_font(14).size("x")[0] > 0
    finally:
        again.close()


def test_ctrl_c_in_hongwu_play_returns_130(monkeypatch, capsys):
    def step(self, events=None):
        raise KeyboardInterrupt

    monkeypatch.setattr(App, "step", step)
    code = hongwu_main(["play", "--seats", "human,basic,basic,basic", "--no-user-plugins", "--mute",
                        "--size", "800x480", "--lang", "en"])
    assert code == 130
    err = capsys.readouterr().err
    assert err.strip() == "hongwu: interrupted"
    assert not pygame.get_init()


def test_ctrl_c_while_starting_returns_130(monkeypatch, capsys):
    def boom(self, *a, **k):
        raise KeyboardInterrupt

    monkeypatch.setattr(App, "__init__", boom)
    assert hongwu_main(["play", "--seats", "human,basic,basic,basic", "--no-user-plugins", "--mute"]) == 130
    assert "interrupted" in capsys.readouterr().err

