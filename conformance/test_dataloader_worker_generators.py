"""A worker's torch generator across batches: normal draws carried over, its state read and
put back inside the worker, and the main process's generator untouched by them."""

import torch
from torch.utils.data import DataLoader, Dataset, get_worker_info


class Draws(Dataset):
    """Sample i: the worker's id, a normal draw, and a draw that a saved state repeats."""

    def __getitem__(self, i):
        normal = torch.randn(()).item()
        saved = torch.get_rng_state()
        first = torch.rand(()).item()
        torch.set_rng_state(saved)
        again = torch.rand(()).item()
        return get_worker_info().id, normal, first, again

    def __len__(self):
        return 6


def _base_seed(seed):
    return torch.empty((), dtype=torch.int64).random_(
        generator=torch.Generator().manual_seed(seed)).item()


def test_worker_generators_carry_their_state_from_batch_to_batch():
    torch.manual_seed(3)
    expected_main = torch.randn(5)
    torch.manual_seed(3)
    batches = list(DataLoader(Draws(), batch_size=1, num_workers=2,
                              generator=torch.Generator().manual_seed(11)))
    assert torch.equal(torch.randn(5), expected_main)
    base = _base_seed(11)
    for worker in (0, 1):
        mine = [b for b in batches if b[0].item() == worker]
        own = torch.Generator().manual_seed(base + worker)
        expected = []
        for _ in mine:
            normal = torch.randn((), generator=own).item()
            draw = torch.rand((), generator=own).item()
            expected.append((normal, draw, draw))
        assert [(b[1].item(), b[2].item(), b[3].item()) for b in mine] == expected
