"""Black-box tests: what a dispatch mode sees of a view or a view's copy as another dtype.

`x.view(dtype)` is handed over as aten.view.dtype, then the detach that keeps its
result out of the graph; `torch.view_copy(x, dtype)` as the one op
aten.view_copy.dtype. The results are those made without a mode.
"""

import pytest
import torch

from conformance._mode_support import call_recorder, tagged_mode


@pytest.mark.parametrize("dtype", [torch.int32, torch.float32, torch.int16])
def test_a_dtype_view_is_handed_over_then_detached(dtype):
    x = torch.arange(4.0, requires_grad=True)
    with call_recorder()() as mode:
        out = x.view(dtype)
    assert mode.calls == [("aten.view.dtype", [[4], dtype], []),
                          ("aten.detach.default", [list(out.shape)], [])]
    assert out.dtype == dtype and not out.requires_grad
    assert out.tolist() == x.detach().view(dtype).tolist()


@pytest.mark.parametrize("dtype", [torch.int32, torch.float32])
def test_a_dtype_views_copy_is_one_op(dtype):
    x = torch.arange(4.0, requires_grad=True)
    with call_recorder()() as mode:
        out = torch.view_copy(x, dtype)
    assert mode.calls == [("aten.view_copy.dtype", [[4], dtype], [])]
    assert out.dtype == dtype and not out.requires_grad
    assert out.tolist() == torch.view_copy(x, dtype).tolist()
    assert out.data_ptr() != x.data_ptr()


def test_each_mode_of_a_stack_sees_the_view_and_the_detach_once():
    seen = []
    mode = tagged_mode(seen)
    x = torch.ones(2)
    with mode("outer"), mode("inner"):
        x.view(torch.int32)
    assert seen == [("inner", "aten.view.dtype"), ("outer", "aten.view.dtype"),
                    ("inner", "aten.detach.default"), ("outer", "aten.detach.default")]
