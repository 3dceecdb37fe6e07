"""Fixtures for the site check: the built book served over HTTP, and one headless Chromium.

`nox -s site` builds the book and then runs `pytest book/site_check`. Every fixture
here fails (never skips) when something it needs is missing: an unbuilt site, no
playwright, no Chromium.
"""

from __future__ import annotations

import functools
import threading
from dataclasses import dataclass, field
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import urljoin, urlsplit

import pytest

SITE = Path(__file__).resolve().parents[1] / "_build" / "html"
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
BUILD_HINT = "build it first: python3 noxfile.py -s book (or -s site, which builds and checks)"


def chapter_pages() -> list[str]:
    """Every chapter page in the build, as a path relative to the site root."""
    return sorted(path.relative_to(SITE).as_posix() for path in SITE.glob("chapters/*.html"))


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    # One test per chapter page found on disk. With nothing built there is still one
    # (failing) test, since the `site` fixture fails first; an empty list would skip.
    if "chapter" in metafunc.fixturenames:
        metafunc.parametrize("chapter", chapter_pages() or ["chapters/<none built>"])


# --- the HTTP server -------------------------------------------------------------------


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


class _QuietServer(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address) -> None:
        # The browser drops connections it no longer needs; that is not a failure.
        pass


@pytest.fixture(scope="session")
def site_dir() -> Path:
    if not (SITE / "index.html").is_file():
        pytest.fail(f"the book has not been built: {SITE / 'index.html'} is missing; {BUILD_HINT}")
    if not chapter_pages():
        pytest.fail(f"the build at {SITE} has no chapters/*.html pages; {BUILD_HINT}")
    return SITE


@pytest.fixture(scope="session")
def base_url(site_dir: Path):
    """The site served on 127.0.0.1 on an ephemeral port, for the whole session."""
    handler = functools.partial(_QuietHandler, directory=str(site_dir))
    server = _QuietServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, name="site-server", daemon=True)
    thread.start()
    host, port = server.server_address[:2]
    try:
        yield f"http://{host}:{port}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


# --- the browser -----------------------------------------------------------------------


@pytest.fixture(scope="session")
def browser():
    try:
        from playwright.sync_api import sync_playwright
    except ImportError as error:
        pytest.fail(f"playwright is not installed ({error}); pip install playwright")
    if not CHROMIUM.is_file():
        pytest.fail(f"Chromium not found at {CHROMIUM}; install Debian's chromium package")
    with sync_playwright() as playwright:
        # Playwright gives the browser a fresh temporary profile and removes it on close.
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, timeout=60_000
        )
        try:
            yield browser
        finally:
            browser.close()


@dataclass(repr=False)
class Site:
    """One browser page on the served site that remembers the JavaScript errors it saw."""

    page: Any  # playwright.sync_api.Page
    base_url: str
    js_errors: list[str] = field(default_factory=list)

    def url(self, path: str) -> str:
        return urljoin(self.base_url, path)

    def path_of(self, url: str) -> str | None:
        """`url` as a path relative to the site root, or None if it is off the site."""
        if not url.startswith(self.base_url):
            return None
        return urlsplit(url[len(self.base_url) :]).path

    def visit(self, path: str):
        """Load `path` (relative to the site root) and return the page."""
        __tracebackhide__ = True
        response = self.page.goto(self.url(path), wait_until="load")
        if response is None or not response.ok:
            raise AssertionError(f"GET {path} answered {response.status if response else None}")
        return self.page

    def assert_no_js_errors(self) -> None:
        __tracebackhide__ = True  # report the failure at the test's line
        if self.js_errors:
            raise AssertionError(
                "JavaScript errors on the pages visited:\n  " + "\n  ".join(self.js_errors)
            )

    def _on_page_error(self, error) -> None:
        self.js_errors.append(f"{self.page.url}: uncaught {error}")

    def _on_console(self, message) -> None:
        if message.type != "error":
            return
        where = message.location.get("url") or self.page.url
        # Chromium asks for /favicon.ico by itself; the book declares no icon, so that 404
        # is the browser's, not the site's. A 404 for anything a page asks for still counts.
        if self.path_of(where) == "favicon.ico":
            return
        self.js_errors.append(f"{self.page.url}: console error: {message.text} ({where})")


@pytest.fixture(scope="session")
def _session_site(browser, base_url: str):
    # One context and page for the whole session, so static assets are fetched once.
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        page = context.new_page()
        page.set_default_timeout(15_000)
        site = Site(page=page, base_url=base_url)
        page.on("pageerror", site._on_page_error)
        page.on("console", site._on_console)
        yield site
    finally:
        context.close()


@pytest.fixture
def site(_session_site: Site) -> Site:
    """The shared page, with an empty error log and empty storage, so that every test's
    first page load is a first visit (the case in which themes tend to misbehave)."""
    site = _session_site
    if site.page.url.startswith(site.base_url):
        site.page.evaluate("() => { localStorage.clear(); sessionStorage.clear(); }")
    site.js_errors.clear()
    return site
