"""Unit tests of the schemas that give a dispatch mode torch's arguments for a row."""

import refgrad
from refgrad.utils._mode_arguments import REQUIRED, SCHEMAS, _schema, bound, unbound


def test_every_schema_reads():
    for row in SCHEMAS:
        read = _schema(row)
        assert read and all(len(entry) == 4 for entry in read)
        keyword = [bool(k) for _, _, _, k in read]
        assert keyword == sorted(keyword)  # positional ones first


def test_a_schema_names_the_rows_argument_and_fixed_values():
    assert ("size", "shape", REQUIRED, False) in _schema("view")
    assert ("half_to_float", None, False, False) in _schema("softmax")
    assert ("alpha", "alpha", 1, True) in _schema("add")
    assert ("dtype", "dtype", None, "if given") in _schema("sum_dim")
    assert ("layout", None, None, True) in _schema("_to_copy")


def test_trailing_defaults_are_left_off_and_required_ones_kept():
    x = refgrad.ones(2)
    assert bound("sum_dim", ("self",), (x,), {"dim": (0,), "keepdim": False}) == ((x, [0]), {})
    assert bound("sum_dim", ("self",), (x,), {"dim": None, "keepdim": False}) == ((x, None), {})
    assert bound("slice", ("self",), (x,), {"dim": 0, "start": None, "end": None,
                                             "step": 1}) == ((x,), {})
    assert bound("add", ("self", "other"), (x, x), {"alpha": 1}) == ((x, x), {})
    assert bound("add", ("self", "other"), (x, 2), {"alpha": 3}) == ((x, 2), {"alpha": 3})


def test_unbound_is_the_rows_call_again():
    x = refgrad.ones(2, 3)
    args, params = unbound("sum_dim", ("self",), (x, [1], True), {"dtype": refgrad.float64})
    assert args == (x,) and params == {"dim": (1,), "keepdim": True, "dtype": refgrad.float64,
                                       "self_dtype": refgrad.float32}
    args, params = unbound("cat", ("tensors",), ([x, x], 1), {})
    assert params == {"dim": 1, "tensors_args_sizes": (3, 3)}
    args, params = unbound("_to_copy", ("self",), (x,), {"dtype": refgrad.float64})
    assert params["device"] == x.device and params["self_dtype"] == refgrad.float32
    args, params = unbound("softmax", ("self",), (x, 1, False), {})
    assert params == {"dim": 1}
    args, params = unbound("add", ("self", "other"), (x, x), {})
    assert args == (x, x) and params == {"alpha": 1}  # its backward reads alpha
    args, params = unbound("sum_dim", ("self",), (x, [0]), {})
    assert params == {"dim": (0,), "keepdim": False}
