#!/usr/bin/env python3
"""Collect the client's translatable strings and update the ``.po`` catalogs.

Scans ``game/**/*.py`` for calls ``_("...")``, ``N_("...")`` and ``ngettext("...", "...", n)``
whose arguments are string literals, then for each ``game/locale/<lang>/LC_MESSAGES/hongwu.po``
keeps existing translations, adds new messages untranslated and drops messages no longer
used.  Standard library only.  Afterwards run ``python tools/compile_catalogs.py``.

Usage: ``python tools/extract_messages.py [--check]`` (``--check``: exit 1 if a catalog would
change, or a Chinese translation is missing).
"""
from __future__ import annotations

import argparse
import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
from compile_catalogs import LOCALE_DIR  # noqa: E402

HEADER = {
    "zh": 'msgid ""\nmsgstr ""\n"Project-Id-Version: hongwu\\n"\n"Language: zh_CN\\n"\n'
          '"MIME-Version: 1.0\\n"\n"Content-Type: text/plain; charset=UTF-8\\n"\n'
          '"Content-Transfer-Encoding: 8bit\\n"\n"Plural-Forms: nplurals=1; plural=0;\\n"\n',
    "en": 'msgid ""\nmsgstr ""\n"Project-Id-Version: hongwu\\n"\n"Language: en\\n"\n'
          '"MIME-Version: 1.0\\n"\n"Content-Type: text/plain; charset=UTF-8\\n"\n'
          '"Content-Transfer-Encoding: 8bit\\n"\n"Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n',
}


def extract(root: Path = ROOT / "game") -> dict[str, list[str]]:
    """``{msgid: ["game/file.py", ...]}`` for every literal passed to ``_``/``N_``/``ngettext``."""
    found: dict[str, list[str]] = {}
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            fn = node.func
            name = fn.id if isinstance(fn, ast.Name) else fn.attr if isinstance(fn, ast.Attribute) else ""
            if name not in ("_", "N_", "ngettext"):
                continue
            args = node.args[:2] if name == "ngettext" else node.args[:1]
            for a in args:
                if isinstance(a, ast.Constant) and isinstance(a.value, str) and a.value:
                    where = path.relative_to(ROOT).as_posix()  # no line numbers: edits elsewhere do not churn
                    found.setdefault(a.value, []).append(where)
    return found


def _quote(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def render_po(lang: str, messages: dict[str, list[str]], translations: dict[str, str]) -> str:
    """The text of a catalog for ``lang`` holding ``messages`` with known ``translations``."""
    out = [HEADER.get(lang, HEADER["en"])]
    for msgid in sorted(messages, key=str.lower):
        out.append(f"#: {' '.join(sorted(set(messages[msgid]))[:3])}\n"
                   f"msgid {_quote(msgid)}\nmsgstr {_quote(translations.get(msgid, ''))}\n")
    return "\n".join(out)


def read_translations(po: Path) -> dict[str, str]:
    """``{msgid: msgstr}`` of an existing catalog (empty if missing)."""
    from compile_catalogs import parse_po

    if not po.exists():
        return {}
    raw = parse_po(po.read_text(encoding="utf-8"), str(po))
    return {k.decode(): v.decode() for k, v in raw.items() if k}


def main(argv: list[str] | None = None) -> int:
    """Command line entry point; returns the exit code."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true")
    ns = ap.parse_args(argv)
    messages = extract()
    status = 0
    for lang in ("zh", "en"):
        po = LOCALE_DIR / lang / "LC_MESSAGES" / "hongwu.po"
        trans = read_translations(po)
        text = render_po(lang, messages, trans)
        if ns.check:
            missing = [m for m in messages if lang == "zh" and not trans.get(m)]
            stale = not po.exists() or po.read_text(encoding="utf-8") != text
            if missing or stale:
                print(f"{po}: {'stale' if stale else ''} {len(missing)} untranslated: {missing[:5]}")
                status = 1
            continue
        po.parent.mkdir(parents=True, exist_ok=True)
        po.write_text(text, encoding="utf-8")
        print(f"{po}: {len(messages)} messages, {sum(1 for m in messages if trans.get(m))} translated")
    return status


if __name__ == "__main__":
    sys.exit(main())
