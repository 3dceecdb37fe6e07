"""Black-box tests: linear, bilinear, prelu, one_hot, pad, embedding, layer_norm and the
dropouts of torch.nn.functional: values, gradients, the nodes they record, refusals.
"""

import math
import warnings

import pytest
import torch
import torch.nn.functional as F

from conformance._support import first_edges, raises

W = [[1.0, 0.5, -1.0], [2.0, 0.0, 0.25]]
B = [0.5, -1.0]


def _weights():
    return (torch.tensor(W, dtype=torch.float64, requires_grad=True),
            torch.tensor(B, dtype=torch.float64, requires_grad=True))


def _affine(row):
    return [sum(w * x for w, x in zip(ws, row)) + b for ws, b in zip(W, B)]


@pytest.mark.parametrize(("shape", "bias", "nodes"), [
    ((2, 3), True, ["AddmmBackward0"]),
    ((2, 3), False, ["MmBackward0"]),
    ((3,), True, ["ViewBackward0", "AddmmBackward0"]),
    ((3,), False, ["SqueezeBackward4", "MmBackward0", "UnsqueezeBackward0"]),
    ((2, 1, 3), True, ["ViewBackward0", "AddmmBackward0"]),
    ((2, 1, 3), False, ["UnsafeViewBackward0", "MmBackward0", "ViewBackward0"]),
])
def test_linear_records_what_torch_records(shape, bias, nodes):
    weight, b = _weights()
    x = torch.arange(6.0, dtype=torch.float64)[: math.prod(shape)].view(shape).requires_grad_()
    out = F.linear(x, weight, b if bias else None)
    assert first_edges(out) == nodes
    rows = x.detach().reshape(-1, 3).tolist()
    expected = [[v - (0 if bias else c) for v, c in zip(_affine(r), B)] for r in rows]
    assert out.reshape(-1, 2).tolist() == expected
    out.sum().backward()
    assert weight.grad.tolist() == [[sum(r[k] for r in rows) for k in range(3)]] * 2
    assert x.grad.reshape(-1, 3).tolist() == [[3.0, 0.5, -0.75]] * len(rows)


def test_linear_adds_the_bias_after_matmul_for_an_input_not_contiguous():
    weight, b = _weights()
    x = torch.arange(6.0, dtype=torch.float64).view(3, 2).t()
    out = F.linear(x, weight, b)
    assert type(out.grad_fn).__name__ == "AddmmBackward0"
    x3 = torch.arange(6.0, dtype=torch.float64).view(1, 3, 2).transpose(1, 2)
    out = F.linear(x3, weight, b)
    assert type(out.grad_fn).__name__ == "AddBackward0"
    assert out[0].tolist() == [_affine(r) for r in x3[0].tolist()]
    with raises(RuntimeError, "mat1 and mat2 shapes cannot be multiplied (2x3 and 2x4)"):
        F.linear(torch.ones(2, 3), torch.ones(4, 2))


@pytest.mark.parametrize(("x_shape", "w_shape", "b_shape", "shape"), [
    ((3,), (3,), (), ()),
    ((2, 5, 3), (3,), (), (2, 5)),
    ((2, 5, 3), (4, 3), (), (2, 5, 4)),
    ((2, 5, 3), (4, 3), (5, 4), (2, 5, 4)),
])
def test_linear_adds_a_bias_not_one_dimensional_after_matmul(x_shape, w_shape, b_shape, shape):
    x = torch.ones(x_shape, dtype=torch.float64).cumsum(-1).requires_grad_()
    weight = torch.ones(w_shape, dtype=torch.float64, requires_grad=True)
    b = torch.full(b_shape, 0.5, dtype=torch.float64, requires_grad=True)
    out = F.linear(x, weight, b)
    assert type(out.grad_fn).__name__ == "AddBackward0" and tuple(out.shape) == shape
    assert torch.equal(out, x.matmul(weight.t()) + b)


