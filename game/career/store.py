"""The career database: one SQLite file of profiles, finished hands and daily coin ledgers
(README "Career"; RULES.md §11, §12).

The file is ``hongwu.db`` in :func:`data_dir` (``$HONGWU_DATA_DIR`` when set, else
``platformdirs.user_data_dir("hongwu")``). It runs in WAL mode with foreign keys on; its schema
version is ``PRAGMA user_version`` and :data:`MIGRATIONS` brings any older file up to date in
one transaction. Every write is one transaction, committed before the caller reports it
(a killed process loses at most the hand it had not yet recorded).

A file that is not SQLite, carries another program's ``application_id``, is newer than this
program, or fails ``PRAGMA quick_check`` is renamed aside to ``hongwu.db.damaged-<time>``
(with its -wal/-shm) and a new one is started; :attr:`Store.set_aside` then tells the caller
what happened so it can say so. It is never emptied in place.

No pygame here: the CLI, the client and tests share it.
"""
from __future__ import annotations

import json
import logging
import os
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

from engine.scoring import TITLES
from engine.titles import title_index

log = logging.getLogger(__name__)

DATA_ENV = "HONGWU_DATA_DIR"
"""Environment variable that overrides the data folder."""
DB_NAME = "hongwu.db"
APPLICATION_ID = 0x48575535  # "HWU5": marks the file as Hong Wu's
AVATARS: tuple[str, ...] = ("panda", "tiger", "crane", "dragon", "fish", "monkey", "rabbit", "horse",
                            "rooster", "ox", "goat", "dog")
"""The built-in avatar ids a profile may take (the client draws them; README "Career")."""
NAME_MAX = 24
"""Longest profile name, in characters."""


class CareerError(ValueError):
    """A career request that cannot be done (unknown or duplicate profile, bad name or avatar);
    the message says why in words."""


def data_dir() -> Path:
    """The folder of the career database: ``$HONGWU_DATA_DIR`` when set, else
    ``platformdirs.user_data_dir("hongwu")`` (not created here)."""
    override = os.environ.get(DATA_ENV)
    if override:
        return Path(override)
    import platformdirs

    return Path(platformdirs.user_data_dir("hongwu", appauthor=False))


def db_path() -> Path:
    """The career database file: ``data_dir() / "hongwu.db"``."""
    return data_dir() / DB_NAME


# --- schema ---------------------------------------------------------------------------------
REBUILD_TOTALS = """
    DELETE FROM profile_totals;
    INSERT INTO profile_totals SELECT profile_id, total(dealer = seat), total(dealer = seat AND dealer_final > 0),
        total(CASE WHEN dealer = seat THEN bid ELSE 0 END), total(bid), total(red_fives_won), total(red_fives_lost),
        total(my_coins) FROM records WHERE ruleset != 'zhaopengyou' GROUP BY profile_id;
    DELETE FROM titles_reached;
    """ + "".join(
    f"""INSERT INTO titles_reached SELECT r.profile_id, {k}, r.id, r.time FROM (SELECT min(id) AS first
    FROM records WHERE total_after >= {t} AND ruleset != 'zhaopengyou' GROUP BY profile_id) f JOIN records r ON r.id = f.first;
    """ for k, (t, _zh, _en) in enumerate(TITLES) if k)
"""SQL that recomputes ``profile_totals`` and ``titles_reached`` from the 红五 records (used by the
v2 migration and :meth:`Store.rebuild_totals`; 找朋友 rows carry no game points)."""

