"""rave.gym: Raven's Progressive Matrices as an RL environment with a reward that is never wrong.

The Reasoning Gym interface, made on the fly by rave's C++ generator in process (docs/rl.md)::

    import reasoning_gym
    import rave.gym                                   # registers "rave_matrices" with reasoning_gym
    ds = reasoning_gym.create_dataset("rave_matrices", size=1000, seed=1, difficulty=2)
    entry = ds[0]                                     # {"question", "answer", "metadata"}
    ds.score_answer("Answer #3", entry)               # 1.0 when it names the answer, else 0.0

    ds = rave.gym.create_dataset(1000, seed=1, form="panels")   # the same without reasoning_gym
    rave.gym.export_verl("train.parquet", 10_000, seed=1)        # verl's parquet rows

Entry i is problem k = i // C of configuration configs[i % C] as `rave generate --seed SEED
--unique-only` makes it: redrawn until the rule-free solver proves its answer unique (or, with
``non_unique="mark"``, the first draw, marked ``rewarded: False``, on which every answer scores 0).
The question is a text `rave export` writes (IBM's ibm-2025 query: the matrix, every row, then
"Answer #0" .. "Answer #7") or an image form of `rave show --vlm` (``sheet``: the answer-free sheet,
candidates 1..8; ``panels``: every panel as its own image, at ``image_size`` px). A reply is read by
rave's reply rule (docs/evaluation.md#free-text-replies) in the numbering its question uses, inside
the last ``<answer>...</answer>`` when it has one; the reward is 1.0 when it names the answer.

``difficulty`` (0..7) picks a row of LEVELS; ``configs``, ``grid``, ``values`` and ``confounders``
given explicitly replace that row's. The same seed gives the same entries, byte for byte, for any
``threads``.
"""
import dataclasses
import os
import re
from typing import Any, Optional, Sequence

import rave

__all__ = ["DATASET_NAME", "LEVELS", "RaveConfig", "RaveDataset", "RaveCurriculum", "create_dataset",
           "export_verl", "level_settings", "score_reply"]

DATASET_NAME = "rave_matrices"

_ONE_ENTITY = ("center_single", "left_center_single_right_center_single",
               "up_center_single_down_center_single", "in_center_single_out_center_single")

# difficulty -> (configurations, grid N, values per attribute (None: the original tables), confounders)
LEVELS = (
    (("center_single",), 3, None, 0),
    (_ONE_ENTITY, 3, None, 0),
    (rave.CONFIGS, 3, None, 0),
    (rave.CONFIGS, 4, None, 0),
    (rave.CONFIGS, 5, None, 0),
    (rave.CONFIGS, 5, None, 3),
    (rave.CONFIGS, 7, 100, 3),
    (rave.CONFIGS, 10, 1000, 3),
)

FORMS = ("text", "sheet", "panels")
# how a reply to each form is read: `rave score --text-answer`'s form (rave.read_reply)
_TEXT_ANSWER = {"text": "answer-index", "sheet": "label", "panels": "label"}
_ANSWER_TAG = re.compile(r"<answer>\s?(.*?)\s?</answer>", re.DOTALL)


def level_settings(difficulty):
    """The (configs, grid, values, confounders) of a difficulty level (LEVELS, docs/rl.md)."""
    if not isinstance(difficulty, int) or not 0 <= difficulty < len(LEVELS):
        raise ValueError(f"difficulty must be an integer in 0..{len(LEVELS) - 1}, not {difficulty!r}")
    configs, grid, values, confounders = LEVELS[difficulty]
    return list(configs), grid, values, confounders


@dataclasses.dataclass
class RaveConfig:
    """What a set is made of (reasoning_gym.create_dataset passes its keywords here)."""
    difficulty: int = 2
    form: str = "text"                     # text | sheet | panels
    answers: str = "iraven"                # the answer sets: raven, iraven, fair
    configs: Optional[Sequence[str]] = None  # None: the level's; any names rave.config_name takes
    grid: Optional[int] = None             # None: the level's; 3..10
    values: Optional[int] = None           # None: the level's; 0: the original tables; 3..1000
    confounders: Optional[int] = None      # None: the level's; 0..64
    image_size: int = 224                  # panels: each panel's side in pixels
    prefix: str = ""                       # text: before the matrix (IBM's --prefix; its Llama configs')
    non_unique: str = "redraw"             # redraw | mark
    threads: int = 1
    seed: Optional[int] = None
    size: int = 500

    def settings(self):
        """The configurations (folder names), grid, values (None: original) and confounders used."""
        configs, grid, values, confounders = level_settings(self.difficulty)
        if self.configs is not None:
            configs = [rave.config_name(c) for c in ([self.configs] if isinstance(self.configs, str)
                                                     else self.configs)]
        grid = grid if self.grid is None else self.grid
        values = values if self.values is None else (self.values or None)
        confounders = confounders if self.confounders is None else self.confounders
        return configs, grid, values, confounders

    def validate(self):
        level_settings(self.difficulty)
        if self.form not in FORMS:
            raise ValueError(f"form must be one of {', '.join(FORMS)}, not {self.form!r}")
        if self.non_unique not in ("redraw", "mark"):
            raise ValueError(f"non_unique must be redraw or mark, not {self.non_unique!r}")
        if not isinstance(self.size, int) or self.size < 0:
            raise ValueError(f"size must be a whole number, not {self.size!r}")
        if self.seed is not None and not (isinstance(self.seed, int) and 0 <= self.seed < 2**64):
            raise ValueError(f"seed must be None or an integer in 0..2**64-1, not {self.seed!r}")
        configs, grid, values, confounders = self.settings()
        if not configs:
            raise ValueError("configs names no configuration")
        rave._rave._gym_items(configs, [], 0, self.answers, grid, values, confounders, self.form,
                              self.image_size, self.prefix, True, max(1, self.threads))


