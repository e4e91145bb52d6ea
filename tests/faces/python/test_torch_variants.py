"""rave.torch with variants and the Dynamic Residual Tree's inputs: RavenStream and RavenFolder take every
option rave.generate takes, yield the fields asked for, and a CNN+DRT trains on them from Python."""
import numpy as np
import pytest

import rave

torch = pytest.importorskip("torch")
from torch.utils.data import DataLoader  # noqa: E402

from rave.torch import DRT_FIELDS, FIELDS, RavenFolder, RavenStream  # noqa: E402

SYMBOLIC = ("target", "meta_target", "meta_matrix", "meta_structure", "drt_labels", "drt_indicator", "config")


def by_index(loader):
    """{global index: the sample's tensors} over a loader of whole batches whose last field is the index."""
    out = {}
    for batch in loader:
        for i, g in enumerate(batch[-1].tolist()):
            assert g not in out
            out[g] = tuple(t[i].clone() for t in batch[:-1])
    return out


def test_a_large_symbolic_variant_streams_deterministically_from_two_workers():
    def run(workers):
        stream = RavenStream(configs=["center", "3x3", "oig"], seed=4, length=12, batch_size=3, grid=10, values=100,
                             confounders=3, fields=SYMBOLIC, return_index=True)
        return by_index(DataLoader(stream, batch_size=None, num_workers=workers))
    first, again, alone = run(2), run(2), run(0)
    assert sorted(first) == list(range(12))
    for g in range(12):
        assert all(torch.equal(a, b) and torch.equal(a, c) for a, b, c in zip(first[g], again[g], alone[g]))
        config, k = ["center_single", "distribute_nine", "in_distribute_four_out_center_single"][g % 3], g // 3
        p = rave.generate(config, k, seed=4, grid=10, values=100, confounders=3)
        target, _, meta_matrix, *_ = first[g]
        assert int(target) == p.target and np.array_equal(meta_matrix.numpy(), p.meta_matrix)
    with pytest.raises(ValueError, match="cannot be drawn"):
        RavenStream(grid=10, values=100, confounders=3)  # images need values <= 5


def test_a_grid_variant_with_images_from_two_workers_equals_the_problems():
    stream = RavenStream(configs=["lr"], seed=6, length=4, batch_size=2, image_size=20, grid=10, confounders=3,
                         dtype=torch.uint8, fields=DRT_FIELDS, return_index=True)
    got = by_index(DataLoader(stream, batch_size=None, num_workers=2))
    for k, (image, target, meta_target, meta_structure, labels, indicator) in got.items():
        p = rave.generate("lr", k, seed=6, grid=10, confounders=3)
        assert image.shape == (107, 20, 20) and image.dtype == torch.uint8
        np.testing.assert_array_equal(image.numpy(), rave.resize(p.image, 20))
        assert int(target) == p.target and labels.tolist() == list(rave.drt_input(p.structure)[0])
        assert float(indicator) == 1.0 and labels.dtype == torch.int64 and indicator.dtype == torch.float32


def test_samples_one_by_one_keep_the_field_order_and_the_transform():
    stream = RavenStream(configs=["center"], length=2, image_size=16, fields=("drt_indicator", "image", "target"),
                         transform=lambda x: x + 1)
    indicator, image, target = next(iter(stream))
    b = rave.generate_batch("center", [0], image_size=16)
    assert float(indicator) == 0.0 and int(target) == b["target"][0]
    assert torch.equal(image, torch.from_numpy(b["image"][0]).float() + 1)
    with pytest.raises(ValueError, match="fields"):
        RavenStream(fields=("image", "answer"))


@pytest.fixture(scope="module")
def grid_dataset(rave_cli, tmp_path_factory):
    out = tmp_path_factory.mktemp("grid4")
    rave_cli("generate", "-n", 10, "-o", out, "--seed", 9, "--configs", "center,oic", "--grid", 4, "-j", 2)
    return out


