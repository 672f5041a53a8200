"""The documents of the repository are whole in a clone of it.

Every relative link of a document opens a file of the repository (and a heading of it, where
the link names one), no document points outside the repository, the nginx blocks that
docs/DEPLOYMENT.md shows are the configuration the two-server benchmark runs, the app serves
docs/RULES.md and docs/FORMAT.md from its Rules page, and docs/ARCHITECTURE.md's layout names
every module of the app and of the benchmark harness.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.test import Client

from bench.server import nginx_config

REPO = Path(__file__).resolve().parent.parent
README = REPO / "README.md"
DOCUMENTS = [
    "README.md",
    "SECURITY.md",
    "BENCHMARKS.md",
    *sorted(f"docs/{path.name}" for path in (REPO / "docs").glob("*.md")),
]
MARKDOWN_LINK = re.compile(r"\]\(([^)\s]+)\)")
CODE = re.compile(r"`([^`\n]+)`")
HEADING = re.compile(r"#{1,6} (.+)")


def _relative_links(text: str) -> list[str]:
    return [
        target
        for target in MARKDOWN_LINK.findall(text)
        if not re.match(r"[a-z][a-z0-9+.-]*:", target)  # not https:, mailto:
    ]


def _anchors(path: Path) -> set[str]:
    """The #anchors of a Markdown file's headings, as GitHub makes them (code blocks skipped)."""
    anchors: set[str] = set()
    in_code = False
    for line in path.read_text(encoding="utf-8").splitlines():
        in_code ^= line.startswith("```")
        heading = HEADING.fullmatch(line)
        if heading and not in_code:
            words = re.sub(r"[^\w\- ]", "", heading[1].strip().lower().replace("`", ""))
            anchors.add(words.replace(" ", "-"))
    return anchors


def _inside(path: Path) -> bool:
    return path.resolve().is_relative_to(REPO) and path.exists()


def test_the_readme_links_the_rule_book_and_the_file_format() -> None:
    links = _relative_links(README.read_text(encoding="utf-8"))
    assert "docs/RULES.md" in links and "docs/FORMAT.md" in links


@pytest.mark.parametrize("document", DOCUMENTS)
def test_every_relative_link_opens_a_file_of_the_repository(document: str) -> None:
    source = REPO / document
    for target in _relative_links(source.read_text(encoding="utf-8")):
        path, _, anchor = target.partition("#")
        opened = (source.parent / path).resolve() if path else source
        assert opened.is_relative_to(REPO), f"{document} links outside the repository: {target}"
        assert opened.exists(), f"{document} links to {target}, which the repository does not have"
        if anchor and opened.suffix == ".md":
            assert anchor in _anchors(opened), f"{document} links to {target}: no such heading"


@pytest.mark.parametrize("document", DOCUMENTS)
def test_no_document_points_outside_the_repository(document: str) -> None:
    text = (REPO / document).read_text(encoding="utf-8")
    outside = [
        path for path in [*CODE.findall(text), *_relative_links(text)] if path.startswith("../")
    ]
    if document.startswith("docs/"):  # a link from docs/ to a file beside docs/ is inside
        outside = [path for path in outside if not _inside(REPO / "docs" / path.partition("#")[0])]
    assert not outside, f"{document} points outside the repository: {outside}"


def test_the_deployment_guide_shows_the_nginx_configuration_that_the_benchmark_uses() -> None:
    guide = (REPO / "docs" / "DEPLOYMENT.md").read_text(encoding="utf-8")
    blocks = [part.split("```", 1)[0] for part in guide.split("```nginx\n")[1:]]
    used = nginx_config(
        "127.0.0.1:8080",
        ["10.0.0.11:8001", "10.0.0.12:8001"],
        Path("/tmp/x"),
        events=["127.0.0.1:8002"],
    )
    lines = {line.split("#")[0].strip() for line in used.splitlines()}
    assert len(blocks) == 2  # the app servers, and the event streams
    for block, at_least in zip(blocks, (10, 9), strict=True):
        shown = [line.strip() for line in block.splitlines() if line.strip().endswith(";")]
        assert len(shown) >= at_least
        for line in shown:
            assert line in lines, f"DEPLOYMENT.md shows {line!r}, which bench/nginx.conf has not"


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


# The layout in docs/ARCHITECTURE.md: a line whose name starts before the description column
# opens an entry (a folder "views/" or a file "models.py"), nested by its indent; what it says
# runs on over the lines indented to that column. A module is named where its path, from its
# entry's folder or from the folder that holds the entry, stands in the entry's words.
ARCHITECTURE = REPO / "docs" / "ARCHITECTURE.md"
DESCRIPTION_COLUMN = 20
MODULE_TOPS = ("scorekeeper", "bench")


def _layout(text: str) -> str:
    """The code block under the heading "## Layout"."""
    found = re.search(r"^## Layout\n\n```\n(.*?)^```", text, re.MULTILINE | re.DOTALL)
    assert found, "docs/ARCHITECTURE.md has no layout block"
    return found.group(1)


def _entries(layout: str) -> list[tuple[list[str], str]]:
    """Each entry of the layout: the folders its paths are read from, and its words."""
    entries: list[tuple[list[str], str]] = []
    folders: list[tuple[int, str]] = []  # the open folders: (indent, path)
    for line in layout.splitlines():
        indent = len(line) - len(line.lstrip())
        if line.strip() and indent < DESCRIPTION_COLUMN:
            while folders and folders[-1][0] >= indent:
                folders.pop()
            parent = folders[-1][1] if folders else ""
            name = line.split()[0]
            scopes = [parent]
            if name.endswith("/"):
                folders.append((indent, parent + name))
                scopes.append(parent + name)
            entries.append((scopes, line))
        elif line.strip() and entries:
            scopes, words = entries[-1]
            entries[-1] = (scopes, f"{words}\n{line}")
    return entries


def _unnamed(layout: str, modules: list[str]) -> list[str]:
    entries = _entries(layout)

    def named(module: str) -> bool:
        return any(
            module.startswith(scope)
            and re.search(rf"(?<![\w/.-]){re.escape(module[len(scope) :])}(?![\w/])", words)
            for scopes, words in entries
            for scope in scopes
        )

    return [module for module in modules if not named(module)]


def _modules() -> list[str]:
    return [
        path.relative_to(REPO).as_posix()
        for top in MODULE_TOPS
        for path in sorted((REPO / top).rglob("*.py"))
        if path.name != "__init__.py" and "migrations" not in path.parts
    ]


def test_the_layout_finds_a_module_only_under_its_own_folder() -> None:
    layout = (
        "pkg/\n"
        "  views/            deals.py, and\n"
        "                    table.py\n"
        "  models.py         the data; apps.py\n"
        "  management/       commands/backup.py\n"
    )
    modules = [
        "pkg/views/deals.py", "pkg/views/table.py", "pkg/models.py", "pkg/apps.py",
        "pkg/management/commands/backup.py", "pkg/forms/deals.py", "pkg/views/rounds.py",
    ]  # fmt: skip
    assert _unnamed(layout, modules) == ["pkg/forms/deals.py", "pkg/views/rounds.py"]


def test_the_architecture_layout_names_every_module() -> None:
    layout = _layout(ARCHITECTURE.read_text(encoding="utf-8"))
    assert _unnamed(layout, _modules()) == []
