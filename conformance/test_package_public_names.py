"""The __all__ lists of torch.nn.modules, torch.optim, torch.nn.init and torch.nn.utils: every
name listed can be imported from the package, and the names come in torch's order. The same
assertions run on torch."""

import pytest
import torch
import torch.nn.init
import torch.nn.modules
import torch.nn.utils

# module classes both have, each defined in a chapter of its own
_MODULE_CLASSES = [
    "AdaptiveAvgPool2d", "AvgPool1d", "BatchNorm2d", "CTCLoss", "ChannelShuffle", "Conv1d",
    "Conv2d", "Conv3d", "ConvTranspose2d", "Dropout", "Embedding", "EmbeddingBag", "Fold",
    "FractionalMaxPool2d", "GroupNorm", "InstanceNorm1d", "LPPool2d", "LayerNorm", "Linear",
    "MaxPool2d", "MaxUnpool2d", "Module", "ModuleDict", "PixelShuffle", "ReLU", "Sequential",
    "Unfold", "Upsample", "UpsamplingNearest2d", "ZeroPad2d",
]


def _in_order(listed, names):
    return [n for n in listed if n in names]


def test_nn_modules_lists_its_classes_sorted():
    listed = torch.nn.modules.__all__
    assert listed == sorted(listed) and len(set(listed)) == len(listed)
    assert set(_MODULE_CLASSES) <= set(listed)
    for name in listed:
        assert getattr(torch.nn.modules, name) is getattr(torch.nn, name)
    assert all(issubclass(getattr(torch.nn, n), torch.nn.Module) for n in _MODULE_CLASSES)


def test_a_star_import_brings_the_classes():
    names = {}
    exec("from torch.nn.modules import *", names)
    assert all(names[n] is getattr(torch.nn, n) for n in _MODULE_CLASSES)
    from torch.nn.modules import Conv2d, MaxPool2d, Upsample  # noqa: F401


def test_torch_optim_lists_lr_scheduler_among_the_optimizers():
    listed = torch.optim.__all__
    assert _in_order(listed, {"Adam", "AdamW", "lr_scheduler", "Optimizer", "SGD"}) == [
        "Adam", "AdamW", "lr_scheduler", "Optimizer", "SGD"]
    assert all(hasattr(torch.optim, n) for n in listed)


_OPTIM_ORDER = ["Adafactor", "Adadelta", "Adagrad", "Adam", "Adamax", "AdamW", "ASGD", "LBFGS",
                "lr_scheduler", "Muon", "NAdam", "Optimizer", "RAdam", "RMSprop", "Rprop", "SGD",
                "SparseAdam", "swap_in_optimizer_params_and_state", "swa_utils"]


def test_torch_optim_lists_every_optimizer_in_torchs_order():
    assert _in_order(torch.optim.__all__, set(_OPTIM_ORDER)) == _OPTIM_ORDER


def test_torch_nn_init_lists_the_fills_then_their_old_names():
    fills = ["calculate_gain", "uniform_", "normal_", "trunc_normal_", "constant_", "ones_",
             "zeros_", "eye_", "dirac_", "xavier_uniform_", "xavier_normal_",
             "kaiming_uniform_", "kaiming_normal_", "orthogonal_", "sparse_"]
    old = ["uniform", "normal", "constant", "eye", "dirac", "xavier_uniform", "xavier_normal",
           "kaiming_uniform", "kaiming_normal", "orthogonal", "sparse"]
    assert torch.nn.init.__all__ == fills + old
    assert all(callable(getattr(torch.nn.init, n)) for n in fills + old)


@pytest.mark.parametrize("names", [
    {"clip_grad_norm", "clip_grad_norm_", "clip_grads_with_norm_", "clip_grad_value_",
     "get_total_norm", "parameters_to_vector", "vector_to_parameters"}])
def test_torch_nn_utils_lists_its_helpers_in_torchs_order(names):
    assert _in_order(torch.nn.utils.__all__, names) == [
        "clip_grad_norm", "clip_grad_norm_", "clip_grads_with_norm_", "clip_grad_value_",
        "get_total_norm", "parameters_to_vector", "vector_to_parameters"]
    assert all(hasattr(torch.nn.utils, n) for n in torch.nn.utils.__all__)


def test_torch_nn_parameter_lists_its_classes():
    listed = torch.nn.parameter.__all__
    assert listed == ["Parameter", "UninitializedParameter", "is_lazy", "Buffer",
                      "UninitializedBuffer", "UninitializedTensorMixin"]
    names = {}
    exec("from torch.nn.parameter import *", names)
    assert names["Buffer"] is torch.nn.Buffer and names["is_lazy"](torch.nn.Parameter()) is False


def test_torch_nn_modules_conv_names_the_transposed_convolutions():
    from torch.nn.modules.conv import ConvTranspose2d, LazyConvTranspose3d

    assert ConvTranspose2d is torch.nn.ConvTranspose2d
    assert LazyConvTranspose3d is torch.nn.LazyConvTranspose3d


_DISTRIBUTIONS_ORDER = [
    "Bernoulli", "Beta", "Binomial", "Categorical", "Cauchy", "Chi2", "Dirichlet",
    "Distribution", "Exponential", "ExponentialFamily", "FisherSnedecor", "Gamma", "Geometric",
    "Gumbel", "HalfCauchy", "HalfNormal", "Independent", "InverseGamma", "Kumaraswamy",
    "Laplace", "LogNormal", "LogisticNormal", "LowRankMultivariateNormal", "MixtureSameFamily",
    "Multinomial", "MultivariateNormal", "NegativeBinomial", "Normal", "OneHotCategorical",
    "OneHotCategoricalStraightThrough", "Pareto", "RelaxedBernoulli",
    "RelaxedOneHotCategorical", "StudentT", "Poisson", "Uniform", "Weibull",
    "TransformedDistribution", "biject_to", "kl_divergence", "register_kl", "transform_to",
    "AbsTransform", "AffineTransform", "CatTransform", "ComposeTransform",
    "CorrCholeskyTransform", "CumulativeDistributionTransform", "ExpTransform",
    "IndependentTransform", "LowerCholeskyTransform", "PositiveDefiniteTransform",
    "PowerTransform", "ReshapeTransform", "SigmoidTransform", "SoftplusTransform",
    "TanhTransform", "SoftmaxTransform", "StackTransform", "StickBreakingTransform",
    "Transform", "identity_transform",
]


def test_torch_distributions_lists_its_families_in_torchs_order():
    listed = torch.distributions.__all__
    assert _in_order(listed, set(_DISTRIBUTIONS_ORDER)) == _DISTRIBUTIONS_ORDER
    assert "constraints" not in listed and all(hasattr(torch.distributions, n) for n in listed)
