"""nn.DataParallel where no GPU is found: it keeps its module and calls it."""

import pytest
import torch
from torch import nn

from conformance._support import raises


def _linear():
    torch.manual_seed(0)
    return nn.Linear(3, 2)


@pytest.mark.parametrize("options", [{}, {"device_ids": [0, 1], "output_device": 1, "dim": 1},
                                     {"device_ids": []}])
def test_the_wrapper_keeps_the_module_and_no_devices(options):
    inner = _linear()
    wrapped = nn.DataParallel(inner, **options)
    assert wrapped.module is inner and wrapped.device_ids == []
    for absent in ("output_device", "dim", "src_device_obj"):
        assert absent not in vars(wrapped)
    assert nn.DataParallel is nn.parallel.DataParallel
    assert type(wrapped).__module__.endswith("nn.parallel.data_parallel")
    assert repr(wrapped) == "DataParallel(\n  (module): " + repr(inner) + "\n)"
    typed = nn.DataParallel[nn.Linear]  # the class is generic in the module it wraps
    assert repr(typed) == (f"{nn.DataParallel.__module__}.DataParallel"
                           f"[{nn.Linear.__module__}.Linear]")
    assert type(typed(inner)) is nn.DataParallel


def test_the_forward_calls_the_module_with_its_arguments():
    inner = _linear()
    wrapped = nn.DataParallel(inner)
    x = torch.randn(4, 3, requires_grad=True)
    y = wrapped(x)
    assert torch.equal(y, inner(x)) and type(y.grad_fn).__name__ == "AddmmBackward0"
    assert torch.equal(wrapped(input=x), y)
    y.sum().backward()
    assert torch.equal(inner.weight.grad, x.detach().sum(0).expand(2, 3))


def test_the_module_s_names_gain_a_prefix():
    wrapped = nn.DataParallel(_linear())
    assert list(wrapped.state_dict()) == ["module.weight", "module.bias"]
    assert [n for n, _ in wrapped.named_parameters()] == ["module.weight", "module.bias"]
    other = nn.DataParallel(nn.Linear(3, 2))
    result = other.load_state_dict(wrapped.state_dict())
    assert result.missing_keys == [] and result.unexpected_keys == []
    assert torch.equal(other.module.weight, wrapped.module.weight)
    plain = nn.Linear(3, 2)
    with pytest.raises(RuntimeError, match='Missing key\\(s\\) in state_dict: "weight", "bias"'):
        plain.load_state_dict(wrapped.state_dict())


def test_train_and_eval_reach_the_module():
    wrapped = nn.DataParallel(nn.Sequential(nn.Dropout(0.5)))
    wrapped.eval()
    assert not wrapped.training and not wrapped.module[0].training
    x = torch.ones(8)
    assert torch.equal(wrapped(x), x)


def test_the_forward_is_named_in_the_profiler():
    wrapped = nn.DataParallel(_linear())
    x = torch.ones(1, 3)
    with torch.profiler.profile() as prof:
        wrapped(x)
    names = [e.name for e in prof.events()]
    assert "DataParallel.forward" in names and "aten::addmm" in names


def test_the_functional_form_and_the_distributed_wrapper_are_refused():
    with raises(RuntimeError, "device type could not be determined"):
        nn.parallel.data_parallel(_linear(), torch.ones(1, 3))
    with raises(RuntimeError, "device type could not be determined"):
        nn.parallel.data_parallel(_linear(), torch.ones(1, 3), device_ids=[0])
    for module in (_linear(), nn.ReLU()):
        with raises(ValueError, "Default process group has not been initialized, please make "
                    "sure to call init_process_group."):
            nn.parallel.DistributedDataParallel(module)
    from torch.nn.parallel import DistributedDataParallel
    from torch.nn.parallel.distributed import DistributedDataParallel as same

    assert DistributedDataParallel is same