def test_linear_flattens_a_contiguous_input_for_a_one_dimensional_bias():
    x = torch.ones(2, 2, 5, 3, dtype=torch.float64).requires_grad_()
    out = F.linear(x, torch.ones(4, 3, dtype=torch.float64), torch.ones(4, dtype=torch.float64))
    assert first_edges(out) == ["ViewBackward0", "AddmmBackward0"]
    with raises(RuntimeError, "mat2 must be a matrix, got 1-D tensor"):
        F.linear(x[0, 0], torch.ones(3, dtype=torch.float64), torch.ones(1, dtype=torch.float64))


@pytest.mark.parametrize("x_shape, w_shape", [((), (3,)), ((3,), ()), ((), ()), ((2, 3), ())])
@pytest.mark.parametrize("bias", [False, True])
def test_linear_refuses_a_0d_operand_in_its_own_words(x_shape, w_shape, bias):
    x, w = torch.ones(x_shape, requires_grad=True), torch.ones(w_shape)
    message = (f"both arguments to linear need to be at least 1D, but they are "
               f"{len(x_shape)}D and {len(w_shape)}D")
    with raises(RuntimeError, message):
        F.linear(x, w, torch.ones(3) if bias else None)


def test_bilinear():
    x1 = torch.tensor([[1.0, 2.0]], dtype=torch.float64, requires_grad=True)
    x2 = torch.tensor([[0.5, -1.0, 3.0]], dtype=torch.float64)
    weight = torch.arange(12.0, dtype=torch.float64).view(2, 2, 3)
    out = F.bilinear(x1, x2, weight, torch.tensor([1.0, -1.0], dtype=torch.float64))
    w = weight.tolist()
    expected = [sum(a * w[k][i][j] * b for i, a in enumerate([1.0, 2.0])
                    for j, b in enumerate([0.5, -1.0, 3.0])) + [1.0, -1.0][k] for k in range(2)]
    assert out[0].tolist() == pytest.approx(expected)
    out.sum().backward()
    assert x1.grad[0].tolist() == pytest.approx(
        [sum(w[k][i][j] * b for k in range(2) for j, b in enumerate([0.5, -1.0, 3.0]))
         for i in range(2)])


def test_prelu():
    x = torch.tensor([[-2.0, 1.0], [3.0, -0.5]], dtype=torch.float64, requires_grad=True)
    weight = torch.tensor([0.25, -1.0], dtype=torch.float64, requires_grad=True)
    out = F.prelu(x, weight)
    assert out.tolist() == [[-0.5, 1.0], [3.0, 0.5]]
    assert type(out.grad_fn).__name__ == "PreluKernelBackward0"
    assert type(out.grad_fn.next_functions[1][0]).__name__ == "ViewBackward0"
    assert tuple(out.grad_fn._saved_weight.shape) == (1, 2)
    out.sum().backward()
    assert x.grad.tolist() == [[0.25, 1.0], [1.0, -1.0]]
    assert weight.grad.tolist() == [-2.0, -0.5]
    with raises(RuntimeError, "Mismatch of parameter numbers and input channel size. Found "
                              "parameter numbers = 3 and channel size = 2."):
        F.prelu(x, torch.ones(3, dtype=torch.float64))
    with raises(RuntimeError, "prelu: Type promoting not supported. Got Double and Float"):
        F.prelu(x, torch.ones(1))
    with raises(RuntimeError, "prelu: Expected `weight` to be a scalar or 1D tensor, but got: "
                              "ndim = 2"):
        F.prelu(x, torch.ones(1, 2, dtype=torch.float64))


