"""In-place ops, views and version counters, against torch's API (F113-F132, F153)."""

import warnings

import numpy as np
import pytest
import torch

from conformance._support import raises


def test_inplace_on_non_leaf_rewrites_history():
    a = torch.ones(2, requires_grad=True)
    b = a * 2
    b.add_(1)
    assert b.grad_fn.name() == "AddBackward0"
    assert b.grad_fn.next_functions[0][0].name() == "MulBackward0"
    assert b._version == 1
    b.sum().backward()
    assert a.grad.tolist() == [2.0, 2.0]


def test_inplace_saves_the_original_self():
    x = torch.ones(2, requires_grad=True)
    a = x * 3
    w = torch.full((2,), 2.0, requires_grad=True)
    a.mul_(w)
    assert a.grad_fn._saved_self.grad_fn.name() == "CloneBackward0"
    a.sum().backward()
    assert w.grad.tolist() == [3.0, 3.0]
    assert x.grad.tolist() == [6.0, 6.0]


@pytest.mark.parametrize("name", ["exp_", "sin_", "tanh_", "sigmoid_", "sqrt_", "relu_"])
def test_unary_inplace_gradient_matches_out_of_place(name):
    x = torch.tensor([0.5, 1.5], requires_grad=True)
    getattr(x * 1, name)().sum().backward()
    expected = x.grad.clone()
    x.grad = None
    getattr(torch, name[:-1])(x * 1).sum().backward()
    assert x.grad.tolist() == pytest.approx(expected.tolist())


def test_saved_result_follows_later_writes():
    x = torch.ones(2, requires_grad=True)
    b = (x * 1).exp_()
    b.mul_(2)
    with pytest.raises(RuntimeError, match="which is output 0 of Exp, is at version 2; "
                       "expected version 1 instead"):
        b.sum().backward()


def test_leaf_errors():
    leaf = torch.ones(2, 3, requires_grad=True)
    with pytest.raises(RuntimeError, match="^a leaf Variable that requires grad is being "
                       "used in an in-place operation.$"):
        leaf.add_(1)
    with pytest.raises(RuntimeError, match="^a view of a leaf Variable that requires grad"):
        leaf[0].add_(1)
    with torch.no_grad():
        leaf.add_(1)
    assert leaf._version == 1 and leaf.is_leaf and leaf.grad_fn is None


def test_view_made_in_no_grad_and_multi_output_views():
    y = torch.ones(2, 3, requires_grad=True).clone()
    with torch.no_grad():
        r = y[0]
    with pytest.raises(RuntimeError, match="^A view was created in no_grad mode and is being "
                       "modified inplace with grad mode enabled. Given that"):
        r.mul_(2)
    p, _ = y.unbind(0)
    with pytest.raises(RuntimeError, match="^Output 0 of Unbind is a view and is being "
                       "modified inplace. This view is the output of a function that"):
        p.mul_(2)


def test_nograd_inplace_is_not_recorded_but_bumps():
    a = torch.ones(2, requires_grad=True)
    b = a * 2
    with torch.no_grad():
        b.add_(1)
    assert b.grad_fn.name() == "MulBackward0" and b._version == 1
    b.sum().backward()
    assert a.grad.tolist() == [2.0, 2.0]


def test_out_arguments():
    x = torch.ones(2, requires_grad=True)
    with pytest.raises(RuntimeError, match=r"^mul\(\): functions with out=\.\.\. arguments "
                       "don't support automatic differentiation, but one of the arguments "
                       "requires grad.$"):
        torch.mul(x, 2, out=torch.zeros(2))
    out = torch.zeros(2)
    with torch.no_grad():
        assert torch.mul(x, 3, out=out) is out
    assert out.tolist() == [3.0, 3.0] and out._version == 1


