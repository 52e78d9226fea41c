"""Talking at a LAN table: the chat history, quick phrases (快捷语), emotes, per-player mute
and the client's own send budget.  No pygame here (the panel is :mod:`game.chat_panel`).

Everything travels as an ordinary protocol ``chat`` line (PROTOCOL.md ``chat``; at most
:data:`net.protocol.CHAT_MAX` characters), so a client that knows nothing of this module
still shows something sensible:

- a **quick phrase** is sent as its text in the sender's language (``快点吧``); a receiver
  that finds the line among the phrases of any catalog shows it in its own language;
- an **emote** is sent as ``:name:`` (``:smile:``, see :data:`EMOTES`); a receiver draws the
  face or shape (no emoji font is bundled), an older client shows the code.

:class:`ChatSession` pulls the table's chat lines (``RemoteTable.take_chats``), keeps the last
:data:`HISTORY` lines (with system lines for players who join, leave, drop or come back,
derived from the ``table`` seats), hides muted players (by name, for the session), holds the
speech bubbles (:data:`BUBBLE_S` seconds) and rate-limits sending with a token bucket well
below the host's budget (:data:`SEND_BURST` lines, then one per :data:`SEND_EVERY_S`
seconds).  Times are the caller's clock in seconds.
"""
from __future__ import annotations

import re
from collections import deque
from dataclasses import dataclass
from typing import Any, Callable

from game.i18n import LANGUAGES, N_, _, translate_in

try:  # the protocol's limit; the client runs without the net package for local play
    from net.protocol import CHAT_MAX
except ImportError:  # pragma: no cover
    CHAT_MAX = 200

#: quick phrases (快捷语): (key, English msgid); zh in the catalog
PHRASES: tuple[tuple[str, str], ...] = (
    ("hurry", N_("Hurry up!")),
    ("well_played", N_("Well played!")),
    ("sorry", N_("Sorry!")),
    ("thanks", N_("Thanks, partner!")),
    ("oops", N_("Oops, my mistake")),
    ("again", N_("One more hand!")),
)

#: emotes: (key, English msgid of its name); drawn by ``game.chat_panel.draw_emote``
EMOTES: tuple[tuple[str, str], ...] = (
    ("smile", N_("Smile")),
    ("sad", N_("Sad")),
    ("wow", N_("Wow")),
    ("heart", N_("Heart")),
    ("star", N_("Great")),
)

HISTORY = 100
"""Lines kept in the history."""

BUBBLE_S = 5.0
"""Seconds a speech bubble stays at the speaker's seat (the last :data:`FADE_S` fading)."""

FADE_S = 1.0

SEND_BURST = 3
"""Lines the client sends at once before its own limit holds it back."""

SEND_EVERY_S = 1.5
"""Seconds per further line (the host's rate limit is far higher: PROTOCOL.md §9)."""

_EMOTE_RE = re.compile(r":([a-z_]+):")


@dataclass(frozen=True)
class ChatLine:
    """One line of the history.

    ``kind``: ``"text"`` (typed), ``"phrase"`` (a quick phrase, ``key`` its
    :data:`PHRASES` key), ``"emote"`` (``key`` an :data:`EMOTES` key), ``"system"`` (joins and
    leaves: ``text`` already in the UI language) or ``"note"`` (the client's own notes: limits,
    refusals).  ``seat`` is the speaker's seat (None for observers and system lines), ``name``
    the speaker, ``at`` the clock time it arrived, ``mine`` True for the local player's lines.
    """

    kind: str
    text: str
    name: str = ""
    seat: int | None = None
    key: str = ""
    at: float = 0.0
    mine: bool = False

    def display(self) -> str:
        """The line's content in the UI language (a phrase or emote name translated)."""
        if self.kind == "phrase":
            return _(dict(PHRASES).get(self.key, self.text))
        if self.kind == "emote":
            return _(dict(EMOTES).get(self.key, self.key))
        return self.text


@dataclass(frozen=True)
class Bubble:
    """A speech bubble at ``seat`` showing ``line`` until clock time ``until``."""

    seat: int
    line: ChatLine
    until: float

    def alpha(self, now: float) -> int:
        """Opacity 0..255 at ``now`` (fading over the last :data:`FADE_S` seconds)."""
        left = self.until - now
        return 0 if left <= 0 else 255 if left >= FADE_S else round(255 * left / FADE_S)


