"""Issue 19, done when: no untranslated string on any page a user can reach.

Every page of the security walk (tests/views/test_security_walk.py: anonymous, the owner, the
watch link and the scorer link, both game families), every rule sheet and score pad of every
preset, and the error pages, each rendered in English and in French. A piece of text people
read (a text node, or an aria-label, title, placeholder, alt or button value) that is the same
in both and holds a word is English left over, unless it is a name (of a player, a session, a
user, a saved ruleset, the app), a number, or one of the few words French spells the same
(SAME_IN_BOTH). Text in another language on purpose (`lang="en"`, as the language switch
writes "English") and code (`<code>`, `<kbd>`) are not read. Every leftover is listed, with
its page.

Needs the compiled catalogue (scripts/_setup.sh compiles it); skipped without it.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser, User
from django.template import loader
from django.test import Client, RequestFactory
from django.urls import reverse
from django.utils import translation

from scorekeeper.rules.registry import FAMILIES
from tests.french import needs_french
from tests.views.test_security_walk import (
    LOGGED_IN,
    OWNER,
    PUBLIC,
    SCORER_LINK,
    SECRET,
    WATCH_LINK,
    _urls,
    world,
)

__all__ = ["world"]  # the security walk's fixture: its sessions, links and saved ruleset


# Words French writes as English does, where they stand alone (a heading, a column).
SAME_IN_BOTH = {
    "options", "option", "total", "totals", "bonus", "match", "points", "points.", "code",
    "minimum", "maximum", "stop", "go", "jokers", "joker", "ok", "nord", "sud", "est", "ouest",
    "scoresheet.json", "session.csv", "json", "csv", "qr", "html", "https", "http", "url",
    "99", "django", "sqlite", "postgresql", "score", "pts", "table", "date",
}  # fmt: skip
# Names: the app's, and the world's players, sessions, user and saved ruleset.
APP_NAMES = ["Ninety-Nine Scorekeeper", "99 Scorekeeper", "Scorekeeper"]
WORLD_NAMES = [SECRET, "Annabel", "Bertram", "Cyd", "alice", "Mallory"]
# Names in the rules that French writes the same: places and people the variants are named
# after (Iceland and Taiwan are not here: French writes Islande, Taïwan).
PROPER_NAMES = [
    "David Parlett", "Parlett", "Chicago", "Hawaii", "Arizona", "Wilson", "Michigan",
    "Dollar Bill", "Naughty Nun",
]  # fmt: skip
# Addresses and file names are no words: a shared link, RULES.md, scoresheet.json.
NOT_WORDS = re.compile(r"https?://\S+|\b[\w.-]+\.(?:md|json|csv)\b")
READ_ATTRIBUTES = ("aria-label", "title", "placeholder", "alt", "aria-description")
NOT_READ = {"script", "style", "code", "kbd", "samp", "template"}
VOID = {
    "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
    "track", "wbr",
}  # fmt: skip
WORD = re.compile(r"[^\W\d_]{2,}")
NO_REDIRECT = {"logout", "theme", "scorer_forget"}


class ReadText(HTMLParser):
    """The pieces of text people read on a page, in order, each once per place."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.pieces: list[str] = []
        self.stack: list[tuple[str, bool]] = []  # (tag, read?)
        self.page_language = ""

    def _reading(self) -> bool:
        return all(read for _tag, read in self.stack)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag == "html":
            self.page_language = values.get("lang") or ""
        lang = values.get("lang")
        foreign = lang is not None and tag != "html" and lang != self.page_language
        read = tag not in NOT_READ and not foreign
        if self._reading() and read:
            for name in READ_ATTRIBUTES:
                if values.get(name):
                    self.pieces.append(str(values[name]))
            button = values.get("type") in ("submit", "button", "reset")
            if tag == "input" and button and values.get("value"):
                self.pieces.append(str(values["value"]))
        if tag not in VOID:
            self.stack.append((tag, read))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag not in VOID and self.stack and self.stack[-1][0] == tag:
            self.stack.pop()

    def handle_endtag(self, tag: str) -> None:
        for index in range(len(self.stack) - 1, -1, -1):
            if self.stack[index][0] == tag:
                del self.stack[index:]
                return

    def handle_data(self, data: str) -> None:
        text = " ".join(data.split())
        if text and self._reading():
            self.pieces.append(text)


def read_text(html: str) -> list[str]:
    parser = ReadText()
    parser.feed(html)
    parser.close()
    return parser.pieces


