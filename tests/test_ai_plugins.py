"""Discovery of AI plugins: built-ins, drop-in folders, entry points, module:object, clashes.

Every test uses real files on disk and real imports (no mocks of the discovery itself).
"""
from __future__ import annotations

import importlib
import sys
import textwrap

import pytest

from ai_helpers import manager_for, play_one, write_plugin
from ai_plugins.base import AIClashError, AIError, UnknownAIError
from ai_plugins.manager import AIManager, is_plugin
from game.cli import main as hongwu_main

GOOD = """
class Bot:
    def __init__(self, settings):
        self.settings = settings
    def choose_play(self, view, options):
        return next(iter(options))

@hookimpl
def register_ais(register):
    register("{name}", Bot, "{version}")
"""


def test_builtins_register_through_the_hook():
    m = AIManager(user_dir=False, entry_points=False)
    names = {i.name: i for i in m.infos()}
    assert {"basic", "random", "expert"} <= set(names)
    assert names["basic"].kind == "built-in" and names["basic"].origin == "built-in"
    # built-ins are pluggy plugins of the same manager, registered like any other
    assert any(name.startswith("builtin:ai_plugins.builtin.basic") for name, _ in m.pm.list_name_plugin())
    assert m.problems == []


def test_drop_in_folder_is_loaded_without_installing(tmp_path):
    write_plugin(tmp_path, "mybot", GOOD.format(name="mybot", version="0.3"))
    write_plugin(tmp_path, "_private", "raise RuntimeError('never imported')\n")
    m = manager_for(tmp_path)
    info = m.get("mybot")
    assert info.kind == "file" and info.origin == str((tmp_path / "mybot.py").resolve())
    assert info.version == "0.3"
    assert m.problems == []
    play_one(m, ["mybot", "basic", "basic", "basic"], seed=3)


def test_two_folders_may_hold_files_with_one_stem(tmp_path):
    write_plugin(tmp_path / "a", "bot", GOOD.format(name="bot_a", version="1"))
    write_plugin(tmp_path / "b", "bot", GOOD.format(name="bot_b", version="2"))
    m = manager_for(tmp_path / "a", tmp_path / "b")
    assert m.get("bot_a").version == "1" and m.get("bot_b").version == "2"


def test_user_folder_is_searched(tmp_path):
    write_plugin(tmp_path, "userbot", GOOD.format(name="userbot", version="9"))
    m = AIManager(user_dir=tmp_path, entry_points=False)
    assert m.get("userbot").origin.endswith("userbot.py")


def test_name_clash_is_reported_not_resolved(tmp_path, caplog):
    write_plugin(tmp_path / "one", "x", GOOD.format(name="twin", version="1"))
    write_plugin(tmp_path / "two", "y", GOOD.format(name="twin", version="2"))
    write_plugin(tmp_path / "two", "z", GOOD.format(name="basic", version="3"))
    with caplog.at_level("WARNING", logger="ai_plugins.manager"):
        m = manager_for(tmp_path / "one", tmp_path / "two")
    assert set(m.clashes()) == {"twin"}
    assert "twin" in caplog.text and "x.py" in caplog.text and "y.py" in caplog.text
    with pytest.raises(AIClashError) as err:
        m.get("twin")
    assert "x.py" in str(err.value) and "y.py" in str(err.value)
    # a reserved name does not shadow the built-in: refused with a problem naming the file
    assert m.get("basic").kind == "built-in"
    assert any("z.py" in p and "reserved name 'basic'" in p for p in m.problems)
    # a clashing name cannot take a seat: the seat is played by the fallback, and says why
    game, players = play_one(m, ["twin", "random", "random", "random"], seed=2)
    assert players[0].disabled and players[0].faults[0].kind == "factory"
    assert "registered by 2 sources" in players[0].faults[0].reason


def test_broken_plugins_are_problems_not_crashes(tmp_path):
    write_plugin(tmp_path, "syntax", "def oops(:\n")
    write_plugin(tmp_path, "noreg", "X = 1\n")
    write_plugin(tmp_path, "raising", """
        @hookimpl
        def register_ais(register):
            raise RuntimeError("boom at registration")
        """)
    write_plugin(tmp_path, "badname", """
        @hookimpl
        def register_ais(register):
            register("bad:name", lambda s: None)
        """)
    write_plugin(tmp_path, "fine", GOOD.format(name="fine", version="1"))
    m = manager_for(tmp_path, tmp_path / "missing")
    text = "\n".join(m.problems)
    for needle in ("syntax.py", "noreg.py", "boom at registration", "bad:name", "missing"):
        assert needle in text
    assert m.get("fine")
    with pytest.raises(UnknownAIError):
        m.get("raising")


