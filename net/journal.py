"""The host's table journal: every table kept in one SQLite file, so a host killed mid-hand
comes back with ``hongwu host --resume`` (PROTOCOL.md section 10, "A host that comes back").

What is kept, per table (row ``idx`` = the table's place in ``Server.rooms``):

- ``tables``: the table's :class:`~net.server.TableConfig` (JSON: its ruleset, 红五 or 找朋友,
  and options), the hand number, the seed of the hand in progress, the table's random
  generator state (recorded whenever it moved: a deal, an AI seated, an auto-play player
  made; so later hands deal as they would have, unless an auto-play player has to be made
  again after the restart), the seat scores before that hand and, at a 找朋友 table, the
  ``match`` (JSON, :func:`net.journal_hands.match_out`: match seed, hand number, the levels,
  declaring right and first-card seat the hand was dealt with, the earlier hands'
  settlements; None at a 红五 table);
- ``seats``: kind, name, AI, auto-play state, stand-in / leaving flags and the SHA-256 of the
  reconnect token (never the token itself: a presented token is hashed and compared);
- ``actions``: every action of the hand in progress, in order (method, wire params, seat,
  and whether it was the host's time-out trump): at a 找朋友 table every declaration and pass
  of the deal's windows, the friend call, the counter round, the bury and the plays;
- ``coin_ledger``: the host's per-name daily coin ledger of staked tables (net/stakes.py),
  never cleared by a fresh start (additive: an older file gets the table when opened).

A hand is rebuilt by dealing it again (``Game.new(ruleset, seed, hand_no)``; at a 找朋友 table
the match's current hand, :meth:`engine.match.ZpyMatch.resume`) and applying the actions
through the engine (RULES.md §1, 找朋友 spec §1: a seed reproduces a deal; the engine is a pure
function of the actions), so the restored hand is exactly the one that was interrupted: the
same cards, the same declarations, the friend revealed or still hidden
(:mod:`net.journal_hands`).

Schema versions: 1 (红五 tables only) and 2 (adds ``tables.match``). A version-1 file is
migrated in place when opened (one added column, in one transaction: its tables resume as
before); a file written by a newer host is refused (:class:`JournalTooNew`) and left as it
is.

Durability: WAL journal mode with ``synchronous=NORMAL``, one transaction per action,
committed before the action's events are sent to anyone. A commit is in the operating
system's hands when :meth:`TableLog.action` returns, so it survives the host process being
killed (``kill -9``, a crash); a power cut or OS crash may lose the last few commits (never
the file's consistency). The file is opened in exclusive locking mode: a second host on the
same journal is refused (:class:`JournalBusy`).

A file that SQLite cannot read, that fails ``PRAGMA quick_check``, that has another schema or
whose records do not replay is **set aside** (renamed ``FILE.damaged-YYYYmmdd-HHMMSS``,
with its ``-wal``), reported in :attr:`Journal.problem`, and a fresh journal is started: it is
never silently emptied.

Example (the server's event loop)::

    journal = Journal.open(path, resume=True)
    server = Server(config, ai, journal=journal)
    await server.start()      # rooms restored from the file (or created and recorded)
"""
from __future__ import annotations

import dataclasses
import hashlib
import json
import logging
import secrets
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

from . import journal_hands
from .stakes import SCHEMA as STAKES_SCHEMA

log = logging.getLogger(__name__)

SCHEMA_VERSION = 2
"""Bumped when the tables below change. Older versions are migrated (:data:`MIGRATIONS`); a
newer version is refused (:class:`JournalTooNew`)."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS tables (
    idx INTEGER PRIMARY KEY, config TEXT NOT NULL, hand_no INTEGER NOT NULL DEFAULT 0,
    seed INTEGER, rng TEXT, scores_before TEXT, match TEXT);
CREATE TABLE IF NOT EXISTS seats (
    idx INTEGER NOT NULL, seat INTEGER NOT NULL, kind TEXT NOT NULL, name TEXT, ai TEXT,
    token_hash TEXT, score INTEGER NOT NULL DEFAULT 0, auto INTEGER NOT NULL DEFAULT 0,
    auto_reason TEXT, stand_in INTEGER NOT NULL DEFAULT 0, leaving INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (idx, seat));
CREATE TABLE IF NOT EXISTS actions (
    idx INTEGER NOT NULL, n INTEGER NOT NULL, seat INTEGER NOT NULL, method TEXT NOT NULL,
    params TEXT NOT NULL, timed_out INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (idx, n));
""" + STAKES_SCHEMA