def test_an_out_of_another_shape_is_resized_with_a_warning_unless_it_was_empty():
    resized = ("An output with one or more elements was resized since it had shape [5], which "
               "does not match the required output shape [2, 3]. This behavior is deprecated")

    def warnings_of(write):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            write()
        assert all(w.category is UserWarning and w.filename == __file__ for w in caught)
        return [str(w.message)[:len(resized)] for w in caught]

    out = torch.full((5,), 7.0)
    assert warnings_of(lambda: torch.add(torch.ones(2, 3), 1, out=out)) == [resized]
    assert out.shape == (2, 3) and out.tolist() == [[2.0] * 3] * 2 and out._version == 1
    empty = torch.empty(0, dtype=torch.bool)
    assert warnings_of(lambda: torch.lt(torch.ones(2, 3), 2, out=empty)) == []  # silently
    # An out of another dtype is resized twice over, and says so twice.
    wider = torch.full((5,), 7, dtype=torch.float64)
    assert warnings_of(lambda: torch.sin(torch.ones(2, 3), out=wider)) == [resized] * 2
    assert wider.shape == (2, 3) and wider.dtype == torch.float64


def test_an_out_that_cannot_hold_the_result_is_refused_before_it_is_resized():
    out = torch.zeros(5, dtype=torch.long)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no resize warning either
        with raises(RuntimeError, "result type Float can't be cast to the desired output "
                                  "type Long"):
            torch.add(torch.ones(2, 3), 1, out=out)
    assert out.shape == (5,) and out._version == 0


@pytest.mark.parametrize("write", [lambda o: torch.neg(torch.ones(2, 3), out=o),
                                   lambda o: torch.abs(torch.ones(2, 3), out=o),
                                   lambda o: torch.clamp(torch.ones(2, 3), 0, 1, out=o),
                                   lambda o: torch.clamp_min(torch.ones(2, 3), 0.5, out=o),
                                   lambda o: torch.clamp_max(torch.ones(2, 3), 0.5, out=o)])
@pytest.mark.parametrize("dtype, name", [(torch.float64, "Double"), (torch.int64, "Long"),
                                         (torch.float16, "Half"), (torch.bool, "Bool")])
def test_neg_abs_and_the_clamps_write_only_into_an_out_of_their_dtype(write, dtype, name):
    for shape in ((2, 3), (5,)):
        out = torch.zeros(shape, dtype=dtype)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            with raises(RuntimeError, f"Found dtype {name} but expected Float"):
                write(out)
        assert out.shape == shape and out._version == 0


def test_fit_errors():
    with pytest.raises(RuntimeError, match="^result type Float can't be cast to the desired "
                       "output type Long$"):
        torch.ones(2, dtype=torch.long).add_(1.5)
    with pytest.raises(RuntimeError, match=r"^output with shape \[2\] doesn't match the "
                       r"broadcast shape \[2, 2\]$"):
        torch.ones(2).add_(torch.ones(2, 2))


# F153
def test_inference_tensor_is_written_then_refused():
    with torch.inference_mode():
        t = torch.ones(2)
    with pytest.raises(RuntimeError, match="^Inplace update to inference tensor outside "
                       "InferenceMode is not allowed.You can make a clone"):
        t.add_(1)
    assert t.tolist() == [2.0, 2.0]


def test_node_names_of_writes():
    x = torch.ones(2, 3, requires_grad=True)
    y = x.clone()
    y.copy_(torch.ones(3))
    assert y.grad_fn.name() == "torch::autograd::CopyBackwards"
    assert type(y.grad_fn).__name__ == "CopyBackwards"
    assert y.zero_().grad_fn.name() == "ZeroBackward0"
    assert y.fill_(2).grad_fn.name() == "FillBackward2"
    y = x.clone()
    y[torch.tensor([0])] = 5
    assert y.grad_fn.name() == "IndexPutBackward0"
    y = x.clone()
    y[:] = 5
    assert y.grad_fn.name() == "FillBackward3"


