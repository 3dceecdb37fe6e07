"""Black-box tests: apply_, map_ and map2_ with Python callables, share_memory_ and
is_shared, and as_subclass. The same assertions run on torch.
"""

import math

import pytest
import torch

from conformance._support import raises


def test_apply_writes_each_element_in_index_order_without_a_version_bump():
    x = torch.tensor([1.0, 2.0, 3.0])
    assert x.apply_(lambda v: v * 2) is x
    assert x.tolist() == [2.0, 4.0, 6.0] and x._version == 0
    seen = []
    grid = torch.arange(4.0).view(2, 2)
    grid.t().apply_(lambda v: seen.append(v) or v + 10)
    assert seen == [0.0, 2.0, 1.0, 3.0] and grid.tolist() == [[10.0, 11.0], [12.0, 13.0]]


def test_apply_passes_python_numbers_of_the_tensors_kind():
    for tensor, kind in ((torch.tensor([1, 2]), int), (torch.tensor([True]), bool),
                         (torch.tensor([1.0], dtype=torch.float16), float)):
        seen = []
        tensor.apply_(lambda v, seen=seen: seen.append(type(v)) or v)
        assert set(seen) == {kind}


@pytest.mark.parametrize(("tensor", "value", "expected"), [
    (torch.tensor([1]), 2.7, [2]),
    (torch.tensor([1]), -2.7, [-2]),
    (torch.tensor([1]), True, [1]),
    (torch.tensor([True]), 0, [False]),
    (torch.tensor([True]), 2.5, [True]),
    (torch.tensor([1.0]), True, [1.0]),
    (torch.tensor([1.0]), 1e300, [math.inf]),
    (torch.tensor([1], dtype=torch.uint8), -1, [255]),
    (torch.tensor([1.0]), torch.tensor(5.0), [5.0]),
])
def test_apply_reads_the_answer_as_torch_stores_a_number(tensor, value, expected):
    assert tensor.apply_(lambda v: value).tolist() == expected


@pytest.mark.parametrize(("tensor", "value", "error", "message"), [
    (torch.tensor([1.0]), "a", TypeError, "must be real number, not str"),
    (torch.tensor([1.0]), None, TypeError, "must be real number, not NoneType"),
    (torch.tensor([1]), "a", TypeError, "'str' object cannot be interpreted as an integer"),
    (torch.tensor([True]), "x", TypeError, "'str' object cannot be interpreted as an integer"),
    (torch.tensor([1]), 2**70, ValueError, "Overflow when unpacking long long"),
    (torch.tensor([1]), math.nan, RuntimeError,
     "value cannot be converted to type int64 without overflow"),
    (torch.tensor([1], dtype=torch.uint8), 300, RuntimeError,
     "value cannot be converted to type uint8 without overflow"),
    (torch.tensor([1], dtype=torch.int8), 200, RuntimeError,
     "value cannot be converted to type int8 without overflow"),
])
def test_apply_refuses_answers_the_tensor_cannot_hold(tensor, value, error, message):
    with raises(error, message):
        tensor.apply_(lambda v: value)


def test_apply_stops_where_the_callable_raises():
    calls = []

    def second_fails(v):
        calls.append(v)
        if len(calls) == 2:
            raise ValueError("second")
        return v * 100

    x = torch.tensor([1.0, 2.0, 3.0])
    with raises(ValueError, "second"):
        x.apply_(second_fails)
    assert x.tolist() == [100.0, 2.0, 3.0]


def test_apply_argument_errors():
    x = torch.tensor([1.0])
    with raises(TypeError, "'int' object is not callable"):
        x.apply_(5)
    with raises(TypeError, "TensorBase.apply_() takes exactly one argument (0 given)"):
        x.apply_()
    with raises(TypeError, "TensorBase.apply_() takes exactly one argument (2 given)"):
        x.apply_(abs, 1)
    with raises(TypeError, "TensorBase.apply_() takes no keyword arguments"):
        x.apply_(callable=abs)
    assert torch.empty(0).apply_(5).tolist() == []  # never called
    assert torch.Tensor.apply_.__name__ == "apply_"


def test_python_callables_refuse_tensors_that_require_grad():
    leaf = torch.ones(2, requires_grad=True)
    for tensor in (leaf, leaf * 2):
        with raises(RuntimeError, "Can't call apply_() on Variable that requires grad. Use "
                                  "var.detach().apply_() instead."):
            tensor.apply_(abs)
    with torch.no_grad(), raises(RuntimeError, "Can't call apply_() on Variable that requires "
                                               "grad. Use var.detach().apply_() instead."):
        leaf.apply_(abs)
    with raises(RuntimeError, "Can't call map_() on Variable that requires grad. Use "
                              "var.detach().map_() instead."):
        torch.ones(2).map_(leaf, lambda v, w: v)
    with raises(RuntimeError, "Can't call map2_() on Variable that requires grad. Use "
                              "var.detach().map2_() instead."):
        torch.ones(2).map2_(torch.ones(2), leaf, lambda v, w, u: v)


