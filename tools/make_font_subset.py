#!/usr/bin/env python3
"""Build the bundled CJK font: a small subset of Noto Sans CJK SC for the pygame-ce client.

The client renders Chinese, card suits and a few UI symbols with one bundled font, so the
table looks the same on every machine whatever fonts the system has.  The full Noto Sans
CJK face is ~16 MB; this script keeps only the characters the client can need:

* printable ASCII and Latin-1 (U+0020..U+007E, U+00A0..U+00FF);
* general punctuation, arrows, maths operators, circled numbers, geometric shapes and
  stars (see :data:`SYMBOL_RANGES`), the card suits U+2660..U+2667 and ✓;
* CJK symbols and punctuation (U+3000..U+303F) and the full-width forms (U+FF01..U+FF5E,
  U+FFE0..U+FFE6);
* GB2312 rows 1-3 (Chinese punctuation, numerals, full-width ASCII) and all 3,755 level-1
  hanzi (rows 16-55, bytes 0xB0A1..0xD7F9), listed through Python's ``gb2312`` codec;
* every character that appears in the project's own source and translation files
  (``*.py``, ``*.po``, ``*.json`` and anything under ``game/locale/``, in the package
  directories given by ``--scan``), so re-running after UI strings change keeps coverage;
* anything passed with ``--text`` / ``--text-file``.

Characters the source face does not have are reported and left out.  Hinting, vertical
metrics and every OpenType layout feature except ``kern`` are dropped; the outlines stay
CFF, so the output is a plain ``.otf`` that pygame.font (FreeType) loads directly.

Requirements (build time only, not runtime dependencies of the game)::

    apt-get install -y fonts-noto-cjk     # provides NotoSansCJK-{Regular,Bold}.ttc
    pip install fonttools

Usage::

    python tools/make_font_subset.py                 # Regular and Bold into assets/fonts/
    python tools/make_font_subset.py --no-bold       # Regular only
    python tools/make_font_subset.py --list-chars    # print the character set and exit

The output is byte-for-byte reproducible for the same source font and fontTools version.
"""
from __future__ import annotations

import argparse
import importlib.util
import sys
from pathlib import Path
from typing import Iterable, Sequence

REPO_ROOT = Path(__file__).resolve().parent.parent
FONT_DIR = REPO_ROOT / "assets" / "fonts"

#: Where Debian's fonts-noto-cjk puts the collections.
DEFAULT_SOURCES = {
    "Regular": Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"),
    "Bold": Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc"),
}
#: Output file names inside ``assets/fonts``.
OUTPUT_NAMES = {
    "Regular": "NotoSansSC-Subset.otf",
    "Bold": "NotoSansSC-Bold-Subset.otf",
}
#: Debian's machine-readable copyright file, which carries the OFL text.
DEBIAN_COPYRIGHT = Path("/usr/share/doc/fonts-noto-cjk/copyright")
#: PostScript name prefix of the Simplified Chinese face inside the collection.
SC_PS_NAME = "NotoSansCJKsc-"

#: Inclusive code point ranges of non-Han characters a card-table UI can use.
SYMBOL_RANGES: tuple[tuple[int, int], ...] = (
    (0x0020, 0x007E),  # printable ASCII
    (0x00A0, 0x00FF),  # Latin-1 supplement: · × ÷ ° ± « » etc.
    (0x2010, 0x2016),  # dashes ‐ ‑ ‒ – — ― and ‖
    (0x2018, 0x201A),  # ‘ ’ ‚
    (0x201C, 0x201E),  # “ ” „
    (0x2020, 0x2022),  # † ‡ •
    (0x2025, 0x2027),  # ‥ … ‧
    (0x2030, 0x2030),  # ‰
    (0x2032, 0x2033),  # ′ ″
    (0x2035, 0x2035),  # ‵
    (0x2039, 0x203B),  # ‹ › ※
    (0x20AC, 0x20AC),  # €
    (0x2103, 0x2103),  # ℃
    (0x2116, 0x2116),  # №
    (0x2160, 0x216B),  # Roman numerals Ⅰ..Ⅻ
    (0x2190, 0x2199),  # arrows ← ↑ → ↓ ↔ ↕ ↖ ↗ ↘ ↙
    (0x21D0, 0x21D0),  # ⇐
    (0x21D2, 0x21D2),  # ⇒
    (0x21D4, 0x21D4),  # ⇔
    (0x2212, 0x2212),  # − minus
    (0x221A, 0x221A),  # √
    (0x221D, 0x221E),  # ∝ ∞
    (0x2260, 0x2262),  # ≠ ≡ ≢
    (0x2264, 0x2265),  # ≤ ≥
    (0x2460, 0x2473),  # circled numbers ① .. ⑳
    (0x25A0, 0x25A1),  # ■ □
    (0x25B2, 0x25B3),  # ▲ △
    (0x25B6, 0x25B7),  # ▶ ▷
    (0x25BC, 0x25BD),  # ▼ ▽
    (0x25C0, 0x25C1),  # ◀ ◁
    (0x25C6, 0x25C7),  # ◆ ◇
    (0x25C9, 0x25CC),  # ◉ ◊ ○ ◌
    (0x25CE, 0x25CF),  # ◎ ●
    (0x2605, 0x2606),  # ★ ☆
    (0x2660, 0x2667),  # card suits ♠ ♡ ♢ ♣ ♤ ♥ ♦ ♧
    (0x2713, 0x2713),  # ✓
    (0x3000, 0x303F),  # CJK symbols and punctuation: 、。〈〉《》「」【】〇 …
    (0xFF01, 0xFF5E),  # full-width ASCII forms
    (0xFFE0, 0xFFE6),  # full-width ￠ ￡ ￢ ￣ ￤ ￥ ￦
)

