"""PLUGINS.md must document every hook with its exact signature, every PlayerView field, and
its tutorial plugin must actually work."""
from __future__ import annotations

import ast
import dataclasses
import inspect
import re
from pathlib import Path

import pytest

from ai_helpers import manager_for, play_one
from ai_plugins import hookspecs
from engine.state import PlayerView

DOC = Path(__file__).resolve().parent.parent / "PLUGINS.md"


def _section(text: str, heading: str) -> str:
    """The text of the ``## heading`` section (up to the next ``## ``)."""
    m = re.search(rf"^## {re.escape(heading)}\s*$(.*?)(?=^## |\Z)", text, re.S | re.M)
    assert m, f"PLUGINS.md has no '## {heading}' section"
    return m.group(1)


def _python_blocks(text: str) -> list[str]:
    return re.findall(r"```python\n(.*?)```", text, re.S)


def _documented_signatures(text: str) -> dict[str, list[ast.FunctionDef]]:
    """Every ``def name(...) -> ...`` line in python blocks of the hook reference."""
    found: dict[str, list[ast.FunctionDef]] = {}
    for block in _python_blocks(_section(text, "Hook reference")):
        for line in block.splitlines():
            if line.startswith("def ") and " -> " in line:  # a signature, not an example's def
                tree = ast.parse(line.rstrip(":") + ": ...")
                fn = tree.body[0]
                assert isinstance(fn, ast.FunctionDef)
                found.setdefault(fn.name, []).append(fn)
    return found


def _norm(annotation) -> str | None:
    if annotation is inspect.Parameter.empty or annotation is inspect.Signature.empty:
        return None
    if isinstance(annotation, str):
        return ast.unparse(ast.parse(annotation, mode="eval"))
    return ast.unparse(annotation)


def _spec_functions():
    return {
        name: fn for name, fn in inspect.getmembers(hookspecs, inspect.isfunction)
        if getattr(fn, hookspecs.PROJECT + "_spec", None) is not None
    }


def test_every_hookspec_is_listed_in_all_hooks():
    assert set(_spec_functions()) == set(hookspecs.ALL_HOOKS)


@pytest.mark.parametrize("name", hookspecs.ALL_HOOKS)
def test_hook_is_documented_with_its_signature(name):
    text = DOC.read_text(encoding="utf-8")
    documented = _documented_signatures(text).get(name)
    assert documented, f"hook {name} is missing from PLUGINS.md's hook reference"
    assert len(documented) == 1, f"hook {name} is documented {len(documented)} times"
    doc_fn = documented[0]
    spec = inspect.signature(_spec_functions()[name])
    doc_params = [(a.arg, _norm(a.annotation) if a.annotation else None) for a in doc_fn.args.args]
    spec_params = [(p.name, _norm(p.annotation)) for p in spec.parameters.values()]
    assert doc_params == spec_params, f"{name}: PLUGINS.md says {doc_params}, hookspecs say {spec_params}"
    assert (_norm(doc_fn.returns) if doc_fn.returns else None) == _norm(spec.return_annotation), name
    # the section must say when the hook is called and what time it has
    section = re.search(rf"^### `{name}`$(.*?)(?=^### |^## |\Z)", text, re.S | re.M)
    assert section, f"PLUGINS.md has no '### `{name}`' heading"
    assert "**When:**" in section.group(1) and "**Time budget:**" in section.group(1)
    assert "Returns" in section.group(1)


def test_no_undocumented_extra_hooks_in_the_reference():
    documented = set(_documented_signatures(DOC.read_text(encoding="utf-8")))
    assert documented == set(hookspecs.ALL_HOOKS)


def test_hookspec_docstrings_cover_the_essentials():
    for name, fn in _spec_functions().items():
        doc = inspect.getdoc(fn) or ""
        for needle in ("Arguments:", "Returns", "When:", "Time budget:"):
            assert needle in doc, f"{name} docstring lacks {needle!r}"


def test_every_player_view_field_is_documented():
    text = _section(DOC.read_text(encoding="utf-8"), "What an AI sees: `PlayerView`")
    names = [f.name for f in dataclasses.fields(PlayerView)]
    names += [n for n, v in vars(PlayerView).items()
              if not n.startswith("_") and (isinstance(v, property) or inspect.isfunction(v))]
    missing = [n for n in names if f"`{n}`" not in text and f"`{n}(" not in text]
    assert not missing, f"PLUGINS.md does not document PlayerView.{', '.join(missing)}"


def test_tutorial_plugin_works(tmp_path):
    text = DOC.read_text(encoding="utf-8")
    blocks = [b for b in _python_blocks(text) if b.startswith("# file: greedy.py")]
    assert len(blocks) == 1
    (tmp_path / "greedy.py").write_text(blocks[0], encoding="utf-8")
    manager = manager_for(tmp_path)
    assert manager.problems == []
    info = manager.get("greedy")
    assert info.version == "0.1"
    for seed in (1, 2):
        game, players = play_one(manager, ["greedy", "basic", "greedy", "basic"], seed=seed,
                                 budget_s=2.0)
        assert not players[0].faults and not players[2].faults


