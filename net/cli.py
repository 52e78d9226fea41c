"""``hongwu host`` and ``hongwu join``: LAN play from the command line.

``hongwu host`` runs the authoritative server (:mod:`net.server`) and, unless ``--headless``,
opens the pygame client connected to it over loopback with host rights, in the LAN lobby
(fill seats with AIs, ready): the client lends the window through :class:`ClientHooks`
(:mod:`game.lan_cli`), this package imports nothing from ``game``. It prints ``listening on
ADDR:PORT`` once bound and the ``hongwu join`` command to reach it; headless it says which
seats keep the first hand from starting and the exact options that fill them, reports hands and seats (``seat 2 resumed by
Ann``...) and stops after ``--hands``. The host journals its tables (:mod:`net.journal`,
``--journal FILE``); ``--resume`` restores them after a crash. ``hongwu join --headless``
reconnects by itself when the connection is lost (``--reconnect``, backoff as
:class:`net.client.Backoff`). ``hongwu join [HOST[:PORT]]`` opens the client connected
to a host (found by LAN discovery when HOST is left out) in the LAN lobby until the first hand,
or with ``--headless`` plays with an AI in the terminal: it prints who is still missing, gives
up after ``--wait`` seconds if no hand starts, and prints one result line per hand in the
format of ``hongwu play``. Both sub-commands are wired by :mod:`game.cli` through
:mod:`game.lan_cli`, which calls :func:`add_host_parser` / :func:`add_join_parser` with its
:class:`ClientHooks`; their ``func`` returns the exit code (0 success, 1 network failure,
2 usage error).
"""
from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import sys
import threading
import time
from pathlib import Path
from dataclasses import dataclass
from typing import Any, Callable, Sequence

from .protocol import DEFAULT_PORT, DISCOVERY_PORT, NAME_MAX

log = logging.getLogger(__name__)


# ============================================================================ helpers
@dataclass(frozen=True)
class ClientHooks:
    """What a client package lends ``hongwu host`` / ``hongwu join`` for their windowed paths
    (``net`` imports no client; :mod:`game.lan_cli` passes the pygame one).

    ``host_window(host, port, ns)`` runs the host's window on a started
    :class:`BackgroundHost` listening on ``port`` and returns the exit code;
    ``join_window(table, ns)`` runs the window of ``hongwu join`` on a connected
    :class:`~net.remote_table.RemoteTable` (closing it when the window closes) and returns the
    exit code; ``saved_house_rules()`` gives the house rules a windowed host uses without
    ``--rule`` (``{RuleOptions name: value}``); ``plays_zhaopengyou``: the windows can sit at
    a 找朋友 table (PROTOCOL.md section 14), else ``hongwu host --ruleset zhaopengyou`` needs
    ``--headless``. ``zpy_hand_settled(ns, hand, names, seat, table_key)`` (optional) is
    called by ``hongwu join --headless`` at a 找朋友 table with every hand its seat played,
    once settled and rebuilt (an engine ``ZpyHand``, :mod:`net.zpy_log`), the seat names and
    which table (``"host:port/name"``): the client records it for ``--profile``.
    """

    host_window: Callable[["BackgroundHost", int, argparse.Namespace], int]
    join_window: Callable[[Any, argparse.Namespace], int]
    saved_house_rules: Callable[[], dict[str, Any]]
    plays_zhaopengyou: bool = False
    zpy_hand_settled: Callable[[argparse.Namespace, Any, list[str], int, str], None] | None = None


def _hooks(ns: argparse.Namespace) -> ClientHooks | None:
    """The :class:`ClientHooks` the parser of ``ns`` was built with (None: headless only)."""
    return getattr(ns, "client_hooks", None)


def _no_window(command: str) -> int:
    print(f"hongwu {command}: no client to open a window with; use --headless", file=sys.stderr)
    return 2


def _setup_logging(verbose: bool = False) -> None:
    if not logging.getLogger().handlers:
        level = "INFO" if verbose else os.environ.get("HONGWU_LOG", "WARNING").upper()
        logging.basicConfig(level=level, format="%(levelname)s %(name)s: %(message)s")


def parse_address(text: str, default_port: int = DEFAULT_PORT) -> tuple[str, int]:
    """``"host"``, ``"host:port"`` or ``"[v6]:port"`` -> ``(host, port)``.

    Raises ``argparse.ArgumentTypeError`` for a bad port.
    """
    text = text.strip()
    if text.startswith("["):
        host, _, rest = text[1:].partition("]")
        port_text = rest[1:] if rest.startswith(":") else ""
    elif text.count(":") == 1:
        host, port_text = text.split(":")
    else:
        host, port_text = text, ""
    if not port_text:
        return host, default_port
    try:
        port = int(port_text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"bad port in {text!r}") from None
    if not 0 < port < 65536:
        raise argparse.ArgumentTypeError(f"port out of range in {text!r}")
    return host, port


def _ai_seat(text: str) -> tuple[int, str]:
    seat, sep, name = text.partition("=")
    if not sep or not seat.strip().isdigit() or not 0 <= int(seat) <= 4 or not name.strip():
        raise argparse.ArgumentTypeError("use SEAT=AI, e.g. 1=basic (seats 0..3; 找朋友 0..4)")
    return int(seat), name.strip()


def _name(text: str) -> str:
    text = text.strip()
    if not text or len(text) > NAME_MAX:
        raise argparse.ArgumentTypeError(f"a name has 1..{NAME_MAX} characters")
    return text