def test_map_and_map2_stretch_their_operands():
    a = torch.tensor([1.0, 2.0])
    assert a.map_(torch.tensor([10.0, 20.0]), lambda v, w: v + w) is a
    assert a.tolist() == [11.0, 22.0] and a._version == 0
    assert torch.tensor([1.0, 2.0]).map_(torch.tensor(5.0), lambda v, w: v + w).tolist() == [
        6.0, 7.0]
    b = torch.tensor([1.0, 2.0]).map2_(torch.tensor([1.0]), torch.tensor([3.0, 4.0]),
                                       lambda v, w, u: v + w * u)
    assert b.tolist() == [4.0, 6.0]
    keywords = torch.tensor([1.0]).map_(other=torch.tensor([2.0]), callable=lambda v, w: v * w)
    assert keywords.tolist() == [2.0]


def test_map_and_map2_errors():
    f, i = torch.tensor([1.0, 2.0]), torch.tensor([1, 2])
    with raises(TypeError, "map_: expected torch.FloatTensor for 'other' (got "
                           "torch.LongTensor)"):
        f.map_(i, lambda v, w: v)
    with raises(TypeError, "map2_: expected torch.FloatTensor for argument 'x' (got "
                           "torch.LongTensor)"):
        f.map2_(i, f, lambda v, w, u: v)
    with raises(TypeError, "map2_: expected torch.FloatTensor for argument 'y' (got "
                           "torch.DoubleTensor)"):
        f.map2_(f, f.double(), lambda v, w, u: v)
    with raises(TypeError, "map_(): argument 'other' (position 1) must be Tensor, not int"):
        f.map_(5, lambda v, w: v)
    with raises(TypeError, "map2_(): argument 'y' (position 2) must be Tensor, not int"):
        f.map2_(f, 3, lambda v, w, u: v)
    with raises(TypeError, 'map_() missing 1 required positional arguments: "callable"'):
        f.map_(f)
    with raises(RuntimeError, "The expanded size of the tensor (2) must match the existing "
                              "size (3) at non-singleton dimension 0.  Target sizes: [2].  "
                              "Tensor sizes: [3]"):
        f.map_(torch.tensor([1.0, 2.0, 3.0]), lambda v, w: v)
    assert f.tolist() == [1.0, 2.0]


def test_share_memory_marks_the_storage():
    x = torch.tensor([1.0, 2.0])
    assert not x.is_shared()
    assert x.share_memory_() is x and x.is_shared() and x._version == 0
    base = torch.arange(4.0)
    view = base[1:]
    view.share_memory_()
    assert base.is_shared() and view.is_shared() and not torch.arange(4.0).is_shared()
    leaf = torch.ones(2, requires_grad=True)
    assert leaf.share_memory_() is leaf and leaf.is_shared() and leaf.requires_grad
    with raises(TypeError, "Tensor.share_memory_() takes 1 positional argument but 2 were "
                           "given"):
        x.share_memory_(1)
    with raises(TypeError, "Tensor.is_shared() takes 1 positional argument but 2 were given"):
        x.is_shared(1)


class _Tagged(torch.Tensor):
    pass


def test_as_subclass_is_an_alias_under_the_new_class():
    leaf = torch.tensor([1.0, 2.0], requires_grad=True)
    tagged = leaf.as_subclass(_Tagged)
    assert type(tagged) is _Tagged and tagged is not leaf
    assert tagged.requires_grad and not tagged.is_leaf
    assert type(tagged.grad_fn).__name__ == "AliasBackward0"
    assert tagged._base is leaf and tagged.data_ptr() == leaf.data_ptr()
    tagged.sum().backward()
    assert leaf.grad.tolist() == [1.0, 1.0]
    assert repr(tagged) == "_Tagged([1., 2.], grad_fn=<AliasBackward0>)"
    plain = torch.tensor([1.0, 2.0])
    tagged = plain.as_subclass(_Tagged)
    tagged.add_(1)
    assert plain.tolist() == [2.0, 3.0] and plain._version == 1 and tagged.is_leaf
    doubled = leaf * 2
    with torch.no_grad():
        quiet = doubled.as_subclass(_Tagged)
    assert quiet.requires_grad and quiet.is_leaf and quiet.grad_fn is None
    same = leaf.as_subclass(torch.Tensor)
    assert type(same) is torch.Tensor and same is not leaf and not same.is_leaf


def test_as_subclass_errors():
    x = torch.tensor([1.0])
    with raises(TypeError, "Creating a Tensor subclass from a class that does not inherit "
                           "from Tensor is not possible. Make sure your class inherits from "
                           "Tensor."):
        x.as_subclass(int)
    with raises(TypeError, "cls must be a type (got str)"):
        x.as_subclass("a")
    with raises(TypeError, 'as_subclass() missing 1 required positional arguments: "cls"'):
        x.as_subclass()
    assert torch.Tensor.as_subclass.__qualname__ == "TensorBase.as_subclass"


def test_a_subclass_prints_its_name():
    grid = torch.ones(2, 2).as_subclass(_Tagged)
    assert repr(grid) == "_Tagged([[1., 1.],\n         [1., 1.]])"
    assert repr(torch.nn.Parameter(torch.ones(1))) == (
        "Parameter containing:\ntensor([1.], requires_grad=True)")
