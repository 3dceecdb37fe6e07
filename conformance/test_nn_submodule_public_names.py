"""The __all__ lists of torch.nn.modules.loss, linear, normalization, container, batchnorm,
adaptive and linear_cross_entropy_options: torch's names in torch's order, each importable from
its module and the same class as torch.nn's. The same assertions run on torch."""

import importlib

import pytest
import torch
import torch.nn as nn

LISTS = {
    "loss": ["L1Loss", "NLLLoss", "NLLLoss2d", "PoissonNLLLoss", "GaussianNLLLoss", "KLDivLoss",
             "MSELoss", "BCELoss", "BCEWithLogitsLoss", "HingeEmbeddingLoss",
             "MultiLabelMarginLoss", "SmoothL1Loss", "HuberLoss", "SoftMarginLoss",
             "CrossEntropyLoss", "LinearCrossEntropyLoss", "MultiLabelSoftMarginLoss",
             "CosineEmbeddingLoss", "MarginRankingLoss", "MultiMarginLoss", "TripletMarginLoss",
             "TripletMarginWithDistanceLoss", "CTCLoss"],
    "linear": ["Bilinear", "Identity", "LazyLinear", "Linear"],
    "normalization": ["LocalResponseNorm", "CrossMapLRN2d", "LayerNorm", "GroupNorm", "RMSNorm"],
    "container": ["Container", "Sequential", "ModuleList", "ModuleDict", "ParameterList",
                  "ParameterDict"],
    "batchnorm": ["BatchNorm1d", "LazyBatchNorm1d", "BatchNorm2d", "LazyBatchNorm2d",
                  "BatchNorm3d", "LazyBatchNorm3d", "SyncBatchNorm"],
    "adaptive": ["AdaptiveLogSoftmaxWithLoss"],
    "linear_cross_entropy_options": ["LinearCrossEntropyOptions"],
}


@pytest.mark.parametrize("name", list(LISTS))
def test_each_module_lists_torchs_names_in_torchs_order(name):
    module = importlib.import_module(f"{torch.__name__}.nn.modules.{name}")
    assert module.__all__ == LISTS[name]
    for listed in module.__all__:
        assert getattr(module, listed) is getattr(nn, listed) is getattr(nn.modules, listed)


def test_a_star_import_of_the_loss_module_brings_ctc_loss():
    names = {}
    exec(f"from {torch.__name__}.nn.modules.loss import *", names)
    assert names["CTCLoss"] is nn.CTCLoss and names["NLLLoss2d"] is nn.NLLLoss2d
    assert "_Loss" not in names


def test_the_new_names_are_in_the_package_lists():
    new = ["AdaptiveLogSoftmaxWithLoss", "Bilinear", "Container", "CosineEmbeddingLoss",
           "CrossMapLRN2d", "GaussianNLLLoss", "HingeEmbeddingLoss", "LinearCrossEntropyLoss",
           "LinearCrossEntropyOptions", "MultiLabelMarginLoss", "MultiLabelSoftMarginLoss",
           "MultiMarginLoss", "NLLLoss2d", "PoissonNLLLoss", "SoftMarginLoss", "SyncBatchNorm",
           "TripletMarginWithDistanceLoss"]
    assert set(new) <= set(nn.modules.__all__)
    assert all(hasattr(nn, n) for n in new)
    assert callable(torch.nn.functional.linear_cross_entropy)
