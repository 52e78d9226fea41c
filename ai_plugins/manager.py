"""Discovering AI plugins: built-ins, entry points, drop-in files and ``module:object``.

:class:`AIManager` owns one pluggy ``PluginManager`` (project ``"hongwu"``) and fills it from
four sources, in this order:

1. the built-in plugins (:data:`BUILTIN_PLUGINS`: ``random``, ``basic``, ``expert``), registered
   through the very same :func:`~ai_plugins.hookspecs.register_ais` hook as everyone else;
2. installed distributions exposing the entry-point group :data:`ENTRY_POINT_GROUP`
   (``hongwu.ai``); an entry point may name a plugin (a module or object implementing
   ``register_ais``) or directly an AI factory, which is then registered under the entry
   point's name;
3. drop-in ``*.py`` files (not starting with ``_`` or ``.``) in the user plugin folder
   (:func:`user_plugin_dir`) and in every folder given with ``--plugin-dir``, imported from
   their path without installing anything;
4. ``--ai module:object`` specs: ``object`` is a plugin or an AI factory (then the AI's name is
   the spec itself).

A plugin that fails to import or raises while registering is recorded once in
:attr:`AIManager.problems` (and logged at DEBUG level only); discovery goes on. Whoever uses
the manager reports the problems once: ``hongwu ai list`` prints them, programs call
:func:`report_problems`, which logs each distinct problem once per process. Two registrations of one name are a *clash*:
logged as a warning naming both sources, shown by ``hongwu ai list``, and any attempt to use
that name raises :class:`~ai_plugins.base.AIClashError`. Clashes are never resolved silently.

The names in :data:`~ai_plugins.base.RESERVED_NAMES` (``basic``, ``random``, ``expert``,
``human``) belong to the built-ins: another plugin registering one is refused with a problem
naming it (its other AIs still load), so the built-in always answers to its name. A factory of
the wrong shape (see :func:`~ai_plugins.base.factory_problem`) is refused with the reason.

**Names.** An AI's name (:attr:`AIInfo.name`) is the one shown by ``hongwu ai list``, at the
table and in the arena: the registered name, or for ``--ai module:object`` naming a factory
the spec ``module:object`` itself. What a plugin prints while it is imported or registered is
captured like its decisions' output (:mod:`ai_plugins.capture`).
"""
from __future__ import annotations

import hashlib
import importlib
import importlib.metadata
import importlib.util
import logging
import os
import re
import sys
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

import pluggy

from . import hookspecs
from .base import (AIClashError, AIError, AIInfo, AISettings, NAME_RE, RESERVED_NAMES,
                   UnknownAIError, factory_problem)
from .capture import attributed, sink_for

log = logging.getLogger(__name__)

ENTRY_POINT_GROUP = "hongwu.ai"
"""Entry-point group scanned for installed AI plugins."""

BUILTIN_PLUGINS: tuple[str, ...] = (
    "ai_plugins.builtin.random_ai",
    "ai_plugins.builtin.basic",
    "ai_plugins.builtin.expert",
)
"""Modules of the built-in AIs, registered as plugins like any other (cf. llm's default plugins)."""


DATA_ENV = "HONGWU_DATA_DIR"
"""Environment variable naming the user data folder; the career store (``game.career.store``)
reads the same one, so one setting moves all of a user's data."""


def user_plugin_dir() -> Path:
    """The per-user drop-in folder: ``ai_plugins`` inside the user data folder, which is
    ``$HONGWU_DATA_DIR`` when set (and not empty), else ``platformdirs.user_data_dir("hongwu")``
    (README "Career", PLUGINS.md "How plugins are found").

    The folder may not exist; nothing is created here (``hongwu ai list`` creates it, see
    :func:`ensure_user_plugin_dir`). Returns a :class:`pathlib.Path`.
    """
    override = os.environ.get(DATA_ENV)
    if override:
        return Path(override) / "ai_plugins"
    import platformdirs

    return Path(platformdirs.user_data_dir("hongwu")) / "ai_plugins"


