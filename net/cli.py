"""``hongwu host`` and ``hongwu join``: LAN play from the command line.

``hongwu host`` runs the authoritative server (:mod:`net.server`) and, unless ``--headless``,
opens the pygame client connected to it over loopback with host rights, in the LAN lobby
(fill seats with AIs, ready): the client lends the window through :class:`ClientHooks`
(:mod:`game.lan_cli`), this package imports nothing from ``game``. It prints ``listening on
ADDR:PORT`` once bound and the ``hongwu join`` command to reach it; headless it says which
seats keep the first hand from starting and the exact options that fill them, reports hands and seats (``seat 2 resumed by
Ann``...) and stops after ``--hands``. ``hongwu join [HOST[:PORT]]`` opens the client connected
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
    ``--rule`` (``{RuleOptions name: value}``).
    """

    host_window: Callable[["BackgroundHost", int, argparse.Namespace], int]
    join_window: Callable[[Any, argparse.Namespace], int]
    saved_house_rules: Callable[[], dict[str, Any]]


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
    if not sep or not seat.strip().isdigit() or not 0 <= int(seat) <= 3 or not name.strip():
        raise argparse.ArgumentTypeError("use SEAT=AI, e.g. 1=basic (seats 0..3)")
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
    lines = ["a hand starts when all 4 seats are taken and every player is ready; "
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

    return play_result_line(hand_no, settlement_in(settlement))


def token_file() -> Path:
    """Where reconnect tokens are kept between runs: ``$HONGWU_STATE_DIR`` if set, else the
    platformdirs user state dir."""
    import platformdirs

    base = os.environ.get("HONGWU_STATE_DIR") or platformdirs.user_state_dir("hongwu")
    return Path(base) / "lan_tokens.json"


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
    p.add_argument("--decks", type=int, choices=(2, 3), default=2, help="number of decks")
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
    p.add_argument("--seat", type=int, choices=range(4), default=0, help="your seat")
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

    table = TableConfig(
        name=ns.name, decks=ns.decks, seed=ns.seed, options=host_rules(ns),
        timers=Timers(bid=ns.timer_bid, trump=ns.timer_trump, bury=ns.timer_bury,
                      play=ns.timer_play),
        ai_delay_s=ns.ai_delay, auto_delay_s=ns.auto_delay, ai_budget_s=ns.ai_budget,
        fill_policy="seated" if ns.headless else "host", ai_seats=dict(ns.ai),
        max_hands=ns.hands, seat_grace_s=ns.seat_grace)
    return ServerConfig(bind=ns.bind, port=ns.port, tables=[table])


class BackgroundHost:
    """A :class:`~net.server.Server` (plus its announcer) on its own event loop thread.

    ``start()`` returns the bound port or raises what binding raised, and sets ``addresses``
    (the server's ``HOST:PORT`` texts players can join at); ``stop()`` shuts all down
    (idempotent). ``server`` is only to be touched from the loop thread
    (``call(fn)`` runs ``fn()`` there and returns its result).
    """

    def __init__(self, config: Any, ai: Any, announce: Sequence[str] | None,
                 announce_port: int = DISCOVERY_PORT) -> None:
        from .server import Server

        self.server = Server(config, ai)
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


def _ai_provider(ns: argparse.Namespace) -> Any:
    from .ai import AIProvider

    return AIProvider(plugin_dirs=ns.plugin_dir, user_plugins=not ns.no_user_plugins)


def run_host(ns: argparse.Namespace) -> int:
    """Entry point of ``hongwu host``; returns the exit code."""
    _setup_logging(ns.verbose)
    if ns.hands is not None and ns.hands < 1:
        print("hongwu host: --hands must be at least 1", file=sys.stderr)
        return 2
    hooks = _hooks(ns)
    if not ns.headless and hooks is None:
        return _no_window("host")
    announce = announce_targets(ns.bind, ns.announce, ns.no_discovery)
    config = host_config(ns)
    host = BackgroundHost(config, _ai_provider(ns), announce, ns.announce_port)
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


def _wait_headless(host: BackgroundHost, hands: int | None, poll: float = 0.1, *,
                   address: str = "HOST:PORT") -> int:
    """Print the table's progress (hands, seats joining, dropping, resuming) until ``hands``
    hands have been played (for ever with None); returns the exit code.

    Until the first hand starts it says which seats are missing and how to fill them
    (players joining at ``address``, ``--fill`` / ``--ai SEAT=AI``), again whenever that
    changes."""
    room = host.server.rooms[0]

    def look() -> tuple[Any, ...]:
        seats = tuple((s.kind, s.name, s.session is not None, s.resumes, s.stand_in)
                      for s in room.seats)
        return room.hand_no, room.in_hand, seats, [s.to_wire() for s in room.seats]

    started = settled = 0  # hands reported so far (none is skipped, however short)
    last_seats = None
    _, _, _, wire = host.call(look)
    print(f"waiting for players; seats: {', '.join(s['kind'] for s in wire)}", flush=True)
    last_missing = missing_seats(wire)
    for line in host_waiting_lines(wire, address):
        print(line, flush=True)
    while True:
        hand_no, in_hand, seats, wire = host.call(look)
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
            else:
                started += 1
                print(f"hand {started} in play; seats: {', '.join(s[0] for s in seats)}",
                      flush=True)
        if hands is not None and done >= hands:
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
    p.add_argument("--seat", type=int, choices=range(4), default=None, help="preferred seat")
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
    from .client import Client, RemoteError

    async def hello(tok: str | None) -> Client:
        client = await Client.connect(host, port)
        try:
            await client.hello(name, token=tok, seat=ns.seat, observer=ns.observe,
                               table=ns.table, host_key=ns.host_key)
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
    player = provider.make(ai_name, seat if seat is not None else 0, ns.ai_budget)
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

    def show(method: str, params: dict[str, Any]) -> None:
        if method == "event" and params["event"]["kind"] == "hand_settled":
            print(result_line(params["hand_no"], params["event"]["settlement"]), flush=True)
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
        await bot.run(timeout=None, start_timeout=ns.wait or None)
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

    def connect(tok: str | None) -> RemoteTable:
        return RemoteTable(host, port, name, token=tok, seat=ns.seat, observer=ns.observe,
                           table=ns.table, host_key=ns.host_key)

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
    if table.seat is not None:
        save_token(key, table.token)
    for fill_seat, ai in ns.fill:
        err = table.fill(fill_seat, ai)
        if err:
            print(f"fill {fill_seat}={ai}: {err}", file=sys.stderr)
    print(f"joined {table.host}:{table.port} as {table.name}: "
          f"{'seat ' + str(table.seat) if table.seat is not None else 'observer'}; "
          f"the window opens in the LAN lobby until the first hand", flush=True)
    return hooks.join_window(table, ns)
