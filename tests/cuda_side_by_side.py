"""The same snippets under torch's CUDA build and under refgrad on CuPy, side by side.

Run it on a machine with a GPU, CuPy and a CUDA build of torch:

    PYTHONPATH=src python3 tests/cuda_side_by_side.py

Each snippet assigns its result to ``r``; the script prints SAME or DIFF with both
results (or both exceptions), then the pinned copies that save_on_cpu makes.
"""
# ruff: noqa: E501 - one snippet per line reads best
import warnings

import torch
from torch.autograd.graph import save_on_cpu as t_soc

import refgrad
from refgrad.autograd.graph import save_on_cpu as r_soc

SNIPPETS = r"""
r = T.tensor([1., 2.]).cuda()
r = T.tensor([1., 2.], device='cuda')
r = T.tensor([1., 2.], device='cuda', requires_grad=True) * 2
r = T.ones(2, device='cuda').sum()
r = T.tensor(3., device='cuda') + 1
r = T.ones(2, device='cuda', dtype=T.float16)
r = T.ones(2, device='cuda') == T.ones(2, device='cuda')
r = T.ones(2, device='cuda') + T.ones(2)
r = T.ones(2) * T.ones(2, device='cuda')
r = T.ones(2, device='cuda') * T.tensor(3.)
r = T.tensor(3.) * T.ones(2, device='cuda')
r = T.ones(2, device='cuda').numpy()
r = T.ones(2, device='cuda').tolist()
r = T.ones(1, device='cuda').item()
r = T.ones(2).pin_memory().is_pinned()
r = T.ones(2, pin_memory=True).is_pinned()
r = T.tensor([1., 2.], pin_memory=True).is_pinned()
r = T.ones(2, device='cuda').pin_memory()
r = T.ones(2, device='cuda').is_pinned()
r = T.ones(2).cuda().cpu().is_pinned()
r = T.ones(2).pin_memory().cuda(non_blocking=True)
r = T.ones(2).to('cuda', non_blocking=True).device
r = T.ones(2, device='cuda').to(T.float64)
r = T.zeros(2, device='cuda:0').device
r = T.ones(2).cuda(1)
r = T.ones(2).cuda('cpu')
r = T.cuda.is_available()
x = T.ones(2, requires_grad=True); y = x.cuda(); (y * 2).sum().backward(); r = (y.grad_fn.name(), x.grad)
x = T.ones(2, device='cuda', requires_grad=True); (x * x).sum().backward(); r = x.grad
x = T.ones(2, 2, device='cuda', requires_grad=True); r = x @ T.ones(2, device='cuda')
r = T.where(T.ones(2, device='cuda') > 0, T.ones(2, device='cuda'), 0.)
r = T.arange(3., device='cuda')[T.tensor([0, 2])]
r = T.ones(2, device='cuda').masked_fill(T.tensor([True, False]), 0.)
r = T.ones(2, device='cuda').copy_(T.zeros(2))
r = T.ones(2).copy_(T.zeros(2, device='cuda'))
x = T.ones(2, device='cuda', requires_grad=True); r = T.autograd.grad((x * 3).sum(), x)
x = T.ones(3, device='cuda', requires_grad=True); r = x.exp().sin().mean()
r = T.randn(2, device='cuda').device
r = T.zeros_like(T.ones(2, device='cuda'))
r = T.ones(2, device='cuda').new_zeros(3)
r = T.empty(2, device='cuda').shape
r = T.ones(2, device='cuda').clone().detach()
r = T.stack([T.ones(2, device='cuda'), T.zeros(2, device='cuda')])
r = T.cat([T.ones(2, device='cuda'), T.zeros(2)])
r = T.ones(2, device='cuda').expand(3, 2).contiguous()
r = T.ones(2, device='cuda').dtype, T.ones(2, device='cuda').is_cuda, T.ones(2, device='cuda').get_device()
r = T.ones(2).get_device()
r = T.ones(2, device='cuda').type()
r = T.ones(2, device='cuda').double().type()
r = T.ones(2, device='cuda').data_ptr() > 0
r = T.ones(2, device='cuda').element_size()
r = T.cat([T.zeros(2), T.ones(2, device='cuda')])
r = T.stack([T.ones(2, device='cuda'), T.zeros(2)])
r = T.stack([T.zeros(2), T.ones(2, device='cuda')])
r = T.ones(3, device='cuda')[T.tensor([True, False, True])]
r = T.ones(3, device='cuda').index_put_((T.tensor([0, 0]),), T.tensor(2., device='cuda'), accumulate=True)
r = T.where(T.tensor([True, False]), T.ones(2, device='cuda'), T.zeros(2, device='cuda'))
r = T.ones(2, device='cuda').masked_fill(T.tensor([True, False], device='cuda'), T.tensor(5.))
r = T.ones(2, 2, device='cuda').gather(0, T.tensor([[0, 1]]))
r = T.ones(2, device='cuda').type('torch.cuda.DoubleTensor')
r = T.ones(2).type('torch.cuda.FloatTensor')
r = T.ones(2).type('torch.cuda.Tensor')
r = T.device(0)
r = T.ones(2).to('cuda:1')
r = T.ones(2, device='cuda').numpy(force=True)
x = T.ones(2, requires_grad=True); h = T.zeros(2, device='cuda'); h.copy_(x); (h * 3).sum().backward(); r = (type(h.grad_fn).__name__, [n[0] and n[0].name() for n in h.grad_fn.next_functions], x.grad)
x = T.ones(2, device='cuda', requires_grad=True); y = (x * 2).unsqueeze(0).expand(3, 2).contiguous(); y.sum().backward(); r = (y, x.grad)
r = T.ones(3)[T.tensor([0, 1], device='cuda')]
r = T.ones(3).index_put_((T.tensor([0, 1], device='cuda'),), T.tensor(2.))
r = T.ones(3, device='cuda')[[True, False, True]]
w = T.zeros(3, device='cuda'); w[[0, 2]] = T.tensor([5., 6.]); r = w
w = T.zeros(3, device='cuda'); w[[0, 2]] = [5., 6.]; r = w
x = T.randn(4, 3, device='cuda', requires_grad=True); r = (x.clamp(-0.5, 0.5).sum() + x.amax(1).sum() + x.std()).grad_fn
r = T.ones(2, device='cuda', pin_memory=True)
r = T.tensor([1.], device='cuda', pin_memory=True)
r = T.ones(2).pin_memory().pin_memory().is_pinned()
p = T.ones(2).pin_memory(); r = p.pin_memory() is p
r = (T.ones(2).pin_memory() * 2).is_pinned()
r = T.ones(2).pin_memory()[:1].is_pinned()
r = T.ones(2, device='cuda').cpu().numpy().flags.writeable
"""


