"""A float32 LSTM on the CPU records one MkldnnRnnLayerBackward0 node per layer and direction."""

import warnings

import numpy as np
import pytest
import torch
from torch import nn

from conformance._support import recording_mode

NODE = "MkldnnRnnLayerBackward0"


def _name(fn):
    return None if fn is None else fn.name()


def _edges(fn):
    return [(_name(f), i) for f, i in fn.next_functions]


def _x(*shape, dtype=torch.float32, requires_grad=True):
    values = np.random.default_rng(0).standard_normal(shape)
    return torch.tensor(values, dtype=dtype, requires_grad=requires_grad)


def _lstm(*args, **kwargs):
    torch.manual_seed(0)
    return nn.LSTM(*args, **kwargs)


def test_one_node_per_layer_and_the_states_stack_its_outputs():
    m = _lstm(3, 4, num_layers=2)
    out, (h, c) = m(_x(5, 2, 3))
    top = out.grad_fn
    assert type(top).__name__ == NODE and top.name() == NODE and out.output_nr == 0
    bottom = top.next_functions[0][0]
    assert _edges(top) == [(NODE, 0)] + [("torch::autograd::AccumulateGrad", 0)] * 4 + [
        (None, 0), (None, 0)]
    assert _edges(bottom)[0] == ("torch::autograd::AccumulateGrad", 0)
    for state, slot in ((h, 1), (c, 2)):
        assert state.grad_fn.name() == "StackBackward0"
        assert [(f, i) for f, i in state.grad_fn.next_functions] == [(bottom, slot), (top, slot)]
    assert top.next_functions[1][0].variable is m.weight_ih_l1


def test_what_the_node_keeps():
    m = _lstm(3, 4, num_layers=2)
    x = _x(5, 2, 3)
    out, _ = m(x)
    node = out.grad_fn
    flags = (node._saved_reverse, node._saved_mode, node._saved_hidden_size,
             node._saved_num_layers, node._saved_has_biases, node._saved_bidirectional,
             node._saved_batch_first, node._saved_train, node._saved_batch_sizes)
    assert flags == (False, 2, 4, 2, True, False, False, True, ())
    assert node._saved_weight0 is m.weight_ih_l1 and node._saved_weight3 is m.bias_hh_l1
    assert node._saved_input.shape == (5, 2, 4) and node._saved_hx_.shape == (2, 4)
    assert torch.equal(node._saved_result0, out)
    assert node._saved_result1.shape == node._saved_result2.shape == (2, 4)
    assert node._saved_result3.dtype == torch.uint8
    assert node.next_functions[0][0]._saved_input.shape == (5, 2, 3)
    m.eval()
    assert m(x)[0].grad_fn._saved_train is False


def test_which_lstms_take_the_path():
    x = _x(5, 2, 3)
    assert _name(_lstm(3, 4)(x)[0].grad_fn) == NODE
    assert _name(_lstm(3, 4)(x.detach())[0].grad_fn) == NODE
    assert _name(_lstm(3, 4, dtype=torch.float64)(x.double())[0].grad_fn) == "StackBackward0"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # projections: torch warns once and composes
        assert _name(_lstm(3, 4, proj_size=2)(x)[0].grad_fn) == "StackBackward0"
    packed = nn.utils.rnn.pack_padded_sequence(x, torch.tensor([5, 3]))
    out, (h, _) = _lstm(3, 4)(packed)
    assert _name(out.data.grad_fn) == "CatBackward0" and _name(h.grad_fn) == "StackBackward0"
    assert NODE not in {_name(f) for f, _ in h.grad_fn.next_functions}
    for cls in (nn.GRU, nn.RNN):
        assert _name(cls(3, 4)(x)[0].grad_fn) == "StackBackward0"
    half = _lstm(3, 4, dtype=torch.float16)(x.detach().half())[0]
    assert _name(half.grad_fn) == "StackBackward0"
    with torch.no_grad():
        out, (h, c) = _lstm(3, 4)(x)
    assert out.grad_fn is None and h.grad_fn is None and not out.requires_grad
    with torch.inference_mode():
        out, (h, c) = _lstm(3, 4)(x)
    assert out.grad_fn is None and out.is_inference()
    m, state = _lstm(3, 4, 2), torch.zeros(2, 2, 4)
    out, h, c = torch.lstm(x, (state, state), m._flat_weights, True, 2, 0.0, True, False, False)
    assert [_name(t.grad_fn) for t in (out, h, c)] == [NODE, "StackBackward0", "StackBackward0"]


