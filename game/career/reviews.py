"""Reviews 复盘 of recorded hands, cached with the record in the career store.

:func:`review_record` returns the cached review of a record for the given settings, or runs
:func:`ai_plugins.review.review` on its replay and caches the result (table ``reviews``,
schema v4 of :mod:`game.career.store`). Records of both games are reviewed: 红五 hands in game
points, 找朋友 hands in levels (:func:`ai_plugins.review.rules_for`).
"""
from __future__ import annotations

import json
from typing import Callable

from ai_plugins.review import DEFAULT_SAMPLES, Review, review, settings_key
from engine import replay as R

from .store import Store


def cached_review(store: Store, record_id: int, seat: int | None = None) -> Review | None:
    """The review of record ``record_id`` already in the cache, without computing one: the
    default settings' (:data:`ai_plugins.review.DEFAULT_SAMPLES`, seed 0) if cached, else the
    newest cached review of ``seat`` (default: the record's own seat) made by the current
    :data:`ai_plugins.review.REVIEW_VERSION` (any sample count, e.g. ``hongwu review
    --samples``); None when there is none. Damaged entries are skipped. Raises CareerError
    for an unknown record."""
    from ai_plugins.review import REVIEW_VERSION

    rec = store.record(record_id)
    seat = rec.seat if seat is None else seat
    prefix = f"v{REVIEW_VERSION}:seat={seat}:"
    entries = store.cached_reviews(record_id)
    default = settings_key(seat, DEFAULT_SAMPLES, 0)
    entries.sort(key=lambda e: e[0] != default)  # stable: the default first, then newest first
    for key, text in entries:
        if not key.startswith(prefix):
            continue
        try:
            return Review.from_dict(json.loads(text))
        except (ValueError, KeyError, TypeError):
            continue
    return None


def review_record(store: Store, record_id: int, seat: int | None = None, samples: int = DEFAULT_SAMPLES,
                  seed: int = 0, progress: Callable[[int, int], None] | None = None) -> tuple[Review, bool]:
    """``(review, cached)`` of record ``record_id`` (a 红五 or a 找朋友 hand): ``seat`` defaults to the record's own seat
    (the profile's). ``cached`` is True when it came from the store. Raises CareerError for an
    unknown record, :class:`engine.replay.ReplayError` for a replay that does not re-run and
    ValueError for a bad seat or sample count."""
    rec = store.record(record_id)
    seat = rec.seat if seat is None else seat
    key = settings_key(seat, samples, seed)
    hit = store.cached_review(record_id, key)
    if hit is not None:
        try:
            return Review.from_dict(json.loads(hit)), True
        except (ValueError, KeyError, TypeError):  # a damaged cache entry is recomputed
            pass
    rv = review(R.parse(store.replay_text(record_id)), seat, samples, seed, progress)
    store.save_review(record_id, key, rv.dumps())
    return rv, False
