"""Fonts and cached text rendering.

The project's CJK subset font (``assets.font_path()``, Noto Sans SC) is used when present;
otherwise a system CJK font if one can be found, otherwise pygame's default font (which has
no Chinese glyphs, but never fails).  Rendered text surfaces are cached.
"""
from __future__ import annotations

import functools
import logging
from collections import OrderedDict
from pathlib import Path

import pygame

log = logging.getLogger(__name__)

_TEXT_CACHE: "OrderedDict[tuple, pygame.Surface]" = OrderedDict()
_TEXT_CACHE_MAX = 1200


@functools.lru_cache(maxsize=2)
def font_file(bold: bool = False) -> str | None:
    """Path of the font file to use (its Bold face when ``bold`` and shipped), or None for
    pygame's default font."""
    try:
        import assets

        fp = getattr(assets, "font_path", None)
        path = Path(fp(bold)) if callable(fp) else Path(assets.__file__).resolve().parent / "fonts" / "NotoSansSC-Subset.otf"
        if path.exists():
            return str(path)
    except Exception as exc:  # asset package missing or broken: fall back silently
        log.debug("asset font unavailable: %s", exc)
    try:
        found = pygame.font.match_font("notosanscjksc,notosanssc,notosansmonocjksc,notoserifcjksc,wenquanyimicrohei,sourcehansanssc")
    except Exception:  # pragma: no cover
        found = None
    if found:
        log.debug("using system font %s", found)
    return found


@functools.lru_cache(maxsize=64)
def get_font(size: int, bold: bool = False) -> pygame.font.Font:
    """A font of ``size`` pixels (clamped to >= 6); ``bold`` uses the shipped Bold face, or
    synthetic bold when there is none."""
    if not pygame.font.get_init():
        pygame.font.init()
    size = max(6, int(size))
    path = font_file(bold)
    real_bold = bold and path is not None and path != font_file(False)
    try:
        font = pygame.font.Font(path, size)
    except Exception as exc:
        log.info("font %s failed (%s); default font", path, exc)
        font = pygame.font.Font(None, size)
        real_bold = False
    font.set_bold(bold and not real_bold)
    return font


def render(text: str, size: int, color, bold: bool = False) -> pygame.Surface:
    """Render ``text`` (one line) antialiased in ``color``; cached (LRU) by all arguments."""
    key = (text, int(size), tuple(color), bold)
    surf = _TEXT_CACHE.get(key)
    if surf is not None:
        _TEXT_CACHE.move_to_end(key)
        return surf
    surf = get_font(size, bold).render(text, True, color)
    _TEXT_CACHE[key] = surf
    if len(_TEXT_CACHE) > _TEXT_CACHE_MAX:
        _TEXT_CACHE.popitem(last=False)
    return surf


def fit_size(text: str, size: int, max_width: int, bold: bool = False) -> int:
    """Largest font size <= ``size`` (down to 8) at which ``text`` is at most ``max_width`` wide."""
    s = int(size)
    while s > 8 and get_font(s, bold).size(text)[0] > max_width:
        s -= 1
    return s


def clear_cache() -> None:
    """Forget cached text surfaces (after a language switch or display change)."""
    _TEXT_CACHE.clear()


def reset() -> None:
    """Forget every font and text surface (after ``pygame.quit()``: the fonts it closed must
    not be reused if pygame starts again)."""
    get_font.cache_clear()
    clear_cache()
