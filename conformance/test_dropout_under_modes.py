"""Black-box tests: what a dispatch mode sees of the dropouts. The composites come as
torch's C++ steps: the noise from empty_like (new_empty for one draw per channel),
bernoulli_, then in-place steps by numbers (div_.Scalar; alpha dropout's add.Scalar,
mul_.Scalar, add_.Scalar), then the product; the zero of p=1 from zeros. native_dropout and
its gradient are one op each. Where autograd is off, each dropout comes whole. Values,
graphs, strides and the random stream are those of a run without a mode. The same
assertions run on torch.
"""

import pytest
import torch

from conformance._support import calling_mode, preorder_names, transposed_leaf

Calls = calling_mode()
F = torch.nn.functional
F32, CPU = torch.float32, torch.device("cpu")
ALPHA_STEPS = [("aten.add.Scalar", ("T", -1), {}),  # p = 0.25: selu's alpha times a, ...
               ("aten.mul_.Scalar", ("T", 1.5247255842792968), {}),
               ("aten.add_.Scalar", ("T", 0.3811813960698242), {}),
               ("aten.mul_.Scalar", ("T", 0.8672579238579332), {})]
DRAWN = [("aten.empty_like.default", ("T",), {}), ("aten.bernoulli_.float", ("T", 0.75), {})]
SCALED = [("aten.div_.Scalar", ("T", 0.75), {})]
PRODUCT, IN_PLACE = ("aten.mul.Tensor", ("T", "T"), {}), ("aten.mul_.Tensor", ("T", "T"), {})
SHIFTED = ("aten.add_.Tensor", ("T", "T"), {})


def _x():
    return (torch.arange(6.0).reshape(2, 3) * 0.25 - 0.5).requires_grad_()


def _seen(f, seed=0):
    """What a mode sees of ``f(y)``, y a non-leaf; the output; the values without a mode."""
    torch.manual_seed(seed)
    unseen = f(_x() * 1).tolist()
    after = torch.rand(2).tolist()
    torch.manual_seed(seed)
    y = _x() * 1
    with Calls() as mode:
        out = f(y)
    assert out.tolist() == unseen and torch.rand(2).tolist() == after  # the same stream
    return mode.seen, out


@pytest.mark.parametrize(("f", "expected"), [
    (lambda y: F.dropout(y, 0.25), [*DRAWN, *SCALED, PRODUCT]),
    (lambda y: F.dropout(y, 0.25, True, True), [*DRAWN, *SCALED, IN_PLACE]),
    (lambda y: torch.dropout(y, 0.25, True), [*DRAWN, *SCALED, PRODUCT]),
    (lambda y: torch.nn.Dropout(0.25)(y), [*DRAWN, *SCALED, PRODUCT]),
    (lambda y: F.alpha_dropout(y, 0.25, True), [*DRAWN, *ALPHA_STEPS, PRODUCT, SHIFTED]),
    (lambda y: F.alpha_dropout(y, 0.25, True, True),
     [*DRAWN, *ALPHA_STEPS, IN_PLACE, SHIFTED]),
    (lambda y: torch.nn.AlphaDropout(0.25, inplace=True).train()(y),
     [*DRAWN, *ALPHA_STEPS, PRODUCT, SHIFTED]),  # the module never works in place
])
def test_elementwise_dropouts_draw_into_empty_like_and_scale_by_numbers(f, expected):
    seen, _ = _seen(f)
    assert seen == expected


CHANNELS = [("aten.new_empty.default", ("T", [1, 2, 1]), {}), *DRAWN[1:]]


@pytest.mark.parametrize(("f", "expected"), [
    (lambda y: F.dropout1d(y.unsqueeze(0), 0.25), [*CHANNELS, *SCALED, PRODUCT]),
    (lambda y: F.dropout2d(y.view(1, 2, 3, 1), 0.25),
     [("aten.new_empty.default", ("T", [1, 2, 1, 1]), {}), *DRAWN[1:], *SCALED, PRODUCT]),
    (lambda y: F.feature_alpha_dropout(y.unsqueeze(0), 0.25, True),
     [*CHANNELS, *ALPHA_STEPS, PRODUCT, SHIFTED]),
    (lambda y: torch.feature_dropout(y, 0.25, True),
     [("aten.new_empty.default", ("T", [2, 3]), {}), *DRAWN[1:], *SCALED, PRODUCT]),
])
def test_channel_dropouts_draw_into_new_empty(f, expected):
    seen, _ = _seen(f)
    assert seen[-len(expected):] == expected


