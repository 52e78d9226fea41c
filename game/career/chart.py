"""The career charts, drawn with pygame onto any Surface (the client's statistics screen and
``hongwu stats --plot FILE.png`` share them): 红五 game points over time
(:func:`draw_points_chart`) and a 找朋友 match's level history per seat (:func:`draw_levels_chart`)."""
from __future__ import annotations

from typing import Any, Sequence

from engine.scoring import TITLES

BACKGROUND = (22, 60, 40)
AXIS = (200, 210, 200)
LINE = (250, 200, 60)
ZERO = (150, 160, 150)
THRESHOLD = (90, 120, 100)


def _downsample(series: Sequence[int], width: int) -> list[tuple[int, int]]:
    """(index, value) pairs, at most ~2 per pixel column (min and max of each column kept)."""
    n = len(series)
    if n <= 2 * width:
        return list(enumerate(series))
    out: list[tuple[int, int]] = []
    per = n / width
    for col in range(width):
        a, b = int(col * per), max(int((col + 1) * per), int(col * per) + 1)
        chunk = series[a:b]
        lo, hi = min(chunk), max(chunk)
        ilo, ihi = a + chunk.index(lo), a + chunk.index(hi)
        out.extend(sorted([(ilo, lo), (ihi, hi)]) if ilo != ihi else [(ilo, lo)])
    return out