def test_prelu_forms_and_their_argument_errors():
    x = torch.tensor([[-2.0, 1.0], [3.0, -0.5]], dtype=torch.float64)
    weight = torch.tensor([0.25, -1.0], dtype=torch.float64)
    assert F.prelu is torch.prelu
    assert torch.equal(x.prelu(weight), torch.prelu(input=x, weight=weight))
    assert x.prelu(torch.tensor(0.5, dtype=torch.float64)).tolist() == [[-1.0, 1.0],
                                                                         [3.0, -0.25]]
    missing = 'prelu() missing 1 required positional arguments: "weight"'
    for call, kind, message in (
            (lambda: torch.prelu(x), TypeError, missing),
            (lambda: x.prelu(), TypeError, missing),
            (lambda: torch.prelu(x, bad=1), TypeError, missing),
            (lambda: torch.prelu(x, weight, weight), TypeError,
             "prelu() takes 2 positional arguments but 3 were given"),
            (lambda: x.prelu(weight, weight), TypeError,
             "prelu() takes 1 positional argument but 2 were given"),
            (lambda: torch.prelu(3, x), TypeError,
             "prelu(): argument 'input' (position 1) must be Tensor, not int"),
            (lambda: x.prelu(weight=3), TypeError, "prelu(): argument 'weight' must be Tensor, "
                                                   "not int"),
            (lambda: x.prelu(torch.ones(1)), RuntimeError,
             "prelu: Type promoting not supported. Got Double and Float")):
        with raises(kind, message):
            call()


def test_prelu_double_backward():
    x = torch.tensor([[1.0, 0.0, -2.0], [-1.0, 3.0, 0.0]], dtype=torch.float64,
                     requires_grad=True)
    weight = torch.tensor([0.25, 0.5, 2.0], dtype=torch.float64, requires_grad=True)
    g = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], dtype=torch.float64,
                     requires_grad=True)
    grad_x, grad_weight = torch.autograd.grad(torch.prelu(x.reshape(2, 3, 1), weight),
                                              (x, weight), g.reshape(2, 3, 1), create_graph=True)
    assert grad_x.tolist() == [[1.0, 1.0, 6.0], [1.0, 5.0, 12.0]]  # 0 is not positive here
    assert grad_weight.tolist() == [-4.0, 0.0, -6.0]
    node = grad_x.grad_fn.next_functions[0][0]
    assert type(node).__name__ == "PreluKernelBackwardBackward0"
    assert [type(n).__name__ for n, _ in node.next_functions] == ["ViewBackward0"] * 3
    assert [n for n in dir(node) if n.startswith("_saved")] == [
        "_saved_grad_output", "_saved_self", "_saved_weight"]
    gg_x = torch.tensor([[0.5, 0.25, 1.0], [2.0, 1.0, 0.5]], dtype=torch.float64)
    gg_weight = torch.tensor([1.0, 3.0, 2.0], dtype=torch.float64)
    both = torch.autograd.grad((grad_x, grad_weight), (g, x, weight), (gg_x, gg_weight),
                               retain_graph=True)
    # ... and positive in the second derivatives, as in torch's formulas
    assert [t.tolist() for t in both] == [
        [[0.5, 0.25, -2.0], [-0.5, 1.0, 0.5]], [[0.0, 0.0, 6.0], [4.0, 0.0, 0.0]],
        [8.0, 0.0, 3.0]]
    one = torch.autograd.grad(grad_weight, (g, x, weight), gg_weight, retain_graph=True)
    assert [t.tolist() for t in one] == [
        [[0.0, 0.0, -4.0], [-1.0, 0.0, 0.0]], [[0.0, 0.0, 6.0], [4.0, 0.0, 0.0]],
        [0.0, 0.0, 0.0]]
    other = torch.autograd.grad(grad_x, (g, x), gg_x)
    assert other[1].tolist() == [[0.0] * 3] * 2


