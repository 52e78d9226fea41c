"""The pygame side of ``hongwu host`` and ``hongwu join``: their windows.

:mod:`net.cli` owns both sub-commands (arguments, the server, headless play) and imports
nothing from ``game``; this module registers them with :data:`HOOKS` (a
:class:`net.cli.ClientHooks`), through which the windowed paths open the pygame client in the
LAN lobby and a windowed host finds the house rules saved from the new-game screen.
:mod:`game.cli` wires ``host`` / ``join`` here.
"""
from __future__ import annotations

import argparse
from typing import Any

from net import cli as net_cli


# ============================================================================ host
def _host_window(host: Any, port: int, ns: argparse.Namespace) -> int:
    """Run the window of ``hongwu host`` on the started ``host``; returns the exit code."""
    app = make_host_app(host, port, ns)
    return app.run()


def make_host_app(host: Any, port: int, ns: argparse.Namespace) -> Any:
    """The pygame client of ``hongwu host``: connected over loopback to ``host`` with host
    rights at ``ns.seat``, opened in the LAN lobby (``game.scenes.lan.LanScreen``) where the
    seats can be filled with AIs and the host says ready. The first hand then opens the table;
    Back in the lobby leaves to the main menu and stops the server."""
    from net.remote_table import RemoteTable

    from .scenes.lan import HostHandle, LanScreen

    token = host.resumed_seat_token(ns.seat)  # --resume: the seat the host played before
    table = RemoteTable("127.0.0.1", port, ns.player, seat=ns.seat, token=token,
                        host_key=host.server.host_key,
                        title=getattr(ns, "career_title", None))  # hongwu host --profile
    try:
        app = _remote_app_class()(_remote_options(ns, menu=True))
        app.push_screen(LanScreen(app, "host", session=(HostHandle(host, port), table)))
    except BaseException:
        table.close()
        raise
    return app


def _saved_house_rules() -> dict[str, Any]:
    """The house rules saved from the new-game screen (``game.settings``)."""
    from . import settings

    return dict(settings.load().house_rules)


# ============================================================================ join
def _play_window(table: Any, ns: argparse.Namespace) -> int:
    """Run the pygame client of ``hongwu join`` on ``table``, opened in the LAN lobby; returns
    the exit code (3 when stopped by ``--max-frames``)."""
    try:
        app = make_join_app(table, ns)
    except BaseException:
        table.close()
        raise
    return app.run()


def make_join_app(table: Any, ns: argparse.Namespace) -> Any:
    """The pygame client of ``hongwu join HOST[:PORT]`` on a connected ``table``
    (``RemoteTable``): opened straight in the LAN lobby (``game.scenes.lan.LanScreen`` in
    join mode), which says ready for a seated player and shows the seats until the first hand
    opens the table. Back in the lobby leaves the table (the connection closes) for the main
    menu; closing the window closes the connection too."""
    from .scenes.lan import LanScreen

    app = _remote_app_class()(_remote_options(ns, menu=True))
    try:
        app.push_screen(LanScreen(app, "join", session=(None, table)))
    except BaseException:
        app.close()
        raise
    return app


# ============================================================================ the window
def make_remote_app(table: Any, ns: argparse.Namespace) -> Any:
    """The pygame client (``game.app.App``) on ``table``, with an auto-play (托管) toolbar
    button and the table's notices (auto-play, chat, reconnects) shown as messages."""
    return _remote_app_class()(_remote_options(ns), table=table)


def _remote_options(ns: argparse.Namespace, menu: bool = False) -> Any:
    from .app import Options
    from .settings import renderer_choice

    return Options(seats=["human", "remote", "remote", "remote"], hands=ns.hands,
                   renderer=renderer_choice(getattr(ns, "renderer", None)),
                   lang=ns.lang, speed=ns.speed, fullscreen=ns.fullscreen, audio=not ns.mute,
                   save_settings=False, menu=menu,
                   max_frames=getattr(ns, "max_frames", None),
                   plugin_dirs=list(getattr(ns, "plugin_dir", None) or []),
                   user_plugins=not getattr(ns, "no_user_plugins", False),
                   recorder=getattr(ns, "career_recorder", None))


def _remote_app_class() -> Any:
    from .app import App

    class RemoteApp(App):
        """``App`` plus the network extras (auto-play toggle, notices)."""

        def _toolbar_items(self) -> list[tuple[str, str]]:
            items = super()._toolbar_items()
            if getattr(self.table, "seat", None) is not None:
                label = "托管 ON" if self.table.auto else "托管 off"
                items.append(("auto", label))
            return items

        def _on_toolbar(self, key: str) -> None:
            if key == "auto":
                self.table.set_auto(not self.table.auto)
                return
            super()._on_toolbar(key)

        def step(self, events: Any = None) -> bool:
            """One frame; the table's notices are shown as messages first."""
            notices = getattr(self.table, "notices", None)
            if self.scene is not None and callable(notices):
                for line in notices():
                    self.scene.toast(line, seconds=4.0)
            return super().step(events)

    return RemoteApp


# ============================================================================ headless 找朋友
def _record_zpy_hand(ns: argparse.Namespace, hand: Any, names: list[str], seat: int, table_key: str) -> None:
    """``hongwu join --headless --profile NAME`` at a 找朋友 table: record the hand its seat
    played (rebuilt by :mod:`net.zpy_log`) with ``Recorder.zpy_lan_hand_finished``, as the
    window does. Without ``--profile`` nothing is recorded."""
    rec = getattr(ns, "career_recorder", None)
    if rec is not None:
        rec.zpy_lan_hand_finished(hand, names, seat, table_key)


# ============================================================================ wiring
#: the pygame client's :class:`net.cli.ClientHooks`
HOOKS = net_cli.ClientHooks(host_window=_host_window, join_window=_play_window,
                            saved_house_rules=_saved_house_rules, plays_zhaopengyou=True,
                            zpy_hand_settled=_record_zpy_hand)


def add_host_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Register ``hongwu host`` (:func:`net.cli.add_host_parser`) with the pygame window,
    plus ``--profile NAME`` (the host's own seat plays as that profile: its title relayed, its
    hands recorded)."""
    from .career.cli import add_join_profile

    return add_join_profile(net_cli.add_host_parser(subparsers, HOOKS), "host")


def add_join_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Register ``hongwu join`` (:func:`net.cli.add_join_parser`) with the pygame window,
    plus ``--profile NAME`` (the window records the hands it plays for that profile)."""
    from .career.cli import add_join_profile

    return add_join_profile(net_cli.add_join_parser(subparsers, HOOKS))
