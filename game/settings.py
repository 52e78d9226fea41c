"""User settings of the client (language, speed, seats, sound, house rules, renderer), stored as JSON.

The file lives in ``platformdirs.user_config_dir("hongwu")``, or in the directory named by the
``HONGWU_CONFIG_DIR`` environment variable when it is set (tests point it at a temporary
directory).  It is never written inside the checkout.
"""
from __future__ import annotations

import dataclasses
import json
import logging
import os
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

#: environment variable that overrides the settings directory
CONFIG_ENV = "HONGWU_CONFIG_DIR"
SETTINGS_FILE = "settings.json"
SPEEDS = ("slow", "normal", "fast", "instant")
LANGUAGES = ("zh", "en")
#: difficulty presets (the mapping to AIs and thinking budgets is in :mod:`game.presets`)
DIFFICULTIES = ("easy", "normal", "hard")
#: animation speeds at the table (``instant`` pace turns animations off whatever this says)
ANIMATIONS = ("off", "normal", "fast")
#: how the client draws (``--renderer``, see :mod:`game.render_backend`)
RENDERERS = ("auto", "gpu", "software")
#: side-suit orders of the hand, left to right (S H C D = ♠ ♥ ♣ ♦; the first is the default)
SUIT_ORDERS = ("SHCD", "HSDC", "CDSH", "DCHS")


def config_dir() -> Path:
    """Directory that holds ``settings.json`` (not created here).

    ``$HONGWU_CONFIG_DIR`` when set, else ``platformdirs.user_config_dir("hongwu")``.
    """
    override = os.environ.get(CONFIG_ENV)
    if override:
        return Path(override)
    import platformdirs

    return Path(platformdirs.user_config_dir("hongwu", appauthor=False))


#: the games the new-game screen offers: 红五 and 找朋友
GAMES = ("hongwu", "zhaopengyou")


@dataclasses.dataclass
class Settings:
    """What the client remembers between runs.

    ``lang`` is ``"zh"``, ``"en"`` or ``None`` (follow the system locale); ``speed`` one of
    :data:`SPEEDS`; ``seats`` four seat kinds (``"human"`` or an AI name) for seats 0..3;
    ``volume`` 0.0..1.0; ``muted`` silences every sound; ``decks`` 2 or 3; ``difficulty`` one of
    :data:`DIFFICULTIES` (see :mod:`game.presets`); ``fullscreen`` opens the window full screen;
    ``animations`` one of :data:`ANIMATIONS` (table animation speed); ``house_rules`` the
    house-rule options chosen on the new-game screen, ``{RuleOptions name: value}`` (only valid
    entries are kept, see :func:`valid_house_rules`; RULES.md "Options"), used for local games
    and for tables hosted from this client; ``renderer`` one of :data:`RENDERERS`, the last
    ``--renderer`` given to ``hongwu play``/``host``/``join`` (see :func:`renderer_choice`).  At the table (:mod:`game.scenes.table_extras`):
    ``smart_select`` (a tap raises the pair or tractor the lead calls for), ``trumps_left``
    (trumps at the left of the hand) and ``suit_order`` (one of :data:`SUIT_ORDERS`);
    ``xray`` (X-ray 透视: AI reasoning beside the AI plates, :mod:`game.scenes.xray`; off by default).
    ``game`` the game last chosen on the new-game screen, ``"hongwu"`` (红五) or
    ``"zhaopengyou"`` (找朋友); ``zpy_seats`` five seat kinds for 找朋友; ``zpy_rules`` its
    options ``{ZhaoPengyouOptions name: value}`` (only valid entries kept, see
    :func:`valid_zpy_rules`; RULES.md "找朋友").
    ``stake``: coins per game point chosen on the new-game screen (0: no coins).
    """

    lang: str | None = None
    speed: str = "normal"
    seats: list[str] = dataclasses.field(default_factory=lambda: ["human", "basic", "basic", "basic"])
    volume: float = 0.7
    muted: bool = False
    decks: int = 2
    difficulty: str = "normal"
    fullscreen: bool = False
    animations: str = "normal"
    house_rules: dict[str, Any] = dataclasses.field(default_factory=dict)
    renderer: str = "auto"
    smart_select: bool = True
    trumps_left: bool = False
    suit_order: str = "SHCD"
    xray: bool = False
    game: str = "hongwu"
    zpy_seats: list[str] = dataclasses.field(default_factory=lambda: ["human"] + ["basic"] * 4)
    zpy_rules: dict[str, Any] = dataclasses.field(default_factory=dict)
    #: coins per game point at local tables (new-game screen; 0 = no coins; RULES.md §12)
    stake: int = 0

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Settings":
        """Build settings from a decoded JSON object, ignoring unknown or ill-typed fields."""
        s = cls()
        if data.get("lang") in LANGUAGES:
            s.lang = data["lang"]
        if data.get("speed") in SPEEDS:
            s.speed = data["speed"]
        seats = data.get("seats")
        if isinstance(seats, list) and len(seats) == 4 and all(isinstance(x, str) and x for x in seats):
            s.seats = list(seats)
        vol = data.get("volume")
        if isinstance(vol, (int, float)) and not isinstance(vol, bool):
            s.volume = min(1.0, max(0.0, float(vol)))
        if isinstance(data.get("muted"), bool):
            s.muted = data["muted"]
        if data.get("decks") in (2, 3):
            s.decks = data["decks"]
        if data.get("difficulty") in DIFFICULTIES:
            s.difficulty = data["difficulty"]
        if isinstance(data.get("fullscreen"), bool):
            s.fullscreen = data["fullscreen"]
        if data.get("animations") in ANIMATIONS:
            s.animations = data["animations"]
        s.house_rules = valid_house_rules(data.get("house_rules"))
        if data.get("renderer") in RENDERERS:
            s.renderer = data["renderer"]
        for name in ("smart_select", "trumps_left", "xray"):
            if isinstance(data.get(name), bool):
                setattr(s, name, data[name])
        if data.get("suit_order") in SUIT_ORDERS:
            s.suit_order = data["suit_order"]
        if data.get("game") in GAMES:
            s.game = data["game"]
        zs = data.get("zpy_seats")
        if isinstance(zs, list) and len(zs) == 5 and all(isinstance(x, str) and x for x in zs):
            s.zpy_seats = list(zs)
        s.zpy_rules = valid_zpy_rules(data.get("zpy_rules"))
        stake = data.get("stake")
        if isinstance(stake, int) and not isinstance(stake, bool) and stake >= 0:
            s.stake = stake
        return s

    def to_dict(self) -> dict[str, Any]:
        """The JSON-serialisable form written to disk."""
        return dataclasses.asdict(self)