MIGRATIONS: tuple[str, ...] = (
    # v1: profiles and records
    """
    CREATE TABLE profiles (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE COLLATE NOCASE,
        avatar TEXT NOT NULL,
        points INTEGER NOT NULL DEFAULT 0,
        coins INTEGER NOT NULL DEFAULT 0,
        hands INTEGER NOT NULL DEFAULT 0,
        created REAL NOT NULL,
        last_played REAL
    );
    CREATE TABLE records (
        id INTEGER PRIMARY KEY,
        profile_id INTEGER NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
        time REAL NOT NULL,
        ruleset TEXT NOT NULL,
        options TEXT NOT NULL,
        seed INTEGER,
        seats TEXT NOT NULL,
        seat INTEGER NOT NULL,
        dealer INTEGER NOT NULL,
        bid INTEGER NOT NULL,
        trump TEXT NOT NULL,
        points INTEGER NOT NULL,
        dealer_final INTEGER NOT NULL,
        game_points TEXT NOT NULL,
        my_points INTEGER NOT NULL,
        total_after INTEGER NOT NULL
    );
    CREATE TABLE replays (
        record_id INTEGER PRIMARY KEY REFERENCES records(id) ON DELETE CASCADE,
        text TEXT NOT NULL
    );
    CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT);
    """,
    # v2: coins (stake, per-seat changes, a daily ledger), red fives, indexes for statistics
    """
    ALTER TABLE records ADD COLUMN stake INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE records ADD COLUMN coins TEXT NOT NULL DEFAULT '[]';
    ALTER TABLE records ADD COLUMN my_coins INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE records ADD COLUMN day TEXT NOT NULL DEFAULT '';
    ALTER TABLE records ADD COLUMN red_fives_won INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE records ADD COLUMN red_fives_lost INTEGER NOT NULL DEFAULT 0;
    CREATE TABLE coin_days (
        profile_id INTEGER NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
        day TEXT NOT NULL,
        net INTEGER NOT NULL DEFAULT 0,
        hands INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (profile_id, day)
    ) WITHOUT ROWID;
    CREATE INDEX records_series ON records(profile_id, id, total_after);
    CREATE INDEX records_points ON records(profile_id, my_points);
    CREATE TABLE profile_totals (
        profile_id INTEGER PRIMARY KEY REFERENCES profiles(id) ON DELETE CASCADE,
        dealer_hands INTEGER NOT NULL DEFAULT 0,
        dealer_wins INTEGER NOT NULL DEFAULT 0,
        dealer_bid_sum INTEGER NOT NULL DEFAULT 0,
        bid_sum INTEGER NOT NULL DEFAULT 0,
        red_fives_won INTEGER NOT NULL DEFAULT 0,
        red_fives_lost INTEGER NOT NULL DEFAULT 0,
        coins_net INTEGER NOT NULL DEFAULT 0
    );
    CREATE TABLE titles_reached (
        profile_id INTEGER NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
        title INTEGER NOT NULL,
        record_id INTEGER REFERENCES records(id) ON DELETE SET NULL,
        time REAL,
        PRIMARY KEY (profile_id, title)
    ) WITHOUT ROWID;
    """ + REBUILD_TOTALS,
    # v3 (zhaopengyou career): the 找朋友 side of a record (its row in ``records`` has ruleset
    # 'zhaopengyou', no game points and no coins; the replay is in ``replays`` as for 红五)
    """
    CREATE TABLE zpy_hands (
        record_id INTEGER PRIMARY KEY REFERENCES records(id) ON DELETE CASCADE,
        profile_id INTEGER NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
        match_id TEXT NOT NULL,
        hand_no INTEGER NOT NULL,
        friend INTEGER,
        alone INTEGER NOT NULL,
        friend_call TEXT NOT NULL,
        level INTEGER NOT NULL,
        catcher_points INTEGER NOT NULL,
        winner TEXT NOT NULL,
        dealer_side TEXT NOT NULL,
        levels_before TEXT NOT NULL,
        levels_after TEXT NOT NULL,
        my_gain INTEGER NOT NULL,
        game_over INTEGER NOT NULL,
        game_winners TEXT NOT NULL
    );
    CREATE INDEX zpy_hands_match ON zpy_hands(profile_id, match_id, hand_no);
    """,
    # v4: cached reviews 复盘 (ai_plugins.review), one per record and review settings
    """
    CREATE TABLE reviews (
        record_id INTEGER NOT NULL REFERENCES records(id) ON DELETE CASCADE,
        settings TEXT NOT NULL,
        result TEXT NOT NULL,
        created REAL NOT NULL,
        PRIMARY KEY (record_id, settings)
    ) WITHOUT ROWID;
    """,
)
"""Schema steps: ``MIGRATIONS[k]`` takes ``user_version`` k to k+1 (append, never edit)."""
SCHEMA_VERSION = len(MIGRATIONS)


