"""Difficulty presets of the new-game screen: which AI plays seats 1–3 and how long it thinks.

=========  ==========================  ====================  =================================
preset     AI (first one registered)   budget per decision   AI options
=========  ==========================  ====================  =================================
easy       ``basic``                   0.5 s                 ``blunder=0.35`` (random candidates)
normal     ``basic``                   2.0 s                 —
hard       ``expert``, else ``basic``  2.0 s                 ``think_ms=200`` (expert search)
=========  ==========================  ====================  =================================

The *budget* is what :func:`ai_plugins.runner.make_player` enforces (past it, ``basic``
decides); ``think_ms`` is how long the ``expert`` AI searches (it caps itself at 80% of the
budget). *easy* weakens ``basic`` with its ``blunder`` option: about a third of its decisions
take a random one of its candidate plays (and bids ignore the hand's strength).

A preset only chooses the default AI of the three seats: on the new-game screen each seat can
then be given any AI that discovery found (built-ins, installed entry points, drop-in files);
the preset's budget and options apply to every AI seat.

:func:`plan` turns a difficulty and four seat kinds into :class:`SeatPlan` rows and
:func:`make_players` creates the players for :class:`game.table.LocalTable` from them.
"""
from __future__ import annotations

import logging
import random
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping, Sequence

from game.i18n import N_

log = logging.getLogger(__name__)

HUMAN = "human"

#: the order built-in AIs are offered in; any other discovered AI follows, sorted by name
PREFERRED_ORDER = ("basic", "expert", "random")


@dataclass(frozen=True)
class Preset:
    """One difficulty.

    ``key`` (``"easy"``...); ``label`` and ``summary`` (catalog message ids, translate with
    ``_``); ``ais``: AI names in order of preference, the first one registered is used;
    ``budget_s``: seconds per decision; ``options``: ``AISettings.options`` for the AI.
    """

    key: str
    label: str
    summary: str
    ais: tuple[str, ...]
    budget_s: float
    options: Mapping[str, Any] = field(default_factory=dict)

    def ai_for(self, available: Iterable[str]) -> str:
        """The AI this preset uses when ``available`` names are registered (``"basic"`` if
        none of its choices is)."""
        names = set(available)
        return next((n for n in self.ais if n in names), "basic")


PRESETS: dict[str, Preset] = {
    "easy": Preset("easy", N_("Easy"), N_("basic AI that often picks a weaker play"), ("basic",), 0.5,
                   {"blunder": 0.35}),
    "normal": Preset("normal", N_("Normal"), N_("basic AI, up to 2 s per decision"), ("basic",), 2.0),
    "hard": Preset("hard", N_("Hard"), N_("expert AI (searches 0.2 s per decision), else basic"),
                   ("expert", "basic"), 2.0, {"think_ms": 200}),
}
DIFFICULTIES = tuple(PRESETS)
DEFAULT_DIFFICULTY = "normal"


def preset(difficulty: str | None) -> Preset:
    """The :class:`Preset` called ``difficulty``; unknown or None gives ``normal``."""
    return PRESETS.get(difficulty or DEFAULT_DIFFICULTY, PRESETS[DEFAULT_DIFFICULTY])


def available_ais(manager: Any) -> list[str]:
    """Names of the usable AIs of an ``ai_plugins.manager.AIManager`` (or None).

    Clashing names are left out (they cannot be used); built-ins come first in
    :data:`PREFERRED_ORDER`, then the others sorted.  Without a manager: ``["basic"]``.
    """
    if manager is None:
        return ["basic"]
    try:
        names = set(manager.names()) - set(manager.clashes())
    except Exception as exc:  # a broken manager must not stop the menu
        log.warning("cannot list AIs: %r", exc)
        return ["basic"]
    first = [n for n in PREFERRED_ORDER if n in names]
    return first + sorted(names - set(first))


def default_seats(difficulty: str | None, available: Iterable[str]) -> list[str]:
    """``["human", ai, ai, ai]`` with the AI of ``difficulty`` among ``available``."""
    ai = preset(difficulty).ai_for(available)
    return [HUMAN, ai, ai, ai]


@dataclass(frozen=True)
class SeatPlan:
    """Who plays one seat: ``kind`` (``"human"`` or an AI name), ``budget_s`` and
    ``options`` (empty for the human)."""

    seat: int
    kind: str
    budget_s: float = 0.0
    options: Mapping[str, Any] = field(default_factory=dict)


def plan(difficulty: str | None, seats: Sequence[str]) -> list[SeatPlan]:
    """One :class:`SeatPlan` per seat: the human keeps ``"human"``; every AI seat gets the
    difficulty's budget and options."""
    p = preset(difficulty)
    return [SeatPlan(i, k) if k == HUMAN else SeatPlan(i, k, p.budget_s, dict(p.options))
            for i, k in enumerate(seats)]


def make_players(plans: Sequence[SeatPlan], *, seed: int | None, manager: Any) -> dict[int, Any]:
    """``{seat: player}`` for every AI seat of ``plans`` (``ai_plugins.runner.make_player``,
    so a faulty or unknown AI is replaced by ``basic``, never raised).

    Seeds are drawn as :func:`game.table.make_ai_players` draws them, so a seeded match is
    reproducible.  Without ``ai_plugins`` (``manager`` None) the seats get
    :class:`game.table.FirstLegalPlayer`.
    """
    base = random.Random(seed if seed is not None else random.SystemRandom().getrandbits(32))
    seeds = [base.getrandbits(32) for _ in range(max(4, len(plans)))]
    players: dict[int, Any] = {}
    if manager is None:
        from game.table import FirstLegalPlayer

        return {p.seat: FirstLegalPlayer(p.seat, seeds[p.seat]) for p in plans if p.kind != HUMAN}
    from ai_plugins.runner import make_player

    for p in plans:
        if p.kind == HUMAN:
            continue
        players[p.seat] = make_player(manager, p.kind, p.seat, p.budget_s, seeds[p.seat],
                                      options=dict(p.options))
    return players


def describe() -> list[str]:
    """One English line per preset, e.g. ``"hard: expert (else basic), 2.0 s, think_ms=200"``."""
    out = []
    for p in PRESETS.values():
        opts = ", ".join(f"{k}={v}" for k, v in p.options.items())
        ais = p.ais[0] + (f" (else {', '.join(p.ais[1:])})" if len(p.ais) > 1 else "")
        out.append(f"{p.key}: {ais}, {p.budget_s:.1f} s" + (f", {opts}" if opts else ""))
    return out
