"""The ``hongwu`` command line: one entry point, one sub-command per capability.

Each sub-command lives in the package that owns it and is wired here by name, so that
importing the CLI stays cheap (pygame is only imported by the commands that open a window).

Sub-commands (``hongwu --help`` lists them):

- ``play``  (default) the pygame-ce client against AIs, or a demo with ``--seats``/``--hands``
  (``game.app``);
- ``judge`` the JSON-lines rules judge (``engine.judge``, see judge-protocol in RULES.md);
- ``ai``    list discovered AI plugins (``ai_plugins.cli``);
- ``arena`` rank AIs on duplicate deals (``ai_plugins.arena``);
- ``league`` rate AIs, every pair on duplicate deals (``ai_plugins.league``);
- ``host``  / ``join`` LAN play (``net.cli``, its windows in ``game.lan_cli``);
- ``profile`` / ``records`` / ``stats`` / ``replay`` the career (``game.career.cli``).
- ``review`` the review 复盘 of a recorded hand (``game.review_cli``, ``ai_plugins.review``).
"""
from __future__ import annotations

import argparse
import importlib
import sys
from typing import Callable, Sequence

#: sub-command name -> "module:function" that adds its parser.  The function is called as
#: ``add_parser(subparsers)`` and must set ``func`` (callable taking the parsed namespace and
#: returning an exit code) with ``parser.set_defaults(func=...)``.
SUBCOMMANDS: dict[str, str] = {
    "play": "game.app:add_parser",
    "judge": "engine.judge:add_parser",
    "ai": "ai_plugins.cli:add_ai_parser",
    "arena": "ai_plugins.arena:add_parser",
    "league": "ai_plugins.league:add_parser",
    "host": "game.lan_cli:add_host_parser",
    "join": "game.lan_cli:add_join_parser",
    "profile": "game.career.cli:add_profile_parser",
    "records": "game.career.cli:add_records_parser",
    "stats": "game.career.cli:add_stats_parser",
    "replay": "game.career.cli:add_replay_parser",
    "review": "game.review_cli:add_parser",
}


def _load(spec: str) -> Callable[[argparse._SubParsersAction], None] | None:
    """Import ``module:function``; None when that part of the project is not installed."""
    module_name, _, attr = spec.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:  # a sub-command whose module is absent is left out
        if exc.name and module_name.startswith(exc.name):
            return None
        raise
    return getattr(module, attr, None)


def build_parser() -> argparse.ArgumentParser:
    """Build the full ``hongwu`` parser with every available sub-command."""
    parser = argparse.ArgumentParser(
        prog="hongwu",
        description="Hong Wu 红五三打一 — Red Five, three against one.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, spec in SUBCOMMANDS.items():
        add = _load(spec)
        if add is not None:
            add(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``hongwu`` with ``argv`` (default ``sys.argv[1:]``); returns the exit code.

    With no sub-command (or only options) the client opens, as with ``hongwu play``.
    """
    args = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    if not args or (args[0].startswith("-") and args[0] not in ("-h", "--help")):
        args = ["play", *args]
    ns = parser.parse_args(args)
    func = getattr(ns, "func", None)
    if func is None:
        parser.print_help()
        return 2
    try:
        return int(func(ns) or 0)
    except BrokenPipeError:
        # whoever read our output went away (``hongwu records | head``): stop quietly with
        # the shell's status for SIGPIPE, as Unix tools do, instead of a traceback
        _quiet_stdout()
        return BROKEN_PIPE_STATUS


BROKEN_PIPE_STATUS = 141
"""Exit status when standard output is a closed pipe: 128 + SIGPIPE (13), what a shell
reports for a tool that SIGPIPE stopped."""


def _quiet_stdout() -> None:
    """Point the process's standard output at the null device, so that the interpreter's
    last flush at exit does not raise again on the closed pipe."""
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.__stdout__.fileno())
    except (OSError, AttributeError, ValueError):  # pragma: no cover - no real stdout
        pass


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
