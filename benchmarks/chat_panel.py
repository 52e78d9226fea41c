#!/usr/bin/env python3
"""How long the chat costs a frame: the open chat panel drawn with a full history (100 lines,
Chinese and English, some long enough to wrap) and four bubbles, at 800×480, 1280×720 and
1920×1080, under SDL's dummy video driver (drawing into a surface; nothing is presented).

Prints, per size, the median of ``--repeats`` draws (ms) of the panel alone and of the bubbles
alone, and the first draw (which wraps the history; later draws reuse the wrapped rows).

Usage: ``python benchmarks/chat_panel.py [--repeats 30]``
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")


class _Table:
    seat, name, chat_in_notices = 0, "Me", True

    def __init__(self) -> None:
        self.table = {"seats": [{"kind": "human", "name": n} for n in ("Me", "Bea", "Cai", "Dov")]}
        texts = ["快点吧！", ":heart:", "a longer line that needs to wrap across the history box twice",
                 "这一轮打得真好，我们下一局再来", "ok"]
        self.inbox = [{"seat": i % 4, "name": ("Me", "Bea", "Cai", "Dov")[i % 4], "text": texts[i % 5]}
                      for i in range(100)]

    def chat(self, text):
        return None

    def take_chats(self):
        out, self.inbox = self.inbox, []
        return out


def main(argv: list[str] | None = None) -> int:
    """Run and print the figures."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=30)
    ns = ap.parse_args(argv)
    import pygame

    from game import fonts
    from game.chat import ChatSession
    from game.chat_panel import ChatPanel, bubble_rects, draw_bubble
    from game.layout import Layout

    pygame.display.init()
    pygame.font.init()
    pygame.display.set_mode((64, 64))
    for size in ((800, 480), (1280, 720), (1920, 1080)):
        fonts.clear_cache()
        surf = pygame.Surface(size)
        session = ChatSession(_Table(), time.monotonic)
        session.pull()
        panel = ChatPanel(session, lambda s=size: s)
        panel.open()
        t0 = time.perf_counter()
        panel.draw(surf)
        first = (time.perf_counter() - t0) * 1000
        times = []
        for _ in range(ns.repeats):
            t0 = time.perf_counter()
            panel.draw(surf)
            times.append((time.perf_counter() - t0) * 1000)
        lay = Layout(*size)
        bt = []
        for _ in range(ns.repeats):
            t0 = time.perf_counter()
            now = time.monotonic()
            for seat, r in bubble_rects(lay, lambda s: s, session.bubbles, lay.small_font).items():
                draw_bubble(surf, r, session.bubbles[seat], lay.small_font, now)
            bt.append((time.perf_counter() - t0) * 1000)
        print(f"{size[0]}x{size[1]}: panel draw ms median {statistics.median(times):.2f} "
              f"(first {first:.1f}), four bubbles ms median {statistics.median(bt):.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
