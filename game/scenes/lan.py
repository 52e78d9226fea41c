"""LAN play from the main menu: host a table or join one, then wait in a small lobby.

Uses the ``net`` package only through its public pieces: :class:`net.cli.BackgroundHost` (the
server on its own thread, announced on the LAN), :class:`net.remote_table.RemoteTable` (the
client's table protocol over TCP) and :func:`net.discovery.discover` (hosts announcing
themselves).  Nothing here knows the protocol.

- **Host**: starts a server on :attr:`LanScreen.port` (the protocol's default port; any free
  port if that one is taken) with your settings' decks and house rules (``App.house_rules``),
  sits you at seat 0 with host rights and shows the lobby (which names the table's house rules
  that differ from the defaults): fill the other seats with AIs (``fill:<seat>``) or wait for players
  (``hongwu join`` or this menu on another machine), then ``ready``.
- **Join**: lists the hosts found on the LAN (``found:<i>``; a host with a 找朋友 table is
  marked "Finding Friends 找朋友") and takes an address typed in (``HOST[:PORT]``;
  ``connect``); then the same lobby (``ready``).

The lobby lists one row per seat of the table (four for 红五, five for a 找朋友 table joined
or hosted with ``hongwu host --ruleset zhaopengyou``, whose lobby names the game instead of
the house rules; PROTOCOL.md section 14); the rows shrink to fit five on a small screen.

The hand starts when every seated player is ready; the table then opens (``App.start_remote``).
In the lobby the Chat button (or T) opens the chat panel (:mod:`game.chat_panel`); its history
and mutes go on at the table.
Connecting runs on a worker thread, so the window never freezes.  Buttons: ``back`` always.
"""
from __future__ import annotations

import asyncio
import concurrent.futures
import getpass
import logging
from typing import TYPE_CHECKING, Any

import pygame

from game import fonts, house_rules, presets
from game.i18n import _
from game.scenes.menu import Screen, draw_form_panel
from game.text import ai_name
from game.widgets import ACCENT, ERROR, MUTED, TEXT, Button, draw_text

if TYPE_CHECKING:  # pragma: no cover
    from game.app import App

log = logging.getLogger(__name__)


def player_name() -> str:
    """A display name for this player: the login name, trimmed (``player`` if unknown)."""
    try:
        name = getpass.getuser()
    except Exception:
        name = ""
    return (name or "player")[:24]


class HostHandle:
    """A :class:`net.cli.BackgroundHost` owned by the client; ``close()`` stops it.
    ``addresses``: the ``HOST:PORT`` texts the server can be joined at (only addresses it
    listens on: see :func:`net.addresses.join_addresses`)."""

    def __init__(self, host: Any, port: int) -> None:
        self.host = host
        self.port = port
        self.addresses: list[str] = list(host.addresses)

    def close(self) -> None:
        """Stop the server (idempotent)."""
        self.host.stop()