def _fresh_seed():
    import random
    return random.SystemRandom().randrange(2**32)


def _extract(reply):
    """The reply's last <answer>...</answer> (reasoning-gym's and verl's convention), else all of it."""
    found = _ANSWER_TAG.findall(reply)
    return found[-1] if found else reply


def score_reply(reply, truth):
    """1.0 when `reply` names the answer, else 0.0. `truth` is an entry's metadata or a verl row's
    ground_truth: {"target", "text_answer", "rewarded"}; an unrewarded item scores 0.0 whatever the reply."""
    if not truth.get("rewarded") or not isinstance(reply, str):
        return 0.0
    named = rave.read_reply(_extract(reply), truth["text_answer"], 8)
    return 1.0 if named is not None and named == truth["target"] else 0.0


try:  # registered with reasoning_gym when it is installed; the same class without it
    from reasoning_gym.dataset import ProceduralDataset as _Base
except ImportError:  # pragma: no cover - requirements.txt pins reasoning-gym
    _Base = object


class RaveDataset(_Base):
    """A reasoning-gym dataset of RPM problems (see the module's help); len() is config.size."""

    _CACHED_BLOCKS = 4

    def __init__(self, config: RaveConfig):
        config.validate()
        self.config = config
        self.size = config.size
        self.seed = config.seed if config.seed is not None else _fresh_seed()
        self._settings = config.settings()
        self._block = 1 if config.threads <= 1 else 8 * config.threads
        self._blocks = {}

    def __len__(self):
        return self.size

    def __iter__(self):
        for start in range(0, self.size, max(self._block, 64)):
            yield from self.entries(start, min(self.size, start + max(self._block, 64)))

    def __getitem__(self, idx: int) -> dict:
        if not isinstance(idx, int) or not 0 <= idx < self.size:
            raise IndexError(f"entry {idx!r} outside 0..{self.size - 1}")
        b = idx // self._block
        if b not in self._blocks:
            if len(self._blocks) >= self._CACHED_BLOCKS:
                self._blocks.pop(next(iter(self._blocks)))
            start = b * self._block
            self._blocks[b] = self._raw(range(start, min(self.size, start + self._block)))
        return self._entry(idx, self._blocks[b][idx - b * self._block])

    def entries(self, start=0, stop=None):
        """Entries start..stop-1 as a list, made together on config.threads workers."""
        stop = self.size if stop is None else stop
        if not 0 <= start <= stop <= self.size:
            raise IndexError(f"entries {start}..{stop} outside 0..{self.size}")
        return [self._entry(start + i, raw) for i, raw in enumerate(self._raw(range(start, stop)))]

    def _raw(self, indices):
        configs, grid, values, confounders = self._settings
        c = self.config
        return rave._rave._gym_items(configs, list(indices), self.seed, c.answers, grid, values, confounders,
                                     c.form, c.image_size, c.prefix, c.non_unique == "redraw",
                                     max(1, c.threads))

    def _entry(self, idx, raw):
        configs, grid, values, confounders = self._settings
        c = self.config
        target = raw["target"]
        text_answer = _TEXT_ANSWER[c.form]
        metadata = {
            "source_dataset": DATASET_NAME, "source_index": idx,
            "configuration": raw["configuration"], "index": raw["index"], "split": raw["split"],
            "attempt": raw["attempt"], "seed": self.seed, "answers": c.answers,
            "grid": grid, "values": values, "confounders": confounders,
            "form": c.form, "text_answer": text_answer, "target": target,
            "verdict": raw["verdict"], "rewarded": raw["rewarded"], "rules": list(raw["rules"]),
            "difficulty": {"level": c.difficulty, "configs": list(configs), "grid": grid, "values": values,
                           "confounders": confounders},
        }
        entry = {"question": raw["question"], "answer": str(target if text_answer == "answer-index" else target + 1),
                 "metadata": metadata}
        if c.form != "text":
            entry["images"] = list(raw["images"])
        return entry

    def score_answer(self, answer: Optional[str], entry: dict[str, Any]) -> float:
        """1.0 when `answer` names the entry's answer (rave's reply rule), 0.0 otherwise and on every
        entry whose answer is not proved unique."""
        return score_reply(answer, entry["metadata"])

    def score_answer_cascade(self, answer: Optional[str], entry: dict[str, Any]) -> float:
        """score_answer: reasoning-gym's lenient matchers would compare the reply with the answer's
        text and could reward an entry whose answer is not proved unique."""
        return self.score_answer(answer, entry)


