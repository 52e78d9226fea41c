"""Main menu, new-game screen, pause overlay, settings and rules, driven by real mouse events."""
from __future__ import annotations

import pytest

pygame = pytest.importorskip("pygame")

from game import i18n, presets, settings  # noqa: E402
from game.app import App, Options, options_from_args  # noqa: E402
from game.cli import build_parser  # noqa: E402
from game.table import FirstLegalPlayer, LocalTable  # noqa: E402
from tests.client_driver import make_app  # noqa: E402


@pytest.fixture(autouse=True)
def _config(tmp_path, monkeypatch):
    monkeypatch.setenv(settings.CONFIG_ENV, str(tmp_path))
    yield tmp_path
    i18n.set_language("en")


def menu_app(**kw) -> App:
    """A real App that starts at the main menu; settings are saved (to the tmp config dir)."""
    opts = dict(menu=True, lang="en", speed="instant", audio=False, user_plugins=False,
                size=(1280, 720), max_frames=5000)
    opts.update(kw)
    return App(Options(**opts))


def keys(app) -> list[str]:
    return [b.key for b in app.top.buttons]


def find(app, key):
    for b in app.top.buttons:
        if b.key == key:
            return b
    raise AssertionError(f"no button {key!r} on {type(app.top).__name__}; have {keys(app)}")


def click(app, key) -> bool:
    """Post a real press + release on the centre of button ``key`` of the top screen."""
    app.step()  # buttons are laid out when drawn
    b = find(app, key)
    assert b.enabled, key
    assert app.window.get_rect().contains(b.rect), (key, b.rect)
    pos = b.rect.center
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))
    return app.step()


def key(app, k, mod=0) -> bool:
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode="", scancode=0))
    return app.step()


def screen_name(app) -> str:
    return type(app.top).__name__


def test_menu_new_game_start_reaches_table(_config):
    app = menu_app()
    try:
        app.step()
        assert screen_name(app) == "MenuScene" and app.scene is None and app.table is None
        k = keys(app)
        assert k[0] == "new" and {"rules", "settings", "quit"} <= set(k) and "continue" not in k
        click(app, "new")
        assert screen_name(app) == "NewGameScene"
        ng = app.top
        assert ng.seats[0] == "human" and all(s in ng.ais for s in ng.seats[1:])
        click(app, "decks:3")
        click(app, "diff:easy")
        assert ng.seats[1:] == ["basic"] * 3
        click(app, "seat2:next")
        assert ng.seats[2] == ng.ais[(ng.ais.index("basic") + 1) % len(ng.ais)]
        click(app, "seat2:prev")
        click(app, "seat3:name")  # the name cycles forward too
        chosen = list(ng.seats)
        click(app, "start")
        assert screen_name(app) == "TableScene" and app.screens == []
        assert app.table.kinds == chosen and app.table.seat == 0
        assert all(p.budget_s == presets.PRESETS["easy"].budget_s for p in app.table.players.values())
        for _ in range(30):
            app.step()
        assert app.scene.view.hand, "the hand was dealt"
        assert len(app.scene.view.hand) in (39, 39 + 6)
        saved = settings.load()
        assert saved.decks == 3 and saved.difficulty == "easy" and saved.seats == chosen
    finally:
        app.close()


def test_keyboard_navigation_and_quit():
    app = menu_app()
    try:
        app.step()
        assert key(app, pygame.K_DOWN)
        assert app.top.focus == 0
        key(app, pygame.K_UP)
        assert app.top.buttons[app.top.focus].key == "quit"
        assert key(app, pygame.K_RETURN) is False and app.running is False
    finally:
        app.close()


def test_hard_preset_uses_expert_with_think_budget():
    app = menu_app()
    try:
        click(app, "new")
        click(app, "diff:hard")
        ng = app.top
        expected = "expert" if "expert" in ng.ais else "basic"
        assert ng.seats[1:] == [expected] * 3
        assert "expert" in ng.note() or expected == "basic"
        click(app, "start")
        p = app.table.players[1]
        assert p.name == expected and p.budget_s == presets.PRESETS["hard"].budget_s
        if expected == "expert":
            assert p.ai.think_s == pytest.approx(presets.PRESETS["hard"].options["think_ms"] / 1000)
    finally:
        app.close()