MIGRATIONS: dict[int, tuple[str, ...]] = {
    1: ("ALTER TABLE tables ADD COLUMN match TEXT",),  # 2: 找朋友 tables keep their match
}
"""Version -> the statements that take a file of that version to the next one."""


class JournalError(Exception):
    """The journal cannot be used (message says why)."""


class JournalBusy(JournalError):
    """Another process holds the journal file (a second host on the same ``--journal``)."""


class JournalTooNew(JournalError):
    """The file was written by a newer host (a schema version this one does not know): it is
    left untouched and this host does not start on it (the message says what to do)."""


def token_hash(token: str) -> str:
    """SHA-256 (hex) of a reconnect token as UTF-8. Tokens are 144 random bits, so a plain
    hash suffices: the file never holds a token that takes a seat."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


# ============================================================================ records
@dataclass(frozen=True)
class SeatRecord:
    """One journaled seat (see the module docstring)."""

    seat: int
    kind: str
    name: str | None
    ai: str | None
    token_hash: str | None
    score: int
    auto: bool
    auto_reason: str | None
    stand_in: bool
    leaving: bool


@dataclass(frozen=True)
class ActionRecord:
    """One journaled action: ``n`` (0-based order in the hand), ``seat``, the request
    ``method`` and its wire ``params``, ``timed_out`` (the host's time-out ♠, RULES.md §3)."""

    n: int
    seat: int
    method: str
    params: dict[str, Any]
    timed_out: bool

    def engine_action(self) -> Any:
        """The engine action of either game (raises ``ProtocolError`` for params that name
        no card or an unknown method)."""
        return journal_hands.action_in(self.method, self.params, self.seat, self.timed_out)


@dataclass(frozen=True)
class TableRecord:
    """One journaled table: ``config`` (a ``TableConfig``), ``hand_no``, ``seed`` of the hand
    in progress (None before the first), ``rng`` state, ``scores_before`` that hand,
    ``seats`` and ``actions`` (tuples), ``match`` (找朋友: the map of
    :func:`net.journal_hands.match_out`; None at a 红五 table)."""

    idx: int
    config: Any
    hand_no: int
    seed: int | None
    rng: Any
    scores_before: tuple[int, ...] | None
    seats: tuple[SeatRecord, ...]
    actions: tuple[ActionRecord, ...]
    match: dict[str, Any] | None = None

    def rebuild(self, ruleset: Any) -> tuple[Any, Any]:
        """``(hand, match)`` rebuilt from the record (:func:`net.journal_hands.rebuild`):
        ``(None, None)`` before the first hand; ``match`` None at a 红五 table.

        Raises ``engine.state.IllegalAction`` / ``ProtocolError`` when an action does not
        replay, ValueError for a 找朋友 record without a matching match (a damaged journal)."""
        if self.seed is None or self.hand_no < 1:
            return None, None
        return journal_hands.rebuild(
            ruleset, self.seed, self.hand_no, self.match,
            ((a.method, a.params, a.seat, a.timed_out) for a in self.actions))

    def replay(self, ruleset: Any) -> Any:
        """The hand rebuilt from seed + actions (None before the first hand): a ``Game`` or
        a ``ZpyHand``. Raises as :meth:`rebuild`."""
        return self.rebuild(ruleset)[0]


# ============================================================================ config <-> JSON
def config_to_json(config: Any) -> str:
    """A ``TableConfig`` as JSON text (every dataclass field)."""
    return json.dumps(dataclasses.asdict(config), sort_keys=True)


def config_from_json(text: str) -> Any:
    """The ``TableConfig`` of :func:`config_to_json` (fields this version does not know are
    ignored, missing ones take their defaults). Raises ValueError/TypeError for bad text."""
    from .server import TableConfig, Timers

    data = json.loads(text)
    if not isinstance(data, dict):
        raise ValueError("table config is not a map")
    known = {f.name for f in dataclasses.fields(TableConfig)}
    kw = {k: v for k, v in data.items() if k in known}
    if "timers" in kw:
        tfields = {f.name for f in dataclasses.fields(Timers)}
        kw["timers"] = Timers(**{k: v for k, v in dict(kw["timers"]).items() if k in tfields})
    if "ai_seats" in kw:
        kw["ai_seats"] = {int(k): str(v) for k, v in dict(kw["ai_seats"]).items()}
    return TableConfig(**kw)


def _rng_out(state: Any) -> str:
    version, internal, gauss = state
    return json.dumps([version, list(internal), gauss])


def _rng_in(text: str | None) -> Any:
    if text is None:
        return None
    version, internal, gauss = json.loads(text)
    return (int(version), tuple(int(x) for x in internal), gauss)


# ============================================================================ the file
class Journal:
    """The journal file. Create with :meth:`open`.

    Attributes: ``path``; ``resume`` (restore the tables in the file instead of starting new
    ones); ``problem`` (None, or a sentence saying why the file found there was set aside and
    where it went); ``restored`` (after :meth:`rooms`: how many tables came from the file);
    ``set_aside`` (the path the damaged file was moved to, or None); ``previous`` (after
    :meth:`rooms` without ``resume``: where the tables of the earlier run were copied before
    the file was started afresh, ``FILE.prev``, or None when it held none); ``resumed_at``
    (per restored room: its hand number and whether that hand was in play when restored).
    """

    def __init__(self, path: Path, conn: sqlite3.Connection, resume: bool) -> None:
        self.path = path
        self.conn = conn
        self.resume = resume
        self.problem: str | None = None
        self.set_aside: Path | None = None
        self.restored = 0
        self.previous: Path | None = None
        self.resumed_at: list[tuple[int, bool]] = []
        self.logs: list[TableLog] = []
        self._loaded: list[TableRecord] | None = None  # read by open(resume=True), for rooms()

    # ------------------------------------------------------------------ opening
    @classmethod
    def open(cls, path: str | Path, *, resume: bool = False) -> "Journal":
        """Open (or create) the journal at ``path``.

        ``resume=False``: the file's tables are dropped (a new session of the host; the
        old file is first copied to ``FILE.prev``, see :attr:`previous`). A damaged file is
        set aside either way (:attr:`problem`). Raises :class:`JournalBusy` when another
        host holds it, :class:`JournalError` when it cannot be created at all.
        """
        path = Path(path)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise JournalError(f"cannot create {path.parent}: {exc}") from None
        problem: str | None = None
        try:
            conn = _connect(path)
            _check(conn)
        except JournalBusy:
            raise
        except JournalTooNew as exc:  # not ours to set aside: a newer host will read it
            conn.close()  # type: ignore[possibly-undefined]
            raise JournalTooNew(f"journal {path}: {exc}") from None
        except (sqlite3.DatabaseError, JournalError) as exc:
            problem = str(exc) or type(exc).__name__
            try:
                conn.close()  # type: ignore[possibly-undefined]
            except Exception:
                pass
            aside = _set_aside(path)
            conn = _connect(path)
            _check(conn)
            j = cls(path, conn, resume)
            j.set_aside = aside
            j.problem = f"journal {path} was damaged ({problem}); set aside as {aside.name}"
            log.warning("%s", j.problem)
            return j
        j = cls(path, conn, resume)
        if resume:
            try:
                j._loaded = j.load()
            except Exception as exc:  # records that do not parse: set the file aside too
                conn.close()
                aside = _set_aside(path)
                conn = _connect(path)
                _check(conn)
                j = cls(path, conn, resume)
                j.set_aside = aside
                j.problem = (f"journal {path} has unreadable records ({exc}); "
                             f"set aside as {aside.name}")
                log.warning("%s", j.problem)
        return j

    def close(self) -> None:
        """Close the file (idempotent). The tables stay in it for a later ``--resume``."""
        try:
            self.conn.close()
        except Exception:  # pragma: no cover
            pass

    # ------------------------------------------------------------------ meta
    @property
    def port(self) -> int | None:
        """The TCP port the host that wrote the file listened on (None: not recorded)."""
        row = self.conn.execute("SELECT value FROM meta WHERE key='port'").fetchone()
        try:
            return int(row[0]) if row else None
        except ValueError:
            return None

    def record_port(self, port: int) -> None:
        """Remember the bound port (so ``--resume --port 0`` listens where it did)."""
        try:
            self.conn.execute("INSERT OR REPLACE INTO meta VALUES ('port', ?)", (str(port),))
        except sqlite3.Error as exc:  # pragma: no cover - disk trouble: logged, not fatal
            log.warning("journal %s: cannot record the port: %s", self.path, exc)

    def ledger(self) -> Any:
        """The host's coin ledger (:class:`net.stakes.CoinLedger`) in this file: its
        ``coin_ledger`` table is kept across restarts with or without ``--resume`` (a restart
        must not reset anyone's day). The run id (meta ``run``) is kept when resuming, new
        otherwise."""
        from .stakes import CoinLedger

        row = self.conn.execute("SELECT value FROM meta WHERE key='run'").fetchone()
        run = row[0] if row and self.resume else secrets.token_hex(8)
        self.conn.execute("INSERT OR REPLACE INTO meta VALUES ('run', ?)", (run,))
        return CoinLedger(self.conn, run)

    # ------------------------------------------------------------------ reading
    def load(self) -> list[TableRecord]:
        """Every table in the file, by ``idx``. Raises ValueError/TypeError/KeyError or
        ``sqlite3.DatabaseError`` for records that do not parse."""
        c = self.conn
        out = []
        for idx, config, hand_no, seed, rng, before, match in c.execute(
                "SELECT idx, config, hand_no, seed, rng, scores_before, match FROM tables "
                "ORDER BY idx"):
            seats = tuple(
                SeatRecord(seat, kind, name, ai, th, int(score), bool(auto), reason,
                           bool(stand_in), bool(leaving))
                for seat, kind, name, ai, th, score, auto, reason, stand_in, leaving in c.execute(
                    "SELECT seat, kind, name, ai, token_hash, score, auto, auto_reason, "
                    "stand_in, leaving FROM seats WHERE idx=? ORDER BY seat", (idx,)))
            actions = tuple(
                ActionRecord(n, seat, method, json.loads(params), bool(to))
                for n, seat, method, params, to in c.execute(
                    "SELECT n, seat, method, params, timed_out FROM actions WHERE idx=? "
                    "ORDER BY n", (idx,)))
            if [a.n for a in actions] != list(range(len(actions))):
                raise ValueError(f"table {idx}: actions are not numbered 0..{len(actions) - 1}")
            scores = None if before is None else tuple(int(x) for x in json.loads(before))
            out.append(TableRecord(idx, config_from_json(config), int(hand_no),
                                   None if seed is None else int(seed), _rng_in(rng), scores,
                                   seats, actions, None if match is None else json.loads(match)))
        return out

    # ------------------------------------------------------------------ rooms
    def rooms(self, server: Any) -> list[Any]:
        """The server's rooms: restored from the file when :attr:`resume` and the file holds
        tables, else new ones from ``server.config.tables`` (recorded at once). Each room
        gets its :class:`TableLog` as ``room.journal``. A file whose tables do not restore
        is set aside (:attr:`problem`) and new rooms are made."""
        from .zpy_room import make_room

        records: list[TableRecord] = []
        rooms: list[Any] = []
        if self.resume:
            try:
                records, self._loaded = self._loaded or self.load(), None
                for rec in records:
                    rooms.append(restore_room(server, rec, TableLog(self, rec.idx)))
            except Exception as exc:
                log.exception("journal %s does not restore", self.path)
                for room in rooms:  # stop the tables restored so far: none of them plays
                    room.journal = None
                    room.close()
                self._replace_damaged(f"its tables do not restore ({exc})")
                records = []
        if records:
            self.restored = len(rooms)
            self.resumed_at = [(r.hand_no, r.in_hand) for r in rooms]
            for room in rooms:
                self.logs.append(room.journal)
                room.journal.save_all(room)
            return rooms
        self._keep_previous()
        self._clear()
        rooms = []
        for i, tc in enumerate(server.config.tables):
            room = make_room(server, tc)
            room.journal = TableLog(self, i)
            self.conn.execute("INSERT INTO tables (idx, config) VALUES (?, ?)",
                              (i, config_to_json(tc)))
            room.journal.save_all(room)
            self.logs.append(room.journal)
            room._schedule_start()
            rooms.append(room)
        return rooms

    def _keep_previous(self) -> None:
        """Copy a file that holds tables to ``FILE.prev`` before it is started afresh (a host
        started without ``--resume`` over an earlier run's tables: nothing is lost)."""
        if self.conn.execute("SELECT COUNT(*) FROM tables").fetchone()[0] == 0:
            return
        prev = self.path.with_name(self.path.name + ".prev")
        try:
            for suffix in ("", "-wal", "-shm"):
                Path(str(prev) + suffix).unlink(missing_ok=True)
            dst = sqlite3.connect(str(prev))
            try:
                self.conn.backup(dst)
            finally:
                dst.close()
            self.previous = prev
        except (OSError, sqlite3.Error) as exc:
            log.warning("journal %s: could not keep the earlier tables as %s: %s",
                        self.path, prev, exc)

    def _clear(self) -> None:
        with _Tx(self.conn):
            for t in ("tables", "seats", "actions"):
                self.conn.execute(f"DELETE FROM {t}")

    def _replace_damaged(self, why: str) -> None:
        self.close()
        aside = _set_aside(self.path)
        self.conn = _connect(self.path)
        _check(self.conn)
        self.set_aside = aside
        self.problem = f"journal {self.path}: {why}; set aside as {aside.name}"
        log.warning("%s", self.problem)


class _Tx:
    """``with _Tx(conn):`` one explicit transaction (the connection is in autocommit mode,
    where ``with conn`` alone would commit statement by statement)."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def __enter__(self) -> sqlite3.Connection:
        self.conn.execute("BEGIN")
        return self.conn

    def __exit__(self, exc_type: Any, exc: Any, tb: Any) -> None:
        self.conn.execute("COMMIT" if exc_type is None else "ROLLBACK")


def _connect(path: Path) -> sqlite3.Connection:
    try:
        conn = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False,
                               timeout=0.2)
    except sqlite3.Error as exc:
        raise JournalError(f"cannot open {path}: {exc}") from None
    try:
        conn.execute("PRAGMA locking_mode=EXCLUSIVE")
        mode = conn.execute("PRAGMA journal_mode=WAL").fetchone()[0]
        if str(mode).lower() != "wal":
            raise JournalError(f"cannot use WAL mode on {path} (got {mode})")
        conn.execute("PRAGMA synchronous=NORMAL")
        conn.execute("BEGIN EXCLUSIVE")  # take the lock now: one host per file
        conn.execute("COMMIT")
    except sqlite3.OperationalError as exc:
        conn.close()
        if "locked" in str(exc) or "busy" in str(exc):
            raise JournalBusy(f"{path} is in use by another host (give another --journal)") \
                from None
        raise
    except BaseException:
        conn.close()
        raise
    return conn


def _check(conn: sqlite3.Connection) -> None:
    """Raise JournalError / sqlite3.DatabaseError unless the file is sound and ours."""
    result = conn.execute("PRAGMA quick_check").fetchone()[0]
    if result != "ok":
        raise JournalError(f"quick_check: {result}")
    names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    if names and "meta" not in names:
        raise JournalError("not a Hong Wu journal")
    row = None
    if "meta" in names:
        row = conn.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
    if row is None:
        if names - {"meta"}:
            raise JournalError("no schema version")
        conn.executescript(_SCHEMA)
        conn.execute("INSERT OR REPLACE INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
        return
    try:
        version = int(row[0])
    except ValueError:
        raise JournalError(f"schema version {row[0]!r} is not a number") from None
    if version > SCHEMA_VERSION:
        raise JournalTooNew(
            f"it was written by a newer Hong Wu (journal schema {version}; this host reads "
            f"1..{SCHEMA_VERSION}): the file is left as it is; resume it with that version, "
            f"or give this host another --journal (or --no-journal)")
    if version < 1:
        raise JournalError(f"schema version {version} is not one this host knows")
    if version < SCHEMA_VERSION:
        _migrate(conn, version)
    conn.executescript(_SCHEMA)  # tables added without a version bump (e.g. the coin ledger)


def _migrate(conn: sqlite3.Connection, version: int) -> None:
    """Take a file of schema ``version`` (older than :data:`SCHEMA_VERSION`) to the current
    one, step by step (:data:`MIGRATIONS`), in one transaction: either it is migrated or it
    is left exactly as it was (an error is raised then, and the file is set aside)."""
    with _Tx(conn):
        for v in range(version, SCHEMA_VERSION):
            for statement in MIGRATIONS[v]:
                conn.execute(statement)
        conn.execute("UPDATE meta SET value=? WHERE key='schema'", (str(SCHEMA_VERSION),))
    log.info("journal: migrated from schema %d to %d", version, SCHEMA_VERSION)


def _set_aside(path: Path) -> Path:
    """Rename ``path`` (and its ``-wal`` / ``-shm``) to ``path.damaged-STAMP``; returns it."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    aside = path.with_name(f"{path.name}.damaged-{stamp}")
    n = 1
    while aside.exists():
        n += 1
        aside = path.with_name(f"{path.name}.damaged-{stamp}-{n}")
    for suffix in ("", "-wal", "-shm"):
        src = Path(str(path) + suffix)
        if src.exists():
            src.rename(Path(str(aside) + suffix))
    return aside


# ============================================================================ one table
class TableLog:
    """The journal of one room (``room.journal``): the server calls :meth:`seats` whenever
    it announces the table, :meth:`hand_started` when it deals, :meth:`action` after the
    engine accepted an action and before its events go out. Each writes only what changed
    and commits before returning. ``pending`` maps seats restored from the file to the hash
    of their pre-restart token (see :meth:`claim`). Errors writing are logged, never raised
    into the game."""

    def __init__(self, journal: Journal, idx: int) -> None:
        self.journal = journal
        self.idx = idx
        self.pending: dict[int, str] = {}
        self._seats_written: Any = None
        self._hashes: dict[str, str] = {}
        self.n = 0  # actions journaled for the hand in progress
        self.failed = False
        self._rng_written: Any = None  # the generator state last recorded
        self._players: dict[int, Any] = {}  # seat -> the AI player last seen acting there
        self.restored_at: float | None = None  # event-loop time the room was restored

    @property
    def conn(self) -> sqlite3.Connection:
        return self.journal.conn

    def _hash(self, token: str) -> str:
        h = self._hashes.get(token)
        if h is None:
            if len(self._hashes) > 64:
                self._hashes.clear()
            h = self._hashes[token] = token_hash(token)
        return h

    def _write(self, what: str, fn: Any) -> None:
        try:
            fn()
        except sqlite3.Error as exc:  # the disk is full or gone: play on, say so once
            if not self.failed:
                log.error("journal %s: cannot record %s: %s (the table plays on, but a "
                          "restart will not restore it)", self.journal.path, what, exc)
            self.failed = True

    # ------------------------------------------------------------------ seats
    def _seat_rows(self, room: Any) -> tuple[tuple[Any, ...], ...]:
        rows = []
        for st in room.seats:
            if st.kind != "human" or st.token is not None:
                self.pending.pop(st.index, None)
            th = self._hash(st.token) if st.token else self.pending.get(st.index)
            rows.append((self.idx, st.index, st.kind, st.name, st.ai_name, th, st.score,
                         int(bool(st.auto)), st.auto_reason, int(bool(st.stand_in)),
                         int(bool(st.left))))
        return tuple(rows)

    def seats(self, room: Any) -> None:
        """Record the seats of ``room`` if they changed since the last call. Nothing is
        recorded once the room is closed (a host shutting down: its players' drops are not
        theirs, so a later ``--resume`` gives them their seats as they were)."""
        if room.closed:
            return
        rows = self._seat_rows(room)
        if rows == self._seats_written:
            return

        rng = self._rng_change(room)

        def write() -> None:
            with _Tx(self.conn):
                if rng is not None:
                    self._write_rng(*rng)
                self.conn.executemany(
                    "INSERT OR REPLACE INTO seats (idx, seat, kind, name, ai, token_hash, "
                    "score, auto, auto_reason, stand_in, leaving) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
            self._seats_written = rows
        self._write("the seats", write)

    def _rng_change(self, room: Any) -> tuple[Any, str] | None:
        """``(state, json)`` when the table's generator moved since it was last recorded (an
        AI seated, an auto-play player made: both draw from it), else None."""
        state = room.rng.getstate()
        if state == self._rng_written:
            return None
        return state, _rng_out(state)

    def _write_rng(self, state: Any, text: str) -> None:
        self.conn.execute("UPDATE tables SET rng=? WHERE idx=?", (text, self.idx))
        self._rng_written = state

    def save_all(self, room: Any) -> None:
        """Record the seats now (a new or restored room)."""
        self._seats_written = None
        self.seats(room)

    # ------------------------------------------------------------------ hands
    def hand_started(self, room: Any) -> None:
        """Record the hand ``room`` just dealt: its number, seed, the generator state, the
        scores before it and (找朋友: ``room.match``) the match it was dealt from; the previous
        hand's actions are dropped (one transaction)."""
        g = room.game
        scores = json.dumps([st.score for st in room.seats])
        state = room.rng.getstate()
        match = getattr(room, "match", None)
        match_text = None if match is None else json.dumps(journal_hands.match_out(match))

        def write() -> None:
            with _Tx(self.conn):
                self.conn.execute("DELETE FROM actions WHERE idx=?", (self.idx,))
                self.conn.execute(
                    "UPDATE tables SET hand_no=?, seed=?, scores_before=?, match=? WHERE idx=?",
                    (room.hand_no, g.seed, scores, match_text, self.idx))
                self._write_rng(state, _rng_out(state))
            self.n = 0
        self._write("a new hand", write)
        self.seats(room)

    def action(self, room: Any, action: Any) -> None:
        """Record ``action`` (just accepted by the engine) as the next of the hand."""
        method, params = journal_hands.action_out(action)
        timed_out = int(bool(getattr(action, "timed_out", False)))
        row = (self.idx, self.n, action.seat, method, json.dumps(params), timed_out)
        # The generator moves during a hand only when an auto-play player is made for a seat
        # (its first auto-played move): look only then (getstate costs tens of microseconds).
        player = room.seats[action.seat].player
        rng = None
        if player is not None and self._players.get(action.seat) is not player:
            self._players[action.seat] = player
            rng = self._rng_change(room)

        def write() -> None:
            insert = ("INSERT INTO actions (idx, n, seat, method, params, timed_out) "
                      "VALUES (?, ?, ?, ?, ?, ?)")
            if rng is None:  # the common case: one statement, one commit
                self.conn.execute(insert, row)
            else:
                with _Tx(self.conn):
                    self._write_rng(*rng)
                    self.conn.execute(insert, row)
            self.n += 1
        self._write("an action", write)

    # ------------------------------------------------------------------ tokens
    def claim(self, room: Any, token: Any) -> Any:
        """The seat of ``room`` whose pre-restart token is ``token`` (compared by hash in
        constant time), now given a new token (rotation: the old one is forgotten), or
        None. Only seats restored from the journal and not yet claimed qualify."""
        if not isinstance(token, str) or not self.pending:
            return None
        h = token_hash(token)
        for seat, expected in list(self.pending.items()):
            if secrets.compare_digest(h, expected):
                st = room.seats[seat]
                if st.kind != "human":
                    return None
                del self.pending[seat]
                st.token = secrets.token_urlsafe(18)
                return st
        return None

    def knows(self, token: Any) -> bool:
        """Whether ``token`` is a pre-restart token still waiting to be claimed (without
        claiming it): for checks made before ``hello`` is handled, e.g. letting a valid
        reconnect in past a connection cap."""
        if not isinstance(token, str) or not self.pending:
            return False
        h = token_hash(token)
        return any(secrets.compare_digest(h, e) for e in self.pending.values())

    def local_token(self, room: Any, seat: int) -> str | None:
        """A new token for the restored ``seat`` (the windowed host's own player, who holds
        no token from before the restart), or None when the seat is not a restored human
        seat waiting for its player."""
        st = room.seats[seat]
        if st.kind != "human" or st.session is not None or seat not in self.pending:
            return None
        del self.pending[seat]
        st.token = secrets.token_urlsafe(18)
        self.seats(room)
        return st.token


# ============================================================================ restoring
def restore_room(server: Any, rec: TableRecord, tlog: TableLog) -> Any:
    """A room rebuilt from ``rec`` (:func:`net.zpy_room.make_room`: a 红五 ``Room`` or a 找朋友
    ``ZpyRoom``): its seats (players disconnected, their seats kept for their tokens),
    scores, the match (找朋友), the hand replayed through the engine, and the turn set up
    again with a full timer (the time a player had used before the restart is not held
    against them; a 找朋友 declaration window or counter turn of a seat whose player is not
    back yet waits for them, see :meth:`net.zpy_room.ZpyRoom.turn_limit`). Raises for a
    record that does not replay."""
    from .zpy_room import make_room

    room = make_room(server, rec.config)
    room.journal = tlog
    tlog.restored_at = server.loop.time()
    n = len(room.seats)
    for st in room.seats:
        st.clear()
    if rec.rng is not None:
        room.rng.setstate(rec.rng)
    room.hand_no = rec.hand_no
    game, match = rec.rebuild(room.ruleset)
    for s in rec.seats:
        if not 0 <= s.seat < n:
            raise ValueError(f"seat {s.seat} out of range")
        st = room.seats[s.seat]
        st.score = s.score
        if s.kind == "ai":
            room._seat_ai(s.seat, s.ai or "basic")
        elif s.kind == "human":
            st.kind, st.name = "human", s.name or f"seat {s.seat}"
            st.token = None
            if s.token_hash:
                tlog.pending[s.seat] = s.token_hash
            st.stand_in, st.left = s.stand_in, s.leaving
            st.auto, st.auto_reason = s.auto, s.auto_reason
            st.ready = s.stand_in
    if rec.rng is not None:  # _seat_ai drew from it: back to the journaled state
        room.rng.setstate(rec.rng)
    room.game = game
    if match is not None:
        room.match = match
    tlog.n = len(rec.actions)
    if game is not None and rec.scores_before is not None:
        before = list(rec.scores_before) + [0] * (n - len(rec.scores_before))
        settled = game.is_over and game.settlement is not None
        points = room._hand_points(game) if settled else [0] * n  # 找朋友: the match records it
        for i, st in enumerate(room.seats):
            st.score = before[i] + points[i]
        if settled:  # a staked table: the hand's coins as recorded (recorded now if lost)
            room._settle_coins()
    if room.in_hand:
        room._next_turn()
    else:
        for st in room.seats:
            if st.kind == "human" and st.left:
                score = st.score
                st.clear()
                st.score = score
            elif st.kind == "human" and not st.stand_in:
                st.auto, st.auto_reason, st.ready = False, None, False
            room._start_grace(st)
        room._schedule_start()
    log.info("%s: restored from the journal: hand %d, %d action(s), %s", room.name,
             room.hand_no, len(rec.actions), "in play" if room.in_hand else "between hands")
    return room


def describe(rooms: Sequence[Any]) -> list[str]:
    """One console line per restored room: ``table 'T': hand 3 in play (trick 5), seats
    0 Ann, 1 basic AI, ...``."""
    out = []
    for r in rooms:
        g = r.game
        if r.in_hand and g is not None:
            where = f"hand {r.hand_no} in play ({g.phase.value}"
            where += f", trick {g.trick_no})" if g.phase.value == "play" else ")"
        elif r.hand_no:
            where = f"hand {r.hand_no} settled"
        else:
            where = "no hand yet"
        seats = ", ".join(f"{s.index} {s.name or s.kind}" for s in r.seats)
        out.append(f"table '{r.name}': {where}; seats {seats}")
    return out