def test_one_hot():
    assert F.one_hot(torch.tensor([1, 0, 3])).tolist() == [[0, 1, 0, 0], [1, 0, 0, 0],
                                                           [0, 0, 0, 1]]
    out = F.one_hot(torch.tensor([[2], [0]]), 4)
    assert out.dtype is torch.int64 and out.shape == (2, 1, 4)
    assert F.one_hot(torch.tensor([], dtype=torch.long), 3).shape == (0, 3)
    for call, message in [
        (lambda: F.one_hot(torch.tensor([-1, 2])), "Class values must be non-negative."),
        (lambda: F.one_hot(torch.tensor([3]), 2), "Class values must be smaller than num_classes."),
        (lambda: F.one_hot(torch.tensor([1.0])),
         "one_hot is only applicable to index tensor of type LongTensor."),
        (lambda: F.one_hot(torch.tensor([], dtype=torch.long)),
         "Can not infer total number of classes from empty tensor."),
    ]:
        with raises(RuntimeError, message):
            call()


def test_constant_pad():
    x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
    out = F.pad(x, (1, -1, 0, 1), value=9.0)
    assert out.tolist() == [[9.0, 1.0, 2.0], [9.0, 4.0, 5.0], [9.0, 9.0, 9.0]]
    assert type(out.grad_fn).__name__ == "ConstantPadNdBackward0"
    assert out.grad_fn._saved_pad == (1, 2**64 - 1, 0, 1)  # -1, shown unsigned
    out.backward(torch.arange(9.0).view(3, 3))
    assert x.grad.tolist() == [[1.0, 2.0, 0.0], [4.0, 5.0, 0.0]]
    assert F.pad(torch.tensor([1, 2]), (1, 0), value=2.7).tolist() == [2, 1, 2]
    with raises(RuntimeError, "Padding length must be divisible by 2"):
        F.pad(x, (1,))
    with raises(RuntimeError, "Padding length should be less than or equal to two times the "
                              "input dimension but got padding length 6 and input of dimension 2"):
        F.pad(x, (1, 1, 1, 1, 1, 1))
    with raises(RuntimeError, "narrow(): length must be non-negative."):
        F.pad(x, (0, -4))
    with raises(NotImplementedError, "Unrecognised padding mode wrap"):
        F.pad(x, (1, 1), mode="wrap")
    with raises(RuntimeError, 'Padding mode "reflect" doesn\'t take in value argument'):
        F.pad(x, (1, 1), mode="reflect", value=1.0)


def test_reflected_and_replicated_padding():
    x = torch.tensor([[[1.0, 2.0, 3.0, 4.0]]], requires_grad=True)
    reflected = F.pad(x, (2, 1), mode="reflect")
    assert reflected.tolist() == [[[3.0, 2.0, 1.0, 2.0, 3.0, 4.0, 3.0]]]
    assert type(reflected.grad_fn).__name__ == "ReflectionPad1DBackward0"
    assert reflected.grad_fn._saved_padding == (2, 1) and reflected.grad_fn._saved_self is x
    reflected.sum().backward()
    assert x.grad.tolist() == [[[1.0, 2.0, 3.0, 1.0]]]  # each element once, plus its copies
    replicated = F.pad(x, (2, -1), mode="replicate")
    assert replicated.tolist() == [[[1.0, 1.0, 1.0, 2.0, 3.0]]]
    assert type(replicated.grad_fn).__name__ == "ReplicationPad1DBackward0"
    image = torch.arange(6.0).view(1, 1, 2, 3).requires_grad_()
    out = F.pad(image, (1, 0, 0, 1), mode="replicate")
    assert type(out.grad_fn).__name__ == "ReplicationPad2DBackward0"
    assert out[0, 0].tolist() == [[0.0, 0.0, 1.0, 2.0], [3.0, 3.0, 4.0, 5.0],
                                  [3.0, 3.0, 4.0, 5.0]]
    out.sum().backward()
    assert image.grad[0, 0].tolist() == [[2.0, 1.0, 1.0], [4.0, 2.0, 2.0]]
    assert F.pad(torch.ones(1, 1, 2, 3, 3), (1, 1, 1, 1, 1, 1), mode="reflect").shape == (
        1, 1, 4, 5, 5)
    assert F.pad(torch.tensor([[1, 2, 3]]), (1, 1), mode="reflect").tolist() == [[2, 1, 2, 3, 2]]


