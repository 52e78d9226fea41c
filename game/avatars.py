"""The built-in avatars (``game.career.AVATARS``) drawn in code: a coloured disc with one
glyph of the bundled CJK font (no image files). README "Career"."""
from __future__ import annotations

import pygame

from game import fonts

#: avatar id -> (disc colour, glyph); every id of game.career.AVATARS has one
AVATAR_STYLE = {
    "panda": ((70, 70, 78), "熊"), "tiger": ((214, 128, 40), "虎"), "crane": ((80, 150, 190), "鹤"),
    "dragon": ((190, 50, 50), "龙"), "fish": ((40, 130, 170), "鱼"), "monkey": ((150, 100, 60), "猴"),
    "rabbit": ((200, 120, 170), "兔"), "horse": ((120, 80, 50), "马"), "rooster": ((220, 80, 40), "鸡"),
    "ox": ((100, 110, 60), "牛"), "goat": ((120, 140, 120), "羊"), "dog": ((170, 130, 80), "狗"),
}


def draw_avatar(surf: pygame.Surface, center: tuple[int, int], radius: int, avatar: str | None,
                ring: tuple | None = None) -> pygame.Rect:
    """Draw avatar ``avatar`` (an id; unknown ids get a grey disc with "?") as a disc of
    ``radius`` px at ``center``; ``ring``: a colour for a selection ring. Returns its rect."""
    color, glyph = AVATAR_STYLE.get(avatar or "", ((110, 110, 110), "?"))
    radius = max(6, int(radius))
    pygame.draw.circle(surf, color, center, radius)
    pygame.draw.circle(surf, (240, 236, 220), center, radius, width=max(1, radius // 12))
    if ring is not None:
        pygame.draw.circle(surf, ring, center, radius + max(3, radius // 6), width=max(2, radius // 8))
    size = max(14, round(radius * 1.1))
    t = fonts.render(glyph, size, (250, 248, 240), bold=True)
    surf.blit(t, t.get_rect(center=center))
    return pygame.Rect(center[0] - radius, center[1] - radius, 2 * radius, 2 * radius)
