"""Browser tests: Playwright driving the system Chromium at a phone viewport.

One Chromium runs for the whole session; every test gets fresh browser contexts (new
cookies, new storage) against pytest-django's ``live_server``. Pages are checked with
``check_a11y(page, name)``: axe-core in light and in dark, the phone layout, and a
full-page screenshot per colour mode in ``tests/browser/screenshots/`` for review.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Literal

import pytest
from axe_playwright_python.base import AXE_SCRIPT
from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.test import Client
from playwright.sync_api import Browser, BrowserContext, Page, Route, expect, sync_playwright

from scorekeeper.models import GameSession

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]
PHONE_WIDTH = 360
PHONE: dict[str, Any] = {
    "viewport": {"width": PHONE_WIDTH, "height": 740},
    "device_scale_factor": 2,
    "is_mobile": True,
    "has_touch": True,
    "color_scheme": "light",
    "locale": "en-GB",
    "service_workers": "block",
    # No colour transitions, so axe measures the final colours, not half-way ones.
    "reduced_motion": "reduce",
}
MIN_TAP = 44  # px, WCAG 2.5.5 target size
# What a thumb aims at: buttons, the top navigation, the roster names. Inline links
# inside a sentence are exempt (WCAG 2.5.8).
TAP_TARGETS = ".btn, .app-nav a, .roster a"
FAILING_IMPACTS = {"serious", "critical"}
# Rules that fail whatever their impact: two landmarks of one role must have names that tell
# them apart, or a screen reader's list of landmarks offers the same entry twice.
FAILING_RULES = {"landmark-unique"}
# A colour mode changes colours only: the second mode needs only axe's colour rules.
COLOUR_RULES = ["color-contrast", "link-in-text-block"]
SCREENSHOTS = Path(__file__).parent / "screenshots"
HERE = Path(__file__).parent

ColorScheme = Literal["light", "dark"]
CheckA11y = Callable[[Page, str], None]
NewPage = Callable[..., Page]
LogIn = Callable[[Page, AbstractBaseUser], None]
OpenTable = Callable[..., Page]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    # This hook sees every collected item, not only this folder's.
    for item in items:
        if item.path.is_relative_to(HERE):
            item.add_marker(pytest.mark.browser)


# One Chromium for the whole test process (every test below tests/browser/, game night
# included): Playwright's sync API runs one event loop per thread, so a second browser
# started beside the first would fail.
@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    if not CHROMIUM.exists():
        pytest.skip(f"browser tests need the system Chromium at {CHROMIUM}")
    with pytest.MonkeyPatch.context() as mp:
        # Playwright's sync API runs an asyncio event loop on this thread (in a
        # greenlet) from start() to stop(). Django then sees a running loop and its
        # async-safety check raises SynchronousOnlyOperation for any ORM call made
        # here: the test's own queries and pytest-django's flush after each test.
        # Those calls are plain synchronous code that never runs inside a coroutine,
        # so the check is a false alarm. It is switched off only while the browser
        # runs and switched back on when the session's browser stops.
        mp.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
        with sync_playwright() as playwright:
            chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
            yield chromium
            chromium.close()


@pytest.fixture(autouse=True)
def _committed_data(transactional_db: None) -> None:
    """The live server answers from other threads: a test's data must be committed, not held
    in a test transaction. (The test database is a file, see settings, so those threads
    share it.)"""


@pytest.fixture(autouse=True)
def _phones_open_the_live_server(live_server: Any, settings: Any) -> None:
    """Share links carry SITE_URL, as under scripts/run (which sets it to the local network's
    address): here the live server's, so that a page opened at localhost still gives links."""
    settings.SITE_URL = live_server.url