def classify(text: str) -> tuple[str, str]:
    """What a received chat ``text`` is: ``("emote", key)``, ``("phrase", key)`` (the text of a
    quick phrase in any UI language) or ``("text", "")``."""
    t = text.strip()
    m = _EMOTE_RE.fullmatch(t)
    if m and m.group(1) in dict(EMOTES):
        return "emote", m.group(1)
    bare = _bare(t)
    for key, msgid in PHRASES:
        if bare == _bare(msgid) or any(bare == _bare(translate_in(lang, msgid)) for lang in LANGUAGES):
            return "phrase", key
    return "text", ""


def _bare(text: str) -> str:
    """``text`` without closing punctuation and case (``快点吧！`` and ``快点吧`` match)."""
    return text.strip().rstrip("!！.。~～?？ ").casefold()


def wire_text(kind: str, key: str) -> str:
    """The chat text that sends quick phrase or emote ``key`` (``kind`` ``"phrase"`` /
    ``"emote"``): the phrase in the current language, ``:key:`` for an emote.  Raises
    KeyError for an unknown key, ValueError for another kind."""
    if kind == "phrase":
        return _(dict(PHRASES)[key])
    if kind == "emote":
        dict(EMOTES)[key]
        return f":{key}:"
    raise ValueError(f"kind must be 'phrase' or 'emote', not {kind!r}")


class SendBudget:
    """The client's own chat rate limit: a token bucket of ``burst`` lines refilled at one
    line per ``every_s`` seconds of the caller's clock."""

    def __init__(self, burst: int = SEND_BURST, every_s: float = SEND_EVERY_S) -> None:
        self.burst, self.every_s = burst, every_s
        self._tokens = float(burst)
        self._at: float | None = None

    def take(self, now: float) -> bool:
        """Spend one line at ``now``; False (nothing spent) when the budget is empty."""
        if self._at is not None:
            self._tokens = min(self.burst, self._tokens + (now - self._at) / self.every_s)
        self._at = now
        if self._tokens < 1:
            return False
        self._tokens -= 1
        return True