def test_a_one_sample_channel_dropout_in_place_hands_over_its_dim_by_position():
    seen, out = _seen(lambda y: F.dropout1d(y, 0.25, True, True))
    assert seen == [("aten.unsqueeze_.default", ("T", 0), {}), *CHANNELS, *SCALED, IN_PLACE,
                    ("aten.squeeze_.dim", ("T", 0), {})]
    assert out.shape == (2, 3)


def test_p_of_one_multiplies_by_zeros_made_in_the_inputs_options():
    seen, out = _seen(lambda y: F.alpha_dropout(y, 1.0, True))
    zeros = ("aten.zeros.default", ([],), {"dtype": F32, "layout": torch.strided,
                                           "device": CPU})
    assert seen == [zeros, PRODUCT]
    assert out.tolist() == [[0.0] * 3] * 2


@pytest.mark.parametrize("f", [lambda y: F.dropout(y, 0.0), lambda y: F.dropout(y, 0.5, False),
                               lambda y: torch.nn.Dropout(0.5).eval()(y)])
def test_nothing_dropped_is_nothing_seen(f):
    y = _x() * 1
    with Calls() as mode:
        out = f(y)
    assert mode.seen == [] and out is y


def test_an_integer_input_is_refused_by_the_scaling_after_its_draws():
    torch.manual_seed(0)
    n = torch.arange(6).reshape(2, 3)
    with Calls() as mode, pytest.raises(RuntimeError, match="result type Float can't be cast"):
        F.dropout(n, 0.25)
    assert [s[0] for s in mode.seen] == [
        "aten.empty_like.default", "aten.bernoulli_.float", "aten.div_.Scalar"]
    torch.manual_seed(0)
    torch.empty(6).bernoulli_(0.75)
    drawn_once = torch.rand(1).item()
    torch.manual_seed(0)
    with pytest.raises(RuntimeError):
        F.dropout(torch.arange(6).reshape(2, 3), 0.25)
    assert torch.rand(1).item() == drawn_once  # without a mode too, the noise was drawn


def test_the_dropouts_gradient_is_a_product_with_the_noise():
    torch.manual_seed(0)
    x = _x()
    with Calls() as mode:
        F.dropout(x * 1, 0.25).sum().backward()
    assert mode.seen[5:] == [("aten.sum.default", ("T",), {}), mode.seen[6],
                             ("aten.expand.default", ("T", [2, 3]), {}), PRODUCT,
                             ("aten.mul.Tensor", ("T", 1), {}),
                             ("aten.detach.default", ("T",), {})]


def test_native_dropout_is_one_op_and_so_is_its_gradient():
    for train in (True, None, False):
        seen, _ = _seen(lambda y, t=train: torch.native_dropout(y, 0.25, t)[0])
        assert seen == [("aten.native_dropout.default", ("T", 0.25, train), {})]
    torch.manual_seed(0)
    x = _x()
    out, kept = torch.native_dropout(x, 0.25, True)
    with Calls() as mode:
        (g,) = torch.autograd.grad(out.sum(), x)
    assert mode.seen[-1] == ("aten.native_dropout_backward.default",
                             ("T", "T", 1.3333333333333333), {})
    assert g.tolist() == kept.float().mul(4 / 3).tolist()


def test_native_dropouts_gradient_under_create_graph_is_written_out():
    torch.manual_seed(0)
    x = _x()
    out = torch.native_dropout(x, 0.25, True)[0]
    with Calls() as mode:
        torch.autograd.grad(out.sum(), x, create_graph=True)
    assert mode.seen[3:] == [
        ("aten._to_copy.default", ("T",), {"dtype": F32, "layout": torch.strided,
                                           "device": CPU}),
        ("aten.mul.Scalar", ("T", 1.3333333333333333), {}), PRODUCT]


def test_two_modes_see_native_dropout_and_its_gradient_once_each():
    torch.manual_seed(0)
    x = _x()
    with Calls() as outer, Calls() as inner:
        torch.native_dropout(x * 1, 0.25, True)[0].sum().backward()
    names = [s[0] for s in inner.seen]
    assert [s[0] for s in outer.seen] == names
    assert names.count("aten.native_dropout.default") == 1
    assert names.count("aten.native_dropout_backward.default") == 1
    assert "aten.bernoulli_.float" not in names