@pytest.fixture
def new_page(browser: Browser, live_server: Any) -> Iterator[NewPage]:
    """Open a page in a fresh phone-sized context; keyword arguments override PHONE.

    The page fails the test on a JavaScript error, a console error or a 4xx/5xx
    response, unless the test empties ``page.problems`` (a list of strings).
    """
    contexts: list[BrowserContext] = []
    pages: list[Page] = []

    def open_page(**overrides: Any) -> Page:
        context = browser.new_context(base_url=live_server.url, **{**PHONE, **overrides})
        context.set_default_timeout(5_000)
        contexts.append(context)
        page = context.new_page()
        problems: list[str] = []
        page.problems = problems  # type: ignore[attr-defined]
        page.javascript_enabled = overrides.get("java_script_enabled", True)  # type: ignore[attr-defined]
        page.on("pageerror", lambda error: problems.append(f"JavaScript error: {error}"))
        page.on(
            "console",
            lambda msg: (
                problems.append(f"console {msg.type} on {page.url}: {msg.text}")
                if msg.type == "error" and not _aborted_by_navigation(msg.text)
                else None
            ),
        )
        page.on(
            "response",
            lambda response: (
                problems.append(f"HTTP {response.status} for {response.url}")
                if response.status >= 400
                else None
            ),
        )
        pages.append(page)
        return page

    yield open_page
    for context in contexts:
        context.close()
    problems = [problem for page in pages for problem in page.problems]  # type: ignore[attr-defined]
    if problems:
        pytest.fail("The browser reported problems:\n" + "\n".join(problems), pytrace=False)


def _aborted_by_navigation(text: str) -> bool:
    """htmx logs an in-flight request that the browser cancelled because the page moved on
    (a form was sent, a link followed) as an error; nothing went wrong."""
    return text.startswith(("htmx:sendAbort", "htmx:afterRequest"))


@pytest.fixture
def page(new_page: NewPage) -> Page:
    return new_page()


@pytest.fixture
def log_in(live_server: Any) -> LogIn:
    """Give a page's context the session cookie of a logged-in user (no form, no hashing)."""

    def log_in_page(page: Page, user: AbstractBaseUser) -> None:
        client = Client()
        client.force_login(user)
        cookie = client.cookies[settings.SESSION_COOKIE_NAME]
        page.context.add_cookies(
            [{"name": cookie.key, "value": cookie.value, "url": live_server.url}]
        )

    return log_in_page


@pytest.fixture
def open_table(new_page: NewPage, log_in: LogIn) -> OpenTable:
    """Open a session's table on its owner's phone: `open_table(session)` on a new phone
    (keyword arguments override PHONE, as for `new_page`), `open_table(session, page)` on
    this one."""

    def open_page(session: GameSession, page: Page | None = None, **overrides: Any) -> Page:
        if page is None:
            page = new_page(**overrides)
        log_in(page, session.owner)
        page.goto(f"/sessions/{session.public_id}/")
        return page

    return open_page


@pytest.fixture
def check_a11y(request: pytest.FixtureRequest, browser: Browser) -> CheckA11y:
    """Check the page as it is now, in light and in dark; save a screenshot of each.

    Fails listing every axe violation of impact serious or critical or of a rule in
    FAILING_RULES, any horizontal scrolling at phone width, and any tap target lower than
    MIN_TAP.
    """
    test_name = re.sub(r"[^\w.-]+", "_", request.node.name)
    SCREENSHOTS.mkdir(exist_ok=True)

    def check(page: Page, name: str) -> None:
        page.wait_for_load_state()
        if not page.javascript_enabled:  # type: ignore[attr-defined]
            # axe needs timers, which do not run with JavaScript off. Render the same
            # document in a twin context with JavaScript on but the app's scripts
            # blocked, so the page is checked as a visitor without JavaScript sees it.
            twin = _twin_page(browser, page)
            try:
                _check(twin, name, scripts=False)
            finally:
                twin.context.close()
        else:
            _check(page, name)

    def _check(page: Page, name: str, scripts: bool = True) -> None:
        problems = _layout_problems(page)
        html = page.locator("html")
        choice = html.get_attribute("data-theme-choice")
        shown = html.get_attribute("data-bs-theme")
        system: ColorScheme = (
            "dark"
            if page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches")
            else "light"
        )
        # Without scripts "auto" cannot follow the system: the page stays as served.
        following = choice == "auto" and scripts
        for mode, rules in (("light", None), ("dark", COLOUR_RULES)):
            _show(page, mode, following_system=following)
            problems += [
                f"[{mode}] {v['id']} ({v['impact']}): {v['help']}\n"
                + "".join(f"    {_describe(node)}\n" for node in v["nodes"])
                for v in _axe_violations(page, rules)
                if v["impact"] in FAILING_IMPACTS or v["id"] in FAILING_RULES
            ]
            # caret="initial": hiding the caret leaves an empty style="" on every input;
            # htmx's settle step later copies it onto the swapped-in input, and the
            # app's CSP (style-src 'self') blocks that and logs a console error.
            page.screenshot(
                path=SCREENSHOTS / f"{test_name}-{name}-{mode}.png", full_page=True, caret="initial"
            )
        # axe leaves empty style attributes on elements it inspected; htmx would copy them
        # onto swapped-in elements, which the CSP refuses as inline style.
        page.evaluate(
            "document.querySelectorAll('[style=\"\"]').forEach(e => e.removeAttribute('style'))"
        )
        page.emulate_media(color_scheme=system)
        if following:
            expect(html).to_have_attribute("data-bs-theme", system)
        elif shown is not None:
            _set_theme_attribute(page, shown)
        if problems:
            pytest.fail(
                f"Page {name!r} ({page.url}) fails accessibility checks:\n" + "\n".join(problems),
                pytrace=False,
            )

    return check