def test_pause_overlay_freezes_and_resumes():
    now = [100.0]
    players = {s: FirstLegalPlayer(s) for s in (1, 2, 3)}
    table = LocalTable(["human", "first", "first", "first"], seed=3, speed="normal", players=players,
                       clock=lambda: now[0])
    app = make_app(table=table, clock=lambda: now[0], speed="normal")
    try:
        app.step()
        t0 = app.game_clock()
        key(app, pygame.K_ESCAPE)
        assert screen_name(app) == "PauseOverlay" and app.scene is not None
        assert keys(app) == ["resume", "rules", "new", "settings", "menu"]
        n_events = len(table.game.events)
        now[0] += 50
        for _ in range(5):
            app.step()
        assert app.game_clock() == pytest.approx(t0)  # game time stood still
        assert len(table.game.events) == n_events     # and no AI acted
        click(app, "resume")
        assert app.screens == [] and screen_name(app) == "TableScene"
        now[0] += 1
        app.step()
        assert app.game_clock() == pytest.approx(t0 + 1)
        # the toolbar's Menu button (touch screens have no Esc) opens it too
        click(app, "tool:menu")
        assert screen_name(app) == "PauseOverlay"
        key(app, pygame.K_ESCAPE)  # Esc resumes
        assert app.screens == []
        # Quit to menu keeps the game: Continue brings it back
        key(app, pygame.K_ESCAPE)
        click(app, "menu")
        assert screen_name(app) == "MenuScene" and keys(app)[0] == "continue"
        click(app, "continue")
        assert screen_name(app) == "TableScene" and app.table is table
        # rules and settings from the pause menu come back to it
        key(app, pygame.K_ESCAPE)
        click(app, "rules")
        assert screen_name(app) == "RulesScene"
        click(app, "back")
        assert screen_name(app) == "PauseOverlay"
        click(app, "settings")
        assert screen_name(app) == "SettingsScreen"
        key(app, pygame.K_ESCAPE)
        assert screen_name(app) == "PauseOverlay"
        # a new game from the pause menu replaces the running one
        click(app, "new")
        click(app, "start")
        assert app.table is not table and table.closed and app.screens == []
    finally:
        app.close()


def test_escape_with_raised_cards_opens_the_menu():
    players = {s: FirstLegalPlayer(s) for s in (1, 2, 3)}
    table = LocalTable(["human", "first", "first", "first"], seed=3, speed="instant", players=players)
    app = make_app(table=table)
    try:
        for _ in range(5):
            app.step()
        app.scene.hand.toggle(0)
        key(app, pygame.K_ESCAPE)  # Esc opens the menu even with cards raised (Backspace lowers them)
        assert screen_name(app) == "PauseOverlay" and app.scene.hand.selected == {0}
        key(app, pygame.K_ESCAPE)
        assert app.screens == []
        key(app, pygame.K_BACKSPACE)
        assert not app.scene.hand.selected and app.screens == []
    finally:
        app.close()


def test_settings_are_saved_and_reloaded(_config):
    app = menu_app(size=(800, 480))
    try:
        click(app, "settings")
        assert screen_name(app) == "SettingsScreen"
        click(app, "lang:zh")
        assert app.lang == "zh" and i18n._("Settings") != "Settings"
        assert find(app, "back").label == i18n._("Back")
        click(app, "speed:fast")
        click(app, "sound:off")
        assert app.audio.muted
        v0 = app.audio.volume
        click(app, "vol:-")
        assert app.audio.volume == pytest.approx(v0 - 0.1)
        click(app, "full:on")
        assert app.settings.fullscreen
        click(app, "full:off")
        click(app, "full:on")
        click(app, "back")
        assert screen_name(app) == "MenuScene"
    finally:
        app.close()
    s = settings.load()
    assert (s.lang, s.speed, s.muted, s.fullscreen) == ("zh", "fast", True, True)
    assert s.volume == pytest.approx(v0 - 0.1)
    again = App(Options(menu=True, audio=False, user_plugins=False, size=(800, 480)))
    try:
        assert again.lang == "zh" and again.speed == "fast" and again.audio.muted
        click(again, "new")
        assert again.top.speed == "fast" and again.top.lang == "zh"
    finally:
        again.close()
    ns = build_parser().parse_args(["play"])
    assert options_from_args(ns).fullscreen  # the saved full-screen choice is used at start


