"""The layouts the smooth gradients' kernels give, and a leaf's .grad after them.

Each case lays out the input, the incoming gradient and a loss's target row-major
(c), transposed (t) or broadcast from a row (e), and takes the gradient twice: with
create_graph, where the kernel's own result is the gradient, and into a fresh leaf's
.grad, which torch copies into the leaf's layout when the kernel's differs (a copy
that counts as a write, version 1). torch's numbers are in LAYOUTS.
"""

import pytest
import torch
import torch.nn.functional as F

D = torch.float64


def laid_out(kind):
    base = torch.arange(12, dtype=D) * 0.07 + 0.1
    if kind == "c":
        return base.reshape(3, 4)
    if kind == "t":
        return base.reshape(4, 3).t()
    return (base[:4] * 1).expand(3, 4)


def _call(name, target):
    return {
        "gelu": F.gelu, "ls": F.logsigmoid, "glu": lambda v: F.glu(v, 1),
        "sm": lambda v: F.soft_margin_loss(v, target, reduction="none"),
        "bce": lambda v: F.binary_cross_entropy(v, target * 0.5, reduction="none"),
    }[name]


# (name, input, incoming gradient and target layouts): torch's (gradient strides,
# .grad strides, .grad version)
LAYOUTS = {
    ('bce', 'ccc'): ((4, 1), (4, 1), 0),
    ('bce', 'cce'): ((4, 1), (4, 1), 0),
    ('bce', 'cct'): ((4, 1), (4, 1), 0),
    ('bce', 'cec'): ((4, 1), (4, 1), 0),
    ('bce', 'cee'): ((4, 1), (4, 1), 0),
    ('bce', 'cet'): ((4, 1), (4, 1), 0),
    ('bce', 'ctc'): ((4, 1), (4, 1), 0),
    ('bce', 'cte'): ((4, 1), (4, 1), 0),
    ('bce', 'ctt'): ((4, 1), (4, 1), 0),
    ('bce', 'tcc'): ((1, 3), (1, 3), 0),
    ('bce', 'tce'): ((1, 3), (1, 3), 0),
    ('bce', 'tct'): ((1, 3), (1, 3), 0),
    ('bce', 'tec'): ((1, 3), (1, 3), 0),
    ('bce', 'tee'): ((1, 3), (1, 3), 0),
    ('bce', 'tet'): ((1, 3), (1, 3), 0),
    ('bce', 'ttc'): ((1, 3), (1, 3), 0),
    ('bce', 'tte'): ((1, 3), (1, 3), 0),
    ('bce', 'ttt'): ((1, 3), (1, 3), 0),
    ('gelu', 'ccc'): ((4, 1), (4, 1), 0),
    ('gelu', 'cec'): ((4, 1), (4, 1), 0),
    ('gelu', 'ctc'): ((1, 3), (4, 1), 1),
    ('gelu', 'tcc'): ((4, 1), (1, 3), 1),
    ('gelu', 'tec'): ((1, 3), (1, 3), 0),
    ('gelu', 'ttc'): ((1, 3), (1, 3), 0),
    ('glu', 'ccc'): ((4, 1), (4, 1), 0),
    ('glu', 'cec'): ((4, 1), (4, 1), 0),
    ('glu', 'ctc'): ((4, 1), (4, 1), 0),
    ('glu', 'tcc'): ((4, 1), (1, 3), 1),
    ('glu', 'tec'): ((4, 1), (1, 3), 1),
    ('glu', 'ttc'): ((4, 1), (1, 3), 1),
    ('ls', 'ccc'): ((4, 1), (4, 1), 0),
    ('ls', 'cec'): ((4, 1), (4, 1), 0),
    ('ls', 'ctc'): ((1, 3), (4, 1), 1),
    ('ls', 'tcc'): ((4, 1), (1, 3), 1),
    ('ls', 'tec'): ((4, 1), (1, 3), 1),
    ('ls', 'ttc'): ((1, 3), (1, 3), 0),
    ('sm', 'ccc'): ((4, 1), (4, 1), 0),
    ('sm', 'cce'): ((4, 1), (4, 1), 0),
    ('sm', 'cct'): ((1, 3), (4, 1), 1),
    ('sm', 'cec'): ((4, 1), (4, 1), 0),
    ('sm', 'cee'): ((4, 1), (4, 1), 0),
    ('sm', 'cet'): ((1, 3), (4, 1), 1),
    ('sm', 'ctc'): ((4, 1), (4, 1), 0),
    ('sm', 'cte'): ((4, 1), (4, 1), 0),
    ('sm', 'ctt'): ((1, 3), (4, 1), 1),
    ('sm', 'tcc'): ((4, 1), (1, 3), 1),
    ('sm', 'tce'): ((4, 1), (1, 3), 1),
    ('sm', 'tct'): ((1, 3), (1, 3), 0),
    ('sm', 'tec'): ((4, 1), (1, 3), 1),
    ('sm', 'tee'): ((4, 1), (1, 3), 1),
    ('sm', 'tet'): ((1, 3), (1, 3), 0),
    ('sm', 'ttc'): ((4, 1), (1, 3), 1),
    ('sm', 'tte'): ((4, 1), (1, 3), 1),
    ('sm', 'ttt'): ((1, 3), (1, 3), 0),
}


@pytest.mark.parametrize(("name", "layouts"), sorted(LAYOUTS))
def test_the_gradients_layout(name, layouts):
    x = laid_out(layouts[0])
    x = (x.clone() if layouts[0] == "c" else x).requires_grad_()
    f = _call(name, laid_out(layouts[2]))
    y = f(x)
    upstream = laid_out(layouts[1])
    upstream = upstream if y.shape == upstream.shape else upstream[:, :2]
    (g,) = torch.autograd.grad(y, x, upstream, create_graph=True)
    fresh = x.detach().requires_grad_()
    f(fresh).backward(upstream)
    assert (g.stride(), fresh.grad.stride(), fresh.grad._version) == LAYOUTS[name, layouts]
