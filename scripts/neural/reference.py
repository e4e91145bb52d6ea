"""The RAVEN paper's own PyTorch code beside rave: loading it, and moving weights between the two.

The reference is WellyZhang/RAVEN's `src/model` (CNN_MLP, FCTreeNet, the dataset class), a checkout
you give (the search tool's `fetch`, or `git clone`); none of it is in this repository. It is
Python 2 / PyTorch 0.4 code, run here under Python 3 and torch 2.11 with only what that needs:

- `scipy.misc.imresize` (gone since SciPy 1.3) is what it called on each uint8 panel: `toimage`
  passes uint8 data through unscaled, then Pillow's `resize((w, h), BILINEAR)`; the stand-in makes
  that same Pillow call.
- `torchvision` is imported but never used by these files: an empty stand-in.
- Its `embedding.npy` is a Python 2 pickle: `np.load(..., encoding="latin1")` in its loader.
- Python 2's implicit relative imports: `src/model` and `src/model/utility` go on sys.path.

The public code has no CNN without the tree: CNN_MLP always adds FCTreeNet's output (alpha 1.0).
`reference_cnn(tree=False)` drops that term from its forward (alpha 0: the tree's weights then get
no gradient, and torch's Adam skips them), which is the paper's CNN row as far as it can be read.

Weights travel by name: `to_reference` / `to_rave` map rave's state dict (rave train's checkpoints,
`read_rave_checkpoint`) onto the reference's and back; `rave train --init-weights FILE` reads a
`torch.save`d dict in rave's names. rave's epoch order and dropout seed (neural/pipeline.cpp,
neural/epoch_loop.cpp) are re-computed here (`epoch_order`, `dropout_seed`), so the reference can take
the very batches and dropout masks rave took (same torch wheel, same CPU generator).
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import types
from pathlib import Path

import numpy as np
import torch

MASK = (1 << 64) - 1


# ---- rave's random streams (common/random.cpp), for the epoch order and the dropout seed --------

def mix64(x: int) -> int:
    x = (x + 0x9E3779B97F4A7C15) & MASK
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & MASK
    return x ^ (x >> 31)


class Rng:
    """engine::Rng: xoshiro256** seeded through splitmix64; below() is Lemire's, shuffle Fisher-Yates."""

    def __init__(self, seed: int):
        self.s = []
        for _ in range(4):
            seed = (seed + 0x9E3779B97F4A7C15) & MASK
            self.s.append(mix64(seed))

    def next(self) -> int:
        s = self.s
        rotl = lambda x, k: ((x << k) | (x >> (64 - k))) & MASK
        result = (rotl((s[1] * 5) & MASK, 7) * 9) & MASK
        t = (s[1] << 17) & MASK
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = rotl(s[3], 45)
        return result

    def below(self, n: int) -> int:
        product = self.next() * n
        low = product & MASK
        if low < n:
            threshold = ((1 << 64) - n) % n
            while low < threshold:
                product = self.next() * n
                low = product & MASK
        return product >> 64

    def shuffle(self, items: list) -> None:
        for i in range(len(items), 1, -1):
            j = self.below(i)
            items[i - 1], items[j] = items[j], items[i - 1]


SHUFFLE_SALT = 0x53485546464C45  # "SHUFFLE", neural/pipeline.cpp


def epoch_order(n: int, seed: int, epoch: int) -> list[int]:
    """The order rave train visits its n training files in `epoch` (1-based)."""
    order = list(range(n))
    Rng(mix64(seed ^ SHUFFLE_SALT) ^ mix64(epoch)).shuffle(order)
    return order


def dropout_seed(seed: int, epoch: int, rank: int = 0) -> int:
    """torch's generator seed at the start of `epoch` (neural/epoch_loop.cpp)."""
    s = mix64(seed ^ mix64(epoch))
    return s if rank == 0 else mix64(s ^ rank)


# ---- the reference's code, importable under Python 3 / torch 2.11 --------------------------------

def _imresize(arr, size, interp="bilinear", mode=None):
    """scipy.misc.imresize as the reference called it: a uint8 panel, Pillow's bilinear resize."""
    from PIL import Image
    assert arr.dtype == np.uint8 and arr.ndim == 2 and interp == "bilinear" and mode is None
    filters = {"bilinear": Image.BILINEAR}
    return np.asarray(Image.fromarray(arr).resize((size[1], size[0]), resample=filters[interp]))


class _LatinNumpy(types.ModuleType):
    """numpy for the reference's loader, whose np.load of the Python 2 pickle needs encoding='latin1'."""

    def __getattr__(self, name):
        return getattr(np, name)

    @staticmethod
    def load(*args, **kwargs):
        kwargs.setdefault("encoding", "latin1")
        return np.load(*args, **kwargs)


def load_reference(code: Path) -> types.SimpleNamespace:
    """The reference's modules from a WellyZhang/RAVEN checkout: cnn_mlp, fc_tree_net, dataset_utility."""
    model_dir = Path(code) / "src" / "model"
    if not (model_dir / "cnn_mlp.py").exists():
        raise SystemExit(f"reference: {code} is not a WellyZhang/RAVEN checkout (no src/model/cnn_mlp.py)")
    scipy = sys.modules.setdefault("scipy", types.ModuleType("scipy"))
    misc = types.ModuleType("scipy.misc")
    misc.imresize = _imresize
    scipy.misc = misc
    sys.modules["scipy.misc"] = misc
    if "torchvision" not in sys.modules:
        tv = types.ModuleType("torchvision")
        tv.transforms = types.ModuleType("torchvision.transforms")
        tv.utils = types.ModuleType("torchvision.utils")
        sys.modules.update({"torchvision": tv, "torchvision.transforms": tv.transforms,
                            "torchvision.utils": tv.utils})
    for d in (model_dir, model_dir / "utility"):
        if str(d) not in sys.path:
            sys.path.insert(0, str(d))
    import cnn_mlp  # noqa: E402  (the reference's)
    import dataset_utility
    import fc_tree_net
    dataset_utility.np = _LatinNumpy("numpy")
    return types.SimpleNamespace(cnn_mlp=cnn_mlp, fc_tree_net=fc_tree_net, dataset_utility=dataset_utility,
                                 embedding=Path(code) / "assets" / "embedding.npy")