@pytest.mark.parametrize(
    ("write", "packed"),
    [
        (lambda b, c: b.sin_(), ["clone"]),
        (lambda b, c: b.exp_(), ["b"]),
        (lambda b, c: b.relu_(), ["b"]),
        (lambda b, c: b.mul_(c), ["c", "clone"]),
        (lambda b, c: b.mul_(b), ["b", "clone"]),
        (lambda b, c: b.pow_(c), ["c", "clone", "b"]),
        (lambda b, c: b.add_(c), []),
    ],
)
def test_what_an_in_place_op_packs(write, packed):
    # The node of an in-place op keeps a clone of self from before the write,
    # the other operands, or self itself as the result; pack hooks see just those.
    a = torch.tensor([1.5, 0.5], requires_grad=True)
    c = torch.tensor([2.0, 3.0], requires_grad=True)
    b = a * 1
    seen = []

    def pack(t):
        if t is b or t is c:
            seen.append("b" if t is b else "c")
        else:
            seen.append("clone" if t.grad_fn.name() == "CloneBackward0" else t.grad_fn.name())
        return t

    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        write(b, c)
    assert seen == packed


def test_an_operand_that_is_self_is_checked_at_backward():
    a = torch.tensor([1.5, 0.5], requires_grad=True)
    b = a * 1
    b.mul_(b)
    with pytest.raises(RuntimeError, match="which is output 0 of Mul, is at version 1; expected "
                       "version 0 instead"):
        b.sum().backward()


def test_masked_fill_and_index_put_in_place():
    base = torch.zeros(3, requires_grad=True)
    x = base.clone()
    assert x.masked_fill_(torch.tensor([True, False, True]), 2.0) is x
    assert x.grad_fn.name() == "MaskedFillBackward0" and x.tolist() == [2.0, 0.0, 2.0]
    assert x.index_put_((torch.tensor([1, 1]),), torch.tensor(3.0), accumulate=True) is x
    assert x.grad_fn.name() == "IndexPutBackward0" and x.tolist() == [2.0, 6.0, 2.0]
    x.sum().backward()
    assert base.grad.tolist() == [0.0, 1.0, 0.0]


@pytest.mark.parametrize(("value", "name"), [
    ([5.0, 6.0], "list"), ((5.0, 6.0), "tuple"), ("a", "str"), (None, "NoneType"),
    (np.array([5.0, 6.0]), "numpy.ndarray"), (np.float32(1.0), "numpy.float32"),
    (np.bool_(True), "numpy.bool"),
])
def test_only_tensors_and_numbers_can_be_assigned(value, name):
    x = torch.zeros(3)
    with raises(TypeError, f"can't assign a {name} to a torch.FloatTensor"):
        x[0:2] = value
    with raises(TypeError, f"can't assign a {name} to a torch.FloatTensor"):
        x[torch.tensor([0, 2])] = value
    assert x.tolist() == [0.0, 0.0, 0.0]
    x[0:2] = np.int64(3)
    x[2] = np.float64(1.5)
    assert x.tolist() == [3.0, 3.0, 1.5]


def test_index_put_wants_tensors_of_the_same_dtype():
    x = torch.zeros(3)
    index = torch.tensor([0])
    with raises(RuntimeError, "Index put requires the source and destination dtypes match, "
                              "got Float for the destination and Long for the source."):
        x.index_put_((index,), torch.tensor([1]))
    with raises(RuntimeError, "Index put requires the source and destination dtypes match, "
                              "got Float for the destination and Double for the source."):
        x[index] = torch.tensor([1.0], dtype=torch.float64)
    with raises(TypeError, "index_put_(): argument 'values' (position 2) must be Tensor, "
                           "not float"):
        x.index_put_((index,), 1.0)
    with raises(TypeError, "expected Tensor as element 0 in argument 0, but got NoneType"):
        x.index_put_((None,), torch.tensor(1.0))
    x[0:1] = torch.tensor([2], dtype=torch.float64)  # a slice copies, and copy_ converts
    x[1] = torch.tensor(3)
    assert x.tolist() == [2.0, 3.0, 0.0]


