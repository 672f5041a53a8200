"""The house's rules of layout, checked on the source.

- Outside the rules package, nothing asks which game family a session is: a family's id is a
  key into a registry (`rules/registry.py`, `families.APPS`, `models.ENTRY_MODELS`,
  `presenters.registry.PRESENTERS`, `views.table.SCREENS`, `services.stored.STORE_ALL`,
  `scoresheet.SHEETS`), never compared.
- Every registry holds exactly the families `rules/registry.py` lists, by the same ids, so a
  third family is a rules package and one entry in each.
- No module of the app or of the benchmark harness imports one that imports it back (the
  scoresheet's two halves did).
- The app imports nothing of the benchmark harness (`bench/`, installed only where BENCH is on),
  and `families.py` nothing of the parts registered above it (presenters, forms, services,
  views), so that no import runs back up.
- A suit's name and colour have one home, `rules/trick/cards.py`: no template or script spells
  them.
- Only the tests under tests/browser/ import Playwright or axe, so the rest run without them.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
PRODUCT = [REPO / "scorekeeper", REPO / "templates", REPO / "static" / "js"]
OUTSIDE = ("scorekeeper/rules/", "scorekeeper/migrations/", "scorekeeper/locale/")

# A comparison of a family's id, a type test of a family's classes, or a template's {% if %} on
# the family.
FAMILY_BRANCH = re.compile(
    r"family *(==|!=)|is_(adding|trick)\b|isinstance\([^)]*(Adding|Trick)[A-Za-z]*\)"
    r"|(==|!=) *(Family\.[A-Z]+|(trick|adding)\.ID|[\"'](trick|adding)[\"'])"
    r"|Family\.[A-Z]+ if |if [^:]*\bFamily\.|\{% *(el)?if [^%]*\b(family|adding|trick)\b[^%]*%\}"
)
SUIT_NAME = re.compile(r"[\"'](clubs|hearts|spades|diamonds)[\"']")


def _files(*suffixes: str) -> list[Path]:
    found = []
    for top in PRODUCT:
        for path in sorted(top.rglob("*")):
            relative = path.relative_to(REPO).as_posix()
            if path.suffix in suffixes and not relative.startswith(OUTSIDE):
                found.append(path)
    return found


def _matches(pattern: re.Pattern[str], paths: list[Path]) -> list[str]:
    return [
        f"{path.relative_to(REPO)}:{number}: {line.strip()}"
        for path in paths
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if pattern.search(line)
    ]


def test_nothing_outside_the_rules_and_the_registries_asks_which_family() -> None:
    assert _matches(FAMILY_BRANCH, _files(".py", ".html", ".js", ".txt")) == []


def test_the_branch_pattern_finds_the_branches_it_counts() -> None:
    found = [
        'if session.family == "adding":',
        "family=Family.TRICK if isinstance(sheet, TrickSheet) else Family.ADDING,",
        '{% if game.family == "adding" %}',
        "if isinstance(rules, trick.TrickRules):",
        "if session.family != adding.ID:",
    ]
    kept = ["SCREENS[table.session.family].page(request, table)", "{% if rules.trick_points %}"]
    assert all(FAMILY_BRANCH.search(line) for line in found)
    assert not any(FAMILY_BRANCH.search(line) for line in kept)


def test_every_registry_holds_every_family_by_its_id() -> None:
    from scorekeeper.families import APPS
    from scorekeeper.models import ENTRY_MODELS
    from scorekeeper.presenters.registry import PRESENTERS
    from scorekeeper.rules.registry import FAMILIES
    from scorekeeper.scoresheet import SHEETS
    from scorekeeper.services.stored import STORE_ALL
    from scorekeeper.views.table import SCREENS

    for registry in (ENTRY_MODELS, APPS, PRESENTERS, SCREENS, STORE_ALL, SHEETS):
        assert sorted(registry) == sorted(FAMILIES)
    for family_id, app in APPS.items():
        shown = PRESENTERS[family_id]
        assert app.id == shown.FAMILY == SHEETS[family_id].ID == family_id
        assert (REPO / "templates" / shown.TEMPLATES / "table.html").exists()
        rules = FAMILIES[family_id]
        preset = next(iter(rules.PRESETS.values()))
        players = [f"Player {n}" for n in range(1, min(preset.players) + 1)]
        assert isinstance(rules.resolve_rules(preset.id, {}, players), app.rules_type)


def test_no_template_or_script_spells_a_suit() -> None:
    assert _matches(SUIT_NAME, _files(".html", ".js")) == []


def _module(path: Path) -> str:
    parts = list(path.relative_to(REPO).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(node: ast.AST, module: str, is_package: bool) -> list[str]:
    """Every module `node` imports, at the top or inside a function (not for type checking)."""
    if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
        return []
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if isinstance(node, ast.ImportFrom):
        base = node.module or ""
        if node.level:
            package = module.split(".")[: None if is_package else -1]
            package = package[: len(package) - node.level + 1]
            base = ".".join([*package, *([base] if base else [])])
        return [base, *(f"{base}.{alias.name}" for alias in node.names)]
    return [
        name for child in ast.iter_child_nodes(node) for name in _imports(child, module, is_package)
    ]


def _circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The groups of modules that import each other, round a circle (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    circles: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        for other in edges[module]:
            if other not in index:
                visit(other)
                low[module] = min(low[module], low[other])
            elif other in stack:
                low[module] = min(low[module], index[other])
        if low[module] == index[module]:
            group = []
            while not group or group[-1] != module:
                group.append(stack.pop())
            if len(group) > 1:
                circles.append(sorted(group))

    for module in edges:
        if module not in index:
            visit(module)
    return circles


def test_no_module_of_the_app_imports_one_that_imports_it_back() -> None:
    paths = {
        _module(path): path
        for top in ("scorekeeper", "bench")
        for path in sorted((REPO / top).rglob("*.py"))
        if "migrations" not in path.parts
    }
    edges = {
        module: {
            name
            for name in _imports(ast.parse(path.read_text()), module, path.name == "__init__.py")
            if name in paths and name != module
        }
        for module, path in paths.items()
    }
    assert _circles(edges) == []


def _module_imports(top: str) -> dict[str, set[str]]:
    """What each module under `top` imports (not for type checking)."""
    return {
        _module(path): set(
            _imports(ast.parse(path.read_text()), _module(path), path.name == "__init__.py")
        )
        for path in sorted((REPO / top).rglob("*.py"))
        if "migrations" not in path.parts
    }


def _reaching(imports: dict[str, set[str]], *tops: str) -> list[str]:
    return sorted(
        f"{module}: {name}"
        for module, names in imports.items()
        for name in names
        if any(name == top or name.startswith(f"{top}.") for top in tops)
    )


def test_the_app_imports_nothing_of_the_benchmark_harness() -> None:
    assert _reaching({"x": {"bench.server", "benchmarks", "scorekeeper.live"}}, "bench") == [
        "x: bench.server"
    ]
    assert _reaching(_module_imports("scorekeeper"), "bench") == []


def test_families_imports_nothing_registered_above_it() -> None:
    above = [f"scorekeeper.{part}" for part in ("presenters", "forms", "services", "views")]
    families = {"scorekeeper.families": _module_imports("scorekeeper")["scorekeeper.families"]}
    assert _reaching(families, *above) == []


# Playwright and axe are the browser tests' tools: a test elsewhere (and any module it imports
# from tests/browser/) must run where they are not installed.
BROWSER_ONLY = ("playwright", "axe_playwright_python", "tests.browser")


def _browser_imports(source: str, module: str) -> list[str]:
    return [
        name
        for name in _imports(ast.parse(source), module, is_package=False)
        if any(name == top or name.startswith(f"{top}.") for top in BROWSER_ONLY)
    ]


def test_only_the_browser_tests_import_playwright() -> None:
    assert _browser_imports("from playwright.sync_api import Page", "tests.views.x") != []
    assert _browser_imports("from tests.browser.conftest import PHONE", "tests.x") != []
    assert _browser_imports("import playwright_stealth\nimport tests.browsers", "tests.x") == []
    tests, browser = REPO / "tests", REPO / "tests" / "browser"
    found = {
        f"{path.relative_to(REPO)}: {name}"
        for path in sorted(tests.rglob("*.py"))
        if not path.is_relative_to(browser)
        for name in _browser_imports(path.read_text(encoding="utf-8"), _module(path))
    }
    assert found == set()
