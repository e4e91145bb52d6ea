"""A rave dataset folder on the Hugging Face hub: HuggingFaceM4/RAVEN's schema, parquet shards, a card.

Needs pyarrow and datasets (requirements.txt; `scripts/setup.sh --full` installs them); `import rave`
alone does not import them::

    import rave
    dd = rave.to_hf("out/RAVEN-10000", config="center_single")   # datasets.DatasetDict: train, validation, test
    rave.export_hf("out/RAVEN-10000", "out/hub")                 # <config>/<split>-0000k-of-0000n.parquet + README.md
    # python -m rave export-hf out/RAVEN-10000 -o out/hub        # the same from the command line

One row per problem, as HuggingFaceM4/RAVEN has them: ``panels`` (the context, N*N-1 PNG images) and
``choices`` (the 8 candidates) as lists of datasets.Image, ``structure`` (1, T) strings, ``meta_matrix``
(8, 9), ``meta_target`` (1, 9) and ``meta_structure`` (1, 21) uint8, ``target`` uint8, ``id`` int32 (k of
RAVEN_<k>_<split>), ``metadata`` (the problem's XML); then rave's own columns: ``config``, ``predict``,
``answers`` (the answer-set kind), ``variant`` (rave.json's variant as JSON), and the provenance of
rave.json, ``rave_version``, ``command`` and ``seed``. The PNG images decode to the npz panels byte for
byte (8-bit grayscale, lossless; encoded by rave.encode_png). The hub's split names are train,
validation and test (rave's val).
"""
import json
import math
import os
import re

import rave

__all__ = ["export_hf", "features", "problems", "to_hf"]

SPLITS = {"train": "train", "validation": "val", "test": "test"}  # hub name -> rave's file suffix
_FILE = re.compile(r"^RAVEN_(\d+)_(train|val|test)\.npz$")


def _datasets():
    try:
        import datasets
    except ImportError as e:  # pragma: no cover - the tests skip without it
        raise ImportError("rave.hf needs the datasets and pyarrow packages (scripts/setup.sh --full, or "
                          "pip install datasets pyarrow)") from e
    return datasets


def _configs_in(root, configs=None):
    """The configuration folders of `root` (CONFIGS order), limited to `configs` when given."""
    root = os.fspath(root)
    if not os.path.isdir(root):
        raise FileNotFoundError(f"{root}: no such dataset folder")
    wanted = [rave.config_name(c) for c in ([configs] if isinstance(configs, str) else configs or rave.CONFIGS)]
    found = [c for c in rave.CONFIGS if c in wanted and os.path.isdir(os.path.join(root, c))]
    if not found:
        raise FileNotFoundError(f"{root}: no configuration folder ({', '.join(wanted)})")
    return found


def problems(root, config, split):
    """The npz files of `config`'s `split` (a hub or a rave split name) in problem order: [(k, path)]."""
    suffix = SPLITS.get(split, split)
    folder = os.path.join(os.fspath(root), rave.config_name(config))
    found = []
    for name in os.listdir(folder):
        m = _FILE.match(name)
        if m and m.group(2) == suffix:
            found.append((int(m.group(1)), os.path.join(folder, name)))
    return sorted(found)


def _provenance(root):
    """The columns every row takes from rave.json (None where the folder has none, e.g. the original RAVEN)."""
    try:
        m = rave.manifest(root)
    except FileNotFoundError:
        return {"answers": None, "variant": None, "rave_version": None, "command": None, "seed": None}
    return {"answers": m["answers"], "variant": json.dumps(m["variant"], sort_keys=True),
            "rave_version": m["rave_version"], "command": " ".join(m["command"]), "seed": m["seed"]}


def features(config, nested_structure=False):
    """The datasets.Features of a configuration's rows (HuggingFaceM4/RAVEN's, then rave's columns).
    `nested_structure`: structure as a list of lists of strings (one table across configurations, whose
    sentences differ in length), not Array2D (1, T)."""
    ds = _datasets()
    tokens = len(rave.generate(config, 0).structure)  # symbolic only: no panel is drawn
    structure = ds.List(ds.List(ds.Value("string"))) if nested_structure else ds.Array2D((1, tokens), "string")
    return ds.Features({
        "panels": ds.List(ds.Image()), "choices": ds.List(ds.Image()), "structure": structure,
        "meta_matrix": ds.Array2D((8, 9), "uint8"), "meta_target": ds.Array2D((1, 9), "uint8"),
        "meta_structure": ds.Array2D((1, 21), "uint8"), "target": ds.Value("uint8"), "id": ds.Value("int32"),
        "metadata": ds.Value("string"), "config": ds.Value("string"), "predict": ds.Value("uint8"),
        "answers": ds.Value("string"), "variant": ds.Value("string"), "rave_version": ds.Value("string"),
        "command": ds.Value("string"), "seed": ds.Value("uint64"),
    })


def _row(k, path, config, provenance):
    """One problem's row from its npz and the XML beside it; rave.FormatError naming the file."""
    checked = rave.load_arrays(path)  # rave's own checks: shapes, dtypes, bits, the structure sentence
    if "image" not in checked:
        raise rave.FormatError(f"{path}:image.npy: a symbolic-only problem has no images for the hub")
    xml = os.path.splitext(path)[0] + ".xml"
    if not os.path.isfile(xml):
        raise FileNotFoundError(f"{xml}: no such file (the XML beside {os.path.basename(path)})")
    with open(xml, encoding="utf-8") as f:
        metadata = f.read()
    pngs = [{"bytes": b, "path": None} for b in rave.encode_png(checked["image"])]
    return {"panels": pngs[:-8], "choices": pngs[-8:], "structure": [list(checked["structure"])],
            "meta_matrix": checked["meta_matrix"], "meta_target": checked["meta_target"][None],
            "meta_structure": checked["meta_structure"][None], "target": int(checked["target"]), "id": k,
            "metadata": metadata, "config": config, "predict": int(checked["predict"]), **provenance}


