"""PyTorch datasets over rave (needs torch; `import rave` alone does not).

RavenFolder reads a dataset folder the original RAVEN tools or `rave generate` wrote; RavenStream
generates problems on the fly, with no files at all. Both return the tuple most RAVEN codebases use
(the original loader without its GloVe embedding): ``(image, target, meta_target, meta_structure)``
with image a float32 tensor (16, S, S) of grey levels 0..255 (no normalisation), target an int64
scalar, meta_target (9,) and meta_structure (21,) float32 bits. Panels are resized exactly as
`rave train` feeds its models (Pillow's bilinear filter, the original loader's resize)::

    from torch.utils.data import DataLoader
    from rave.torch import RavenStream, RavenFolder

    train = DataLoader(RavenStream(seed=1, length=70_000), batch_size=32, num_workers=2)
    test = DataLoader(RavenStream(seed=2, length=7_000), batch_size=32)   # a held-out seed: unseen problems
    val = DataLoader(RavenFolder("RAVEN-10000", split="val"), batch_size=32, num_workers=2)

A `transform` is called on each image tensor (for RavenStream with batch_size, on each batch) and
its result is returned in its place: e.g. ``transform=lambda x: x / 255``.
"""
import itertools
import os
import re

import torch
from torch.utils.data import Dataset, IterableDataset, get_worker_info

import rave
from rave._shared_batch import SharedBatch

__all__ = ["RavenFolder", "RavenStream", "shard_of"]

_SPLITS = ("train", "val", "test")
_NUMBER = re.compile(r"_(\d+)_")


def _config_list(configs):
    if configs is None:
        return list(rave.CONFIGS)
    if isinstance(configs, str):
        configs = [configs]
    names = [rave.config_name(c) for c in configs]
    if not names:
        raise ValueError("configs names no configuration")
    return names


def _problem_number(name):
    m = _NUMBER.search(name)
    return (int(m.group(1)) if m else float("inf"), name)


def _tensors(arrays, dtype=None):
    """The tuple of a batch (or one problem) of rave arrays; the image converted to `dtype` unless None."""
    image = torch.from_numpy(arrays["image"])
    return (image if dtype is None else image.to(dtype), torch.as_tensor(arrays["target"], dtype=torch.int64),
            torch.from_numpy(arrays["meta_target"]).float(), torch.from_numpy(arrays["meta_structure"]).float())


class RavenFolder(Dataset):
    """A map-style Dataset over `<root>/<configuration>/RAVEN_<k>_<split>.npz` (RAVEN-10000's layout, which
    `rave generate` writes), configurations in CONFIGS order, problems by k. `root` may also be one
    configuration's folder. The split is the file name's suffix (never a folder name)."""

    def __init__(self, root, split="train", configs=None, image_size=80, transform=None, dtype=torch.float32):
        if split not in _SPLITS:
            raise ValueError(f"split must be one of {', '.join(_SPLITS)}, not {split!r}")
        root = os.fspath(root)
        if not os.path.isdir(root):
            raise FileNotFoundError(f"{root}: no such data folder")
        self.image_size, self.transform, self.dtype = image_size, transform, dtype
        self.files = []  # (path, index into CONFIGS)
        wanted = set(_config_list(configs))
        own = rave.ALIASES.get(os.path.basename(os.path.normpath(root)))
        for c, folder in enumerate(rave.CONFIGS):
            path = root if own == folder else None if own else os.path.join(root, folder)
            if folder not in wanted or path is None or not os.path.isdir(path):
                continue
            names = sorted((n for n in os.listdir(path) if n.endswith(f"_{split}.npz")), key=_problem_number)
            self.files.extend((os.path.join(path, n), c) for n in names)
        if not self.files:
            raise FileNotFoundError(f"{root}: empty split: no RAVEN_<k>_{split}.npz files in {', '.join(sorted(wanted))}")

    def __len__(self):
        return len(self.files)

    def __getitem__(self, i):
        image, target, meta_target, meta_structure = _tensors(rave.load_arrays(self.files[i][0], self.image_size),
                                                              self.dtype)
        if self.transform is not None:
            image = self.transform(image)
        return image, target, meta_target, meta_structure


def shard_of(rank=None, world_size=None):
    """(shard, shards) of the calling process: distributed rank x DataLoader worker. `rank` and
    `world_size` default to torch.distributed's when it is initialised, else 0 and 1."""
    if rank is None or world_size is None:
        dist = torch.distributed
        initialised = dist.is_available() and dist.is_initialized()
        rank = rank if rank is not None else dist.get_rank() if initialised else 0
        world_size = world_size if world_size is not None else dist.get_world_size() if initialised else 1
    if not 0 <= rank < world_size:
        raise ValueError(f"rank {rank} is not in 0..{world_size - 1}")
    info = get_worker_info()
    worker, workers = (info.id, info.num_workers) if info is not None else (0, 1)
    return rank * workers + worker, world_size * workers