def test_assignment_names_the_refused_type_as_torch_does():
    import decimal
    import fractions

    class Custom:
        pass

    x = torch.zeros(2)
    for value, name in [(fractions.Fraction(1, 2), "Fraction"), (Custom(), "Custom"),
                        (decimal.Decimal(1), "decimal.Decimal")]:
        with raises(TypeError, f"can't assign a {name} to a torch.FloatTensor"):
            x[0] = value
    with raises(TypeError, "'numpy.timedelta64' object cannot be interpreted as an integer"):
        x[0] = np.timedelta64(1)


def test_writes_through_an_expanded_tensor_are_refused_only_where_elements_share_memory():
    x = torch.ones(3)
    e = x.expand(2, 3)
    e[0].add_(1)  # one row of the expansion: every element has its own memory
    assert x.tolist() == [2.0, 2.0, 2.0] and x._version == 1
    e[1] = 5.0
    assert x.tolist() == [5.0, 5.0, 5.0]
    message = ("unsupported operation: more than one element of the written-to tensor refers to "
               "a single memory location. Please clone() the tensor before performing the "
               "operation.")
    for write in (lambda: e.add_(1), lambda: e[:, 0].mul_(2), lambda: e.copy_(torch.zeros(2, 3)),
                  lambda: e.fill_(torch.tensor(4.0))):
        with raises(RuntimeError, message):
            write()
    assert x.tolist() == [5.0, 5.0, 5.0]
    same = x.expand(3)  # nothing stretched: an ordinary view
    same.add_(1)
    assert x.tolist() == [6.0, 6.0, 6.0]


def test_one_value_may_be_written_where_elements_share_memory():
    x = torch.ones(3)
    e = x.expand(2, 3)
    e[:, 1].fill_(0)
    assert x.tolist() == [1.0, 0.0, 1.0]
    e.fill_(3)
    assert x.tolist() == [3.0, 3.0, 3.0]
    e.zero_()
    assert x.tolist() == [0.0, 0.0, 0.0] and x._version == 3


