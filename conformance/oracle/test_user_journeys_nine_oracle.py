"""Oracle test: a small convolutional network trained a few steps agrees with torch's.

The network (reflect-padded and grouped convolutions, batch, group, instance and layer
norms, max pooling with indices and unpooling, pixel shuffle, bicubic resizing, adaptive
pooling) starts from the same NumPy weights in both libraries, trains with SGD (Nesterov)
and then AdamW, in float64, and must give torch's losses, parameters, gradients and
running statistics to rounding. (The first convolution has no bias, and neither norm
after the unpooling has an affine map. A batch or instance norm after the first two
cancels those parameters, whose gradients are then rounding noise that Adam would scale
up to whole steps; and one of the instance norm's weights gets a gradient that falls to
rounding noise after the first step, whose last bits differ from processor to processor
and which Adam scales up the same way. In float32 the two can
part further: the unpooled maps are mostly zeros, so the norms divide rounding noise by
nearly zero deviations, and Adam's first steps magnify that noise.)
"""

import numpy as np
import pytest
import torch

import refgrad
from conformance.oracle._bits import assert_walks_agree


def build(lib):
    nn, F = lib.nn, lib.nn.functional

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.c1 = nn.Conv2d(3, 8, 3, padding=1, padding_mode="reflect", bias=False)
            self.bn = nn.BatchNorm2d(8, momentum=None)
            self.pool = nn.MaxPool2d(2, return_indices=True)
            self.unpool = nn.MaxUnpool2d(2)
            self.gn = nn.GroupNorm(4, 8, affine=False)
            self.inorm = nn.InstanceNorm2d(8, track_running_stats=True)
            self.ps = nn.PixelShuffle(2)
            self.c2 = nn.Conv2d(2, 4, 3, padding="same", groups=2)
            self.ln = nn.LayerNorm([4, 8, 8])
            self.ap = nn.AdaptiveAvgPool2d((3, 3))
            self.fc = nn.Linear(36, 5)

        def forward(self, x):
            x = F.relu(self.bn(self.c1(x)))
            y, idx = self.pool(x)
            x = self.inorm(self.gn(self.unpool(y, idx, output_size=x.shape[-2:])))
            x = F.interpolate(self.ps(x), size=(8, 8), mode="bicubic", align_corners=True)
            return self.fc(self.ap(self.ln(self.c2(x))).flatten(1))

    return Net().double()


def walk(lib, optimizer):
    rng = np.random.default_rng(1)
    net = build(lib)
    with lib.no_grad():
        for p in net.parameters():
            p.copy_(lib.tensor(rng.standard_normal(tuple(p.shape)) * 0.3))
    x = lib.tensor(rng.standard_normal((4, 3, 8, 8)))
    target = lib.tensor(rng.integers(0, 5, 4))
    if optimizer == "sgd":
        opt = lib.optim.SGD(net.parameters(), lr=0.05, momentum=0.9, nesterov=True,
                            weight_decay=1e-3)
    else:
        opt = lib.optim.AdamW(net.parameters(), lr=1e-2, weight_decay=0.1)
    record = []
    for _ in range(3):
        opt.zero_grad()
        loss = lib.nn.functional.cross_entropy(net(x), target)
        loss.backward()
        opt.step()
        record.append(loss.detach().numpy().copy())
        record += [p.grad.numpy().copy() for p in net.parameters()]
    record += [p.detach().numpy().copy() for p in net.parameters()]
    record += [b.numpy().copy() for b in net.buffers()]
    net.eval()
    with lib.no_grad():
        record.append(net(x).numpy())
    return record


@pytest.mark.parametrize("optimizer", ["sgd", "adamw"])
def test_training_walk_matches_torch(optimizer):
    ours, theirs = walk(refgrad, optimizer), walk(torch, optimizer)
    assert_walks_agree(ours, theirs)