def run(T, src):
    """What one snippet gives: the repr of ``r``, or the exception's type and first line."""
    env = {"T": T}
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            exec(src, env)
        return repr(env.get("r"))
    except Exception as e:  # noqa: BLE001 - the exception is the result
        return f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"


def pinned_saves(T, save_on_cpu):
    """Where save_on_cpu(pin_memory=True) puts each saved tensor, and the gradient."""
    x = T.ones(3, device="cuda", requires_grad=True)
    seen = []
    hooks = save_on_cpu(pin_memory=True)
    pack = hooks.pack_hook
    hooks.pack_hook = lambda t: seen.append(pack(t)) or seen[-1]
    with hooks:
        y = (x * x.sin()).sum()
    y.backward()
    return [(str(d), str(p.device), p.is_pinned()) for d, p in seen], x.grad.tolist()


def main() -> None:
    same = 0
    lines = SNIPPETS.strip().splitlines()
    for line in lines:
        a, b = run(torch, line), run(refgrad, line)
        same += a == b
        if a == b:
            print(f"SAME {line}\n     {a}")
        else:
            print(f"DIFF {line}\n  torch:   {a}\n  refgrad: {b}")
    for T, save_on_cpu in ((torch, t_soc), (refgrad, r_soc)):
        print("pinned saves", T.__name__, pinned_saves(T, save_on_cpu))
    print(f"same {same}, different {len(lines) - same}; torch {torch.__version__}")


if __name__ == "__main__":
    main()
