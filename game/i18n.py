"""One message catalog for every visible string of the client (Python ``gettext``).

Catalogs: ``game/locale/<lang>/LC_MESSAGES/hongwu.po`` with the compiled ``.mo`` beside it
(``python tools/compile_catalogs.py`` rebuilds them).  Message ids are the English text, so
English needs no translation and a missing catalog degrades to English.

Use ``from game.i18n import _`` and call ``_("Pass")`` at draw time (never at import time), so
that switching language with :func:`set_language` takes effect at the next frame.
"""
from __future__ import annotations

import functools
import gettext
import locale
import logging
import os
from pathlib import Path

log = logging.getLogger(__name__)

DOMAIN = "hongwu"
LOCALE_DIR = Path(__file__).resolve().parent / "locale"
LANGUAGES = ("zh", "en")

_translation: gettext.NullTranslations = gettext.NullTranslations()
_lang = "en"


def default_language() -> str:
    """``"zh"`` when the environment or system locale is Chinese, else ``"en"``."""
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        val = os.environ.get(var)
        if val:
            return "zh" if val.lower().startswith("zh") else "en"
    try:
        loc = locale.getlocale()[0] or ""
    except ValueError:  # pragma: no cover - broken locale settings
        loc = ""
    return "zh" if loc.lower().startswith("zh") else "en"


def set_language(lang: str | None) -> str:
    """Switch the catalog to ``lang`` (``"zh"`` / ``"en"``; None = :func:`default_language`).

    Returns the language in force.  An unknown language or a missing catalog falls back to
    English (the message ids) and is logged, never raised.
    """
    global _translation, _lang
    lang = lang or default_language()
    if lang not in LANGUAGES:
        log.warning("unknown language %r, using English", lang)
        lang = "en"
    try:
        _translation = gettext.translation(DOMAIN, str(LOCALE_DIR), languages=[lang])
    except OSError:
        if lang != "en":
            log.warning("no %s catalog under %s, using English", lang, LOCALE_DIR)
        _translation = gettext.NullTranslations()
        lang = "en"
    _lang = lang
    return lang


def current_language() -> str:
    """The language code in force (``"zh"`` or ``"en"``)."""
    return _lang


def _(message: str) -> str:
    """Translate ``message`` (an English msgid) into the current language."""
    return _translation.gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """Translate with a plural form chosen by ``n``."""
    return _translation.ngettext(singular, plural, n)


def N_(message: str) -> str:
    """Mark ``message`` for extraction without translating it now (translate later with ``_``)."""
    return message


# --- engine sentences ----------------------------------------------------------------------
def translate_reason(text: str) -> str:
    """Render an engine refusal ``text`` that carries no code (see ``game.text.reason_text``):
    an exact catalog entry if there is one, else the engine's English text itself, so nothing
    is ever lost."""
    if not text or _lang == "en":
        return text
    clean = text.strip()
    for candidate in (clean, clean.rstrip(".")):
        direct = _translation.gettext(candidate)
        if direct != candidate:
            return direct
    return text


set_language("en")


def translate_in(lang: str, message: str) -> str:
    """``message`` (an English msgid) in the catalog of ``lang`` (``"zh"`` / ``"en"``),
    whatever language is in force; the msgid itself when that catalog lacks it or is missing
    (used to recognise a quick phrase sent in another language, ``game.chat``)."""
    return _catalog(lang).gettext(message)


@functools.lru_cache(maxsize=len(LANGUAGES) + 1)
def _catalog(lang: str) -> gettext.NullTranslations:
    try:
        return gettext.translation(DOMAIN, str(LOCALE_DIR), languages=[lang])
    except OSError:
        return gettext.NullTranslations()
