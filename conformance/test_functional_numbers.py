"""Black-box tests: torch.nn.functional given what is not a number where its operator's
signature has one fails in the parser's words, a 0-d tensor is read as the number it holds,
and the numbers torch's Python compares first fail in that comparison. The same assertions
run on torch.
"""

import pytest
import torch
import torch.nn.functional as F

from conformance._support import raises

x, t = torch.tensor([[-1.0, 0.5], [2.0, -3.0]]), torch.tensor([0, 1])
one, two, half, index = torch.tensor([0.5]), torch.tensor([0.5, 1.0]), torch.tensor(0.5), \
    torch.tensor(1)
_REFUSED = [
    ("F.elu(x, alpha=one)", "elu(): argument 'alpha' (position 2) must be Number, not Tensor"),
    ("F.elu(x, two)", "elu(): argument 'alpha' (position 2) must be Number, not Tensor"),
    ("F.elu(x, 'a')", "elu(): argument 'alpha' (position 2) must be Number, not str"),
    ("F.elu(x, None)", "elu(): argument 'alpha' (position 2) must be Number, not NoneType"),
    ("F.celu(x, two)", "celu(): argument 'alpha' (position 2) must be Number, not Tensor"),
    ("F.leaky_relu(x, None)", "leaky_relu(): argument 'negative_slope' (position 2) must be "
     "Number, not NoneType"),
    ("F.softplus(x, beta=one)", "softplus(): argument 'beta' must be Number, not Tensor"),
    ("F.softplus(x, 1, None)", "softplus(): argument 'threshold' (position 3) must be Number, "
     "not NoneType"),
    ("F.hardtanh(x, one)", "hardtanh(): argument 'min_val' (position 2) must be Number, not "
     "Tensor"),
    ("F.threshold(x, two, 0.0)", "threshold(): argument 'threshold' (position 2) must be "
     "Number, not Tensor"),
    ("F.threshold(x, 0.0, 'a')", "threshold(): argument 'value' (position 3) must be Number, "
     "not str"),
    ("F.hardshrink(x, None)", "hardshrink(): argument 'lambd' (position 2) must be Number, not "
     "NoneType"),
    ("F.softshrink(x, two)", "softshrink(): argument 'lambd' (position 2) must be Number, not "
     "Tensor"),
    ("F.rrelu(x, 'a')", "rrelu(): argument 'lower' (position 2) must be Number, not str"),
    ("F.gelu(x, approximate=half)", "gelu(): argument 'approximate' must be str, not Tensor"),
    ("F.gelu(x, approximate=None)", "gelu(): argument 'approximate' must be str, not NoneType"),
    ("F.hinge_embedding_loss(x, x, margin=one)", "hinge_embedding_loss(): argument 'margin' "
     "(position 3) must be float, not Tensor"),
    ("F.hinge_embedding_loss(x, x, None)", "hinge_embedding_loss(): argument 'margin' "
     "(position 3) must be float, not NoneType"),
    ("F.margin_ranking_loss(x, x, x, margin=two)", "margin_ranking_loss(): argument 'margin' "
     "(position 4) must be float, not Tensor"),
    ("F.cosine_embedding_loss(x, x, t, 'a')", "cosine_embedding_loss(): argument 'margin' "
     "(position 4) must be float, not str"),
    ("F.triplet_margin_loss(x, x, x, margin=one)", "triplet_margin_loss(): argument 'margin' "
     "(position 4) must be float, not Tensor"),
    ("F.triplet_margin_loss(x, x, x, p=two)", "triplet_margin_loss(): argument 'p' "
     "(position 5) must be float, not Tensor"),
    ("F.huber_loss(x, x, delta=two)", "huber_loss(): argument 'delta' (position 4) must be "
     "float, not Tensor"),
    ("F.smooth_l1_loss(x, x, beta='a')", "smooth_l1_loss(): argument 'beta' (position 4) must "
     "be float, not str"),
    ("F.smooth_l1_loss(x, x, beta=one)", "smooth_l1_loss(): argument 'beta' (position 4) must "
     "be float, not Tensor"),
    ("F.multi_margin_loss(x, t, margin=None)", "multi_margin_loss(): argument 'margin' "
     "(position 4) must be Number, not NoneType"),
    ("F.pdist(x, p=one)", "pdist(): argument 'p' must be float, not Tensor"),
    ("F.pdist(x, None)", "pdist(): argument 'p' (position 2) must be float, not NoneType"),
    ("F.nll_loss(x, t, ignore_index=half)", "nll_loss_nd(): argument 'ignore_index' "
     "(position 5) must be int, not Tensor"),
    ("F.cross_entropy(x, t, ignore_index=1.0)", "cross_entropy_loss(): argument 'ignore_index' "
     "(position 5) must be int, not float"),
    ("F.cross_entropy(x, t, label_smoothing=one)", "cross_entropy_loss(): argument "
     "'label_smoothing' (position 6) must be float, not Tensor"),
    ("F.poisson_nll_loss(x, x, eps='a')", "poisson_nll_loss(): argument 'eps' (position 5) "
     "must be float, not str"),
    ("F.layer_norm(x, (2,), eps=None)", "layer_norm(): argument 'eps' (position 5) must be "
     "float, not NoneType"),
    ("F.group_norm(x, 1, eps=two)", "group_norm(): argument 'eps' (position 5) must be float, "
     "not Tensor"),
    ("F.batch_norm(x, None, None, training=True, momentum='a')", "batch_norm(): argument "
     "'momentum' (position 7) must be float, not str"),
    ("F.batch_norm(x, None, None, training=True, eps=one)", "batch_norm(): argument 'eps' "
     "(position 8) must be float, not Tensor"),
    ("F.instance_norm(x[None], eps=None)", "instance_norm(): argument 'eps' (position 8) must "
     "be float, not NoneType"),
    ("F.rms_norm(x, (2,), eps=two)", "rms_norm(): argument 'eps' (position 4) must be float, "
     "not Tensor"),
    ("F.pad(x, (1, 1), value=one)", "pad(): argument 'value' (position 4) must be float, not "
     "Tensor"),
    ("F.glu(x, half)", "glu(): argument 'dim' (position 2) must be int, not Tensor"),
    ("F.one_hot(t, None)", "one_hot(): argument 'num_classes' (position 2) must be int, not "
     "NoneType"),
    ("F.one_hot(t, num_classes=index[None])", "one_hot(): argument 'num_classes' must be int, "
     "not Tensor"),
    ("F.softmax(x, half)", "softmax(): argument 'dim' (position 1) must be int, not Tensor"),
    ("F.log_softmax(x, dim='a')", "log_softmax(): argument 'dim' (position 1) must be int, not "
     "str"),
    ("F.dropout(x, one)", "dropout(): argument 'p' (position 2) must be float, not Tensor"),
    ("F.alpha_dropout(x, one, True)", "alpha_dropout(): argument 'p' (position 2) must be "
     "float, not Tensor"),
    ("F.dropout1d(x, one)", "feature_dropout(): argument 'p' (position 2) must be float, not "
     "Tensor"),
]
# Numbers torch's Python compares before its operator sees them
_COMPARED = [
    ("F.dropout(x, 'a')", TypeError, "'<' not supported between instances of 'str' and 'float'"),
    ("F.dropout(x, two)", RuntimeError, "Boolean value of Tensor with more than one value is "
     "ambiguous"),
    ("F.hardtanh(x, None)", TypeError, "'>' not supported between instances of 'NoneType' and "
     "'float'"),
    ("F.triplet_margin_loss(x, x, x, margin='a')", TypeError, "'<=' not supported between "
     "instances of 'str' and 'int'"),
    ("F.smooth_l1_loss(x, x, beta=two)", RuntimeError, "Boolean value of Tensor with more than "
     "one value is ambiguous"),
    ("F.batch_norm(x, None, None, training=True, eps=None)", TypeError, "'<=' not supported "
     "between instances of 'NoneType' and 'float'"),
]