def draw_points_chart(surface: Any, rect: Any, series: Sequence[int], *, font: Any = None,
                      title: str | None = None, colors: dict[str, tuple] | None = None) -> Any:
    """Draw accumulated game points ``series`` (one value per hand, oldest first; 0 is the
    start) as a line chart into ``rect`` (a pygame Rect or (x, y, w, h)) of ``surface``.

    Draws the background, a zero line, the title thresholds inside the range as faint lines,
    the axes and the line; with ``font`` (a pygame.font.Font) the min/max values, the hand
    count and ``title``. ``colors`` may override ``background``, ``axis``, ``line``, ``zero``,
    ``threshold``. Returns the plot area Rect. An empty series draws the axes only."""
    import pygame

    col = {"background": BACKGROUND, "axis": AXIS, "line": LINE, "zero": ZERO, "threshold": THRESHOLD,
           **(colors or {})}
    rect = pygame.Rect(rect)
    surface.fill(col["background"], rect)
    pad_l = 56 if font else 12
    pad_t = (font.get_linesize() + 8) if (font and title) else 12
    plot = pygame.Rect(rect.x + pad_l, rect.y + pad_t, max(10, rect.w - pad_l - 12), max(10, rect.h - pad_t - 28))
    values = [0, *series]
    lo, hi = min(values), max(values)
    if hi == lo:
        hi, lo = hi + 1, lo - 1

    def y_of(v: float) -> int:
        return int(plot.bottom - (v - lo) * (plot.h - 1) / (hi - lo))

    for threshold, _zh, _en in TITLES[1:]:
        if lo < threshold < hi:
            pygame.draw.line(surface, col["threshold"], (plot.x, y_of(threshold)), (plot.right, y_of(threshold)))
    if lo < 0 < hi:
        pygame.draw.line(surface, col["zero"], (plot.x, y_of(0)), (plot.right, y_of(0)))
    pygame.draw.line(surface, col["axis"], plot.topleft, plot.bottomleft)
    pygame.draw.line(surface, col["axis"], plot.bottomleft, plot.bottomright)
    if series:
        pts = _downsample(values, plot.w)
        n = len(values) - 1 or 1
        xy = [(plot.x + int(i * (plot.w - 1) / n), y_of(v)) for i, v in pts]
        if len(xy) >= 2:
            pygame.draw.lines(surface, col["line"], False, xy, 2)
    if font:
        for v in (hi, lo):
            img = font.render(f"{v:+d}" if v else "0", True, col["axis"])
            surface.blit(img, (rect.x + 4, y_of(v) - img.get_height() // 2))
        img = font.render(f"{len(series)}", True, col["axis"])
        surface.blit(img, (plot.right - img.get_width(), plot.bottom + 4))
        if title:
            surface.blit(font.render(title, True, col["axis"]), (plot.x, rect.y + 4))
    return plot


def save_points_chart(path: str, series: Sequence[int], size: tuple[int, int] = (800, 400),
                      title: str | None = None) -> None:
    """Draw the chart onto a new Surface of ``size`` px and save it as PNG at ``path`` (no
    window needed). Raises OSError / pygame.error when the file cannot be written."""
    import pygame

    pygame.font.init()
    surf = pygame.Surface(size)
    font = pygame.font.Font(None, 20)
    draw_points_chart(surf, surf.get_rect(), series, font=font, title=title)
    pygame.image.save(surf, path)


SEAT_COLORS = ((250, 200, 60), (120, 200, 255), (255, 120, 120), (150, 230, 140), (220, 150, 255),
               (255, 170, 90), (200, 200, 200))
"""Line colours of the level chart, one per seat (cycled past the last)."""


def draw_levels_chart(surface: Any, rect: Any, series_per_seat: Sequence[Sequence[int]], *, font: Any = None,
                      title: str | None = None, labels: Sequence[str] | None = None, highlight: int | None = None,
                      colors: dict[str, Any] | None = None) -> Any:
    """Draw a 找朋友 match's level history: ``series_per_seat[s]`` is seat s's level (rank
    2..14; 11–14 are J Q K A) before the first hand, then after each hand (all seats the same
    length; :attr:`game.career.zpy_stats.ZpyStats.levels`). Into ``rect`` (a pygame Rect or
    (x, y, w, h)) of ``surface``: background, one faint line per level in range, axes, one
    line per seat (a dot per hand); with ``font`` the level names, the hand count, ``title`` and a legend
    of ``labels`` (per seat; default "seat N"). ``highlight``: a seat drawn thicker (the
    profile's). ``colors``: ``background``, ``axis``, ``grid`` and ``seats`` (a list). Returns
    the plot area Rect; empty series draw the axes only."""
    import pygame

    from engine.zhaopengyou import LEVEL_NAMES

    col = {"background": BACKGROUND, "axis": AXIS, "grid": THRESHOLD, "seats": SEAT_COLORS, **(colors or {})}
    rect = pygame.Rect(rect)
    surface.fill(col["background"], rect)
    seats = [list(s) for s in series_per_seat]
    names = list(labels or [f"seat {i}" for i in range(len(seats))])
    line_h = font.get_linesize() if font else 0
    pad_l = 36 if font else 12
    pad_t = (line_h + 8) if (font and title) else 12
    pad_b = (line_h + 10) * (2 if font and seats else 1) if font else 12
    plot = pygame.Rect(rect.x + pad_l, rect.y + pad_t, max(10, rect.w - pad_l - 12), max(10, rect.h - pad_t - pad_b))
    values = [v for s in seats for v in s]
    lo, hi = (min(values), max(values)) if values else (2, 3)
    lo, hi = max(2, lo - 1) if lo > 2 else 2, min(14, hi + 1) if hi < 14 else 14
    if hi == lo:
        hi = lo + 1

    def y_of(v: float) -> int:
        return int(plot.bottom - (v - lo) * (plot.h - 1) / (hi - lo))

    for v in range(lo, hi + 1):
        pygame.draw.line(surface, col["grid"], (plot.x, y_of(v)), (plot.right, y_of(v)))
        if font:
            img = font.render(LEVEL_NAMES.get(v, str(v)), True, col["axis"])
            surface.blit(img, (rect.x + 4, y_of(v) - img.get_height() // 2))
    pygame.draw.line(surface, col["axis"], plot.topleft, plot.bottomleft)
    pygame.draw.line(surface, col["axis"], plot.bottomleft, plot.bottomright)
    steps = max((len(s) for s in seats), default=1) - 1 or 1
    palette = list(col["seats"])
    for i, s in enumerate(seats):
        if len(s) < 2:
            continue
        off = (i - (len(seats) - 1) / 2) * 2  # a small vertical offset so equal levels stay apart
        xy = [(plot.x + int(k * (plot.w - 1) / steps), int(y_of(v) + off)) for k, v in enumerate(s)]
        c = palette[i % len(palette)]
        pygame.draw.lines(surface, c, False, xy, 4 if i == highlight else 2)
        for p in xy:  # a dot per hand
            pygame.draw.circle(surface, c, p, 4 if i == highlight else 3)
    if font:
        img = font.render(f"{steps if any(len(s) > 1 for s in seats) else 0}", True, col["axis"])
        surface.blit(img, (plot.right - img.get_width(), plot.bottom + 4))
        if title:
            surface.blit(font.render(title, True, col["axis"]), (plot.x, rect.y + 4))
        x = plot.x
        y = plot.bottom + line_h + 8
        for i, name in enumerate(names[:len(seats)]):
            c = palette[i % len(palette)]
            pygame.draw.rect(surface, c, (x, y + line_h // 3, 14, 4 if i != highlight else 6))
            img = font.render(f"{i} {name}", True, col["axis"])
            surface.blit(img, (x + 18, y))
            x += 18 + img.get_width() + 16
    return plot


def save_levels_chart(path: str, series_per_seat: Sequence[Sequence[int]], size: tuple[int, int] = (800, 400),
                      title: str | None = None, labels: Sequence[str] | None = None,
                      highlight: int | None = None) -> None:
    """:func:`draw_levels_chart` onto a new Surface of ``size`` px, saved as PNG at ``path``
    (no window needed; ``hongwu stats --ruleset zhaopengyou --plot``). Raises OSError /
    pygame.error when the file cannot be written."""
    import pygame

    pygame.font.init()
    surf = pygame.Surface(size)
    font = pygame.font.Font(None, 20)
    draw_levels_chart(surf, surf.get_rect(), series_per_seat, font=font, title=title, labels=labels,
                      highlight=highlight)
    pygame.image.save(surf, path)