class LanScreen(Screen):
    """Host or join a LAN table (see the module docstring).

    ``mode`` is ``"host"`` or ``"join"``; ``session`` (optional) is an already connected
    ``(HostHandle or None, RemoteTable)``: the screen then opens in its lobby.
    Public state for tests: ``state`` (``"find"``, ``"connecting"``, ``"lobby"``,
    ``"error"``), ``address`` (the typed address), ``found`` (discovered hosts), ``table``
    (the RemoteTable once connected), ``error``.
    Class attributes ``port`` / ``announce`` / ``discover_port`` may be changed by tests.
    """

    port: int | None = None  # None: the protocol's default port
    announce: tuple[str, ...] | None = ("255.255.255.255",)
    discover_port: int | None = None

    def __init__(self, app: "App", mode: str, session: tuple[Any, Any] | None = None) -> None:
        super().__init__(app)
        self.mode = mode
        self.state = "connecting" if mode == "host" else "find"
        self.address = ""
        self.found: list[Any] = []
        self.table: Any = None
        self.error = ""
        self.handle: HostHandle | None = None
        self.name = player_name()
        profile = self._profile_name(app)
        if profile:
            self.name = profile[:24]
        self._pool = concurrent.futures.ThreadPoolExecutor(max_workers=2, thread_name_prefix="hongwu-lan")
        self._job: concurrent.futures.Future | None = None
        self._discovery: concurrent.futures.Future | None = None
        self._seen_table: Any = None
        self.chat: Any = None  # game.chat.ChatSession once connected
        self.chat_panel: Any = None
        if session is not None:
            # Already connected (``hongwu host`` opens its window here): ``(HostHandle or
            # None, RemoteTable)``; straight to the lobby, both are closed with this screen.
            self.handle, self.table = session
            self.name = getattr(self.table, "name", None) or self.name
            self.state = "lobby"
            self._start_chat()
            if mode == "join" and self.table.seat is not None:
                self.table.ready(True)
        elif mode == "host":
            self._job = self._pool.submit(self._start_host)
        else:
            self._discover()
            try:
                pygame.key.start_text_input()
            except Exception:  # pragma: no cover - no text input on this driver
                pass

    @staticmethod
    def _profile_name(app: Any) -> str:
        """The current profile's name ("" without one): the player's name at LAN tables."""
        career = getattr(app, "career", None)
        try:
            p = career.current() if career is not None else None
        except Exception:
            p = None
        return p.name if p is not None else ""

    # -- background work ------------------------------------------------------------------------
    def _start_host(self) -> Any:
        from net.ai import AIProvider
        from net.cli import BackgroundHost
        from net.protocol import DEFAULT_PORT
        from net.remote_table import RemoteTable
        from net.server import ServerConfig, TableConfig

        o = self.app.options
        decks = self.app.settings.decks
        table_cfg = TableConfig(name=_("{name}'s table").format(name=self.name)[:24], decks=decks,
                                options=self.app.house_rules(),  # saved (or --rule) house rules
                                ai_budget_s=presets.preset(self.app.settings.difficulty).budget_s,
                                stake=max(0, int(getattr(self.app.settings, "stake", 0) or 0)))  # saved stake (§12)
        provider = AIProvider(plugin_dirs=o.plugin_dirs, ai_specs=o.ai_specs, user_plugins=o.user_plugins)
        ports = [self.port] if self.port is not None else [DEFAULT_PORT, 0]
        last: Exception | None = None
        for port in ports:
            host = BackgroundHost(ServerConfig(port=port, tables=[table_cfg]), provider,
                                  list(self.announce) if self.announce else None)
            try:
                bound = host.start()
            except OSError as exc:
                last = exc
                host.stop()
                continue
            handle = HostHandle(host, bound)
            try:
                table = RemoteTable("127.0.0.1", bound, self.name, seat=0, host_key=host.server.host_key,
                                    title=self.title())
            except BaseException:
                handle.close()
                raise
            return handle, table
        raise last or OSError("no port")

    def _join(self, host: str, port: int) -> Any:
        from net.remote_table import RemoteTable

        return None, RemoteTable(host, port, self.name, title=self.title())

    def title(self) -> str | None:
        """The current profile's title (Chinese, as stored) for the other players' plates."""
        career = getattr(self.app, "career", None)
        try:
            return (career.title("zh") or None) if career is not None else None
        except Exception:  # a title is decoration: never stop a connection
            return None

    def _discover(self) -> None:
        from net.discovery import discover
        from net.protocol import DISCOVERY_PORT

        port = self.discover_port or DISCOVERY_PORT

        def run() -> list[Any]:
            """Listen for announcements (worker thread)."""
            try:
                return asyncio.run(discover(2.0, port=port))
            except OSError as exc:
                log.info("LAN discovery unavailable: %r", exc)
                return []

        self._discovery = self._pool.submit(run)

    def connect(self, address: str | None = None) -> None:
        """Join ``address`` (``HOST[:PORT]``; default the typed one) in the background."""
        from net.cli import parse_address

        text = (address if address is not None else self.address).strip()
        if not text:
            self.error = _("Type the host's address, e.g. 192.168.1.20")
            return
        try:
            host, port = parse_address(text)
        except Exception:
            self.error = _("Not an address: {text}").format(text=text)
            return
        self.error = ""
        self.state = "connecting"
        self._job = self._pool.submit(self._join, host, port)
        self.invalidate()

    def update(self) -> None:
        """Collect finished background work; open the table once a hand has been dealt."""
        if self._discovery is not None and self._discovery.done():
            found = self._discovery.result()
            self._discovery = None
            if found != self.found:
                self.found = found
                self.invalidate()
            if self.state == "find" and self.app.top is self:
                self._discover()  # keep listening while the list is shown
        if self._job is not None and self._job.done():
            job, self._job = self._job, None
            try:
                self.handle, self.table = job.result()
                self.state = "lobby"
                self._start_chat()
                if self.mode == "join" and self.table.seat is not None:
                    self.table.ready(True)
            except Exception as exc:
                log.info("LAN %s failed: %r", self.mode, exc)
                self.state = "error" if self.mode == "host" else "find"
                self.error = _("Could not connect: {reason}").format(reason=exc) if self.mode == "join" else \
                    _("Could not host: {reason}").format(reason=exc)
            self.invalidate()
        if self.chat_panel is not None and self.chat_panel.update():
            self.invalidate()
        if self.table is not None:
            if self.table.table != self._seen_table:
                self._seen_table = self.table.table
                self.invalidate()
            if self.table.wait_for_hand(0):
                table, handle, chat = self.table, self.handle, self.chat
                self.table = self.handle = None
                self._pool.shutdown(wait=False)
                self._stop_chat()
                self.app.start_remote(table, lan=handle, chat=chat)
            elif not self.table.connected and self.table.goodbye is not None:
                self.error = _("Disconnected by the host")
                self._close_table()
                self.state = "find" if self.mode == "join" else "error"
                if self.state == "find":  # the address field types again (the chat stopped text input)
                    try:
                        pygame.key.start_text_input()
                    except Exception:  # pragma: no cover
                        pass
                self.invalidate()

    def _start_chat(self) -> None:
        """The chat of the table just joined (a session shared with the table later)."""
        import time

        from game.chat import ChatSession
        from game.chat_panel import ChatPanel

        if self.table is None or not callable(getattr(self.table, "take_chats", None)):
            return
        self.chat = ChatSession(self.table, time.monotonic)
        self.chat_panel = ChatPanel(self.chat, lambda: self.size)

    def _stop_chat(self) -> None:
        if self.chat_panel is not None:
            self.chat_panel.close()
        self.chat_panel = None

    def _close_table(self) -> None:
        self._stop_chat()
        self.chat = None
        table, handle = self.table, self.handle
        self.table = self.handle = None
        try:
            if table is not None:
                table.close()
        finally:
            if handle is not None:
                handle.close()

    def close(self) -> None:
        """Leave: close the connection and stop our server."""
        self._close_table()
        self._pool.shutdown(wait=False)
        try:
            pygame.key.stop_text_input()
        except Exception:  # pragma: no cover
            pass

    # -- input -------------------------------------------------------------------------------------------
    def handle_event(self, ev: Any) -> None:
        """The chat panel first (lobby), typing the address (join), then the usual buttons."""
        if self.chat_panel is not None and self.chat_panel.handle_event(ev):
            self.invalidate()
            return
        if self.mode == "join" and self.state == "find":
            if ev.type == pygame.TEXTINPUT:
                self.address = (self.address + ev.text)[:64]
                self.invalidate()
                return
            if ev.type == pygame.KEYDOWN and ev.key == pygame.K_BACKSPACE:
                self.address = self.address[:-1]
                self.invalidate()
                return
            if ev.type == pygame.KEYDOWN and ev.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                self.connect()
                return
        super().handle_event(ev)

    def on_back(self) -> None:
        """Esc / Back: leave the LAN screen (stopping a server we started)."""
        self.close()
        self.app.pop_screen(self)

    def on_button(self, button: Button) -> None:
        """Connect, fill a seat, get ready, or go back."""
        key = button.key
        if key == "back":
            self.on_back()
        elif key == "connect":
            self.connect()
        elif key.startswith("found:"):
            f = self.found[int(key[6:])]
            self.connect(f"{f.address}:{f.port}")
        elif key.startswith("fill:") and self.table is not None:
            seat = int(key[5:])
            seats = self.table.table.get("seats") or []
            ai = None if seats[seat].get("kind") == "ai" else presets.preset(self.app.settings.difficulty).ai_for(
                self.app.ai_names())
            err = self.table.fill(seat, ai)
            self.error = err or ""
        elif key == "ready" and self.table is not None:
            err = self.table.ready(True)
            self.error = err or ""
        elif key == "chat" and self.chat_panel is not None:
            self.chat_panel.toggle()

    # -- drawing ------------------------------------------------------------------------------------------
    def _panel(self) -> pygame.Rect:
        """The lobby's box: centred, or left of the open chat panel when there is room."""
        m = self.metrics
        room = m.w
        chat = self.chat_panel
        if chat is not None and chat.is_open:
            chat.layout()
            if chat.rect.x - 2 * m.margin >= 480:  # else the chat covers part of the lobby
                room = chat.rect.x
        r = pygame.Rect(0, 0, min(room - 2 * m.margin, max(560, round(900 * m.unit))), m.h - 2 * m.margin)
        r.center = (room // 2, m.h // 2)
        return r

    def _top(self, panel: pygame.Rect) -> int:
        """y of the first row under the title and the two status lines (build and draw agree)."""
        m = self.metrics
        title_h = fonts.get_font(round(m.title * 0.7), True).get_height()
        return panel.y + m.gap * 2 + title_h + m.gap + 2 * (m.font + m.gap)

    def _seats(self) -> list[dict[str, Any]]:
        """The table's seats (``Seat`` maps), one per seat of its ruleset (four for 红五,
        five for 找朋友: ``RemoteTable.seat_count``)."""
        seats = list((self.table.table.get("seats") if self.table is not None else None) or [])
        n = getattr(self.table, "seat_count", 4) if self.table is not None else 4
        return (seats + [{}] * n)[:n]

    def _row_h(self, panel: pygame.Rect) -> int:
        """Height of one seat row in the lobby (build and draw agree): a button and a gap,
        shrunk so that five seats fit above the bottom buttons on a small screen."""
        m = self.metrics
        room = panel.bottom - m.margin * 2 - m.button_h - m.gap - self._top(panel)
        n = max(1, len(self._seats()))
        return max(m.font + 4, min(m.button_h + m.gap, room // n))

    def build(self) -> list[Button]:
        """Buttons of the current state."""
        m = self.metrics
        panel = self._panel()
        bh = m.button_h
        out: list[Button] = []
        x0 = panel.x + m.margin * 3
        w = panel.w - m.margin * 6
        y = self._top(panel)
        if self.state == "find":
            out.append(Button("connect", pygame.Rect(x0 + w - round(w * 0.3), y, round(w * 0.3), bh),
                              _("Connect"), style="primary"))
            y += bh + m.gap  # the address field
            y += m.small + m.gap
            for i, f in enumerate(self.found[:4]):
                free = sum(int(t.get("free_seats", 0)) for t in f.tables)
                label = _("{name}  {address}:{port}  ({n} free seats)").format(
                    name=f.name, address=f.address, port=f.port, n=free)
                if any(t.get("ruleset") == "zhaopengyou" for t in f.tables):  # PROTOCOL.md section 14
                    label += "  · " + _("Finding Friends 找朋友")
                out.append(Button(f"found:{i}", pygame.Rect(x0, y, w, bh), label, style="normal"))
                y += bh + m.gap
        elif self.state == "lobby" and self.table is not None:
            me = self.table.seat
            host_rights = bool(getattr(self.table, "host_rights", False))
            row = self._row_h(panel)
            for i, s in enumerate(self._seats()):
                if host_rights and i != me and s.get("kind") in ("empty", "ai"):
                    label = _("Remove AI") if s.get("kind") == "ai" else _("Add AI")
                    bw = round(w * 0.25)
                    out.append(Button(f"fill:{i}", pygame.Rect(x0 + w - bw, y, bw, min(bh, row - 2)), label,
                                      style="flat"))
                y += row
            ready = bool(me is not None and self._seats()[me].get("ready"))
            third = (w - 2 * m.gap) // 3
            if me is not None:  # an observer has nothing to get ready
                out.append(Button("ready", pygame.Rect(x0 + w - third, panel.bottom - m.margin * 2 - bh,
                                                       third, bh),
                                  _("Waiting for players…") if ready else _("Ready"), style="primary",
                                  enabled=not ready))
            if self.chat_panel is not None:
                n = self.chat.unread if self.chat is not None else 0
                out.append(Button("chat", pygame.Rect(x0 + third + m.gap, panel.bottom - m.margin * 2 - bh,
                                                      third, bh),
                                  _("Chat") + (f" ({n})" if n else ""), style="normal",
                                  selected=self.chat_panel.is_open))
        bw = (w - 2 * m.gap) // 3 if self.state == "lobby" else round(w * 0.4)
        bx = x0 if self.state == "lobby" else panel.centerx - bw // 2
        out.append(Button("back", pygame.Rect(bx, panel.bottom - m.margin * 2 - bh, bw, bh), _("Back"), style="flat"))
        return out

    def draw_content(self, surf: pygame.Surface) -> None:
        """Title, status lines, the address field or the seats."""
        m = self.metrics
        panel = self._panel()
        draw_form_panel(surf, panel)
        title = _("Host a LAN game") if self.mode == "host" else _("Join a LAN game")
        draw_text(surf, title, round(m.title * 0.7), ACCENT, (panel.centerx, panel.y + m.gap * 2),
                  anchor="midtop", bold=True, max_width=panel.w - 2 * m.margin)
        y = self._top(panel) - 2 * (m.font + m.gap)
        x0 = panel.x + m.margin * 3
        w = panel.w - m.margin * 6
        status = {
            "connecting": _("Starting the server…") if self.mode == "host" else _("Connecting…"),
            "find": _("Type the host's address, or pick a table found on the LAN"),
            "lobby": self._lobby_line(),
            "error": "",
        }[self.state]
        if status:
            draw_text(surf, status, m.font, TEXT, (panel.centerx, y), anchor="midtop", max_width=w)
        y += m.font + m.gap
        if self.error:
            draw_text(surf, self.error, m.small, ERROR, (panel.centerx, y), anchor="midtop", max_width=w)
        elif self.state == "lobby" and self.table is not None:
            if getattr(self.table, "is_zhaopengyou", False):  # five seats, the 找朋友 options
                rules = _("Finding Friends 找朋友: five seats, three decks")
            else:
                rules = house_rules.summary_line(self.table.table.get("options"))  # the table's, from the wire
            if getattr(self.table, "xray_table", False):  # hongwu host --xray (PROTOCOL.md section 7)
                xr = _("Learners' table: X-ray shows the AI seats' candidates")
                rules = f"{rules} · {xr}" if rules else xr
            if rules:
                draw_text(surf, rules, m.small, MUTED, (panel.centerx, y), anchor="midtop", max_width=w)
        y += m.font + m.gap
        bh = m.button_h
        if self.state == "find":
            field = pygame.Rect(x0, y, round(w * 0.7) - m.gap, bh)
            pygame.draw.rect(surf, (250, 250, 244), field, border_radius=6)
            pygame.draw.rect(surf, ACCENT, field, width=2, border_radius=6)
            text = self.address or _("HOST[:PORT]")
            color = (20, 20, 20) if self.address else (140, 140, 140)
            r = draw_text(surf, text, m.font, color, (field.x + m.margin, field.centery), anchor="midleft",
                          max_width=field.w - 2 * m.margin)
            if self.address:
                pygame.draw.line(surf, (20, 20, 20), (r.right + 2, field.y + 6), (r.right + 2, field.bottom - 6), 2)
            y += bh + m.gap
            found = _("Tables on the LAN:") if self.found else _("Looking for tables on the LAN…")
            draw_text(surf, found, m.small, MUTED, (x0, y), max_width=w)
        elif self.state == "lobby" and self.table is not None:
            me = self.table.seat
            row = self._row_h(panel)
            for i, s in enumerate(self._seats()):
                kind = s.get("kind", "empty")
                who = s.get("name") or ""
                if kind == "empty":
                    who = _("(empty)")
                elif kind == "ai":
                    who = f"{_('AI')}: {ai_name(s.get('ai')) if s.get('ai') else who}"
                if kind == "human" and s.get("title"):  # relayed by the host (protocol 3)
                    from game.scenes.promotion import title_text

                    who += " · " + title_text(str(s["title"]))
                if i == me:
                    who += " — " + _("you")
                mark = "✓ " if s.get("ready") and kind != "empty" else ""
                mid = y + min(bh, row - 2) // 2
                draw_text(surf, _("Seat {n}").format(n=i), m.font, ACCENT, (x0, mid), anchor="midleft",
                          bold=True)
                draw_text(surf, mark + who, m.font, TEXT, (x0 + round(w * 0.18), mid), anchor="midleft",
                          max_width=round(w * 0.55))
                y += row

    def draw(self, surf: pygame.Surface, force: bool = False) -> list[pygame.Rect]:
        """The screen, then the open chat panel over it."""
        rects = super().draw(surf, force)
        if rects and self.chat_panel is not None and self.chat_panel.is_open:
            self.chat_panel.layout()  # the window size or the language may have changed
            self.chat_panel.draw(surf)
        return rects

    def _lobby_line(self) -> str:
        if self.handle is not None:
            addresses = self.handle.addresses
            text = (_("Hosting on {addresses} — others join with this address") if len(addresses) == 1
                    else _("Hosting on {addresses} — others join with one of these addresses"))
            return text.format(addresses=", ".join(addresses))
        t = self.table
        return _("Joined {name}").format(name=(t.table.get("name") if t is not None else "") or "")
