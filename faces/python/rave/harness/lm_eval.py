"""The task folder for EleutherAI's lm-evaluation-harness (`rave export --harness lm-eval`).

One task per configuration and a group over them, in two forms:

- `<name>_<configuration>` (group `<name>`), `output_type: multiple_choice`, for completion models: the
  open matrix (the style's prefix and context) is the text and each candidate the continuation whose
  log-likelihood the model gives (lm-raven's protocol; with `--style lm-raven` text + choice is
  character for character lm-raven's `choice_prompts`). Metrics `acc` and `acc_norm` (lm-eval divides
  a continuation's log-likelihood by its length in characters; lm-raven by its token count).
- `<name>_gen_<configuration>` (group `<name>_gen`), `output_type: generate_until`, for chat models:
  IBM's `Solver_disc` query as `rave export` writes it (system prompt as the task's description), the
  reply read by a filter that is `rave score --text-answer index` (IBM's rule: the first number names
  the candidate), `repeats` samples voted as IBM's `nreturn`. Only for the IBM styles (lm-raven's code
  has no query that lists the candidates).

The folder holds docs.jsonl (the problems as `rave export` writes them, and the fields the YAML reads),
the YAML files, utils.py (the loader, relative to its own folder, and the filter) and README.md.
"""
import os

from rave.harness import _common as c

UTILS = '''"""lm-evaluation-harness code of a rave task folder (written by `rave export --harness lm-eval`):
the problems are docs.jsonl beside this file; replies are read by rave's own reader (`import rave`),
the one `rave score` uses, so the harness's figure is rave's."""
import json
import os

import datasets

HERE = os.path.dirname(os.path.abspath(__file__))


def load_docs(configuration=None, **_):
    """The task's problems (one configuration, or all) as the test split."""
    with open(os.path.join(HERE, "docs.jsonl"), encoding="utf-8") as f:
        docs = [json.loads(line) for line in f if line.strip()]
    if configuration:
        docs = [d for d in docs if d["configuration"] == configuration]
    return datasets.DatasetDict({"test": datasets.Dataset.from_list(docs)})


def read_answers(resps, docs):
    """Per problem the candidate its samples name, as `rave score --text-answer index` reads them
    (IBM's Solver_disc: the first number of each sample, 0 when none or out of range, majority vote)."""
    import rave
    return [[str(rave.read_reply(list(r), "index"))] for r in resps]
'''


def _mc_fields(row):
    """The multiple_choice text (prefix + context: everything before a candidate) and continuations."""
    if "choice_prompts" in row:  # lm-raven: choice_prompts[k] = text + choices[k] + (";" with 2+ rows)
        heads, conts = set(), []
        for prompt, choice in zip(row["choice_prompts"], row["choices"]):
            at = prompt.rfind(choice)
            heads.add(prompt[:at])
            conts.append(prompt[at:])
        if len(heads) != 1:
            raise c.HarnessError(f"problem {row['id']}: lm-raven's prompts do not share one context")
        return heads.pop(), conts
    at = row["prompt"].find(row["context"])
    if at < 0:
        raise c.HarnessError(f"problem {row['id']}: the prompt does not hold the context")
    return row["prompt"][:at + len(row["context"])], list(row["choices"])


def doc_of(row):
    text, choices = _mc_fields(row)
    return {"id": row["id"], "configuration": row["configuration"], "split": row["split"],
            "answer": row["answer"], "verdict": row["verdict"], "answers_shuffled": row.get("answers_shuffled"),
            "style": row["style"], "mc_text": text, "mc_choices": choices,
            "system": row.get("system", ""), "prompt": row.get("prompt", "")}


def _yaml_mc(name, config):
    return (f"task: {name}_{config}\n"
            f"custom_dataset: !function utils.load_docs\n"
            f"dataset_kwargs:\n  configuration: {config}\n"
            "test_split: test\n"
            "output_type: multiple_choice\n"
            "doc_to_text: mc_text\n"
            "doc_to_choice: mc_choices\n"
            "doc_to_target: answer\n"
            "target_delimiter: \"\"\n"
            "metric_list:\n"
            "  - metric: acc\n    aggregation: mean\n    higher_is_better: true\n"
            "  - metric: acc_norm\n    aggregation: mean\n    higher_is_better: true\n"
            "metadata:\n  version: 1.0\n")


def _yaml_gen(name, config, samples, max_tokens):
    sampling = ("  do_sample: true\n  temperature: 0.5\n" if samples > 1 else "  do_sample: false\n")
    return (f"task: {name}_gen_{config}\n"
            f"custom_dataset: !function utils.load_docs\n"
            f"dataset_kwargs:\n  configuration: {config}\n"
            "test_split: test\n"
            "output_type: generate_until\n"
            "description: \"{{system}}\"\n"
            "doc_to_text: prompt\n"
            "doc_to_target: \"{{answer}}\"\n"
            f"repeats: {samples}\n"
            "generation_kwargs:\n"
            "  until: []\n"
            f"  max_gen_toks: {max_tokens}\n" + sampling +
            "filter_list:\n"
            "  - name: ibm-index\n"
            "    filter:\n"
            "      - function: custom\n"
            "        filter_fn: !function utils.read_answers\n"
            "      - function: take_first\n"
            "metric_list:\n"
            "  - metric: exact_match\n    aggregation: mean\n    higher_is_better: true\n"
            "metadata:\n  version: 1.0\n")


def _yaml_group(group, tasks, metrics):
    lines = [f"group: {group}", "task:"] + [f"  - {t}" for t in tasks] + ["aggregate_metric_list:"]
    for metric in metrics:
        lines += [f"  - metric: {metric}", "    aggregation: mean", "    weight_by_size: true"]
        if metric == "exact_match":
            lines += ["    filter_list: ibm-index"]
    return "\n".join(lines + ["metadata:", "  version: 1.0", ""])


def write_folder(folder, rows, name, samples=1, max_tokens=512):
    """Writes the lm-eval task folder for the export rows; returns the task and group names."""
    docs = [doc_of(r) for r in rows]
    c.write_jsonl(os.path.join(folder, "docs.jsonl"), docs)
    c.write_text(os.path.join(folder, "utils.py"), UTILS)
    configs = c.configurations(rows)
    gen = "prompt" in rows[0]
    for config in configs:
        c.write_text(os.path.join(folder, f"{name}_{config}.yaml"), _yaml_mc(name, config))
        if gen:
            c.write_text(os.path.join(folder, f"{name}_gen_{config}.yaml"), _yaml_gen(name, config, samples, max_tokens))
    c.write_text(os.path.join(folder, f"_{name}.yaml"),
                 _yaml_group(name, [f"{name}_{k}" for k in configs], ["acc", "acc_norm"]))
    groups = [name]
    if gen:
        c.write_text(os.path.join(folder, f"_{name}_gen.yaml"),
                     _yaml_group(f"{name}_gen", [f"{name}_gen_{k}" for k in configs], ["exact_match"]))
        groups.append(f"{name}_gen")
    return groups