def _warnings_of(write) -> list:
    """The warnings ``write()`` raises, each message up to torch's "(Triggered internally" note."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        write()
    return [(w.category, str(w.message).split(" (Triggered internally")[0]) for w in caught]


SHARED = ("Use of {}_ on expanded tensors is deprecated. Please clone() the tensor before "
          "performing this operation. This also applies to advanced indexing e.g. {}")
MASKED = (UserWarning, SHARED.format("masked_fill", "tensor[mask] = scalar"))
INDEXED = (UserWarning, SHARED.format("index_put", "tensor[indices] = tensor"))


def test_masked_and_indexed_writes_where_elements_share_memory_warn_and_write_the_picked():
    x = torch.zeros(3)
    e = x.expand(2, 3)
    row = torch.tensor([[True, False, False], [False, False, False]])
    assert _warnings_of(lambda: e.masked_fill_(row, 1.0)) == [MASKED]
    assert x.tolist() == [1.0, 0.0, 0.0] and x._version == 1  # unpicked aliases left alone
    assert _warnings_of(lambda: e.masked_fill_(torch.tensor([False, False, True]),
                                               torch.tensor(2.0))) == [MASKED]
    assert x.tolist() == [1.0, 0.0, 2.0]
    pick = (torch.tensor([0, 1]), torch.tensor([1, 1]))
    assert _warnings_of(lambda: e.index_put_(pick, torch.tensor(5.0), accumulate=True)) == [
        INDEXED]
    assert x.tolist() == [1.0, 10.0, 2.0]  # both picks add into the one shared element


def test_index_fill_where_elements_share_memory_warns_and_fills_the_picked_slabs():
    filled = (UserWarning, SHARED.format("index_fill", "tensor[mask] = scalar"))
    x = torch.zeros(3, 1)
    e = x.expand(3, 2)
    assert _warnings_of(lambda: e.index_fill_(0, torch.tensor([1]), 5.0)) == [filled]
    assert x.tolist() == [[0.0], [5.0], [0.0]] and x._version == 1
    assert _warnings_of(lambda: e.index_fill_(1, torch.tensor([1]), torch.tensor(2.0))) == [
        filled]
    assert x.tolist() == [[2.0], [2.0], [2.0]]  # each row's one element is shared


def test_assignment_through_a_mask_warns_twice_where_elements_share_memory():
    x = torch.zeros(3)
    e = x.expand(2, 3)

    def assign(index, value):
        e[index] = value

    column = torch.tensor([True, False, False])
    assert _warnings_of(lambda: assign((slice(None), column), 3.0)) == [INDEXED, MASKED]
    assert x.tolist() == [3.0, 0.0, 0.0]
    assert _warnings_of(lambda: assign(torch.tensor([1]), torch.ones(3))) == [INDEXED]
    assert x.tolist() == [1.0, 1.0, 1.0] and x._version == 2



@pytest.mark.parametrize(("dtype", "name", "through_double"), [
    ("float16", "c10::Half", "double"), ("float32", "float", "float"),
    ("float64", "double", "double"), ("int8", "int8_t", "int8_t"), ("int32", "int", "int"),
    ("int64", "int64_t", "int64_t"), ("uint8", "uint8_t", "uint8_t"),
])
def test_a_complex_number_written_into_a_real_tensor(dtype, name, through_double):
    kind = getattr(torch, dtype)
    t = torch.zeros(2, dtype=kind)
    message = "value cannot be converted to type {} without overflow"
    with raises(RuntimeError, message.format(name)):
        t.fill_(1j)
    with raises(RuntimeError, message.format(name)):
        t.masked_fill_(torch.tensor([True, False]), 2 + 1j)
    with raises(RuntimeError, message.format(through_double)):
        t[0] = 2j
    with raises(RuntimeError, message.format(through_double)):
        torch.full((1,), 1j, dtype=kind)
    assert t.tolist() == [0, 0] and t._version == 0
    t.fill_(3 + 0j)  # no imaginary part: the real part is written
    t[1] = 4 + 0j
    assert t.tolist() == [3, 4]
    flags = torch.zeros(2, dtype=torch.bool)
    flags.fill_(1j)  # bool takes the number's truth
    assert flags.tolist() == [True, True]


def test_more_in_place_forms_write_what_their_functions_return():
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    for name, args in (("cumsum", (0,)), ("reciprocal", ()), ("rsqrt", ()), ("tan", ()),
                       ("sign", ())):
        y = x.clone()
        assert getattr(y, name + "_")(*args) is y and y._version == 1
        assert y.tolist() == getattr(x, name)(*args).tolist()
        assert type(y.grad_fn).__name__ == type(getattr(x, name)(*args).grad_fn).__name__
    integers = torch.tensor([1, 2])
    with raises(RuntimeError, "result type Float can't be cast to the desired output type Long"):
        integers.rsqrt_()
    assert integers.cumsum_(0).tolist() == [1, 3]


@pytest.mark.parametrize(("name", "expected"), [
    ("eq", [0.0, 1.0, 0.0]), ("ne", [1.0, 0.0, 1.0]), ("lt", [1.0, 0.0, 0.0]),
    ("le", [1.0, 1.0, 0.0]), ("gt", [0.0, 0.0, 1.0]), ("ge", [0.0, 1.0, 1.0]),
])
def test_comparisons_in_place_write_ones_and_zeros_and_record_a_zero_gradient(name, expected):
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x.clone()
    assert getattr(y, name + "_")(2.0) is y and y.tolist() == expected
    assert y.dtype == torch.float32 and y._version == 1
    node = y.grad_fn
    assert type(node).__name__ == name.capitalize() + "Backward0"
    assert not [a for a in dir(node) if a.startswith("_saved")]
    other = torch.tensor([2.0], requires_grad=True)
    z = x.clone()
    getattr(z, name + "_")(other)
    assert type(z.grad_fn).__name__ == name.capitalize() + "Backward1" and z.tolist() == expected
    (z * torch.tensor([float("inf"), 1.0, 2.0])).sum().backward()
    assert x.grad.tolist() == [0.0, 0.0, 0.0] and other.grad.tolist() == [0.0]


def test_comparisons_in_place_compare_promoted_and_keep_the_dtype():
    integers = torch.tensor([1, 2, 3])
    assert integers.lt_(2.5).tolist() == [1, 1, 0] and integers.dtype == torch.int64
    floats = torch.tensor([1.0, 2.0])
    assert floats.eq_(torch.tensor([1, 5])).tolist() == [1.0, 0.0]
    with raises(RuntimeError, "a leaf Variable that requires grad is being used in an in-place "
                              "operation."):
        torch.tensor([1.0], requires_grad=True).eq_(1.0)
    with raises(RuntimeError, "output with shape [2] doesn't match the broadcast shape [2, 2]"):
        torch.tensor([1.0, 2.0]).eq_(torch.ones(2, 2))


def retained_after_writes(write, loss):
    a = torch.arange(4.0, requires_grad=True)
    b = a * 1
    v = b[1:3]
    retained = write(b, v)
    loss(b, v).backward()
    return retained.grad.tolist(), a.grad.tolist()


def test_a_retained_grad_follows_the_tensor_to_its_new_grad_fn():
    def write(b, v):
        b.retain_grad()
        b.mul_(2)
        b.add_(1)
        return b

    assert retained_after_writes(write, lambda b, v: (b * b).sum()) == (
        [2.0, 6.0, 10.0, 14.0], [4.0, 12.0, 20.0, 28.0])


def test_a_retained_grad_follows_a_base_written_through_a_view():
    def write(b, v):
        b.retain_grad()
        v.mul_(2)
        return b

    assert retained_after_writes(write, lambda b, v: b.sum()) == (
        [1.0] * 4, [1.0, 2.0, 2.0, 1.0])


def test_a_retained_grad_follows_a_view_written_in_place():
    def write(b, v):
        v.mul_(2)
        v.retain_grad()
        v.mul_(5)
        return v

    assert retained_after_writes(write, lambda b, v: v.sum() + b.sum()) == (
        [1.0, 1.0], [1.0, 20.0, 20.0, 1.0])


@pytest.mark.parametrize("write", [lambda v, t: v.copy_(t), lambda v, t: v.add_(1),
                                   lambda v, t: v.mul_(t)])
def test_a_write_through_a_view_is_backward_once_unless_the_graph_is_retained(write):
    twice = ("Trying to backward through the graph a second time (or directly access saved "
             "tensors after they have already been freed). Saved intermediate values of the "
             "graph are freed when you call .backward() or autograd.grad(). Specify "
             "retain_graph=True if you need to backward through the graph a second time or if "
             "you need to access saved tensors after calling backward.")
    a = torch.ones(3, requires_grad=True)
    t = torch.full((1,), 2.0, requires_grad=True)
    b = a.clone()
    write(b[:1], t)
    b.sum().backward(retain_graph=True)
    b.sum().backward()  # the graph was kept for this one
    with raises(RuntimeError, twice):
        b.sum().backward()


@pytest.mark.parametrize("make", [
    lambda a: a.max(0), lambda a: a.sort(), lambda a: a.topk(2), lambda a: a.cummax(0),
    lambda a: a.min(0), lambda a: a.kthvalue(2),
])
def test_written_indices_an_op_saved_name_no_node(make):
    a = torch.tensor([3.0, 1.0, 2.0], requires_grad=True)
    values, indices = make(a)
    indices.add_(0)
    with pytest.raises(RuntimeError) as refused:
        values.sum().backward()
    message = str(refused.value)
    kind = f"[torch.LongTensor {list(indices.shape)}]"
    assert f"{kind} is at version 1; expected version 0" in message
    assert "which is output" not in message