@pytest.mark.parametrize("call, message", _REFUSED)
def test_the_parser_refuses_what_is_not_its_number(call, message):
    with raises(TypeError, message):
        eval(call)


@pytest.mark.parametrize("call, kind, message", _COMPARED)
def test_a_number_compared_first_fails_in_the_comparison(call, kind, message):
    with raises(kind, message):
        eval(call)


@pytest.mark.parametrize("call, number", [
    ("F.elu(x, {})", 0.5), ("F.leaky_relu(x, {})", 0.5), ("F.softplus(x, 2, threshold={})", 1),
    ("F.threshold(x, {}, 7.0)", 0.5), ("F.softshrink(x, {})", 0.5), ("F.celu(x, {})", 0.5),
    ("F.hardtanh(x, {})", 0.5), ("F.hinge_embedding_loss(x, x.sign(), {})", 0.5),
    ("F.cosine_embedding_loss(x, x, t * 2 - 1, {})", 0.5),
    ("F.triplet_margin_loss(x, x, -x, {})", 0.5), ("F.huber_loss(x, -x, delta={})", 0.5),
    ("F.smooth_l1_loss(x, -x, beta={})", 0.5), ("F.layer_norm(x, (2,), eps={})", 0.5),
    ("F.group_norm(x, 1, eps={})", 0.5), ("F.rms_norm(x, (2,), eps={})", 0.5),
    ("F.pad(x, (1, 1), value={})", 0.5), ("F.cross_entropy(x, t, label_smoothing={})", 0.5),
    ("F.batch_norm(x, None, None, training=True, eps={})", 0.5),
    ("F.glu(torch.ones(2, 4), {})", 1), ("F.softmax(x, {})", 1), ("F.one_hot(t, {})", 3),
    ("F.nll_loss(x, t, ignore_index={})", 1),
])
def test_a_0d_tensor_is_read_as_its_number(call, number):
    held = torch.tensor(number)
    assert torch.equal(eval(call.format("held")), eval(call.format(repr(number))))
    held.requires_grad_(number == 0.5)
    if held.requires_grad:  # a tensor that requires grad is no number to the parser
        with pytest.raises(TypeError, match="must be (Number|float), not Tensor"):
            eval(call.format("held"))


def test_kl_div_warns_and_reads_its_reduction_before_the_parser_refuses():
    with pytest.warns(UserWarning, match="reduction: 'mean' divides the total loss"), \
            raises(TypeError, "kl_div(): argument 'target' (position 2) must be Tensor, not "
                   "NoneType"):
        F.kl_div(x, None)
    with raises(ValueError, "bogus is not a valid value for reduction"):
        F.kl_div(x, None, reduction="bogus")