def _columns(rows, names):
    return {name: [r[name] for r in rows] for name in names}


def _split_dataset(root, config, split, provenance, feats):
    ds = _datasets()
    rows = [_row(k, path, config, provenance) for k, path in problems(root, config, split)]
    return ds.Dataset.from_dict(_columns(rows, feats), features=feats, split=split)


def to_hf(path, config=None, configs=None):
    """The dataset folder `path` as a datasets.DatasetDict with splits train, validation and test (empty
    where the folder has no such files), in memory. With `config` (or a folder of one configuration), the
    columns are exactly HuggingFaceM4/RAVEN's config of that name (structure Array2D (1, T)) plus rave's;
    across configurations (`configs`, default all in the folder) structure is a list of lists of strings,
    as sentences differ in length. For datasets larger than memory, export_hf and load_dataset."""
    ds = _datasets()
    names = _configs_in(path, config if config is not None else configs)
    provenance = _provenance(path)
    one = len(names) == 1
    out = {}
    for split in SPLITS:
        parts = [_split_dataset(path, c, split, provenance, features(c, nested_structure=not one)) for c in names]
        out[split] = parts[0] if one else ds.concatenate_datasets(parts, split=split)
    return ds.DatasetDict(out)


def _card(names, counts, sizes, split_files, provenance, feats):
    """The dataset card: YAML header (configs with data_files per split, dataset_info with features and
    split sizes), then a few lines on what made the data."""
    import yaml
    header = {
        "configs": [{"config_name": c, "data_files": [{"split": s, "path": split_files[c][s]}
                                                        for s in SPLITS if counts[c][s]],
                     **({"default": True} if i == 0 else {})} for i, c in enumerate(names)],
        "dataset_info": [{"config_name": c, "features": feats[c]._to_yaml_list(),
                          "splits": [{"name": s, "num_bytes": sizes[c][s], "num_examples": counts[c][s]}
                                     for s in SPLITS if counts[c][s]]}
                         for c in names],
        "task_categories": ["visual-question-answering"],
        "tags": ["raven", "abstract-reasoning", "rave"],
    }
    made = provenance["command"] or "the original RAVEN generator (no rave.json)"
    body = (f"# RAVEN-style problems (rave)\n\n"
            f"Raven's Progressive Matrices in HuggingFaceM4/RAVEN's schema, one configuration per config: "
            f"{', '.join(names)}. Made by `{made}`"
            f"{' (rave ' + provenance['rave_version'] + ')' if provenance['rave_version'] else ''}; written by "
            f"`python -m rave export-hf`. `panels` are the context, `choices` the 8 candidates, `target` the "
            f"answer's index among them; the PNG images are the npz panels byte for byte.\n\n"
            f"Zhang et al., RAVEN: A Dataset for Relational and Analogical Visual REasoNing, CVPR 2019 "
            f"(arXiv:1903.02741).\n")
    return "---\n" + yaml.safe_dump(header, sort_keys=False, allow_unicode=True) + "---\n\n" + body


def _write_atomic(path, write):
    tmp = path + ".tmp"
    try:
        write(tmp)
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)


def export_hf(path, out, configs=None, shard_rows=1000):
    """Writes the dataset folder `path` as HuggingFaceM4/RAVEN's layout under `out`: per configuration and
    split, parquet shards `<config>/<split>-0000i-of-0000n.parquet` of at most `shard_rows` problems
    (pyarrow, with the datasets features in the schema), and `out/README.md`, the dataset card (YAML:
    configs with data_files per split, features, split sizes). Every file is written under a temporary
    name and renamed into place, the card last. Returns {config: {split: problems}}."""
    ds = _datasets()
    import pyarrow.parquet as pq
    if shard_rows < 1:
        raise ValueError(f"shard_rows must be at least 1, not {shard_rows}")
    names = _configs_in(path, configs)
    provenance = _provenance(path)
    os.makedirs(out, exist_ok=True)
    counts, sizes, split_files, feats = {}, {}, {}, {}
    for c in names:
        feats[c] = features(c)
        counts[c], sizes[c], split_files[c] = {}, {}, {}
        os.makedirs(os.path.join(out, c), exist_ok=True)
        for split in SPLITS:
            files = problems(path, c, split)
            counts[c][split], split_files[c][split] = len(files), f"{c}/{split}-*.parquet"
            shards, sizes[c][split] = math.ceil(len(files) / shard_rows), 0
            for i in range(shards):
                rows = [_row(k, p, c, provenance) for k, p in files[i * shard_rows:(i + 1) * shard_rows]]
                table = ds.Dataset.from_dict(_columns(rows, feats[c]), features=feats[c]).data.table
                sizes[c][split] += table.nbytes  # the card's num_bytes: the Arrow size, as the hub's
                target = os.path.join(out, c, f"{split}-{i:05d}-of-{shards:05d}.parquet")
                _write_atomic(target, lambda tmp: pq.write_table(table, tmp))  # features in the schema
    card = _card(names, counts, sizes, split_files, provenance, feats)

    def write_card(tmp):
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(card)
    _write_atomic(os.path.join(out, "README.md"), write_card)
    return counts