def valid_house_rules(data: Any) -> dict[str, Any]:
    """The valid entries of a saved ``house_rules`` object: ``{name: value}`` for each
    :class:`engine.ruleset.RuleOptions` field whose value has the field's type (a bool for a
    bool, an int but not a bool for an int) and passes its range check (RULES.md "Options").
    Anything else (not a dict, unknown names, wrong types, out of range) is dropped, never
    raised; ``{}`` when nothing is valid."""
    if not isinstance(data, dict):
        return {}
    from engine.ruleset import RuleOptions, option_names

    out: dict[str, Any] = {}
    for name in option_names():
        if name not in data:
            continue
        try:
            RuleOptions(**{name: data[name]})
        except (TypeError, ValueError):
            log.info("ignoring saved house rule %s=%r", name, data[name])
            continue
        out[name] = data[name]
    return out


def valid_zpy_rules(data: Any) -> dict[str, Any]:
    """The valid entries of saved 找朋友 options: ``{name: value}`` for each
    :class:`engine.ruleset.ZhaoPengyouOptions` field the ruleset accepts alone (RULES.md
    "找朋友"); anything else is dropped, never raised."""
    if not isinstance(data, dict):
        return {}
    from engine.ruleset import zhaopengyou

    out: dict[str, Any] = {}
    for name, value in data.items():
        if not isinstance(name, str) or isinstance(value, (list, dict)):
            continue
        try:
            zhaopengyou(**{name: value})
        except (TypeError, ValueError):
            log.info("ignoring saved 找朋友 option %s=%r", name, value)
            continue
        out[name] = value
    return out


def load(path: Path | None = None) -> Settings:
    """Read settings from ``path`` (default ``config_dir()/settings.json``).

    A missing, unreadable or malformed file gives the defaults (logged, never raised).
    """
    path = path or config_dir() / SETTINGS_FILE
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return Settings()
    except (OSError, ValueError) as exc:
        log.warning("ignoring unreadable settings %s: %s", path, exc)
        return Settings()
    if not isinstance(data, dict):
        return Settings()
    return Settings.from_dict(data)


def save(settings: Settings, path: Path | None = None) -> bool:
    """Write ``settings`` as JSON (atomically); returns False (and logs) when it cannot."""
    path = path or config_dir() / SETTINGS_FILE
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(settings.to_dict(), indent=2, ensure_ascii=False), encoding="utf-8")
        os.replace(tmp, path)
        return True
    except OSError as exc:
        log.warning("could not save settings to %s: %s", path, exc)
        return False


def renderer_choice(given: str | None, path: Path | None = None) -> str:
    """The renderer to open the window with: ``given`` (a ``--renderer`` from the command
    line, one of :data:`RENDERERS`) is saved in the settings and returned; None gives the saved
    one (``"auto"`` when none was ever saved).  Raises ValueError for an unknown ``given``."""
    saved = load(path)
    if given is None:
        return saved.renderer
    if given not in RENDERERS:
        raise ValueError(f"renderer must be one of {', '.join(RENDERERS)}, not {given!r}")
    if saved.renderer != given:
        saved.renderer = given
        save(saved, path)
    return given
