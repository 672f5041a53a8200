"""Everything that hangs on a session's version lives in one package, `scorekeeper/live/`: the
one function that raises a version, the result and page caches kept by version, the
conditional GET and the event streams. The views enter it; nothing it uses imports it back."""

from __future__ import annotations

import ast
import re
from pathlib import Path

PRODUCT = Path(__file__).resolve().parents[1] / "scorekeeper"
LIVE = PRODUCT / "live"
# What the live package may use: the models and below them (the rules, the scoresheet
# package, the formats), and Django.
BELOW = (
    "scorekeeper.models",
    "scorekeeper.night_models",
    "scorekeeper.club_models",
    "scorekeeper.ratings",
    "scorekeeper.rules",
    "scorekeeper.scoresheet",
    "scorekeeper.formats",
    "scorekeeper.context_processors",
    "scorekeeper.reads",
    "scorekeeper.http",
)


def _python_files() -> list[Path]:
    return [path for path in PRODUCT.rglob("*.py") if "migrations" not in path.parts]


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


def _module(path: Path) -> str:
    return ".".join(path.relative_to(PRODUCT.parent).with_suffix("").parts).removesuffix(
        ".__init__"
    )


# A version written anywhere: `x.version += 1`, `version=F("version") + 1`, "version" among a
# save's update_fields, `x.version = …`.
_WRITES_VERSION = re.compile(
    r"\.version\s*(?:\+|-)?=(?!=)|version\s*=\s*F\(|update_fields=\[[^\]]*[\"']version[\"']"
)


def test_a_version_is_written_in_one_place() -> None:
    writers = {
        (_module(path), number)
        for path in _python_files()
        for number, line in enumerate(path.read_text().splitlines(), start=1)
        if _WRITES_VERSION.search(line)
    }
    assert writers, "no version is written at all: the pattern no longer finds it"
    assert {module for module, _ in writers} == {"scorekeeper.live.versions"}, writers


def test_every_write_raises_the_version_through_the_live_wing() -> None:
    """Each service module that changes a session reaches `live.bump` (directly or through the
    write skeleton, `services.changes.settle`)."""
    services = PRODUCT / "services"
    bumping = {
        path.name
        for path in services.glob("*.py")
        if "live.bump(" in path.read_text() or "settle(" in path.read_text()
    }
    assert {"changes.py", "count.py", "deals.py", "manage.py", "rounds.py", "sessions.py"} <= (
        bumping
    )


def test_the_live_package_imports_nothing_that_imports_it() -> None:
    for path in LIVE.rglob("*.py"):
        ours = {name for name in _imports(path) if name.startswith("scorekeeper")}
        above = {
            name
            for name in ours
            if not name.startswith(("scorekeeper.live", *BELOW))
            and not name.startswith("scorekeeper.ratelimit")
            and name != "scorekeeper"
        }
        assert not above, f"{_module(path)} imports {above}"
    for below in BELOW:
        package = PRODUCT / below.removeprefix("scorekeeper.").replace(".", "/")
        files = list(package.rglob("*.py")) if package.is_dir() else [package.with_suffix(".py")]
        for path in files:
            assert not any(name.startswith("scorekeeper.live") for name in _imports(path)), path


def test_no_view_spells_a_cache_key() -> None:
    """Views ask the live wing for what is kept (`live.fragment`, `live.board`, `live.result`);
    its one key function, `live.keys.key`, spells every key."""
    for path in (PRODUCT / "views").glob("*.py"):
        text = path.read_text()
        assert "cache." not in text and "from django.core.cache" not in text, path
        assert not re.search(r"f\"(?:live|board|fragment|result|page):", text), path
