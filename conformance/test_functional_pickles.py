"""torch.nn.functional's functions pickle by name, as themselves, so a module that keeps one
(a Transformer layer's activation) pickles too. The same assertions run on torch."""

import pickle

import torch
import torch.nn.functional as F


def test_functional_functions_pickle_as_themselves():
    for function in (F.relu, F.gelu, F.softmax, F.cross_entropy, F.threshold, F.linear):
        assert pickle.loads(pickle.dumps(function)) is function


def test_a_layer_keeping_a_function_pickles():
    layer = torch.nn.TransformerEncoderLayer(8, 2)
    assert pickle.loads(pickle.dumps(layer)).activation is F.relu
