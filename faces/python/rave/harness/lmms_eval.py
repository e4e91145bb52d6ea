"""The task folder for lmms-eval (`rave export --harness lmms-eval`): YAML + utils.py per configuration
in two forms, each a group:

- `<name>_sheet_<configuration>` (group `<name>_sheet`): one image, the answer-free sheet of
  `rave show --vlm` (the matrix above the 8 candidates labelled 1..8), with its `sheet_prompt`;
- `<name>_panels_<configuration>` (group `<name>_panels`): the N*N-1 context panels then the 8
  candidates as separate images (the npz panels, pixel for pixel), with its `panels_prompt`.

The prompts ask for the candidate's number 1..8; `process_results` reads the reply by `rave score
--text-answer label`'s rule (`rave.read_reply`), so `accuracy` is rave's figure. The images are
images/ (written by `rave show --vlm --panels --with-answer`), docs/<configuration>.jsonl its lines.
lmms-eval loads the docs with the `json` builder from the folder's absolute path (the YAML names it):
move the folder and export it again.
"""
import json
import os

from rave.harness import _common as c

UTILS = '''"""lmms-eval code of a rave task folder (written by `rave export --harness lmms-eval`): the images
are images/ beside this file, drawn by `rave show --vlm`; replies are read by rave's own reader
(`import rave`), the one `rave score` uses, so the harness's accuracy is rave's."""
import os

from PIL import Image

HERE = os.path.dirname(os.path.abspath(__file__))


def _image(path):
    with Image.open(os.path.join(HERE, "images", path)) as image:
        return image.convert("RGB")


def doc_to_visual_sheet(doc):
    """The answer-free sheet: the matrix, its last cell "?", above the 8 candidates labelled 1..8."""
    return [_image(doc["sheet"])]


def doc_to_visual_panels(doc):
    """The context panels in reading order, then candidates 1..8 (the npz panels, in the shown order)."""
    return [_image(p) for p in doc["panels"]]


def _text(prompt, kwargs):
    kwargs = kwargs or {}
    return kwargs.get("pre_prompt", "") + prompt + kwargs.get("post_prompt", "")


def doc_to_text_sheet(doc, lmms_eval_specific_kwargs=None):
    return _text(doc["sheet_prompt"], lmms_eval_specific_kwargs)


def doc_to_text_panels(doc, lmms_eval_specific_kwargs=None):
    return _text(doc["panels_prompt"], lmms_eval_specific_kwargs)


def doc_to_target(doc):
    return str(doc["answer"])


def process_results(doc, results):
    """1 when the reply names the answer's label (1..8) by `rave score --text-answer label`'s rule."""
    import rave
    k = rave.read_reply(results[0] if results else "", "label")
    return {"accuracy": 1.0 if k is not None and k + 1 == doc["answer"] else 0.0}
'''


def _yaml_task(name, form, config, docs_path):
    return (f"task: {name}_{form}_{config}\n"
            "dataset_path: json\n"
            "dataset_kwargs:\n"
            f"  data_files:\n    test: {json.dumps(docs_path)}\n"
            "test_split: test\n"
            "output_type: generate_until\n"
            f"doc_to_visual: !function utils.doc_to_visual_{form}\n"
            f"doc_to_text: !function utils.doc_to_text_{form}\n"
            "doc_to_target: !function utils.doc_to_target\n"
            "generation_kwargs:\n  max_new_tokens: 512\n  temperature: 0\n  do_sample: false\n"
            "process_results: !function utils.process_results\n"
            "metric_list:\n  - metric: accuracy\n    aggregation: mean\n    higher_is_better: true\n"
            "lmms_eval_specific_kwargs:\n  default:\n    pre_prompt: \"\"\n    post_prompt: \"\"\n"
            "metadata:\n  version: 1.0\n")


def _yaml_group(group, tasks):
    return "\n".join([f"group: {group}", "task:"] + [f"  - {t}" for t in tasks] + [
        "aggregate_metric_list:", "  - metric: accuracy", "    aggregation: mean", "    weight_by_size: true",
        "metadata:", "  version: 1.0", ""])


def write_folder(folder, final, rows, name):
    """The lmms-eval task folder from `rave show --vlm` lines (`rows`, images already in folder/images);
    `final` is the folder's path once renamed into place (the YAML's data_files name it)."""
    configs = c.configurations(rows)
    c.write_text(os.path.join(folder, "utils.py"), UTILS)
    for config in configs:
        c.write_jsonl(os.path.join(folder, "docs", f"{config}.jsonl"),
                      [r for r in rows if r["configuration"] == config])
        for form in ("sheet", "panels"):
            path = os.path.join(os.path.abspath(final), "docs", f"{config}.jsonl")
            c.write_text(os.path.join(folder, f"{name}_{form}_{config}.yaml"), _yaml_task(name, form, config, path))
    for form in ("sheet", "panels"):
        c.write_text(os.path.join(folder, f"_{name}_{form}.yaml"),
                     _yaml_group(f"{name}_{form}", [f"{name}_{form}_{k}" for k in configs]))
    return [f"{name}_sheet", f"{name}_panels"]