def seat_changes(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    """System lines (UI language) for the human players who sat down, left, dropped or came
    back between two ``Table`` maps (PROTOCOL.md ``Table``); empty when ``old`` is empty."""
    before = list((old or {}).get("seats") or [])
    after = list((new or {}).get("seats") or [])
    if not before:
        return []
    out: list[str] = []
    for i in range(max(len(before), len(after))):
        a = before[i] if i < len(before) else {}
        b = after[i] if i < len(after) else {}
        ah, bh = a.get("kind") == "human", b.get("kind") == "human"
        an, bn = a.get("name") or "", b.get("name") or ""
        if ah and (not bh or an != bn):
            out.append(_("{name} left the table").format(name=an))
        if bh and (not ah or an != bn):
            out.append(_("{name} sat down").format(name=bn))
        elif ah and bh and a.get("connected", True) != b.get("connected", True):
            msg = N_("{name} is back") if b.get("connected", True) else N_("{name} lost the connection")
            out.append(_(msg).format(name=bn))
    return out


class ChatSession:
    """The chat of one LAN table for this window (lobby and table share it).

    ``table``: a ``net.remote_table.RemoteTable`` (``chat(text)``, ``take_chats()``,
    ``table``, ``seat``, ``name``); ``clock``: seconds.  Public state: ``history`` (a deque of
    :class:`ChatLine`, oldest first, at most :data:`HISTORY`), ``muted`` (names), ``bubbles``
    (seat -> :class:`Bubble`, one per seat: the newest), ``unread`` (lines since the panel was
    last looked at), ``budget`` (:class:`SendBudget`).  ``version`` grows with every change (a
    redraw is due).
    """

    def __init__(self, table: Any, clock: Callable[[], float]) -> None:
        self.table = table
        self.clock = clock
        self.history: deque[ChatLine] = deque(maxlen=HISTORY)
        self.muted: set[str] = set()
        self.bubbles: dict[int, Bubble] = {}
        self.unread = 0
        self.budget = SendBudget()
        self.version = 0
        self._seen_table: dict[str, Any] = dict(getattr(table, "table", None) or {})
        if hasattr(table, "chat_in_notices"):
            table.chat_in_notices = False  # shown here, not as toasts

    # -- receiving -------------------------------------------------------------------------------
    def pull(self) -> list[ChatLine]:
        """Take the table's new chat lines and seat changes into the history; returns the lines
        added that are shown (muted speakers' lines are kept but not shown: :meth:`visible`)."""
        now = self.clock()
        added: list[ChatLine] = []
        take = getattr(self.table, "take_chats", None)
        for msg in (take() if callable(take) else []):
            name = str(msg.get("name", ""))
            seat = msg.get("seat")
            text = str(msg.get("text", ""))
            kind, key = classify(text)
            mine = seat is not None and seat == getattr(self.table, "seat", None) and \
                name == getattr(self.table, "name", name)
            line = ChatLine(kind, text, name, seat if isinstance(seat, int) else None, key, now, mine)
            added.append(line)
            if line.seat is not None and name not in self.muted:
                self.bubbles[line.seat] = Bubble(line.seat, line, now + BUBBLE_S)
        table_now = getattr(self.table, "table", None) or {}
        if table_now != self._seen_table:
            for text in seat_changes(self._seen_table, table_now):
                added.append(ChatLine("system", text, at=now))
            self._seen_table = dict(table_now)
        for line in added:
            self.history.append(line)
        shown = [ln for ln in added if ln.name not in self.muted or ln.kind == "system"]
        if added:
            self.unread += sum(1 for ln in shown if not ln.mine)
            self.version += 1
        return shown

    def visible(self) -> list[ChatLine]:
        """The history as shown: muted players' lines left out (oldest first)."""
        return [ln for ln in self.history if ln.kind in ("system", "note") or ln.name not in self.muted]

    def expire(self, now: float) -> list[int]:
        """Drop bubbles whose time is up; returns their seats."""
        gone = [s for s, b in self.bubbles.items() if b.until <= now]
        for s in gone:
            del self.bubbles[s]
        if gone:
            self.version += 1
        return gone

    def note(self, text: str) -> None:
        """Add a note of the client's own (a refusal, the send limit) to the history."""
        self.history.append(ChatLine("note", text, at=self.clock()))
        self.version += 1

    # -- sending -----------------------------------------------------------------------------------
    def send(self, text: str) -> str | None:
        """Say ``text`` (trimmed, cut to :data:`CHAT_MAX`); None when sent, else why not (also
        added to the history as a note).  Never raises."""
        text = " ".join(str(text).split())[:CHAT_MAX]
        if not text:
            return _("Type something first")
        if not self.budget.take(self.clock()):
            why = _("Not so fast: wait a moment before the next line")
            self.note(why)
            return why
        try:
            err = self.table.chat(text)
        except Exception as exc:  # never let chat break the game
            err = str(exc)
        if err is not None:
            if getattr(self.table, "last_error", None) == "RATE_LIMITED":  # the host's chat budget
                why = _("Not so fast: wait a moment before the next line")
            else:
                why = _("The host refused the message: {reason}").format(reason=str(err))
            self.note(why)
            return why
        return None

    def send_phrase(self, key: str) -> str | None:
        """Send quick phrase ``key`` (:data:`PHRASES`); see :meth:`send`."""
        return self.send(wire_text("phrase", key))

    def send_emote(self, key: str) -> str | None:
        """Send emote ``key`` (:data:`EMOTES`); see :meth:`send`."""
        return self.send(wire_text("emote", key))

    # -- players -----------------------------------------------------------------------------------
    def players(self) -> list[str]:
        """Names that can be muted: the other humans seated, then observers who spoke."""
        me = getattr(self.table, "name", None)
        seats = (getattr(self.table, "table", None) or {}).get("seats") or []
        out = [s.get("name") for s in seats if s.get("kind") == "human" and s.get("name")
               and s.get("name") != me]
        for line in self.history:
            if line.kind not in ("system", "note") and line.name and line.name != me \
                    and line.name not in out:
                out.append(line.name)
        return out

    def toggle_mute(self, name: str) -> bool:
        """Mute ``name`` (or unmute); returns True when now muted.  A muted player's bubble
        goes at once and their lines leave the shown history (:meth:`visible`) until unmuted;
        the mute lasts as long as this session (this window's stay at the table)."""
        if name in self.muted:
            self.muted.discard(name)
            muted = False
        else:
            self.muted.add(name)
            muted = True
            for s in [s for s, b in self.bubbles.items() if b.line.name == name]:
                del self.bubbles[s]
        self.version += 1
        return muted
