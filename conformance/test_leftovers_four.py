"""Black-box tests: differences left by earlier rounds: what a running sum of nothing
writes into a bool out, and index_select's out dtype checked before its indices' values.
The same assertions run on torch.
"""

import pytest
import torch

from conformance._support import raises

SAME = "index_select(): self and result must have the same scalar type"


@pytest.mark.parametrize("name", ["cumsum", "cumprod"])
@pytest.mark.parametrize("shape", [(0,), (0, 3), (2, 0)])
def test_an_empty_running_op_writes_a_bool_out(name, shape):
    out = torch.ones(shape, dtype=torch.bool)
    result = getattr(torch, name)(torch.zeros(shape), -1, out=out)
    assert result is out
    assert out.dtype == torch.bool and out.shape == shape


@pytest.mark.parametrize("name", ["cumsum", "cumprod"])
def test_a_0d_running_op_copies_into_a_bool_out(name):
    out = torch.tensor(False)
    getattr(torch, name)(torch.tensor(2.0), 0, out=out)
    assert out.item() is True
    assert out.dtype == torch.bool


def test_an_empty_bool_input_runs_into_a_bool_out():
    out = torch.zeros(0, dtype=torch.bool)
    torch.cumsum(torch.zeros(0, dtype=torch.bool), 0, out=out)
    assert out.shape == (0,)


@pytest.mark.parametrize("name", ["cumsum", "cumprod"])
def test_a_running_op_with_elements_still_refuses_a_bool_out(name):
    out = torch.zeros(2, dtype=torch.bool)
    with raises(NotImplementedError, f"\"{name}_out_cpu\" not implemented for 'Bool'"):
        getattr(torch, name)(torch.ones(2), 0, out=out)
    assert out.tolist() == [False, False]


def test_an_empty_running_op_still_checks_its_dimension_and_given_dtype():
    out = torch.zeros(0, dtype=torch.bool)
    with raises(IndexError, "Dimension out of range (expected to be in range of [-1, 0], "
                            "but got 5)"):
        torch.cumsum(torch.zeros(0), 5, out=out)
    with raises(RuntimeError, "Expected out tensor to have dtype double, but got bool instead"):
        torch.cumsum(torch.zeros(0), 0, dtype=torch.float64, out=out)


@pytest.mark.parametrize("input, dim, index", [
    ((0, 3), 0, [0]),  # an empty dimension no index fits
    ((2, 3), 0, [5]),  # an index out of range
    ((4,), 0, [7]),
    ((2, 3), 1, [7]),
    ((0, 3), 0, []),
    ((2, 3), 0, [0]),
])
def test_index_select_refuses_the_out_dtype_before_the_index_values(input, dim, index):
    out = torch.zeros(1, 3, dtype=torch.int64)
    with raises(RuntimeError, SAME):
        torch.index_select(torch.zeros(input), dim, torch.tensor(index, dtype=torch.int64),
                           out=out)
    assert out.tolist() == [[0, 0, 0]]


def test_index_select_checks_its_arguments_before_the_out_dtype():
    out = torch.zeros(1, 3, dtype=torch.int64)
    with raises(RuntimeError, "index_select(): Expected dtype int32 or int64 for index"):
        torch.index_select(torch.zeros(0, 3), 0, torch.tensor([0.0]), out=out)
    with raises(IndexError, "index_select(): Index is supposed to be a vector"):
        torch.index_select(torch.zeros(0, 3), 0, torch.tensor([[0]]), out=out)
    with raises(IndexError, "Dimension out of range (expected to be in range of [-2, 1], "
                            "but got 2)"):
        torch.index_select(torch.zeros(0, 3), 2, torch.tensor([0]), out=out)
    with raises(RuntimeError, "index_select(): Index to scalar can have only 1 value, got 2 "
                              "value(s)"):
        torch.index_select(torch.tensor(1.0), 0, torch.tensor([0, 1]), out=out)


def test_index_select_with_an_out_of_its_dtype_still_refuses_the_values():
    with raises(RuntimeError, "index_select(): self indexing axis dim should be positive"):
        torch.index_select(torch.zeros(0, 3), 0, torch.tensor([0]), out=torch.zeros(1, 3))
    with raises(IndexError, "index out of range in self"):
        torch.index_select(torch.zeros(4), 0, torch.tensor([7]), out=torch.zeros(1))


class Logged(torch.Tensor):
    log = []

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        cls.log.append((func.__name__, [t.__name__ for t in types], len(args),
                        list(kwargs) if kwargs else kwargs))
        return super().__torch_function__(func, types, args, kwargs or {})


class Other(Logged):
    log = []


HANDED = ["training", "key_padding_mask", "need_weights", "attn_mask", "is_causal",
          "use_separate_proj_weight", "q_proj_weight", "k_proj_weight", "v_proj_weight",
          "static_k", "static_v", "average_attn_weights"]
INSIDE = ["dim", "__get__", "__get__", "is_floating_point", "dim", "__get__", "unsqueeze",
          "baddbmm", "softmax", "bmm", "transpose", "reshape", "linear", "size", "view",
          "view", "mean"]


def _inputs():
    return torch.linspace(-1.0, 1.0, 24).reshape(3, 2, 4)