#: File name patterns scanned for characters inside each ``--scan`` directory.
SCAN_PATTERNS = ("*.py", "*.po", "*.json")
#: Package directories (relative to the repository root) scanned by default.
DEFAULT_SCAN_DIRS = ("game", "engine", "ai_plugins", "net")


def range_characters(ranges: Iterable[tuple[int, int]] = SYMBOL_RANGES) -> set[str]:
    """Return the characters of inclusive ``(first, last)`` code point ranges.

    Args:
        ranges: pairs of integer code points, both ends included.

    Returns:
        A set of one-character strings.
    """
    return {chr(cp) for first, last in ranges for cp in range(first, last + 1)}


def gb2312_characters(rows: Iterable[int]) -> set[str]:
    """Return the characters of the given GB2312 rows (区), decoded with Python's codec.

    Row ``r`` holds the byte pairs ``(0xA0 + r, 0xA1..0xFE)``; empty cells (which the codec
    refuses to decode) are skipped.  Rows 16-55 are the 3,755 level-1 hanzi
    (0xB0A1..0xD7F9); rows 1-3 are punctuation, numerals and full-width ASCII.

    Args:
        rows: GB2312 row numbers, 1..94.

    Returns:
        A set of one-character strings.

    Raises:
        ValueError: a row outside 1..94.
    """
    chars: set[str] = set()
    for row in rows:
        if not 1 <= row <= 94:
            raise ValueError(f"GB2312 row {row} is outside 1..94")
        for cell in range(0xA1, 0xFF):
            try:
                chars.add(bytes((0xA0 + row, cell)).decode("gb2312"))
            except UnicodeDecodeError:
                continue
    return chars


def gb2312_level1_hanzi() -> set[str]:
    """Return the 3,755 GB2312 level-1 hanzi (rows 16-55, bytes 0xB0A1..0xD7F9)."""
    return gb2312_characters(range(16, 56))


def source_files(root: Path, scan_dirs: Sequence[str] = DEFAULT_SCAN_DIRS) -> list[Path]:
    """List the project files whose characters must be covered, sorted.

    That is every ``*.py``, ``*.po`` and ``*.json`` file under each of ``scan_dirs`` and
    every file under ``game/locale/``.  Directories that do not exist are skipped, as are
    ``__pycache__`` directories.

    Args:
        root: repository root.
        scan_dirs: directory names relative to ``root``.

    Returns:
        Sorted, de-duplicated list of file paths.
    """
    found: set[Path] = set()
    for name in scan_dirs:
        base = root / name
        if not base.is_dir():
            continue
        for pattern in SCAN_PATTERNS:
            found.update(base.rglob(pattern))
    locale = root / "game" / "locale"
    if locale.is_dir():
        found.update(p for p in locale.rglob("*") if p.is_file())
    return sorted(p for p in found if "__pycache__" not in p.parts)


def characters_in_files(paths: Iterable[Path]) -> set[str]:
    """Return every non-control character in the given files, read as UTF-8.

    Undecodable bytes (binary ``.mo`` catalogues, for instance) are ignored, as are
    control characters (category ``Cc``) and surrogates.

    Args:
        paths: files to read.

    Returns:
        A set of one-character strings.
    """
    chars: set[str] = set()
    for path in paths:
        text = path.read_bytes().decode("utf-8", errors="ignore")
        chars.update(text)
    return {c for c in chars if ord(c) >= 0x20 and not 0x7F <= ord(c) < 0xA0
            and not 0xD800 <= ord(c) < 0xE000}


