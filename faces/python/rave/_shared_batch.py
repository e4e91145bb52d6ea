"""Whole batches from DataLoader workers to the training process without page-fault storms.

torch's own transport copies each tensor a worker returns into a fresh shared-memory segment that
both processes then fault in page by page; where page faults are dear (this project's 2-core VM:
11 ms to touch 3.3 MB of a fresh mapping page by page, 1.1 ms to map it with MAP_POPULATE) that is
most of the pipeline's time (bench/README.md, "Python"). `SharedBatch` writes a batch's tensors
into one memfd with pwrite (the kernel copies; no page of a mapping is faulted in by the worker)
and pickles as the file descriptor; the training process maps it with MAP_POPULATE and receives
the same container of tensors torch's transport would give (a list), backed by that mapping and
freed with the last of them::

    yield SharedBatch.of((image, target, meta_target, meta_structure))   # in a worker
    image, target, meta_target, meta_structure = next(iter(loader))      # in the training loop

Batches holding a dtype numpy cannot view (bfloat16, ...) travel as they are (torch's transport).
"""
import mmap
import os
from multiprocessing import reduction

import numpy as np
import torch
from torch.utils.data import default_convert

_ALIGN = 64
_FLAGS = mmap.MAP_SHARED | getattr(mmap, "MAP_POPULATE", 0)  # MAP_PRIVATE would copy every page on populate


def _numpy_dtype(t):
    try:
        return torch.empty(0, dtype=t.dtype).numpy().dtype
    except TypeError:
        return None


class SharedBatch:
    """A tuple of CPU tensors in one memfd; pickles as the fd, not the bytes."""

    def __init__(self, fd, total, specs):
        self._fd, self._total, self._specs = fd, total, specs

    @staticmethod
    def of(tensors):
        """The batch in shared memory, or `tensors` unchanged when one cannot be viewed by numpy.
        The bytes are written with pwrite (the kernel copies them into the memfd's pages; writing
        through a fresh mapping would fault on every page)."""
        tensors = tuple(t.detach().contiguous() for t in tensors)
        if any(t.device.type != "cpu" or _numpy_dtype(t) is None for t in tensors):
            return tensors
        specs, at = [], 0
        for t in tensors:
            specs.append((str(t.dtype).removeprefix("torch."), tuple(t.shape), at))
            at += -(-t.numel() * t.element_size() // _ALIGN) * _ALIGN
        total = max(at, _ALIGN)
        fd = os.memfd_create("rave-batch", os.MFD_CLOEXEC)
        try:
            os.ftruncate(fd, total)
            for t, (_, _, offset) in zip(tensors, specs):
                data = memoryview(t.numpy()).cast("B") if t.numel() else b""
                while len(data):
                    written = os.pwrite(fd, data, offset)
                    data, offset = data[written:], offset + written
        except BaseException:
            os.close(fd)
            raise
        return SharedBatch(fd, total, specs)

    def __reduce__(self):
        return _rebuild, (reduction.DupFd(self._fd), self._total, self._specs)

    def tensors(self):
        """The batch as tensors over a mapping in this process (as the receiving process gets them)."""
        return _map(self._fd, self._total, self._specs)

    def __del__(self):
        if getattr(self, "_fd", None) is not None:
            os.close(self._fd)
            self._fd = None


def _tensors(buffer, specs):
    out = []
    for dtype, shape, offset in specs:
        dt = getattr(torch, dtype)
        numel = int(np.prod(shape, dtype=np.int64))
        t = torch.frombuffer(buffer, dtype=dt, count=numel, offset=offset) if numel else torch.empty(0, dtype=dt)
        out.append(t.view(shape))
    return tuple(out)


def _map(fd, total, specs):
    return _tensors(mmap.mmap(fd, total, flags=_FLAGS), specs)


def _rebuild(dup_fd, total, specs):
    """The receiving side: the tensors, in the container torch's own transport would have given."""
    fd = dup_fd.detach()
    try:
        return default_convert(_map(fd, total, specs))
    finally:
        os.close(fd)
