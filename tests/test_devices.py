"""refgrad._ops.devices and the _backend seam, on a simulated device and on real CuPy."""

import contextlib
import subprocess
import sys

import numpy as np
import pytest

import refgrad
from refgrad import _backend
from refgrad.autograd.graph import save_on_cpu
from tests.devices import AVAILABLE, use


@pytest.fixture(params=AVAILABLE)
def device(request, monkeypatch):
    return use(request.param, monkeypatch)


def _gradients(a, b, hooks):
    a.grad = b.grad = None
    with hooks:
        y = ((a * b).sin() * a).sum()
    y.backward()
    return a.grad.cpu().numpy(), b.grad.cpu().numpy()


def test_cuda_moves_to_the_device_and_back(device):
    x = refgrad.tensor([1.0, 2.0], requires_grad=True)
    d = x.cuda()
    assert d.device == refgrad.device("cuda", 0) and d.is_cuda
    assert device == {"to_host": 0, "to_device": 1}
    assert d.cuda() is d and x.cpu() is x
    assert d.cpu().tolist() == [1.0, 2.0]
    with pytest.raises(TypeError, match="(?i)implicit conversion"):
        np.asarray(d._data)
    with pytest.raises(TypeError, match=(
            r"^can't convert cuda:0 device type tensor to numpy\. Use Tensor\.cpu\(\) to copy "
            r"the tensor to host memory first\.$")):
        d.numpy()


def _counted(hooks, counts, log):
    """Wrap the context's hooks to record the transfers each call makes."""
    pack, unpack = hooks.pack_hook, hooks.unpack_hook

    def measured(kind, fn, arg):
        before = dict(counts)
        result = fn(arg)
        log.append((kind, {k: counts[k] - before[k] for k in counts}, result))
        return result

    hooks.pack_hook = lambda t: measured("pack", pack, t)
    hooks.unpack_hook = lambda p: measured("unpack", unpack, p)
    return hooks


def test_save_on_cpu_moves_each_saved_tensor_off_and_back_once(device):
    a = refgrad.tensor([0.5, 1.0, 2.0], requires_grad=True).cuda()
    b = refgrad.tensor([1.5, -1.0, 0.25], requires_grad=True).cuda()
    a.retain_grad()
    b.retain_grad()
    plain = _gradients(a, b, contextlib.nullcontext())
    log = []
    got = _gradients(a, b, _counted(save_on_cpu(), device, log))
    # mul saves b and a, sin saves a*b, the second mul saves a and sin: 5 tensors.
    packs = [entry for entry in log if entry[0] == "pack"]
    unpacks = [entry for entry in log if entry[0] == "unpack"]
    assert len(packs) == len(unpacks) == 5
    for _, moved, (where, host) in packs:
        assert moved == {"to_host": 1, "to_device": 0}
        assert where == refgrad.device("cuda", 0) and host.device.type == "cpu"
    for _, moved, back in unpacks:
        assert moved == {"to_host": 0, "to_device": 1}
        assert back.device == refgrad.device("cuda", 0)
    np.testing.assert_allclose(got[0], plain[0])
    np.testing.assert_allclose(got[1], plain[1])


def test_pin_memory_true_pins_the_host_copies(device):
    a = refgrad.tensor([0.5, 1.0], requires_grad=True).cuda()
    seen = []
    hooks = save_on_cpu(pin_memory=True)
    pack = hooks.pack_hook
    hooks.pack_hook = lambda t: seen.append(pack(t)) or seen[-1]
    with hooks:
        y = (a * a).sum()
    y.backward()
    assert len(seen) == 2
    for where, host in seen:
        assert where == refgrad.device("cuda", 0)
        assert host.device.type == "cpu" and host.is_pinned()


def test_pinning_needs_a_device(monkeypatch):
    monkeypatch.setattr(_backend, "_cupy", lambda: None)  # as on a machine without CuPy
    x = refgrad.ones(2)
    assert not x.is_pinned() and not refgrad.cuda.is_available()
    with pytest.raises(RuntimeError, match="^Cannot access accelerator device when none"):
        x.pin_memory()
    with pytest.raises(RuntimeError, match="^pin_memory=True requires a CUDA or other"):
        refgrad.ones(2, pin_memory=True)


