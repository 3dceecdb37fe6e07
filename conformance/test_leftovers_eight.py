"""Black-box tests: resolve_name of the functions torch and F share, and of those torch
leaves out of its __all__; bytes taken where torch's parser asks for a string; F.selu_
counted in its parser's words; calls of the functions torch binds in C (and of norm and
tensordot) refused before any handler or mode is asked. The same assertions run on torch.
"""

import types

import pytest
import torch
import torch.nn.functional as F

from conformance._support import raises
from conformance.test_leftovers_seven import Handled

resolve = torch.overrides.resolve_name
SHARED = ["adaptive_avg_pool1d", "avg_pool1d", "bilinear", "celu_", "channel_shuffle",
          "conv1d", "conv2d", "conv3d", "conv_tbc", "conv_transpose1d", "conv_transpose2d",
          "conv_transpose3d", "cosine_similarity", "hardshrink", "native_channel_shuffle",
          "pairwise_distance", "pdist", "pixel_shuffle", "pixel_unshuffle", "prelu", "relu_",
          "rrelu_", "selu_", "threshold_"]
OUTSIDE_ALL = ["compiled_with_cxx11_abi", "eig", "from_dlpack", "lstsq", "matrix_rank",
               "segment_reduce", "solve", "symeig", "to_dlpack", "while_loop"]


@pytest.mark.parametrize("name", SHARED)
def test_a_function_torch_and_f_share_is_named_by_f(name):
    expected = f"torch.nn.functional.{name}"
    assert resolve(getattr(torch, name)) == resolve(getattr(F, name)) == expected


def test_every_function_of_f_is_named_by_f_by_its_last_name_there():
    last = {}  # walked in dir's order: a later name replaces an earlier one
    for name in dir(F):
        value = getattr(F, name)
        if not name.startswith("__") and isinstance(value, types.FunctionType):
            last[value] = name
    assert len(last) > 100
    for value, name in last.items():
        assert resolve(value) == f"torch.nn.functional.{name}", name
    assert resolve(F._threshold) == "torch.nn.functional.threshold"
    # the rest keep their names
    assert resolve(torch.add) == "torch.add"
    assert resolve(torch.linalg.norm) == "torch.linalg.norm"
    assert resolve(torch.broadcast_shapes) == "torch.functional.broadcast_shapes"
    assert resolve(F.gelu) == "torch.nn.functional.gelu"  # bound from C under torch._C._nn
    assert resolve(F._in_projection) == "torch.nn.functional._in_projection"


@pytest.mark.parametrize("name", OUTSIDE_ALL)
def test_a_function_left_out_of_torchs_all_has_no_name(name):
    assert resolve(getattr(torch, name)) is None


X = torch.rand(2, 3, 5)
Y = X + 1
M = torch.rand(3, 3)
M = M @ M.T + torch.eye(3)
BYTES = {
    "gelu": (lambda s: F.gelu(X, approximate=s("tanh"))),
    "pad": (lambda s: F.pad(X, (1, 1), s("reflect"))),
    "pad by name": (lambda s: F.pad(X, (1, 1), mode=s("replicate"))),
    "div": (lambda s: torch.div(X, Y, rounding_mode=s("floor"))),
    "div method": (lambda s: X.div(Y, rounding_mode=s("trunc"))),
    "div_": (lambda s: X.clone().div_(2.0, rounding_mode=s("floor"))),
    "conv1d": (lambda s: F.conv1d(X, torch.ones(4, 3, 3), padding=s("same"))),
    "einsum": (lambda s: torch.einsum(s("ijk->kji"), X)),
    "searchsorted": (lambda s: torch.searchsorted(torch.arange(5.0), X, side=s("right"))),
    "matrix_norm": (lambda s: torch.linalg.matrix_norm(M, ord=s("fro"))),
    "quantile": (lambda s: torch.quantile(X, 0.3, interpolation=s("lower"))),
    "eigvalsh": (lambda s: torch.linalg.eigvalsh(M, UPLO=s("U"))),
    "scatter_reduce": (lambda s: torch.scatter_reduce(M, 0, torch.tensor([[0, 1, 2]]), M,
                                                      s("amax"))),
}


@pytest.mark.parametrize("name", list(BYTES))
def test_bytes_are_taken_where_the_parser_asks_for_a_string(name):
    given, expected = BYTES[name](str.encode), BYTES[name](str)
    assert torch.equal(given, expected)


def test_a_device_may_be_given_as_bytes():
    assert torch.device(b"cpu") == torch.device("cpu")
    assert torch.device(type=b"cpu") == torch.device("cpu")
    assert torch.empty(2, device=b"cpu").device == torch.device("cpu")
    assert torch.tensor([1.0], device=b"cpu").device == torch.device("cpu")
    assert X.to(b"cpu") is X


def test_bytes_that_name_nothing_are_refused_as_the_string_they_spell():
    with raises(RuntimeError, "approximate argument must be either none or tanh."):
        F.gelu(X, approximate=b"foo")
    with raises(RuntimeError, "div expected rounding_mode to be one of None, 'trunc', or "
                              "'floor' but found 'x'"):
        torch.div(X, Y, rounding_mode=b"x")
    # the functions torch writes in Python compare the value with strings themselves
    with raises(ValueError, "b'sum' is not a valid value for reduction"):
        F.mse_loss(X, Y, reduction=b"sum")
    with raises(TypeError, "linalg_vector_norm(): argument 'ord' (position 2) must be Number, "
                           "not bytes"):
        torch.norm(X, p=b"fro")