def ensure_user_plugin_dir(folder: str | Path | None = None) -> tuple[Path, bool]:
    """Create the user plugin folder (default :func:`user_plugin_dir`) with its parents if it
    is missing. Returns ``(folder, created)``; raises ``OSError`` when it cannot be created."""
    path = Path(folder) if folder is not None else user_plugin_dir()
    if path.is_dir():
        return path, False
    path.mkdir(parents=True, exist_ok=True)
    return path, True


_REPORTED: set[str] = set()


def report_problems(problems: Iterable[str], logger: logging.Logger | None = None) -> list[str]:
    """Log each plugin problem (see :attr:`AIManager.problems`) as a warning on ``logger``
    (default this module's), each distinct message once per process, however many managers
    found it. Returns the messages logged now."""
    logger = logger or log
    fresh = []
    for problem in problems:
        if problem not in _REPORTED:
            _REPORTED.add(problem)
            fresh.append(problem)
            logger.warning("AI plugin problem: %s", problem)
    return fresh


def is_plugin(obj: Any) -> bool:
    """True when ``obj`` (module, class or instance) implements the ``register_ais`` hook."""
    impl = getattr(obj, "register_ais", None)
    return impl is not None and getattr(impl, hookspecs.PROJECT + "_impl", None) is not None


def _dist_version(default: str = "dev") -> str:
    try:
        return importlib.metadata.version("hongwu")
    except importlib.metadata.PackageNotFoundError:
        return default



def _import_spec_module(module_name: str) -> Any:
    """Import the module of an ``--ai module:object`` spec. A module that is not importable
    as things stand is also looked for in the current folder (as ``python -m`` would find it,
    but after everything installed, so nothing installed is shadowed); the folder then stays
    on ``sys.path`` so the module's own later imports work. Raises what the import raises."""
    try:
        return importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        cwd = str(Path.cwd())
        if exc.name != module_name.split(".")[0] or cwd in sys.path or "" in sys.path:
            raise
        sys.path.append(cwd)
        log.info("--ai %s: looking in the current folder %s", module_name, cwd)
        return importlib.import_module(module_name)