def test_reflected_and_replicated_padding_refusals():
    with raises(RuntimeError, "Argument #4: Padding size should be less than the corresponding "
                              "input dimension, but got: padding (4, 0) at dimension 2 of input "
                              "[1, 3, 4]"):
        F.pad(torch.ones(1, 3, 4), (4, 0), mode="reflect")
    with raises(RuntimeError, "Argument #6: Padding size should be less than the corresponding "
                              "input dimension, but got: padding (3, 0) at dimension 2 of input "
                              "[1, 1, 3, 4]"):
        F.pad(torch.ones(1, 1, 3, 4), (1, 1, 3, 0), mode="reflect")
    with raises(NotImplementedError, "Padding size 2 is not supported for 1D input tensor.\n"
                                     "Supported combinations for non-constant padding:\n"
                                     "  - 2D or 3D input: padding size = 2 (pads last "
                                     "dimension)\n"
                                     "  - 3D or 4D input: padding size = 4 (pads last 2 "
                                     "dimensions)\n"
                                     "  - 4D or 5D input: padding size = 6 (pads last 3 "
                                     "dimensions)"):
        F.pad(torch.ones(4), (1, 1), mode="replicate")
    with raises(RuntimeError, "Expected 2D or 3D (batch mode) tensor with possibly 0 batch size "
                              "and other non-zero dimensions for input, but got: [1, 0, 3]"):
        F.pad(torch.ones(1, 0, 3), (1, 1), mode="replicate")


def test_embedding():
    weight = torch.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], requires_grad=True)
    indices = torch.tensor([[2, 0], [2, 2]])
    out = F.embedding(indices, weight, padding_idx=0, scale_grad_by_freq=True)
    assert out.tolist() == [[[5.0, 6.0], [1.0, 2.0]], [[5.0, 6.0], [5.0, 6.0]]]
    node = out.grad_fn
    assert type(node).__name__ == "EmbeddingBackward0" and node._saved_indices is indices
    assert (node._saved_padding_idx, node._saved_scale_grad_by_freq, node._saved_sparse,
            node._saved_weight_sym_argsize_0) == (0, True, False, 3)
    out.sum().backward()
    assert weight.grad.tolist() == [[0.0, 0.0], [0.0, 0.0], [1.0, 1.0]]
    plain = F.embedding(torch.tensor([1, 1, 2]), weight)
    assert plain.grad_fn._saved_padding_idx == 2**64 - 1  # none: -1, shown unsigned
    assert F.embedding(torch.tensor([0]), weight, padding_idx=-1).grad_fn._saved_padding_idx == 2
    with raises(IndexError, "index out of range in self"):
        F.embedding(torch.tensor([3]), weight)
    with raises(IndexError, "index out of range in self"):
        F.embedding(torch.tensor([-1]), weight)
    with raises(RuntimeError, "Expected tensor for argument #1 'indices' to have one of the "
                              "following scalar types: Long, Int; but got torch.FloatTensor "
                              "instead (while checking arguments for embedding)"):
        F.embedding(torch.tensor([1.0]), weight)
    with raises(AssertionError, "Padding_idx must be within num_embeddings"):
        F.embedding(torch.tensor([1]), weight, padding_idx=3)


def test_embedding_max_norm_rescales_the_rows_it_looks_up():
    weight = torch.tensor([[3.0, 4.0], [0.3, 0.4], [6.0, 8.0]])
    F.embedding(torch.tensor([0, 1]), weight, max_norm=1.0)
    assert weight[0].tolist() == pytest.approx([0.6, 0.8], rel=1e-6)
    assert weight[1:].tolist() == [pytest.approx([0.3, 0.4]), [6.0, 8.0]]