class RavenStream(IterableDataset):
    """Problems generated on the fly (an IterableDataset).

    Global index g (from `start`; `length` of them, or endless when length is None) is problem
    g // len(configs) of configuration configs[g % len(configs)], so configurations interleave.
    Each DataLoader worker of each distributed rank takes a disjoint slice of the indices (shard s
    of n takes g = start + s, start + s + n, ...): no problem repeats across workers or ranks, the
    union over all of them is every index exactly once, and the same seed gives the same batches
    on every run. `set_epoch(e)` moves to the e-th block of `length` indices (fresh problems each
    epoch); a different seed draws a test set no model has seen.

    With `batch_size`, whole batches are yielded (use DataLoader(batch_size=None)): faster, as
    samples are not collated one by one; from a DataLoader worker each batch travels in one
    shared-memory block (rave/_shared_batch.py; `shared_batches=False` leaves it to torch's
    transport), and the training loop receives the same tuple of tensors. `return_index` appends g
    to each sample (a tensor of them for a batch). `rank` / `world_size` override torch.distributed's.
    """

    def __init__(self, configs=None, answers="raven", seed=1234, image_size=80, length=None, batch_size=None,
                 start=0, transform=None, dtype=torch.float32, return_index=False, rank=None, world_size=None,
                 chunk=64, shared_batches=True):
        self.configs = _config_list(configs)
        rave.generate_batch(self.configs[0], [], seed, answers, image_size)  # checks answers and image_size
        if length is not None and length < 0:
            raise ValueError(f"length must be >= 0, not {length}")
        if start < 0:
            raise ValueError(f"start must be >= 0, not {start}")
        if batch_size is not None and batch_size < 1 or chunk < 1:
            raise ValueError("batch_size and chunk must be at least 1")
        self.answers, self.seed, self.image_size, self.length = answers, seed, image_size, length
        self.batch_size, self.start, self.transform, self.dtype = batch_size, start, transform, dtype
        self.return_index, self.rank, self.world_size, self.chunk = return_index, rank, world_size, chunk
        self.shared_batches = shared_batches
        self.epoch = 0

    def set_epoch(self, epoch):
        """Draw the epoch-th block of `length` indices (needs a length)."""
        if self.length is None:
            raise ValueError("set_epoch needs a stream with a length")
        self.epoch = epoch

    def __len__(self):
        if self.length is None:
            raise TypeError("an endless RavenStream has no length")
        return self.length if self.batch_size is None else -(-self.length // self.batch_size)

    def indices(self, shard=0, shards=1):
        """The global indices shard `shard` of `shards` draws, in order (an iterator)."""
        first = self.start + (self.epoch * self.length if self.length is not None else 0)
        if self.length is None:
            return itertools.count(first + shard, shards)
        return iter(range(first + shard, first + self.length, shards))

    def generate(self, indices, out=None):
        """The rave arrays (generate_batch's dict) of these global indices (into `out`'s arrays if given)."""
        n = len(self.configs)
        return rave.generate_batch([self.configs[g % n] for g in indices], [g // n for g in indices], self.seed,
                                   self.answers, self.image_size, out=out)

    def _shared(self, arrays, block, staging):
        """A worker's batch for shared memory: the image converted in a reused buffer (`staging`, a
        one-element list), so that no fresh private memory is faulted in batch after batch."""
        image = torch.from_numpy(arrays["image"])
        if staging[0] is None or staging[0].shape != image.shape:
            staging[0] = torch.empty(image.shape, dtype=self.dtype)
        staging[0].copy_(image)
        batch = (staging[0], torch.from_numpy(arrays["target"]).to(torch.int64),
                 torch.from_numpy(arrays["meta_target"]).float(), torch.from_numpy(arrays["meta_structure"]).float())
        return SharedBatch.of(batch + (torch.tensor(block, dtype=torch.int64),) if self.return_index else batch)

    def __iter__(self):
        it = self.indices(*shard_of(self.rank, self.world_size))
        in_worker = get_worker_info() is not None
        arrays, staging = None, [None]  # generate_batch's arrays and the converted image, reused
        while True:
            block = list(itertools.islice(it, self.batch_size or self.chunk))
            if not block:
                return
            if self.batch_size is not None and in_worker and self.shared_batches and self.transform is None:
                reuse = arrays is not None and len(arrays["target"]) == len(block)
                arrays = self.generate(block, out=arrays if reuse else None)
                yield self._shared(arrays, block, staging)
                continue
            image, target, meta_target, meta_structure = _tensors(self.generate(block))
            index = torch.tensor(block, dtype=torch.int64)
            if self.batch_size is not None:
                batch = self._sample(image.to(self.dtype), target, meta_target, meta_structure, index)
                yield SharedBatch.of(batch) if in_worker and self.shared_batches else batch
                continue
            for i in range(len(block)):  # converted one by one: no chunk-sized float block to keep around
                yield self._sample(image[i].to(self.dtype), target[i], meta_target[i], meta_structure[i], index[i])

    def _sample(self, image, target, meta_target, meta_structure, index):
        if self.transform is not None:
            image = self.transform(image)
        out = (image, target, meta_target, meta_structure)
        return out + (index,) if self.return_index else out
