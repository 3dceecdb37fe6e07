"""What logsigmoid's and the normalizations' nodes keep, and what their gradients read.

logsigmoid's node keeps the buffer torch's kernel makes (exp(-|x|)) after the input,
and its gradient's node keeps it first; the gradient kernels of layer_norm, batch_norm
and group_norm read the statistics their nodes kept, as torch's do (a saved-tensor
hook that hands back other statistics changes the gradient, as in torch); and
group_norm's gradient under create_graph packs torch's tensors in torch's order,
the variance it works out and never reads included.
"""

import pytest
import torch
import torch.nn.functional as F

INPUTS = {
    "signs": [-30.0, -3.0, -0.5, 0.0, 0.5, 3.0, 30.0],
    "transposed": [[-0.7, -0.1, 0.5], [-0.4, 0.2, 0.8]],
    "scalar": 0.25,
}


def _input(kind, dtype):
    if kind == "transposed":  # a (2, 3) view of a (3, 2) tensor
        return torch.tensor(INPUTS[kind], dtype=dtype).t().contiguous().t().requires_grad_()
    return torch.tensor(INPUTS[kind], dtype=dtype, requires_grad=True)


@pytest.mark.parametrize("kind", INPUTS)
@pytest.mark.parametrize("dtype", ["float64", "float32", "float16"])
def test_logsigmoid_keeps_torchs_buffer(kind, dtype):
    dtype = getattr(torch, dtype)
    x = _input(kind, dtype)
    y = F.logsigmoid(x)
    buffer = y.grad_fn._saved_buffer
    expected = torch.exp(-x.detach().double().abs())
    assert buffer.dtype == dtype and buffer.shape == x.shape and not buffer.requires_grad
    assert buffer.stride() == y.stride() == torch.empty(x.shape).stride()  # row-major
    # rounded once from exp(-|x|), which the kernel's vectorized exp may leave an ulp off
    ulp = {torch.float64: 2.3e-16, torch.float32: 1.2e-7, torch.float16: 9.8e-4}[dtype]
    assert torch.allclose(buffer.double(), expected.to(dtype).double(), rtol=2 * ulp, atol=0)
    assert type(y.grad_fn._raw_saved_buffer).__name__ == "SavedTensor"
    assert sorted(n for n in dir(y.grad_fn) if n.startswith(("_saved_", "_raw_saved_"))) == [
        "_raw_saved_buffer", "_raw_saved_self", "_saved_buffer", "_saved_self"]
    assert len(y.grad_fn.next_functions) == 1


def _packed(call):
    packs = []

    def pack(t):
        packs.append(t.detach().clone())
        return t

    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        result = call()
    return packs, result


def test_logsigmoid_packs_the_input_then_the_buffer():
    x = torch.tensor([-1.0, 2.0], dtype=torch.float64, requires_grad=True)
    packs, y = _packed(lambda: F.logsigmoid(x))
    assert [p.tolist() for p in packs] == [[-1.0, 2.0], torch.exp(-x.detach().abs()).tolist()]
    assert torch.equal(y.grad_fn._saved_buffer, packs[1])


def test_the_gradients_node_packs_the_buffer_first():
    x = torch.tensor([-1.0, 2.0], dtype=torch.float64, requires_grad=True)
    y = F.logsigmoid(x)
    packs, (g,) = _packed(lambda: torch.autograd.grad(y.sum(), x, create_graph=True))
    buffer = torch.exp(-x.detach().abs())
    assert [p.tolist() for p in packs] == [buffer.tolist(), [1.0, 1.0], [-1.0, 2.0]]
    assert g.grad_fn.name() == "LogSigmoidBackwardBackward0"
    assert torch.equal(g.grad_fn._saved_buffer, y.grad_fn._saved_buffer)
    (gg,) = torch.autograd.grad(g.sum(), x)
    z = torch.sigmoid(x.detach())
    assert gg.tolist() == pytest.approx(((z - 1) * z).tolist(), rel=1e-15)


