"""Black-box tests: torch's memory formats, the layouts they give new tensors and copies, and
the questions they answer. The same assertions run on torch.
"""

import copy
import pickle

import pytest
import torch

from conformance._support import raises

FORMATS = ["contiguous_format", "preserve_format", "channels_last", "channels_last_3d"]
CL = (60, 1, 15, 3)  # channels_last strides of a (2, 3, 4, 5) tensor
ROWS = (60, 20, 5, 1)


def test_four_formats_of_one_type():
    for name in FORMATS:
        fmt = getattr(torch, name)
        assert type(fmt) is torch.memory_format
        assert repr(fmt) == str(fmt) == f"torch.{name}"
        assert copy.deepcopy(fmt) is fmt and pickle.loads(pickle.dumps(fmt)) is fmt
        assert {fmt: 1}[fmt] == 1
    assert torch.channels_last != torch.contiguous_format
    with raises(TypeError, "cannot create 'torch.memory_format' instances"):
        torch.memory_format()


def test_new_tensors_in_each_format():
    assert torch.empty(2, 3, 4, 5, memory_format=torch.channels_last).stride() == CL
    assert torch.empty((2, 3, 4, 5), memory_format=torch.contiguous_format).stride() == ROWS
    made = torch.empty(size=(2, 3, 4, 5, 6), memory_format=torch.channels_last_3d,
                       requires_grad=True)
    assert made.stride() == (360, 1, 90, 18, 3) and made.requires_grad
    assert torch.empty(2, 3, 0, 5, memory_format=torch.channels_last).stride() == (0, 1, 15, 3)
    assert torch.empty(0, 3, 4, 5, memory_format=torch.channels_last).stride() == CL
    assert torch.empty(2, memory_format=None).stride() == (1,)


def test_empty_refuses_what_it_cannot_make():
    with raises(RuntimeError, "unsupported memory format Preserve"):
        torch.empty(2, 3, memory_format=torch.preserve_format)
    with raises(RuntimeError, "required rank 4 tensor to use channels_last format"):
        torch.empty(2, 3, memory_format=torch.channels_last)
    with raises(RuntimeError, "required rank 5 tensor to use channels_last_3d format"):
        torch.empty(2, 3, 4, 5, memory_format=torch.channels_last_3d)
    with raises(TypeError, "empty(): argument 'memory_format' must be torch.memory_format, "
                "not int"):
        torch.empty(2, memory_format=1)


@pytest.mark.parametrize("shape, strides, expected", [
    ((2, 3, 4, 5), ROWS, False),
    ((2, 3, 4, 5), CL, True),
    ((2, 1, 4, 5), (20, 20, 5, 1), True),  # one channel: both layouts at once
    ((2, 3, 1, 1), (3, 1, 1, 1), True),  # one pixel: likewise
    ((0, 3, 4, 5), ROWS, False),  # no elements, but strides that say otherwise
    ((2, 3, 4, 5), (120, 1, 30, 6), False),  # a gap
])
def test_is_contiguous_in_channels_last(shape, strides, expected):
    x = torch.empty_strided(shape, strides)
    assert x.is_contiguous(memory_format=torch.channels_last) is expected
    assert x.is_contiguous(memory_format=torch.channels_last_3d) is False  # not rank 5


def test_is_contiguous_asks_row_major_for_the_other_formats():
    x = torch.zeros(2, 3, 4, 5).contiguous(memory_format=torch.channels_last)
    assert not x.is_contiguous() and not x.is_contiguous(memory_format=torch.preserve_format)
    assert torch.zeros(3, 4).is_contiguous(memory_format=torch.preserve_format)
    assert not torch.zeros(3, 4).is_contiguous(memory_format=torch.channels_last)
    v = torch.zeros(2, 3, 4, 5, 6).contiguous(memory_format=torch.channels_last_3d)
    assert v.is_contiguous(memory_format=torch.channels_last_3d) and not v.is_contiguous()


@pytest.mark.parametrize("call, name, kind", [
    (lambda x: x.is_contiguous(memory_format=None), "is_contiguous", "NoneType"),
    (lambda x: x.contiguous(memory_format=None), "contiguous", "NoneType"),
    (lambda x: x.contiguous(memory_format="a"), "contiguous", "str"),
    (lambda x: x.clone(memory_format=1), "clone", "int"),
    (lambda x: torch.clone(x, memory_format=1), "clone", "int"),
    (lambda x: torch.empty_like(x, memory_format=1), "empty_like", "int"),
    (lambda x: torch.zeros_like(x, memory_format=torch.float32), "zeros_like", "torch.dtype"),
    (lambda x: torch.full_like(x, 3, memory_format=1), "full_like", "int"),
    (lambda x: x.float(memory_format=1), "float", "int"),
    (lambda x: x.cpu(memory_format=1), "cpu", "int"),
    (lambda x: x.contiguous(memory_format=torch.strided), "contiguous", "torch.layout"),
])
def test_a_memory_format_of_the_wrong_type(call, name, kind):
    x = torch.ones(2, 3, 4, 5)
    with raises(TypeError, f"{name}(): argument 'memory_format' must be torch.memory_format, "
                f"not {kind}"):
        call(x)


