"""Run the book's ``{doctest}`` blocks as tests, one namespace per chapter."""

from sybil import Sybil
from sybil.parsers.myst import DocTestDirectiveParser

pytest_collect_file = Sybil(
    parsers=[DocTestDirectiveParser()],
    patterns=["*.md"],
).pytest()