def rule_arg(text: str) -> tuple[str, Any]:
    """argparse type of ``--rule NAME=VALUE`` for ``hongwu host`` and ``hongwu play``:
    :func:`engine.ruleset.parse_rule`, its ValueError turned into an argparse error (a usage
    line with the reason, exit status 2)."""
    from engine.ruleset import parse_rule

    try:
        return parse_rule(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def zpy_option_arg(text: str) -> tuple[str, Any]:
    """argparse type of ``hongwu host --ruleset zhaopengyou --option NAME=VALUE``: one 找朋友
    option (``ZhaoPengyouOptions``, RULES.md "找朋友"): bools true/false (yes/no, on/off, 1/0),
    ints in decimal, ``must_play_levels`` a comma list (``5,10,K``), the rest their text.
    The value is checked by the options themselves; a bad one is an argparse error."""
    from dataclasses import fields

    from engine.ruleset import ZhaoPengyouOptions

    kinds = {f.name: str(f.type) for f in fields(ZhaoPengyouOptions)}
    name, sep, raw = (part.strip() for part in text.partition("="))
    if not sep or not name:
        raise argparse.ArgumentTypeError(f"a 找朋友 option is written NAME=VALUE, not {text!r}")
    if name not in kinds:
        raise argparse.ArgumentTypeError(f"unknown 找朋友 option {name!r}; options: "
                                         f"{', '.join(kinds)}")
    value: Any = raw
    if name == "must_play_levels":
        value = [v.strip() for v in raw.split(",") if v.strip()]
    elif kinds[name] == "bool":
        if raw.lower() not in ("true", "yes", "on", "1", "false", "no", "off", "0"):
            raise argparse.ArgumentTypeError(f"option {name} takes true or false, not {raw!r}")
        value = raw.lower() in ("true", "yes", "on", "1")
    elif kinds[name] == "int":
        try:
            value = int(raw, 10)
        except ValueError:
            raise argparse.ArgumentTypeError(f"option {name} takes a whole number, not {raw!r}") from None
    try:
        ZhaoPengyouOptions.from_mapping({name: value})
    except (ValueError, TypeError) as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return name, value


def _seconds(text: str) -> float:
    value = float(text)
    if value < 0:
        raise argparse.ArgumentTypeError("seconds must not be negative")
    return value


def is_loopback(bind: str) -> bool:
    """True for an address only this machine reaches (``127.x.x.x``, ``::1``, ``localhost``).

    >>> is_loopback("127.0.0.1"), is_loopback("::1"), is_loopback("0.0.0.0")
    (True, True, False)
    """
    import ipaddress

    text = bind.strip().strip("[]")
    if text.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(text).is_loopback
    except ValueError:
        return False


def announce_targets(bind: str, announce: Sequence[str], off: bool) -> list[str] | None:
    """Where ``hongwu host`` sends its LAN announcements: None with ``--no-discovery``, the
    ``--announce`` addresses when given, ``127.0.0.1`` when bound to a loopback address
    (nobody else could join it anyway), else the LAN broadcast address."""
    if off:
        return None
    if announce:
        return list(announce)
    return ["127.0.0.1"] if is_loopback(bind) else ["255.255.255.255"]


def join_hint(addresses: Sequence[str]) -> str:
    """The ``players join with: ...`` line ``hongwu host`` prints for the ``HOST:PORT`` texts
    the host can be joined at (``Server.addresses``: the bound address, or for a wildcard this
    machine's LAN addresses), the first in the command and any others after ``or``.

    >>> join_hint(["192.168.1.20:5", "10.0.0.3:5"])
    'players join with: hongwu join 192.168.1.20:5 --name NAME (or 10.0.0.3:5)'
    """
    line = f"players join with: hongwu join {addresses[0]} --name NAME"
    return line + (f" (or {', '.join(addresses[1:])})" if len(addresses) > 1 else "")


def missing_seats(seats: Sequence[Any], skip: int | None = None) -> list[str]:
    """What keeps a hand from starting, one phrase per seat, from wire ``Seat`` maps (see
    PROTOCOL.md): ``seat 1 empty``, ``seat 2 (Bob) not ready``, ``seat 3 (Ann) disconnected``
    (a dropped player who is not ready). AI seats and ready players are not listed; nor is
    seat ``skip`` (a headless join's own seat: it says ready by itself).

    >>> missing_seats([{"kind": "empty"}, {"kind": "ai"},
    ...                {"kind": "human", "name": "Bob", "ready": False, "connected": True}])
    ['seat 0 empty', 'seat 2 (Bob) not ready']
    """
    out = []
    for i, st in enumerate(seats):
        if i == skip:
            continue
        kind = st.get("kind")
        if kind == "empty":
            out.append(f"seat {i} empty")
        elif kind == "human" and not st.get("ready"):
            state = "not ready" if st.get("connected", True) else "disconnected"
            out.append(f"seat {i} ({st.get('name')}) {state}")
    return out


def _empty_seats(seats: Sequence[Any], skip: int | None = None) -> list[int]:
    """The numbers of the empty seats among wire Seat maps, except ``skip``."""
    return [i for i, st in enumerate(seats) if st.get("kind") == "empty" and i != skip]


def fill_options(option: str, seats: Sequence[int], ai: str = "basic") -> str:
    """``--ai 1=basic --ai 3=basic``: the options that seat ``ai`` in ``seats``.

    >>> fill_options("--fill", [2, 3])
    '--fill 2=basic --fill 3=basic'
    """
    return " ".join(f"{option} {seat}={ai}" for seat in seats)


def host_waiting_lines(seats: Sequence[Any], address: str) -> list[str]:
    """What a headless host prints while no hand can start: who is missing and the exact
    options that fill the seats (players joining at ``address``, ``--fill`` on a join
    command, or ``--ai SEAT=AI`` when starting the host). ``seats`` are wire Seat maps."""
    missing = missing_seats(seats)
    if not missing:
        return []
    lines = [f"a hand starts when all {len(seats)} seats are taken and every player is ready; "
             f"waiting for: {', '.join(missing)}"]
    empty = _empty_seats(seats)
    if empty:
        lines.append(f"  seat a player:  hongwu join {address} --name NAME "
                     f"[--headless --ai basic]")
    if len(empty) > 1:  # the joining player takes the first empty seat, AIs the others
        lines.append(f"  seat AIs:       add {fill_options('--fill', empty[1:])} to that join "
                     f"command, or start the host with {fill_options('--ai', empty[1:])}")
    return lines


def result_line(hand_no: int, settlement: Any) -> str:
    """The console line of a settled hand, e.g. ``hand 1: dealer seat 2 bid 75 final +15 game
    points [+6,-2,-2,-2]``, for a wire ``Settlement`` map: the very line ``hongwu play`` prints
    (:func:`engine.scoring.result_line`)."""
    from engine.scoring import result_line as play_result_line

    from .codec import settlement_in

    if isinstance(settlement, dict) and "dealer_side" in settlement:
        return zpy_result_line(hand_no, settlement)
    return play_result_line(hand_no, settlement_in(settlement))


def zpy_result_line(hand_no: int, s: dict[str, Any]) -> str:
    """The console line of a settled 找朋友 hand from its wire ``ZpySettlement`` map, e.g.
    ``hand 1: dealer side 0,3, catchers 130, catchers win, levels 2 2 2 2 2 -> 3 2 3 3 2``
    (with ``, game over: seat 2 won`` at the end of the game)."""
    names = {11: "J", 12: "Q", 13: "K", 14: "A"}

    def levels(vs: Sequence[int]) -> str:
        return " ".join(names.get(v, str(v)) for v in vs)

    side = ",".join(map(str, s["dealer_side"])) + (" (alone)" if s.get("alone") else "")
    line = (f"hand {hand_no}: dealer side {side}, catchers {s['catcher_points']}, "
            f"{s['winner']} win, levels {levels(s['levels_before'])} -> {levels(s['levels'])}")
    if s.get("game_over"):
        line += f", game over: seat {', '.join(map(str, s['game_winners']))} won"
    return line


def state_dir() -> Path:
    """The user state dir: ``$HONGWU_STATE_DIR`` if set, else the platformdirs one."""
    import platformdirs

    return Path(os.environ.get("HONGWU_STATE_DIR") or platformdirs.user_state_dir("hongwu"))


def token_file() -> Path:
    """Where reconnect tokens are kept between runs: ``lan_tokens.json`` in :func:`state_dir`."""
    return state_dir() / "lan_tokens.json"


def journal_file(ns: argparse.Namespace) -> Path | None:
    """The host's journal file for parsed ``host`` arguments: ``--journal``, else
    ``lan_host-PORT.sqlite3`` in :func:`state_dir` (one per port, so hosts on different ports
    keep separate journals and ``--resume`` with the same ``--port`` finds its own); None
    with ``--no-journal``."""
    if getattr(ns, "no_journal", False):
        return None
    given = getattr(ns, "journal", None)
    return Path(given) if given else state_dir() / f"lan_host-{ns.port}.sqlite3"


def open_journal(ns: argparse.Namespace) -> tuple[Any, int]:
    """``(journal, 0)`` for parsed ``host`` arguments (journal None with ``--no-journal``),
    or ``(None, exit code)`` after printing why the journal cannot be used. Says when a
    damaged file was set aside."""
    from .journal import Journal, JournalBusy, JournalError

    path = journal_file(ns)
    if path is None:
        if getattr(ns, "resume", False):
            print("hongwu host: --resume needs the journal (drop --no-journal)",
                  file=sys.stderr)
            return None, 2
        return None, 0
    try:
        journal = Journal.open(path, resume=bool(getattr(ns, "resume", False)))
    except JournalBusy as exc:
        if getattr(ns, "journal", None) or getattr(ns, "resume", False):
            print(f"hongwu host: journal: {exc}", file=sys.stderr)
            return None, 1
        print(f"hongwu host: journal: {exc}; this host keeps none (a restart cannot "
              f"resume it)", file=sys.stderr, flush=True)
        return None, 0
    except JournalError as exc:
        print(f"hongwu host: journal: {exc}", file=sys.stderr)
        return None, 1
    if journal.problem:
        print(f"hongwu host: {journal.problem}", file=sys.stderr, flush=True)
    return journal, 0


def load_token(key: str) -> str | None:
    """The saved reconnect token for ``key`` (``host:port/table``), or None."""
    try:
        data = json.loads(token_file().read_text("utf-8"))
        token = data.get(key)
        return token if isinstance(token, str) else None
    except (OSError, ValueError, AttributeError):
        return None


def save_token(key: str, token: str | None) -> None:
    """Remember (or with None forget) the token for ``key``; errors are only logged."""
    path = token_file()
    try:
        data = json.loads(path.read_text("utf-8")) if path.exists() else {}
        if not isinstance(data, dict):
            data = {}
        if token is None:
            data.pop(key, None)
        else:
            data[key] = token
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(data, indent=1), "utf-8")
    except (OSError, ValueError) as exc:
        log.info("could not save the reconnect token: %r", exc)


