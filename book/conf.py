"""Sphinx configuration for the refgrad book."""

project = "refgrad"
author = "The refgrad authors"
copyright = "2026, The refgrad authors"

# MathJax is served from the site itself, so formulas render offline.
extensions = ["myst_nb", "sphinx.ext.doctest", "sphinx-mathjax-offline"]
html_theme = "sphinx_book_theme"
html_title = "refgrad: autograd, explained by running it"
html_theme_options = {
    "repository_url": "",
    "show_toc_level": 2,
    "navigation_with_keys": False,
}
html_static_path: list[str] = []

# bench/ holds the last benchmark run, data that the costs chapter reads, not a page.
exclude_patterns = ["_build", "jupyter_execute", "**.ipynb_checkpoints", "README.md", "bench"]
source_suffix = {".md": "myst-nb"}
master_doc = "index"

# Every cell runs at build time; any error fails the build, with its traceback
# shown in the build log (run sphinx-build with -T).
nb_execution_mode = "cache"
nb_execution_raise_on_error = True
nb_execution_show_tb = True
nb_execution_timeout = 600
nb_merge_streams = True
nb_render_markdown_format = "myst"  # so that generated tables render as tables

myst_enable_extensions = ["colon_fence", "dollarmath"]
myst_heading_anchors = 3
suppress_warnings = ["mystnb.unknown_mime_type"]

# Without a default, the theme's first-visit script logs "Got invalid theme mode"
# to the browser console; the site check treats console errors as failures.
html_context = {"default_mode": "auto"}
