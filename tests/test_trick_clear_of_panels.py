"""Played cards (and the winner's frame around them) never go under the panels in the
corners of the table: the info box, the helper buttons, the toolbar, the points panel and the
card counter (game/layout.py ``Layout.trick_rects``)."""
from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame  # noqa: E402
import pytest  # noqa: E402

from game.layout import Layout  # noqa: E402

SIZES = [(800, 480), (800, 600), (1024, 600), (1024, 768), (1280, 720), (1280, 800), (1366, 768),
         (1920, 1080), (800, 1280)]


@pytest.mark.parametrize("seats,max_hand", [(4, 33), (4, 47), (5, 39)])
@pytest.mark.parametrize("size", SIZES)
def test_trick_cards_stay_clear_of_the_corner_panels(size, seats, max_hand):
    lay = Layout(*size, max_hand=max_hand, seats=seats)
    panels = {"info": lay.info_rect, "tools": lay.tools_rect, "scores": lay.scores_rect,
              "toolbar": lay.toolbar, "counter": lay.counter_rect}
    for pos in lay.positions:
        for n in (1, 2, 3, 4, 6, 8):
            rects = lay.trick_rects(pos, n)
            frame = rects[0].unionall(rects).inflate(6, 6)
            for name, r in panels.items():
                assert not frame.colliderect(r), (size, seats, pos, n, name, frame, r)