def test_folder_reads_n_by_n_files_with_drt_fields_and_the_hub_split_name(grid_dataset):
    val = RavenFolder(grid_dataset, split="validation", image_size=40, fields=DRT_FIELDS + ("meta_matrix", "config"))
    assert len(val) == 4 and len(RavenFolder(grid_dataset, split="val")) == 4
    image, target, _, _, labels, indicator, meta_matrix, config = val[3]  # oic, k = 7
    p = rave.generate("oic", 7, seed=9, grid=4)
    assert image.shape == (23, 40, 40) and int(target) == p.target and int(config) == rave.CONFIGS.index(p.config)
    np.testing.assert_array_equal(image.numpy().astype(np.uint8), rave.resize(p.image, 40))
    np.testing.assert_array_equal(meta_matrix.numpy(), p.meta_matrix)
    assert labels.tolist() == [0, 4, 9, 19, 10, 20] and float(indicator) == 1.0
    batch = next(iter(DataLoader(val, batch_size=4, num_workers=2)))
    assert batch[0].shape == (4, 23, 40, 40) and batch[4].shape == (4, 6)
    with pytest.raises(ValueError, match="validation"):
        RavenFolder(grid_dataset, split="dev")
    assert RavenFolder(grid_dataset, fields=FIELDS)[0][0].shape == (23, 80, 80)


class TinyCnnDrt(torch.nn.Module):
    """A panel CNN whose features a Dynamic-Residual-Tree-like gate modulates: the structure's label
    rows (embedded, -1 = zero row) summed, the second branch weighted by the indicator."""

    def __init__(self):
        super().__init__()
        self.cnn = torch.nn.Sequential(torch.nn.Conv2d(1, 8, 5, stride=4), torch.nn.ReLU(), torch.nn.AdaptiveAvgPool2d(2),
                                       torch.nn.Flatten(), torch.nn.Linear(32, 16))
        self.labels = torch.nn.Embedding(len(rave.DRT_LABELS), 16)
        self.head = torch.nn.Linear(16 * 9, 1)

    def forward(self, image, labels, indicator):
        b, p = image.shape[:2]
        f = self.cnn(image.reshape(b * p, 1, *image.shape[2:]) / 255).view(b, p, 16)
        rows = self.labels(labels.clamp(min=0)) * (labels >= 0).unsqueeze(-1)  # (B, 6, 16)
        tree = rows[:, :4].sum(1) + rows[:, 4:].sum(1) * indicator.view(-1, 1)
        f = f + torch.tanh(tree).unsqueeze(1)
        context, candidates = f[:, :8], f[:, 8:]
        pairs = torch.cat([context.unsqueeze(1).expand(-1, 8, -1, -1), candidates.unsqueeze(2)], 2)
        return self.head(pairs.flatten(2)).squeeze(-1)  # (B, 8) scores


def test_a_cnn_with_drt_trains_on_the_streams_drt_inputs():
    torch.manual_seed(0)
    model = TinyCnnDrt()
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    stream = RavenStream(seed=2, length=28, batch_size=14, image_size=40, fields=DRT_FIELDS)
    batches = list(DataLoader(stream, batch_size=None, num_workers=2))
    losses = []
    for step in range(12):  # overfits two fixed batches
        image, target, _, _, labels, indicator = batches[step % 2]
        loss = torch.nn.functional.cross_entropy(model(image, labels, indicator), target)
        opt.zero_grad()
        loss.backward()
        if step == 0:  # the tree's rows reach the loss: every label row in the batch gets a gradient
            used = set(labels[labels >= 0].tolist())
            assert all(model.labels.weight.grad[i].abs().sum() > 0 for i in used)
            assert {int(i) for i in indicator.tolist()} == {0, 1}
        opt.step()
        losses.append(loss.item())
    assert np.isfinite(losses).all() and sum(losses[-2:]) < sum(losses[:2])