def test_rules_screen_scrolls_in_both_languages():
    app = menu_app()
    try:
        for lang in ("en", "zh"):
            app.set_language(lang)
            click(app, "rules")
            rs = app.top
            assert screen_name(app) == "RulesScene"
            assert rs.lines and rs.max_scroll > 0
            text = "".join(t for _k, t, _y in rs.lines)
            assert ("红五" in text) == (lang == "zh")
            from game import fonts

            for kind, line, _y in rs.lines:  # everything fits the panel
                size, bold = rs._fonts()[kind.rstrip("+")]
                assert fonts.get_font(size, bold).size(line)[0] <= rs.view_rect.w, line
            pos = rs.view_rect.center
            pygame.event.post(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=-2, precise_x=0.0, precise_y=-2.0,
                                                 flipped=False, which=0, touch=False))
            app.step()
            assert rs.scroll > 0
            key(app, pygame.K_END)
            assert rs.scroll == rs.max_scroll
            key(app, pygame.K_HOME)
            assert rs.scroll == 0
            key(app, pygame.K_PAGEDOWN)
            page = rs.scroll
            assert page > 0
            key(app, pygame.K_UP)
            assert rs.scroll < page
            # mouse drag upwards scrolls down
            start = rs.scroll
            pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
            pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=(pos[0], pos[1] - 120), rel=(0, -120),
                                                 buttons=(1, 0, 0)))
            pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(pos[0], pos[1] - 120), button=1))
            app.step()
            assert rs.scroll == min(rs.max_scroll, start + 120)
            # a finger drag (touch screens) downwards scrolls up
            before = rs.scroll
            h = app.window.get_height()
            for t, y in ((pygame.FINGERDOWN, 0.3), (pygame.FINGERMOTION, 0.4), (pygame.FINGERUP, 0.4)):
                pygame.event.post(pygame.event.Event(t, x=0.5, y=y, dx=0.0, dy=0.1, touch_id=1, finger_id=1,
                                                     pressure=1.0, window=None))
            app.step()
            assert rs.scroll == max(0, before - round(0.1 * h))
            click(app, "back")
            assert screen_name(app) == "MenuScene"
    finally:
        app.close()


def test_rules_rewrap_on_resize():
    app = menu_app()
    try:
        click(app, "rules")
        rs = app.top
        n_wide = len(rs.lines)
        rs.resize(800, 480)
        app.window = pygame.Surface((800, 480))
        app.step()
        assert len(rs.lines) > n_wide and rs.view_rect.right <= 800
    finally:
        app.close()


def test_language_on_new_game_screen_switches_labels():
    app = menu_app()
    try:
        click(app, "new")
        assert find(app, "start").label == "Start"
        click(app, "lang:zh")
        assert app.lang == "zh" and find(app, "start").label == i18n._("Start") != "Start"
        click(app, "back")
        assert screen_name(app) == "MenuScene"
        assert find(app, "new").label == i18n._("New game") != "New game"
    finally:
        app.close()


def test_presets_mapping():
    class FakeManager:
        def __init__(self, names, clashes=()):
            self._names, self._clashes = list(names), set(clashes)

        def names(self):
            return sorted(self._names)

        def clashes(self):
            return {n: [] for n in self._clashes}

    assert set(presets.DIFFICULTIES) == set(settings.DIFFICULTIES)
    full = presets.available_ais(FakeManager(["random", "zeta", "expert", "basic", "alpha", "dup"], clashes=["dup"]))
    assert full == ["basic", "expert", "random", "alpha", "zeta"]
    assert presets.available_ais(None) == ["basic"]
    assert presets.default_seats("easy", full) == ["human", "basic", "basic", "basic"]
    assert presets.default_seats("normal", full) == ["human", "basic", "basic", "basic"]
    assert presets.default_seats("hard", full) == ["human", "expert", "expert", "expert"]
    assert presets.default_seats("hard", ["basic", "random"]) == ["human", "basic", "basic", "basic"]
    assert presets.preset("nonsense").key == "normal"
    easy, normal, hard = (presets.PRESETS[k] for k in ("easy", "normal", "hard"))
    assert easy.budget_s < normal.budget_s <= hard.budget_s
    assert hard.options.get("think_ms") and easy.options.get("blunder", 0) > 0 and not normal.options
    rows = presets.plan("hard", ["human", "expert", "basic", "random"])
    assert rows[0].kind == "human" and rows[0].budget_s == 0
    assert all(r.budget_s == hard.budget_s and r.options == hard.options for r in rows[1:])
    assert presets.describe()[2].startswith("hard: expert (else basic)")


