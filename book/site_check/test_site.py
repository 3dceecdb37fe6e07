"""Check the built book in headless Chromium: navigation, executed outputs, search, figures.

Run after building the book: `pytest book/site_check` (or `python3 noxfile.py -s site`).
Every test also asserts that the pages it loaded raised no JavaScript errors.
"""

from __future__ import annotations

import re

# The primary (left) sidebar of sphinx-book-theme: the book's table of contents.
SIDEBAR_LINKS = ".bd-sidebar-primary nav.bd-docs-nav a.reference.internal[href]"
CHAPTER_PAGE = re.compile(r"^chapters/[^/]+\.html$")
SEARCH_TERM = "AccumulateGrad"


def test_every_chapter_page_is_in_the_sidebar(site, site_dir):
    built = {p.relative_to(site_dir).as_posix() for p in site_dir.glob("chapters/*.html")}

    page = site.visit("index.html")
    hrefs = page.eval_on_selector_all(SIDEBAR_LINKS, "links => links.map(a => a.href)")
    assert hrefs, f"no links matched {SIDEBAR_LINKS!r} on index.html; did the theme change?"
    linked = {path for href in hrefs if (path := site.path_of(href)) and CHAPTER_PAGE.match(path)}

    assert linked == built, (
        f"chapter pages built but missing from the sidebar: {sorted(built - linked)}; "
        f"sidebar links to pages that were not built: {sorted(linked - built)}"
    )
    site.assert_no_js_errors()


def test_chapter_shows_executed_outputs(site, chapter):
    page = site.visit(chapter)
    outputs = page.eval_on_selector_all(
        "div.cell_output",
        "els => els.map(el => ({text: el.textContent.trim(), svg: !!el.querySelector('svg')}))",
    )
    assert outputs, f"{chapter} has no div.cell_output at all: were its cells executed?"
    assert any(o["text"] or o["svg"] for o in outputs), (
        f"{chapter}: all {len(outputs)} cell outputs are empty (no text, no svg)"
    )
    site.assert_no_js_errors()


def test_search_finds_accumulategrad(site):
    page = site.visit(f"search.html?q={SEARCH_TERM}")
    # searchtools.js fills #search-results asynchronously and retitles it when done.
    page.wait_for_function(
        "() => document.querySelector('#search-results h2')?.textContent === 'Search Results'",
        timeout=15_000,
    )
    results = page.eval_on_selector_all(
        "#search-results ul.search li a", "links => links.map(a => a.textContent.trim())"
    )
    summary = page.inner_text("#search-results")
    assert results, f"searching for {SEARCH_TERM!r} found nothing; the page says: {summary!r}"
    site.assert_no_js_errors()


def test_reading_chapter_draws_its_graph_as_inline_svg(site):
    page = site.visit("chapters/00_reading.html")
    figures = page.locator("div.refgrad-figure")
    assert figures.count() >= 1, "chapters/00_reading.html has no div.refgrad-figure"
    inline = page.locator("div.refgrad-figure > svg")
    assert inline.count() >= 1, (
        "the figure on chapters/00_reading.html is not an inline <svg>: "
        f"{figures.first.inner_html()[:200]!r}"
    )
    box = inline.first.bounding_box()
    assert box and box["width"] > 0 and box["height"] > 0, f"the inline svg is not drawn: {box}"
    assert page.locator("div.refgrad-figure img").count() == 0, "a figure holds an <img>"
    site.assert_no_js_errors()


def test_chapter_has_no_external_svg_images(site, chapter):
    page = site.visit(chapter)
    # The src as the browser resolved it, so "fig.svg?v=1" and data: URLs count too.
    svg_images = page.eval_on_selector_all(
        "article img",
        """imgs => imgs.map(img => img.src).filter(src =>
               src.startsWith('data:image/svg') || new URL(src).pathname.endsWith('.svg'))""",
    )
    assert not svg_images, (
        f"{chapter} shows pictures as external SVG images, not inline <svg>: {svg_images}"
    )
    site.assert_no_js_errors()