def _add_client_ui_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--lang", choices=("zh", "en"), default=None, help="UI language")
    p.add_argument("--speed", choices=("slow", "normal", "fast", "instant"), default=None,
                   help="animation speed")
    p.add_argument("--mute", action="store_true", help="no sound")
    p.add_argument("--fullscreen", action="store_true", help="full screen")
    p.add_argument("--renderer", choices=("auto", "gpu", "software"), default=None,
                   help="drawing: GPU textures, software surfaces, or auto (GPU when an accelerated "
                        "renderer exists); saved, the default is the last one given (first: auto)")


def _add_ai_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--plugin-dir", action="append", default=[], metavar="DIR",
                   help="also load AI plugins from DIR (repeatable)")
    p.add_argument("--no-user-plugins", action="store_true", help="skip the user plugin folder")
    p.add_argument("--ai-budget", type=_seconds, default=2.0, metavar="SECONDS",
                   help="seconds an AI may think per decision (default 2)")


# ============================================================================ host
def _capturing(run: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    """``run`` with AI plugins' printed output captured and logged (``ai_plugins.capture``),
    so that it never mixes with what the command prints; ``run`` itself when ``ai_plugins``
    is not installed."""
    def captured(ns: argparse.Namespace) -> int:
        try:
            from ai_plugins.capture import capture_output
        except ImportError:  # pragma: no cover - net without ai_plugins
            return run(ns)
        with capture_output():
            return run(ns)

    captured.__doc__ = run.__doc__
    captured.__name__ = run.__name__
    return captured


def add_host_parser(subparsers: Any, hooks: ClientHooks | None = None) -> argparse.ArgumentParser:
    """Register ``hongwu host`` on ``subparsers``; without ``hooks`` (no client) only
    ``--headless`` runs."""
    p = subparsers.add_parser(
        "host", help="host a LAN table (server + your own client)",
        description="Host a Hong Wu table on the LAN. Players join with 'hongwu join'.")
    p.add_argument("--bind", default="0.0.0.0", metavar="ADDR",
                   help="address to listen on (default 0.0.0.0: every interface)")
    p.add_argument("--port", type=int, default=DEFAULT_PORT, metavar="N",
                   help=f"TCP port (default {DEFAULT_PORT}; 0 = any free port)")
    p.add_argument("--decks", type=int, choices=(2, 3), default=2, help="number of decks (红五)")
    p.add_argument("--ruleset", choices=("hongwu", "zhaopengyou"), default="hongwu",
                   help="the game: hongwu (红五, four seats, default) or zhaopengyou (找朋友, five "
                        "seats, three decks, a match of levels); 找朋友 needs protocol-3 clients")
    p.add_argument("--option", action="append", type=zpy_option_arg, default=[],
                   metavar="NAME=VALUE", help="a 找朋友 rule option (with --ruleset zhaopengyou; "
                                              "repeatable; RULES.md \"找朋友\")")
    p.add_argument("--timer-deal", type=_seconds, default=3.0, metavar="S",
                   help="找朋友: seconds a player has in a declaration window before passing "
                        "(default 3)")
    p.add_argument("--deal-pace", type=_seconds, default=None, metavar="S",
                   help="找朋友: seconds between two dealt cards the host sends out, so every "
                        "seat sees the deal card by card and can declare while it runs "
                        "(default: the pace of --speed as at a local table, 0.05 at normal; "
                        "0 = the whole deal at once)")
    p.add_argument("--timer-call", type=_seconds, default=60.0, metavar="S",
                   help="找朋友: seconds to call the friend (default 60)")
    p.add_argument("--timer-counter", type=_seconds, default=10.0, metavar="S",
                   help="找朋友: seconds for a counter turn before passing (default 10)")
    p.add_argument("--name", type=_name, default="Hong Wu", metavar="TABLE",
                   help="table name shown to players")
    p.add_argument("--headless", action="store_true",
                   help="no window: only the server (seated players may fill seats with AIs)")
    p.add_argument("--no-discovery", action="store_true", help="do not announce on the LAN")
    p.add_argument("--announce", action="append", default=[], metavar="ADDR",
                   help="announce to ADDR instead of 255.255.255.255 (repeatable)")
    p.add_argument("--announce-port", type=int, default=DISCOVERY_PORT, metavar="N",
                   help=f"UDP port of announcements (default {DISCOVERY_PORT})")
    p.add_argument("--seed", type=int, default=None, help="seed: reproducible deals")
    p.add_argument("--ai", action="append", default=[], type=_ai_seat, metavar="SEAT=AI",
                   help="fill SEAT with an AI at start, e.g. --ai 1=basic (repeatable)")
    p.add_argument("--player", type=_name, default="Host", metavar="NAME",
                   help="your name at the table (not headless)")
    p.add_argument("--seat", type=int, choices=range(5), default=0, help="your seat")
    p.add_argument("--timer-bid", type=_seconds, default=20.0, metavar="S",
                   help="seconds per bid (0 = none; default 20)")
    p.add_argument("--timer-trump", type=_seconds, default=30.0, metavar="S",
                   help="seconds to name trump, then spades (default 30)")
    p.add_argument("--timer-bury", type=_seconds, default=60.0, metavar="S",
                   help="seconds to bury (default 60)")
    p.add_argument("--timer-play", type=_seconds, default=20.0, metavar="S",
                   help="seconds per play (default 20)")
    p.add_argument("--ai-delay", type=_seconds, default=0.6, metavar="S",
                   help="pause before an AI seat acts (default 0.6)")
    p.add_argument("--auto-delay", type=_seconds, default=1.0, metavar="S",
                   help="pause before auto-play (托管) acts for a player's seat (default 1)")
    p.add_argument("--seat-grace", type=_seconds, default=60.0, metavar="S",
                   help="seconds a player who dropped between hands has to come back before "
                        "auto-play takes the seat over so the next hand can start "
                        "(0 = wait for ever; default 60)")
    p.add_argument("--hands", type=int, default=None, metavar="N",
                   help="stop after N hands (default: run until interrupted)")
    p.add_argument("--rule", action="append", type=rule_arg, default=[], metavar="NAME=VALUE",
                   help="a house rule for the table, NAME=VALUE (repeatable; RULES.md \"Options\"): "
                        "kitty_to_dealer_always=true|false (default false), base_score=N (N >= 1, "
                        "default 2), failed_throw_penalty=N (N >= 0, default 0). Joining players "
                        "play by the same rules. Without --rule a windowed host uses the house "
                        "rules saved from the new-game screen, a headless one the defaults")
    p.add_argument("--stake", type=int, default=0, metavar="N",
                   help="coins per game point at this table (红五 only; default 0: no coins). "
                        "The host clamps each player's coins to ±20,000,000 a hand and "
                        "±80,000,000 a day (its local calendar day), per player name, keeps "
                        "them in its journal, and refuses readiness to a player at the daily "
                        "cap (RULES.md §12)")
    p.add_argument("--xray", action="store_true",
                   help="a learners' table: players who turn X-ray on see the AI seats' "
                        "reasoning (the candidates each AI weighed, cards of its own hand among "
                        "them, sent after its decision). Off by default; everyone at the table "
                        "sees it is on; not with --stake (PROTOCOL.md section 7)")
    p.add_argument("--resume", action="store_true",
                   help="restore the tables of the journal (after a crash or kill: every "
                        "table, its seats and the hand in progress exactly where it was; "
                        "players come back with their tokens, which are then replaced); "
                        "the table options of this command are then ignored")
    p.add_argument("--journal", default=None, metavar="FILE",
                   help="the SQLite file the host records its tables in as it plays "
                        "(default: lan_host-PORT.sqlite3 in the state dir, $HONGWU_STATE_DIR)")
    p.add_argument("--no-journal", action="store_true",
                   help="record nothing (a restarted host cannot resume)")
    p.add_argument("--max-frames", type=int, default=None, help=argparse.SUPPRESS)
    p.add_argument("--verbose", "-v", action="store_true", help="log connections and hands")
    _add_ai_options(p)
    _add_client_ui_options(p)
    p.set_defaults(func=_capturing(run_host), client_hooks=hooks)
    return p


def host_rules(ns: argparse.Namespace) -> dict[str, Any]:
    """The house rules ``{RuleOptions name: value}`` (RULES.md "Options") of a table hosted
    with parsed ``host`` arguments: the ``--rule`` values when any is given; otherwise, for a
    windowed host, those saved from the client's new-game screen
    (``ClientHooks.saved_house_rules``), and for a ``--headless`` host none (the engine's
    defaults)."""
    given = dict(getattr(ns, "rule", None) or [])
    hooks = _hooks(ns)
    if given or getattr(ns, "headless", False) or hooks is None:
        return given
    return dict(hooks.saved_house_rules())


def house_rules_line(options: Any) -> str | None:
    """``"house rules: base_score=3, ..."`` for the options of ``options`` (a ``{RuleOptions
    name: value}`` map, e.g. a wire ``Table.options``) that differ from the engine's defaults,
    or None when all are the defaults (RULES.md "Options")."""
    from dataclasses import fields

    from engine.ruleset import RuleOptions

    if not isinstance(options, dict):
        return None
    changed = [f"{f.name}={str(options[f.name]).lower()}" for f in fields(RuleOptions)
               if f.name in options and options[f.name] != f.default]
    return "house rules: " + ", ".join(changed) if changed else None


def host_config(ns: argparse.Namespace) -> Any:
    """The :class:`~net.server.ServerConfig` for parsed ``host`` arguments (the table's
    ``options`` from :func:`host_rules`)."""
    from .server import ServerConfig, TableConfig, Timers
    from .zpy_deal import deal_card_s

    zpy = getattr(ns, "ruleset", "hongwu") == "zhaopengyou"
    table = TableConfig(
        name=ns.name, decks=3 if zpy else ns.decks, seed=ns.seed,
        options=dict(getattr(ns, "option", None) or []) if zpy else host_rules(ns),
        ruleset="zhaopengyou" if zpy else "hongwu",
        timers=Timers(bid=ns.timer_bid, trump=ns.timer_trump, bury=ns.timer_bury,
                      play=ns.timer_play, deal=getattr(ns, "timer_deal", 3.0),
                      call_friend=getattr(ns, "timer_call", 60.0),
                      counter=getattr(ns, "timer_counter", 10.0)),
        ai_delay_s=ns.ai_delay, auto_delay_s=ns.auto_delay, ai_budget_s=ns.ai_budget,
        deal_card_s=deal_card_s(getattr(ns, "speed", None), getattr(ns, "deal_pace", None)),
        fill_policy="seated" if ns.headless else "host", ai_seats=dict(ns.ai),
        max_hands=ns.hands, seat_grace_s=ns.seat_grace, stake=getattr(ns, "stake", 0) or 0,
        xray=bool(getattr(ns, "xray", False)))
    return ServerConfig(bind=ns.bind, port=ns.port, tables=[table])


class BackgroundHost:
    """A :class:`~net.server.Server` (plus its announcer) on its own event loop thread.

    ``start()`` returns the bound port or raises what binding raised, and sets ``addresses``
    (the server's ``HOST:PORT`` texts players can join at); ``stop()`` shuts all down
    (idempotent). ``server`` is only to be touched from the loop thread
    (``call(fn)`` runs ``fn()`` there and returns its result).
    """

    def __init__(self, config: Any, ai: Any, announce: Sequence[str] | None,
                 announce_port: int = DISCOVERY_PORT, journal: Any = None) -> None:
        from .server import Server

        self.server = Server(config, ai, journal=journal)
        self.journal = journal
        self.announce = announce
        self.announce_port = announce_port
        self.announcer: Any = None
        self.addresses: list[str] = []
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="hongwu-host",
                                       daemon=True)

    def start(self) -> int:
        """Start listening (and announcing); returns the TCP port."""
        self.thread.start()
        return asyncio.run_coroutine_threadsafe(self._start(), self.loop).result(10)

    async def _start(self) -> int:
        from .addresses import announce_source
        from .discovery import Announcer, encode_announcement

        port = await self.server.start()
        self.addresses = list(self.server.addresses)
        source = announce_source(self.server.bound)
        if self.announce and source is None:
            log.info("not announcing: no IPv4 listener (bound to %s)", self.server.bound)
        elif self.announce:
            srv = self.server
            self.announcer = Announcer(
                lambda: encode_announcement(srv.rooms[0].name, port,
                                            [r.summary() for r in srv.rooms]),
                self.announce, self.announce_port, source=source)
            await self.announcer.start()
        return port

    def resumed_seat_token(self, seat: int) -> str | None:
        """A token for the host's own player at ``seat`` of the first table when that seat
        was restored from the journal (``--resume``) and waits for its player; else None
        (the player then sits as usual)."""
        def issue() -> str | None:
            room = self.server.rooms[0]
            return None if room.journal is None else room.journal.local_token(room, seat)
        return self.call(issue)

    def call(self, fn: Any) -> Any:
        """Run ``fn()`` in the loop thread; return its result."""
        async def _call() -> Any:
            return fn()
        return asyncio.run_coroutine_threadsafe(_call(), self.loop).result(10)

    def close(self) -> None:
        """Same as :meth:`stop` (so the client's ``App.start_remote(table, lan)`` can close it)."""
        self.stop()

    def stop(self) -> None:
        """Stop the server and the loop."""
        if not self.loop.is_running():
            return

        async def _stop() -> None:
            if self.announcer is not None:
                await self.announcer.close()
            await self.server.close()

        try:
            asyncio.run_coroutine_threadsafe(_stop(), self.loop).result(10)
        except Exception:  # pragma: no cover
            log.exception("host shutdown failed")
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)
        if self.journal is not None:
            self.journal.close()


