"""AI specs with options: ``NAME@key=value,key=value`` (the arena's and the league's ``--ai``).

``NAME`` is what :meth:`ai_plugins.manager.AIManager.resolve` takes (a registered name or
``module:object``); the options after ``@`` are given to that AI only, on top of the run's
options (``--think-ms``, ``--samples``), e.g. ``basic@blunder=0.35`` (the *easy* preset's
AI) or ``expert@think_ms=1000``. The key ``budget`` sets that AI's seconds per decision
instead of ``--budget``. Values are read as int, then float, then ``true``/``false``, else
kept as text. PLUGINS.md "Options" lists the built-in AIs' options.
"""
from __future__ import annotations

from typing import Any, Mapping

BUDGET_KEY = "budget"
"""The spec option that sets an AI's budget per decision (seconds) rather than an AI option."""


def _value(text: str) -> Any:
    for cast in (int, float):
        try:
            return cast(text)
        except ValueError:
            pass
    return {"true": True, "false": False}.get(text.lower(), text)


def split_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """``"basic@blunder=0.35"`` → ``("basic", {"blunder": 0.35})``; a spec without ``@`` has no
    options. Raises ValueError for an option that is not ``key=value`` or an empty name."""
    name, _, rest = spec.partition("@")
    if not name:
        raise ValueError(f"AI spec {spec!r} has no name before '@'")
    options: dict[str, Any] = {}
    for part in filter(None, (p.strip() for p in rest.split(","))):
        key, eq, value = part.partition("=")
        if not eq or not key.strip():
            raise ValueError(f"AI spec {spec!r}: option {part!r} is not key=value")
        options[key.strip()] = _value(value.strip())
    return name, options


def spec_name(spec: str) -> str:
    """The AI name of ``spec`` (before any ``@``)."""
    return split_spec(spec)[0]


def spec_player(spec: str, budget_s: float, options: Mapping[str, Any]) -> tuple[str, float, dict[str, Any]]:
    """``(name, budget_s, options)`` for one seat of ``spec``: the run's ``budget_s`` (seconds)
    and ``options`` overridden by the spec's own (``budget`` sets the budget)."""
    name, own = split_spec(spec)
    merged = {**options, **own}
    budget = float(merged.pop(BUDGET_KEY, budget_s))
    return name, budget, merged


def spec_label(resolved: str, spec: str) -> str:
    """The display label of ``spec`` whose name resolved to ``resolved``: the name, with the
    spec's ``@options`` kept (``basic@blunder=0.35``) so two settings of one AI stay apart."""
    _, _, rest = spec.partition("@")
    return f"{resolved}@{rest}" if rest else resolved
