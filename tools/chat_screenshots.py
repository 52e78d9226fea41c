#!/usr/bin/env python3
"""Screenshots of chat at a LAN table: the lobby and the table with the chat panel open and
speech bubbles at the seats.

Starts a real host on 127.0.0.1 (any free port; AIs at seats 2 and 3), the ``hongwu host``
window at seat 0 and a plain network client "Bea" at seat 1 (``net.remote_table.RemoteTable``);
Bea and the window exchange a typed line, a quick phrase and an emote, then the window is saved
as ``chat_lobby_<lang>_<w>.png`` and ``chat_table_<lang>_<w>.png``.  With ``--display :N`` it
starts ``Xvfb :N`` and uses SDL's x11 driver (what a player sees), else the dummy driver.

Usage::

    python tools/chat_screenshots.py [--out DIR] [--lang zh] [--lang en] [--size 800x480]
                                     [--display :75]
"""
from __future__ import annotations

import argparse
import dataclasses
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def _frames(app, pred, limit_s: float = 20.0) -> None:
    end = time.monotonic() + limit_s
    while time.monotonic() < end:
        app.step()
        if pred():
            return
        time.sleep(0.01)
    raise RuntimeError("timed out")


def shoot(lang: str, size: tuple[int, int], out: Path) -> list[Path]:
    """Save the two PNGs for ``lang`` and ``size`` in ``out``; returns their paths."""
    import pygame

    from game import i18n
    from game.lan_cli import _remote_app_class, _remote_options, add_host_parser
    from game.scenes.lan import HostHandle, LanScreen
    from net.cli import BackgroundHost, _ai_provider, host_config
    from net.remote_table import RemoteTable

    sub = argparse.ArgumentParser().add_subparsers()
    ns = add_host_parser(sub).parse_args([
        "--bind", "127.0.0.1", "--port", "0", "--no-discovery", "--no-user-plugins", "--ai-delay", "0",
        "--lang", lang, "--speed", "instant", "--mute", "--player", "Hana", "--ai", "2=random",
        "--ai", "3=random", "--seed", "7"])
    host = BackgroundHost(host_config(ns), _ai_provider(ns), None)
    port = host.start()
    opts = dataclasses.replace(_remote_options(ns, menu=True), size=size)
    me = RemoteTable("127.0.0.1", port, ns.player, seat=0, host_key=host.server.host_key)
    app = _remote_app_class()(opts)  # as make_host_app, at the size asked
    app.push_screen(LanScreen(app, "host", session=(HostHandle(host, port), me)))
    bea = RemoteTable("127.0.0.1", port, "Bea", seat=1)
    saved: list[Path] = []
    try:
        app.step()
        lobby = app.top
        bea.chat("大家好！" if lang == "zh" else "Hi all!")
        lobby.chat_panel.open()
        _frames(app, lambda: len(lobby.chat.visible()) >= 2)
        lobby.chat_panel.field.insert("准备好了" if lang == "zh" else "ready when you are")
        for _ in range(3):
            lobby.invalidate()
            app.step()
        w = app.window.get_width()
        path = out / f"chat_lobby_{lang}_{w}.png"
        pygame.image.save(app.window, str(path))
        saved.append(path)
        lobby.chat_panel.field.clear()
        bea.ready(True)
        lobby.table.ready(True)
        _frames(app, lambda: type(app.top).__name__ == "TableScene")
        scene = app.scene
        _frames(app, lambda: len(scene.view.hand) > 0 and not scene.dealing)
        chat = scene.chat
        chat.session.send_phrase("well_played")
        bea.chat(i18n.translate_in(lang, "Hurry up!"))
        bea.chat(":heart:")
        _frames(app, lambda: 1 in chat.session.bubbles and chat.session.bubbles[1].line.kind == "emote"
                and 0 in chat.session.bubbles)
        chat.open()
        chat.field.insert("好牌！" if lang == "zh" else "nice hand")
        scene._chat_refresh(force=True)
        for _ in range(3):
            scene.invalidate()
            app.step()
        path = out / f"chat_table_{lang}_{w}.png"
        pygame.image.save(app.window, str(path))
        saved.append(path)
    finally:
        bea.close()
        app.close()
        host.stop()
    return saved


def main(argv: list[str] | None = None) -> int:
    """Command line (see the module docstring)."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    ap.add_argument("--lang", action="append", choices=("zh", "en"))
    ap.add_argument("--size", default="1280x720")
    ap.add_argument("--display", default=None, help="start Xvfb on this display (e.g. :75)")
    ns = ap.parse_args(argv)
    w, h = (int(v) for v in ns.size.lower().split("x"))
    os.environ["HONGWU_CONFIG_DIR"] = tempfile.mkdtemp(prefix="hongwu-chatshots-")
    from game.xvfb import use_display

    use_display(ns.display, (w, h))
    ns.out.mkdir(parents=True, exist_ok=True)
    for lang in ns.lang or ["zh", "en"]:
        for p in shoot(lang, (w, h), ns.out):
            print(p)
    return 0


if __name__ == "__main__":
    sys.exit(main())