def test_make_players_with_real_discovery():
    from ai_plugins.manager import AIManager

    manager = AIManager(user_dir=False, entry_points=False)
    rows = presets.plan("hard", ["human", "expert", "basic", "random"])
    players = presets.make_players(rows, seed=4, manager=manager)
    try:
        assert sorted(players) == [1, 2, 3]
        assert [players[s].name for s in (1, 2, 3)] == ["expert", "basic", "random"]
        assert players[1].ai.think_s == pytest.approx(presets.PRESETS["hard"].options["think_ms"] / 1000)
    finally:
        for p in players.values():
            p.close()
    fallback = presets.make_players(rows, seed=1, manager=None)
    assert all(type(p).__name__ == "FirstLegalPlayer" for p in fallback.values())


@pytest.mark.parametrize("argv, menu", [
    ([], True),
    (["--lang", "en"], True),
    (["--seats", "human,basic,basic,basic"], False),
    (["--seed", "3"], False),
    (["--hands", "1"], False),
    (["--no-menu"], False),
    (["--menu", "--seed", "3"], True),
])
def test_command_line_decides_menu(argv, menu):
    ns = build_parser().parse_args(["play", *argv])
    assert options_from_args(ns).menu is menu


def test_make_app_still_opens_the_table():
    app = make_app()
    try:
        app.step()
        assert app.screens == [] and screen_name(app) == "TableScene"
    finally:
        app.close()


def test_lan_entries_follow_net_availability(monkeypatch):
    app = menu_app()
    try:
        monkeypatch.setattr(App, "lan_available", lambda self: False)
        app.top.invalidate()
        app.step()
        assert "host" not in keys(app) and "join" not in keys(app)
        monkeypatch.setattr(App, "lan_available", lambda self: True)
        app.top.invalidate()
        app.step()
        assert keys(app).index("host") < keys(app).index("rules")
    finally:
        app.close()


# -- LAN play from the menu (real sockets on 127.0.0.1) ------------------------------------------
def _wait(app, pred, what, seconds=20.0):
    import time

    end = time.monotonic() + seconds
    while time.monotonic() < end:
        app.step()
        if pred():
            return
        time.sleep(0.01)
    raise AssertionError(f"timed out waiting for {what}")


@pytest.fixture
def lan_screen(monkeypatch):
    pytest.importorskip("net.remote_table")
    import socket

    from game.scenes import lan

    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind(("127.0.0.1", 0))
    free_udp = s.getsockname()[1]
    s.close()
    monkeypatch.setattr(lan.LanScreen, "port", 0)
    monkeypatch.setattr(lan.LanScreen, "announce", None)
    monkeypatch.setattr(lan.LanScreen, "discover_port", free_udp)
    return lan.LanScreen


def test_host_from_menu_fill_ais_and_play(lan_screen):
    app = menu_app()
    try:
        app.step()
        assert "host" in keys(app) and "join" in keys(app)
        click(app, "host")
        scr = app.top
        assert screen_name(app) == "LanScreen"
        _wait(app, lambda: scr.state == "lobby", "the lobby")
        assert scr.table.seat == 0 and scr.table.host_rights
        for seat in (1, 2, 3):
            click(app, f"fill:{seat}")
            _wait(app, lambda: scr.table.table["seats"][seat]["kind"] == "ai", f"AI at seat {seat}")
        click(app, "ready")
        _wait(app, lambda: screen_name(app) == "TableScene", "the first hand")
        assert type(app.table).__name__ == "RemoteTable" and app._lan is not None
        _wait(app, lambda: len(app.scene.view.hand) > 0, "the deal")
        key(app, pygame.K_ESCAPE)  # the pause menu does not freeze a LAN game
        assert screen_name(app) == "PauseOverlay" and not app._freezes()
        click(app, "menu")
        assert keys(app)[0] == "continue"
    finally:
        app.close()


