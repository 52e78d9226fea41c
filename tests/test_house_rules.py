"""House rules chosen by players (RULES.md "Options"): ``parse_rule``, ``hongwu play --rule``,
``hongwu host --rule`` (to the table's wire ``options``), the new-game screen's house-rules row
(cycled, saved, used; readable at 800×480), the LAN host screen and the rules screen.
Hosts run on 127.0.0.1 with ephemeral ports and no announcements; every wait is bounded."""
from __future__ import annotations

import asyncio
import json
import re

import pytest

from engine.ruleset import OPTION_VALUES, RuleOptions, hongwu, option_names, parse_rule

pygame = pytest.importorskip("pygame")

from tests.client_driver import loopback_lan, open_host_lobby  # noqa: E402

from tests.lan_helpers import host_args  # noqa: E402
from game import fonts, house_rules, i18n, settings  # noqa: E402
from game.app import App, Options  # noqa: E402
from game.cli import main  # noqa: E402

NON_DEFAULT = {"kitty_to_dealer_always": True, "base_score": 3, "failed_throw_penalty": 20}


@pytest.fixture(autouse=True)
def _config(tmp_path, monkeypatch):
    monkeypatch.setenv(settings.CONFIG_ENV, str(tmp_path / "config"))
    monkeypatch.setenv("HONGWU_STATE_DIR", str(tmp_path / "state"))
    yield tmp_path / "config"
    i18n.set_language("en")


# -- parse_rule ----------------------------------------------------------------------------------
@pytest.mark.parametrize("text, expected", [
    ("base_score=3", ("base_score", 3)),
    ("base_score=1", ("base_score", 1)),
    (" base_score = +4 ", ("base_score", 4)),
    ("failed_throw_penalty=0", ("failed_throw_penalty", 0)),
    ("failed_throw_penalty=25", ("failed_throw_penalty", 25)),
    ("kitty_to_dealer_always=true", ("kitty_to_dealer_always", True)),
    ("kitty_to_dealer_always=YES", ("kitty_to_dealer_always", True)),
    ("kitty_to_dealer_always=on", ("kitty_to_dealer_always", True)),
    ("kitty_to_dealer_always=1", ("kitty_to_dealer_always", True)),
    ("kitty_to_dealer_always=False", ("kitty_to_dealer_always", False)),
    ("kitty_to_dealer_always=no", ("kitty_to_dealer_always", False)),
    ("kitty_to_dealer_always=off", ("kitty_to_dealer_always", False)),
    ("kitty_to_dealer_always=0", ("kitty_to_dealer_always", False)),
])
def test_parse_rule_reads_typed_values(text, expected):
    name, value = parse_rule(text)
    assert (name, value) == expected and type(value) is type(expected[1])
    hongwu(2, **{name: value})  # the engine takes it as it is


@pytest.mark.parametrize("text, says", [
    ("base_score", "NAME=VALUE"),
    ("=3", "NAME=VALUE"),
    ("", "NAME=VALUE"),
    ("basescore=3", "valid options: kitty_to_dealer_always, base_score, failed_throw_penalty"),
    ("Base_Score=3", "unknown rule option 'Base_Score'"),
    ("base_score=0", "at least 1"),
    ("base_score=-2", "at least 1"),
    ("base_score=", "at least 1"),
    ("base_score=2.5", "whole number"),
    ("base_score=1_0", "whole number"),
    ("base_score=three", "whole number"),
    ("base_score=true", "whole number"),
    ("failed_throw_penalty=-10", "at least 0"),
    ("kitty_to_dealer_always=maybe", "true or false"),
    ("kitty_to_dealer_always=2", "true or false"),
    ("kitty_to_dealer_always=", "true or false"),
])
def test_parse_rule_refuses_with_a_clear_message(text, says):
    with pytest.raises(ValueError, match=re.escape(says)):
        parse_rule(text)


def test_every_option_is_described_for_messages():
    assert set(OPTION_VALUES) == set(option_names()) == {f for f in RuleOptions.__dataclass_fields__}
    assert set(house_rules.CHOICES) == set(option_names())
    for name, values in house_rules.CHOICES.items():
        for v in values:
            RuleOptions(**{name: v})
        assert getattr(RuleOptions(), name) in values  # the default is offered