X = [[0.4, 0.57, 0.74, 1.3], [0.91, 1.08, 1.25, -0.2], [0.1, 2.0, -1.0, 0.3]]
G = [[1.0, -2.0, 0.5, 3.0], [0.25, 1.0, -1.0, 2.0], [0.3, 0.1, 0.7, -1.2]]
W = [1.5, 0.7, 2.0, -0.4]
NORMS = {
    "layer_norm": lambda x, w: F.layer_norm(x, (4,), w),
    "batch_norm": lambda x, w: F.batch_norm(x, None, None, w, training=True),
    "batch_norm_eval": lambda x, w: F.batch_norm(
        x, torch.tensor([0.1, -0.2, 0.3, 0.0], dtype=torch.float64),
        torch.tensor([1.0, 2.0, 0.5, 1.5], dtype=torch.float64), w),
    "group_norm": lambda x, w: F.group_norm(x, 2, w),
}
# torch's gradients for the input and the weight when the third and fourth tensors the
# node packs (the mean and one over the deviation; the running statistics in evaluation)
# come back from the unpack hook as t + 0.25 and t * 1.5
OTHER_STATISTICS = {
    "layer_norm": (
     [-5.297066674026, -14.756250047053, -0.708582358779, 0.743923274387, 2.363391667271,
      2.830213738585, -4.703482237823, 1.820098708071, -1.065761773502, 1.656761390883,
      -1.621979132153, -0.681374061204],
     [-2.947946057009, 4.217244111371, -2.781780278167, -1.938945459317]),
    "batch_norm": (
     [-3.3700623886, 1.958870327351, 2.032814502152, -1.216702757516, 2.137654732871,
      4.452233021117, -0.461312546578, -1.414252815053, -14.288725105146, -2.249558822362,
      -4.773942354888, 2.051116493428],
     [-2.056791530659, 3.700900446865, -2.641116646122, 1.00221677161]),
    "batch_norm_eval": (
     [2.012453129953, -1.399996888899, 1.732039260679, -1.360668215215, 0.503113282488,
      0.69999844445, -3.464078521358, -0.907112143477, 0.603735938986, 0.069999844445,
      2.424854964951, 0.544267286086],
     [0.44944786569, -0.026666607408, -1.893696258342, 2.373610108764]),
    "group_norm": (
     [-223.831849241831, -148.41053102025, -17.163249911251, -4.587439966188,
      -224.36530524964, -106.231173353285, -0.883798469529, 0.50741001439, -0.859655809734,
      0.376466581527, -4.844591224237, 1.563415044563],
     [-7.953015105072, 3.020277436613, -3.856130548574, -4.660011469174]),
}


def _with_other_statistics(name, create_graph):
    x = torch.tensor(X, dtype=torch.float64, requires_grad=True)
    w = torch.tensor(W, dtype=torch.float64, requires_grad=True)
    packs = []

    def pack(t):
        packs.append(t)
        return len(packs) - 1, t

    def unpack(packed):
        index, t = packed
        return t + 0.25 if index == 2 else t * 1.5 if index == 3 else t

    with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
        y = NORMS[name](x, w)
    return torch.autograd.grad(y, (x, w), torch.tensor(G, dtype=torch.float64),
                               create_graph=create_graph)


@pytest.mark.parametrize("create_graph", [False, True])
@pytest.mark.parametrize("name", NORMS)
def test_the_gradient_reads_the_statistics_its_node_kept(name, create_graph):
    gx, gw = _with_other_statistics(name, create_graph)
    expected_x, expected_w = OTHER_STATISTICS[name]
    assert gx.flatten().tolist() == pytest.approx(expected_x, rel=1e-10, abs=1e-12)
    assert gw.tolist() == pytest.approx(expected_w, rel=1e-10, abs=1e-12)


