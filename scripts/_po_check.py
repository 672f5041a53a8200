"""Lists the messages of a PO catalogue that people would still read in English: an empty
translation (any plural form of it) or a fuzzy one. Used by scripts/check_translations.

    python scripts/_po_check.py scorekeeper/locale/fr/LC_MESSAGES/django.po

Exits 1 and prints each such message (its references, flags and id) when there is one.
"""

from __future__ import annotations

import ast
import sys
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class Entry:
    references: list[str] = field(default_factory=list)
    flags: set[str] = field(default_factory=set)
    msgid: str = ""
    msgid_plural: str | None = None
    translations: dict[str, str] = field(default_factory=dict)  # "msgstr" or "msgstr[n]"
    obsolete: bool = False


def _string(text: str) -> str:
    return str(ast.literal_eval(text))  # a PO string is a C string, as Python reads it here


def entries(text: str) -> list[Entry]:
    """The catalogue's entries, the header (msgid "") included."""
    found: list[Entry] = []
    current = Entry()
    key: str | None = None
    started = False

    def close() -> None:
        nonlocal current, key, started
        if started:
            found.append(current)
        current, key, started = Entry(), None, False

    for raw in text.splitlines():
        line = raw.strip()
        if not line:
            close()
            continue
        if line.startswith("#~"):
            current.obsolete = True
            continue
        if line.startswith("#:"):
            if started and key is not None and key.startswith("msgstr"):
                close()
            current.references += line[2:].split()
            continue
        if line.startswith("#,"):
            if started and key is not None and key.startswith("msgstr"):
                close()
            current.flags |= {flag.strip() for flag in line[2:].split(",")}
            continue
        if line.startswith("#"):
            continue
        if line.startswith('"'):
            value = _string(line)
        else:
            word, _, rest = line.partition(" ")
            if word == "msgid" and started and key is not None and key.startswith("msgstr"):
                close()
            key, value, started = word, "", True
            value = _string(rest)
            if key == "msgctxt":
                continue
        if key == "msgid":
            current.msgid += value
        elif key == "msgid_plural":
            current.msgid_plural = (current.msgid_plural or "") + value
        elif key is not None and key.startswith("msgstr"):
            current.translations[key] = current.translations.get(key, "") + value
    close()
    return found


def problems(text: str) -> list[tuple[str, Entry]]:
    """(what is wrong, entry) for each message still to translate, in the catalogue's order."""
    wrong = []
    for entry in entries(text):
        if entry.msgid == "" or entry.obsolete:
            continue  # the header; a message no longer in the sources
        if not entry.translations or any(v == "" for v in entry.translations.values()):
            wrong.append(("untranslated", entry))
        elif "fuzzy" in entry.flags:
            wrong.append(("fuzzy", entry))
    return wrong


def main(paths: list[str]) -> int:
    status = 0
    for path in paths:
        wrong = problems(Path(path).read_text(encoding="utf-8"))
        for what, entry in wrong:
            where = " ".join(entry.references) or "?"
            plural = f" / {entry.msgid_plural!r}" if entry.msgid_plural is not None else ""
            print(f"{path}: {what}: {entry.msgid!r}{plural}  ({where})")
        if wrong:
            print(f"{path}: {len(wrong)} message(s) to translate")
            status = 1
        else:
            print(f"{path}: every message translated")
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
