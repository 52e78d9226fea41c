"""Layering: ``net/`` and ``ai_plugins/`` import nothing from the pygame client (``game``),
not even inside functions, and a headless ``hongwu host`` runs a hand with ``pygame`` and
``game`` unimportable (a server-only machine)."""
from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FORBIDDEN = ("game", "pygame")


def _imported(tree: ast.AST) -> list[tuple[int, str]]:
    """``(line, absolute module name)`` of every import in ``tree`` (functions included;
    relative imports stay inside their own package and are skipped)."""
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            out.append((node.lineno, node.module))
        elif (isinstance(node, ast.Call) and isinstance(node.func, (ast.Name, ast.Attribute))
              and getattr(node.func, "id", getattr(node.func, "attr", None)) in (
                  "import_module", "__import__")
              and node.args and isinstance(node.args[0], ast.Constant)
              and isinstance(node.args[0].value, str)):
            out.append((node.lineno, node.args[0].value))
    return out


def _violations(package: str) -> list[str]:
    bad = []
    for path in sorted((ROOT / package).rglob("*.py")):
        tree = ast.parse(path.read_text("utf-8"), filename=str(path))
        for line, name in _imported(tree):
            if name.split(".")[0] in FORBIDDEN:
                bad.append(f"{path.relative_to(ROOT)}:{line}: imports {name}")
    return bad


@pytest.mark.parametrize("package", ["net", "ai_plugins"])
def test_package_imports_nothing_from_the_client(package):
    assert list((ROOT / package).rglob("*.py")), package
    assert _violations(package) == []


def test_the_static_check_sees_imports_inside_functions():
    tree = ast.parse("def f():\n    from game.app import App\n    import pygame.font\n"
                     "    importlib.import_module('game.settings')\n")
    assert [name for _line, name in _imported(tree)] == ["game.app", "pygame.font", "game.settings"]


# A child Python in which "game" and "pygame" (and their submodules) cannot be imported.
BLOCKED = r'''
import importlib.abc, sys

class Block(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in ("game", "pygame"):
            raise ImportError(f"{name} is blocked (server-only test)")
        return None

sys.meta_path.insert(0, Block())
for blocked in ("game", "pygame"):
    try:
        __import__(blocked)
    except ImportError:
        pass
    else:
        raise SystemExit(f"{blocked} was importable")
sys.argv = ["hongwu", *sys.argv[1:]]
import argparse
from net import cli

parser = argparse.ArgumentParser(prog="hongwu")
sub = parser.add_subparsers()
cli.add_host_parser(sub)
cli.add_join_parser(sub)
ns = parser.parse_args(sys.argv[1:])
code = ns.func(ns)
loaded = sorted(m for m in sys.modules if m.split(".")[0] in ("game", "pygame"))
print("loaded client modules:", loaded, flush=True)
sys.exit(code)
'''


def _run_blocked(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, HONGWU_STATE_DIR=str(tmp_path), HONGWU_CONFIG_DIR=str(tmp_path),
               PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
    return subprocess.run([sys.executable, "-c", BLOCKED, *args], cwd=ROOT, env=env,
                          stdin=subprocess.DEVNULL, capture_output=True, text=True,
                          encoding="utf-8", timeout=120)


def test_headless_host_plays_a_hand_without_pygame_or_game(tmp_path):
    proc = _run_blocked(tmp_path, "host", "--headless", "--bind", "127.0.0.1", "--port", "0",
                        "--no-discovery", "--no-user-plugins", "--hands", "1",
                        "--ai-delay", "0", "--ai-budget", "1", "--rule", "base_score=3",
                        *[a for seat in range(4) for a in ("--ai", f"{seat}=first-legal")])
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out
    assert "listening on 127.0.0.1:" in out and "house rules: base_score=3" in out
    assert "hand 1 in play" in out and "hand 1 settled" in out
    assert "loaded client modules: []" in out


def test_without_a_client_only_headless_runs(tmp_path):
    """``net.cli`` alone (no :class:`net.cli.ClientHooks`): a windowed host or join is a usage
    error, before anything is bound or reached."""
    host = _run_blocked(tmp_path, "host", "--bind", "127.0.0.1", "--port", "0", "--no-discovery")
    assert host.returncode == 2, host.stdout + host.stderr
    assert "use --headless" in host.stderr and "listening" not in host.stdout
    join = _run_blocked(tmp_path, "join", "127.0.0.1:9")
    assert join.returncode == 2, join.stdout + join.stderr
    assert "use --headless" in join.stderr