def test_cycle_wraps_and_finds_values_not_offered():
    assert house_rules.cycle("base_score", 5) == 1
    assert house_rules.cycle("base_score", 1, -1) == 5
    assert house_rules.cycle("failed_throw_penalty", 0) == 10
    assert house_rules.cycle("kitty_to_dealer_always", False) is True
    assert house_rules.cycle("base_score", 9) == 1 and house_rules.cycle("failed_throw_penalty", 15) == 20
    assert house_rules.cycle("failed_throw_penalty", 15, -1) == 10


# -- settings ------------------------------------------------------------------------------------
def test_saved_house_rules_are_validated(tmp_path):
    path = tmp_path / "s.json"
    s = settings.Settings(house_rules=dict(NON_DEFAULT))
    assert settings.save(s, path)
    assert settings.load(path).house_rules == NON_DEFAULT
    path.write_text(json.dumps({"house_rules": {"base_score": 0, "failed_throw_penalty": 10,
                                                "kitty_to_dealer_always": "yes", "bogus": 1}}))
    assert settings.load(path).house_rules == {"failed_throw_penalty": 10}
    path.write_text(json.dumps({"house_rules": {"base_score": True}}))
    assert settings.load(path).house_rules == {}
    path.write_text(json.dumps({"house_rules": [1, 2]}))
    assert settings.load(path).house_rules == {}
    assert settings.Settings().house_rules == {}


# -- hongwu play --rule --------------------------------------------------------------------------
@pytest.fixture
def tables(monkeypatch):
    """Every table an App opened during the test (the demo's own, made inside ``main``)."""
    opened: list = []
    original = App._open_table

    def open_table(self, *a, **kw):
        original(self, *a, **kw)
        opened.append(self.table)

    monkeypatch.setattr(App, "_open_table", open_table)
    return opened


def test_play_rule_reaches_the_demo_ruleset(tables, capsys, _config):
    code = main(["play", "--seats", "basic,basic,basic,basic", "--hands", "1", "--speed", "instant",
                 "--rule", "base_score=3", "--rule", "failed_throw_penalty=20",
                 "--rule", "kitty_to_dealer_always=yes", "--seed", "5"])
    assert code == 0
    (table,) = tables
    assert table.ruleset.options == RuleOptions(**NON_DEFAULT)
    line = next(ln for ln in capsys.readouterr().out.splitlines() if ln.startswith("hand 1:"))
    points = [int(x) for x in line.split("[")[1].rstrip("]").split(",")]
    assert sum(points) == 0 and all(p % 3 == 0 for p in points) and any(points), line  # base 3
    assert not (_config / settings.SETTINGS_FILE).exists() or settings.load().house_rules == {}


def test_play_rule_overrides_saved_rules_name_by_name(tables):
    settings.save(settings.Settings(house_rules={"base_score": 4, "failed_throw_penalty": 30}))
    assert main(["play", "--seats", "basic,basic,basic,basic", "--hands", "1", "--speed", "instant",
                 "--rule", "base_score=1"]) == 0
    assert tables[0].ruleset.options == RuleOptions(base_score=1, failed_throw_penalty=30)
    assert settings.load().house_rules == {"base_score": 4, "failed_throw_penalty": 30}  # not saved


@pytest.mark.parametrize("bad", ["base_score=0", "nope=1", "base_score"])
def test_play_bad_rule_is_an_argparse_error(bad, capsys):
    with pytest.raises(SystemExit) as exc:
        main(["play", "--seats", "basic,basic,basic,basic", "--hands", "1", "--rule", bad])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "argument --rule:" in err and "Traceback" not in err


def test_play_help_explains_rule(capsys):
    with pytest.raises(SystemExit):
        main(["play", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "--rule NAME=VALUE" in text and "base_score=N" in text and "failed_throw_penalty" in text


# -- the new-game screen -------------------------------------------------------------------------
def menu_app(**kw) -> App:
    opts = dict(menu=True, lang="en", speed="instant", audio=False, user_plugins=False,
                size=(1280, 720), max_frames=5000)
    opts.update(kw)
    return App(Options(**opts))


def click(app, key) -> None:
    """A real press + release on button ``key`` of the top screen."""
    app.step()
    b = next((b for b in app.top.buttons if b.key == key), None)
    assert b is not None and b.enabled, (key, [b.key for b in app.top.buttons])
    assert app.window.get_rect().contains(b.rect), (key, b.rect)
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=b.rect.center, button=1))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=b.rect.center, button=1))
    app.step()