def _ai_provider(ns: argparse.Namespace) -> Any:
    from .ai import AIProvider

    return AIProvider(plugin_dirs=ns.plugin_dir, user_plugins=not ns.no_user_plugins)


def run_host(ns: argparse.Namespace) -> int:
    """Entry point of ``hongwu host``; returns the exit code."""
    _setup_logging(ns.verbose)
    if ns.hands is not None and ns.hands < 1:
        print("hongwu host: --hands must be at least 1", file=sys.stderr)
        return 2
    zpy = getattr(ns, "ruleset", "hongwu") == "zhaopengyou"
    if zpy and ns.rule:
        print("hongwu host: --rule sets 红五 house rules; use --option NAME=VALUE with "
              "--ruleset zhaopengyou", file=sys.stderr)
        return 2
    if not zpy and getattr(ns, "option", None):
        print("hongwu host: --option is for --ruleset zhaopengyou", file=sys.stderr)
        return 2
    if getattr(ns, "stake", 0) < 0:
        print("hongwu host: --stake is coins per game point, 0 or more", file=sys.stderr)
        return 2
    if getattr(ns, "xray", False) and getattr(ns, "stake", 0):
        print("hongwu host: --xray shows the AI seats' candidate cards: not at a table played for "
              "coins (--stake)", file=sys.stderr)
        return 2
    if zpy and getattr(ns, "stake", 0):
        print("hongwu host: --stake is for 红五 tables: 找朋友 has no coins (RULES.md §12 "
              "defines them for 红五 only)", file=sys.stderr)
        return 2
    from engine.ruleset import hongwu, zhaopengyou

    seats = (zhaopengyou() if zpy else hongwu()).players
    if any(seat >= seats for seat, _ in ns.ai) or ns.seat >= seats:
        print(f"hongwu host: this table has seats 0..{seats - 1}", file=sys.stderr)
        return 2
    hooks = _hooks(ns)
    if not ns.headless and hooks is None:
        return _no_window("host")
    if zpy and not ns.headless and not getattr(hooks, "plays_zhaopengyou", False):
        print("hongwu host: 找朋友 (--ruleset zhaopengyou) has no table window yet: add "
              "--headless (and --ai SEAT=AI for the seats nobody joins)", file=sys.stderr)
        return 2
    announce = announce_targets(ns.bind, ns.announce, ns.no_discovery)
    config = host_config(ns)
    journal, code = open_journal(ns)  # 红五 and 找朋友 tables alike (net/journal.py)
    if code:
        return code
    if journal is not None and ns.resume and not ns.port and journal.port:
        config.port = journal.port  # --port 0 the first time: come back where it was
    host = BackgroundHost(config, _ai_provider(ns), announce, ns.announce_port, journal)
    try:  # Ctrl-C at any point from here on: a short message, the host stopped, status 130
        try:
            port = host.start()
        except OSError as exc:
            print(f"hongwu host: cannot listen on {ns.bind}:{ns.port}: {exc}", file=sys.stderr)
            return 1
        if announce is None or host.announcer is None:  # off, or no IPv4 address to announce
            where = ""
        elif announce == ["127.0.0.1"] and not ns.announce:
            where = " (announced on this machine only)"
        else:
            where = " (announced on the LAN)"
        print(f"hosting '{ns.name}' on {ns.bind}:{port}{where}", flush=True)
        print(f"listening on {ns.bind}:{port}", flush=True)  # machine-readable: scripts, tests
        print(join_hint(host.addresses), flush=True)
        if journal is not None:
            host.call(lambda: journal.record_port(port))
            _report_journal(host, journal)
        rules = house_rules_line(config.tables[0].options)
        if rules:
            print(rules, flush=True)
        if ns.headless:
            from .server import settle_heap

            settle_heap()  # a dedicated host: keep garbage-collector pauses short
            print(f"host key (host rights in hello): {host.server.host_key}", flush=True)
            return _wait_headless(host, ns.hands, address=host.addresses[0])
        print("the window opens in the LAN lobby: add AIs or wait for players, then Ready",
              flush=True)
        return hooks.host_window(host, port, ns)
    except KeyboardInterrupt:
        print("hongwu host: interrupted, stopping", file=sys.stderr, flush=True)
        return EXIT_INTERRUPTED
    finally:
        host.stop()


