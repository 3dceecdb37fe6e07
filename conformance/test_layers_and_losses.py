"""torch.nn's activation, layer, container and loss modules, and a module's state."""

import math

import pytest
import torch
import torch.nn.functional as F
from torch import nn

from conformance._support import raises

REPRS = [
    (lambda: nn.Tanh(), "Tanh()"), (lambda: nn.SiLU(inplace=True), "SiLU(inplace=True)"),
    (lambda: nn.GELU("tanh"), "GELU(approximate='tanh')"), (lambda: nn.ELU(), "ELU(alpha=1.0)"),
    (lambda: nn.ELU(0.5, True), "ELU(alpha=0.5, inplace=True)"),
    (lambda: nn.LeakyReLU(0.2, True), "LeakyReLU(negative_slope=0.2, inplace=True)"),
    (lambda: nn.Softplus(), "Softplus(beta=1.0, threshold=20.0)"),
    (lambda: nn.Softmax(), "Softmax(dim=None)"), (lambda: nn.LogSoftmax(1), "LogSoftmax(dim=1)"),
    (lambda: nn.Hardtanh(), "Hardtanh(min_val=-1.0, max_val=1.0)"),
    (lambda: nn.ReLU6(True), "ReLU6(inplace=True)"), (lambda: nn.CELU(), "CELU(alpha=1.0)"),
    (lambda: nn.GLU(), "GLU(dim=-1)"), (lambda: nn.Softmin(0), "Softmin(dim=0)"),
    (lambda: nn.Threshold(0.1, 20.0), "Threshold(threshold=0.1, value=20.0)"),
    (lambda: nn.Hardshrink(), "Hardshrink(0.5)"), (lambda: nn.PReLU(3), "PReLU(num_parameters=3)"),
    (lambda: nn.Flatten(), "Flatten(start_dim=1, end_dim=-1)"),
    (lambda: nn.Unflatten(1, (2, 3)), "Unflatten(dim=1, unflattened_size=(2, 3))"),
    (lambda: nn.Dropout(0.2, True), "Dropout(p=0.2, inplace=True)"),
    (lambda: nn.LayerNorm(4), "LayerNorm((4,), eps=1e-05, elementwise_affine=True, bias=True)"),
    (lambda: nn.LayerNorm((2, 3), elementwise_affine=False),
     "LayerNorm((2, 3), eps=1e-05, elementwise_affine=False, bias=False)"),
    (lambda: nn.Embedding(10, 3, padding_idx=-1, max_norm=1.0),
     "Embedding(10, 3, padding_idx=9, max_norm=1.0)"),
    (lambda: nn.CrossEntropyLoss(label_smoothing=0.1), "CrossEntropyLoss()"),
    (lambda: nn.ModuleList([nn.Linear(2, 2), nn.Linear(2, 2), nn.Tanh()]),
     "ModuleList(\n  (0-1): 2 x Linear(in_features=2, out_features=2, bias=True)\n"
     "  (2): Tanh()\n)"),
    (lambda: nn.ModuleDict({"act": nn.Tanh()}), "ModuleDict(\n  (act): Tanh()\n)"),
    (lambda: nn.ModuleList(), "ModuleList()"),
]


@pytest.mark.parametrize("make, text", REPRS)
def test_modules_print_as_torch_prints_them(make, text):
    assert repr(make()) == text


