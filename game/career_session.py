"""The client's hold on the career store (README "Career"; docs/CAREER_API.md): which
profile plays seat 0, the Recorder for the open local table, and what the menu, the name
plate and the settlement show about it.

One :class:`CareerSession` per :class:`game.app.App`. The store is opened lazily, only when
something needs it (a profile is created, or a career database already exists), so a client
that never uses profiles never writes a database. No pygame here.
"""
from __future__ import annotations

import logging
from typing import Any

log = logging.getLogger(__name__)

#: the stakes the new-game screen offers, coins per game point (0: no coins; RULES.md §12)
STAKES = (0, 1, 10, 100, 1000, 10000, 100000)


class CareerSession:
    """Profiles and recording for one client window.

    ``recorder``: a :class:`game.career.Recorder` given on the command line (``hongwu play
    --profile``), whose store and profile are used; else the store at ``path`` (default the
    user's, ``$HONGWU_DATA_DIR``) is opened on first need. Errors opening the store are kept
    in :attr:`error` (a sentence) and the client plays on without a career."""

    def __init__(self, recorder: Any = None, path: Any = None) -> None:
        self._store = recorder.store if recorder is not None else None
        self._owned = False  # a store we opened (closed by close(); the command line closes its own)
        self._path = path
        self.recorder = recorder
        self.error = ""
        self.set_aside: Any = None
        #: the last hand's record (game.career.Recorded) not yet shown by a promotion call-out
        self.pending: Any = None

    # -- the store ---------------------------------------------------------------------------
    def store(self, create: bool = False) -> Any:
        """The open store, opening it when a database exists (or ``create``); None when there
        is none yet or it cannot be opened (see :attr:`error`)."""
        if self._store is not None or self.error:
            return self._store
        from game.career import CareerError, db_path, open_store

        path = self._path if self._path is not None else db_path()
        from pathlib import Path

        if not create and not Path(path).exists():
            return None
        try:
            self._store = open_store(path)
        except (CareerError, OSError) as exc:
            self.error = str(exc)
            log.warning("career store not opened: %s", exc)
            return None
        self._owned = True
        self.set_aside = self._store.set_aside
        return self._store

    def close(self) -> None:
        """Close the store if this session opened it (the App does at exit)."""
        if self._store is not None and self._owned:
            try:
                self._store.close()
            finally:
                self._store = None

    # -- profiles ---------------------------------------------------------------------------
    def profiles(self) -> list[Any]:
        """Every profile (by name), [] without a store."""
        st = self.store()
        return st.profiles() if st is not None else []

    def current(self) -> Any:
        """The profile playing seat 0 (a :class:`game.career.Profile`), or None."""
        st = self.store()
        if st is None:
            return None
        if self.recorder is not None:
            return st.find_profile(self.recorder.profile.name)
        return st.current_profile()

    def create(self, name: str, avatar: str | None = None) -> Any:
        """Create a profile and make it the current one; raises CareerError (duplicate, empty
        or too long name, unknown avatar) or OSError."""
        st = self.store(create=True)
        if st is None:
            from game.career import CareerError

            raise CareerError(self.error or "the career database cannot be opened")
        p = st.create_profile(name.strip(), avatar)
        return self.use(p.name)

    def use(self, name: str) -> Any:
        """Make ``name`` the current profile (remembered in the store); the next game records
        for it. Raises CareerError for an unknown name."""
        st = self.store(create=True)
        p = st.use_profile(name)
        if self.recorder is not None and self.recorder.profile.id != p.id:
            self.recorder = None
        return p

    def summary(self, lang: str = "zh") -> dict[str, Any] | None:
        """:func:`game.career.profile_summary` of the current profile, or None."""
        p = self.current()
        if p is None:
            return None
        from game.career import profile_summary

        return profile_summary(self.store(), p.name, lang)

    def title(self, lang: str = "zh") -> str:
        """The current profile's title 等级 ("" without a profile)."""
        p = self.current()
        if p is None:
            return ""
        from engine.scoring import title_for

        return title_for(p.points, lang)

    # -- playing -------------------------------------------------------------------------------
    def recorder_for(self, stake: int) -> Any:
        """A Recorder for the current profile at ``stake`` (None without a profile)."""
        p = self.current()
        if p is None:
            return None
        from game.career import Recorder

        if self.recorder is not None and self.recorder.profile.id == p.id:
            self.recorder.stake = stake
            self.recorder.profile = p
            return self.recorder
        self.recorder = Recorder(self.store(), p.name, stake)
        return self.recorder

    def refusal(self, stake: int) -> Any:
        """:func:`game.career.start_refusal` for the current profile at ``stake`` (None when
        it may play, or without a profile)."""
        p = self.current()
        if p is None or not stake:
            return None
        from game.career import start_refusal

        return start_refusal(self.store(), p.name, stake)


def refusal_lines(refusal: Any) -> list[str]:
    """The sentences a refusal screen shows (translated): why, the day's net, until when."""
    from game.i18n import _

    until = refusal.until.strftime("%Y-%m-%d %H:%M")
    return [_("{name} has reached the daily coin limit.").format(name=refusal.profile),
            _("Coins today: {net:+,} (limit ±{cap:,}).").format(net=refusal.day_net, cap=refusal.cap),
            _("Staked games can start again at {until}.").format(until=until),
            _("Choose stake 0 to play without coins.")]