def label(app, key) -> str:
    app.step()
    return next(b.label for b in app.top.buttons if b.key == key)


def test_new_game_cycles_saves_and_plays_the_house_rules():
    app = menu_app()
    try:
        click(app, "new")
        ng = app.top
        assert ng.rules == house_rules.defaults() and "House rules" not in ng.note()
        assert label(app, "rule:kitty_to_dealer_always") == "Kitty: last trick"
        click(app, "rule:kitty_to_dealer_always")
        assert label(app, "rule:kitty_to_dealer_always") == "Kitty: always"
        for expected in (3, 4, 5, 1, 2, 3):
            click(app, "rule:base_score")
            assert ng.rules["base_score"] == expected and label(app, "rule:base_score") == f"Base score {expected}"
        click(app, "rule:failed_throw_penalty")
        click(app, "rule:failed_throw_penalty")
        assert label(app, "rule:failed_throw_penalty") == "Throw penalty 20"
        assert ng.rules == NON_DEFAULT
        assert "House rules: the kitty always counts for the dealer · base score 3 · a failed throw costs 20 " \
               "points" in ng.note()
        click(app, "start")
        assert type(app.scene).__name__ == "TableScene"
        assert app.table.ruleset.options == RuleOptions(**NON_DEFAULT)
        assert settings.load().house_rules == NON_DEFAULT
    finally:
        app.close()
    again = menu_app()  # the next run starts from the saved choices
    try:
        click(again, "new")
        assert again.top.rules == NON_DEFAULT and label(again, "rule:base_score") == "Base score 3"
        click(again, "start")
        assert again.table.ruleset.options == RuleOptions(**NON_DEFAULT)
    finally:
        again.close()


def test_new_game_starts_from_rule_without_saving_it():
    settings.save(settings.Settings(house_rules={"base_score": 4}))
    app = menu_app(rules={"base_score": 1, "failed_throw_penalty": 10})
    try:
        click(app, "new")
        assert app.top.rules["base_score"] == 1 and label(app, "rule:failed_throw_penalty") == "Throw penalty 10"
        click(app, "rule:failed_throw_penalty")  # changed here: that one is the player's choice
        click(app, "start")
        assert app.table.ruleset.options == RuleOptions(base_score=1, failed_throw_penalty=20)
    finally:
        app.close()
    saved = settings.load().house_rules
    assert saved["base_score"] == 4 and saved["failed_throw_penalty"] == 20


@pytest.mark.parametrize("size", [(800, 480), (1280, 720)])
@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("rules", [{}, NON_DEFAULT])
def test_new_game_screen_stays_readable(size, lang, rules):
    app = menu_app(size=size, lang=lang, rules=dict(rules))
    try:
        app.open_new_game()
        app.step()
        ng = app.top
        m = ng.metrics
        screen = app.window.get_rect()
        bs = ng.buttons
        assert {f"rule:{n}" for n in option_names()} <= {b.key for b in bs}
        for b in bs:
            assert screen.contains(b.rect) and ng._panel.contains(b.rect), (b.key, b.rect)
            assert b.rect.h >= 24, b.key
            if b.label:
                assert b.label_size(m.font) >= 12, (b.key, b.label)
        for i, a in enumerate(bs):
            for b in bs[i + 1:]:
                assert not a.rect.colliderect(b.rect), (a.key, b.key)
        lines = ng.note().split("\n")
        assert len(lines) == (2 if rules else 1)
        for line in lines:
            assert fonts.fit_size(line, m.small, ng._panel.w - 4 * m.margin) >= 12, line
        footer_top = min(b.rect.y for b in bs if b.key in ("start", "back"))
        note_bottom = ng._note_y + m.gap // 2 + len(lines) * (m.small + m.gap // 2)
        assert note_bottom <= footer_top, (note_bottom, footer_top)
        if lang == "zh":
            assert "底牌" in next(b.label for b in bs if b.key == "rule:kitty_to_dealer_always")
            assert not rules or "规则选项" in lines[-1]
    finally:
        app.close()


