"""The catalogs: every key and placeholder in both languages; every cause explained in both;
no English sentence hard-coded in a rule."""
from __future__ import annotations

import ast
import string
from pathlib import Path

import pytest

from nb_autograd.i18n import catalog, text
from nb_autograd.rules.registry import all_rules

RULES = Path(__file__).resolve().parent.parent / "nb_autograd" / "rules"


def _placeholders(value: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(value) if name}


def test_same_keys_and_placeholders_in_every_language():
    en, zh = catalog("en"), catalog("zh")
    assert set(en) == set(zh)
    for section in en:
        assert set(en[section]) == set(zh[section]), section
        for key, value in en[section].items():
            assert _placeholders(value) == _placeholders(zh[section][key]), f"{section}.{key}"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_cause_has_title_what_why_hint(lang):
    for rule in all_rules():
        for part in ("title", "what", "why", "hint"):
            assert text(f"{rule.CAUSE}.{part}", lang) != f"{rule.CAUSE}.{part}", (rule.CAUSE, part)


def _sentences(path: Path) -> list[str]:
    """String constants of four or more words outside docstrings and Example(...) code."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "Example":
            skip.update(id(n) for n in ast.walk(node))
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.ClassDef)) and ast.get_docstring(node) is not None:
            skip.add(id(node.body[0].value))
    return [n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)
            and id(n) not in skip and len(n.value.split()) >= 4 and any(c.isalpha() for c in n.value)]


def test_no_english_sentence_in_rules():
    found = {p.name: _sentences(p) for p in RULES.rglob("*.py")}
    assert {k: v for k, v in found.items() if v} == {}