def wanted_characters(root: Path = REPO_ROOT, scan_dirs: Sequence[str] = DEFAULT_SCAN_DIRS,
                      extra: str = "") -> set[str]:
    """Return the full character set the subset should cover (before checking the font).

    Args:
        root: repository root whose package directories are scanned.
        scan_dirs: directories under ``root`` to scan (see :func:`source_files`).
        extra: additional characters to include.

    Returns:
        A set of one-character strings.
    """
    chars = range_characters()
    chars |= gb2312_characters((1, 2, 3))
    chars |= gb2312_level1_hanzi()
    chars |= characters_in_files(source_files(root, scan_dirs))
    chars |= set(extra)
    chars.discard("\n")
    return chars


def find_sc_font_number(collection: Path) -> int:
    """Return the index of the Simplified Chinese face (``NotoSansCJKsc-*``) in a TTC.

    Args:
        collection: path to ``NotoSansCJK-*.ttc``.

    Returns:
        The font number to pass to fontTools (2 in Debian's 2.004 collections).

    Raises:
        LookupError: no face's PostScript name starts with ``NotoSansCJKsc-``.
    """
    from fontTools.ttLib import TTCollection

    ttc = TTCollection(str(collection), lazy=True)
    try:
        for index, font in enumerate(ttc.fonts):
            ps_name = font["name"].getDebugName(6) or ""
            if ps_name.startswith(SC_PS_NAME):
                return index
    finally:
        ttc.close()
    raise LookupError(f"no {SC_PS_NAME}* face in {collection}")


def subset_font(source: Path, output: Path, chars: set[str]) -> tuple[int, list[str]]:
    """Subset the SC face of ``source`` to ``chars`` and write a CFF ``.otf`` to ``output``.

    Args:
        source: a Noto Sans CJK ``.ttc`` collection (or a single-face ``.otf``).
        output: destination file; its parent directory is created.
        chars: characters to keep; those the face lacks are dropped.

    Returns:
        ``(glyph_count, missing)``: glyphs in the written font and the sorted characters
        that were asked for but are not in the source face.

    Raises:
        FileNotFoundError: ``source`` does not exist.
        LookupError: a collection without an SC face.
    """
    from fontTools import subset
    from fontTools.ttLib import TTFont

    if not source.is_file():
        raise FileNotFoundError(source)
    font_number = find_sc_font_number(source) if source.suffix.lower() in (".ttc", ".otc") else -1

    options = subset.Options()
    options.font_number = font_number
    options.layout_features = ["kern"]  # horizontal UI text: no vertical/locl/palt needed
    options.hinting = False
    options.drop_tables += ["VORG", "vhea", "vmtx", "BASE", "DSIG"]
    options.name_IDs = [0, 1, 2, 3, 4, 5, 6, 7, 8, 11, 12, 13, 14]  # keep licence/credits
    options.name_languages = [0x409]
    options.notdef_outline = True  # unsupported characters show a visible box
    options.glyph_names = False
    options.recalc_timestamp = False  # reproducible output
    options.recalc_bounds = True

    font = TTFont(str(source), fontNumber=font_number if font_number >= 0 else 0,
                  recalcTimestamp=False, lazy=False)
    cmap = font.getBestCmap()
    keep = sorted(ord(c) for c in chars if ord(c) in cmap)
    missing = sorted(c for c in chars if ord(c) not in cmap)

    subsetter = subset.Subsetter(options=options)
    subsetter.populate(unicodes=keep)
    subsetter.subset(font)
    output.parent.mkdir(parents=True, exist_ok=True)
    font.save(str(output), reorderTables=True)
    glyphs = len(font.getGlyphOrder())
    font.close()
    return glyphs, missing


def ofl_text_from_debian(copyright_file: Path = DEBIAN_COPYRIGHT) -> str:
    """Return the SIL Open Font License text from a Debian ``copyright`` file.

    Debian's machine-readable format stores a licence as a ``License: SIL-1.1`` stanza whose
    continuation lines start with a space and use `` .`` for blank lines; this undoes that.

    Args:
        copyright_file: ``/usr/share/doc/fonts-noto-cjk/copyright`` by default.

    Returns:
        The licence text, ending with a newline.

    Raises:
        FileNotFoundError: the file does not exist.
        LookupError: it has no ``License: SIL-1.1`` stanza with text.
    """
    lines = copyright_file.read_text(encoding="utf-8").splitlines()
    for i, line in enumerate(lines):
        if line.strip() != "License: SIL-1.1" or i + 1 >= len(lines):
            continue
        if not lines[i + 1].startswith(" "):
            continue  # the short form inside a Files: stanza
        body = []
        for cont in lines[i + 1:]:
            if not cont.startswith(" "):
                break
            body.append("" if cont.strip() == "." else cont[1:])
        return "\n".join(body).strip("\n") + "\n"
    raise LookupError(f"no SIL-1.1 licence text in {copyright_file}")