def _examples(text: str) -> dict[str, str]:
    """``{title: code}`` for every python block starting with ``# example: title``."""
    out = {}
    for block in _python_blocks(text):
        first = block.splitlines()[0] if block else ""
        if first.startswith("# example:"):
            out[first.split(":", 1)[1].strip()] = block
    return out


def test_engine_api_examples_run(tmp_path):
    """Every ``# example:`` block of PLUGINS.md runs as written (the testing example with the
    tutorial's greedy.py in PLUGIN_DIR)."""
    text = DOC.read_text(encoding="utf-8")
    examples = _examples(text)
    assert {"cards", "card order", "patterns", "testing an AI", "logging", "counting cards"} <= set(examples)
    greedy = [b for b in _python_blocks(text) if b.startswith("# file: greedy.py")][0]
    (tmp_path / "greedy.py").write_text(greedy, encoding="utf-8")
    for title, code in examples.items():
        exec(compile(code, f"PLUGINS.md example {title}", "exec"),
             {"PLUGIN_DIR": str(tmp_path), "__name__": "plugins_md_example"})


def test_engine_api_section_names_what_plugins_need():
    text = _section(DOC.read_text(encoding="utf-8"), "The engine API a plugin needs")
    for needle in ("parse_cards", "Card.parse", 'Card("10H")', "classify(cards, ctx) -> Pattern",
                   "Component", "TrumpContext", "context(trump)", "make_deck(decks)",
                   "Game.new(ruleset=None, seed=None, first_bidder=None, hand_no=1) -> Game",
                   "make_player(manager, name, seat, budget_s=2.0, seed=None",
                   "play_hand(game, players) -> Settlement"):
        assert needle in text, needle
    # the documented signatures are the real ones
    from ai_plugins.runner import make_player as mp, play_hand as ph
    from engine.state import Game

    assert list(inspect.signature(Game.new).parameters) == ["ruleset", "seed", "first_bidder",
                                                             "hand_no"]
    assert list(inspect.signature(mp).parameters)[:5] == ["manager", "name", "seat", "budget_s",
                                                          "seed"]
    assert list(inspect.signature(ph).parameters)[:2] == ["game", "players"]


def test_builtin_import_paths_and_reserved_names_are_documented_and_true():
    from ai_plugins.base import RESERVED_NAMES

    text = _section(DOC.read_text(encoding="utf-8"), "How plugins are found")
    rows = re.findall(r"^\| `(\w+)` \| `([\w.]+)` \| `([\w.]+:\w+)` \|$", text, re.M)
    assert {r[0] for r in rows} == {"basic", "random", "expert"}
    m = manager_for()
    for name, module, factory in rows:
        assert m.resolve(module + ":").name == name
        assert m.resolve(factory).name == factory
        assert f"`{module}`" in text
    for name in RESERVED_NAMES:
        assert f"`{name}`" in text.split("**Reserved names.**")[1].split("\n\n")[0]


def test_safety_rules_state_the_thresholds_the_code_uses():
    from ai_plugins import capture, faults, runner

    text = DOC.read_text(encoding="utf-8")
    safety = " ".join(_section(text, "Safety rules: time budget and faults").split())
    assert f"**{runner.DEFAULT_MAX_FAULTS} faults**" in safety
    assert (f"**{faults.DROP_AFTER_TIMEOUTS} time-outs or {faults.DROP_AFTER_FAULTS} faults**"
            in safety)
    printing = " ".join(_section(text, "Printing and logging").split())
    assert f"first {capture.INFO_LINES_PER_HAND} lines" in printing
    assert f"at most {capture.INFO_LINES_PER_RUN} INFO lines" in printing
    assert f"up to {capture.KEPT_LINES_PER_HAND:,} at DEBUG" in printing
    assert f"cut at {capture.LINE_CHARS} characters" in printing
    assert "hongwu.ai.<your AI's name>" in printing and "getLogger(__name__)" in printing


def _option_keys_read(path: Path) -> set[str]:
    """The keys a module reads with ``options.get("key", ...)`` or ``options["key"]`` (AST)."""
    keys: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        target = None
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr == "get" and node.args):
            target, key = node.func.value, node.args[0]
        elif isinstance(node, ast.Subscript):
            target, key = node.value, node.slice
        if (target is not None and isinstance(target, (ast.Name, ast.Attribute))
                and (getattr(target, "id", None) or getattr(target, "attr", None)) == "options"
                and isinstance(key, ast.Constant) and isinstance(key.value, str)):
            keys.add(key.value)
    return keys


def test_every_option_of_the_builtin_ais_is_documented():
    """A player or plugin author reads the built-in AIs' options (``--ai NAME@key=value``) in
    PLUGINS.md "Measuring an AI": every key the built-ins read must be named there."""
    from ai_plugins import builtin

    folder = Path(builtin.__file__).parent
    keys = set().union(*(_option_keys_read(p) for p in folder.glob("*.py")))
    assert {"think_ms", "samples", "blunder", "bury_finish"} <= keys  # the scan finds them
    section = _section(DOC.read_text(encoding="utf-8"), "Measuring an AI: the arena")
    missing = sorted(k for k in keys if f"`{k}`" not in section)
    assert not missing, f"options read by the built-in AIs but not in PLUGINS.md: {missing}"
