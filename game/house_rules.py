"""The house rules as the client shows and offers them (RULES.md "Options").

The options themselves, their defaults and their checks are the engine's
(:class:`engine.ruleset.RuleOptions`); this module only holds what the screens need: the values
the new-game screen cycles through (:data:`CHOICES`), :func:`cycle`, and the words for them in
the UI language — a button label (:func:`control_label`), a one-line summary of the rules that
differ from the defaults (:func:`summary_line`, the new-game screen's note and the LAN lobby)
and a full description (:func:`describe`, the rules screen).

A house-rule mapping is ``{RuleOptions field name: value}``; missing names mean the default.
"""
from __future__ import annotations

from typing import Any, Mapping

from game.i18n import _

KITTY = "kitty_to_dealer_always"
BASE = "base_score"
PENALTY = "failed_throw_penalty"

#: the values the new-game screen offers for each option, in cycling order
CHOICES: dict[str, tuple[Any, ...]] = {
    KITTY: (False, True),
    BASE: (1, 2, 3, 4, 5),
    PENALTY: (0, 10, 20, 30, 40),
}

#: each option's share of the width of the new-game screen's house-rules row (longest labels widest)
WEIGHTS: dict[str, float] = {KITTY: 1.15, BASE: 0.85, PENALTY: 1.1}


def defaults() -> dict[str, Any]:
    """The engine's default value of every option (``RuleOptions()``), by name."""
    from engine.ruleset import RuleOptions, option_names

    d = RuleOptions()
    return {name: getattr(d, name) for name in option_names()}


def complete(rules: Mapping[str, Any] | None) -> dict[str, Any]:
    """``rules`` with every missing option set to its default (names the engine does not know
    are kept, for the engine to refuse)."""
    return {**defaults(), **dict(rules or {})}


def non_default(rules: Mapping[str, Any] | None) -> dict[str, Any]:
    """Only the entries of ``rules`` whose value differs from the engine's default."""
    d = defaults()
    return {k: v for k, v in dict(rules or {}).items() if k not in d or d[k] != v}


def cycle(name: str, value: Any, step: int = 1) -> Any:
    """The value after ``value`` (``step`` 1) or before it (``step`` -1) in ``CHOICES[name]``,
    wrapping round.  A value not offered there (e.g. ``--rule base_score=9``) goes to the
    nearest offered one in that direction.  KeyError for a name without choices."""
    options = CHOICES[name]
    if value in options:
        return options[(options.index(value) + step) % len(options)]
    if step > 0:
        return next((o for o in options if o > value), options[0])
    return next((o for o in reversed(options) if o < value), options[-1])


def control_label(name: str, value: Any) -> str:
    """The short label of the new-game screen's button for option ``name`` at ``value``, e.g.
    ``"Kitty: always"``, ``"Base score 3"``, ``"Throw penalty 20"`` (UI language)."""
    if name == KITTY:
        return _("Kitty: always") if value else _("Kitty: last trick")
    if name == BASE:
        return _("Base score {n}").format(n=value)
    if name == PENALTY:
        return _("Throw penalty {n}").format(n=value)
    return f"{name}={value}"


def _phrase(name: str, value: Any) -> str:
    if name == KITTY:
        return (_("the kitty always counts for the dealer") if value
                else _("the kitty counts for the dealer only if the dealer wins the last trick"))
    if name == BASE:
        return _("base score {n}").format(n=value)
    if name == PENALTY:
        return _("a failed throw costs {n} points").format(n=value)
    return f"{name}={value}"


def summary_line(rules: Mapping[str, Any] | None) -> str:
    """One line naming the options of ``rules`` that differ from the defaults, e.g.
    ``"House rules: base score 3 · a failed throw costs 20 points"``; ``""`` when all are at
    their defaults."""
    changed = non_default(rules)
    if not changed:
        return ""
    order = [n for n in CHOICES if n in changed] + [n for n in changed if n not in CHOICES]
    return _("House rules: {rules}").format(rules=" · ".join(_phrase(n, changed[n]) for n in order))


def describe(rules: Mapping[str, Any] | None) -> list[str]:
    """One sentence per option (all of them, defaults included) saying how ``rules`` plays
    (RULES.md §7, §10 and "Options"); for the rules screen."""
    r = complete(rules)
    kitty = (_("Kitty: its points always count for the dealer.") if r[KITTY] else
             _("Kitty: its points count for the dealer only when the dealer wins the last trick."))
    base = _("Base score: {n} game points (the game-point table and each red-five transfer).").format(n=r[BASE])
    penalty = (_("Failed throw: no penalty.") if not r[PENALTY] else
               _("Failed throw: the thrower's side concedes {n} card points each time.").format(n=r[PENALTY]))
    return [kitty, base, penalty]