def test_a_memory_format_where_something_else_belongs_is_named_as_torch_names_it():
    x = torch.ones(2, 3, 4, 5)
    with raises(TypeError, "zeros_like(): argument 'dtype' must be torch.dtype, not "
                "torch.memory_format"):
        torch.zeros_like(x, dtype=torch.channels_last)
    with raises(TypeError, "transpose(): argument 'dim0' (position 1) must be int, not "
                "torch.memory_format"):
        x.transpose(torch.channels_last, 0)


def test_the_methods_take_the_format_by_keyword_only():
    x = torch.ones(2, 3, 4, 5)
    for name in ("is_contiguous", "contiguous", "clone"):
        with raises(TypeError, f"{name}() takes 0 positional arguments but 1 was given"):
            getattr(x, name)(torch.channels_last)


def test_contiguous_returns_the_tensor_when_it_has_the_layout():
    x = torch.randn(2, 3, 4, 5, requires_grad=True)
    assert x.contiguous(memory_format=torch.preserve_format) is x
    made = x.contiguous(memory_format=torch.channels_last)
    assert made.stride() == CL and type(made.grad_fn).__name__ == "CloneBackward0"
    assert torch.equal(made, x)
    assert made.contiguous(memory_format=torch.channels_last) is made
    back = made.contiguous()
    assert back.stride() == ROWS and type(back.grad_fn).__name__ == "CloneBackward0"
    one_channel = torch.ones(2, 1, 4, 5)
    assert one_channel.contiguous(memory_format=torch.channels_last) is one_channel


def test_contiguous_refuses_preserve_for_a_tensor_not_row_major():
    x = torch.zeros(3, 4).t()
    with raises(RuntimeError, "preserve memory format is unsupported by the contiguous "
                "operator"):
        x.contiguous(memory_format=torch.preserve_format)
    with raises(RuntimeError, "required rank 4 tensor to use channels_last format"):
        x.contiguous(memory_format=torch.channels_last)


def _inputs():
    return {
        "rows": torch.randn(2, 3, 4, 5),
        "channels_last": torch.randn(2, 3, 4, 5).contiguous(memory_format=torch.channels_last),
        "permuted": torch.randn(2, 4, 3, 5).permute(0, 2, 1, 3),
        "sliced": torch.randn(2, 3, 4, 10)[..., ::2],
        "sliced_channels_last": torch.randn(2, 4, 10, 3).permute(0, 3, 1, 2)[..., ::2],
        "sliced_permuted": torch.randn(2, 4, 3, 10).permute(0, 2, 1, 3)[..., ::2],
        "expanded": torch.randn(2, 3, 1, 1).expand(2, 3, 4, 5),
        "expanded_batch": torch.empty_strided((2, 3, 4, 5), (0, 1, 15, 3)).fill_(1.0),
    }


PRESERVED = {  # a dense input's own strides; else dense ones in the input's order
    "rows": ROWS, "channels_last": CL, "permuted": (60, 5, 15, 1), "sliced": ROWS,
    "sliced_channels_last": CL, "sliced_permuted": (60, 5, 15, 1), "expanded": ROWS,
    "expanded_batch": CL,
}


@pytest.mark.parametrize("name", list(PRESERVED))
def test_preserve_format_keeps_the_order_of_the_strides(name):
    x = _inputs()[name]
    for fmt in (None, torch.preserve_format):
        assert x.clone(memory_format=fmt).stride() == PRESERVED[name]
        assert torch.empty_like(x, memory_format=fmt).stride() == PRESERVED[name]
        assert torch.rand_like(x, memory_format=fmt).stride() == PRESERVED[name]
        assert x.to(torch.float64, memory_format=fmt).stride() == PRESERVED[name]
    assert x.double().stride() == PRESERVED[name]
    assert torch.equal(x.clone(), x) and torch.equal(x.double(), x.double().clone())