@pytest.mark.parametrize(("f", "expected"), [
    (lambda y: F.dropout(y, 0.25), ("aten.dropout.default", ("T", 0.25, True), {})),
    (lambda y: F.dropout(y, 0.0, True, True), ("aten.dropout_.default", ("T", 0.0, True), {})),
    (lambda y: F.alpha_dropout(y, 0.25, False),
     ("aten.alpha_dropout.default", ("T", 0.25, False), {})),
    (lambda y: F.dropout2d(y.view(1, 2, 3, 1), 0.25),
     ("aten.feature_dropout.default", ("T", 0.25, True), {})),
    (lambda y: F.feature_alpha_dropout(y, 0.25, True, True),
     ("aten.feature_alpha_dropout_.default", ("T", 0.25, True), {})),
])
def test_in_inference_mode_each_dropout_comes_whole(f, expected):
    torch.manual_seed(0)
    with torch.inference_mode():
        unseen = f(torch.arange(6.0).reshape(2, 3)).tolist()
        torch.manual_seed(0)
        with Calls() as mode:
            out = f(torch.arange(6.0).reshape(2, 3))
    assert mode.seen[-1] == expected
    assert out.tolist() == unseen


# (graph of the gradient of (y * y).sum() under create_graph, to depth 3; its strides;
# the gradient of its sum; a fresh leaf's .grad strides and version after f(x).sum())
SWEEP = {
    "dropout": (lambda y: F.dropout(y, 0.25), "MulBackward0 .AddBackward0 ..MulBackward0 "
                "...None ...MulBackward0 ..MulBackward0 ...None ...MulBackward0 .None",
                [3.555555555556, 0.0, 0.0, 3.555555555556, 3.555555555556, 3.555555555556],
                0),
    "feature_dropout": (lambda y: torch.feature_dropout(y, 0.25, True),
                        "MulBackward0 .AddBackward0 ..MulBackward0 ...None ...MulBackward0 "
                        "..MulBackward0 ...None ...MulBackward0 .None",
                        [3.555555555556, 3.555555555556, 0.0, 3.555555555556, 0.0,
                         3.555555555556], 1),
    "feature_alpha_dropout": (lambda y: F.feature_alpha_dropout(y, 0.25, True),
                              "MulBackward0 .AddBackward0 ..MulBackward0 ...None "
                              "...AddBackward0 ..MulBackward0 ...None ...AddBackward0 .None",
                              [1.504272612989, 1.504272612989, 0.0, 1.504272612989, 0.0,
                               1.504272612989], 1),
    "native_dropout": (lambda y: torch.native_dropout(y, 0.25, True)[0],
                       "MulBackward0 .AddBackward0 ..MulBackward0 ...None "
                       "...NativeDropoutBackward0 ..MulBackward0 ...None "
                       "...NativeDropoutBackward0 .None",
                       [3.555555555556, 0.0, 0.0, 3.555555555556, 3.555555555556,
                        3.555555555556], 0),
}


@pytest.mark.parametrize("name", SWEEP)
def test_a_transposed_leaf_keeps_torchs_graph_strides_and_values(name):
    """A channel's noise is row-major even at the input's own shape: a transposed input
    draws as a contiguous one does, and its gradient is laid out as torch's."""
    f, graph, second, version = SWEEP[name]
    torch.manual_seed(3)
    x = transposed_leaf()
    y = f(x)
    (g,) = torch.autograd.grad((y * y).sum(), x, create_graph=True)
    (g2,) = torch.autograd.grad(g.sum(), x)
    assert (preorder_names(g.grad_fn, 3), g.stride()) == (graph, (1, 2))
    assert [round(v, 12) for v in g2.flatten().tolist()] == second
    torch.manual_seed(3)
    x2 = transposed_leaf()
    f(x2).sum().backward()
    assert (x2.grad.stride(), x2.grad._version) == ((1, 2), version)


def test_a_probability_given_as_an_int_reaches_the_mode_as_a_float():
    with torch.inference_mode():
        x = torch.arange(6.0).reshape(2, 3)
        with Calls() as mode:
            F.dropout(x, 1)
            torch.native_dropout(x, 1, True)
    assert [(s[0], type(s[1][1])) for s in mode.seen] == [
        ("aten.dropout.default", float), ("aten.native_dropout.default", float)]