def _report_journal(host: BackgroundHost, journal: Any) -> None:
    """Print where the journal is and what ``--resume`` restored."""
    from .journal import describe

    if journal.resume and journal.restored:
        print(f"resumed {journal.restored} table(s) from {journal.path}; players come back "
              f"with their tokens (each gets a new one)", flush=True)
        for line in host.call(lambda: describe(host.server.rooms)):
            print(f"  {line}", flush=True)
    elif journal.resume:
        print(f"nothing to resume in {journal.path}: new tables", flush=True)
    else:
        print(f"journal: {journal.path} (restart with --resume to restore the tables)",
              flush=True)
        if journal.previous is not None:
            print(f"  the tables of the earlier run there are kept in {journal.previous}",
                  flush=True)


def seat_changes(before: Sequence[tuple[Any, ...]] | None,
                 after: Sequence[tuple[Any, ...]]) -> list[str]:
    """Console lines for what changed between two polls of the seats, each seat given as
    ``(kind, name, connected, resumes, stand_in)``: ``seat 2 resumed by Ann``,
    ``seat 2 (Ann) disconnected``, ``seat 2 (Ann) auto-played until they come back``..."""
    out = []
    for i, now in enumerate(after):
        old = before[i] if before is not None else ("empty", None, False, 0, False)
        kind, name, connected, resumes, stand_in = now
        if kind != "human":
            if kind != old[0]:
                out.append(f"seat {i}: {'empty' if kind == 'empty' else name}")
            continue
        if old[0] != "human" or (name != old[1] and resumes == old[3]):
            out.append(f"seat {i}: {name} joined")
        if resumes > old[3]:
            out.append(f"seat {i} resumed by {name}")
        elif old[0] == "human" and old[2] and not connected:
            out.append(f"seat {i} ({name}) disconnected")
        if stand_in and not old[4]:
            out.append(f"seat {i} ({name}) auto-played until they come back")
    return out