# What a saved-tensor hook sees packed while group_norm's gradient is taken with
# create_graph=True (the loss built outside the hook): each tensor's grad_fn and shape,
# for the gradients asked for; "x_plain" without weight and bias, "x_third" through the
# gradient of a first gradient
GROUP_NORM_PACKS = {
    "xwb": """
        leaf:2x4x3 leaf:2x4x3 ViewBackward0:2x2x2x3 ViewBackward0:2x2x2x3
        ViewBackward0:2x2x1x1 ViewBackward0:2x2x1x1 ReciprocalBackward0:2x2x1x1
        SubBackward1:2x2x1x1 ViewBackward0:2x2x1x1 ViewBackward0:2x2x1x1
        ViewBackward0:2x2x1x1 MulBackward0:2x2x1x1 ViewBackward0:1x2x2x1
        ViewBackward0:2x2x1x1 ViewBackward0:1x2x2x1 UnsqueezeBackward1:2x2x2x1
        ViewBackward0:1x2x2x1 UnsqueezeBackward1:2x2x2x1 ViewBackward0:2x2x1x1
        UnsqueezeBackward1:2x2x1x1 MulBackward0:2x2x1x1 SubBackward0:2x2x1x1
        ViewBackward0:2x2x1x1 UnsqueezeBackward1:2x2x1x1 ViewBackward0:2x2x1x1
        NegBackward0:2x2x1x1 ViewBackward0:2x2x2x3 MulBackward1:2x2x1x1
        ViewBackward0:2x2x2x3 MulBackward0:2x2x2x1 ViewBackward0:2x2x1x1
        UnsqueezeBackward1:2x2x2x1 ViewBackward0:2x2x1x1 SubBackward0:2x2x2x1""",
    "x": """
        leaf:2x4x3 leaf:2x4x3 ViewBackward0:2x2x2x3 ViewBackward0:2x2x2x3
        ViewBackward0:2x2x1x1 ViewBackward0:2x2x1x1 ReciprocalBackward0:2x2x1x1
        SubBackward1:2x2x1x1 ViewBackward0:2x2x1x1 ViewBackward0:2x2x1x1
        ViewBackward0:2x2x1x1 MulBackward0:2x2x1x1 ViewBackward0:1x2x2x1
        ViewBackward0:2x2x1x1 ViewBackward0:1x2x2x1 UnsqueezeBackward1:2x2x2x1
        ViewBackward0:1x2x2x1 UnsqueezeBackward1:2x2x2x1 ViewBackward0:2x2x1x1
        UnsqueezeBackward1:2x2x1x1 MulBackward0:2x2x1x1 SubBackward0:2x2x1x1
        ViewBackward0:2x2x1x1 UnsqueezeBackward1:2x2x1x1 ViewBackward0:2x2x1x1
        NegBackward0:2x2x1x1 ViewBackward0:2x2x2x3 MulBackward1:2x2x1x1
        ViewBackward0:2x2x2x3 MulBackward0:2x2x2x1""",
    "w": """
        leaf:2x4x3 leaf:2x4x3 ViewBackward0:2x2x2x3 ViewBackward0:2x2x2x3
        ViewBackward0:2x2x1x1 UnsqueezeBackward1:2x2x2x1 ViewBackward0:2x2x1x1
        SubBackward0:2x2x2x1""",
    "b": """
        leaf:2x4x3 leaf:2x4x3 ViewBackward0:2x2x2x3 ViewBackward0:2x2x2x3""",
    "x_plain": """
        leaf:2x4x3 leaf:2x4x3 ViewBackward0:2x2x2x3 ViewBackward0:2x2x2x3
        ViewBackward0:2x2x1x1 ViewBackward0:2x2x1x1 ReciprocalBackward0:2x2x1x1
        SubBackward1:2x2x1x1 ViewBackward0:2x2x1x1 ViewBackward0:2x2x1x1
        ViewBackward0:2x2x1x1 MulBackward0:2x2x1x1 ViewBackward0:2x2x1x1
        UnsqueezeBackward1:2x2x1x1 MulBackward0:2x2x1x1 SubBackward0:2x2x1x1
        ViewBackward0:2x2x1x1 UnsqueezeBackward1:2x2x1x1 ViewBackward0:2x2x1x1
        NegBackward0:2x2x1x1 ViewBackward0:2x2x2x3 MulBackward1:2x2x1x1
        ViewBackward0:2x2x2x3 ViewBackward0:2x2x1x1""",
    "x_third": """
        leaf:2x4x3 leaf:2x4x3 MulBackward0:2x2x2x1 ViewBackward0:2x2x2x3
        ViewBackward0:2x2x2x3 ViewBackward0:2x2x2x3 MulBackward1:2x2x1x1
        ViewBackward0:2x2x2x3 ViewBackward0:2x2x2x3 ViewBackward0:2x2x2x3
        NegBackward0:2x2x1x1 SumBackward1:2x2x1x1 ViewBackward0:2x2x1x1
        SumBackward1:2x2x1x1 UnsqueezeBackward1:2x2x1x1 MulBackward1:2x2x1x1
        ViewBackward0:2x2x1x1 MulBackward1:2x2x1x1 SubBackward0:2x2x1x1
        MulBackward1:2x2x1x1 MulBackward0:2x2x1x1 MulBackward1:2x2x1x1
        UnsqueezeBackward1:2x2x1x1 MulBackward0:2x2x1x1 ViewBackward0:2x2x1x1
        MulBackward0:2x2x1x1 ViewBackward0:1x2x2x1 ExpandBackward0:2x2x2x1
        ViewBackward0:1x2x2x1 ExpandBackward0:2x2x2x1 ViewBackward0:1x2x2x1
        SumBackward1:2x2x2x1 MulBackward0:2x2x1x1 MulBackward0:2x2x1x1
        ViewBackward0:2x2x1x1 MulBackward0:2x2x1x1 ViewBackward0:2x2x1x1
        MulBackward0:2x2x1x1 ViewBackward0:2x2x1x1 MulBackward0:2x2x1x1
        ViewBackward0:2x2x2x3 ExpandBackward0:2x2x2x3 ViewBackward0:2x2x2x3
        ExpandBackward0:2x2x2x3 leaf:2x4x3 leaf:2x4x3 ViewBackward0:2x2x2x3
        ViewBackward0:2x2x2x3 ViewBackward0:2x2x1x1 ViewBackward0:2x2x1x1
        ReciprocalBackward0:2x2x1x1 SubBackward1:2x2x1x1 ViewBackward0:2x2x1x1
        ViewBackward0:2x2x1x1 ViewBackward0:2x2x1x1 MulBackward0:2x2x1x1
        ViewBackward0:2x2x1x1 MulBackward1:2x2x1x1 ViewBackward0:1x2x2x1
        ViewBackward0:2x2x1x1 ViewBackward0:1x2x2x1 UnsqueezeBackward1:2x2x2x1
        ViewBackward0:1x2x2x1 UnsqueezeBackward1:2x2x2x1 ViewBackward0:2x2x1x1
        UnsqueezeBackward1:2x2x1x1 MulBackward0:2x2x1x1 SubBackward0:2x2x1x1
        ViewBackward0:2x2x1x1 UnsqueezeBackward1:2x2x1x1 ViewBackward0:2x2x1x1
        NegBackward0:2x2x1x1 ViewBackward0:2x2x2x3 MulBackward1:2x2x1x1
        ViewBackward0:2x2x2x3 MulBackward0:2x2x2x1 SubBackward0:2x2x2x3
        MulBackward1:2x2x1x1""",

}


