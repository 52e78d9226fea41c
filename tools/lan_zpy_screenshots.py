#!/usr/bin/env python3
"""Screenshots of a 找朋友 table over the LAN: the lobby (five seats, the ruleset named) and
the table in play once the friend is revealed.

Starts a real 找朋友 host on 127.0.0.1 (any free port; basic AIs at seats 1-4, host seed 1,
where the window in seat 0 becomes the dealer), the ``hongwu host --ruleset zhaopengyou``
window at seat 0, and plays seat 0's part by its buttons (declare the strongest offer, call
the chooser's friend, bury the first 7, play the first legal cards) until a trick after the
friend's reveal has three plays on the table. Saves ``zpy_lan_lobby_<lang>_<w>.png`` and
``zpy_lan_table_<lang>_<w>.png``. With ``--display :N`` it starts ``Xvfb :N`` and uses SDL's
x11 driver (what a player sees), else the dummy driver.

Usage::

    python tools/lan_zpy_screenshots.py [--out DIR] [--lang zh] [--lang en] [--size 800x480]
                                        [--display :81]
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


def _press(app, key: str) -> bool:
    """Click the enabled button ``key`` of the top screen (a real mouse press and release)."""
    import pygame

    b = next((b for b in app.top.buttons if b.key == key and b.enabled), None)
    if b is None:
        return False
    for t in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
        pygame.event.post(pygame.event.Event(t, pos=b.rect.center, button=1))
    app.step()
    return True


def _raise(app, cards) -> None:
    """Raise exactly ``cards`` in the hand (clicks on the cards)."""
    import pygame

    for _ in range(len(cards) * 3 + 10):
        sc = app.scene
        hand = sc.hand
        want: list[int] = []
        for c in cards:
            i = next((i for i, h in enumerate(hand.cards) if h == c and i in hand.selected and i not in want), None)
            want.append(i if i is not None else next(i for i, h in enumerate(hand.cards) if h == c and i not in want))
        todo = sorted(hand.selected - set(want)) + [i for i in want if i not in hand.selected]
        if not todo:
            return
        x, y = hand.click_point(sc.layout, todo[0])
        for t in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
            pygame.event.post(pygame.event.Event(t, pos=(int(x), int(y)), button=1))
        app.step()


def shoot(lang: str, size: tuple[int, int], out: Path) -> list[Path]:
    """Save the two PNGs for ``lang`` and ``size`` in ``out``; returns their paths."""
    import pygame

    from engine.zhaopengyou import ZPhase
    from game.lan_cli import _remote_app_class, _remote_options, add_host_parser
    from game.scenes.lan import HostHandle, LanScreen
    from game.zpy_table import zpy_first_legal
    from net.cli import BackgroundHost, _ai_provider, host_config
    from net.remote_table import RemoteTable

    sub = argparse.ArgumentParser().add_subparsers()
    ns = add_host_parser(sub).parse_args([
        "--bind", "127.0.0.1", "--port", "0", "--no-discovery", "--no-user-plugins", "--ai-delay", "0.15",
        "--lang", lang, "--speed", "normal", "--mute", "--player", "Hana", "--ruleset", "zhaopengyou",
        "--seed", "1", "--timer-deal", "30", "--timer-counter", "30",
        *[a for s in range(1, 5) for a in ("--ai", f"{s}=basic")]])
    host = BackgroundHost(host_config(ns), _ai_provider(ns), None)
    port = host.start()
    opts = dataclasses.replace(_remote_options(ns, menu=True), size=size)
    me = RemoteTable("127.0.0.1", port, ns.player, seat=0, host_key=host.server.host_key)
    app = _remote_app_class()(opts)  # as make_host_app, at the size asked
    app.push_screen(LanScreen(app, "host", session=(HostHandle(host, port), me)))
    saved: list[Path] = []
    w = app.window.get_width()
    try:
        for _ in range(3):
            app.step()
        path = out / f"zpy_lan_lobby_{lang}_{w}.png"
        pygame.image.save(app.window, str(path))
        saved.append(path)
        _press(app, "ready")
        end = time.monotonic() + 240
        while time.monotonic() < end:
            app.step()
            time.sleep(0.005)
            sc = app.scene
            if sc is None:
                continue
            v = sc.view
            if (v.phase is ZPhase.PLAY and v.friend is not None and len(v.current_trick) >= 3
                    and not sc.show_settlement):
                t0 = time.monotonic()
                while time.monotonic() - t0 < 0.6:  # the cards land
                    app.step()
                    time.sleep(0.01)
                path = out / f"zpy_lan_table_{lang}_{w}.png"
                pygame.image.save(app.window, str(path))
                saved.append(path)
                return saved
            if not v.my_turn:
                continue
            if v.phase in (ZPhase.DEAL, ZPhase.COUNTER):
                _press(app, f"declare:{len(v.legal_declarations) - 1}" if v.phase is ZPhase.DEAL
                       and v.legal_declarations else "declare:pass")
            elif v.phase is ZPhase.CALL_FRIEND:
                _press(app, "fr:call")
            elif v.phase is ZPhase.BURY:
                _raise(app, list(v.hand[: v.bury_count]))
                _press(app, "bury")
            elif v.phase is ZPhase.PLAY:
                _raise(app, list(zpy_first_legal(v).cards))
                _press(app, "play")
        raise RuntimeError("no trick after the friend's reveal was reached")
    finally:
        app.close()
        host.stop()


def main(argv: list[str] | None = None) -> int:
    """Command line (see the module docstring)."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=Path(tempfile.gettempdir()) / "hongwu-zpy-lan-shots",
                    help="folder for the PNGs (default: a folder in the temp dir; docs/screenshots is at its budget)")
    ap.add_argument("--lang", action="append", choices=("zh", "en"))
    ap.add_argument("--size", default="1280x720")
    ap.add_argument("--display", default=None, help="start Xvfb on this display (e.g. :81)")
    ns = ap.parse_args(argv)
    w, h = (int(v) for v in ns.size.lower().split("x"))
    os.environ["HONGWU_CONFIG_DIR"] = tempfile.mkdtemp(prefix="hongwu-zpyshots-")
    os.environ["HONGWU_STATE_DIR"] = tempfile.mkdtemp(prefix="hongwu-zpyshots-state-")
    from game.xvfb import use_display

    use_display(ns.display, (w, h))
    ns.out.mkdir(parents=True, exist_ok=True)
    for lang in ns.lang or ["zh", "en"]:
        for p in shoot(lang, (w, h), ns.out):
            print(p)
    return 0


if __name__ == "__main__":
    sys.exit(main())