def test_pin_memory_copies_into_pinned_host_memory(device):
    x = refgrad.tensor([1.0, 2.0])
    pinned = x.pin_memory()
    assert pinned.is_pinned() and not x.is_pinned() and pinned.device.type == "cpu"
    assert pinned.pin_memory() is pinned and pinned[:1].is_pinned()
    assert not (pinned * 2).is_pinned()
    assert pinned.tolist() == [1.0, 2.0] and device == {"to_host": 0, "to_device": 0}


def test_factories_pin_on_request(device):
    assert refgrad.ones(2, pin_memory=True).is_pinned()
    made = refgrad.tensor([1.5, 2.5], pin_memory=True, requires_grad=True)
    assert made.is_pinned() and made.is_leaf and made.tolist() == [1.5, 2.5]
    with pytest.raises(RuntimeError, match="^Only dense CPU tensors can be pinned$"):
        refgrad.ones(2, device="cuda", pin_memory=True)
    ignored = refgrad.tensor([1.0], device="cuda", pin_memory=True)  # as torch.tensor does
    assert ignored.device == refgrad.device("cuda", 0) and not ignored.is_pinned()


def test_a_device_tensor_is_never_pinned_nor_pinnable(device):
    d = refgrad.ones(2).cuda()
    assert not d.is_pinned()
    with pytest.raises(RuntimeError, match="only dense CPU tensors can be pinned"):
        d.pin_memory()


