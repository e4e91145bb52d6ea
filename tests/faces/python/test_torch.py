"""rave.torch: RavenStream's disjoint deterministic shards, RavenFolder over `rave generate`'s files."""
import subprocess
import sys

import numpy as np
import pytest

import rave

torch = pytest.importorskip("torch")
from torch.utils.data import DataLoader  # noqa: E402

from rave.torch import RavenFolder, RavenStream, shard_of  # noqa: E402


def batches(loader):
    return [tuple(t.clone() for t in batch) for batch in loader]


def same(a, b):
    return len(a) == len(b) and all(all(torch.equal(x, y) for x, y in zip(p, q)) for p, q in zip(a, b))


def test_import_rave_does_not_import_torch():
    code = "import sys, rave; assert 'torch' not in sys.modules; rave.generate('center', 0).image; print('ok')"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout.strip() == "ok"
    assert rave.torch.RavenStream is RavenStream


def test_samples_are_the_generated_problems_resized():
    stream = RavenStream(seed=3, length=9, image_size=80, return_index=True)
    samples = list(stream)
    assert [int(s[4]) for s in samples] == list(range(9))
    for image, target, meta_target, meta_structure, g in samples:
        config, k = rave.CONFIGS[int(g) % 7], int(g) // 7
        p = rave.generate(config, k, seed=3)
        assert image.dtype == torch.float32 and image.shape == (16, 80, 80)
        np.testing.assert_array_equal(image.numpy().astype(np.uint8), rave.resize(p.image, 80))
        assert int(target) == p.target
        np.testing.assert_array_equal(meta_target.numpy(), p.meta_target)
        np.testing.assert_array_equal(meta_structure.numpy(), p.meta_structure)


@pytest.mark.parametrize("workers", [0, 2])
def test_same_seed_same_batches(workers):
    def run():
        return batches(DataLoader(RavenStream(seed=21, length=70, chunk=16), batch_size=8, num_workers=workers))
    first = run()
    assert len(first) == (9 if workers == 0 else 10)  # two workers: 35 problems each, last batches partial
    assert same(first, run())
    other = batches(DataLoader(RavenStream(seed=22, length=70, chunk=16), batch_size=8, num_workers=workers))
    assert not same(first, other)


def indices_seen(rank, world_size, workers, length):
    stream = RavenStream(configs=["center", "oig"], seed=1, length=length, image_size=20, chunk=4, return_index=True,
                         rank=rank, world_size=world_size)
    loader = DataLoader(stream, batch_size=5, num_workers=workers)
    return [int(g) for batch in loader for g in batch[4]]


def test_workers_and_ranks_draw_disjoint_slices_covering_every_index():
    length = 53
    per_rank = [indices_seen(rank, 2, 2, length) for rank in (0, 1)]
    assert not set(per_rank[0]) & set(per_rank[1])
    assert sorted(per_rank[0] + per_rank[1]) == list(range(length))
    assert per_rank[0] == indices_seen(0, 2, 2, length)  # reproducible
    shards = [list(RavenStream(length=length).indices(s, 4)) for s in range(4)]
    assert sorted(sum(shards, [])) == list(range(length))


def test_rank_and_world_size_come_from_torch_distributed(monkeypatch):
    monkeypatch.setattr(torch.distributed, "is_available", lambda: True)
    monkeypatch.setattr(torch.distributed, "is_initialized", lambda: True)
    monkeypatch.setattr(torch.distributed, "get_world_size", lambda group=None: 2)
    seen = []
    for rank in (0, 1):
        monkeypatch.setattr(torch.distributed, "get_rank", lambda group=None, r=rank: r)
        assert shard_of() == (rank, 2)
        stream = RavenStream(configs="center", seed=1, length=11, image_size=20, chunk=3, return_index=True)
        seen.append([int(s[4]) for s in DataLoader(stream, batch_size=None, num_workers=2)])
    # 4 shards (rank-major: rank r, worker w is shard 2r + w): rank 0 holds shards 0 and 1
    assert sorted(seen[0]) == [0, 1, 4, 5, 8, 9] and sorted(seen[1]) == [2, 3, 6, 7, 10]
    with pytest.raises(ValueError):
        shard_of(rank=2, world_size=2)


def test_whole_batches_equal_collated_samples():
    collated = batches(DataLoader(RavenStream(seed=4, length=20), batch_size=8))
    whole = batches(DataLoader(RavenStream(seed=4, length=20, batch_size=8), batch_size=None))
    assert same(collated, whole)
    assert len(RavenStream(length=20, batch_size=8)) == 3 and len(RavenStream(length=20)) == 20


