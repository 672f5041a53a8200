"""The documents a clone of the repository needs are inside it (issue: at the table, bug 16).

The README pointed at ../shared/RULES.md and ../shared/FORMAT.md, which a clone does not have:
they are shipped as docs/RULES.md and docs/FORMAT.md, every relative link of the README opens
a file of the repository, and the app serves both documents from its Rules page.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.test import Client

REPO = Path(__file__).resolve().parent.parent
README = REPO / "README.md"
MARKDOWN_LINK = re.compile(r"\]\(([^)\s]+)\)")
CODE = re.compile(r"`([^`\n]+)`")


def _relative_links(text: str) -> list[str]:
    return [
        target
        for target in MARKDOWN_LINK.findall(text)
        if not re.match(r"[a-z][a-z0-9+.-]*:|#", target)  # not https:, mailto:, #anchor
    ]


def test_every_relative_link_of_the_readme_opens_a_file_of_the_repository() -> None:
    links = _relative_links(README.read_text(encoding="utf-8"))
    assert "docs/RULES.md" in links and "docs/FORMAT.md" in links
    for target in links:
        path = (REPO / target.split("#")[0]).resolve()
        assert path.is_relative_to(REPO), f"README links outside the repository: {target}"
        assert path.exists(), f"README links to {target}, which the repository does not have"


@pytest.mark.parametrize("document", ["README.md", "SECURITY.md", "BENCHMARKS.md"])
def test_no_document_points_outside_the_repository(document: str) -> None:
    text = (REPO / document).read_text(encoding="utf-8")
    outside = [
        path for path in [*CODE.findall(text), *_relative_links(text)] if path.startswith("../")
    ]
    assert not outside, f"{document} points outside the repository: {outside}"


@pytest.mark.parametrize("name", ["RULES.md", "FORMAT.md"])
def test_the_app_serves_the_documents_from_its_rules_page(
    client: Client, db: None, name: str
) -> None:
    assert f'href="/rules/{name}"' in client.get("/rules/").text
    response = client.get(f"/rules/{name}")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/html; charset=utf-8"
    page = response.text
    assert '<meta name="viewport"' in page
    # Markdown rendered: headings, lists, emphasis, code; not the raw text.
    title = (REPO / "docs" / name).read_text(encoding="utf-8").splitlines()[0].removeprefix("# ")
    assert f">{title}</h1>" in page
    assert "<li>" in page and "<code>" in page and "\n## " not in page


@pytest.mark.parametrize("name", ["RULES.md", "FORMAT.md"])
def test_the_documents_are_the_projects_own_rule_book_word_for_word(name: str) -> None:
    # The rule book's home is beside the repository (../shared) where the project keeps it; a
    # clone alone has only docs/, which must be the same text.
    source = REPO.parent / "shared" / name
    if not source.exists():
        pytest.skip(f"{source} is not beside this clone")
    assert (REPO / "docs" / name).read_text(encoding="utf-8") == source.read_text(encoding="utf-8")
