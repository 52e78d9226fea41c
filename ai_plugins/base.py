"""Small value types shared by the plugin manager, the runner and AI authors.

Nothing here knows the rules; the engine does (RULES.md). These types only describe what an
AI plugin provides (:class:`AIInfo`) and what its factory is given (:class:`AISettings`).
"""
from __future__ import annotations

import inspect
import re
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

PASS = 0
"""What :func:`ai_plugins.hookspecs.choose_bid` returns to pass (RULES.md §2)."""

RESERVED_NAMES: tuple[str, ...] = ("basic", "random", "expert", "human")
"""Names only the built-in plugins may register: the three built-in AIs and ``human`` (the seat
kind of ``hongwu play --seats``). Another plugin registering one is refused (a problem naming
the plugin), its other AIs still load, and the built-in keeps the name."""

NAME_RE = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.\-]*$")
"""Valid AI names: letters, digits, ``_``, ``.``, ``-``; no ``:`` (that marks ``module:object``)."""


@dataclass(frozen=True)
class AISettings:
    """What an AI factory is called with, once per seat it is given.

    Attributes:
        seat: the seat 0..n-1 the AI plays (n = the ruleset's players: 4 for 红五, 5 for 找朋友) (play order, counter-clockwise; RULES.md §1).
        seed: an ``int`` for the AI's own ``random.Random``; the same seed must give the same
            decisions for the same views, so that games and arenas are reproducible.
        budget_s: seconds allowed per decision (default 2.0); the runner enforces it.
        options: free-form settings from the command line or the host, e.g.
            ``{"think_ms": 500}`` for the ``expert`` AI; unknown keys should be ignored.
    """

    seat: int = 0
    seed: int = 0
    budget_s: float = 2.0
    options: Mapping[str, Any] = field(default_factory=dict)


def factory_problem(factory: Any) -> str | None:
    """Why ``factory`` cannot be an AI factory, or None when it can.

    A factory is called as ``factory(settings)`` with one :class:`AISettings` (see
    :func:`call_factory`). Accepted: a class or function taking one positional argument (more
    only if they have defaults), or, for compatibility, a keyword-only ``settings``. Refused,
    with the reason: something not callable; a callable whose signature needs more or no
    arguments; an AI *object* (an instance with ``choose_*`` methods, give its class); a
    function named like a decision hook (``choose_play``: a hook, not a factory).
    """
    if not callable(factory):
        hooks = [h for h in ("choose_bid", "choose_trump", "choose_bury", "choose_play")
                 if callable(getattr(factory, h, None))]
        if hooks:
            return (f"{factory!r} is an AI object (it has {', '.join(hooks)}), not a factory: "
                    f"give its class, or a function returning a new AI object")
        return f"{factory!r} is not callable"
    name = getattr(factory, "__name__", "")
    if not isinstance(factory, type) and name.startswith("choose_"):
        return (f"{name} looks like a decision hook, not a factory: a factory takes the "
                f"settings and returns an AI object whose methods are the hooks")
    try:
        sig = inspect.signature(factory)
    except (TypeError, ValueError):  # a builtin without a signature: trust it
        return None
    try:
        sig.bind(None)
        return None
    except TypeError:
        pass
    try:
        sig.bind(settings=None)
        return None
    except TypeError:
        pass
    return (f"{name or repr(factory)}{sig} cannot be called with one AISettings: a factory takes "
            f"exactly one argument (factory(settings))")


def call_factory(factory: Any, settings: "AISettings") -> Any:
    """``factory(settings)``; a factory that only takes a keyword-only ``settings`` is called
    as ``factory(settings=settings)`` (kept for compatibility). Raises what the factory raises."""
    try:
        sig = inspect.signature(factory)
    except (TypeError, ValueError):
        return factory(settings)
    try:
        sig.bind(settings)
    except TypeError:
        return factory(settings=settings)
    return factory(settings)


@dataclass(frozen=True)
class AIInfo:
    """One registered AI, as discovered by :class:`ai_plugins.manager.AIManager`.

    Attributes:
        name: the name users type (``--ai NAME``); see :data:`NAME_RE`.
        factory: ``Callable[[AISettings], object]`` returning the AI object.
        version: free text (``"1.2.0"``, ``"unknown"``).
        kind: where it came from: ``"built-in"``, ``"entry point"``, ``"file"`` or ``"module"``.
        origin: a human-readable source: ``"built-in"``, ``"entry point dist 1.0 (pkg.mod)"``,
            the drop-in file's path, or ``"module pkg.mod:obj"``.
    """

    name: str
    factory: Callable[[AISettings], Any]
    version: str
    kind: str
    origin: str

    def describe(self) -> str:
        """``"name (origin, version)"`` for messages."""
        return f"{self.name} ({self.origin}, version {self.version})"


class AIError(LookupError):
    """Base of the lookup errors raised by the plugin manager."""


class UnknownAIError(AIError):
    """No AI is registered under the requested name (message lists the known names)."""


class AIClashError(AIError):
    """Two or more sources registered the same AI name; the message lists every source.

    Attributes: ``name`` (str) and ``candidates`` (list of :class:`AIInfo`).
    """

    def __init__(self, name: str, candidates: list[AIInfo]):
        self.name = name
        self.candidates = list(candidates)
        where = "; ".join(c.origin + f" (version {c.version})" for c in candidates)
        super().__init__(
            f"AI name {name!r} is registered by {len(candidates)} sources: {where}. "
            f"Remove or rename one, or select one explicitly with --ai module:object."
        )
