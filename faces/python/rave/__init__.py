"""rave: Raven's Progressive Matrices (RAVEN, I-RAVEN, RAVEN-FAIR) from Python, at the C++ core's speed.

The generator, the solver and the RAVEN files in process, no temporary folders::

    import rave
    p = rave.generate("center_single", 0, seed=7, answers="iraven")
    p.image.shape                      # (16, 160, 160) uint8, rendered on first access
    p.save("out/RAVEN_0_train")        # the npz + xml pair, byte for byte as `rave generate` writes it
    s = rave.solve(p)                  # s.answer == p.target, s.verdict == "unique", s.rules
    b = rave.generate_batch(rave.CONFIGS * 4, range(28), image_size=80, threads=2)
    b["image"].shape                   # (28, 16, 80, 80), resized exactly as `rave train` feeds its models

PyTorch datasets (imported only when used, so `import rave` never loads torch)::

    from rave.torch import RavenStream, RavenFolder

The RL environment, registered with reasoning-gym by its import (docs/rl.md)::

    import rave.gym    # reasoning_gym.create_dataset("rave_matrices", size=..., seed=...)

Problem k of configuration c depends only on (seed, c, k, answers): the same seed gives the same
problems in any process, thread or DataLoader worker. Bad input raises ValueError (unknown
configuration, negative index), FileNotFoundError (a path that does not exist) or rave.FormatError
(a ValueError: a file rave cannot read), with the one-line message the `rave` CLI prints.
"""
import importlib
import json

from rave._rave import (
    __version__,
    ALIASES,
    CONFIGS,
    DRT_LABELS,
    PANEL_SIZE,
    PAPER_NAMES,
    STRATEGIES,
    FormatError,
    Problem,
    Solution,
    check as _check,
    config_name,
    drt_input,
    encode_png,
    generate,
    generate_batch,
    load,
    load_arrays,
    manifest as _manifest_text,
    option_defaults as _option_defaults,
    read_reply,
    resize,
    solve,
)

FormatError.__module__ = "rave"
Problem.__module__ = "rave"
Solution.__module__ = "rave"

__all__ = [
    "__version__", "ALIASES", "CONFIGS", "DRT_LABELS", "PANEL_SIZE", "PAPER_NAMES", "STRATEGIES", "FormatError",
    "Problem", "Solution", "check", "config_name", "drt_input", "encode_png", "export_hf", "generate",
    "generate_batch", "load", "load_arrays", "manifest", "read_reply", "resize", "solve", "to_hf",
]


def manifest(path):
    """The manifest (rave.json) of the dataset folder `path` (or the file itself) as a dict: what made
    the dataset (version, command, seed, answers, variant), its counts, and each file's size and
    CRC-32 (check one with zlib.crc32). rave.FormatError when the file is not a valid manifest."""
    return json.loads(_manifest_text(str(path)))


_CHECK = _option_defaults()["check"]  # jobs::CheckOptions', as `rave check` shows them


def check(path, backend=_CHECK["backend"], strict=False, threads=_CHECK["threads"], shortcuts=False, folds=5,
          seed=0, learners=("logit", "gbm")):
    """Audits the problem files under `path` as `rave check` does: one dict per file (its verdict, whether the
    solver answered it, its defects, the two rule-free shortcut picks, ...). With shortcuts=True the learner audit
    runs too (rave.shortcuts, docs/answer-sets.md#the-learner-audit; scikit-learn): each file's dict gains
    `shortcuts`, {"blind.logit": credit, "blind.gbm": ..., "bag.logit": ..., "bag.gbm": ...}, the credit (1, 1/k
    among k tied, or 0) each learner earned on that problem without having seen it; rave.shortcuts.audit(path)
    gives the table per configuration."""
    files = _check(path, backend=backend, strict=strict, threads=threads)
    if not shortcuts:
        return files
    from rave.shortcuts import audit
    solver = {}
    for f in files:
        if f.get("target_known"):
            hits, n = solver.get(f["config"], (0, 0))
            solver[f["config"]] = (hits + int(f["answered"]), n + 1)
    result = audit([path], threads=threads, folds=folds, seed=seed, solver=solver, learners=learners)
    row = {name: i for i, name in enumerate(result["files"])}
    for f in files:
        i = row.get(f["file"])
        if i is not None:
            f["shortcuts"] = {f"{view}.{learner}": float(c[i]) for (view, learner), c in result["credit"].items()
                              if c[i] == c[i]}
    return files


def to_hf(path, **options):
    """The dataset folder `path` as a datasets.DatasetDict in HuggingFaceM4/RAVEN's schema (rave.hf.to_hf)."""
    return importlib.import_module("rave.hf").to_hf(path, **options)


def export_hf(path, out, **options):
    """Writes the dataset folder `path` as Hugging Face parquet shards and a dataset card (rave.hf.export_hf)."""
    return importlib.import_module("rave.hf").export_hf(path, out, **options)


def __getattr__(name):
    # `rave.torch`, `rave.hf` and `rave.gym` are imported on first use only: `import rave` must not
    # pay for (or need) torch, pyarrow, datasets or reasoning_gym.
    if name in ("torch", "hf", "gym"):
        return importlib.import_module(f"rave.{name}")
    raise AttributeError(f"module 'rave' has no attribute {name!r}")
