"""The __all__ lists of torch.nn.modules' submodules (loss, linear, normalization, container,
batchnorm, adaptive, activation, conv, pooling, dropout, sparse, utils, ...): torch's names in
torch's order, each importable from its module and, for a class, the same class as torch.nn's.
The same assertions run on torch."""

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
    "activation": ["Threshold", "ReLU", "RReLU", "Hardtanh", "ReLU6", "Sigmoid", "Hardsigmoid",
                   "Tanh", "SiLU", "Mish", "Hardswish", "ELU", "CELU", "SELU", "GLU", "GELU",
                   "Hardshrink", "LeakyReLU", "LogSigmoid", "Softplus", "Softshrink",
                   "MultiheadAttention", "PReLU", "Softsign", "Tanhshrink", "Softmin", "Softmax",
                   "Softmax2d", "LogSoftmax"],
    "conv": ["Conv1d", "Conv2d", "Conv3d", "ConvTranspose1d", "ConvTranspose2d",
             "ConvTranspose3d", "LazyConv1d", "LazyConv2d", "LazyConv3d", "LazyConvTranspose1d",
             "LazyConvTranspose2d", "LazyConvTranspose3d"],
    "distance": ["PairwiseDistance", "CosineSimilarity"],
    "fold": ["Fold", "Unfold"],
    "module": ["register_module_forward_pre_hook", "register_module_forward_hook",
               "register_module_full_backward_pre_hook", "register_module_backward_hook",
               "register_module_full_backward_hook", "register_module_buffer_registration_hook",
               "register_module_module_registration_hook",
               "register_module_parameter_registration_hook", "Module"],
    "padding": ["CircularPad1d", "CircularPad2d", "CircularPad3d", "ConstantPad1d",
                "ConstantPad2d", "ConstantPad3d", "ReflectionPad1d", "ReflectionPad2d",
                "ReflectionPad3d", "ReplicationPad1d", "ReplicationPad2d", "ReplicationPad3d",
                "ZeroPad1d", "ZeroPad2d", "ZeroPad3d"],
    "pooling": ["MaxPool1d", "MaxPool2d", "MaxPool3d", "MaxUnpool1d", "MaxUnpool2d",
                "MaxUnpool3d", "AvgPool1d", "AvgPool2d", "AvgPool3d", "FractionalMaxPool2d",
                "FractionalMaxPool3d", "LPPool1d", "LPPool2d", "LPPool3d", "AdaptiveMaxPool1d",
                "AdaptiveMaxPool2d", "AdaptiveMaxPool3d", "AdaptiveAvgPool1d",
                "AdaptiveAvgPool2d", "AdaptiveAvgPool3d"],
    "upsampling": ["Upsample", "UpsamplingNearest2d", "UpsamplingBilinear2d"],
    "channelshuffle": ["ChannelShuffle"],
    "dropout": ["Dropout", "Dropout1d", "Dropout2d", "Dropout3d", "AlphaDropout",
                "FeatureAlphaDropout"],
    "flatten": ["Flatten", "Unflatten"],
    "pixelshuffle": ["PixelShuffle", "PixelUnshuffle"],
    "sparse": ["Embedding", "EmbeddingBag"],
    "utils": ["consume_prefix_in_state_dict_if_present"],
    "instancenorm": ["InstanceNorm1d", "InstanceNorm2d", "InstanceNorm3d", "LazyInstanceNorm1d",
                     "LazyInstanceNorm2d", "LazyInstanceNorm3d"],
    "rnn": ["RNNBase", "RNN", "LSTM", "GRU", "RNNCellBase", "RNNCell", "LSTMCell", "GRUCell"],
    "transformer": ["Transformer", "TransformerEncoder", "TransformerDecoder",
                    "TransformerEncoderLayer", "TransformerDecoderLayer"],
    "lazy": ["LazyModuleMixin"],
}


@pytest.mark.parametrize("name", list(LISTS))
def test_each_module_lists_torchs_names_in_torchs_order(name):
    module = importlib.import_module(f"{torch.__name__}.nn.modules.{name}")
    assert module.__all__ == LISTS[name]
    for listed in module.__all__:
        if listed == "LazyModuleMixin":  # the one class torch.nn does not name
            assert getattr(module, listed) is torch.nn.modules.lazy.LazyModuleMixin
        elif listed[0].isupper():
            assert getattr(module, listed) is getattr(nn, listed) is getattr(nn.modules, listed)
        else:
            assert callable(getattr(module, listed))


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


def test_consume_prefix_strips_a_wrappers_prefix_in_place():
    from torch.nn.modules.utils import consume_prefix_in_state_dict_if_present

    state = nn.Sequential(nn.Linear(2, 2)).state_dict()
    wrapped = type(state)((f"module.{k}", v) for k, v in state.items())
    wrapped["kept"] = torch.ones(1)
    wrapped._metadata = {"": {"version": 1}, "module": {"a": 1}, "module.0": {"b": 2}, "other": {}}
    assert consume_prefix_in_state_dict_if_present(wrapped, "module.") is None
    assert list(wrapped) == ["kept", "0.weight", "0.bias"]
    assert wrapped._metadata == {"": {"a": 1}, "other": {}, "0": {"b": 2}}
    assert list(wrapped._metadata) == ["", "other", "0"]
    plain = {"module.x": 1, "y": 2}
    consume_prefix_in_state_dict_if_present(plain, "module.")
    assert plain == {"y": 2, "x": 1}