def _make_dist(root, dist, version, module, module_source, entry_points):
    (root / f"{module}.py").write_text(textwrap.dedent(module_source), encoding="utf-8")
    info = root / f"{dist.replace('-', '_')}-{version}.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: {dist}\nVersion: {version}\n", encoding="utf-8")
    (info / "entry_points.txt").write_text("[hongwu.ai]\n" + entry_points, encoding="utf-8")


@pytest.fixture
def installed_dist(tmp_path, monkeypatch):
    """A real installed distribution (dist-info with entry_points.txt) on sys.path."""
    module = "hongwu_test_epbots"
    _make_dist(tmp_path, "hongwu-test-epbots", "1.2.3", module, """
        from ai_plugins import hookimpl

        class Bot:
            def __init__(self, settings):
                pass

        class Solo:
            def __init__(self, settings):
                pass
            def choose_trump(self, view, suits):
                return "D"

        @hookimpl
        def register_ais(register):
            register("ep_bot", Bot)          # version: the distribution's
            register("ep_bot2", Bot, "7.0")
        """, f"plugin = {module}\nep_solo = {module}:Solo\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    importlib.invalidate_caches()
    yield module
    sys.modules.pop(module, None)


def test_entry_point_distribution_is_discovered(installed_dist):
    m = AIManager(user_dir=False)
    bot, bot2, solo = m.get("ep_bot"), m.get("ep_bot2"), m.get("ep_solo")
    assert bot.kind == "entry point" and "hongwu-test-epbots 1.2.3" in bot.origin
    assert bot.version == "1.2.3" and bot2.version == "7.0"
    assert solo.kind == "entry point" and solo.version == "1.2.3"  # a bare factory, named by the entry point
    game, players = play_one(m, ["ep_solo", "ep_bot", "ep_bot2", "basic"], seed=5)
    assert not any(p.faults for p in players)


def test_entry_point_can_be_turned_off(installed_dist):
    m = AIManager(user_dir=False, entry_points=False)
    with pytest.raises(UnknownAIError):
        m.get("ep_bot")


def test_module_object_spec(installed_dist):
    m = manager_for()
    solo = m.resolve(f"{installed_dist}:Solo")
    assert solo.kind == "module" and solo.name == f"{installed_dist}:Solo"
    with pytest.raises(AIError, match="registers 2 AIs"):
        m.resolve(f"{installed_dist}:")  # the module is a plugin with two AIs
    with pytest.raises(UnknownAIError):
        m.resolve("no_such_module_hongwu:X")
    plugin = m.resolve("ai_plugins.builtin.random_ai:")  # the built-in module itself: no clash
    assert plugin.name == "random" and not m.clashes()
    play_one(m, [f"{installed_dist}:Solo", "basic", "random", "basic"], seed=4)


def test_module_object_spec_finds_a_module_in_the_current_folder(tmp_path, monkeypatch):
    """``hongwu`` (a console script) does not put the current folder on sys.path as
    ``python -m`` does; ``--ai mybot:LowAI`` must still find ./hongwu_cwd_bot.py."""
    (tmp_path / "hongwu_cwd_bot.py").write_text(textwrap.dedent("""
        from engine.state import first_legal_action

        class LowAI:
            def __init__(self, settings):
                self.settings = settings

            def choose_play(self, view, options):
                return first_legal_action(view).cards
    """))
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", str(tmp_path))])
    m = manager_for()
    info = m.resolve("hongwu_cwd_bot:LowAI")
    assert info.kind == "module" and info.name == "hongwu_cwd_bot:LowAI"
    assert sys.path[-1] == str(tmp_path)  # after everything installed: shadows nothing
    with pytest.raises(UnknownAIError):
        m.resolve("hongwu_cwd_bot_missing:X")
    monkeypatch.delitem(sys.modules, "hongwu_cwd_bot")


def test_is_plugin():
    import ai_plugins.builtin.basic as basic

    assert is_plugin(basic) and not is_plugin(object())


def test_ai_list_cli(tmp_path, capsys, installed_dist):
    folder = tmp_path / "dropins"
    write_plugin(folder, "mybot", GOOD.format(name="mybot", version="0.3"))
    code = hongwu_main(["ai", "list", "--no-user-plugins", "--plugin-dir", str(folder),
                        "--ai", f"{installed_dist}:Solo"])
    out, err = capsys.readouterr()
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].split() == ["NAME", "VERSION", "ORIGIN"]
    row = {line.split()[0]: line for line in lines[1:] if line.strip()}
    assert "built-in" in row["basic"] and "built-in" in row["random"]
    assert "0.3" in row["mybot"] and str(folder) in row["mybot"]
    assert "entry point hongwu-test-epbots 1.2.3" in row["ep_bot"]
    assert f"module {installed_dist}:Solo" in row[f"{installed_dist}:Solo"]