def create_dataset(size=500, seed=None, **options):
    """A RaveDataset of `size` entries (RaveConfig's keywords), without going through reasoning_gym."""
    return RaveDataset(RaveConfig(size=size, seed=seed, **options))


if _Base is not object:
    from reasoning_gym.coaching import BaseCurriculum, ScalarAttributeDefinition
    from reasoning_gym.factory import DATASETS, register_dataset

    class RaveCurriculum(BaseCurriculum):
        """reasoning_gym's curriculum over the difficulty knob (LEVELS)."""

        def __init__(self):
            super().__init__(RaveCurriculum.__name__, RaveConfig)
            self._define_attributes(ScalarAttributeDefinition(
                name="difficulty", field_name="difficulty", levels=list(range(len(LEVELS))),
                description="rave.gym.LEVELS: configurations, grid, values, confounders"))

    if DATASET_NAME not in DATASETS:  # importing the module twice (a reload) registers once
        register_dataset(DATASET_NAME, RaveDataset, RaveConfig, RaveCurriculum)
else:  # pragma: no cover
    RaveCurriculum = None


# --- verl ---------------------------------------------------------------------------------------

def _verl_rows(ds, start, stop, data_source, split, system_prompt):
    for e in ds.entries(start, stop):
        md = e["metadata"]
        images = e.get("images", [])
        prompt = ([{"role": "system", "content": system_prompt}] if system_prompt else []) + [
            {"role": "user", "content": "<image>" * len(images) + e["question"]}]
        row = {
            "data_source": data_source, "prompt": prompt,
            "ability": "abstract_reasoning",
            "reward_model": {"style": "rule", "ground_truth": {
                "answer": e["answer"], "target": md["target"], "text_answer": md["text_answer"],
                "rewarded": md["rewarded"]}},
            "extra_info": {"split": split, "index": md["source_index"], "configuration": md["configuration"],
                           "problem": md["index"], "attempt": md["attempt"], "seed": md["seed"],
                           "answers": md["answers"], "form": md["form"], "verdict": md["verdict"],
                           "difficulty": md["difficulty"]["level"], "grid": md["grid"],
                           "values": md["values"], "confounders": md["confounders"],
                           "rules": md["rules"]},
        }
        if md["form"] != "text":
            row["images"] = [{"bytes": png, "path": None} for png in images]
        yield row


def _verl_schema(pa, with_images):
    message = pa.struct([("role", pa.string()), ("content", pa.string())])
    truth = pa.struct([("answer", pa.string()), ("target", pa.int64()), ("text_answer", pa.string()),
                       ("rewarded", pa.bool_())])
    extra = pa.struct([("split", pa.string()), ("index", pa.int64()), ("configuration", pa.string()),
                       ("problem", pa.int64()), ("attempt", pa.int64()), ("seed", pa.uint64()),
                       ("answers", pa.string()), ("form", pa.string()), ("verdict", pa.string()),
                       ("difficulty", pa.int64()), ("grid", pa.int64()), ("values", pa.int64()),
                       ("confounders", pa.int64()), ("rules", pa.list_(pa.string()))])
    fields = [("data_source", pa.string()), ("prompt", pa.list_(message))]
    if with_images:
        fields.append(("images", pa.list_(pa.struct([("bytes", pa.binary()), ("path", pa.string())]))))
    fields += [("ability", pa.string()),
               ("reward_model", pa.struct([("style", pa.string()), ("ground_truth", truth)])),
               ("extra_info", extra)]
    return pa.schema(fields)


def export_verl(path, size, seed, *, split="train", data_source=DATASET_NAME, system_prompt=None,
                rows_per_group=1024, **options):
    """Writes `size` entries (RaveConfig's keywords) as one verl parquet file at `path` (through a
    temporary file renamed into place): data_source, prompt (chat messages; "<image>" per image in the
    image forms), images (image forms: [{"bytes": PNG, "path": None}]), ability, reward_model {style:
    "rule", ground_truth: {answer, target, text_answer, rewarded}}, extra_info. Score a reply with
    rave/verl_reward.py's compute_score. Returns the number of rows."""
    import pyarrow as pa
    import pyarrow.parquet as pq
    ds = create_dataset(size, seed, **options)
    schema = _verl_schema(pa, ds.config.form != "text")
    path = os.fspath(path)
    tmp = os.path.join(os.path.dirname(os.path.abspath(path)), f".{os.path.basename(path)}.tmp.{os.getpid()}")
    try:
        with pq.ParquetWriter(tmp, schema) as writer:
            for start in range(0, size, rows_per_group):
                rows = list(_verl_rows(ds, start, min(size, start + rows_per_group), data_source, split,
                                       system_prompt))
                writer.write_table(pa.Table.from_pylist(rows, schema=schema))
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)
    return size