def test_a_tensor_without_elements_keeps_its_strides():
    x = torch.empty_strided((2, 3, 0, 5), (0, 1, 15, 3))
    assert x.clone().stride() == x.double().stride() == (0, 1, 15, 3)
    assert torch.zeros_like(x).stride() == (0, 1, 15, 3)


@pytest.mark.parametrize("name", list(PRESERVED))
def test_the_named_formats_lay_out_any_input_alike(name):
    x = _inputs()[name]
    for fmt, strides in ((torch.contiguous_format, ROWS), (torch.channels_last, CL)):
        for made in (x.clone(memory_format=fmt), x.to(torch.float64, memory_format=fmt),
                     torch.zeros_like(x, memory_format=fmt),
                     torch.full_like(x, 2, memory_format=fmt),
                     torch.randint_like(x, 5, memory_format=fmt),
                     torch.randn_like(x, memory_format=fmt)):
            assert made.stride() == strides and made.shape == x.shape
        assert torch.equal(x.clone(memory_format=fmt), x)


def test_a_rank_that_does_not_fit():
    x = torch.randn(2, 3, 4, requires_grad=True)
    for call in (lambda: x.clone(memory_format=torch.channels_last),
                 lambda: torch.ones_like(x, memory_format=torch.channels_last),
                 lambda: x.to(memory_format=torch.channels_last),
                 lambda: x.double(memory_format=torch.channels_last)):
        with raises(RuntimeError, "required rank 4 tensor to use channels_last format"):
            call()
    with raises(RuntimeError, "required rank 5 tensor to use channels_last_3d format"):
        torch.empty_like(torch.ones(()), memory_format=torch.channels_last_3d)
    assert x._version == 0 and x.grad is None


def test_to_copies_only_for_a_format_the_strides_do_not_suggest():
    x = torch.randn(2, 3, 4, 5, requires_grad=True)
    assert x.to(memory_format=torch.contiguous_format) is x
    assert x.to(memory_format=torch.preserve_format) is x
    assert x.to(memory_format=None) is x
    made = x.to(memory_format=torch.channels_last)
    assert made.stride() == CL and type(made.grad_fn).__name__ == "ToCopyBackward0"
    assert made.to(memory_format=torch.channels_last) is made
    assert made.to(memory_format=torch.contiguous_format).stride() == ROWS
    t = torch.randn(3, 4).t()
    assert t.to(memory_format=torch.contiguous_format) is t  # a 2-d tensor suggests row-major
    sliced = _inputs()["sliced_channels_last"]
    assert sliced.to(memory_format=torch.channels_last) is sliced
    assert x.float(memory_format=torch.channels_last).stride() == CL  # a copy, same dtype
    assert x.cpu(memory_format=torch.channels_last).stride() == CL
    assert x.to("cpu", memory_format=torch.channels_last).stride() == CL
    assert made.to(copy=True).stride() == CL


@pytest.mark.parametrize("shape, strides, suggested", [
    ((2, 3, 4, 5), (120, 1, 30, 6), "channels_last"),  # a gap, in channels-last order
    ((2, 3, 1, 5), (30, 1, 30, 6), "channels_last"),
    ((2, 1, 1, 1), (3, 3, 3, 3), "contiguous_format"),  # (N, 1, 1, 1): ambiguous
    ((2, 3, 4, 5), (20, 0, 5, 1), "contiguous_format"),  # a repeated channel
    ((2, 3, 4, 5), (3, 1, 0, 0), "contiguous_format"),
    ((2, 3, 4, 5), (0, 1, 15, 3), "contiguous_format"),  # a repeated batch
    ((1, 3, 4, 5), (1, 1, 15, 3), "contiguous_format"),
])
def test_to_asks_the_strides_which_format_they_suggest(shape, strides, suggested):
    x = torch.empty_strided(shape, strides)
    for name in ("contiguous_format", "channels_last"):
        assert (x.to(memory_format=getattr(torch, name)) is x) is (name == suggested)


@pytest.mark.parametrize("name", ["rand_like", "randn_like"])
def test_the_random_like_factories_draw_along_the_format(name):
    x = torch.zeros(2, 3, 4, 5)
    factory = getattr(torch, name)
    asked = factory(x, memory_format=torch.channels_last,
                    generator=torch.Generator().manual_seed(5))
    like = factory(x.contiguous(memory_format=torch.channels_last),
                   generator=torch.Generator().manual_seed(5))
    assert asked.stride() == like.stride() == CL and torch.equal(asked, like)