def write_ofl(out_dir: Path, source: Path, copyright_file: Path = DEBIAN_COPYRIGHT) -> Path:
    """Write ``OFL.txt``: the source face's copyright and trademark notices, then the OFL.

    The notices are read from the font's ``name`` table (IDs 0 and 7); the licence text is
    taken from Debian's copyright file (see :func:`ofl_text_from_debian`).

    Args:
        out_dir: directory to write ``OFL.txt`` into.
        source: the Noto Sans CJK collection the subset was made from.
        copyright_file: Debian's copyright file for fonts-noto-cjk.

    Returns:
        The path written.
    """
    from fontTools.ttLib import TTFont

    number = find_sc_font_number(source) if source.suffix.lower() in (".ttc", ".otc") else 0
    font = TTFont(str(source), fontNumber=number, lazy=True)
    name = font["name"]
    notices = [n for n in (name.getDebugName(0), name.getDebugName(7)) if n]
    font.close()
    header = (
        "Noto Sans CJK SC (subset bundled with Hong Wu as assets/fonts/*.otf)\n"
        + "\n".join(notices) + "\n\n"
        "This Font Software is licensed under the SIL Open Font License, Version 1.1.\n"
        "This license is copied below, as shipped in Debian's fonts-noto-cjk package,\n"
        "and is also available with a FAQ at: https://openfontlicense.org\n\n"
    )
    path = out_dir / "OFL.txt"
    out_dir.mkdir(parents=True, exist_ok=True)
    path.write_text(header + ofl_text_from_debian(copyright_file), encoding="utf-8")
    return path


def _format_chars(chars: Iterable[str]) -> str:
    return " ".join(f"U+{ord(c):04X}({c if c.isprintable() else '?'})" for c in chars)


def build_parser() -> argparse.ArgumentParser:
    """Return the command-line parser of this script."""
    parser = argparse.ArgumentParser(
        description="Subset Noto Sans CJK SC into assets/fonts/ for the pygame-ce client.",
        epilog="Needs: apt-get install -y fonts-noto-cjk; pip install fonttools",
    )
    parser.add_argument("--regular", type=Path, default=DEFAULT_SOURCES["Regular"],
                        help="Regular source collection (default: %(default)s)")
    parser.add_argument("--bold", type=Path, default=DEFAULT_SOURCES["Bold"],
                        help="Bold source collection (default: %(default)s)")
    parser.add_argument("--no-bold", action="store_true", help="build the Regular face only")
    parser.add_argument("--out-dir", type=Path, default=FONT_DIR,
                        help="output directory (default: assets/fonts)")
    parser.add_argument("--root", type=Path, default=REPO_ROOT,
                        help="repository root whose sources are scanned (default: this repo)")
    parser.add_argument("--scan", nargs="*", default=list(DEFAULT_SCAN_DIRS), metavar="DIR",
                        help="directories under --root scanned for characters "
                             "(default: %(default)s)")
    parser.add_argument("--text", default="", help="extra characters to include")
    parser.add_argument("--text-file", type=Path, action="append", default=[],
                        help="UTF-8 file whose characters are included (repeatable)")
    parser.add_argument("--copyright", type=Path, default=DEBIAN_COPYRIGHT,
                        help="Debian copyright file the OFL text is taken from "
                             "(default: %(default)s)")
    parser.add_argument("--list-chars", action="store_true",
                        help="print the wanted character set and exit (no fontTools needed)")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the script; returns the process exit code (0 ok, 1 missing source/tool)."""
    args = build_parser().parse_args(argv)
    extra = args.text + "".join(p.read_text(encoding="utf-8") for p in args.text_file)
    chars = wanted_characters(args.root, args.scan, extra)
    if args.list_chars:
        print("".join(sorted(chars)))
        print(f"{len(chars)} characters", file=sys.stderr)
        return 0

    if importlib.util.find_spec("fontTools") is None:
        print("fontTools is missing: pip install fonttools", file=sys.stderr)
        return 1
    faces = [("Regular", args.regular)] + ([] if args.no_bold else [("Bold", args.bold)])
    for style, source in faces:
        if not source.is_file():
            print(f"{source} not found: apt-get install -y fonts-noto-cjk "
                  f"(or pass --{style.lower()} PATH)", file=sys.stderr)
            return 1
    print(f"{len(chars)} characters wanted")
    for style, source in faces:
        output = args.out_dir / OUTPUT_NAMES[style]
        glyphs, missing = subset_font(source, output, chars)
        print(f"{style}: {output} — {glyphs} glyphs, {output.stat().st_size:,} bytes")
        if missing:
            print(f"  not in the source face, left out ({len(missing)}): "
                  f"{_format_chars(missing)}")
    if args.copyright.is_file():
        print(write_ofl(args.out_dir, args.regular, args.copyright))
    else:
        print(f"{args.copyright} not found: OFL.txt left as it is", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