def test_rules_screen_states_the_house_rules_in_effect():
    settings.save(settings.Settings(house_rules={"failed_throw_penalty": 30}))
    app = menu_app()
    try:
        click(app, "rules")
        text = " ".join(t for _k, t, _y in app.top.lines)
        assert "House rules in effect" in text
        assert "concedes 30 card points" in text and "only when the dealer wins the last trick" in text
        click(app, "back")
        click(app, "new")
        click(app, "rule:kitty_to_dealer_always")
        click(app, "start")
        app.open_rules()  # during the game: the table's own rules
        app.step()
        text = " ".join(t for _k, t, _y in app.top.lines)
        assert "always count for the dealer" in text and "concedes 30 card points" in text
    finally:
        app.close()


# -- hongwu host --rule --------------------------------------------------------------------------


def _welcome_table(port: int) -> dict:
    """The ``Table`` map a client is welcomed with (over 127.0.0.1, bounded)."""
    from net.client import Client

    async def go() -> dict:
        client = await Client.connect("127.0.0.1", port, timeout=5)
        try:
            await asyncio.wait_for(client.hello("Ann"), 10)
            return client.welcome["snapshot"]["table"]
        finally:
            await client.close(2.0)

    return asyncio.run(asyncio.wait_for(go(), 20))


def test_host_rule_reaches_the_table_wire_options():
    from net.cli import BackgroundHost, _ai_provider, host_config

    ns = host_args("--headless", "--rule", "base_score=3", "--rule", "failed_throw_penalty=20",
                   "--rule", "kitty_to_dealer_always=on")
    cfg = host_config(ns)
    assert cfg.bind == "127.0.0.1" and cfg.tables[0].options == NON_DEFAULT
    host = BackgroundHost(cfg, _ai_provider(ns), None)
    try:
        port = host.start()
        table = _welcome_table(port)
    finally:
        host.stop()
    assert table["options"] == NON_DEFAULT
    # a joined client's engine plays by the same rules
    from net import codec

    assert codec.ruleset_in(table["decks"], table["options"]).options == RuleOptions(**NON_DEFAULT)


def test_host_uses_saved_rules_only_with_a_window_and_no_rule():
    from net.cli import host_config

    settings.save(settings.Settings(house_rules={"base_score": 5}))
    assert host_config(host_args()).tables[0].options == {"base_score": 5}
    assert host_config(host_args("--rule", "failed_throw_penalty=10")).tables[0].options == {
        "failed_throw_penalty": 10}
    assert host_config(host_args("--headless")).tables[0].options == {}


def test_host_command_prints_its_house_rules(capsys):
    code = main(["host", "--headless", "--bind", "127.0.0.1", "--port", "0", "--no-discovery",
                 "--ai", "0=random", "--ai", "1=random", "--ai", "2=random", "--ai", "3=random",
                 "--hands", "1", "--ai-delay", "0", "--no-user-plugins", "--rule", "base_score=4"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "house rules: base_score=4" in out and "hand 1 settled" in out


@pytest.mark.parametrize("bad", ["base_score=0", "kitty=yes"])
def test_host_bad_rule_is_an_argparse_error(bad, capsys):
    with pytest.raises(SystemExit) as exc:
        main(["host", "--headless", "--bind", "127.0.0.1", "--port", "0", "--rule", bad])
    assert exc.value.code == 2 and "argument --rule:" in capsys.readouterr().err


def test_lan_host_screen_hosts_with_the_saved_rules(monkeypatch):
    pytest.importorskip("net.remote_table")
    loopback_lan(monkeypatch)
    settings.save(settings.Settings(house_rules={"base_score": 3, "failed_throw_penalty": 20}))
    app = menu_app()
    try:
        scr = open_host_lobby(app)
        assert scr.table.table["options"] == {"kitty_to_dealer_always": False, "base_score": 3,
                                              "failed_throw_penalty": 20}
        assert scr.handle.host.server.rooms[0].ruleset.options == RuleOptions(base_score=3, failed_throw_penalty=20)
    finally:
        app.close()