def test_ai_list_cli_reports_clashes(tmp_path, capsys):
    write_plugin(tmp_path / "a", "dup", GOOD.format(name="twin", version="5"))
    write_plugin(tmp_path / "b", "dup2", GOOD.format(name="twin", version="6"))
    write_plugin(tmp_path / "b", "shadow", GOOD.format(name="random", version="5"))
    code = hongwu_main(["ai", "list", "--no-user-plugins", "--plugin-dir", str(tmp_path / "a"),
                        "--plugin-dir", str(tmp_path / "b")])
    out, err = capsys.readouterr()
    assert code == 1
    assert "! twin" in out and "! random" not in out
    assert "'twin' is registered by 2 sources" in err and "dup.py" in err and "dup2.py" in err
    assert "shadow.py" in err and "reserved name 'random'" in err


def test_a_broken_plugin_is_reported_once(tmp_path, capsys, caplog):
    """One import failure: one problem in the manager, one ``warning:`` line from
    ``hongwu ai list``, and nothing logged at WARNING or above by ai_plugins itself."""
    write_plugin(tmp_path, "broken", "import hongwu_no_such_module_here\n")
    with caplog.at_level("DEBUG"):
        code = hongwu_main(["ai", "list", "--no-user-plugins", "--plugin-dir", str(tmp_path)])
    out, err = capsys.readouterr()
    assert code == 1
    assert err.count("broken.py") == 1 and err.startswith("warning: "), err
    assert "broken.py" not in out
    loud = [r for r in caplog.records if r.levelno >= 30 and "broken.py" in r.getMessage()]
    assert loud == [], [r.getMessage() for r in loud]
    m = manager_for(tmp_path)
    m.load_dir(tmp_path)  # the same folder again: still one problem
    assert len(m.problems) == 1 and "hongwu_no_such_module_here" in m.problems[0]


def test_report_problems_logs_each_problem_once_per_process(tmp_path, caplog):
    from ai_plugins.manager import report_problems

    write_plugin(tmp_path, "broken2", "raise RuntimeError('nope')\n")
    first, second = manager_for(tmp_path), manager_for(tmp_path)  # e.g. the menu and a table
    assert first.problems == second.problems and len(first.problems) == 1
    with caplog.at_level("WARNING"):
        assert report_problems(first.problems) == first.problems
        assert report_problems(second.problems) == []
    assert sum("broken2.py" in r.getMessage() for r in caplog.records) == 1


def test_ai_list_creates_the_user_plugin_folder(tmp_path, monkeypatch, capsys):
    import ai_plugins.manager as manager

    folder = tmp_path / "data" / "hongwu" / "ai_plugins"
    monkeypatch.setattr(manager, "user_plugin_dir", lambda: folder)
    assert hongwu_main(["ai", "list"]) == 0
    out = capsys.readouterr().out
    assert f"user plugin folder: {folder} (created)" in out
    assert folder.is_dir()
    assert hongwu_main(["ai", "list"]) == 0
    out = capsys.readouterr().out
    assert f"user plugin folder: {folder}\n" in out  # already there: nothing more said


def test_the_user_plugin_folder_follows_hongwu_data_dir(tmp_path, monkeypatch, capsys):
    """$HONGWU_DATA_DIR moves the drop-in folder with the career file (README "Career"):
    ``hongwu ai list`` names and creates ``$HONGWU_DATA_DIR/ai_plugins``, and a file put
    there is discovered."""
    from ai_plugins.manager import AIManager, user_plugin_dir

    data = tmp_path / "data"
    monkeypatch.setenv("HONGWU_DATA_DIR", str(data))
    folder = data / "ai_plugins"
    assert user_plugin_dir() == folder
    assert hongwu_main(["ai", "list"]) == 0
    assert f"user plugin folder: {folder} (created)" in capsys.readouterr().out
    (folder / "solo.py").write_text(
        "from ai_plugins import hookimpl\n\n"
        "class Solo:\n    def __init__(self, settings):\n        pass\n\n"
        "@hookimpl\ndef register_ais(register):\n    register('solo', Solo, '0.3')\n",
        encoding="utf-8")
    manager = AIManager(entry_points=False)
    assert manager.problems == []
    assert manager.get("solo").version == "0.3"
    monkeypatch.delenv("HONGWU_DATA_DIR")
    assert user_plugin_dir() != folder