LAST_HAND_LINGER_S = 1.0
"""After the last hand of ``hongwu host --headless --hands N``, how long the host waits at most
for the connected players to leave before it closes (seconds)."""


def _wait_headless(host: BackgroundHost, hands: int | None, poll: float = 0.1, *,
                   address: str = "HOST:PORT") -> int:
    """Print the table's progress (hands, seats joining, dropping, resuming) until ``hands``
    hands have been played (for ever with None), then give the players up to
    :data:`LAST_HAND_LINGER_S` to leave; returns the exit code.

    Until the first hand starts it says which seats are missing and how to fill them
    (players joining at ``address``, ``--fill`` / ``--ai SEAT=AI``), again whenever that
    changes."""
    room = host.server.rooms[0]

    def look() -> tuple[Any, ...]:
        seats = tuple((s.kind, s.name, s.session is not None, s.resumes, s.stand_in)
                      for s in room.seats)
        match = room.match_wire() if hasattr(room, "match_wire") else None  # 找朋友 tables
        coins_seen.clear()  # staked tables: the room keeps the last 16 hands' coins
        coins_seen.update(getattr(room, "coins_by_hand", {}))
        return room.hand_no, room.in_hand, seats, [s.to_wire() for s in room.seats], match

    coins_seen: dict[int, list[int]] = {}  # hand -> the coins of a staked table
    capped_said: set[tuple[str, str]] = set()

    # hands reported so far (none is skipped, however short); a resumed table's earlier ones
    # were reported by the host that ran them
    journal = getattr(host, "journal", None)
    started = settled = 0
    if journal is not None and journal.restored and journal.resumed_at:
        started, in_hand = journal.resumed_at[0]
        settled = started - (1 if in_hand else 0)
    last_seats = None
    _, _, _, wire, _ = host.call(look)
    print(f"waiting for players; seats: {', '.join(s['kind'] for s in wire)}", flush=True)
    last_missing = missing_seats(wire)
    for line in host_waiting_lines(wire, address):
        print(line, flush=True)
    while True:
        hand_no, in_hand, seats, wire, match = host.call(look)
        for line in seat_changes(last_seats, seats):
            print(line, flush=True)
        last_seats = seats
        if hand_no == 0:
            missing = missing_seats(wire)
            if missing != last_missing and missing:
                print(f"waiting for: {', '.join(missing)}", flush=True)
            last_missing = missing
        done = hand_no - (1 if in_hand else 0)
        while started < hand_no or settled < done:
            if settled < started and settled < done:
                settled += 1
                print(f"hand {settled} settled", flush=True)
                if settled in coins_seen:
                    coins = coins_seen[settled]
                    print(f"coins after hand {settled}: [{','.join(f'{c:+,}' for c in coins)}]",
                          flush=True)
                if match is not None and match["hand_no"] == settled:
                    names = {11: "J", 12: "Q", 13: "K", 14: "A"}
                    levels = " ".join(names.get(v, str(v)) for v in match["levels"])
                    over = (f", game over: seat {', '.join(map(str, match['winners']))} won"
                            if match["game_over"] else "")
                    print(f"levels after hand {settled}: {levels}{over}", flush=True)
            else:
                started += 1
                print(f"hand {started} in play; seats: {', '.join(s[0] for s in seats)}",
                      flush=True)
        for s in wire:
            if s.get("capped") and (s.get("name"), s["capped"]) not in capped_said:
                capped_said.add((s.get("name"), s["capped"]))
                print(f"seat {s['seat']} ({s.get('name')}) is at the daily coin cap until "
                      f"{s['capped']}: no staked hand until then while seated", flush=True)
        if hands is not None and done >= hands:
            # let the players read the last settlement and leave before the host closes their
            # connections (closing first could reset a connection with the settlement unread)
            linger_end = time.monotonic() + LAST_HAND_LINGER_S
            while time.monotonic() < linger_end and any(
                    kind == "human" and connected for kind, _n, connected, *_r in host.call(look)[2]):
                time.sleep(poll)
            return 0
        time.sleep(poll)


# ============================================================================ join
def add_join_parser(subparsers: Any, hooks: ClientHooks | None = None) -> argparse.ArgumentParser:
    """Register ``hongwu join`` on ``subparsers``; without ``hooks`` (no client) only
    ``--headless`` runs."""
    p = subparsers.add_parser(
        "join", help="join a LAN table",
        description="Join a Hong Wu table hosted with 'hongwu host'.")
    p.add_argument("address", nargs="?", default=None, metavar="HOST[:PORT]",
                   help=f"the host (default port {DEFAULT_PORT}); omitted: find one on the LAN")
    p.add_argument("--name", type=_name, default=None, help="your name at the table")
    p.add_argument("--seat", type=int, choices=range(5), default=None,
                   help="preferred seat (0..3; 找朋友 0..4)")
    p.add_argument("--observe", action="store_true", help="watch without a seat")
    p.add_argument("--table", default=None, help="table name on a host with several")
    p.add_argument("--token", default=None, help="reconnect token (resume your seat)")
    p.add_argument("--fresh", action="store_true", help="ignore a saved reconnect token")
    p.add_argument("--host-key", default=None, help="host key printed by a headless host")
    p.add_argument("--headless", action="store_true",
                   help="no window: an AI plays your seat and results are printed")
    p.add_argument("--ai", default=None, metavar="NAME",
                   help="AI for --headless (default basic)")
    p.add_argument("--think", type=_seconds, default=0.0, metavar="S",
                   help="with --headless: pause before each move (default 0)")
    p.add_argument("--seed", type=int, default=None, metavar="N",
                   help="with --headless: seed of the AI playing the seat (reproducible play)")
    p.add_argument("--reconnect", type=_seconds, default=120.0, metavar="S",
                   help="with --headless: when the connection is lost (e.g. the host restarts "
                        "with --resume), keep trying to get the seat back for S seconds, "
                        "waiting 0.25 s, 0.5 s, ... up to 5 s between tries (0 = do not "
                        "reconnect; default 120)")
    p.add_argument("--fill", action="append", default=[], type=_ai_seat, metavar="SEAT=AI",
                   help="fill an empty seat with a host AI first (needs rights; repeatable)")
    p.add_argument("--hands", type=int, default=None, metavar="N",
                   help="leave after N hands (default: stay until the host closes)")
    p.add_argument("--wait", type=_seconds, default=600.0, metavar="S",
                   help="with --headless: give up (exit 1) when no hand has started after S "
                        "seconds, e.g. because seats are still empty; once a hand has started "
                        "there is no limit (0 = wait for ever; default 600)")
    p.add_argument("--discover-timeout", type=_seconds, default=2.5, metavar="S",
                   help="seconds to listen for hosts when HOST is omitted")
    p.add_argument("--discovery-port", type=int, default=DISCOVERY_PORT, metavar="N",
                   help=argparse.SUPPRESS)
    p.add_argument("--max-frames", type=int, default=None, help=argparse.SUPPRESS)
    p.add_argument("--verbose", "-v", action="store_true", help="log network activity")
    _add_ai_options(p)
    _add_client_ui_options(p)
    p.set_defaults(func=_capturing(run_join), client_hooks=hooks)
    return p