def _group_norm_packs(case):
    x = (torch.arange(24, dtype=torch.float64).reshape(2, 4, 3) * 0.17 + 0.4).sin()
    x.requires_grad_()
    plain = case == "x_plain"
    w = None if plain else torch.tensor([1.5, 0.7, 2.0, 1.1], dtype=torch.float64,
                                        requires_grad=True)
    b = None if plain else torch.tensor([0.1, -0.2, 0.3, 0.4], dtype=torch.float64,
                                        requires_grad=True)
    y = F.group_norm(x, 2, w, b)
    loss = (y * y).sum()
    if case == "x_third":
        (gx,) = torch.autograd.grad(loss, x, create_graph=True)
        loss = (gx * gx).sum()
    wanted = [{"x": x, "w": w, "b": b}[c] for c in case.split("_")[0]]
    packs = []

    def pack(t):
        name = type(t.grad_fn).__name__ if t.grad_fn is not None else "leaf"
        packs.append(f"{name}:{'x'.join(str(n) for n in t.shape)}")
        return t

    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        torch.autograd.grad(loss, wanted, create_graph=True)
    return packs


@pytest.mark.parametrize("case", GROUP_NORM_PACKS)
def test_group_norms_gradient_packs_what_torchs_does(case):
    assert _group_norm_packs(case) == GROUP_NORM_PACKS[case].split()