def english_left(piece: str, names: list[str]) -> bool:
    """Whether `piece`, the same in English and French, still holds an English word."""
    rest = NOT_WORDS.sub(" ", piece)
    for name in sorted(names, key=len, reverse=True):
        rest = rest.replace(name, " ")
    return any(word.lower() not in SAME_IN_BOTH for word in WORD.findall(rest))


def leftovers(english: str, french: str, names: list[str]) -> list[str]:
    said_in_english = set(read_text(english))
    found: list[str] = []
    for piece in read_text(french):
        if piece in said_in_english and english_left(piece, names) and piece not in found:
            found.append(piece)
    return found


def _get(client: Client, url: str, language: str) -> Any:
    return client.get(url, HTTP_ACCEPT_LANGUAGE=language)


def _is_page(response: Any) -> bool:
    return response.status_code == 200 and response["Content-Type"].startswith("text/html")


def _pages(world: dict[str, Any]) -> list[tuple[str, str]]:
    """(who, url) for every page, as the security walk lists them, with every preset's sheets."""
    names = PUBLIC | LOGGED_IN | OWNER | WATCH_LINK | SCORER_LINK
    names -= {"watch_events", "scorer_events"}  # streams, not pages
    pages = []
    for url in _urls(world, names):
        pages.append(("owner" if url in _urls(world, LOGGED_IN | OWNER) else "anyone", url))
    for family in FAMILIES.values():
        for preset_id in family.PRESETS:
            for view in ("rule_sheet", "score_pad"):
                pages.append(("anyone", reverse(view, args=[family.ID, preset_id])))
    pages += [("anyone", "/no-such-page/"), ("anyone", "/w/no-such-link/")]
    return list(dict.fromkeys(pages))


@needs_french
def test_every_page_reads_in_french(client: Client, alice: User, world: dict[str, Any]) -> None:
    owner = Client()
    owner.force_login(alice)
    names = [*APP_NAMES, *WORLD_NAMES, *PROPER_NAMES]
    report: list[str] = []
    seen = 0
    for who, url in _pages(world):
        visitor = owner if who == "owner" else client
        english, french = _get(visitor, url, "en"), _get(visitor, url, "fr")
        if english.status_code != french.status_code:
            report.append(
                f"{url}: {english.status_code} in English, {french.status_code} in French"
            )
            continue
        if not (_is_page(french) or french.status_code == 404):
            continue
        seen += 1
        page = french.content.decode()
        assert "<html" not in page[:200] or '<html lang="fr"' in page[:200], url
        for piece in leftovers(english.content.decode(), french.content.decode(), names):
            report.append(f"{url} ({who}): {piece!r}")
    assert seen > 60, seen  # the walk reached the pages
    assert not report, "English left on French pages:\n" + "\n".join(report)


@needs_french
@pytest.mark.parametrize(
    "template", ["403.html", "404.html", "429.html", "500.html", "503.html", "link_gone.html"]
)
def test_every_error_page_reads_in_french(db: None, template: str) -> None:
    request = RequestFactory().get("/")
    request.user = AnonymousUser()
    pages = {}
    for language in ("en", "fr"):
        with translation.override(language):
            request.LANGUAGE_CODE = language
            # 500 and 503 are rendered with no request, as the app renders them (a database
            # or a server in trouble): their language must come from the active one.
            bare = template in ("500.html", "503.html")
            pages[language] = loader.render_to_string(
                template, {"sent": True}, request=None if bare else request
            )
    assert '<html lang="fr"' in pages["fr"][:300]
    found = leftovers(pages["en"], pages["fr"], APP_NAMES)
    assert not found, f"English left on {template} in French: {found}"


def test_the_walker_finds_english_and_spares_names_and_numbers() -> None:
    english = (
        '<html lang="en"><title>Deal 3 · 99 Scorekeeper</title><h1>Annabel</h1><p>12</p>'
        '<button aria-label="Undo the last tap">↶</button><p>Total</p>'
        '<option lang="en">English</option><code>scripts/run</code><p>Standings</p></html>'
    )
    french = (
        '<html lang="fr"><title>Donne 3 · 99 Scorekeeper</title><h1>Annabel</h1><p>12</p>'
        '<button aria-label="Undo the last tap">↶</button><p>Total</p>'
        '<option lang="en">English</option><code>scripts/run</code><p>Standings</p></html>'
    )
    assert leftovers(english, french, ["Annabel", *APP_NAMES]) == [
        "Undo the last tap",
        "Standings",
    ]
