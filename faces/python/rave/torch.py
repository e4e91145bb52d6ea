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

`fields` chooses what each sample holds, in order (default FIELDS, the tuple above): DRT_FIELDS
adds the Dynamic Residual Tree's inputs exactly as `rave train --drt` feeds them, ``drt_labels``
(6,) int64 rows into rave.DRT_LABELS (-1 = empty) and ``drt_indicator`` (a float32 scalar, 1 for a
two-component structure); ``meta_matrix`` (8, 9), ``config`` (index into CONFIGS) and ``index``
are there too. RavenStream takes rave.generate's variants (grid, values, confounders, regime,
hold_out); a field list without ``image`` draws no panels (what values above 5 need)::

    RavenStream(grid=10, values=100, confounders=3, fields=("target", "meta_matrix", "drt_labels"))
"""
import itertools
import os
import re

import torch
from torch.utils.data import Dataset, IterableDataset, get_worker_info

import rave
from rave._rave import defaults as _core_defaults
from rave._shared_batch import SharedBatch

__all__ = ["DRT_FIELDS", "FIELDS", "RavenFolder", "RavenStream", "shard_of"]

_SPLITS = ("train", "val", "test")
_DATASET = _core_defaults()  # a dataset's defaults (seed, answers, variant): jobs::DatasetSpec's, not restated
_SPLIT_NAMES = {"validation": "val"}  # the Hugging Face hub's name for val
_NUMBER = re.compile(r"_(\d+)_")

#: The original RAVEN loader's tuple (without its GloVe embedding).
FIELDS = ("image", "target", "meta_target", "meta_structure")
#: FIELDS and the Dynamic Residual Tree's inputs, as `rave train --drt` feeds them.
DRT_FIELDS = FIELDS + ("drt_labels", "drt_indicator")
# The tensor type of every field but the image (which is `dtype`).
_TYPES = {"target": torch.int64, "meta_target": torch.float32, "meta_matrix": torch.float32,
          "meta_structure": torch.float32, "drt_labels": torch.int64, "drt_indicator": torch.float32,
          "config": torch.int64, "index": torch.int64}


def _split_name(split):
    split = _SPLIT_NAMES.get(split, split)
    if split not in _SPLITS:
        raise ValueError(f"split must be one of train, val (or validation), test, not {split!r}")
    return split


def _field_list(fields, return_index=False):
    fields = tuple(fields)
    unknown = [f for f in fields if f != "image" and f not in _TYPES]
    if unknown or not fields:
        raise ValueError(f"fields must name some of image, {', '.join(_TYPES)}; not {unknown or 'none'}")
    return fields + ("index",) if return_index else fields


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


def _tensors(arrays, fields, dtype=None):
    """The tuple of `fields` of a batch (or one problem) of rave arrays; the image converted to
    `dtype` unless None."""
    out = []
    for f in fields:
        if f == "image":
            image = torch.from_numpy(arrays["image"])
            out.append(image if dtype is None else image.to(dtype))
        else:
            out.append(torch.as_tensor(arrays[f]).to(_TYPES[f]))
    return tuple(out)


class RavenFolder(Dataset):
    """A map-style Dataset over `<root>/<configuration>/RAVEN_<k>_<split>.npz` (RAVEN-10000's layout, which
    `rave generate` writes, N x N variants included), configurations in CONFIGS order, problems by k.
    `root` may also be one configuration's folder. The split is the file name's suffix (never a folder
    name); ``validation`` is the hub's name for ``val``. `fields`: what each sample holds (FIELDS;
    DRT_FIELDS for a +DRT model); ``config`` is the file's configuration, ``index`` its position here."""

    def __init__(self, root, split="train", configs=None, image_size=80, transform=None, dtype=torch.float32,
                 fields=FIELDS):
        split = _split_name(split)
        root = os.fspath(root)
        if not os.path.isdir(root):
            raise FileNotFoundError(f"{root}: no such data folder")
        self.image_size, self.transform, self.dtype = image_size, transform, dtype
        self.fields = _field_list(fields)
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
        path, config = self.files[i]
        arrays = rave.load_arrays(path, self.image_size)
        if "image" in self.fields and "image" not in arrays:
            raise rave.FormatError(f"{path}: image.npy: missing member 'image.npy' (a symbolic-only file: "
                                   "leave 'image' out of fields)")
        arrays.update(config=config, index=i)
        sample = _tensors(arrays, self.fields, self.dtype)
        if self.transform is not None and "image" in self.fields:
            at = self.fields.index("image")
            sample = sample[:at] + (self.transform(sample[at]),) + sample[at + 1:]
        return sample


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

    `grid`, `values`, `confounders`, `regime` and `hold_out` are rave.generate's variant options
    (docs/variants.md); a problem's split is taken from its index k as rave.generate does, unless
    `split` names one for every problem (a regime's train or test side). `fields` is what each
    sample holds (FIELDS; DRT_FIELDS for a +DRT model); without ``image`` no panel is drawn.

    With `batch_size`, whole batches are yielded (use DataLoader(batch_size=None)): faster, as
    samples are not collated one by one; from a DataLoader worker each batch travels in one
    shared-memory block (rave/_shared_batch.py; `shared_batches=False` leaves it to torch's
    transport), and the training loop receives the same tuple of tensors. `return_index` appends g
    to each sample (a tensor of them for a batch). `rank` / `world_size` override torch.distributed's.
    """

    def __init__(self, configs=None, answers=_DATASET["answers"], seed=_DATASET["seed"], image_size=80, length=None,
                 batch_size=None, start=0, transform=None, dtype=torch.float32, return_index=False, rank=None,
                 world_size=None, chunk=64, shared_batches=True, *, grid=_DATASET["grid"], values=None,
                 confounders=_DATASET["confounders"], regime=_DATASET["regime"], hold_out="", split=None,
                 fields=FIELDS):
        self.configs = _config_list(configs)
        self.fields = _field_list(fields, return_index)
        self.variant = dict(grid=grid, values=values, confounders=confounders, regime=regime, hold_out=hold_out,
                            split=split, images="image" in self.fields)
        # checks answers, image_size and the variant (ValueError naming the option)
        rave.generate_batch(self.configs[0], [], seed, answers, image_size, **self.variant)
        if length is not None and length < 0:
            raise ValueError(f"length must be >= 0, not {length}")
        if start < 0:
            raise ValueError(f"start must be >= 0, not {start}")
        if batch_size is not None and batch_size < 1 or chunk < 1:
            raise ValueError("batch_size and chunk must be at least 1")
        self.answers, self.seed, self.image_size, self.length = answers, seed, image_size, length
        self.batch_size, self.start, self.transform, self.dtype = batch_size, start, transform, dtype
        self.rank, self.world_size, self.chunk = rank, world_size, chunk
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
        """The rave arrays (generate_batch's dict) of these global indices (into `out`'s arrays if given);
        ``index`` holds the global indices."""
        n = len(self.configs)
        arrays = rave.generate_batch([self.configs[g % n] for g in indices], [g // n for g in indices], self.seed,
                                     self.answers, self.image_size, out=out, **self.variant)
        arrays["index"][:] = indices
        return arrays

    def _shared(self, arrays, staging):
        """A worker's batch for shared memory: the image converted in a reused buffer (`staging`, a
        one-element list), so that no fresh private memory is faulted in batch after batch."""
        batch = []
        for f in self.fields:
            if f != "image":
                batch.append(torch.from_numpy(arrays[f]).to(_TYPES[f]))
                continue
            image = torch.from_numpy(arrays["image"])
            if staging[0] is None or staging[0].shape != image.shape:
                staging[0] = torch.empty(image.shape, dtype=self.dtype)
            staging[0].copy_(image)
            batch.append(staging[0])
        return SharedBatch.of(batch)

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
                yield self._shared(arrays, staging)
                continue
            tensors = _tensors(self.generate(block), self.fields)
            image_at = self.fields.index("image") if "image" in self.fields else None
            if self.batch_size is not None:
                batch = self._sample(tensors, image_at)
                yield SharedBatch.of(batch) if in_worker and self.shared_batches else batch
                continue
            for i in range(len(block)):  # converted one by one: no chunk-sized float block to keep around
                yield self._sample(tuple(t[i] for t in tensors), image_at)

    def _sample(self, tensors, image_at):
        if image_at is None:
            return tensors
        image = tensors[image_at].to(self.dtype)
        if self.transform is not None:
            image = self.transform(image)
        return tensors[:image_at] + (image,) + tensors[image_at + 1:]