def test_directions_batch_first_dropout_biases_and_given_states():
    out, _ = _lstm(3, 4, num_layers=2, bidirectional=True)(_x(5, 2, 3))
    assert _name(out.grad_fn) == "CatBackward0" and out.grad_fn._saved_dim == 2**64 - 1
    nodes = [f for f, _ in out.grad_fn.next_functions]
    assert [n._saved_reverse for n in nodes] == [False, True]
    assert nodes[0]._saved_input.shape == (5, 2, 8)
    out, _ = _lstm(3, 4, batch_first=True)(_x(2, 5, 3))
    node = out.grad_fn.next_functions[0][0]
    assert _name(out.grad_fn) == "TransposeBackward0" and out.stride() == (4, 8, 1)
    assert _edges(node)[0] == ("CloneBackward0", 0) and node._saved_batch_first is True
    out, _ = _lstm(3, 4, num_layers=2, dropout=0.5)(_x(5, 2, 3))
    assert _edges(out.grad_fn)[0] == ("MulBackward0", 0)
    m = _lstm(3, 4, bias=False)
    out, _ = m(_x(5, 2, 3))
    assert [e[0] for e in _edges(out.grad_fn)[3:]] == [None] * 4
    assert torch.equal(out.grad_fn._saved_weight2, torch.zeros(16, 3))
    assert out.grad_fn._saved_has_biases is False
    hx = (_x(1, 2, 4), _x(1, 2, 4))
    out, _ = _lstm(3, 4)(_x(5, 2, 3), hx)
    assert _edges(out.grad_fn)[5:] == [("SelectBackward0", 0)] * 2


def _gradients(m, x, hx, create_graph=False):
    out, (h, c) = m(x, hx)
    loss = (out * out).sum() + (h * 1.5).sum() + (c * c).sum()
    return torch.autograd.grad(loss, (x, *hx, *m.parameters()), create_graph=create_graph)


@pytest.mark.parametrize("kwargs", [{}, {"num_layers": 2, "bidirectional": True},
                                    {"batch_first": True, "bias": False}])
def test_gradients_agree_with_the_composed_float64_lstm(kwargs):
    m = _lstm(3, 4, **kwargs)
    layers = m.num_layers * (2 if m.bidirectional else 1)
    x = _x(2, 5, 3) if m.batch_first else _x(5, 2, 3)
    hx = (_x(layers, 2, 4) * 0.5, _x(layers, 2, 4) * 0.5)
    got = _gradients(m, x, hx)
    wide = [t.detach().double().requires_grad_() for t in (x, *hx)]
    want = _gradients(m.double(), wide[0], tuple(wide[1:]))
    for a, b in zip(got, want, strict=True):
        assert a.dtype == torch.float32
        torch.testing.assert_close(a.double(), b, rtol=1e-4, atol=1e-5)


def test_a_second_derivative_through_the_node():
    m = _lstm(3, 4)
    x, hx = _x(4, 2, 3), (_x(1, 2, 4), _x(1, 2, 4))
    gx = _gradients(m, x, hx, create_graph=True)[0]
    assert gx.requires_grad and gx.grad_fn is not None
    second = torch.autograd.grad(gx.sum(), m.weight_hh_l0)[0]
    wide = [t.detach().double().requires_grad_() for t in (x, *hx)]
    gx = _gradients(m.double(), wide[0], tuple(wide[1:]), True)[0]
    torch.testing.assert_close(second.double(), torch.autograd.grad(gx.sum(), m.weight_hh_l0)[0],
                               rtol=1e-4, atol=1e-5)


def test_hooks_see_missing_gradients_as_none():
    m = _lstm(3, 4)
    seen = {}
    out, (h, c) = m(_x(5, 2, 3))

    def pre(grads):
        seen["pre"] = [t is None for t in grads]

    def post(grads_in, grads_out):
        seen["post"] = [t is None for t in grads_in]

    out.grad_fn.register_prehook(pre)
    out.grad_fn.register_hook(post)
    h.sum().backward()
    assert seen == {"pre": [True, False, True], "post": [False] * 5 + [True] * 2}
    out, (h, c) = m(_x(5, 2, 3))
    out.retain_grad()
    h.retain_grad()
    (out.sum() * 2 + h.sum()).backward()
    assert torch.equal(out.grad, torch.full((5, 2, 4), 2.0))
    assert torch.equal(h.grad, torch.ones(1, 2, 4))


def test_saved_tensor_hooks_see_the_states_first():
    shapes = []
    with torch.autograd.graph.saved_tensors_hooks(lambda t: shapes.append(t.shape) or t,
                                                  lambda t: t):
        _lstm(3, 4)(_x(5, 2, 3))
    assert shapes[:10] == [(2, 4), (2, 4), (5, 2, 3), (16, 3), (16, 4), (16,), (16,),
                           (5, 2, 4), (2, 4), (2, 4)]
    assert len(shapes) == 11


def test_anomaly_mode_names_the_node():
    m = _lstm(3, 4)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with torch.autograd.detect_anomaly():
            out, _ = m(_x(5, 2, 3))
            with pytest.raises(RuntimeError, match=f"Function '{NODE}' returned nan values "
                                                   "in its 0th output."):
                out.backward(torch.full_like(out, float("nan")))