def migrate(conn: sqlite3.Connection, target: int = SCHEMA_VERSION) -> int:
    """Apply the missing :data:`MIGRATIONS` up to ``target`` in one transaction; returns the
    version before. Raises :class:`CareerError` for a file newer than ``target``."""
    (version,) = conn.execute("PRAGMA user_version").fetchone()
    if version > target:
        raise CareerError(f"the career database has schema {version}, newer than this program's {target}")
    if version == target:
        return version
    with conn:  # one transaction: all steps or none
        conn.execute("BEGIN IMMEDIATE")
        for step in MIGRATIONS[version:target]:
            for stmt in (s.strip() for s in step.split(";")):
                if stmt:
                    conn.execute(stmt)
        conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        conn.execute(f"PRAGMA user_version = {target}")
    return version


# --- values ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class Profile:
    """A player's profile: ``id``, ``name``, ``avatar`` (one of :data:`AVATARS`), ``points``
    (accumulated game points), ``coins`` (balance, may be negative), ``hands`` (recorded),
    ``created`` and ``last_played`` (Unix seconds; last_played None before the first hand)."""

    id: int
    name: str
    avatar: str
    points: int
    coins: int
    hands: int
    created: float
    last_played: float | None


@dataclass(frozen=True)
class Record:
    """One finished hand of a profile (战绩): ``id``; ``time`` (Unix s); ``day`` (local
    calendar day ``YYYY-MM-DD`` its coins count for); ``ruleset``; ``options`` (dict);
    ``seed``; ``seats`` (names, seat 0 first); ``seat`` (the profile's seat); ``dealer``;
    ``bid``; ``trump``; ``points`` (card points the dealer took, kitty included when it
    counted); ``dealer_final``; ``game_points`` and ``coins`` (per seat); ``stake``;
    ``my_points``/``my_coins`` (the profile's); ``total_after`` (its accumulated points after
    the hand); ``red_fives_won``/``red_fives_lost`` (captures by / from the profile's seat).
    A 找朋友 row (``ruleset`` "zhaopengyou", schema v3) has bid 0, no game points or coins,
    ``points`` = the catchers' points, ``dealer_final`` = the profile's levels gained and
    ``trump`` "NT" for no-trump; the rest is in :meth:`Store.zpy_hands`."""

    id: int
    time: float
    day: str
    ruleset: str
    options: dict
    seed: int | None
    seats: tuple[str, ...]
    seat: int
    dealer: int
    bid: int
    trump: str
    points: int
    dealer_final: int
    game_points: tuple[int, ...]
    coins: tuple[int, ...]
    stake: int
    my_points: int
    my_coins: int
    total_after: int
    red_fives_won: int
    red_fives_lost: int

    def as_dict(self) -> dict[str, Any]:
        """Plain form (``hongwu records --json``)."""
        d = {k: getattr(self, k) for k in self.__dataclass_fields__}
        d["seats"], d["game_points"], d["coins"] = list(self.seats), list(self.game_points), list(self.coins)
        return d


RECORD_COLUMNS = ("id, time, day, ruleset, options, seed, seats, seat, dealer, bid, trump, points, "
                  "dealer_final, game_points, coins, stake, my_points, my_coins, total_after, "
                  "red_fives_won, red_fives_lost")


def _record(row: Sequence[Any]) -> Record:
    r = list(row)
    r[4] = json.loads(r[4])
    r[6] = tuple(json.loads(r[6]))
    r[13] = tuple(json.loads(r[13]))
    r[14] = tuple(json.loads(r[14]))
    return Record(*r)


_PROFILE_COLUMNS = "id, name, avatar, points, coins, hands, created, last_played"