@pytest.mark.parametrize("dtype", [torch.float32, torch.uint8])
def test_worker_batches_through_shared_memory_equal_the_in_process_ones(dtype):
    def problems(workers, shared, **kw):  # per global index: (image, target, meta_target, meta_structure)
        stream = RavenStream(configs=["center", "3x3"], seed=5, length=24, batch_size=5, image_size=40, dtype=dtype,
                             return_index=True, shared_batches=shared, **kw)
        out = {}
        for batch in DataLoader(stream, batch_size=None, num_workers=workers):
            assert batch[0].dtype == dtype and batch[1].dtype == torch.int64 and batch[3].dtype == torch.float32
            for i, g in enumerate(batch[4].tolist()):
                out[g] = tuple(t[i].clone() for t in batch[:4])
        return [out[g] for g in sorted(out)]
    in_process = problems(0, True)
    assert len(in_process) == 24
    assert same(in_process, problems(2, True)) and same(in_process, problems(2, False))
    halved = problems(2, True, transform=lambda x: x // 2)  # a transform: its output is what is shared
    assert same([(p[0] // 2,) + p[1:] for p in in_process], halved)


def test_shared_batch_pickles_as_a_handle_and_comes_back_equal():
    import pickle
    from rave._shared_batch import SharedBatch
    batch = (torch.arange(12, dtype=torch.float32).view(3, 4), torch.tensor([7, 8, 9]), torch.empty(0, 5))
    shared = SharedBatch.of(batch)
    data = pickle.dumps(shared)
    assert len(data) < 1000  # the fd and the layout, not the bytes
    back = pickle.loads(data)
    assert all(torch.equal(x, y) for x, y in zip(batch, back)) and [t.shape for t in back] == [t.shape for t in batch]
    back[0].add_(1)  # the receiver's tensors are writable (the sender never reads the block again)
    assert float(back[0][0, 0]) == 1.0 and float(batch[0][0, 0]) == 0.0
    odd = (torch.ones(2, dtype=torch.bfloat16),)  # numpy has no bfloat16: sent by torch's transport
    assert SharedBatch.of(odd) is not None and isinstance(SharedBatch.of(odd), tuple)


def test_epochs_draw_fresh_indices_and_endless_streams_go_on():
    stream = RavenStream(length=5, return_index=True, image_size=20)
    stream.set_epoch(3)
    assert [int(s[4]) for s in stream] == list(range(15, 20))
    endless = iter(RavenStream(image_size=20, return_index=True, chunk=2))
    assert [int(next(endless)[4]) for _ in range(5)] == list(range(5))
    with pytest.raises(ValueError):
        RavenStream().set_epoch(1)


def test_transform_and_dtype():
    image = next(iter(RavenStream(length=1, transform=lambda x: x / 255)))[0]
    assert float(image.max()) == 1.0
    raw = next(iter(RavenStream(length=1, dtype=torch.uint8)))[0]
    assert raw.dtype == torch.uint8


def test_bad_stream_arguments():
    with pytest.raises(ValueError, match="unknown configuration"):
        RavenStream(configs=["center", "hex"])
    with pytest.raises(ValueError, match="answer-set strategy"):
        RavenStream(answers="I-RAVEN")
    with pytest.raises(ValueError):
        RavenStream(length=-1)


@pytest.fixture(scope="module")
def dataset(rave_cli, tmp_path_factory):
    out = tmp_path_factory.mktemp("folder")
    rave_cli("generate", "-n", 10, "-o", out, "--configs", "center,lr", "--seed", 8, "-j", 2)
    return out


def test_folder_reads_the_split_in_problem_order(dataset):
    train = RavenFolder(dataset, split="train")
    assert len(train) == 12 and len(RavenFolder(dataset, split="test")) == 4
    assert [f.rsplit("/", 1)[1] for f, _ in train.files[:6]] == [f"RAVEN_{k}_train.npz" for k in range(6)]
    image, target, meta_target, meta_structure = train[7]  # left_center_single_right_center_single, k = 1
    p = rave.generate("lr", 1, seed=8)
    assert image.dtype == torch.float32 and image.shape == (16, 80, 80)
    np.testing.assert_array_equal(image.numpy().astype(np.uint8), rave.resize(p.image, 80))
    assert int(target) == p.target and meta_target.shape == (9,) and meta_structure.shape == (21,)
    stream = next(iter(RavenStream(configs="lr", seed=8, start=1, length=1)))
    assert all(torch.equal(a, b) for a, b in zip(train[7], stream))


def test_folder_configs_transform_and_a_configuration_folder(dataset):
    only = RavenFolder(dataset, split="val", configs=["L-R"], image_size=160, transform=lambda x: x[:8])
    assert len(only) == 2 and only[0][0].shape == (8, 160, 160)
    inner = RavenFolder(dataset / "center_single", split="train")
    assert len(inner) == 6
    loader = DataLoader(RavenFolder(dataset), batch_size=4, num_workers=2)
    assert sum(len(b[1]) for b in loader) == 12


def test_folder_errors(dataset, tmp_path):
    with pytest.raises(FileNotFoundError):
        RavenFolder(tmp_path / "missing")
    with pytest.raises(FileNotFoundError, match="empty split"):
        RavenFolder(tmp_path)
    with pytest.raises(ValueError):
        RavenFolder(dataset, split="dev")


def test_folder_reads_the_original_raven_layout(reference_dir):
    root = reference_dir / "raven-reference"
    splits = {s: RavenFolder(root, split=s, image_size=160) for s in ("train", "val", "test")}
    assert [len(d) for d in splits.values()] == [42, 14, 14]
    path, c = splits["val"].files[3]
    assert path.endswith("distribute_four/RAVEN_7_val.npz") and rave.CONFIGS[c] == "distribute_four"
    image, target, _, _ = splits["val"][3]
    npz = np.load(path)
    np.testing.assert_array_equal(image.numpy().astype(np.uint8), npz["image"])
    assert int(target) == int(npz["target"])