def test_join_from_menu_by_typed_address(lan_screen):
    from net.ai import AIProvider
    from net.cli import BackgroundHost
    from net.server import ServerConfig, TableConfig

    host = BackgroundHost(ServerConfig(bind="127.0.0.1", port=0,
                                       tables=[TableConfig(ai_seats={1: "basic", 2: "basic", 3: "basic"},
                                                           ai_delay_s=0.0)]),
                          AIProvider(user_plugins=False), None)
    port = host.start()
    app = menu_app()
    try:
        click(app, "join")
        scr = app.top
        assert scr.state == "find"
        click(app, "connect")  # nothing typed yet: a hint, no connection
        assert scr.error and scr.state == "find"
        for ch in f"127.0.0.1:{port}x":
            pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=ch))
        app.step()
        key(app, pygame.K_BACKSPACE)
        assert scr.address == f"127.0.0.1:{port}"
        key(app, pygame.K_RETURN)
        _wait(app, lambda: screen_name(app) == "TableScene", "the first hand")
        assert app.table.seat == 0
        _wait(app, lambda: len(app.scene.view.hand) > 0, "the deal")
    finally:
        app.close()
        host.stop()


def test_join_unreachable_host_reports_error(lan_screen):
    import socket

    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()  # nothing listens there now
    app = menu_app()
    try:
        click(app, "join")
        scr = app.top
        scr.connect(f"127.0.0.1:{port}")
        _wait(app, lambda: scr.state == "find" and scr.error, "the error")
        click(app, "back")
        assert screen_name(app) == "MenuScene"
    finally:
        app.close()


def test_host_from_menu_plays_at_the_saved_stake(lan_screen):
    """"Host a LAN game" uses the stake saved on the new-game screen (RULES.md §12, coins at a
    LAN table): the table announces it to its players (Table.stake)."""
    app = menu_app()
    try:
        app.settings.stake = 100
        app.step()
        click(app, "host")
        scr = app.top
        _wait(app, lambda: scr.state == "lobby", "the lobby")
        assert scr.table.stake == 100
        assert scr.handle.host.server.rooms[0].config.stake == 100
    finally:
        app.close()


def test_new_game_offers_zhaopengyou_with_its_options_saved(_config):
    """The new-game screen's Game row switches to 找朋友: four AI seats and its options; Start
    opens a five-seat match with them, and the choices come back next time."""
    app = menu_app()
    try:
        click(app, "new")
        ng = app.top
        assert find(app, "game:hongwu") and ng.game == "hongwu"
        click(app, "game:zhaopengyou")
        k = keys(app)
        assert {"zseat1:next", "zseat4:next", "zpy:declaration_mode", "zpy:friend_card", "zpy:kitty_multiplier",
                "zpy:threshold", "zpy:game_end"} <= set(k) and "decks:3" not in k
        click(app, "zpy:kitty_multiplier")  # times -> power
        click(app, "zpy:threshold")  # 120 -> 100
        click(app, "zpy:declaration_mode")  # contest -> first
        click(app, "zseat4:next")
        seats = list(ng.zpy_seats)
        click(app, "start")
        assert screen_name(app) == "TableScene"
        t = app.table
        assert type(t).__name__ == "ZpyLocalTable" and t.kinds == seats and len(t.kinds) == 5
        o = t.ruleset.options
        assert (o.kitty_multiplier, o.threshold, o.declaration_mode) == ("power", 100, "first")
        assert app.scene.layout.seats == 5
        saved = settings.load()
        assert saved.game == "zhaopengyou" and saved.zpy_seats == seats
        assert saved.zpy_rules["kitty_multiplier"] == "power" and saved.zpy_rules["threshold"] == 100
    finally:
        app.close()
    again = menu_app()
    try:
        click(again, "new")
        ng = again.top
        assert ng.game == "zhaopengyou" and ng.zpy_seats == seats and ng.zpy_rules["threshold"] == 100
    finally:
        again.close()


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_rules_screen_has_a_zhaopengyou_tab(lang):
    """Rules: a tab per game; the 找朋友 tab shows its own text and the options in effect."""
    app = menu_app(lang=lang)
    try:
        click(app, "rules")
        rs = app.top
        assert rs.game == "hongwu"
        before = [t for _k, t, _y in rs.lines]
        click(app, "tab:zhaopengyou")
        app.step()
        assert rs.game == "zhaopengyou"
        text = " ".join(t for _k, t, _y in rs.lines)
        assert text != " ".join(before) and "找朋友" in text
        assert ("本局选项" if lang == "zh" else "Options in effect") in text
        click(app, "tab:hongwu")
        assert rs.game == "hongwu"
    finally:
        app.close()
