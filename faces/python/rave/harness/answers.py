"""What the harnesses write, read back as rave's predictions (`rave harness-answers FILE... -o OUT`), so
`rave score OUT --data DIR` scores the same answers (docs/harnesses.md#scoring-what-a-harness-wrote):

- lm-eval `--log_samples` files (samples_<task>_<time>.jsonl): a multiple_choice line becomes
  {"answer": lm-eval's pick, "scores": the log-likelihoods} (`acc`: np.argmax, the first on a tie;
  `metric="acc_norm"`: of the log-likelihoods divided by the continuations' characters); a
  generate_until line {"text": [its samples]}, read by `rave score --text-answer index`;
- an inspect_ai log (.eval or .json): {"text": [the completion of every epoch]}, `--text-answer letter`;
- lmms-eval `--log_samples` files: {"text": [the reply]}, `--text-answer label`;
- a VLMEvalKit prediction file (.xlsx, .tsv, .csv): {"text": [prediction]}, `--text-answer letter`.

Every line keeps the problem's id and `answers_shuffled`, so `rave score` maps a shuffled order back.
"""
import json
import os

from rave.harness._common import HarnessError

TEXT_ANSWER = {"lm-eval-gen": "index", "inspect": "letter", "lmms-eval": "label", "vlmevalkit": "letter"}


def _line(doc_id, seed, model, **answer):
    line = {"id": doc_id, **answer}
    if seed is not None and seed != -1:
        line["answers_shuffled"] = int(seed)
    if model:
        line["model"] = model
    return line


def _argmax(values):
    return max(range(len(values)), key=lambda k: (values[k], -k))  # the first of equal maxima


def _lm_eval_line(sample, metric, model):
    doc = sample["doc"]
    if "mc_choices" in doc and sample.get("filter", "none") == "none" and "acc" in sample:
        lls = [float(r[0]) for r in sample["filtered_resps"]]
        scores = lls if metric == "acc" else [ll / len(ch) for ll, ch in zip(lls, doc["mc_choices"])]
        return _line(doc["id"], doc.get("answers_shuffled"), model, answer=_argmax(scores), scores=scores), "lm-eval-mc"
    texts = [str(t) for t in sample["resps"][0]]
    return _line(doc["id"], doc.get("answers_shuffled"), model, text=texts), "lm-eval-gen"


def _lmms_docs(path):
    """The docs of an lmms-eval samples file (<stamp>_samples_<task>.jsonl): lmms-eval logs no doc, only
    its doc_id, so they are read from the file its results (<stamp>_results.json) name for the task."""
    folder, name = os.path.split(path)
    stamp, _, task = name[:-len(".jsonl")].partition("_samples_")
    results = os.path.join(folder, f"{stamp}_results.json")
    try:
        with open(results, encoding="utf-8") as f:
            docs = json.load(f)["configs"][task]["dataset_kwargs"]["data_files"]["test"]
        with open(docs, encoding="utf-8") as f:
            return [json.loads(line) for line in f if line.strip()]
    except (OSError, KeyError, ValueError) as e:
        raise HarnessError(f"{path}: the task's problems are not where {results} says ({e})") from e


def _lmms_line(sample, docs, model):
    doc = docs[sample["doc_id"]]
    replies = sample["filtered_resps"]
    replies = replies if isinstance(replies, list) else [replies]
    return _line(doc["id"], doc.get("answers_shuffled"), model, text=[str(t) for t in replies]), "lmms-eval"


def _jsonl_lines(path, metric, model):
    out, docs = [], None
    with open(path, encoding="utf-8") as f:
        for number, text in enumerate(f, 1):
            if not text.strip():
                continue
            sample = json.loads(text)
            if "doc" in sample and "resps" in sample:
                out.append(_lm_eval_line(sample, metric, model))
            elif "doc_id" in sample and "filtered_resps" in sample and "_samples_" in os.path.basename(path):
                docs = docs if docs is not None else _lmms_docs(path)
                out.append(_lmms_line(sample, docs, model))
            else:
                raise HarnessError(f"{path}:line {number}: neither an lm-eval nor an lmms-eval sample")
    return out


def _inspect_lines(path, model):
    from inspect_ai.log import read_eval_log
    log = read_eval_log(path)
    replies, seeds = {}, {}
    for sample in log.samples or []:
        replies.setdefault(sample.id, []).append(sample.output.completion if sample.output else "")
        seeds[sample.id] = (sample.metadata or {}).get("answers_shuffled")
    name = model or log.eval.model
    return [(_line(i, seeds[i], name, text=texts), "inspect") for i, texts in replies.items()]


def _vlmevalkit_lines(path, model):
    import pandas as pd
    ext = os.path.splitext(path)[1].lower()
    table = pd.read_excel(path) if ext == ".xlsx" else pd.read_csv(path, sep="\t" if ext == ".tsv" else ",")
    for column in ("id", "prediction"):
        if column not in table:
            raise HarnessError(f"{path}: no '{column}' column (a VLMEvalKit prediction file of rave's TSV)")
    seeds = table["answers_shuffled"] if "answers_shuffled" in table else [None] * len(table)
    return [(_line(str(i), None if s is None else int(s), model, text=["" if pd.isna(p) else str(p)]), "vlmevalkit")
            for i, p, s in zip(table["id"], table["prediction"], seeds)]


def read_harness_file(path, metric="acc", model=""):
    """[(prediction line, kind)] of one harness output file."""
    if not os.path.isfile(path):
        raise HarnessError(f"{path}: no such file")
    ext = os.path.splitext(path)[1].lower()
    if ext in (".xlsx", ".tsv", ".csv"):
        return _vlmevalkit_lines(path, model)
    if ext == ".eval" or (ext == ".json" and _is_inspect_json(path)):
        return _inspect_lines(path, model)
    return _jsonl_lines(path, metric, model)


def _is_inspect_json(path):
    with open(path, encoding="utf-8") as f:
        head = f.read(4096)
    return '"eval"' in head and '"version"' in head


def convert(paths, out, metric="acc", model=""):
    """Writes rave's predictions for the harness files `paths` to `out`; returns (lines, kinds)."""
    if metric not in ("acc", "acc_norm"):
        raise HarnessError(f"--metric must be acc or acc_norm, not '{metric}'")
    lines, kinds, seen = [], set(), {}
    for path in paths:
        for line, kind in read_harness_file(path, metric, model):
            if line["id"] in seen:
                raise HarnessError(f"{path}: problem {line['id']} again (first in {seen[line['id']]})")
            seen[line["id"]] = path
            lines.append(line)
            kinds.add(kind)
    tmp = out + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        for line in lines:
            f.write(json.dumps(line, ensure_ascii=False) + "\n")
    os.replace(tmp, out)
    return lines, kinds
