"""White-box tests: the text read from bytes, the stand-ins a call's tensor-likes are read
as, which functions are read before a handler is asked, and the names resolve_name walks."""

import refgrad
from refgrad import _resolved_names
from refgrad._parsed_first import _standing, parser_of
from refgrad._tensor import Tensor
from refgrad._text_arguments import as_text


class Like:
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        return "handled"


def test_bytes_are_read_as_the_text_they_spell_and_the_rest_as_they_are():
    assert as_text(b"tanh") == "tanh"
    assert as_text(b"\xff").encode("utf-8", "surrogateescape") == b"\xff"  # kept, not refused
    given = "floor"
    assert as_text(given) is given and as_text(None) is None


def test_a_tensor_like_is_read_as_one_tensor_of_its_class_name():
    first, second = _standing(Like()), _standing(Like())
    assert isinstance(first, Tensor) and type(first).__name__ == "Like"
    assert first is second  # made once
    plain = refgrad.rand(2)
    pair = (plain, 3)
    assert _standing(plain) is plain and _standing(pair) is pair
    listed = _standing([plain, Like()])
    assert type(listed) is list and listed[0] is plain and type(listed[1]).__name__ == "Like"


def test_only_what_refgrad_reads_against_torchs_lines_is_read_first():
    assert parser_of(refgrad.einsum, "einsum") is None  # Python in torch: its own line asks
    assert parser_of(lambda *args: None, "nothing_kept") is None
    refusal = parser_of(refgrad.norm, "norm")((refgrad.rand(2),), {"foo": 1})
    assert str(refusal) == "norm() got an unexpected keyword argument 'foo'"
    assert parser_of(refgrad.add, "add")((refgrad.rand(2), 1), {}) is None


def test_every_name_left_out_of_torchs_all_is_a_function_refgrad_has():
    for name in _resolved_names.OUTSIDE_ALL:
        assert callable(getattr(refgrad, name)), name