def _find_host(ns: argparse.Namespace) -> tuple[str, int] | None:
    from .discovery import discover

    print(f"looking for tables on the LAN ({ns.discover_timeout:g} s)...", flush=True)
    try:
        found = asyncio.run(discover(ns.discover_timeout, port=ns.discovery_port))
    except OSError as exc:
        print(f"hongwu join: cannot listen for announcements: {exc}", file=sys.stderr)
        return None
    if ns.table:
        found = [f for f in found if any(t.get("name") == ns.table for t in f.tables)]
    for f in found:
        print(f"  {f.describe()}", flush=True)
    if not found:
        print("hongwu join: no table found; give HOST[:PORT]", file=sys.stderr)
        return None
    return found[0].address, found[0].port


EXIT_INTERRUPTED = 130
"""Exit status after Ctrl-C (as ``hongwu play``: 128 + SIGINT)."""


def run_join(ns: argparse.Namespace) -> int:
    """Entry point of ``hongwu join``; returns the exit code."""
    _setup_logging(ns.verbose)
    if ns.hands is not None and ns.hands < 1:
        print("hongwu join: --hands must be at least 1", file=sys.stderr)
        return 2
    hooks = _hooks(ns)
    if not ns.headless and hooks is None:
        return _no_window("join")
    if ns.address is None:
        found = _find_host(ns)
        if found is None:
            return 1
        host, port = found
    else:
        try:
            host, port = parse_address(ns.address)
        except argparse.ArgumentTypeError as exc:
            print(f"hongwu join: {exc}", file=sys.stderr)
            return 2
    name = ns.name or os.environ.get("USER") or "player"
    key = f"{host}:{port}/{ns.table or ''}/{name}"
    token = ns.token or (None if (ns.fresh or ns.observe) else load_token(key))
    try:
        if ns.headless:
            return asyncio.run(_join_headless(ns, host, port, name, token, key))
        return _join_window(ns, host, port, name, token, key, hooks)
    except KeyboardInterrupt:  # the seat stays ours: the same command resumes it
        print("hongwu join: interrupted; run the same command again to resume the seat",
              file=sys.stderr, flush=True)
        return EXIT_INTERRUPTED


async def _join_headless(ns: argparse.Namespace, host: str, port: int, name: str,
                         token: str | None, key: str) -> int:
    from .ai import AIProvider
    from .bot import Bot, NoHandStarted
    from .client import Client, ConnectionClosed, RemoteError, should_reconnect
    from .zpy_log import ZpyHandLog, seat_names

    async def hello(tok: str | None) -> Client:
        client = await Client.connect(host, port)
        try:
            await client.hello(name, token=tok, seat=ns.seat, observer=ns.observe,
                               table=ns.table, host_key=ns.host_key,
                               title=getattr(ns, "career_title", None))  # hongwu join --profile
        except BaseException:
            await client.close()
            raise
        return client

    try:
        try:
            client = await hello(token)
        except RemoteError as exc:
            if token is None or exc.name != "BAD_TOKEN":
                raise
            client = await hello(None)
    except (OSError, asyncio.TimeoutError) as exc:
        print(f"hongwu join: cannot reach {host}:{port}: {exc}", file=sys.stderr)
        return 1
    except RemoteError as exc:
        print(f"hongwu join: refused: {exc}", file=sys.stderr)
        return 1
    welcome = client.welcome or {}
    seat = welcome.get("seat")
    if seat is not None:
        save_token(key, welcome.get("token"))
    print(f"joined {host}:{port} as {name}: "
          f"{'seat ' + str(seat) if seat is not None else 'observer'}", flush=True)
    if welcome.get("resumed"):
        print(f"seat {seat} resumed", flush=True)
    rules = house_rules_line(((welcome.get("snapshot") or {}).get("table") or {}).get("options"))
    if rules:
        print(rules, flush=True)
    for fill_seat, ai in ns.fill:
        try:
            await client.call("fill", seat=fill_seat, ai=ai)
        except RemoteError as exc:
            print(f"fill {fill_seat}={ai}: {exc}", file=sys.stderr)
    provider = AIProvider(plugin_dirs=ns.plugin_dir, user_plugins=not ns.no_user_plugins)
    ai_name = ns.ai or provider.default_name()
    player = provider.make(ai_name, seat if seat is not None else 0, ns.ai_budget,
                           seed=ns.seed)
    table = dict((welcome.get("snapshot") or {}).get("table") or {})
    can_fill = bool(welcome.get("host")) or (
        table.get("fill") in ("seated", "anyone") and seat is not None)
    shown: dict[str, Any] = {"missing": None, "started": bool(table.get("in_hand"))}

    def report_missing(prefix: str) -> None:
        """Print who keeps the first hand from starting (when that changed)."""
        if shown["started"]:
            return
        missing = missing_seats(table.get("seats") or [], skip=seat)
        if missing and missing != shown["missing"]:
            print(f"{prefix}{', '.join(missing)}", flush=True)
            if shown["missing"] is None and _empty_seats(table.get("seats") or [], seat):
                print(_fill_tip(table.get("seats") or [], seat, can_fill), flush=True)
        shown["missing"] = missing

    if ns.fill:  # the seats changed: drop the table updates they caused and look again
        while not client.notifications.empty():  # (the bot starts from a snapshot too)
            client.notifications.get_nowait()
        try:
            table = dict((await client.call("snapshot"))["table"])
        except Exception as exc:  # the bot below meets a lost connection too
            log.info("snapshot after --fill failed: %r", exc)
    report_missing("waiting for the first hand; missing: ")

    hooks = _hooks(ns)
    record = getattr(hooks, "zpy_hand_settled", None) if seat is not None else None
    zpy_log = ZpyHandLog() if record is not None else None  # 找朋友: this seat's events, to record its hands
    table_key = f"{host}:{port}/{ns.table or table.get('name') or ''}"
    if getattr(ns, "profile", None) and table.get("ruleset") != "zhaopengyou":
        print("hongwu join: --headless records 找朋友 hands only: this 红五 table's hands are not recorded "
              "(join with the window to record them)", file=sys.stderr, flush=True)

    def keep_zpy(method: str, params: dict[str, Any]) -> None:
        """Log a 找朋友 table's events; hand a settled hand, rebuilt, to the client's recorder."""
        if zpy_log is None or table.get("ruleset") != "zhaopengyou" or method not in ("event", "view"):
            return
        zpy_log.feed(method, params, seat)
        if method == "event" and params["event"].get("kind") == "hand_settled":
            hand = zpy_log.rebuilt()
            if hand is None:
                print(f"hongwu join: hand {params['hand_no']} not recorded: {zpy_log.problem}", file=sys.stderr,
                      flush=True)
                return
            try:
                assert record is not None and seat is not None
                record(ns, hand, seat_names(table.get("seats") or [], len(hand.levels)), seat, table_key)
            except Exception as exc:  # e.g. a full disk: the game goes on
                log.exception("recording the 找朋友 hand failed")
                print(f"hongwu join: hand {params['hand_no']} not recorded: {exc}", file=sys.stderr, flush=True)

    def show(method: str, params: dict[str, Any]) -> None:
        keep_zpy(method, params)
        if method == "event" and params["event"]["kind"] == "hand_settled":
            print(result_line(params["hand_no"], params["event"]["settlement"]), flush=True)
            if (params["event"]["settlement"] or {}).get("game_over"):  # 找朋友: no further hand
                print("the game is over: the host deals no further hand", flush=True)
                bot.stop()
            coins = params["event"]["settlement"].get("coins")  # a staked table (RULES.md §12)
            if isinstance(coins, list):
                print(f"coins after hand {params['hand_no']}: [{','.join(f'{c:+,}' for c in coins)}]",
                      flush=True)
        elif method == "table":
            table.clear()
            table.update(params["table"])
            if table.get("in_hand"):
                shown["started"] = True
            report_missing("waiting for the first hand; missing: ")
        elif method == "auto":
            print(f"auto-play {'on' if params['on'] else 'off'} for seat {params['seat']} "
                  f"({params['reason']})", flush=True)
        elif method == "chat":
            print(f"{params['name']}: {params['text']}", flush=True)

    bot = Bot(client, player, hands=ns.hands, on_message=show, think=ns.think)
    try:
        while True:
            try:
                await bot.run(timeout=None, start_timeout=ns.wait or None)
                break
            except ConnectionClosed:
                if not ns.reconnect or not should_reconnect(client.goodbye):
                    raise
            token = welcome.get("token")
            client = await _reconnect_headless(ns, host, port, name, token, key)
            if client is None:
                return 1
            welcome = client.welcome or {}
            bot.attach(client)
    except NoHandStarted:
        missing = missing_seats(table.get("seats") or [], skip=seat)
        print(f"hongwu join: no hand started within {ns.wait:g} s (--wait)"
              f"{'; missing: ' + ', '.join(missing) if missing else ''}", file=sys.stderr)
        return 1
    except asyncio.TimeoutError:
        print("hongwu join: gave up waiting", file=sys.stderr)
        return 1
    except Exception as exc:  # ConnectionClosed and friends
        if (client.goodbye or {}).get("name") == "SHUTDOWN":
            print(f"the host closed the table after {bot.hands_done} hand(s) here", flush=True)
            return 0
        print(f"hongwu join: {exc}", file=sys.stderr)
        return 1
    finally:
        await client.bye()
    return 0


