"""A `rave probes` folder as task folders for the image harnesses (`rave export PROBES --harness H -o OUT`,
docs/probes.md): each probe one item, its sheet (or, when the folder was made with `--panels`, its panels
too) the image, its prompt the question, its answer one of its `choices`.

- lmms-eval: `<name>_probe_<type>` per question type (group `<name>_probes`) on the sheet, and with
  panels `<name>_probe_panels_<type>` (group `<name>_probes_panels`); `accuracy` by `read_choice`.
- inspect: task.py, task `probes` (`-T type=count`, `-T form=panels`), scored by `read_choice`, grouped
  by type.
- vlmevalkit: `<NAME>_PROBES.tsv` (and `<NAME>_PROBES_PANELS.tsv`): its custom multiple-choice layout,
  the choices as options A, B, ... (a question of more than 26 choices is left out and counted).

lm-eval runs text models, and a probe asks about a picture: it is refused.

`read_choice(reply, choices)` is the reading rule: a reply equal to a choice (case, markdown and final
punctuation aside) is that choice; otherwise the text after the reply's last "answer" (the whole reply
when it has none) is searched: where the choices are sets of attributes ("size, color"), the set of
attribute names it mentions ("none" when it names none but says none); otherwise the choice it names
first (the longest where two start at one place). A reply naming no choice is unreadable (None).
"""
import os
import re
import shutil

from rave.harness import _common as c

TYPES = ("count", "empty_position", "shape", "color", "same", "row_change", "one_difference")
ASK = re.compile(r" Answer [^?]*\.$")  # the prompt's last sentence, which says how to answer
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def is_probes(data):
    return os.path.isfile(os.path.join(data, "probes.jsonl"))


def _norm(text):
    text = re.sub(r"[*_`\"']", " ", str(text).lower())
    return " ".join(text.split()).strip(" .!")


def _phrase(choice):
    return re.compile(r"(?<![\w])" + re.escape(_norm(choice)) + r"(?![\w])")


def _first_named(segment, choices):
    found = [(m.start(), -len(choice), choice) for choice in choices for m in [_phrase(choice).search(segment)] if m]
    return min(found)[2] if found else None


def _named_set(segment, choices):
    atoms = sorted({a for choice in choices for a in choice.split(", ")} - {"none"})
    named = {a for a in atoms if _phrase(a).search(segment)}
    if not named:
        return "none" if "none" in choices and _phrase("none").search(segment) else None
    return next((choice for choice in choices if set(choice.split(", ")) == named), None)


def read_choice(reply, choices):
    """The choice a reply names, by the rule of this module's docstring; None when it names none."""
    text = _norm(reply)
    for choice in choices:
        if text == _norm(choice):
            return choice
    at = text.rfind("answer")
    segment = text[at + len("answer"):] if at >= 0 else text
    if any(", " in choice for choice in choices):
        return _named_set(segment, choices)
    return _first_named(segment, choices)


def question(prompt):
    """The prompt without its last sentence (which lists the choices): VLMEvalKit appends them as options."""
    cut = ASK.sub("", prompt)
    if cut == prompt:
        raise c.HarnessError(f"a probe prompt no longer ends with a sentence 'Answer ...': {prompt[-80:]!r}")
    return cut


def read_probes(data, split):
    rows = c.keep_split(c.read_jsonl(os.path.join(data, "probes.jsonl")), split)
    if not rows:
        raise c.HarnessError(f"{data}/probes.jsonl: no probes")
    for row in rows:
        if row.get("answer") not in row.get("choices", []):
            raise c.HarnessError(f"{data}/probes.jsonl: probe {row.get('id')} has no answer among its choices")
    return rows


def export(data, out, harness, name="rave", split=None):
    """Writes the task folder `out` for `harness` from the probes folder `data`; returns (names, counts)."""
    if harness == "lm-eval":
        raise c.HarnessError(f"{data}: probes ask about pictures and lm-eval's tasks are text: "
                             "use --harness lmms-eval, inspect or vlmevalkit")
    rows = read_probes(data, split)
    forms = ["sheet"] + (["panels"] if "panels" in rows[0] else [])
    final = os.path.abspath(out)
    with c.staged_folder(out) as folder:
        if harness == "vlmevalkit":
            from rave.harness import probes_files
            names, left_out = probes_files.write_tsvs(folder, rows, data, name.upper(), forms)
        else:
            _copy_images(data, folder)
            from rave.harness import probes_files
            write = probes_files.write_lmms_eval if harness == "lmms-eval" else probes_files.write_inspect
            names, left_out = write(folder, final, rows, name, forms), 0
        counts = {t: sum(r["type"] == t for r in rows) for t in TYPES if any(r["type"] == t for r in rows)}
        c.write_marker(folder, harness, c.command_line(), counts, data=os.path.abspath(data), probes=True,
                       tasks=names, left_out=left_out, reading="rave.harness.probes.read_choice")
        c.write_text(os.path.join(folder, "README.md"), probes_files.readme(harness, final, names, data, left_out))
    return names, counts


def _copy_images(data, folder):
    for entry in sorted(os.listdir(data)):
        if os.path.isdir(os.path.join(data, entry)):
            shutil.copytree(os.path.join(data, entry), os.path.join(folder, "images", entry))
