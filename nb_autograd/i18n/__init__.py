"""Message catalogs: a folder per language (en/, zh/) of TOML files, one per part of the
package (core, each rule family, fixes), merged; the same keys and placeholders in each."""
from __future__ import annotations

import locale
import os
import string
from functools import lru_cache
from importlib.resources import files

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

LANGUAGES = ("en", "zh")
_chosen: str | None = None


@lru_cache(maxsize=None)
def catalog(lang: str) -> dict:
    merged: dict = {}
    folder = files(__package__).joinpath(lang)
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".toml"):
            for section, values in tomllib.loads(entry.read_text(encoding="utf-8")).items():
                merged.setdefault(section, {}).update(values)
    return merged


def check_language(lang: str) -> str:
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}; choose one of {', '.join(LANGUAGES)}")
    return lang


def set_language(lang: str | None) -> None:
    """None goes back to the locale."""
    global _chosen
    _chosen = None if lang is None else check_language(lang)


def current_language() -> str:
    if _chosen:
        return _chosen
    for value in (os.environ.get("LC_ALL"), os.environ.get("LC_MESSAGES"), os.environ.get("LANG"), locale.getlocale()[0]):
        if value:
            return "zh" if value.lower().startswith("zh") else "en"
    return "en"


class _Facts(dict):
    def __missing__(self, key):
        return "?"


def text(key: str, lang: str | None = None, **facts) -> str:
    """`key` is "section.name"; missing placeholders read "?" rather than failing."""
    section, _, name = key.partition(".")
    entry = catalog(lang or current_language()).get(section, {}).get(name)
    if entry is None:
        entry = catalog("en").get(section, {}).get(name, key)
    return string.Formatter().vformat(entry, (), _Facts(facts))


def has(key: str, lang: str | None = None) -> bool:
    section, _, name = key.partition(".")
    return name in catalog(lang or current_language()).get(section, {})
