"""Black-box tests: torch.nn.functional given what is not a tensor where a tensor is due fails
as torch does, before anything runs: in its parser's words where torch reaches an operator,
in Python's where torch's own Python reads an attribute first. The same assertions run on torch.
"""

import pytest
import torch
import torch.nn.functional as F

from conformance._support import raises

x, w, t = torch.rand(2, 3), torch.rand(4, 3), torch.tensor([0, 1])
v = torch.rand(3)
_PARSER = [
    ("F.linear(x, None)", "linear(): argument 'weight' (position 2) must be Tensor, not NoneType"),
    ("F.linear(None, w)", "linear(): argument 'input' (position 1) must be Tensor, not NoneType"),
    ("F.linear(x, w, 3)", "linear(): argument 'bias' (position 3) must be Tensor, not int"),
    ("F.linear(x, [[1.0]])", "linear(): argument 'weight' (position 2) must be Tensor, not list"),
    ("F.linear(x, w, bias=[1.0])", "linear(): argument 'bias' must be Tensor, not list"),
    ("F.linear(x, weight=None)", "linear(): argument 'weight' must be Tensor, not NoneType"),
    ("F.linear(None, None)", "linear(): argument 'input' (position 1) must be Tensor, not "
     "NoneType"),
    ("F.gelu(input=None)", "gelu(): argument 'input' must be Tensor, not NoneType"),
    ("F.logsigmoid(3)", "log_sigmoid(): argument 'input' (position 1) must be Tensor, not int"),
    ("F.relu(3)", "relu(): argument 'input' (position 1) must be Tensor, not int"),
    ("F.relu(input=None)", "relu(): argument 'input' (position 1) must be Tensor, not NoneType"),
    ("F.leaky_relu([1.0])", "leaky_relu(): argument 'input' (position 1) must be Tensor, not list"),
    ("F.dropout(None)", "dropout(): argument 'input' (position 1) must be Tensor, not NoneType"),
    ("F.prelu(x, 3)", "prelu(): argument 'weight' (position 2) must be Tensor, not int"),
    ("F.embedding(t, None)", "embedding(): argument 'weight' (position 1) must be Tensor, not "
     "NoneType"),
    ("F.embedding(3, w)", "embedding(): argument 'indices' (position 2) must be Tensor, not int"),
    ("F.embedding(None, None)", "embedding(): argument 'weight' (position 1) must be Tensor, not "
     "NoneType"),
    ("F.nll_loss(x, None)", "nll_loss_nd(): argument 'target' (position 2) must be Tensor, not "
     "NoneType"),
    ("F.nll_loss(x, t, weight=3)", "nll_loss_nd(): argument 'weight' (position 3) must be "
     "Tensor, not int"),
    ("F.cross_entropy(x, [0, 1])", "cross_entropy_loss(): argument 'target' (position 2) must "
     "be Tensor, not list"),
    ("F.kl_div(x, None, reduction='sum')", "kl_div(): argument 'target' (position 2) must be "
     "Tensor, not NoneType"),
    ("F.batch_norm(x, 3, None)", "batch_norm(): argument 'running_mean' (position 4) must be "
     "Tensor, not int"),
    ("F.batch_norm(x, None, None, 3, training=True)", "batch_norm(): argument 'weight' "
     "(position 2) must be Tensor, not int"),
    ("F.layer_norm(x, (3,), bias=3)", "layer_norm(): argument 'bias' (position 4) must be "
     "Tensor, not int"),
    ("F.group_norm(torch.rand(2, 4), 2, weight=3)", "group_norm(): argument 'weight' "
     "(position 3) must be Tensor, not int"),
    ("F.binary_cross_entropy_with_logits(v, v, pos_weight=3)", "binary_cross_entropy_with_"
     "logits(): argument 'pos_weight' (position 4) must be Tensor, not int"),
    ("F.cosine_similarity(x1=None, x2=x)", "cosine_similarity(): argument 'x1' must be Tensor, "
     "not NoneType"),
    ("F.triplet_margin_loss(x, x, None)", "triplet_margin_loss(): argument 'negative' "
     "(position 3) must be Tensor, not NoneType"),
    ("F.bilinear(x, x, torch.rand(4, 3, 3), 3)", "bilinear(): argument 'bias' (position 4) must "
     "be Tensor, not int"),
    ("F.pad(None, (1, 1))", "pad(): argument 'input' (position 1) must be Tensor, not NoneType"),
    ("F.avg_pool2d(input=None, kernel_size=2)", "avg_pool2d(): argument 'input' must be Tensor, "
     "not NoneType"),
    ("F.multilabel_soft_margin_loss(None, x)", "log_sigmoid(): argument 'input' (position 1) "
     "must be Tensor, not NoneType"),
]
_PYTHON = [
    ("F.log_softmax(None, dim=0)", "'NoneType' object has no attribute 'log_softmax'"),
    ("F.softmax(3, 0)", "'int' object has no attribute 'softmax'"),
    ("F.sigmoid(3)", "'int' object has no attribute 'sigmoid'"),
    ("F.tanh([1.0])", "'list' object has no attribute 'tanh'"),
    ("F.softsign(None)", "'NoneType' object has no attribute 'abs'"),
    ("F.glu(None)", "'NoneType' object has no attribute 'dim'"),
    ("F.dropout2d(None)", "'NoneType' object has no attribute 'dim'"),
    ("F.mse_loss(x, None)", "'NoneType' object has no attribute 'size'"),
    ("F.l1_loss(None, x)", "'NoneType' object has no attribute 'size'"),
    ("F.binary_cross_entropy(v, v, weight=3)", "'int' object has no attribute 'size'"),
    ("F.margin_ranking_loss(v, v, None)", "'NoneType' object has no attribute 'dim'"),
    ("F.adaptive_avg_pool2d(None, 2)", "'NoneType' object has no attribute 'size'"),
    ("F.instance_norm(None)", "'NoneType' object has no attribute 'size'"),
    ("F.group_norm(None, 2)", "'NoneType' object has no attribute 'dim'"),
    ("F.normalize(None)", "'NoneType' object has no attribute 'norm'"),
]


@pytest.mark.parametrize("call, message", _PARSER)
def test_the_parser_names_the_operator_and_the_argument(call, message):
    with raises(TypeError, message):
        eval(call)


@pytest.mark.parametrize("call, message", _PYTHON)
def test_python_code_fails_on_the_attribute_it_reads(call, message):
    with raises(AttributeError, message):
        eval(call)


def test_none_passes_where_a_tensor_is_optional():
    assert F.linear(x, w, None).shape == (2, 4)
    assert F.nll_loss(x, t, None).shape == ()
    assert F.layer_norm(x, (3,), None, None).shape == (2, 3)
    assert F.batch_norm(x, None, None, training=True).shape == (2, 3)
    assert F.binary_cross_entropy(v, v.clamp(0, 1), weight=None).shape == ()