def _axe_violations(page: Page, rules: list[str] | None) -> list[dict[str, Any]]:
    """Run axe-core (all its rules, or the given ones) on the page's document.

    axe comes inside the axe-playwright-python package and is evaluated in the page
    once per document, so nothing is fetched from the network.
    """
    if not page.evaluate("typeof window.axe === 'object'"):
        page.evaluate(AXE_SCRIPT)
    options: dict[str, Any] = {"resultTypes": ["violations"]}
    if rules:
        options["runOnly"] = {"type": "rule", "values": rules}
    violations: list[dict[str, Any]] = page.evaluate(
        "options => axe.run(document, options).then(results => results.violations)", options
    )
    return violations


def _describe(node: dict[str, Any]) -> str:
    """The node's selector and why it fails, e.g. the contrast ratio found."""
    target = ", ".join(map(str, node["target"]))
    reasons = [check["message"] for kind in ("any", "all", "none") for check in node[kind]]
    return f"{target}: {reasons[0]}" if reasons else target


def _show(page: Page, mode: ColorScheme, *, following_system: bool) -> None:
    page.emulate_media(color_scheme=mode)
    if following_system:
        # "Auto": the app's theme.js must follow the system's colour scheme.
        expect(page.locator("html")).to_have_attribute("data-bs-theme", mode)
    else:
        # A chosen mode ignores the system; show the other mode as the server would.
        _set_theme_attribute(page, mode)


def _set_theme_attribute(page: Page, mode: str) -> None:
    page.evaluate("mode => document.documentElement.setAttribute('data-bs-theme', mode)", mode)


def _layout_problems(page: Page) -> list[str]:
    problems = []
    width = page.evaluate("document.documentElement.scrollWidth")
    viewport = page.viewport_size["width"] if page.viewport_size else PHONE_WIDTH
    if width > viewport:
        # Name the innermost elements that stick out, so the message says what to mend.
        wide = page.evaluate(
            """limit => [...document.body.querySelectorAll('*')]
                .filter(el => el.getBoundingClientRect().right > limit + 0.5)
                .filter(el => ![...el.children].some(
                    child => child.getBoundingClientRect().right > limit + 0.5))
                .slice(0, 3)
                .map(el => `<${el.tagName.toLowerCase()} class="${el.className}">`
                    + ` ${el.textContent.trim().replace(/\\s+/g, ' ').slice(0, 60)}`)""",
            viewport,
        )
        problems.append(
            f"scrolls horizontally: {width}px wide at a {viewport}px viewport "
            f"(sticking out: {'; '.join(wide)})"
        )
    small = page.evaluate(
        """([selector, minimum]) => [...document.querySelectorAll(selector)]
            .filter(el => el.getClientRects().length > 0)
            .map(el => [el.textContent.trim().replace(/\\s+/g, ' '), el.getBoundingClientRect()])
            .filter(([text, box]) => box.height < minimum)
            .map(([text, box]) => `${text} is ${box.height}px tall`)""",
        [TAP_TARGETS, MIN_TAP],
    )
    problems += [f"tap target under {MIN_TAP}px: {item}" for item in small]
    return problems


def _twin_page(browser: Browser, page: Page) -> Page:
    """Open the page's current document again, with JavaScript on but no app scripts."""
    html, url = page.content(), page.url

    def serve(route: Route) -> None:
        if route.request.url == url:
            route.fulfill(body=html, content_type="text/html; charset=utf-8")
        elif route.request.resource_type == "script":
            route.abort()
        else:
            route.continue_()

    context = browser.new_context(**PHONE)
    context.set_default_timeout(5_000)
    context.route("**/*", serve)
    twin = context.new_page()
    twin.goto(url)
    return twin
