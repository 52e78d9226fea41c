"""AI players for the host: seats filled with an AI, and auto-play (托管) of human seats.

Everything goes through :class:`AIProvider`, which uses the project's plugin system
(``ai_plugins.manager.AIManager`` + ``ai_plugins.runner.make_player``) when it is installed and
otherwise falls back to :class:`FirstLegal` (the first legal option). Players have
``act(view) -> action`` (never raising) and optionally ``fallback_action(view, reason)`` and
``close()``.
"""
from __future__ import annotations

import logging
import random
from typing import Any, Sequence

log = logging.getLogger(__name__)

FALLBACK_NAME = "first-legal"
"""Name of the trivial built-in player used when ``ai_plugins`` is unavailable."""


class FirstLegal:
    """The simplest legal player: pass, ♠, bury the first cards, play the first legal play.

    ``act(view)`` takes an ``engine.state.PlayerView`` of the seat to act and returns an engine
    action; it raises only if the engine offers no legal play (an engine bug).
    """

    def __init__(self, seat: int) -> None:
        self.seat = seat

    def act(self, view: Any) -> Any:
        """The action for ``view`` (``view.to_act == seat``): the engine's first legal action
        (a 找朋友 ``ZpyView``: :func:`net.zpy_codec.first_legal`)."""
        from engine.state import first_legal_action
        from engine.zhaopengyou import ZpyView

        if isinstance(view, ZpyView):
            from .zpy_codec import first_legal

            return first_legal(view)
        return first_legal_action(view)

    def fallback_action(self, view: Any, reason: str | None = None) -> Any:
        """Same as :meth:`act`."""
        return self.act(view)

    def close(self) -> None:
        """Nothing to release."""


class AIProvider:
    """Lists and creates AI players.

    Arguments: ``plugin_dirs`` / ``ai_specs`` / ``user_plugins`` as for ``AIManager``;
    ``use_plugins=False`` forces the :class:`FirstLegal` fallback (tests, benchmarks).
    The plugin manager is created lazily on first use.
    """

    def __init__(self, plugin_dirs: Sequence[str] = (), ai_specs: Sequence[str] = (),
                 user_plugins: bool = True, use_plugins: bool = True) -> None:
        self._plugin_dirs = tuple(plugin_dirs)
        self._ai_specs = tuple(ai_specs)
        self._user_plugins = user_plugins
        self._use_plugins = use_plugins
        self._manager: Any = None
        self._loaded = False

    def _load(self) -> Any:
        if not self._loaded:
            self._loaded = True
            if self._use_plugins:
                try:
                    from ai_plugins.manager import AIManager, report_problems

                    self._manager = AIManager(plugin_dirs=self._plugin_dirs,
                                              ai_specs=self._ai_specs,
                                              user_dir=self._user_plugins)
                    report_problems(self._manager.problems, log)  # once per process
                except ImportError as exc:
                    log.warning("ai_plugins unavailable (%s): using %s", exc, FALLBACK_NAME)
        return self._manager

    def list(self) -> list[dict[str, str]]:
        """The installed AIs as wire ``AI`` maps ``{name, version, origin}``, sorted by name."""
        manager = self._load()
        if manager is None:
            return [{"name": FALLBACK_NAME, "version": "1", "origin": "built-in (net)"}]
        out = []
        clashes = manager.clashes()
        for name in manager.names():
            if name in clashes:
                continue
            info = manager.get(name)
            out.append({"name": info.name, "version": str(info.version),
                        "origin": str(info.origin)})
        return out

    def exists(self, name: str) -> bool:
        """True when ``name`` is an AI :meth:`list` shows."""
        return any(a["name"] == name for a in self.list())

    def default_name(self) -> str:
        """The AI used for auto-play: ``basic`` when installed, else the fallback."""
        names = [a["name"] for a in self.list()]
        return "basic" if "basic" in names else names[0] if names else FALLBACK_NAME

    def make(self, name: str, seat: int, budget_s: float = 2.0, seed: int | None = None) -> Any:
        """A player for ``seat`` (``act(view)`` never raises for AI faults).

        Unknown names get the plugin system's own fallback (``basic``) when plugins are in
        use, :class:`FirstLegal` otherwise.
        """
        manager = self._load()
        if manager is None:
            return FirstLegal(seat)
        from ai_plugins.runner import make_player

        if seed is None:
            seed = random.SystemRandom().getrandbits(32)
        return make_player(manager, name, seat, budget_s, seed)