def test_layer_norm():
    x = torch.tensor([[1.0, 2.0, 6.0], [0.0, -1.0, 1.0]], dtype=torch.float64,
                     requires_grad=True)
    weight = torch.tensor([1.0, 2.0, 0.5], dtype=torch.float64, requires_grad=True)
    bias = torch.tensor([0.0, 1.0, -1.0], dtype=torch.float64, requires_grad=True)
    out = F.layer_norm(x, (3,), weight, bias, eps=0.0)
    node = out.grad_fn
    assert type(node).__name__ == "NativeLayerNormBackward0"
    assert node._saved_normalized_shape == (3,) and node._saved_input is x
    assert node._saved_weight is weight and node._saved_bias is bias
    rows = []
    for row in x.tolist():
        mean = sum(row) / 3
        deviation = math.sqrt(sum((v - mean) ** 2 for v in row) / 3)
        rows.append([(v - mean) / deviation for v in row])
    assert out.tolist() == [pytest.approx([n * w + b for n, w, b in zip(r, [1.0, 2.0, 0.5],
                                                                        [0.0, 1.0, -1.0])])
                            for r in rows]
    out.backward(torch.tensor([[1.0, 0.0, 0.0], [0.0, 1.0, 1.0]], dtype=torch.float64))
    assert bias.grad.tolist() == [1.0, 1.0, 1.0]
    assert weight.grad.tolist() == pytest.approx([rows[0][0], rows[1][1], rows[1][2]])
    assert sum(x.grad[0].tolist()) == pytest.approx(0.0, abs=1e-12)  # shifts change nothing
    assert F.layer_norm(x, (2, 3)).grad_fn._saved_weight is None


def test_layer_norm_refusals():
    x = torch.ones(2, 3)
    with raises(RuntimeError, "Given normalized_shape=[2], expected input with shape [*, 2], but "
                              "got input of size[2, 3]"):
        F.layer_norm(x, (2,))
    with raises(RuntimeError, "Expected weight to be of same shape as normalized_shape, but got "
                              "weight of shape [2] and normalized_shape = [3]"):
        F.layer_norm(x, (3,), torch.ones(2))
    with raises(NotImplementedError, "\"LayerNormKernelImpl\" not implemented for 'Long'"):
        F.layer_norm(x.long(), (3,))


def test_dropout_keeps_the_expectation():
    torch.manual_seed(0)
    x = torch.ones(200, 50, requires_grad=True)
    out = F.dropout(x, 0.25)
    assert type(out.grad_fn).__name__ == "MulBackward0"
    values = sorted(set(out.flatten().tolist()))
    assert len(values) == 2 and values[0] == 0.0 and values[1] == pytest.approx(4 / 3)
    kept = (out != 0).sum().item() / 10000
    assert 0.72 < kept < 0.78
    out.sum().backward()
    assert torch.equal(x.grad, out.detach())  # the gradient is the noise itself


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.float16])
def test_a_seed_drops_the_elements_bernoulli_draws(dtype):
    torch.manual_seed(0)
    assert F.dropout(torch.ones(8, dtype=dtype), 0.5).tolist() == [0, 0, 2, 0, 0, 0, 2, 2]
    x = torch.arange(1.0, 25.0, dtype=dtype).reshape(2, 3, 4)
    for p, drop, noise_shape in [(0.3, F.dropout, (2, 3, 4)), (0.6, F.dropout1d, (2, 3, 1)),
                                 (0.5, lambda t, p: torch.nn.Dropout(p)(t), (2, 3, 4))]:
        torch.manual_seed(7)
        noise = torch.empty(noise_shape, dtype=dtype).bernoulli_(1 - p)
        after = torch.rand(3)
        torch.manual_seed(7)
        out = drop(x, p)
        assert torch.equal(out, x * (noise / (1 - p)))
        assert torch.equal(torch.rand(3), after)  # and draws no more than that
    torch.manual_seed(7)
    kept = torch.empty(2, 3, 4, dtype=dtype).bernoulli_(0.75)
    torch.manual_seed(7)
    out = F.alpha_dropout(x, 0.25, training=True)
    assert torch.equal(out == out.min(), kept == 0)  # alpha dropout sets the dropped to one value


