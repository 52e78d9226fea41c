#!/usr/bin/env python3
"""Compile the client's gettext catalogs (``game/locale/*/LC_MESSAGES/*.po``) to ``.mo`` files.

Standard library only: a minimal ``msgfmt`` that understands what our catalogs use
(``msgctxt``, ``msgid``, ``msgid_plural``, ``msgstr``/``msgstr[n]``, multi-line strings,
``#`` comments; entries flagged ``fuzzy`` and untranslated entries are left out, as GNU msgfmt
does).  The output is byte-for-byte reproducible (entries sorted, no timestamps).

Usage: ``python tools/compile_catalogs.py [--check] [PO_FILE ...]`` — with no file, every
catalog under ``game/locale`` is compiled next to its ``.po``.  ``--check`` compiles in memory
and exits 1 when a committed ``.mo`` differs (for tests and CI).
"""
from __future__ import annotations

import argparse
import ast
import struct
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LOCALE_DIR = ROOT / "game" / "locale"


class PoError(ValueError):
    """A ``.po`` file that this minimal parser cannot read (message names the line)."""


def parse_po(text: str, name: str = "<po>") -> dict[bytes, bytes]:
    """Parse ``.po`` text into ``{msgid: msgstr}`` as the ``.mo`` format stores them.

    Plural entries become ``msgid\\0msgid_plural`` -> ``msgstr[0]\\0msgstr[1]...``; a context
    prefixes the key as ``ctxt\\x04msgid``.  The header (empty msgid) is kept.  Raises
    :class:`PoError` on a syntax error.
    """
    entries: dict[bytes, bytes] = {}
    cur: dict[str, object] = {}
    section: str | None = None

    def flush() -> None:
        nonlocal cur, section
        if "msgid" in cur:
            msgid = str(cur["msgid"])
            ctxt = cur.get("msgctxt")
            plural = cur.get("msgid_plural")
            strs: dict[int, str] = cur.get("msgstr", {})  # type: ignore[assignment]
            translated = any(strs.values())
            if translated and (not cur.get("fuzzy") or msgid == ""):
                key = msgid if plural is None else msgid + "\0" + str(plural)
                if ctxt is not None:
                    key = str(ctxt) + "\x04" + key
                val = "\0".join(strs[i] for i in sorted(strs))
                entries[key.encode("utf-8")] = val.encode("utf-8")
        cur = {}
        section = None

    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#"):
            if line.startswith("#,") and "fuzzy" in line:
                if "msgid" in cur:
                    flush()  # the flag belongs to the entry that follows
                cur["fuzzy"] = True
            continue
        try:
            if line.startswith('"'):
                if section is None:
                    raise PoError(f"{name}:{lineno}: string outside an entry")
                s = ast.literal_eval(line)
                if section.startswith("msgstr["):
                    idx = int(section[7:-1])
                    cur["msgstr"][idx] += s  # type: ignore[index]
                elif section == "msgstr":
                    cur["msgstr"][0] += s  # type: ignore[index]
                else:
                    cur[section] = str(cur[section]) + s
                continue
            keyword, _, rest = line.partition(" ")
            s = ast.literal_eval(rest.strip())
        except (SyntaxError, ValueError) as exc:
            raise PoError(f"{name}:{lineno}: cannot read {raw!r}") from exc
        if keyword in ("msgctxt", "msgid") and (section or "").startswith("msgstr"):
            flush()
        if keyword == "msgctxt" or keyword == "msgid" or keyword == "msgid_plural":
            cur[keyword] = s
            section = keyword
        elif keyword == "msgstr":
            cur.setdefault("msgstr", {})[0] = s  # type: ignore[index]
            section = "msgstr"
        elif keyword.startswith("msgstr[") and keyword.endswith("]"):
            idx = int(keyword[7:-1])
            cur.setdefault("msgstr", {})[idx] = s  # type: ignore[index]
            section = keyword
        else:
            raise PoError(f"{name}:{lineno}: unknown keyword {keyword!r}")
    flush()
    return entries


def build_mo(entries: dict[bytes, bytes]) -> bytes:
    """Serialise ``entries`` to GNU ``.mo`` bytes (little endian, no hash table)."""
    keys = sorted(entries)
    n = len(keys)
    ids = b""
    strs = b""
    offsets = []
    for k in keys:
        v = entries[k]
        offsets.append((len(ids), len(k), len(strs), len(v)))
        ids += k + b"\0"
        strs += v + b"\0"
    key_start = 7 * 4 + 16 * n
    val_start = key_start + len(ids)
    koffsets: list[int] = []
    voffsets: list[int] = []
    for o1, l1, o2, l2 in offsets:
        koffsets += [l1, o1 + key_start]
        voffsets += [l2, o2 + val_start]
    header = struct.pack("Iiiiiii", 0x950412DE, 0, n, 7 * 4, 7 * 4 + n * 8, 0, 0)
    return header + struct.pack(f"{2 * n}i", *koffsets) + struct.pack(f"{2 * n}i", *voffsets) + ids + strs


def compile_file(po: Path, check: bool = False) -> bool:
    """Compile ``po`` to the ``.mo`` beside it; with ``check`` only compare.

    Returns True when the ``.mo`` on disk is (now) up to date.
    """
    data = build_mo(parse_po(po.read_text(encoding="utf-8"), str(po)))
    mo = po.with_suffix(".mo")
    if check:
        return mo.exists() and mo.read_bytes() == data
    mo.write_bytes(data)
    return True


def main(argv: list[str] | None = None) -> int:
    """Command line entry point; returns the exit code."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="fail if a committed .mo is stale")
    ap.add_argument("files", nargs="*", type=Path)
    ns = ap.parse_args(argv)
    files = ns.files or sorted(LOCALE_DIR.glob("*/LC_MESSAGES/*.po"))
    ok = True
    for po in files:
        good = compile_file(po, check=ns.check)
        ok &= good
        print(f"{po}: {'ok' if good else 'STALE'}" if ns.check else f"compiled {po.with_suffix('.mo')}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