def test_the_package_imports_without_cupy():
    # CuPy is imported only when a device is first asked about; with it missing
    # (None in sys.modules makes its import fail), refgrad still imports and works.
    script = (
        "import sys; import refgrad; assert 'cupy' not in sys.modules; "
        "sys.modules['cupy'] = None; assert not refgrad.cuda.is_available(); "
        "print((refgrad.ones(2, requires_grad=True) * 3).sum().item())"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "6.0\n"


def test_operands_on_two_devices_are_refused_with_torchs_message(device):
    on_device = refgrad.tensor([1.0, 2.0]).cuda()
    on_host = refgrad.tensor([3.0, 4.0])
    message = ("^Expected all tensors to be on the same device, but found at least two "
               "devices, cuda:0 and cpu!$")
    with pytest.raises(RuntimeError, match=message):
        on_device + on_host
    # torch names the operands' common device first: the GPU, whichever side it is on
    with pytest.raises(RuntimeError, match=message):
        on_host * on_device


def test_a_0d_host_tensor_joins_a_device_operation(device):
    on_device = refgrad.tensor([1.0, 2.0]).cuda()
    result = on_device * refgrad.tensor(3.0)
    assert result.device == refgrad.device("cuda", 0)
    assert result.cpu().tolist() == [3.0, 6.0]


def test_to_cuda_without_an_index_means_gpu_0(device):
    d = refgrad.tensor([1.0]).cuda()
    assert d.to("cuda") is d and d.to(refgrad.device("cuda")) is d


def test_get_device_and_the_legacy_type_names(device):
    x = refgrad.tensor([1.0, 2.0], requires_grad=True)
    d = x.cuda()
    assert (x.get_device(), d.get_device()) == (-1, 0)
    assert (x.type(), d.type()) == ("torch.FloatTensor", "torch.cuda.FloatTensor")
    assert d.double().type() == "torch.cuda.DoubleTensor"
    moved = x.type("torch.cuda.DoubleTensor")
    assert moved.device == refgrad.device("cuda", 0) and moved.dtype is refgrad.float64
    assert moved.grad_fn.name() == "ToCopyBackward0"
    back = d.type("torch.LongTensor")
    assert back.device.type == "cpu" and back.tolist() == [1, 2]
    assert d.type("torch.cuda.FloatTensor") is d and x.type(refgrad.float32) is x


def test_type_refuses_what_is_not_a_type():
    x = refgrad.ones(2)
    with pytest.raises(ValueError, match=r"^invalid type: 'torch\.cuda\.Float'$"):
        x.type("torch.cuda.Float")
    with pytest.raises(TypeError, match="^dtype must be a type, str, or dtype object$"):
        x.type(3)


def test_cuda_takes_only_a_gpu_and_an_existing_one(device):
    x = refgrad.ones(2)
    with pytest.raises(RuntimeError, match="^Invalid device, must be cuda device$"):
        x.cuda("cpu")
    assert refgrad.device(0) == refgrad.device("cuda", 0)
    count = _backend.array_module(refgrad.device("cuda")).cuda.runtime.getDeviceCount()
    with pytest.raises(refgrad.AcceleratorError, match="^CUDA error: invalid device ordinal$"):
        x.cuda(count)
    assert device == {"to_host": 0, "to_device": 0}


def test_a_bare_device_number_needs_a_gpu(monkeypatch):
    monkeypatch.setattr(_backend, "_cupy", lambda: None)
    with pytest.raises(RuntimeError, match="^Cannot access accelerator device when none"):
        refgrad.device(1)


def test_copy_between_devices_writes_in_place_and_sends_gradients_back(device):
    src = refgrad.tensor([1.0, 2.0], requires_grad=True)
    on_device = refgrad.zeros(2).cuda()
    before = on_device.data_ptr()
    on_device.copy_(src)
    assert on_device.device == refgrad.device("cuda", 0) and on_device.data_ptr() == before
    assert type(on_device.grad_fn).__name__ == "CopyBackwards"
    (on_device * 3).sum().backward()
    assert src.grad.device.type == "cpu" and src.grad.tolist() == [3.0, 3.0]
    host = refgrad.zeros(2)
    host.copy_(refgrad.tensor([4.0, 5.0]).cuda())
    assert host.device.type == "cpu" and host.tolist() == [4.0, 5.0]


def test_numpy_of_a_device_tensor_copies_only_when_forced(device):
    d = refgrad.tensor([1.0, 2.0], requires_grad=True).cuda()
    with pytest.raises(TypeError, match="^can't convert cuda:0 device type tensor to numpy"):
        d.detach().numpy()
    forced = d.numpy(force=True)
    assert isinstance(forced, np.ndarray) and forced.tolist() == [1.0, 2.0]


def test_a_list_of_tensors_must_share_one_device(device):
    on_device, on_host = refgrad.ones(2).cuda(), refgrad.zeros(2)
    message = ("^Expected all tensors to be on the same device, but got tensors is on {}, "
               "different from other tensors on {} \\(when checking argument in method "
               "wrapper_CUDA_cat\\)$")
    with pytest.raises(RuntimeError, match=message.format("cpu", "cuda:0")):
        refgrad.cat([on_device, on_host])
    with pytest.raises(RuntimeError, match=message.format("cuda:0", "cpu")):
        refgrad.cat([on_host, on_device])
    joined = refgrad.cat([on_device, on_device * 2])
    assert joined.device == refgrad.device("cuda", 0) and joined.tolist() == [1, 1, 2, 2]


def test_host_indices_index_a_device_tensor(device):
    d = refgrad.tensor([1.0, 2.0, 3.0], requires_grad=True).cuda()
    picked = d[refgrad.tensor([2, 0, 2])]
    assert picked.device == refgrad.device("cuda", 0) and picked.tolist() == [3.0, 1.0, 3.0]
    assert d[[True, False, True]].tolist() == [1.0, 3.0] and d[True].shape == (1, 3)
    picked.sum().backward()
    w = refgrad.zeros(3).cuda()
    w[[0, 2]] = refgrad.tensor([5.0, 6.0]).cuda()
    w[refgrad.tensor([1])] = 7.0
    with pytest.raises(RuntimeError, match="^Expected all tensors to be on the same device"):
        w[[0, 2]] = refgrad.tensor([5.0, 6.0])  # the values must be on the device
    with pytest.raises(TypeError, match="^can't assign a list to a torch.cuda.FloatTensor$"):
        w[[0, 2]] = [5.0, 6.0]
    assert w.device == refgrad.device("cuda", 0) and w.tolist() == [5.0, 7.0, 6.0]


def test_device_indices_do_not_index_a_host_tensor(device):
    with pytest.raises(RuntimeError, match=(
            r"^indices should be either on cpu or on the same device as the indexed tensor "
            r"\(cpu\)$")):
        refgrad.ones(3)[refgrad.tensor([0, 1]).cuda()]


def test_stack_is_refused_as_torchs_cat_is(device):
    with pytest.raises(RuntimeError, match=(
            r"^Expected all tensors to be on the same device, but got tensors is on cuda:0, "
            r"different from other tensors on cpu \(when checking argument in method "
            r"wrapper_CUDA_cat\)$")):
        refgrad.stack([refgrad.zeros(2), refgrad.ones(2).cuda()])


def test_where_takes_its_condition_by_torchs_device_rules(device):
    a, b = refgrad.ones(2).cuda(), refgrad.zeros(2).cuda()
    host_condition = refgrad.tensor([True, False])
    with pytest.raises(RuntimeError, match="^Expected all tensors to be on the same device, "
                       "but found at least two devices, cuda:0 and cpu!$"):
        refgrad.where(host_condition, a, b)
    assert refgrad.where(host_condition.cuda(), a, b).tolist() == [1.0, 0.0]
    assert refgrad.where(refgrad.tensor(True), a, b).device == refgrad.device("cuda", 0)


def test_masked_fill_and_gather_want_their_masks_and_indices_beside_the_input(device):
    d = refgrad.ones(2, 2).cuda()
    with pytest.raises(RuntimeError, match="^expected self and mask to be on the same device, "
                       "but got mask on cpu and self on cuda:0$"):
        d.masked_fill(refgrad.tensor([True, False]), 0.0)
    with pytest.raises(RuntimeError, match=(
            r"^Expected all tensors to be on the same device, but got index is on cpu, "
            r"different from other tensors on cuda:0 \(when checking argument in method "
            r"wrapper_CUDA_gather\)$")):
        d.gather(0, refgrad.tensor([[0, 1]]))
    assert d.gather(0, refgrad.tensor([[0, 1]]).cuda()).tolist() == [[1.0, 1.0]]


def _write_through_views(leaf):
    b = leaf * 1
    b[0].mul_(3)
    b.diagonal().add_(1)
    b.view(4)[1:3] = 5.0
    assert type(b.grad_fn).__name__ == "CopySlices"
    return (b * b).sum()


def test_writes_through_views_of_a_device_tensor_differentiate_as_on_the_host(device):
    values = [[0.5, -1.0], [2.0, 1.5]]
    on_host = refgrad.tensor(values, requires_grad=True)
    on_device = refgrad.tensor(values).cuda().requires_grad_()
    expected, got = _write_through_views(on_host), _write_through_views(on_device)
    expected.backward()
    got.backward()
    assert got.device == on_device.grad.device == refgrad.device("cuda", 0)
    assert got.item() == expected.item() and on_device.grad.tolist() == on_host.grad.tolist()


def test_forward_mode_tangents_stay_on_the_device(device):
    import refgrad.autograd.forward_ad as fwAD

    def tangent_of(x, t):
        with fwAD.dual_level():
            dual = fwAD.make_dual(x, t)
            out = fwAD.unpack_dual((dual * dual).sin()).tangent
            kept = fwAD.unpack_dual(dual).tangent
        return out, kept

    values = [[1.0, 2.0], [3.0, 4.0]]
    host = tangent_of(refgrad.tensor(values).t(), refgrad.ones(2, 2))
    moved = tangent_of(refgrad.tensor(values).cuda().t(), refgrad.ones(2, 2).cuda())
    for on_device, on_host in zip(moved, host):
        assert on_device.device == refgrad.device("cuda", 0)
        np.testing.assert_allclose(on_device.cpu().numpy(), on_host.numpy())


def test_a_masked_fill_where_device_elements_share_memory_takes_a_host_value(device):
    expanded = refgrad.zeros(3).cuda().expand(2, 3)
    mask = refgrad.tensor([True, False, False]).cuda()
    with pytest.warns(UserWarning, match="masked_fill_ on expanded tensors is deprecated"):
        expanded.masked_fill_(mask, refgrad.tensor(2.0))  # a 0-d value may stay on the host
    assert expanded.cpu().tolist() == [[2.0, 0.0, 0.0]] * 2


def test_large_ops_on_a_device_stay_on_the_device(device):
    default = refgrad.get_num_threads()
    refgrad.set_num_threads(4)  # large enough to be shared, were it on the host
    try:
        x = refgrad.ones(1 << 20, requires_grad=True).cuda()
        y = (x.sin() * x + x.exp()).sum()
        y.backward()
    finally:
        refgrad.set_num_threads(default)
    assert y.is_cuda
    assert np.allclose(y.cpu().item(), (np.sin(1.0) + np.e) * (1 << 20), rtol=1e-4)
