"""The files of a probes task folder (rave.harness.probes): lmms-eval's YAML + utils.py, inspect's task.py,
VLMEvalKit's TSVs and the README."""
import base64
import csv
import json
import os

from rave.harness import _common as c
from rave.harness import probes as p
from rave.harness.lmms_eval import _yaml_group  # the same group file as the problems' folders

LMMS_UTILS = '''"""lmms-eval code of a rave probes folder (written by `rave export PROBES --harness lmms-eval`): the
images are images/ beside this file, drawn by `rave probes`; a reply is read by
rave.harness.probes.read_choice (docs/probes.md), so the accuracy is the one rave documents."""
import os

from PIL import Image

HERE = os.path.dirname(os.path.abspath(__file__))


def _image(path):
    with Image.open(os.path.join(HERE, "images", path)) as image:
        return image.convert("RGB")


def doc_to_visual_sheet(doc):
    return [_image(doc["sheet"])]


def doc_to_visual_panels(doc):
    return [_image(path) for path in doc["panels"]]


def _text(prompt, kwargs):
    kwargs = kwargs or {}
    return kwargs.get("pre_prompt", "") + prompt + kwargs.get("post_prompt", "")


def doc_to_text_sheet(doc, lmms_eval_specific_kwargs=None):
    return _text(doc["sheet_prompt"], lmms_eval_specific_kwargs)


def doc_to_text_panels(doc, lmms_eval_specific_kwargs=None):
    return _text(doc["panels_prompt"], lmms_eval_specific_kwargs)


def doc_to_target(doc):
    return doc["answer"]


def process_results(doc, results):
    """1 when the reply names the answer by rave's reading rule."""
    from rave.harness.probes import read_choice
    return {"accuracy": 1.0 if read_choice(results[0] if results else "", doc["choices"]) == doc["answer"] else 0.0}
'''

INSPECT_TASK = '''"""inspect_ai task of a rave probes folder (written by `rave export PROBES --harness inspect`): the
probes are probes.jsonl beside this file, the images images/. `inspect eval task.py@probes --model M
[-T type=count] [-T form=panels]`; the task is rave.harness.probes_inspect's (`import rave`)."""
import os

from inspect_ai import task

from rave.harness import probes_inspect

HERE = os.path.dirname(os.path.abspath(__file__))


@task
def probes(type: str = "", form: str = "sheet"):
    """This folder's perception probes; the reply read by rave.harness.probes.read_choice."""
    return probes_inspect.probes_task(HERE, type, form)
'''


def _types(rows):
    return [t for t in p.TYPES if any(r["type"] == t for r in rows)]


def _yaml_task(task, form, docs_path):
    return (f"task: {task}\n"
            "dataset_path: json\n"
            f"dataset_kwargs:\n  data_files:\n    test: {json.dumps(docs_path)}\n"
            "test_split: test\n"
            "output_type: generate_until\n"
            f"doc_to_visual: !function utils.doc_to_visual_{form}\n"
            f"doc_to_text: !function utils.doc_to_text_{form}\n"
            "doc_to_target: !function utils.doc_to_target\n"
            "generation_kwargs:\n  max_new_tokens: 256\n  temperature: 0\n  do_sample: false\n"
            "process_results: !function utils.process_results\n"
            "metric_list:\n  - metric: accuracy\n    aggregation: mean\n    higher_is_better: true\n"
            "lmms_eval_specific_kwargs:\n  default:\n    pre_prompt: \"\"\n    post_prompt: \"\"\n"
            "metadata:\n  version: 1.0\n")


def write_lmms_eval(folder, final, rows, name, forms):
    """Per form a group of one task per question type; returns the group names."""
    c.write_text(os.path.join(folder, "utils.py"), LMMS_UTILS)
    groups = []
    for form in forms:
        group = f"{name}_probes" + ("" if form == "sheet" else "_panels")
        tasks = []
        for kind in _types(rows):
            task = f"{name}_probe_{kind}" if form == "sheet" else f"{name}_probe_panels_{kind}"
            c.write_jsonl(os.path.join(folder, "docs", f"{kind}.jsonl"), [r for r in rows if r["type"] == kind])
            path = os.path.join(final, "docs", f"{kind}.jsonl")
            c.write_text(os.path.join(folder, f"{task}.yaml"), _yaml_task(task, form, path))
            tasks.append(task)
        c.write_text(os.path.join(folder, f"_{group}.yaml"), _yaml_group(group, tasks))
        groups.append(group)
    return groups


def write_inspect(folder, final, rows, name, forms):
    c.write_jsonl(os.path.join(folder, "probes.jsonl"), rows)
    c.write_text(os.path.join(folder, "task.py"), INSPECT_TASK)
    return ["task.py@probes"]


def _b64(data, path):
    with open(os.path.join(data, path), "rb") as f:
        return base64.b64encode(f.read()).decode("ascii")


def _tsv_row(index, row, data, form):
    image = _b64(data, row["sheet"]) if form == "sheet" else str([_b64(data, q) for q in row["panels"]])
    out = {"index": index, "image": image, "question": p.question(row[f"{form}_prompt"]),
           "answer": p.LETTERS[row["choices"].index(row["answer"])], "category": row["type"], "id": row["id"],
           "problem": row["problem"], "split": row["split"]}
    out.update(dict(zip(p.LETTERS, row["choices"])))
    return out


def write_tsvs(folder, rows, data, name, forms):
    """VLMEvalKit's custom multiple-choice TSVs; returns (dataset names, questions left out)."""
    kept = [r for r in rows if len(r["choices"]) <= len(p.LETTERS)]
    width = max(len(r["choices"]) for r in kept) if kept else 0
    columns = ["index", "image", "question", *p.LETTERS[:width], "answer", "category", "id", "problem", "split"]
    names = []
    for form in forms:
        dataset = f"{name}_PROBES" + ("" if form == "sheet" else "_PANELS")
        with open(os.path.join(folder, f"{dataset}.tsv"), "w", encoding="utf-8", newline="") as f:
            writer = csv.DictWriter(f, fieldnames=columns, delimiter="\t", lineterminator="\n", restval="")
            writer.writeheader()
            for index, row in enumerate(kept):
                writer.writerow(_tsv_row(index, row, data, form))
        names.append(dataset)
    return names, len(rows) - len(kept)


def readme(harness, final, names, data, left_out):
    run = {"lmms-eval": f"lmms-eval --model M --include_path {final} --tasks {','.join(names)}",
           "inspect": f"inspect eval {os.path.join(final, 'task.py')}@probes --model M",
           "vlmevalkit": f"cp {final}/*.tsv $LMUData/ && python run.py --data {' '.join(names)} --model M"}[harness]
    note = f"\n{left_out} questions of more than 26 choices are left out (VLMEvalKit's options are A-Z).\n" \
        if left_out else ""
    return (f"# rave perception probes for {harness}\n\nFrom the probes folder {os.path.abspath(data)} "
            f"(`rave probes`). Run:\n\n```sh\n{run}\n```\n\nA reply is read by rave.harness.probes.read_choice "
            f"(docs/probes.md: the reading rule).\n{note}")
