"""Black-box tests: each view copy is handed to a dispatch mode as one operator, under the
overload torch gives it, with none of the view's checks shown before it."""

import pytest
import torch

from conformance._mode_support import tagged_mode

CALLS = (
    ("torch.split_copy(x, 2)", "aten.split_copy.Tensor"),
    ("torch.split_with_sizes_copy(x, [1, 3])", "aten.split_with_sizes_copy.default"),
    ("torch.unbind_copy(m)", "aten.unbind_copy.int"),
    ("torch.unbind_copy(m, 1)", "aten.unbind_copy.int"),
    ("torch.select_copy(m, 0, 1)", "aten.select_copy.int"),
    ("torch.slice_copy(m, 1, 0, 2)", "aten.slice_copy.Tensor"),
    ("torch.transpose_copy(m, 0, 1)", "aten.transpose_copy.int"),
    ("torch.squeeze_copy(c)", "aten.squeeze_copy.default"),
    ("torch.squeeze_copy(c, 1)", "aten.squeeze_copy.dim"),
    ("torch.squeeze_copy(c, (1,))", "aten.squeeze_copy.dims"),
    ("torch.t_copy(m)", "aten.t_copy.default"),
    ("torch.permute_copy(m, (1, 0))", "aten.permute_copy.default"),
    ("torch.diagonal_copy(m, offset=1)", "aten.diagonal_copy.default"),
    ("torch.unfold_copy(x, 0, 2, 1)", "aten.unfold_copy.default"),
    ("torch.unsqueeze_copy(x, 0)", "aten.unsqueeze_copy.default"),
    ("torch.expand_copy(c, (2, 3))", "aten.expand_copy.default"),
    ("torch.view_copy(x, (2, 2))", "aten.view_copy.default"),
    ("torch.as_strided_copy(x, (2,), (1,))", "aten.as_strided_copy.default"),
    ("torch.alias_copy(x)", "aten.alias_copy.default"),
    ("torch.detach_copy(x)", "aten.detach_copy.default"),
    ("torch.narrow_copy(x, 0, 1, 2)", "aten.narrow_copy.default"),
)


@pytest.mark.parametrize(("call", "op"), CALLS)
def test_a_view_copy_is_one_operator_to_a_mode(call, op):
    names = {"torch": torch, "x": torch.arange(4.0), "m": torch.arange(6.0).reshape(2, 3),
             "c": torch.ones(2, 1)}
    seen = []
    with tagged_mode(seen)("mode"):
        eval(call, names)
    assert seen == [("mode", op)]