async def _reconnect_headless(ns: argparse.Namespace, host: str, port: int, name: str,
                              token: str | None, key: str) -> Any:
    """After a lost connection: get the seat back with ``token`` (observers: watch again),
    retrying with backoff for ``--reconnect`` seconds, each try printed. Returns the new
    :class:`~net.client.Client` (its new token saved), or None after printing why not."""
    from .client import Backoff, RemoteError, reconnect

    print(f"connection to {host}:{port} lost; reconnecting for up to {ns.reconnect:g} s",
          flush=True)

    def attempt(n: int, delay: float, error: BaseException | None) -> None:
        if error is not None:
            print(f"  try {n - 1} failed ({type(error).__name__}: {error}); "
                  f"next in {delay:.2f} s", flush=True)

    try:
        client = await reconnect(host, port, name, token=token,
                                 backoff=Backoff(total=ns.reconnect), on_attempt=attempt,
                                 observer=ns.observe and token is None, table=ns.table,
                                 host_key=ns.host_key)
    except RemoteError as exc:
        print(f"hongwu join: the host refused the reconnect: {exc}", file=sys.stderr)
        return None
    except ConnectionError as exc:
        print(f"hongwu join: {exc}", file=sys.stderr)
        return None
    welcome = client.welcome or {}
    seat = welcome.get("seat")
    if seat is not None:
        save_token(key, welcome.get("token"))
        print(f"reconnected to {host}:{port}: seat {seat} "
              f"{'resumed' if welcome.get('resumed') else 'taken'}", flush=True)
    else:
        print(f"reconnected to {host}:{port}: watching", flush=True)
    return client


def _fill_tip(seats: Sequence[Any], seat: int | None, can_fill: bool) -> str:
    """How a joining player gets the empty seats filled with AIs: ``--fill`` on the join
    command when the table lets seated players fill, else only the host (``--ai`` or its lobby)."""
    empty = _empty_seats(seats, skip=seat)
    at_host = f"start the host with {fill_options('--ai', empty)}"
    if can_fill:
        return (f"  to seat AIs there, add {fill_options('--fill', empty)} to this command, "
                f"or {at_host}")
    return f"  only the host may seat AIs at this table: from its lobby, or {at_host}"


def _join_window(ns: argparse.Namespace, host: str, port: int, name: str,
                 token: str | None, key: str, hooks: ClientHooks) -> int:
    from .client import RemoteError
    from .remote_table import RemoteTable

    def keep(tok: str) -> None:  # every Welcome's token: a restarted host gives a new one
        save_token(key, tok)

    def connect(tok: str | None) -> RemoteTable:
        return RemoteTable(host, port, name, token=tok, seat=ns.seat, observer=ns.observe,
                           table=ns.table, host_key=ns.host_key,
                           on_token=None if ns.observe else keep,
                           title=getattr(ns, "career_title", None))  # hongwu join --profile

    try:
        try:
            table = connect(token)
        except RemoteError as exc:
            if token is None or exc.name != "BAD_TOKEN":
                raise
            table = connect(None)
    except (OSError, TimeoutError) as exc:
        print(f"hongwu join: cannot reach {host}:{port}: {exc}", file=sys.stderr)
        return 1
    except RemoteError as exc:
        print(f"hongwu join: refused: {exc}", file=sys.stderr)
        return 1
    for fill_seat, ai in ns.fill:
        err = table.fill(fill_seat, ai)
        if err:
            print(f"fill {fill_seat}={ai}: {err}", file=sys.stderr)
    print(f"joined {table.host}:{table.port} as {table.name}: "
          f"{'seat ' + str(table.seat) if table.seat is not None else 'observer'}; "
          f"the window opens in the LAN lobby until the first hand", flush=True)
    return hooks.join_window(table, ns)