@dataclass(frozen=True)
class ZpyHandRecord:
    """One finished 找朋友 hand of a profile (schema v3): ``record_id`` (also its replay's id),
    ``time``, ``seats`` (names, seat 0 first), ``seat`` (the profile's), ``match_id`` (hands of
    one match share it), ``hand_no``, ``dealer``, ``friend`` (seat, None when the dealer played
    alone), ``alone``, ``friend_call`` ("AS/1": card / nth), ``trump`` (suit letter or "NT"),
    ``level`` (the rank played), ``catcher_points``, ``winner`` ("dealer" or "catchers"),
    ``dealer_side`` (seats), ``levels_before`` / ``levels_after`` (per seat, ranks 2..14),
    ``my_gain`` (the profile's levels gained), ``game_over``, ``game_winners``."""

    record_id: int
    time: float
    seats: tuple[str, ...]
    seat: int
    match_id: str
    hand_no: int
    dealer: int
    friend: int | None
    alone: bool
    friend_call: str
    trump: str
    level: int
    catcher_points: int
    winner: str
    dealer_side: tuple[int, ...]
    levels_before: tuple[int, ...]
    levels_after: tuple[int, ...]
    my_gain: int
    game_over: bool
    game_winners: tuple[int, ...]

    def as_dict(self) -> dict[str, Any]:
        """Plain form (``hongwu records --ruleset zhaopengyou --json``)."""
        d = {k: getattr(self, k) for k in self.__dataclass_fields__}
        for k, v in d.items():
            if isinstance(v, tuple):
                d[k] = list(v)
        return d


ZPY_COLUMNS = ("z.record_id, r.time, r.seats, r.seat, z.match_id, z.hand_no, r.dealer, z.friend, z.alone,"
               " z.friend_call, r.trump, z.level, z.catcher_points, z.winner, z.dealer_side, z.levels_before,"
               " z.levels_after, z.my_gain, z.game_over, z.game_winners")


def _zpy(row: Sequence[Any]) -> ZpyHandRecord:
    r = list(row)
    r[2] = tuple(json.loads(r[2]))
    r[8] = bool(r[8])
    for k in (14, 15, 16, 19):
        r[k] = tuple(json.loads(r[k]))
    r[18] = bool(r[18])
    return ZpyHandRecord(*r)


