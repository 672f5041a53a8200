"""The documents the app is held to (docs/RULES.md, docs/FORMAT.md) as pages of the Rules menu.

markdown-it-py renders them (CommonMark and its tables), with raw HTML shown as text and unsafe
link targets refused, so a document can never put markup or script into the page. The page
differs from the file in three ways only, all made here while rendering: every table sits in a
box of its own that scrolls sideways (named after the section it belongs to), so that the page
never does on a phone; a mention of either document links to its page; and the files the rule
book names that this repository does not ship (the project's source texts) are left out, with
the words around them kept readable (`MISSING_FILES`). The files themselves stay the project's
rule book word for word.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from django.utils.html import escape
from django.utils.translation import gettext as _
from markdown_it import MarkdownIt
from markdown_it.renderer import RendererHTML
from markdown_it.token import Token
from markdown_it.utils import EnvType, OptionsDict

# The rule book's mentions of the project's source texts, which live beside the repository
# and not in it: each pattern (a regular expression over the Markdown, one line at a time) and
# the words the page shows instead.
MISSING_FILES: tuple[tuple[str, str], ...] = (
    (r"source texts in `seeds/` \(file names below\)", "source texts listed below"),
    (r"^Sources in `seeds/`:", "Sources:"),
    (r"^- `\d{3}_[0-9a-f]{16}\.txt` ", "- "),
    (r"the seeds' encyclopaedia text", "the encyclopaedia article"),
    (r"Sources outside `seeds/`", "Other sources"),
)
# A mention of a document in running text ("RULES.md §1"), linked to its page.
MENTION = re.compile(r"\b(RULES|FORMAT)\.md\b")


@dataclass(frozen=True)
class Document:
    title: str  # its first heading
    html: str  # safe: rendered with raw HTML escaped


def render_document(text: str, links: Callable[[str], str | None] = lambda name: None) -> Document:
    """The document as HTML; `links` gives the page of a mentioned document ("RULES.md"),
    or None to leave the mention as it is."""
    for pattern, words in MISSING_FILES:
        text = re.sub(pattern, words, text, flags=re.MULTILINE)
    markdown = _markdown()
    tokens = markdown.parse(text)
    _name_tables(tokens)
    for token in tokens:
        if token.type == "inline" and token.children:
            token.children = _linked(token.children, links)
    title = next(
        (
            tokens[index + 1].content
            for index, token in enumerate(tokens)
            if token.type == "heading_open" and token.tag == "h1"
        ),
        "",
    )
    return Document(title=title, html=markdown.renderer.render(tokens, markdown.options, {}))


def _markdown() -> MarkdownIt:
    markdown = MarkdownIt("commonmark", {"html": False}).enable("table")
    markdown.add_render_rule("table_open", _table_open)
    markdown.add_render_rule("table_close", _table_close)
    for cell in ("th", "td"):
        markdown.add_render_rule(f"{cell}_open", _cell_open)
        markdown.add_render_rule(f"{cell}_close", _cell_close)
    return markdown


def _name_tables(tokens: Sequence[Token]) -> None:
    """Each table remembers the heading of its section, to name its box."""
    heading = ""
    for index, token in enumerate(tokens):
        if token.type == "heading_open":
            heading = tokens[index + 1].content
        elif token.type == "table_open":
            token.meta["section"] = heading


def _table_open(
    self: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType
) -> str:
    section = tokens[idx].meta.get("section") or _("the document")
    label = escape(_("Table: %(section)s") % {"section": section})
    # A box that scrolls is reached by the keyboard too (tabindex), and named as a region.
    return (
        f'<div class="doc-table" tabindex="0" role="region" aria-label="{label}">\n'
        '<table class="table table-sm">\n'
    )


def _table_close(
    self: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType
) -> str:
    return "</table>\n</div>\n"


def _cell_open(
    self: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType
) -> str:
    # A cell's words wrap at a readable width (app.css: .doc-cell), so that a table is as
    # wide as its words need and scrolls in its box rather than squeezing every column.
    return self.renderToken(tokens, idx, options, env) + '<span class="doc-cell">'


def _cell_close(
    self: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType
) -> str:
    return "</span>" + self.renderToken(tokens, idx, options, env)


def _linked(children: list[Token], links: Callable[[str], str | None]) -> list[Token]:
    """The inline tokens with each mention of a document in plain text (not in a link, not
    in code) made a link to its page."""
    result: list[Token] = []
    in_link = 0
    for child in children:
        if child.type == "link_open":
            in_link += 1
        elif child.type == "link_close":
            in_link -= 1
        if child.type != "text" or in_link or not MENTION.search(child.content):
            result.append(child)
            continue
        start = 0
        for mention in MENTION.finditer(child.content):
            url = links(mention.group(0))
            if url is None:
                continue
            result.append(_text(child.content[start : mention.start()]))
            result.append(Token("link_open", "a", 1, attrs={"href": url}))
            result.append(_text(mention.group(0)))
            result.append(Token("link_close", "a", -1))
            start = mention.end()
        result.append(_text(child.content[start:]))
    return [token for token in result if token.type != "text" or token.content]


def _text(content: str) -> Token:
    return Token("text", "", 0, content=content)