@pytest.mark.parametrize("training", [True, False])
def test_a_subclass_mask_alone_meets_the_operations_inside_attention(training):
    torch.manual_seed(0)
    mha = torch.nn.MultiheadAttention(4, 2).train(training)
    y, mask = _inputs(), torch.zeros(3, 3).as_subclass(Logged)
    Logged.log.clear()
    with torch.no_grad():
        out, weights = mha(y, y, y, attn_mask=mask)
    names = [name for name, *_ in Logged.log]
    assert names == ["is_floating_point", "__get__", "__get__", "is_floating_point", *INSIDE]
    assert type(out) is Logged and type(weights) is Logged and weights.shape == (2, 3, 3)


def test_a_subclass_padding_mask_alone_is_not_asked_for_the_function():
    y, w = _inputs(), torch.ones(12, 4)
    padding = torch.zeros(2, 3, dtype=torch.bool).as_subclass(Logged)
    Logged.log.clear()
    out, _ = torch.nn.functional.multi_head_attention_forward(
        y, y, y, 4, 2, w, None, None, None, False, 0.0, torch.ones(4, 4), None,
        key_padding_mask=padding)
    names = [name for name, *_ in Logged.log]
    assert "multi_head_attention_forward" not in names
    assert names[:5] == ["dim", "__get__", "is_floating_point", "zeros_like", "masked_fill_"]
    assert type(out) is Logged


def test_attention_offers_itself_for_its_inputs_and_weights_with_torchs_arguments():
    y, w = _inputs(), torch.ones(12, 4)
    mask = torch.zeros(3, 3).as_subclass(Other)
    Logged.log.clear()
    Other.log.clear()
    out, _ = torch.nn.functional.multi_head_attention_forward(
        y, y, y, 4, 2, w.as_subclass(Logged), None, None, None, False, 0.0, torch.ones(4, 4),
        None, attn_mask=mask)
    # the mask is not asked; the plain query, key and value name Tensor among the types
    assert Logged.log == [("multi_head_attention_forward", ["Logged", "Tensor"], 13, HANDED)]
    assert type(out) is Logged


def test_a_list_handed_over_names_tensor_after_the_subclasses():
    from torch.overrides import handle_torch_function, has_torch_function

    class Refusing(torch.Tensor):
        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):
            return NotImplemented

    def f(a, b):
        if has_torch_function((a, b)):
            return handle_torch_function(f, (a, b), a, b)
        return a

    with pytest.raises(TypeError) as caught:
        f(torch.ones(1), torch.ones(1).as_subclass(Refusing))
    assert caught.value.args[0].endswith(f"{[Refusing, torch.Tensor]}")
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = (x * 2).as_subclass(Logged)
    Logged.log.clear()
    torch.autograd.grad(y.sum(), x)
    assert Logged.log[-1][:2] == ("grad", ["Logged", "Tensor"])


class Refuses(torch.Tensor):
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        return NotImplemented


class Keywords(torch.Tensor):
    seen = []

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        cls.seen.append(kwargs)
        return super().__torch_function__(func, types, args, kwargs or {})


C_FUNCTIONS = [
    ("linear", "torch.nn.linear", lambda F, x: F.linear(x, torch.ones(4, 3))),
    ("gelu", "torch.nn.gelu", lambda F, x: F.gelu(x)),
    ("softplus", "torch.nn.softplus", lambda F, x: F.softplus(x)),
    ("logsigmoid", "torch.nn.log_sigmoid", lambda F, x: F.logsigmoid(x)),
    ("hardshrink", "torch.hardshrink", lambda F, x: F.hardshrink(x)),
    ("bilinear", "torch.bilinear", lambda F, x: F.bilinear(x, x, torch.ones(1, 3, 3))),
    ("pdist", "torch.pdist", lambda F, x: F.pdist(x)),
]


@pytest.mark.parametrize("name, torch_name, call", C_FUNCTIONS)
def test_a_functional_function_torch_binds_from_c_hands_none_and_names_itself(
        name, torch_name, call):
    import torch.nn.functional as F

    Keywords.seen.clear()
    call(F, torch.ones(2, 3).as_subclass(Keywords))
    assert Keywords.seen[0] is None
    message = (f"Multiple dispatch failed for '{torch_name}'; all __torch_function__ handlers "
               f"returned NotImplemented:\n\n  - tensor subclass {Refuses!r}\n\nFor more "
               "information, try re-running with TORCH_LOGS=not_implemented")
    with raises(TypeError, message):
        call(F, torch.ones(2, 3).as_subclass(Refuses))


def test_a_c_function_hands_the_keywords_it_was_given():
    import torch.nn.functional as F

    Keywords.seen.clear()
    F.gelu(torch.ones(2).as_subclass(Keywords), approximate="tanh")
    assert Keywords.seen[0] == {"approximate": "tanh"}


def test_duplicate_parameters_warn_in_torchs_category_and_words():
    p = torch.nn.Parameter(torch.ones(2))
    with pytest.warns(UserWarning) as caught:
        torch.optim.SGD([p, p], lr=0.1)
    assert [str(w.message) for w in caught] == [
        "optimizer contains a parameter group with duplicate parameters; in future, this "
        "will cause an error; see github.com/pytorch/pytorch/issues/40967 for more "
        "information"]