def test_refusals():
    m = _lstm(3, 4)
    hx = (torch.zeros(1, 2, 4, dtype=torch.float64), torch.zeros(1, 2, 4))
    with pytest.raises(RuntimeError, match="^get_mkldnn_dtype: unsupported data type$"):
        m(_x(5, 2, 3), hx)
    import torch.autograd.forward_ad as fwAD

    with fwAD.dual_level(), pytest.raises(NotImplementedError, match=(
            "^Trying to use forward AD with mkldnn_rnn_layer that does not support it")):
        m(fwAD.make_dual(_x(5, 2, 3, requires_grad=False), torch.ones(5, 2, 3)))


def test_the_layer_called_as_a_function():
    m = _lstm(3, 4)
    x, state = _x(5, 2, 3), torch.zeros(2, 4)
    flags = (False, [], 2, 4, 1, True, False, False, True)
    out, h, c, workspace = torch.mkldnn_rnn_layer(x, *m._flat_weights, state, state, *flags)
    assert out.shape == (5, 2, 4) and h.shape == c.shape == (2, 4)
    assert workspace.dtype == torch.uint8 and not workspace.requires_grad
    assert _name(out.grad_fn) == NODE and (h.output_nr, c.output_nr) == (1, 2)
    torch.testing.assert_close(out, m(x)[0])
    torch.testing.assert_close(torch.stack([h, c]), torch.cat(m(x)[1]))
    assert torch.mkldnn_rnn_layer(x, *m._flat_weights, state, state, False, [3, 2], 2, 4, 1,
                                  True, False, False, True)[0].grad_fn._saved_batch_sizes == (3, 2)
    with pytest.raises(RuntimeError, match="^could not create a primitive descriptor for the "
                                           "LSTM forward propagation primitive"):
        torch.mkldnn_rnn_layer(x, *m._flat_weights, state, state, False, [], 3, 4, 1, True,
                               False, False, True)
    with pytest.raises(TypeError, match=r'^mkldnn_rnn_layer\(\) missing 9 required positional '
                                        r'argument: "reverse", "batch_sizes", "mode"'):
        torch.mkldnn_rnn_layer(x, *m._flat_weights, state, state)


def test_a_dispatch_mode_sees_the_layer_and_its_backward_whole():
    Names = recording_mode()
    m = _lstm(3, 4, batch_first=True)
    x = _x(2, 5, 3)
    with Names() as mode:
        out, _ = m(x)
        forward = mode.seen[:]
        out.sum().backward()
    assert forward == ["aten.zeros.default"] * 2 + [
        "aten.transpose.int", "aten.clone.default", "aten.select.int", "aten.select.int",
        "aten.mkldnn_rnn_layer.default"] + ["aten.detach.default"] * 3 + [
        "aten.stack.default", "aten.stack.default", "aten.transpose.int"]
    assert mode.seen[len(forward):] == [
        "aten.sum.default", "aten.ones_like.default", "aten.expand.default",
        "aten.transpose.int"] + ["aten.detach.default"] * 3 + [
        "aten.mkldnn_rnn_layer_backward.default"] + ["aten.detach.default"] * 4 + [
        "aten.transpose.int", "aten.new_empty_strided.default", "aten.copy_.default"]


def test_weights_and_states_are_read_as_the_path_reads_them():
    m, x = _lstm(3, 4, num_layers=2), _x(5, 2, 3, requires_grad=False)
    s, w = torch.zeros(2, 2, 4), m._flat_weights

    def run(state, weights, has_biases=True):
        return torch.lstm(x, state, weights, has_biases, 2, 0.0, True, False, False)

    with pytest.raises(RuntimeError, match="^MatrixRef: ArrayRef size 6 not divisible by "
                                           "stride 4$"):
        run((s, s), w[:6])
    with pytest.raises(RuntimeError, match="^MatrixRef: ArrayRef size 3 not divisible by "
                                           "stride 2$"):
        run((s, s), w[:3], False)
    with pytest.raises(RuntimeError, match="^ArrayRef: invalid slice, N = 4; M = 4; size = 4$"):
        run((s, s), w[:4])
    with pytest.raises(RuntimeError, match="^ArrayRef: invalid slice, N = 0; M = 4; size = 0$"):
        run((s, s), [])
    with pytest.raises(IndexError, match=r"^select\(\): index 1 out of range for tensor of size "
                                         r"\[1, 2, 4\] at dimension 0$"):
        run((s, s[:1]), w)
    out, h, c = run((torch.zeros(3, 2, 4),) * 2, w + w)  # more than needed: the rest unread
    assert h.shape == c.shape == (2, 2, 4)
    torch.testing.assert_close(out, run((s, s), w)[0])