@pytest.mark.parametrize("call", [lambda: F.selu_(), lambda: F.selu_(foo=1)])
def test_selu_in_place_counts_in_its_parsers_words(call):
    with raises(TypeError, 'selu_() missing 1 required positional arguments: "input"'):
        call()


class Seen(torch.Tensor):
    seen = []

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        cls.seen.append(func.__name__)
        return "handled"


class Mode(torch.overrides.TorchFunctionMode):
    def __init__(self):
        super().__init__()
        self.seen = []

    def __torch_function__(self, func, types, args=(), kwargs=None):
        self.seen.append(func.__name__)
        return "handled"


CONV = ("conv1d() received an invalid combination of arguments - got ({0}, {0}, {1}), but "
        "expected one of:\n"
        " * (Tensor input, Tensor weight, Tensor bias = None, tuple of ints stride = 1, tuple of "
        "ints padding = 0, tuple of ints dilation = 1, int groups = 1)\n"
        " * (Tensor input, Tensor weight, Tensor bias = None, tuple of ints stride = 1, str "
        "padding = \"valid\", tuple of ints dilation = 1, int groups = 1)\n")
REFUSED = {  # each call, with the message torch's parser (or Python) gives for it
    "add foo": (lambda a: torch.add(a, a, foo=1),
                "add() got an unexpected keyword argument 'foo'"),
    "add alpha": (lambda a: torch.add(a, a, alpha="a"),
                  "add(): argument 'alpha' must be Number, not str"),
    "conv1d foo": (lambda a: torch.conv1d(a, a, foo=1), CONV.format("{0}", "foo=int")),
    "conv1d stride": (lambda a: torch.conv1d(a, a, stride="a"), CONV.format("{0}", "stride=str")),
    "norm": (lambda a: torch.norm(a, foo=1), "norm() got an unexpected keyword argument 'foo'"),
    "tensordot": (lambda a: torch.tensordot(a, a, foo=1),
                  "tensordot() got an unexpected keyword argument 'foo'"),
    "sdpa foo": (lambda a: F.scaled_dot_product_attention(a, a, a, foo=1),
                 "scaled_dot_product_attention() got an unexpected keyword argument 'foo'"),
    "sdpa seven": (lambda a: F.scaled_dot_product_attention(a, a, a, None, 0.0, False, 1.0),
                   "scaled_dot_product_attention() takes from 3 to 6 positional arguments but "
                   "7 were given"),
    "sdpa scale": (lambda a: F.scaled_dot_product_attention(a, a, a, scale="a"),
                   "scaled_dot_product_attention(): argument 'scale' must be float, not str"),
    "gelu": (lambda a: F.gelu(a, approximate=3),
             "gelu(): argument 'approximate' must be str, not int"),
    "softplus": (lambda a: F.softplus(a, beta="a"),
                 "softplus(): argument 'beta' must be Number, not str"),
}


@pytest.mark.parametrize("name", list(REFUSED))
def test_a_call_that_does_not_parse_is_refused_before_any_handler(name):
    call, message = REFUSED[name]
    for given in (Handled(), torch.rand(3).as_subclass(Seen)):
        Handled.asked.clear()
        Seen.seen.clear()
        with raises(TypeError, message.replace("{0}", type(given).__name__)):
            call(given)
        assert Handled.asked == Seen.seen == []


@pytest.mark.parametrize("name", list(REFUSED))
def test_a_call_that_does_not_parse_is_refused_before_a_mode(name):
    call, message = REFUSED[name]
    mode, given = Mode(), torch.rand(3)  # made before the mode, which would answer rand
    with mode, raises(TypeError, message.replace("{0}", "Tensor")):
        call(given)
    assert mode.seen == []


def test_only_calls_that_parse_are_handed_on():
    Handled.asked.clear()
    h = Handled()
    with raises(TypeError, "add() got an unexpected keyword argument 'foo'"):
        torch.add(h, h, foo=1)
    assert torch.add(h, h, alpha=2) == torch.conv1d(h, h, stride=2) == "handled"
    assert torch.norm(h, p=2) == torch.tensordot(h, h, dims=1) == "handled"
    with raises(TypeError, "cdist() got an unexpected keyword argument 'foo'"):
        torch.cdist(h, h, foo=1)  # Python's binding of its line, before the line asks
    assert torch.cdist(h, h, compute_mode=3) == "handled"  # the line asks before parsing
    assert F.gelu(h, approximate=b"tanh") == F.softplus(h, beta=2) == "handled"
    assert F.scaled_dot_product_attention(h, h, h, scale=0.5) == "handled"
    assert torch.cat([h, h]) == torch.sum(h, 0) == "handled"
    assert Handled.asked == ["add", "conv1d", "norm", "tensordot", "cdist", "gelu", "softplus",
                             "scaled_dot_product_attention", "cat", "sum"]
    given = torch.rand(2)
    with Mode() as mode:
        assert torch.add(given, 1, alpha=2) == "handled"
    assert mode.seen == ["add"]


@pytest.mark.parametrize("call", [
    lambda x: torch.mm(x, "a"), lambda x: torch.index_select(x, 0, "a"),
    lambda x: torch.where(x, "a", x), lambda x: torch.masked_select(x, "a"),
])
def test_functions_given_out_by_a_wrapper_are_parsed_before_a_mode(call):
    given, mode = torch.rand(2, 2), Mode()
    with pytest.raises(TypeError) as plain:
        call(given)
    with mode, raises(TypeError, str(plain.value)):
        call(given)
    assert mode.seen == []
