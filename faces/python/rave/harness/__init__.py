"""rave's problems as task folders for the evaluation harnesses researchers run, and their outputs read
back for `rave score` (docs/harnesses.md)::

    rave export data/raven --harness lm-eval -o tasks/lm         # python -m rave export-harness lm-eval ...
    lm_eval --model hf --model_args pretrained=M --include_path tasks/lm --tasks rave --log_samples -o runs
    rave harness-answers runs/M/samples_rave_*.jsonl -o answers.jsonl   # rave's predictions format
    rave score answers.jsonl --data data/raven

`export_harness(data, out, harness, ...)` writes the folder: lm-eval (rave.harness.lm_eval), inspect
(rave.harness.inspect_task), lmms-eval (rave.harness.lmms_eval) or vlmevalkit (rave.harness.vlmevalkit).
The prompts and images are rave's own (`rave export`, `rave show --vlm`), so they stay character for
character those of IBM's and lm-raven's code; with `shuffle=SEED` every form shows the candidates in
the order `rave export --answers-shuffled SEED` draws, which the answers carry back to `rave score`.
"""
import os
import tempfile

from rave._rave import option_defaults
from rave.harness import _common as c
from rave.harness._common import HarnessError

HARNESSES = ("lm-eval", "inspect", "lmms-eval", "vlmevalkit")
STYLE = option_defaults()["export"]["style"]  # `rave export --style`'s default, evaluation::TextOptions'
TEXT_FLAGS = ("--rows-shown", "--no-offsets", "--no-scaling", "--angle", "--uncertainty", "--uncertainty-range",
              "--uncertainty-seed", "--prefix")

__all__ = ["HARNESSES", "HarnessError", "export_harness"]


def _text_rows(data, tmp, style, shuffle, text_args, drop_ambiguous, jobs):
    path = os.path.join(tmp, "rave.jsonl")
    args = ["export", data, "-f", "text", "--style", style, "-o", path, "-j", jobs, *text_args]
    if shuffle is not None:
        args += ["--answers-shuffled", shuffle]
    if drop_ambiguous:
        args.append("--drop-ambiguous")
    c.run_rave(args)
    return c.read_jsonl(path)


def _vlm_rows(data, tmp, shuffle, drop_ambiguous, jobs):
    images = os.path.join(tmp, "images")
    args = ["show", data, "--vlm", images, "--panels", "--with-answer", "-j", jobs]
    if shuffle is not None:
        args += ["--answers-shuffled", shuffle]
    c.run_rave(args)
    rows = c.read_jsonl(os.path.join(images, "vlm.jsonl"))
    for row in rows:
        row["answer_index"] = row["target"]
    if drop_ambiguous:
        unique = {r["id"] for r in c.read_jsonl(_verdicts(data, tmp, jobs)) if r["verdict"] == "unique"}
        rows = [r for r in rows if r["id"] in unique]
    return rows, images


def _verdicts(data, tmp, jobs):
    path = os.path.join(tmp, "verdicts.jsonl")
    c.run_rave(["export", data, "-f", "json", "--drop-ambiguous", "-o", path, "-j", jobs])
    return path


def export_harness(data, out, harness, style=STYLE, shuffle=None, name="rave", split=None,
                   drop_ambiguous=False, samples=1, text_args=(), jobs=1):
    """Writes the task folder `out` for `harness` from the problems `data` (what `rave export` reads), or from
    a `rave probes` folder (rave.harness.probes); returns (the task groups or dataset names, {key: items})."""
    if harness not in HARNESSES:
        raise HarnessError(f"--harness must be one of {', '.join(HARNESSES)}, not '{harness}'")
    from rave.harness import probes
    if probes.is_probes(data):
        if style != STYLE or text_args or shuffle is not None or drop_ambiguous or samples != 1:
            raise HarnessError(f"{data}: a probes folder is exported as `rave probes` wrote it (only --task-name and "
                               "--split apply)")
        return probes.export(data, out, harness, name, split)
    visual = harness in ("lmms-eval", "vlmevalkit")
    if visual and (style != STYLE or text_args):
        raise HarnessError(f"{harness} shows images: the text prompt flags (--style, {', '.join(TEXT_FLAGS)}) "
                           "do not apply")
    final = os.path.abspath(out)
    with c.staged_folder(out) as folder, tempfile.TemporaryDirectory() as tmp:
        if visual:
            rows, images = _vlm_rows(data, folder if harness == "lmms-eval" else tmp, shuffle, drop_ambiguous, jobs)
        else:
            rows = _text_rows(data, tmp, style, shuffle, list(text_args), drop_ambiguous, jobs)
        rows = c.keep_split(rows, split)
        if not rows:
            raise HarnessError(f"{data}: no problems")
        c.check_answers(rows, data)
        names = _write(harness, folder, final, rows, name, samples, images if visual else None)
        counts = c.counts_of(rows)
        c.write_marker(folder, harness, c.command_line(), counts, data=os.path.abspath(data), style=style,
                       answers_shuffled=None if shuffle is None else int(shuffle), tasks=names,
                       text_answer=_TEXT_ANSWER[harness])
        c.write_text(os.path.join(folder, "README.md"), _readme(harness, final, names, data))
    return names, counts


_TEXT_ANSWER = {"lm-eval": "index", "inspect": "letter", "lmms-eval": "label", "vlmevalkit": "letter"}


def _write(harness, folder, final, rows, name, samples, images):
    if harness == "lm-eval":
        from rave.harness import lm_eval
        return lm_eval.write_folder(folder, rows, name, samples=samples)
    if harness == "inspect":
        from rave.harness import inspect_folder
        return inspect_folder.write_folder(folder, rows)
    if harness == "lmms-eval":
        from rave.harness import lmms_eval
        return lmms_eval.write_folder(folder, final, rows, name)
    from rave.harness import vlmevalkit
    return vlmevalkit.write_files(folder, rows, images, name.upper())


def _readme(harness, final, names, data):
    from rave.harness import readme
    return readme.text(harness, final, names, data)