def reference_cnn(ref: types.SimpleNamespace, tree: bool, lr: float = 1e-4):
    """The reference's CNN_MLP (its own Adam inside); tree=False drops the tree's term (alpha 0)."""
    args = argparse.Namespace(model="CNN_MLP", lr=lr, beta1=0.9, beta2=0.999, epsilon=1e-8)
    model = ref.cnn_mlp.CNN_MLP(args)
    if not tree:
        def forward(self, x, embedding, indicator):
            features = self.conv(x.view(-1, 16, 80, 80))
            return self.mlp(features), None
        model.forward = types.MethodType(forward, model)
    return model


_LINK_ROOTS: dict[str, Path] = {}


def _link_root(root: Path) -> Path:
    """A fresh folder under /tmp whose path holds no split name, one per data folder."""
    key = str(Path(root).resolve())
    if key not in _LINK_ROOTS:
        for _ in range(100):
            candidate = Path(tempfile.mkdtemp(prefix="ravenref-"))
            if not any(s in str(candidate) for s in ("train", "val", "test")):
                break
            candidate.rmdir()
        _LINK_ROOTS[key] = candidate
    return _LINK_ROOTS[key]


def reference_dataset(ref: types.SimpleNamespace, root: Path, split: str, work: Path | None = None):
    """The reference's dataset class over rave's folder `root`: it wants embedding.npy in the root
    and keeps a path when the split's name occurs anywhere in it, so it reads a folder of links
    (`work`, or a fresh one under /tmp, whose path must not hold 'train', 'val' or 'test')."""
    link_root = Path(work) / "ref-root" if work else _link_root(root)
    if any(s in str(link_root) for s in ("train", "val", "test")):
        raise SystemExit(f"reference: {link_root} holds a split's name; the reference's loader would misread it")
    link_root.mkdir(parents=True, exist_ok=True)
    for config in sorted(p for p in Path(root).iterdir() if p.is_dir()):
        link = link_root / config.name
        if not link.exists():
            link.symlink_to(config.resolve())
    if not (link_root / "embedding.npy").exists():
        (link_root / "embedding.npy").symlink_to(ref.embedding.resolve())
    data = ref.dataset_utility.dataset(str(link_root), split, 80, transform=ref.dataset_utility.ToTensor())
    return data


def collate(samples: list[tuple]) -> tuple:
    """torch's default collation of the reference's samples (what its DataLoader does)."""
    return tuple(torch.stack([s[i] for s in samples]) for i in range(len(samples[0])))


# ---- weights by name -------------------------------------------------------------------------

def _cnn_names(tree: bool) -> list[tuple[str, str]]:
    """(rave name, reference name) of every tensor of CNN_MLP, parameters and batch-norm buffers."""
    pairs = []
    for k in range(4):
        for p in ("weight", "bias"):
            pairs.append((f"conv.{3 * k}.{p}", f"conv.conv{k + 1}.{p}"))
        for p in ("weight", "bias", "running_mean", "running_var", "num_batches_tracked"):
            pairs.append((f"conv.{3 * k + 1}.{p}", f"conv.batch_norm{k + 1}.{p}"))
    if tree:
        for r, f in (("proj", "fc"), ("leaf", "leaf"), ("middle", "middle"), ("merge", "merge"), ("root", "root")):
            for p in ("weight", "bias"):
                pairs.append((f"tree.{r}.{p}", f"fc_tree_net.{f}.{p}"))
    for r in ("fc1", "fc2"):
        for p in ("weight", "bias"):
            pairs.append((f"{r}.{p}", f"mlp.{r}.{p}"))
    return pairs


def to_rave(reference_state: dict, tree: bool) -> dict:
    return {r: reference_state[f].detach().clone() for r, f in _cnn_names(tree) if f in reference_state}


def to_reference(rave_state: dict, tree: bool) -> dict:
    return {f: rave_state[r].detach().clone() for r, f in _cnn_names(tree) if r in rave_state}


def read_rave_checkpoint(path: Path) -> tuple[dict, dict]:
    """A rave checkpoint's weights (parameters and buffers, by rave's names) and Adam's state
    ({parameter index: {exp_avg, exp_avg_sq, step}}; empty for best.pt)."""
    archive = torch.jit.load(str(path), map_location="cpu")
    weights = {n: t.detach().clone() for n, t in archive.model.named_parameters()}
    weights.update({n: t.detach().clone() for n, t in archive.model.named_buffers()})
    adam: dict = {}
    if hasattr(archive, "optimizer"):  # torch::optim's archive: state keyed as param_groups/0 lists them
        group = dict(archive.optimizer.param_groups.named_children())["param_groups/0"]._c
        states = dict(archive.optimizer.state.named_children())
        for index in range(int(group.getattr("params/size"))):
            state = states.get(group.getattr(f"params/{index}"))
            if state is not None:
                adam[index] = {n: state._c.getattr(n) for n in ("step", "exp_avg", "exp_avg_sq") if state._c.hasattr(n)}
    return weights, adam