ACTIVATIONS = [
    (nn.Tanh(), torch.tanh), (nn.Sigmoid(), torch.sigmoid), (nn.SiLU(), F.silu),
    (nn.GELU(), F.gelu), (nn.ELU(0.5), lambda x: F.elu(x, 0.5)),
    (nn.LeakyReLU(0.2), lambda x: F.leaky_relu(x, 0.2)), (nn.Softplus(2.0), lambda x:
                                                           F.softplus(x, 2.0)),
    (nn.Softmax(1), lambda x: F.softmax(x, 1)), (nn.LogSoftmax(0), lambda x: F.log_softmax(x, 0)),
    (nn.Hardtanh(-0.5, 2.0), lambda x: F.hardtanh(x, -0.5, 2.0)), (nn.ReLU6(), F.relu6),
    (nn.Mish(), F.mish), (nn.Softsign(), F.softsign), (nn.Tanhshrink(), F.tanhshrink),
    (nn.Hardswish(), F.hardswish), (nn.Hardsigmoid(), F.hardsigmoid), (nn.CELU(), F.celu),
    (nn.SELU(), F.selu), (nn.GLU(), F.glu), (nn.LogSigmoid(), F.logsigmoid),
    (nn.Softmin(1), lambda x: F.softmin(x, 1)),
    (nn.Threshold(0.1, 20.0), lambda x: F.threshold(x, 0.1, 20.0)),
    (nn.Hardshrink(0.3), lambda x: F.hardshrink(x, 0.3)),
    (nn.Softshrink(0.3), lambda x: F.softshrink(x, 0.3)),
]


@pytest.mark.parametrize("module, function", ACTIVATIONS, ids=lambda m: type(m).__name__)
def test_an_activation_module_calls_its_function(module, function):
    x = torch.linspace(-3, 3, 12, dtype=torch.float64).reshape(2, 6).requires_grad_()
    out = module(x)
    assert torch.equal(out, function(x))
    assert out.grad_fn.name() == function(x).grad_fn.name()


def test_in_place_activations_write_into_their_input():
    x = torch.linspace(-1, 1, 5)
    assert nn.ELU(inplace=True)(x) is x and x._version == 1


@pytest.mark.parametrize("make, kind, message", [
    (lambda: nn.Hardtanh(1, 0), AssertionError, "max_val (0) must be greater than min_val (1)"),
    (lambda: nn.Dropout(1.5), ValueError,
     "dropout probability has to be between 0 and 1, but got 1.5"),
    (lambda: nn.Embedding(3, 2, padding_idx=5), AssertionError,
     "Padding_idx must be within num_embeddings"),
    (lambda: nn.Embedding(3, 2, _weight=torch.ones(2, 2)), AssertionError,
     "Shape of weight does not match num_embeddings and embedding_dim"),
    (lambda: nn.Embedding.from_pretrained(torch.ones(3)), AssertionError,
     "Embeddings parameter is expected to be 2-dimensional"),
    (lambda: nn.ModuleList([nn.Tanh()])[3], IndexError, "index 3 is out of range"),
])
def test_modules_refuse_bad_settings(make, kind, message):
    with raises(kind, message):
        make()


def test_layers_start_as_torch_starts_them():
    assert nn.PReLU(2).weight.tolist() == [0.25, 0.25]
    norm = nn.LayerNorm(3, bias=False)
    assert norm.weight.tolist() == [1.0, 1.0, 1.0] and norm.bias is None
    assert [n for n, _ in norm.named_parameters()] == ["weight"]
    assert list(nn.LayerNorm(3, elementwise_affine=False).parameters()) == []
    embedding = nn.Embedding(4, 2, padding_idx=-1)
    assert embedding.padding_idx == 3 and embedding.weight[3].tolist() == [0.0, 0.0]
    frozen = nn.Embedding.from_pretrained(torch.eye(3))
    assert not frozen.weight.requires_grad and frozen(torch.tensor([2])).tolist() == [[0, 0, 1.0]]


def test_dropout_only_while_training():
    drop = nn.Dropout(0.5)
    x = torch.ones(1000)
    kept = drop(x)
    assert set(kept.tolist()) <= {0.0, 2.0} and 300 < int((kept == 0).sum()) < 700
    assert torch.equal(drop.eval()(x), x) and not drop.training