@pytest.mark.parametrize("name, bounds, got", [
    ("rand_like", (), "(Tensor, memory_format=int)"),
    ("randn_like", (), "(Tensor, memory_format=int)"),
    ("randint_like", (5,), "(Tensor, int, memory_format=int)"),
])
def test_the_random_like_factories_list_their_signatures(name, bounds, got):
    with pytest.raises(TypeError) as caught:
        getattr(torch, name)(torch.ones(2), *bounds, memory_format=1)
    message = str(caught.value)
    assert message.startswith(f"{name}() received an invalid combination of arguments - got "
                              f"{got}, but expected one of:\n")
    assert (" * (Tensor input, *, torch.memory_format memory_format = None, torch.dtype dtype "
            "= None, torch.layout layout = None, torch.device device = None, bool pin_memory = "
            "False, bool requires_grad = False)\n") in message.replace("int high, *", "*")


def test_to_lists_its_signatures_for_a_wrong_format():
    tail = ("bool non_blocking = False, bool copy = False, *, torch.memory_format "
            "memory_format = None)\n")
    with raises(TypeError, "to() received an invalid combination of arguments - got "
                "(torch.dtype, memory_format=int), but expected one of:\n"
                f" * (torch.device device = None, torch.dtype dtype = None, {tail}"
                f" * (torch.dtype dtype, {tail} * (Tensor tensor, {tail}"):
        torch.ones(2).to(torch.float64, memory_format=1)


NOT_UNIQUE = ("The tensor does not have unique dim order, or cannot map to exact one of the "
              "given memory formats.")
BAD_CHECK = "The ambiguity_check argument must be a bool or a list of memory formats."


def test_dim_order_reads_the_strides():
    x = torch.empty(2, 3, 5, 7)
    assert x.dim_order() == (0, 1, 2, 3) and type(x.dim_order()) is tuple
    assert x.transpose(1, 2).dim_order() == (0, 2, 1, 3)
    assert x.contiguous(memory_format=torch.channels_last).dim_order() == (0, 2, 3, 1)
    assert torch.empty(2, 3, 4, 5, 6, memory_format=torch.channels_last_3d).dim_order() == (
        0, 2, 3, 4, 1)
    assert torch.empty(2, 3, 4).permute(2, 0, 1).dim_order(ambiguity_check=True) == (1, 2, 0)
    assert torch.empty(3, 4).t().dim_order() == (1, 0)
    assert torch.empty(4, 6)[:, ::2].dim_order(ambiguity_check=True) == (0, 1)
    assert torch.tensor(1.0).dim_order(ambiguity_check=True) == ()
    assert torch.ones(1).expand(4).dim_order(ambiguity_check=True) == (0,)


@pytest.mark.parametrize("shape, strides, answers", [
    ((3, 2), (1, 3), [(1, 0)] * 4),
    ((2, 3), (3, 3), [(1, 0), NOT_UNIQUE, NOT_UNIQUE, NOT_UNIQUE]),
    ((3, 2), (1, 1), [(0, 1), NOT_UNIQUE, NOT_UNIQUE, NOT_UNIQUE]),
    ((2, 3), (0, 1), [(0, 1), "The tensor does not have unique dim order.", (0, 1),
                      "The tensor does not have unique dim order."]),
    ((2, 3, 2), (1, 0, 2), [(2, 1, 0), "The tensor does not have unique dim order.",
                            (2, 1, 0), "The tensor does not have unique dim order."]),
    ((1, 2, 3, 4), (24, 12, 4, 1), [(0, 1, 2, 3), NOT_UNIQUE, NOT_UNIQUE, (0, 1, 2, 3)]),
    ((2, 1, 3, 3), (9, 1, 3, 1), [(0, 2, 3, 1), NOT_UNIQUE, NOT_UNIQUE, NOT_UNIQUE]),
])
def test_dim_order_ambiguity_checks(shape, strides, answers):
    t = torch.zeros(100).as_strided(shape, strides)
    checks = [False, True, [], [torch.contiguous_format, torch.channels_last]]
    for check, answer in zip(checks, answers):
        if isinstance(answer, tuple):
            assert t.dim_order(ambiguity_check=check) == answer
        else:
            with raises(RuntimeError, answer):
                t.dim_order(ambiguity_check=check)


def test_dim_order_refuses_other_checks():
    t = torch.empty(2)
    for bad in ("ILLEGAL", None, 1, (torch.contiguous_format,), [1], [torch.channels_last, 0]):
        with raises(TypeError, BAD_CHECK):
            t.dim_order(ambiguity_check=bad)
    with raises(TypeError, "Tensor.dim_order() takes 1 positional argument but 2 were given"):
        t.dim_order(True)