class AIManager:
    """Finds AI plugins and creates AI objects by name.

    Arguments:
        plugin_dirs: extra drop-in folders (``--plugin-dir``), searched after the user folder.
        ai_specs: ``"module:object"`` strings (``--ai module:object``) to load at start.
        user_dir: ``True`` (default) for :func:`user_plugin_dir`, a path for another folder, or
            ``False``/``None`` to skip the user folder (tests do).
        entry_points: scan the ``hongwu.ai`` entry-point group (default True).
        builtins: register the built-in AIs (default True).

    Attributes:
        pm: the ``pluggy.PluginManager`` holding every plugin.
        problems: ``list[str]``, one message per plugin that could not be loaded or registered
            (each problem once; the manager logs them at DEBUG level only, the caller reports
            them, e.g. with :func:`report_problems`).

    Construction never raises for a broken plugin; see :attr:`problems`.
    """

    def __init__(
        self,
        plugin_dirs: Iterable[str | Path] = (),
        ai_specs: Iterable[str] = (),
        *,
        user_dir: bool | str | Path | None = True,
        entry_points: bool = True,
        builtins: bool = True,
    ) -> None:
        self.pm = pluggy.PluginManager(hookspecs.PROJECT)
        self.pm.add_hookspecs(hookspecs)
        self.problems: list[str] = []
        self._infos: list[AIInfo] = []
        self._by_name: dict[str, list[AIInfo]] = {}
        self._spec_cache: dict[str, AIInfo] = {}
        self._plugin_ais: dict[int, list[AIInfo]] = {}
        self.plugin_dirs: tuple[Path, ...] = tuple(Path(d) for d in plugin_dirs)
        if user_dir is True:
            self.user_dir: Path | None = user_plugin_dir()
        elif user_dir:
            self.user_dir = Path(user_dir)
        else:
            self.user_dir = None
        if builtins:
            self._load_builtins()
        if entry_points:
            self._load_entry_points()
        if self.user_dir is not None:
            self.load_dir(self.user_dir, required=False)
        for d in self.plugin_dirs:
            self.load_dir(d, required=True)
        for spec in ai_specs:
            try:
                self.load_spec(spec)
            except AIError as exc:
                self._problem(str(exc))

    # ------------------------------------------------------------------ queries
    def infos(self) -> list[AIInfo]:
        """Every registration, in discovery order (clashing names appear once per source)."""
        return list(self._infos)

    def names(self) -> list[str]:
        """Sorted distinct AI names (clashing ones included)."""
        return sorted(self._by_name)

    def clashes(self) -> dict[str, list[AIInfo]]:
        """``{name: [AIInfo, ...]}`` for every name registered by more than one source."""
        return {n: list(v) for n, v in self._by_name.items() if len(v) > 1}

    def get(self, name: str) -> AIInfo:
        """The AI registered as ``name``.

        Raises :class:`UnknownAIError` (lists the known names) or :class:`AIClashError`
        (lists every source of the name).
        """
        found = self._by_name.get(name)
        if not found:
            raise UnknownAIError(
                f"no AI named {name!r}; known: {', '.join(self.names()) or 'none'} "
                f"(see 'hongwu ai list')"
            )
        if len(found) > 1:
            raise AIClashError(name, found)
        return found[0]

    def resolve(self, name_or_spec: str) -> AIInfo:
        """``get(name)`` for a plain name, :meth:`load_spec` for ``module:object``.

        Raises :class:`~ai_plugins.base.AIError` subclasses as those two do.
        """
        if ":" in name_or_spec:
            return self.load_spec(name_or_spec)
        return self.get(name_or_spec)

    def create(self, name_or_spec: str, settings: AISettings) -> Any:
        """Call the factory of ``name_or_spec`` with ``settings`` and return the AI object.

        Whatever the factory raises propagates (the runner catches it, see
        :func:`ai_plugins.runner.make_player`); lookup errors are as for :meth:`resolve`.
        """
        return self.resolve(name_or_spec).factory(settings)

    # ------------------------------------------------------------------ loading
    def _problem(self, message: str) -> None:
        # Recorded once; reported by whoever uses the manager (not logged loudly here, or
        # one broken file shows up once per manager plus once per report).
        log.debug("AI plugin problem: %s", message)
        if message not in self.problems:
            self.problems.append(message)

    def _load_builtins(self) -> None:
        for modname in BUILTIN_PLUGINS:
            try:
                module = importlib.import_module(modname)
            except Exception as exc:  # a broken built-in must not hide the others
                self._problem(f"built-in {modname} failed to import: {exc!r}")
                continue
            self.add_plugin(module, f"builtin:{modname}", "built-in", "built-in", _dist_version())

    def _load_entry_points(self) -> None:
        try:
            eps = importlib.metadata.entry_points(group=ENTRY_POINT_GROUP)
        except Exception as exc:  # pragma: no cover - broken metadata on sys.path
            self._problem(f"cannot read entry points {ENTRY_POINT_GROUP!r}: {exc!r}")
            return
        seen: set[tuple[str, str]] = set()
        for ep in sorted(eps, key=lambda e: (e.name, e.value)):
            dist = getattr(ep, "dist", None)
            dist_name = dist.metadata["Name"] if dist is not None else "?"
            dist_version = dist.version if dist is not None else "unknown"
            key = (str(dist_name), ep.name)
            if key in seen:  # one distribution found twice on sys.path
                continue
            seen.add(key)
            origin = f"entry point {dist_name} {dist_version} ({ep.name} = {ep.value})"
            try:
                obj = ep.load()
            except Exception as exc:
                self._problem(f"{origin} failed to load: {exc!r}")
                continue
            if is_plugin(obj):
                self.add_plugin(obj, f"entrypoint:{dist_name}:{ep.name}", "entry point",
                                origin, dist_version)
            elif callable(obj):
                why = factory_problem(obj)
                if why:
                    self._problem(f"{origin}: {why}")
                elif self._name_refused(ep.name, origin):
                    pass
                else:
                    self._add_info(AIInfo(ep.name, obj, dist_version, "entry point", origin))
            else:
                self._problem(f"{origin} is neither a plugin (no register_ais hook) "
                              f"nor an AI factory")

    def load_dir(self, folder: str | Path, *, required: bool = True) -> list[AIInfo]:
        """Import every drop-in ``*.py`` file of ``folder`` and register its AIs.

        Files whose name starts with ``_`` or ``.`` are skipped. A missing folder is a problem
        when ``required`` (``--plugin-dir``), silently skipped otherwise (the user folder).
        Returns the AIs registered from this folder.
        """
        folder = Path(folder)
        if not folder.is_dir():
            if required:
                self._problem(f"plugin folder {folder} does not exist")
            return []
        found: list[AIInfo] = []
        for path in sorted(folder.glob("*.py")):
            if path.name.startswith(("_", ".")):
                continue
            found.extend(self.load_file(path))
        return found

    def load_file(self, path: str | Path) -> list[AIInfo]:
        """Import one drop-in file (without installing it) and register its AIs.

        The module gets a private unique name, so two folders may each hold ``bot.py``.
        Import errors are logged and recorded in :attr:`problems`; returns the AIs found.
        """
        path = Path(path).resolve()
        digest = hashlib.sha1(str(path).encode()).hexdigest()[:10]
        modname = f"_hongwu_dropin_{digest}_{path.stem.replace('-', '_')}"
        plugin_name = f"file:{path}"
        known = self.pm.get_plugin(plugin_name)
        if known is not None:
            return list(self._plugin_ais.get(id(known), []))
        try:
            spec = importlib.util.spec_from_file_location(modname, path)
            if spec is None or spec.loader is None:
                raise ImportError(f"cannot import {path}")
            module = importlib.util.module_from_spec(spec)
            sys.modules[modname] = module
            with attributed(sink_for(f"file.{path.stem}")):
                spec.loader.exec_module(module)
        except BaseException as exc:  # SyntaxError, SystemExit from a careless script, ...
            sys.modules.pop(modname, None)
            if isinstance(exc, KeyboardInterrupt):
                raise
            self._problem(f"{path} failed to import: {exc!r}")
            return []
        if not is_plugin(module):
            self._problem(f"{path} has no @hookimpl register_ais(register) function")
            return []
        return self.add_plugin(module, plugin_name, "file", str(path),
                               str(getattr(module, "__version__", "unknown")))

    def load_spec(self, spec: str) -> AIInfo:
        """Load ``module:object`` and return the AI it names.

        ``object`` (a dotted attribute path; empty means the module) may be a plugin that
        registers exactly one AI, or an AI factory, registered under the name ``spec``.
        Raises :class:`UnknownAIError` when the import or the attribute fails, and
        :class:`~ai_plugins.base.AIError` when the plugin registers no AI or several.
        """
        if spec in self._spec_cache:
            return self._spec_cache[spec]
        module_name, _, attr = spec.partition(":")
        try:
            with attributed(sink_for(f"module.{module_name}")):
                obj: Any = _import_spec_module(module_name)
            module_version = str(getattr(obj, "__version__", "unknown"))
            for part in filter(None, attr.split(".")):
                obj = getattr(obj, part)
        except Exception as exc:
            raise UnknownAIError(f"cannot load --ai {spec!r}: {exc!r}") from exc
        origin = f"module {spec}"
        if is_plugin(obj):
            if self.pm.is_registered(obj):  # e.g. a built-in or entry-point module again
                ais = list(self._plugin_ais.get(id(obj), []))
                fresh = False
            else:
                ais = self.add_plugin(obj, f"module:{spec}", "module", origin, module_version)
                fresh = True
            if len(ais) != 1:
                if fresh:  # not half-accepted: none of its AIs stays usable
                    self._remove_plugin(obj, ais)
                raise AIError(
                    f"--ai {spec!r} registers {len(ais)} AIs "
                    f"({', '.join(i.name for i in ais) or 'none'}); --ai module:object must "
                    f"name one AI: give the factory of the one you mean "
                    f"(module:FactoryName), or load the file with --plugin-dir to get them all"
                )
            info = ais[0]
        elif callable(obj):
            why = factory_problem(obj)
            if why:
                raise AIError(f"--ai {spec!r} is not an AI factory: {why}")
            info = AIInfo(spec, obj, module_version, "module", origin)
            self._add_info(info)
        else:
            why = factory_problem(obj)
            raise AIError(f"--ai {spec!r} is neither a plugin (no @hookimpl register_ais) nor "
                          f"an AI factory: {why}")
        self._spec_cache[spec] = info
        return info

    def add_plugin(self, plugin: Any, plugin_name: str, kind: str, origin: str,
                   default_version: str = "unknown") -> list[AIInfo]:
        """Register ``plugin`` with pluggy and call its ``register_ais`` hook.

        ``kind``/``origin`` label the AIs it registers (see :class:`AIInfo`); AIs registered
        without a version get ``default_version``. If the hook raises, none of its AIs are kept
        and a problem is recorded. Returns the AIs registered.
        """
        where = origin if kind != "built-in" else f"built-in plugin {plugin_name}"
        try:
            self.pm.register(plugin, name=plugin_name)
        except Exception as exc:
            self._problem(f"{where}: cannot register plugin: {exc!r}")
            return []
        others = [p for p in self.pm.get_plugins() if p is not plugin]
        caller = self.pm.subset_hook_caller("register_ais", remove_plugins=others)
        collected: list[AIInfo] = []

        refused: list[str] = []

        def register(name: str, factory: Callable[[AISettings], Any],
                     version: str | None = None) -> None:
            if not isinstance(name, str) or not NAME_RE.match(name):
                raise ValueError(f"invalid AI name {name!r} (letters, digits, _ . - only)")
            why = factory_problem(factory)
            if why:
                raise TypeError(f"factory for AI {name!r}: {why}")
            if kind != "built-in" and self._name_refused(name, where):
                refused.append(name)
                return
            collected.append(AIInfo(name, factory, str(version or default_version), kind, origin))

        try:
            label = Path(origin).stem if kind == "file" else plugin_name.rpartition(":")[2]
            with attributed(sink_for(f"plugin.{re.sub(r'[^A-Za-z0-9_-]', '_', label)}")):
                caller(register=register)
        except Exception as exc:
            self._problem(f"{where}: register_ais raised {exc!r}")
            return []
        if not collected and not refused:
            self._problem(f"{where}: registers no AI")
        for info in collected:
            self._add_info(info)
        self._plugin_ais[id(plugin)] = collected
        return collected

    def _name_refused(self, name: str, where: str) -> bool:
        """True (and a problem recorded) when ``name`` is reserved for a built-in."""
        if name in RESERVED_NAMES:
            self._problem(f"{where}: registers the reserved name {name!r} (kept for the "
                          f"built-in {'seat kind' if name == 'human' else 'AI'}); this AI is "
                          f"not loaded, rename it")
            return True
        return False

    def _remove_plugin(self, plugin: Any, ais: Sequence[AIInfo]) -> None:
        """Undo :meth:`add_plugin` for ``plugin`` (its AIs are forgotten)."""
        for info in ais:
            if info in self._infos:
                self._infos.remove(info)
            same = self._by_name.get(info.name, [])
            if info in same:
                same.remove(info)
            if not same:
                self._by_name.pop(info.name, None)
        self._plugin_ais.pop(id(plugin), None)
        try:
            self.pm.unregister(plugin)
        except Exception:  # pragma: no cover - pluggy refuses nothing here
            log.debug("could not unregister %r", plugin)

    def _add_info(self, info: AIInfo) -> None:
        existing = self._by_name.setdefault(info.name, [])
        if existing:
            log.warning(
                "AI name clash: %r is registered by %s and by %s; neither is used until "
                "one is removed or renamed",
                info.name, "; ".join(e.origin for e in existing), info.origin,
            )
        existing.append(info)
        self._infos.append(info)


def add_discovery_options(parser: Any) -> None:
    """Add ``--plugin-dir DIR`` (repeatable) and ``--no-user-plugins`` to an argparse parser."""
    parser.add_argument("--plugin-dir", action="append", default=[], metavar="DIR",
                        help="also load drop-in AI plugin files (*.py) from DIR (repeatable)")
    parser.add_argument("--no-user-plugins", action="store_true",
                        help=f"do not load drop-in plugins from the user folder "
                             f"({user_plugin_dir()})")


def manager_from_args(ns: Any, ai_specs: Sequence[str] = ()) -> AIManager:
    """Build an :class:`AIManager` from options added by :func:`add_discovery_options`."""
    return AIManager(
        plugin_dirs=getattr(ns, "plugin_dir", None) or (),
        ai_specs=ai_specs,
        user_dir=not getattr(ns, "no_user_plugins", False),
    )