# --- the store ------------------------------------------------------------------------------
class Store:
    """An open career database. Build with :meth:`open`; close with :meth:`close` (or use it
    as a context manager). One connection, used from one thread.

    ``path``: the file; ``set_aside``: None, or ``(reason, moved_to)`` when a damaged or
    foreign file was renamed aside while opening (tell the user).
    """

    def __init__(self, conn: sqlite3.Connection, path: Path, set_aside: tuple[str, Path] | None) -> None:
        self.conn = conn
        self.path = path
        self.set_aside = set_aside

    # -- opening ------------------------------------------------------------------------------
    @classmethod
    def open(cls, path: Path | str | None = None, *, check: bool = True) -> "Store":
        """Open (creating or migrating) the database at ``path`` (default :func:`db_path`).
        With ``check`` the file's header, application id, schema and ``quick_check`` are
        tested; a file that fails is renamed aside (see the module doc) and a fresh one made.
        Raises OSError when the folder cannot be written, CareerError when another process
        keeps the file locked for more than 10 s (the file is then left alone)."""
        path = Path(path) if path is not None else db_path()
        path.parent.mkdir(parents=True, exist_ok=True)
        set_aside = None
        try:
            conn = cls._connect(path, check)
        except _Unusable as exc:
            moved = _move_aside(path)
            set_aside = (str(exc), moved)
            log.warning("career database %s: %s; moved to %s", path, exc, moved)
            conn = cls._connect(path, False)
        return cls(conn, path, set_aside)

    @staticmethod
    def _connect(path: Path, check: bool) -> sqlite3.Connection:
        existed = path.exists() and path.stat().st_size > 0
        if existed:
            with open(path, "rb") as f:
                if f.read(16) != b"SQLite format 3\x00":
                    raise _Unusable("not an SQLite database")
        conn = sqlite3.connect(path, isolation_level=None, timeout=10.0)  # explicit transactions
        try:
            conn.execute("PRAGMA foreign_keys = ON")
            (app_id,) = conn.execute("PRAGMA application_id").fetchone()
            (version,) = conn.execute("PRAGMA user_version").fetchone()
            if existed and app_id != APPLICATION_ID:
                tables = conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
                if app_id != 0 or tables:
                    raise _Unusable(f"another program's database (application_id {app_id:#x})")
            if version > SCHEMA_VERSION:
                raise _Unusable(f"schema {version} is newer than this program's {SCHEMA_VERSION}")
            if check and existed:
                (res,) = conn.execute("PRAGMA quick_check(1)").fetchone()
                if res != "ok":
                    raise _Unusable(f"integrity check failed: {res}")
            conn.execute("PRAGMA journal_mode = WAL")
            conn.execute("PRAGMA synchronous = NORMAL")  # WAL: durable against a killed process
            migrate(conn)
        except sqlite3.OperationalError as exc:
            conn.close()
            if "locked" in str(exc) or "busy" in str(exc):  # in use by another process: not damaged
                raise CareerError(f"the career database is busy ({exc}); try again") from None
            raise _Unusable(f"unreadable database ({exc})") from None
        except sqlite3.DatabaseError as exc:
            conn.close()
            raise _Unusable(f"unreadable database ({exc})") from None
        except BaseException:
            conn.close()
            raise
        return conn

    def close(self) -> None:
        """Close the connection (committed data is already on disk)."""
        self.conn.close()

    def __enter__(self) -> "Store":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def _tx(self):
        return _Transaction(self.conn)

    # -- profiles -----------------------------------------------------------------------------
    def create_profile(self, name: str, avatar: str | None = None, now: float | None = None) -> Profile:
        """A new profile ``name`` (1–24 characters, unique ignoring case) with ``avatar`` (one of
        :data:`AVATARS`; default the first unused one). Raises :class:`CareerError`."""
        name = (name or "").strip()
        if not name or len(name) > NAME_MAX or any(ord(c) < 32 for c in name):
            raise CareerError(f"a profile name is 1–{NAME_MAX} printable characters, not {name!r}")
        if avatar is None:
            used = {r[0] for r in self.conn.execute("SELECT avatar FROM profiles")}
            avatar = next((a for a in AVATARS if a not in used), AVATARS[0])
        if avatar not in AVATARS:
            raise CareerError(f"unknown avatar {avatar!r}; choose one of {', '.join(AVATARS)}")
        try:
            with self._tx() as c:
                c.execute("INSERT INTO profiles(name, avatar, created) VALUES (?, ?, ?)",
                          (name, avatar, time.time() if now is None else now))
        except sqlite3.IntegrityError:
            raise CareerError(f"a profile named {name!r} already exists") from None
        return self.profile(name)

    def profiles(self) -> list[Profile]:
        """Every profile, by name."""
        return [Profile(*r) for r in self.conn.execute(
            f"SELECT {_PROFILE_COLUMNS} FROM profiles ORDER BY name COLLATE NOCASE")]

    def find_profile(self, name: str) -> Profile | None:
        """The profile called ``name`` (ignoring case), or None."""
        row = self.conn.execute(f"SELECT {_PROFILE_COLUMNS} FROM profiles WHERE name = ?", (name,)).fetchone()
        return Profile(*row) if row else None

    def profile(self, name: str) -> Profile:
        """The profile called ``name``; raises :class:`CareerError` naming the known ones."""
        p = self.find_profile(name)
        if p is None:
            known = ", ".join(q.name for q in self.profiles()) or "none yet; create one with hongwu profile new NAME"
            raise CareerError(f"no profile named {name!r} (profiles: {known})")
        return p

    def set_avatar(self, name: str, avatar: str) -> Profile:
        """Give profile ``name`` another avatar. Raises :class:`CareerError`."""
        p = self.profile(name)
        if avatar not in AVATARS:
            raise CareerError(f"unknown avatar {avatar!r}; choose one of {', '.join(AVATARS)}")
        with self._tx() as c:
            c.execute("UPDATE profiles SET avatar = ? WHERE id = ?", (avatar, p.id))
        return self.profile(name)

    def use_profile(self, name: str) -> Profile:
        """Make ``name`` the current profile (remembered in the database). Raises CareerError."""
        p = self.profile(name)
        with self._tx() as c:
            c.execute("INSERT OR REPLACE INTO meta(key, value) VALUES ('current_profile', ?)", (p.name,))
        return p

    def current_profile(self) -> Profile | None:
        """The profile chosen with :meth:`use_profile` (None when none is, or it is gone)."""
        row = self.conn.execute("SELECT value FROM meta WHERE key = 'current_profile'").fetchone()
        return self.find_profile(row[0]) if row else None

    # -- coins --------------------------------------------------------------------------------
    def day_net(self, profile_id: int, day: str) -> int:
        """The profile's net coin change on local ``day`` (``YYYY-MM-DD``), 0 when none."""
        row = self.conn.execute("SELECT net FROM coin_days WHERE profile_id = ? AND day = ?",
                                (profile_id, day)).fetchone()
        return row[0] if row else 0

    # -- records ------------------------------------------------------------------------------
    def add_record(self, profile_id: int, fields: dict[str, Any]) -> int:
        """Insert one finished hand and update the profile (points, coins, hands, last played)
        and its day's coin ledger, running totals and titles reached, all in one transaction; returns the record id. ``fields``:
        every :class:`Record` field but ``id`` and ``total_after``, plus ``replay`` (the replay
        file text). Raises CareerError for an unknown profile."""
        f = fields
        with self._tx() as c:
            row = c.execute("SELECT points FROM profiles WHERE id = ?", (profile_id,)).fetchone()
            if row is None:
                raise CareerError(f"no profile with id {profile_id}")
            total = row[0] + f["my_points"]
            cur = c.execute(
                "INSERT INTO records(profile_id, time, day, ruleset, options, seed, seats, seat, dealer, bid,"
                " trump, points, dealer_final, game_points, coins, stake, my_points, my_coins, total_after,"
                " red_fives_won, red_fives_lost) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                (profile_id, f["time"], f["day"], f["ruleset"], json.dumps(f["options"], sort_keys=True),
                 f["seed"], json.dumps(list(f["seats"]), ensure_ascii=False), f["seat"], f["dealer"], f["bid"],
                 f["trump"], f["points"], f["dealer_final"], json.dumps(list(f["game_points"])),
                 json.dumps(list(f["coins"])), f["stake"], f["my_points"], f["my_coins"], total,
                 f["red_fives_won"], f["red_fives_lost"]))
            rid = cur.lastrowid
            c.execute("INSERT INTO replays(record_id, text) VALUES (?, ?)", (rid, f["replay"]))
            dealt = f["dealer"] == f["seat"]
            c.execute("INSERT INTO profile_totals VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(profile_id) DO UPDATE SET"
                      " dealer_hands = dealer_hands + excluded.dealer_hands,"
                      " dealer_wins = dealer_wins + excluded.dealer_wins,"
                      " dealer_bid_sum = dealer_bid_sum + excluded.dealer_bid_sum, bid_sum = bid_sum + excluded.bid_sum,"
                      " red_fives_won = red_fives_won + excluded.red_fives_won,"
                      " red_fives_lost = red_fives_lost + excluded.red_fives_lost,"
                      " coins_net = coins_net + excluded.coins_net",
                      (profile_id, int(dealt), int(dealt and f["dealer_final"] > 0), f["bid"] if dealt else 0,
                       f["bid"], f["red_fives_won"], f["red_fives_lost"], f["my_coins"]))
            for k in range(title_index(row[0]) + 1, title_index(total) + 1):  # titles reached (first time)
                c.execute("INSERT OR IGNORE INTO titles_reached VALUES (?, ?, ?, ?)", (profile_id, k, rid, f["time"]))
            c.execute("UPDATE profiles SET points = ?, coins = coins + ?, hands = hands + 1, last_played = ?"
                      " WHERE id = ?", (total, f["my_coins"], f["time"], profile_id))
            c.execute("INSERT INTO coin_days(profile_id, day, net, hands) VALUES (?, ?, ?, 1)"
                      " ON CONFLICT(profile_id, day) DO UPDATE SET net = net + excluded.net, hands = hands + 1",
                      (profile_id, f["day"], f["my_coins"]))
            return rid

    def rebuild_totals(self) -> None:
        """Recompute every profile's running totals and titles reached from its records
        (one transaction; for bulk imports and repairs)."""
        with self._tx() as c:
            for stmt in (x.strip() for x in REBUILD_TOTALS.split(";")):
                if stmt:
                    c.execute(stmt)

    def records(self, profile_id: int, last: int | None = None, ruleset: str | None = None) -> list[Record]:
        """The profile's records, oldest first; ``last`` keeps only the newest N; ``ruleset``
        ("hongwu" or "zhaopengyou") only that game's (None: both; check ``Record.ruleset``)."""
        where, args = ("profile_id = ?", [profile_id]) if ruleset is None else (
            "profile_id = ? AND ruleset = ?", [profile_id, ruleset])
        if last is None:
            rows = self.conn.execute(f"SELECT {RECORD_COLUMNS} FROM records WHERE {where} ORDER BY id",
                                     args).fetchall()
        else:
            rows = self.conn.execute(
                f"SELECT * FROM (SELECT {RECORD_COLUMNS} FROM records WHERE {where}"
                " ORDER BY id DESC LIMIT ?) ORDER BY id", (*args, max(0, last))).fetchall()
        return [_record(r) for r in rows]

    def record(self, record_id: int) -> Record:
        """One record by id; raises :class:`CareerError` when there is none."""
        row = self.conn.execute(f"SELECT {RECORD_COLUMNS} FROM records WHERE id = ?", (record_id,)).fetchone()
        if row is None:
            raise CareerError(f"no record with id {record_id}")
        return _record(row)

    def replay_text(self, record_id: int) -> str:
        """The replay file text of record ``record_id`` (docs/REPLAY.md); raises CareerError."""
        row = self.conn.execute("SELECT text FROM replays WHERE record_id = ?", (record_id,)).fetchone()
        if row is None:
            raise CareerError(f"no record with id {record_id}")
        return row[0]

    def cached_review(self, record_id: int, settings: str) -> str | None:
        """The cached review JSON of record ``record_id`` made with ``settings`` (the key of
        :func:`ai_plugins.review.settings_key`), or None."""
        row = self.conn.execute("SELECT result FROM reviews WHERE record_id = ? AND settings = ?",
                                (record_id, settings)).fetchone()
        return row[0] if row else None

    def cached_reviews(self, record_id: int) -> list[tuple[str, str]]:
        """Every cached review of record ``record_id`` as ``(settings, JSON text)``, newest
        first (empty when none; an unknown record has none)."""
        rows = self.conn.execute("SELECT settings, result FROM reviews WHERE record_id = ? "
                                 "ORDER BY created DESC, settings", (record_id,)).fetchall()
        return [(str(a), str(b)) for a, b in rows]

    def save_review(self, record_id: int, settings: str, result: str, now: float | None = None) -> None:
        """Cache a review (JSON text) of record ``record_id`` under ``settings`` (replacing an
        older one); raises CareerError for an unknown record."""
        with self._tx() as c:
            if c.execute("SELECT 1 FROM records WHERE id = ?", (record_id,)).fetchone() is None:
                raise CareerError(f"no record with id {record_id}")
            c.execute("INSERT OR REPLACE INTO reviews VALUES (?, ?, ?, ?)",
                      (record_id, settings, result, time.time() if now is None else now))

    # -- 找朋友 records (v3) ----------------------------------------------------------------------
    def add_zpy_record(self, profile_id: int, fields: dict[str, Any]) -> int:
        """Insert one finished 找朋友 hand in one transaction: a ``records`` row (ruleset
        'zhaopengyou', no game points, no coins: RULES.md §11, §12), its replay, and its
        ``zpy_hands`` row; the profile's last-played time is updated (its points, coins and
        红五 hand count are not). ``fields``: ``time, day, options, seed, seats, seat, dealer,
        trump (None: no-trump), match_id, hand_no, friend (None: alone), alone, friend_call
        ("AS/1"), level, catcher_points, winner, dealer_side, levels_before, levels_after,
        game_over, game_winners, replay``. Returns the record id; CareerError for an unknown
        profile."""
        f = fields
        me = f["seat"]
        gain = f["levels_after"][me] - f["levels_before"][me]
        n = len(f["seats"])
        with self._tx() as c:
            row = c.execute("SELECT points FROM profiles WHERE id = ?", (profile_id,)).fetchone()
            if row is None:
                raise CareerError(f"no profile with id {profile_id}")
            cur = c.execute(
                "INSERT INTO records(profile_id, time, day, ruleset, options, seed, seats, seat, dealer, bid,"
                " trump, points, dealer_final, game_points, coins, stake, my_points, my_coins, total_after,"
                " red_fives_won, red_fives_lost) VALUES (?,?,?,'zhaopengyou',?,?,?,?,?,0,?,?,?,?,?,0,0,0,?,0,0)",
                (profile_id, f["time"], f["day"], json.dumps(f["options"], sort_keys=True), f["seed"],
                 json.dumps(list(f["seats"]), ensure_ascii=False), me, f["dealer"],
                 f["trump"] or "NT", f["catcher_points"], gain, json.dumps([0] * n), json.dumps([0] * n), row[0]))
            rid = cur.lastrowid
            c.execute("INSERT INTO replays(record_id, text) VALUES (?, ?)", (rid, f["replay"]))
            c.execute("INSERT INTO zpy_hands VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                      (rid, profile_id, str(f["match_id"]), f["hand_no"], f["friend"], int(bool(f["alone"])),
                       f["friend_call"], f["level"], f["catcher_points"], f["winner"],
                       json.dumps(list(f["dealer_side"])), json.dumps(list(f["levels_before"])),
                       json.dumps(list(f["levels_after"])), gain, int(bool(f["game_over"])),
                       json.dumps(list(f["game_winners"]))))
            c.execute("UPDATE profiles SET last_played = ? WHERE id = ?", (f["time"], profile_id))
            return rid

    def zpy_hands(self, profile_id: int, match_id: str | None = None) -> list[ZpyHandRecord]:
        """The profile's 找朋友 hands, oldest first (only match ``match_id`` when given)."""
        sql = (f"SELECT {ZPY_COLUMNS} FROM zpy_hands z JOIN records r ON r.id = z.record_id"
               " WHERE z.profile_id = ?")
        args: list[Any] = [profile_id]
        if match_id is not None:
            sql += " AND z.match_id = ?"
            args.append(str(match_id))
        return [_zpy(row) for row in self.conn.execute(sql + " ORDER BY z.record_id", args)]

    def record_ids(self, profile_id: int) -> list[int]:
        """The ids of the profile's records, oldest first."""
        return [r[0] for r in self.conn.execute("SELECT id FROM records WHERE profile_id = ? ORDER BY id",
                                                (profile_id,))]


class _Unusable(Exception):
    """The database file cannot be used as it is (set it aside)."""


class _Transaction:
    """``with`` block = one ``BEGIN IMMEDIATE`` … ``COMMIT`` (ROLLBACK on an exception)."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def __enter__(self) -> sqlite3.Connection:
        self.conn.execute("BEGIN IMMEDIATE")
        return self.conn

    def __exit__(self, exc_type: Any, *rest: Any) -> None:
        self.conn.execute("ROLLBACK" if exc_type else "COMMIT")


def _move_aside(path: Path) -> Path:
    """Rename ``path`` (and its -wal / -shm) to ``<name>.damaged-<UTC time>``; returns the new path."""
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    target = path.with_name(f"{path.name}.damaged-{stamp}")
    k = 1
    while target.exists():
        target = path.with_name(f"{path.name}.damaged-{stamp}-{k}")
        k += 1
    os.replace(path, target)
    for suffix in ("-wal", "-shm"):
        side = path.with_name(path.name + suffix)
        if side.exists():
            os.replace(side, target.with_name(target.name + suffix))
    return target