def test_dropout_that_drops_nothing_returns_the_input():
    x = torch.ones(2, 3, requires_grad=True)
    assert F.dropout(x, 0.0) is x and F.dropout(x, 0.5, training=False) is x
    assert F.alpha_dropout(x, 0.5) is x  # alpha_dropout does not train unless told
    everything = F.dropout(x, 1.0)
    assert everything.tolist() == [[0.0] * 3] * 2
    assert type(everything.grad_fn).__name__ == "MulBackward0"
    assert everything.grad_fn._saved_other.shape == ()
    t = x * 1
    assert F.dropout(t, 0.5, inplace=True) is t and t._version == 1
    with raises(ValueError, "dropout probability has to be between 0 and 1, but got 1.5"):
        F.dropout(x, 1.5)
    with raises(ValueError, "dropout probability has to be between 0 and 1, but got -0.1"):
        F.alpha_dropout(x, -0.1)
    with raises(RuntimeError, "result type Float can't be cast to the desired output type Long"):
        F.dropout(torch.tensor([1, 2]), 0.5)


def test_channel_dropout_drops_whole_channels():
    torch.manual_seed(0)
    x = torch.ones(4, 30, 5, requires_grad=True)
    out = F.dropout1d(x, 0.5)
    per_channel = out.detach().sum(-1)
    assert set(per_channel.flatten().tolist()) <= {0.0, 10.0}
    single = F.dropout1d(torch.ones(30, 5, requires_grad=True), 0.5)
    assert first_edges(single) == ["SqueezeBackward1", "MulBackward0", "UnsqueezeBackward0"]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        F.dropout2d(torch.ones(2, 3, 4), 0.5)
    assert str(caught[0].message).startswith("dropout2d: Received a 3D input to dropout2d")
    assert set(F.dropout2d(torch.ones(2, 8, 3, 3), 0.5).sum((-1, -2)).flatten().tolist()) <= {
        0.0, 18.0}
    with raises(RuntimeError, "dropout1d: Expected 2D or 3D input, but received a 4D input. "
                              "Note that dropout1d exists to provide channel-wise dropout on "
                              "inputs with 1 spatial dimension, a channel dimension, and an "
                              "optional batch dimension (i.e. 2D or 3D inputs)."):
        F.dropout1d(torch.ones(1, 2, 3, 4), 0.5)


def test_dropout3d_makes_a_batch_of_one_sample():
    torch.manual_seed(0)
    single = F.dropout3d(torch.ones(20, 2, 2, 2, requires_grad=True), 0.5)
    assert first_edges(single) == ["SqueezeBackward1", "MulBackward0", "UnsqueezeBackward0"]
    assert set(single.detach().sum((1, 2, 3)).tolist()) <= {0.0, 16.0}
    assert type(F.dropout3d(torch.ones(2, 3, 1, 1, 1, requires_grad=True), 0.5).grad_fn
                ).__name__ == "MulBackward0"
    with pytest.warns(UserWarning, match="^dropout3d: Received a 2-D input to dropout3d, which "
                                         "is deprecated"):
        F.dropout3d(torch.ones(2, 3), 0.5)


def test_alpha_dropout_keeps_mean_and_variance():
    torch.manual_seed(0)
    x = torch.randn(100000, dtype=torch.float64)
    out = F.alpha_dropout(x, 0.2, training=True)
    assert abs(out.mean().item()) < 0.02 and abs(out.std().item() - 1) < 0.02
    assert first_edges(F.alpha_dropout(x.requires_grad_(), 0.2, True)) == [
        "AddBackward0", "MulBackward0"]
