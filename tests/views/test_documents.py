"""The Rules page's documents (docs/RULES.md, docs/FORMAT.md) as readable pages.

They are rendered from Markdown by markdown-it-py, raw HTML escaped; every table sits in a box
of its own that scrolls sideways, so that the page does not; a mention of the other document
links to its page, and the files the documents name that this repository does not have (the
project's source texts) are left out of the page, while the documents stay word for word.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client

from scorekeeper.presenters.documents import MISSING_FILES, render_document

DOCS = Path(settings.BASE_DIR) / "docs"
NAMES = ["RULES.md", "FORMAT.md"]
# A path as the documents write one in code: a folder ("seeds/") or a file ("x.txt").
PATH = re.compile(r"^[\w./-]+(/|\.(txt|md|py|json|toml|sh|css|js|html))$")


@pytest.mark.parametrize("name", NAMES)
def test_every_table_scrolls_in_a_box_of_its_own(client: Client, db: None, name: str) -> None:
    page = client.get(f"/rules/{name}").text
    tables = page.count("<table")
    text = (DOCS / name).read_text(encoding="utf-8")
    assert tables == len(re.findall(r"^\s*\|---", text, flags=re.MULTILINE))
    boxes = re.findall(
        r'<div class="doc-table" tabindex="0" role="region" aria-label="([^"]+)">\s*<table', page
    )
    assert len(boxes) == tables
    assert all(label.startswith("Table: ") for label in boxes)


def test_the_presets_table_is_named_by_its_section(client: Client, db: None) -> None:
    page = client.get("/rules/RULES.md").text
    assert 'aria-label="Table: 1.6 Presets (id: what differs from §1.1–1.5)"' in page


@pytest.mark.parametrize("name", NAMES)
def test_no_file_the_repository_lacks_is_named(client: Client, db: None, name: str) -> None:
    page = client.get(f"/rules/{name}").text
    assert "seeds" not in page and ".txt" not in page
    for code in re.findall(r"<code>([^<]*)</code>", page):
        if PATH.match(code):
            assert (Path(settings.BASE_DIR) / code).exists(), f"{name} names {code}"


def test_the_rule_books_sources_still_read_as_sentences(client: Client, db: None) -> None:
    page = " ".join(client.get("/rules/RULES.md").text.split())
    assert "It is written from the source texts listed below and a few secondary sources" in page
    assert "<p>Sources:</p>" in page
    assert "<li>Parlett’s own page for his trick game" in page or (
        "<li>Parlett's own page for his trick game" in page.replace("&#x27;", "'")
    )
    assert ">4. Other sources (facts only)</h2>" in page


def test_every_rewrite_of_a_missing_file_still_finds_its_words() -> None:
    # The documents are the project's rule book word for word: when it changes, a rewrite
    # that no longer matches says so here rather than leaving a file name on the page.
    text = (DOCS / "RULES.md").read_text(encoding="utf-8")
    for pattern, _words in MISSING_FILES:
        assert re.search(pattern, text, flags=re.MULTILINE), pattern


def test_a_mention_of_the_other_document_links_to_its_page(client: Client, db: None) -> None:
    page = client.get("/rules/FORMAT.md").text
    assert '(Ninety-Nine, <a href="/rules/RULES.md">RULES.md</a> §1)' in page


def test_raw_html_is_shown_as_text_never_run() -> None:
    html = render_document(
        "# T\n\n<script>alert(1)</script>\n\nA <b onclick=x>b</b> [l](javascript:alert(1))\n"
    ).html
    assert "<script>" not in html and "<b onclick" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert 'href="javascript' not in html


def test_the_documents_on_disk_are_unchanged_by_rendering(client: Client, db: None) -> None:
    before = {name: (DOCS / name).read_bytes() for name in NAMES}
    for name in NAMES:
        client.get(f"/rules/{name}")
    assert {name: (DOCS / name).read_bytes() for name in NAMES} == before
