"""A player's career: profiles, titles, coins, records 战绩, statistics and replays 回放
(README "Career"; RULES.md §11, §12; docs/REPLAY.md). Importable without pygame (only
:func:`draw_points_chart` / :func:`save_points_chart` need it, imported when called).

The client's entry points (all take an open :class:`Store`; ``open_store()`` opens the user's):

- profiles: ``store.profiles()``, ``store.create_profile(name, avatar=None)``,
  ``store.profile(name)`` / ``find_profile``, ``store.use_profile(name)``,
  ``store.current_profile()``, ``store.set_avatar(name, avatar)``; :data:`AVATARS`;
- titles: :func:`profile_summary` (title, next title, progress), ``engine.titles.promotions``;
- coins: :func:`start_refusal` (the daily cap), :class:`Recorder` (records hands);
- records and statistics: ``store.records(profile_id, last=None, ruleset=None)``, :func:`stats`;
- the chart: :func:`draw_points_chart(surface, rect, series, font=..., title=...)`;
- replays: :func:`load_replay` (record id or file) -> ``engine.replay.Replay`` (红五) or
  ``engine.replay_zpy.ZpyReplay`` (找朋友), then ``engine.replay.frames(replay)`` to step
  trick by trick;
- 找朋友: ``Recorder.zpy_hand_finished(match, seats)``, ``store.zpy_hands(profile_id,
  match_id=None)``, :func:`zpy_stats`, :func:`draw_levels_chart` (docs/CAREER_API.md "找朋友").
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from engine import replay as _replay
from engine.scoring import title_for
from engine.titles import next_title, promotions

from game.career.coins_day import StartRefusal, local_day, next_midnight, start_refusal
from game.career.recorder import Recorded, Recorder, ZpyRecorded, new_match_id
from game.career.stats import Stats, stats
from game.career.store import (
    AVATARS, SCHEMA_VERSION, CareerError, Profile, Record, Store, ZpyHandRecord, data_dir, db_path,
)
from game.career.zpy_stats import ZpyStats, zpy_stats


def open_store(path: Path | str | None = None) -> Store:
    """Open the user's career database (or the one at ``path``); see :meth:`Store.open`.
    Check ``store.set_aside`` to tell the user about a damaged file moved aside."""
    return Store.open(path)


def profile_summary(store: Store, name: str, lang: str = "zh") -> dict[str, Any]:
    """What ``hongwu profile show`` prints and a profile card shows: ``name``, ``avatar``,
    ``points``, ``title``, ``title_en``, ``next_title``, ``next_threshold``, ``progress``
    (0–1), ``coins``, ``hands``, ``created``, ``last_played`` (Unix s or None), ``current``
    (the selected profile?). Raises CareerError for an unknown name."""
    p = store.profile(name)
    nxt = next_title(p.points, lang)
    cur = store.current_profile()
    return {"name": p.name, "avatar": p.avatar, "points": p.points, "title": title_for(p.points, lang),
            "title_en": title_for(p.points, "en"), "next_title": nxt.name, "next_threshold": nxt.threshold,
            "progress": round(nxt.progress, 4), "coins": p.coins, "hands": p.hands, "created": p.created,
            "last_played": p.last_played, "current": cur is not None and cur.id == p.id}


def load_replay(source: int | str | Path, store: Store | None = None) -> _replay.Replay:
    """A parsed replay from a record id (an int, or text of digits, read from ``store``) or a
    replay file path. Raises CareerError (no such record), OSError (unreadable file) or
    ``engine.replay.ReplayError`` (malformed, with the line)."""
    text = str(source)
    if isinstance(source, int) or (text.isdigit() and not Path(text).exists()):
        if store is None:
            raise CareerError("a record id needs the career store")
        return _replay.parse(store.replay_text(int(text)))
    return _replay.parse(Path(text).read_text(encoding="utf-8"))


def draw_points_chart(surface: Any, rect: Any, series: Any, **kw: Any) -> Any:
    """See :func:`game.career.chart.draw_points_chart` (imports pygame)."""
    from game.career.chart import draw_points_chart as draw

    return draw(surface, rect, series, **kw)


def draw_levels_chart(surface: Any, rect: Any, series_per_seat: Any, **kw: Any) -> Any:
    """See :func:`game.career.chart.draw_levels_chart` (imports pygame)."""
    from game.career.chart import draw_levels_chart as draw

    return draw(surface, rect, series_per_seat, **kw)


def save_points_chart(path: str, series: Any, **kw: Any) -> None:
    """See :func:`game.career.chart.save_points_chart` (imports pygame)."""
    from game.career.chart import save_points_chart as save

    save(path, series, **kw)


__all__ = [
    "AVATARS", "SCHEMA_VERSION", "CareerError", "Profile", "Record", "Recorded", "Recorder", "StartRefusal",
    "Stats", "Store", "data_dir", "db_path", "draw_points_chart", "load_replay", "local_day", "next_midnight",
    "next_title", "open_store", "profile_summary", "promotions", "save_points_chart", "start_refusal", "stats",
    "title_for", "ZpyHandRecord", "ZpyRecorded", "ZpyStats", "draw_levels_chart", "new_match_id", "zpy_stats",
]