def test_containers_register_their_children():
    layers = nn.ModuleList([nn.Linear(2, 2)]).append(nn.Linear(2, 3)).extend([nn.Tanh()])
    assert len(layers) == 3 and isinstance(layers[-1], nn.Tanh)
    assert len(list(layers.parameters())) == 4 and len(layers[1:]) == 2
    layers[0] = nn.Linear(2, 5)
    assert layers[0].out_features == 5
    heads = nn.ModuleDict({"a": nn.Linear(2, 2), "b": nn.Tanh()})
    assert list(heads) == ["a", "b"] and "a" in heads and len(heads) == 2
    assert [n for n, _ in heads.named_parameters()] == ["a.weight", "a.bias"]
    del heads["a"]
    assert list(heads.keys()) == ["b"]


@pytest.mark.parametrize("module, function", [
    (nn.MSELoss(), F.mse_loss), (nn.L1Loss(reduction="sum"), lambda a, b: F.l1_loss(
        a, b, reduction="sum")),
    (nn.SmoothL1Loss(beta=0.5), lambda a, b: F.smooth_l1_loss(a, b, beta=0.5)),
    (nn.HuberLoss(delta=0.5), lambda a, b: F.huber_loss(a, b, delta=0.5)),
    (nn.BCEWithLogitsLoss(pos_weight=torch.full((3,), 2.0, dtype=torch.float64)),
     lambda a, b: F.binary_cross_entropy_with_logits(
         a, b, pos_weight=torch.full((3,), 2.0, dtype=torch.float64))),
    (nn.BCELoss(reduction="none"), lambda a, b: F.binary_cross_entropy(
        a.sigmoid(), b, reduction="none")),
    (nn.KLDivLoss(reduction="batchmean", log_target=True), lambda a, b: F.kl_div(
        a, b, reduction="batchmean", log_target=True)),
])
def test_a_loss_module_calls_its_function(module, function):
    x = torch.linspace(-1, 1, 6, dtype=torch.float64).reshape(2, 3)
    target = torch.tensor([[0.0, 1.0, 0.5], [1.0, 0.0, 0.25]], dtype=torch.float64)
    if isinstance(module, nn.BCELoss):
        assert torch.equal(module(x.sigmoid(), target), function(x, target))
    else:
        assert torch.equal(module(x, target), function(x, target))


def test_class_losses_keep_their_weights_as_buffers():
    weight = torch.tensor([1.0, 2.0, 0.5])
    loss = nn.CrossEntropyLoss(weight=weight, ignore_index=1, label_smoothing=0.2)
    assert list(loss.state_dict()) == ["weight"] and loss.weight is weight
    logits, target = torch.linspace(-1, 1, 12).reshape(4, 3), torch.tensor([0, 1, 2, 2])
    expected = F.cross_entropy(logits, target, weight=weight, ignore_index=1,
                               label_smoothing=0.2)
    assert torch.equal(loss(logits, target), expected)
    nll = nn.NLLLoss(weight=weight)
    assert torch.equal(nll(logits, target), F.nll_loss(logits, target, weight=weight))
    assert list(nn.NLLLoss().state_dict()) == []


def test_the_old_reduction_arguments_still_work_with_a_warning():
    with pytest.warns(UserWarning, match=r"^size_average and reduce args will be deprecated, "
                                         r"please use reduction='sum' instead\.$"):
        assert nn.MSELoss(size_average=False).reduction == "sum"


# A module's state.
def _model():
    torch.manual_seed(0)
    return nn.Sequential(nn.Linear(3, 4), nn.LayerNorm(4),
                         nn.Sequential(nn.PReLU(), nn.Linear(4, 2, bias=False)))


def test_state_dict_names_every_tensor_in_walk_order():
    model = _model()
    state = model.state_dict()
    assert list(state) == ["0.weight", "0.bias", "1.weight", "1.bias", "2.0.weight",
                           "2.1.weight"]
    assert list(state._metadata) == ["", "0", "1", "2", "2.0", "2.1"]
    assert state["0.weight"].requires_grad is False and state["0.weight"].grad_fn is None
    state["0.bias"][0] = 7.0  # shares storage with the parameter
    assert model[0].bias[0].item() == 7.0
    assert model.state_dict(keep_vars=True)["0.weight"] is model[0].weight


