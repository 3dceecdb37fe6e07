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
    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - stdlib's name
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


@dataclass
class Site:
    """One browser page on the served site that remembers the JavaScript errors it saw."""

    page: object  # playwright.sync_api.Page
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
        response = self.page.goto(self.url(path), wait_until="load")
        assert response is not None and response.ok, (
            f"GET {path} answered {response.status if response else 'nothing'}"
        )
        return self.page

    def assert_no_js_errors(self) -> None:
        assert not self.js_errors, "JavaScript errors on the pages visited:\n  " + "\n  ".join(
            self.js_errors
        )


@pytest.fixture(scope="session")
def _session_site(browser, base_url: str):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(15_000)
    site = Site(page=page, base_url=base_url)

    def on_page_error(error) -> None:
        site.js_errors.append(f"{page.url}: uncaught {error}")

    def on_console(message) -> None:
        if message.type == "error":
            where = message.location.get("url") or page.url
            site.js_errors.append(f"{page.url}: console error: {message.text} ({where})")

    page.on("pageerror", on_page_error)
    page.on("console", on_console)
    try:
        yield site
    finally:
        context.close()


@pytest.fixture
def site(_session_site: Site) -> Site:
    """The shared page, with the error log emptied for this test."""
    _session_site.js_errors.clear()
    return _session_site
