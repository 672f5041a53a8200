"""Issue 19: a new string without a translation makes CI fail (scripts/check_translations)."""

from __future__ import annotations

import runpy
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
CHECK: dict[str, Any] = runpy.run_path(str(ROOT / "scripts" / "_po_check.py"))

HEADER = r"""msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\n"
"Plural-Forms: nplurals=3; plural=(n == 0 || n == 1) ? 0 : n != 0 && n % 1000000 == 0 ? 1 : 2;\n"

"""
CATALOGUE = (
    HEADER
    + r"""#: templates/base.html:3
msgid "Rules"
msgstr "Règles"

#: templates/a.html:1
msgid "Not yet"
msgstr ""

#: scorekeeper/rules/trick/checks.py:9
#, python-brace-format
msgid ""
"Tricks add up to {total}; a deal has "
"{tricks}."
msgstr ""
"Les plis font {total} au total ; une donne en a "
"{tricks}."

#: templates/b.html:2
#, python-format
msgid "%(counter)s token"
msgid_plural "%(counter)s tokens"
msgstr[0] "%(counter)s jeton"
msgstr[1] ""
msgstr[2] "%(counter)s jetons"

#: templates/c.html:4
#, fuzzy
msgid "Deal"
msgstr "Donne"

#: templates/d.html:5
msgid "Quote \"this\""
msgstr "Citez « ceci »"

#~ msgid "Gone"
#~ msgstr ""
"""
)


def test_it_lists_empty_partly_empty_and_fuzzy_messages() -> None:
    found = [(what, entry.msgid) for what, entry in CHECK["problems"](CATALOGUE)]
    assert found == [
        ("untranslated", "Not yet"),
        ("untranslated", "%(counter)s token"),
        ("fuzzy", "Deal"),
    ]


def test_it_reads_long_ids_and_translations_whole() -> None:
    entries = {entry.msgid: entry for entry in CHECK["entries"](CATALOGUE)}
    long = entries["Tricks add up to {total}; a deal has {tricks}."]
    assert long.translations == {
        "msgstr": "Les plis font {total} au total ; une donne en a {tricks}."
    }
    assert long.references == ["scorekeeper/rules/trick/checks.py:9"]
    assert entries['Quote "this"'].translations["msgstr"] == "Citez « ceci »"


def test_a_complete_catalogue_passes(tmp_path: Path, capsys: Any) -> None:
    po = tmp_path / "django.po"
    po.write_text(HEADER + 'msgid "Rules"\nmsgstr "Règles"\n', encoding="utf-8")
    assert CHECK["main"]([str(po)]) == 0
    po.write_text(CATALOGUE, encoding="utf-8")
    assert CHECK["main"]([str(po)]) == 1
    out = capsys.readouterr().out
    assert "untranslated: 'Not yet'  (templates/a.html:1)" in out
    assert "3 message(s) to translate" in out


def test_ci_checks_the_catalogue_before_the_tests() -> None:
    ci = (ROOT / ".ci" / "run").read_text()
    assert ci.index("scripts/check_translations") < ci.index("\nscripts/test")
    script = (ROOT / "scripts" / "check_translations").read_text()
    assert "makemessages" in script and "--no-obsolete" in script and "msgfmt -c" in script


def test_setup_compiles_the_catalogue_and_git_ignores_the_result() -> None:
    setup = (ROOT / "scripts" / "_setup.sh").read_text()
    assert "compilemessages" in setup and "apt-get install -y -qq gettext" in setup
    assert "*.mo" in (ROOT / ".gitignore").read_text().splitlines()
