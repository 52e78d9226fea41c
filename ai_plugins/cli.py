"""``hongwu ai ...``: inspect the AI plugins that discovery finds.

``hongwu ai list [--plugin-dir DIR ...] [--no-user-plugins] [--ai module:object ...]`` prints
one line per registered AI: name, version and origin (``built-in``, ``entry point DIST VERSION
(...)``, a drop-in file's path, or ``module pkg.mod:obj``), then the user plugin folder, which
it creates when missing (saying so). Name clashes and plugins that failed to load are listed
after the table, on standard error, each once; the exit code is 1 when there are any, else 0.
"""
from __future__ import annotations

import argparse
import sys
from typing import Any, TextIO

from .manager import AIManager, add_discovery_options, ensure_user_plugin_dir, manager_from_args


def add_ai_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add the ``ai`` sub-command (with ``list``) to the ``hongwu`` parser's subparsers."""
    parser = subparsers.add_parser("ai", help="list and inspect AI plugins",
                                   description="Inspect the AI plugins that hongwu discovers.")
    sub = parser.add_subparsers(dest="ai_command", metavar="ACTION")
    lst = sub.add_parser("list", help="list every discovered AI with its origin and version")
    add_discovery_options(lst)
    lst.add_argument("--ai", action="append", default=[], metavar="MODULE:OBJECT",
                     help="also load an AI from an importable module:object (repeatable)")
    lst.set_defaults(func=run_list)
    parser.set_defaults(func=lambda ns: (parser.print_help(), 2)[1])
    return parser


def format_table(manager: AIManager) -> list[str]:
    """The lines ``hongwu ai list`` prints: a header, then one row per registration.

    Clashing names are marked with ``!`` in the first column.
    """
    clashes = manager.clashes()
    rows = [("", "NAME", "VERSION", "ORIGIN")]
    for info in sorted(manager.infos(), key=lambda i: (i.name, i.origin)):
        rows.append(("!" if info.name in clashes else "", info.name, info.version, info.origin))
    w1 = max(len(r[1]) for r in rows)
    w2 = max(len(r[2]) for r in rows)
    return [f"{m:1} {n:<{w1}}  {v:<{w2}}  {o}".rstrip() for m, n, v, o in rows]


def run_list(ns: argparse.Namespace, out: TextIO | None = None, err: TextIO | None = None) -> int:
    """Print the table of AIs and the user plugin folder (created if missing); report clashes
    and broken plugins, each once; exit code 1 if any."""
    out = out or sys.stdout
    err = err or sys.stderr
    from .capture import capture_output

    with capture_output():  # what plugins print while loading stays out of the table
        manager = manager_from_args(ns, ai_specs=getattr(ns, "ai", ()) or ())
    for line in format_table(manager):
        print(line, file=out)
    if manager.user_dir is not None:
        try:
            folder, created = ensure_user_plugin_dir(manager.user_dir)
            note = " (created)" if created else ""
        except OSError as exc:
            folder, note = manager.user_dir, f" (missing; cannot create it: {exc})"
        print(f"\nuser plugin folder: {folder}{note}", file=out)
    status = 0
    for name, infos in sorted(manager.clashes().items()):
        status = 1
        print(f"error: AI name {name!r} is registered by {len(infos)} sources (not usable "
              f"until one is renamed or removed):", file=err)
        for info in infos:
            print(f"  - {info.origin} (version {info.version})", file=err)
    for problem in manager.problems:
        status = 1
        print(f"warning: {problem}", file=err)
    return status