def test_load_state_dict_copies_in_place():
    source, target = _model(), _model()
    with torch.no_grad():
        for p in source.parameters():
            p.add_(1.0)
    weight = target[0].weight
    before = weight._version
    result = target.load_state_dict(source.state_dict())
    assert repr(result) == "<All keys matched successfully>"
    assert result.missing_keys == [] and result.unexpected_keys == []
    assert target[0].weight is weight and weight._version == before + 1 and weight.requires_grad
    assert torch.equal(weight, source[0].weight)


def test_load_state_dict_reports_every_problem_at_once():
    state = {"weight": torch.zeros(3, 5), "extra": torch.zeros(1), "0.x": torch.ones(1)}
    message = ('Error(s) in loading state_dict for Linear:\n\tMissing key(s) in state_dict: '
               '"bias". \n\tUnexpected key(s) in state_dict: "extra", "0.x". \n\tsize mismatch '
               'for weight: copying a param with shape torch.Size([3, 5]) from checkpoint, the '
               'shape in current model is torch.Size([3, 4]).')
    with raises(RuntimeError, message):
        nn.Linear(4, 3).load_state_dict(state)
    loose = nn.Linear(4, 3).load_state_dict({"weight": torch.zeros(3, 4), "x": torch.zeros(1)},
                                            strict=False)
    assert repr(loose) == "_IncompatibleKeys(missing_keys=['bias'], unexpected_keys=['x'])"
    with raises(TypeError, "Expected state_dict to be dict-like, got <class 'list'>."):
        nn.Linear(2, 2).load_state_dict([1])
    with raises(RuntimeError, 'Error(s) in loading state_dict for Linear:\n\tWhile copying the '
                              'parameter named "weight", expected torch.Tensor or Tensor-like '
                              "object from checkpoint but received <class 'int'>"):
        nn.Linear(2, 2).load_state_dict({"weight": 3, "bias": torch.ones(2)})


def test_load_state_dict_can_assign_instead():
    layer = nn.Linear(2, 1)
    weight = torch.ones(1, 2)
    layer.load_state_dict({"weight": weight, "bias": torch.zeros(1)}, assign=True)
    assert isinstance(layer.weight, nn.Parameter) and layer.weight.requires_grad
    weight[0, 0] = 5.0
    assert layer.weight[0, 0].item() == 5.0


def test_apply_visits_children_first():
    seen = []
    model = nn.Sequential(nn.Linear(2, 2), nn.Sequential(nn.Tanh(), nn.ReLU()))
    assert model.apply(lambda m: seen.append(type(m).__name__)) is model
    assert seen == ["Linear", "Tanh", "ReLU", "Sequential", "Sequential"]


def test_dtype_conversions_keep_the_parameters():
    model = _model()
    params = list(model.parameters())
    assert model.double() is model
    assert all(p.dtype == torch.float64 for p in model.parameters())
    assert all(a is b for a, b in zip(params, model.parameters()))
    model.to(torch.float16)
    assert model[0].weight.dtype == torch.float16
    model.float()
    out = model(torch.ones(2, 3))
    assert out.dtype == torch.float32 and out.grad_fn is not None
    with raises(TypeError, "nn.Module.to only accepts floating point or complex dtypes, but "
                           "got desired dtype=torch.int64"):
        model.to(torch.int64)


def test_a_small_training_loop_learns():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(2, 16), nn.Tanh(), nn.Linear(16, 1))
    opt = torch.optim.Adam(model.parameters(), lr=0.05)
    x = torch.linspace(-1, 1, 32).reshape(16, 2)
    y = (x[:, :1] * 2 - x[:, 1:]).sin()
    losses = []
    for _ in range(60):
        opt.zero_grad()
        loss = nn.MSELoss()(model(x), y)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    assert losses[-1] < 0.05 * losses[0] and math.isfinite(losses[-1])
