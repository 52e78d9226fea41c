"""Bundled data files of the Hong Wu client: the CJK font subset and the sound effects.

Everything here is produced by scripts in ``tools/`` (see ``assets/fonts/README.md`` and
``assets/sounds/LICENSE.md``) and shipped as package data, so the helpers below find the
files both in a source checkout and in an installed wheel.

Layout::

    assets/fonts/NotoSansSC-Subset.otf        Noto Sans CJK SC Regular, subset (SIL OFL 1.1)
    assets/fonts/NotoSansSC-Bold-Subset.otf   the same characters in Bold
    assets/sounds/<name>.wav                  16-bit mono PCM effects, names in SOUND_NAMES
"""
from __future__ import annotations

import importlib.resources
from pathlib import Path, PurePosixPath

__all__ = ["SOUND_NAMES", "FONT_FILES", "asset_path", "font_path", "sound_path"]

#: Sound effects shipped in ``assets/sounds`` (file name without ``.wav``).
SOUND_NAMES: tuple[str, ...] = (
    "deal", "play", "ruff", "trick_won", "red_five", "win", "lose", "click", "promotion",
)

#: Font file names in ``assets/fonts``, keyed by ``bold``.
FONT_FILES: dict[bool, str] = {
    False: "NotoSansSC-Subset.otf",
    True: "NotoSansSC-Bold-Subset.otf",
}


def _package_dir() -> Path:
    """Directory of this package on the file system."""
    root = importlib.resources.files(__name__)
    if isinstance(root, Path):
        return root
    # Imported from a zip archive or another non-file loader: pygame needs real files, so
    # use the module's own location, which is a directory for every supported install.
    return Path(__file__).resolve().parent


def asset_path(*parts: str) -> Path:
    """Return the file-system path of a bundled asset, e.g. ``asset_path("sounds", "win.wav")``.

    Works in a source checkout and in an installed wheel (the package is imported from a
    directory, so the result is a real path that pygame can open).  The file's existence is
    not checked.

    Args:
        parts: path components relative to the ``assets`` package; each may itself contain
            ``/`` separators.  No part may be absolute or contain ``..``.

    Returns:
        An absolute :class:`pathlib.Path` (the package directory itself when ``parts`` is
        empty).

    Raises:
        ValueError: a part is absolute or steps out of the package with ``..``.
    """
    rel = PurePosixPath(*parts) if parts else PurePosixPath()
    if rel.is_absolute() or ".." in rel.parts or any(Path(p).is_absolute() for p in parts):
        raise ValueError(f"asset path must stay inside the assets package: {parts!r}")
    return _package_dir().joinpath(*rel.parts)


def font_path(bold: bool = False) -> Path:
    """Return the path of the bundled Noto Sans CJK SC subset, for ``pygame.font.Font``.

    The font covers printable ASCII, Latin-1, common CJK punctuation and full-width forms,
    card suits ♠♥♣♦ (U+2660..U+2667), arrows and other UI symbols, the 3,755 GB2312
    level-1 hanzi and every character used in the project's sources.

    Args:
        bold: the Bold face instead of the Regular one.

    Returns:
        Absolute path of an OpenType (CFF) ``.otf`` file.

    Raises:
        FileNotFoundError: the font is missing (regenerate it with
            ``python tools/make_font_subset.py``).
    """
    path = asset_path("fonts", FONT_FILES[bool(bold)])
    if not path.is_file():
        raise FileNotFoundError(
            f"{path} is missing; regenerate it with: python tools/make_font_subset.py")
    return path


def sound_path(name: str) -> Path:
    """Return the path of the sound effect ``name`` (one of :data:`SOUND_NAMES`).

    Args:
        name: effect name without extension, e.g. ``"red_five"``.

    Returns:
        Absolute path of a 16-bit mono PCM ``.wav`` file.

    Raises:
        KeyError: ``name`` is not in :data:`SOUND_NAMES`.
        FileNotFoundError: the file is missing (regenerate with
            ``python tools/make_sounds.py``).
    """
    if name not in SOUND_NAMES:
        raise KeyError(f"unknown sound {name!r}; known: {', '.join(SOUND_NAMES)}")
    path = asset_path("sounds", f"{name}.wav")
    if not path.is_file():
        raise FileNotFoundError(
            f"{path} is missing; regenerate it with: python tools/make_sounds.py")
    return path
