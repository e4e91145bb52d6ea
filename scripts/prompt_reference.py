#!/usr/bin/env python3
"""The prompts of the sources' own code, for checking `rave export`'s styles against them.

rave's text styles (docs/evaluation.md#prompt-styles) reproduce IBM's I-RAVEN / I-RAVEN-X code
(IBM/raven-large-language-models) and lm-raven (hxiaoyang/lm-raven). This script runs *their*
code (a checkout you give it; none of it is in this repository) on the problems of a
`rave export -f json` file and writes what it prompts, in the fields `rave export` writes, so
the two can be compared line by line. It also reduces either side to one short hash per line, the
form the conformance fixtures keep (tests/fixtures/prompts/).

  # their code at the named commits, outside the repository:
  git -C IBM.git archive 5b3c5e4 | tar -x -C /tmp/ibm-2025
  git -C IBM.git archive 2ada9bb | tar -x -C /tmp/ibm-2024
  git -C lm-raven.git archive 500e6f7 | tar -x -C /tmp/lm-raven
  rave export set -f json -o set.json.jsonl
  rave export set --style ibm-2025 --no-offsets -o rave.jsonl
  prompt_reference.py expect --style ibm-2025 --code /tmp/ibm-2025 --no-offsets \\
      set.json.jsonl --seeds-from rave.jsonl -o theirs.jsonl
  prompt_reference.py hash rave.jsonl > rave.hashes;  prompt_reference.py hash theirs.jsonl
  # IBM's generative protocol (Solver_pred), the same way:
  rave export set --style ibm-2025 --classmode pred -o pred.jsonl
  prompt_reference.py expect --style ibm-2025 --classmode pred --code /tmp/ibm-2025 \\
      set.json.jsonl -o theirs-pred.jsonl
  # reading the replies: IBM's _predict beside rave score (needs numpy and scipy):
  rave export set/center_single -f text-disentangled --classmode pred -o key.jsonl
  prompt_reference.py match key.jsonl --rave build/apps/rave --code /tmp/ibm-2025 --seed 1
  # the conformance fixture, every case of tests/fixtures/prompts/cases.json:
  prompt_reference.py fixture --rave build/apps/rave --ibm-2025 /tmp/ibm-2025 \\
      --ibm-2024 /tmp/ibm-2024 --lm-raven /tmp/lm-raven

Their model wrappers are called with a stand-in model that records the query it is sent, so the
query is assembled by their code, not retyped here: IBM's `Solver_disc` and `Solver_pred`
(`--classmode pred`: `_merge` sends one query, `_split` one per branch), lm-raven's `Solver`.
"""
import argparse
import contextlib
import hashlib
import importlib
import io
import json
import re
import sys
import types


def placeholder_modules(names):
    """Empty stand-ins for the imports their model code needs (API clients, tqdm, scipy)."""
    for name in names:
        if name in sys.modules:
            continue
        module = types.ModuleType(name)
        module.__path__ = []  # a package, so submodules can be replaced too
        module.__getattr__ = lambda attr, _n=name: type(attr, (), {})
        sys.modules[name] = module
    sys.modules["tqdm"].tqdm = lambda x, *a, **k: x


class Recorded(Exception):
    """Raised by the stand-in model once it has the query: the rest of their method is skipped."""


class RecordingModel:
    def forward(self, prompt, query):
        raise Recorded({"system": prompt, "prompt": query})


class CollectingModel:
    """Records every query and answers nothing, so a solver that sends several (Solver_pred's
    `_split`, one per branch) runs to its end."""
    def __init__(self):
        self.queries = []

    def forward(self, prompt, query):
        self.queries.append({"system": prompt, "prompt": query})
        return {"out": []}


def ibm_solver(code_dir):
    placeholder_modules(["tqdm", "scipy", "scipy.stats", "src.models"])
    sys.modules["scipy.stats"].mode = None
    sys.modules["src.models"].get_model = lambda *a, **k: RecordingModel()
    sys.path.insert(0, code_dir)
    rpm = importlib.import_module("src.datasets.rpm_dataset")
    disc = importlib.import_module("src.solver_disc")
    pred = importlib.import_module("src.solver_pred")
    return rpm, disc, pred


def lm_raven_classes(code_dir):
    """lm-raven's inference.py with its model imports replaced by empty modules (only its text classes run)."""
    placeholder_modules(["accelerate", "openai", "requests", "torch", "torch.nn", "torch.nn.functional",
                  "tqdm", "transformers"])
    sys.modules["torch.nn.functional"].log_softmax = None
    namespace = {"__name__": "lm_raven_inference"}
    with open(f"{code_dir}/inference.py") as f:
        exec(compile(f.read(), "inference.py", "exec"), namespace)
    return namespace


def sample_of(line):
    """A rave json export line as the sources' transcribed sample ({"rpm": [...], "target"})."""
    components = line["components"]
    panels = line["context"] + line["candidates"]
    rpm = []
    for panel in panels:
        comps = []
        for c, comp in enumerate(panel):
            grid = len(components[c]["slots"]) > 1
            entities = []
            for e in comp["entities"]:
                d = {"Type": str(e["type"]), "Size": str(e["size"]), "Color": str(e["color"]),
                     "Angle": str(e["angle"])}
                for k, v in enumerate(e.get("confounders", [])):
                    d["Confounder" + str(k)] = str(v)
                entities.append(d)
            if grid:
                comps.append({"positions": [components[c]["slots"][e["slot"]]
                                            for e in comp["entities"]],
                              "entities": entities})
            else:
                comps.append(entities[0])
        rpm.append(comps)
    return {"rpm": rpm, "target": line.get("answer") or 0}


COMPONENT_NAMES = {  # rave's component names, for problems read from an IBM file
    "center_single": ["Grid"], "distribute_four": ["Grid"], "distribute_nine": ["Grid"],
    "left_center_single_right_center_single": ["Left", "Right"],
    "up_center_single_down_center_single": ["Up", "Down"],
    "in_center_single_out_center_single": ["Out", "In"],
    "in_distribute_four_out_center_single": ["Out", "In"]}


def problem_of_export(line):
    """A rave json export line as the fields the runners read."""
    variant = line.get("variant", {})
    return {"id": line["id"], "configuration": line["configuration"], "sample": sample_of(line),
            "n": int(round((len(line["context"]) + 1) ** 0.5)),
            "nconf": variant.get("confounders", 0), "values": variant.get("values", 0) or 10,
            "names": [c["name"] for c in line["components"]]}


def problems_of_ibm(path):
    """The problems of an IBM JSON file (their iraven_task / iravenx_task output) in key order;
    the configuration is the file's stem, as their config names it."""
    import os
    import re
    stem = os.path.splitext(os.path.basename(path))[0]
    config = next(c for c in sorted(COMPONENT_NAMES, key=len, reverse=True) if stem.startswith(c))
    maxval = re.search(r"maxval_(\d+)", stem)
    samples = json.load(open(path))
    for key in sorted(samples, key=int):
        sample = samples[key]
        first = sample["rpm"][0][0]
        yield {"id": key, "configuration": stem, "sample": sample,
               "n": int(round((len(sample["rpm"]) - 7) ** 0.5)),
               "nconf": sum(1 for k in first if k.startswith("Confounder")),
               "values": int(maxval.group(1)) if maxval else 10,
               "names": COMPONENT_NAMES[config]}


def problems_of(path):
    if path.endswith(".json"):
        yield from problems_of_ibm(path)
        return
    for raw in open(path):
        yield problem_of_export(json.loads(raw))


class IbmRunner:
    def __init__(self, code_dir, style, args):
        self.rpm, self.disc, self.pred = ibm_solver(code_dir)
        self.style, self.args = style, args

    def solver(self, prefix):
        s = self.disc.Solver_disc.__new__(self.disc.Solver_disc)
        s.model, s.prefix, s.prompt = RecordingModel(), prefix, "Complete the Raven's progressive matrix:"
        return s

    def kwargs(self, line):
        a = self.args
        n = line["n"]
        k = {"n": n, "add_angle": a.angle}
        if self.style == "ibm-2025":  # 2ada9bb's solver passes neither nshow nor the switches
            k.update(nshow=n if a.rows_shown == "all" else int(a.rows_shown),
                     offset=not a.no_offsets, scaling=not a.no_scaling)
        return k

    def nconf(self, line):
        return line["nconf"]

    def entangled(self, line, seed):
        import numpy as np
        a, k, s = self.args, self.kwargs(line), self.solver(self.prefix())
        if self.style == "ibm-2025":
            k.update(nconf=self.nconf(line), uncertainty=a.uncertainty,
                     maxval_uncert=a.uncertainty_range or line["values"])
        if seed is not None:
            np.random.seed(seed)
        try:
            s._merge(line["sample"], line["configuration"], [], **k)
        except Recorded as r:
            query = r.args[0]
        rpm = self.rpm.RPM(line["sample"], line["configuration"], **k) if seed is None else None
        return query, rpm

    def prefix(self):
        return self.args.prefix if self.args.prefix is not None else "Only return the missing numbers!\n"

    def text(self, line, seed):
        query, rpm = self.entangled(line, seed)
        if rpm is None:  # uncertain values: a second RPM would draw anew; parse the query instead
            context, _, answers = query["prompt"][len(self.prefix()):].partition("\nAnswer set:\n")
            choices = [c.split(": ", 1)[1] for c in answers.split("\n")]
        else:
            context, choices = rpm.context, rpm.choices
        return {"system": query["system"], "prompt": query["prompt"], "context": context,
                "choices": [str(c) for c in choices]}

    def disentangled(self, line):
        k = self.kwargs(line)
        if self.style == "ibm-2025":
            k.update(nconf=self.nconf(line))
        rpm = self.rpm.RPM(line["sample"], line["configuration"], **k)
        names = line["names"]
        out = []
        for c, component in enumerate(rpm.components):
            for name, branch in component.branches.items():
                out.append({"component": names[c], "attribute": name,
                            "system": "Complete the Raven's progressive matrix:",
                            "prompt": self.branch_query(branch), "context": branch.context,
                            "choices": [str(x) for x in branch.choices]})
        return {"prompts": out}

    def branch_query(self, branch):
        """The query their `_split` sends for one branch (it builds them inline, so the loop body is
        run here on a one-branch component)."""
        s = self.solver(self.prefix())
        fake = types.SimpleNamespace(components=[types.SimpleNamespace(branches={"b": branch})],
                                     choices=branch.choices)
        original = self.disc.RPM
        self.disc.RPM = lambda *a, **k: fake
        try:
            s._split({"rpm": []}, "x", [], **{})
        except Recorded as r:
            return r.args[0]["prompt"]
        finally:
            self.disc.RPM = original
        raise RuntimeError("their _split sent no query")


class IbmPredRunner(IbmRunner):
    """IBM's Solver_pred (classmode pred): `_merge` for the entangled query, `_split` for one
    query per branch; both build their RPM without nconf or uncertainty."""

    def solver(self, prefix):
        s = self.pred.Solver_pred.__new__(self.pred.Solver_pred)
        s.model, s.prefix = CollectingModel(), prefix
        s.prompt = "Complete the Raven's progressive matrix:"
        s.cfg = types.SimpleNamespace(data=types.SimpleNamespace(nattr=3))  # text2num(choices)
        return s

    def kwargs(self, line):
        a, n = self.args, line["n"]  # both commits' Solver_pred pass nshow
        k = {"n": n, "nshow": n if a.rows_shown == "all" else int(a.rows_shown),
             "add_angle": a.angle}
        if self.style == "ibm-2025":
            k.update(offset=not a.no_offsets, scaling=not a.no_scaling)
        return k

    def text(self, line, _seed):
        s, k = self.solver(self.prefix()), self.kwargs(line)
        s._merge(line["sample"], line["configuration"], [], **k)
        (query,) = s.model.queries
        rpm = self.rpm.RPM(line["sample"], line["configuration"], **k)
        return {**query, "context": rpm.context, "choices": [str(c) for c in rpm.choices]}

    def disentangled(self, line):
        s, k = self.solver(self.prefix()), self.kwargs(line)
        s._split(line["sample"], line["configuration"], [], **k)
        queries = iter(s.model.queries)
        rpm = self.rpm.RPM(line["sample"], line["configuration"], **k)
        out = []
        for c, component in enumerate(rpm.components):
            for name, branch in component.branches.items():
                out.append({"component": line["names"][c], "attribute": name, **next(queries),
                            "context": branch.context,
                            "choices": [str(x) for x in branch.choices]})
        if next(queries, None) is not None:
            raise RuntimeError("their _split sent more queries than the RPM has branches")
        return {"prompts": out, "choices": [str(c) for c in rpm.choices]}


class LmRavenRunner:
    def __init__(self, code_dir, args):
        self.ns, self.args = lm_raven_classes(code_dir), args

    def solver(self):
        s = self.ns["Solver"]("gpt-recording")
        s._gpt = lambda prompt: prompt
        if self.args.prefix is not None:
            s.prefix = self.args.prefix
        return s

    def rows(self):
        return int(self.args.rows_shown)

    def text(self, line, _seed):
        sample, config = line["sample"], line["configuration"]
        s = self.solver()
        prompts = s._merge(sample, config, n=self.rows(), add_angle=self.args.angle)
        rpm = self.ns["RPM"](sample, config, n=self.rows(), add_angle=self.args.angle)
        return {"context": rpm.context, "choices": [str(c) for c in rpm.choices],
                "choice_prompts": prompts}

    def disentangled(self, line):
        sample, config = line["sample"], line["configuration"]
        prompts = self.solver()._split(sample, config, n=self.rows(), add_angle=self.args.angle)
        rpm = self.ns["RPM"](sample, config, n=self.rows(), add_angle=self.args.angle)
        names = line["names"]
        out = []
        for c, component in enumerate(rpm.components):
            for name, branch in component.branches.items():
                out.append({"component": names[c], "attribute": name, "context": branch.context,
                            "choices": [str(x) for x in branch.choices],
                            "choice_prompts": prompts[c][name]})
        return {"prompts": out}


PROMPT_FIELDS = ("component", "attribute", "system", "prompt", "context", "choices",
                 "choice_prompts")


def prompt_fields(line):
    """The prompt-bearing fields of an export line, in a fixed layout (what the hashes cover)."""
    def pick(d):
        return [[k, d[k]] for k in PROMPT_FIELDS if k in d]
    if "prompts" in line:  # and Solver_pred's entangled choices, which _split returns
        fields = [pick(p) for p in line["prompts"]]
        return fields + [["choices", line["choices"]]] if "choices" in line else fields
    return pick(line)


def line_hash(line):
    text = json.dumps(prompt_fields(line), ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def expect(args):
    if args.style == "lm-raven":
        runner = LmRavenRunner(args.code, args)
    elif args.classmode == "pred":
        runner = IbmPredRunner(args.code, args.style, args)
    else:
        runner = IbmRunner(args.code, args.style, args)
    seeds = None
    if args.seeds_from:
        seeds = {}
        for raw in open(args.seeds_from):
            j = json.loads(raw)
            seeds[j["id"]] = j.get("uncertainty_seed")
    out = open(args.output, "w") if args.output else sys.stdout
    for line in problems_of(args.json_export):
        with contextlib.redirect_stdout(io.StringIO()):
            if args.format == "text-disentangled":
                fields = runner.disentangled(line)
            else:
                fields = runner.text(line, seeds.get(line["id"]) if seeds else None)
        print(json.dumps({"id": line["id"], **fields}, ensure_ascii=False), file=out)


def hash_file(args):
    for raw in open(args.export):
        print(line_hash(json.loads(raw)))


# --- Reading pred replies: IBM's Solver_pred._predict against `rave score` on made-up replies. ---

def made_up_sample(rng, prompt, answer, master, queue=""):
    """One reply to a branch query: none, the answer's value, or another candidate's, bare or in
    words (a master reply continues after the query's "("); a master reply with an angle sometimes
    has the answer's values but another angle (IBM compares its nattr = 3 numbers only); with an
    answer queue, some replies reason with other numbers first and give the value after it."""
    r = rng.random()
    if r < 0.15:
        return "I cannot tell."
    text = prompt["choices"][answer if r < 0.55 else rng.randrange(len(prompt["choices"]))]
    if master and text.count(",") == 3 and rng.random() < 0.3:  # (type,size,color,angle)
        text = re.sub(r"(-?\d+)\)$", lambda m: f"{int(m.group(1)) + 45})", text)
    if master:
        text = text[1:] if rng.random() < 0.7 else "The missing panel is " + text
    elif rng.random() < 0.3:
        text = "It is " + text + "."
    if queue and rng.random() < 0.4:
        text = f"Rows 1 and 2 hold {rng.randrange(10)} and {rng.randrange(10)}. {queue} {text}"
    return text


def match(args):
    """IBM's acc_merge and acc_split from its own `_predict` (scipy needed) beside `rave score` of
    the same replies: "text" (the master's samples, --text-answer values) and "attributes" (each
    branch's samples as they are: rave votes them per branch as IBM's _predict does), with IBM's
    answer_queue on both sides. With an angle branch (--angle) IBM's ensemble cannot run (4 branch
    votes against its nattr = 3 columns), so acc_merge alone is compared."""
    import random
    import subprocess
    import tempfile
    placeholder_modules(["tqdm", "src.models"])
    sys.path.insert(0, args.code)
    sp = importlib.import_module("src.solver_pred")
    s = sp.Solver_pred.__new__(sp.Solver_pred)
    s.cfg = types.SimpleNamespace(model=types.SimpleNamespace(nreturn=args.samples),
                                  data=types.SimpleNamespace(nattr=3))
    rng, n, ibm, angle = random.Random(args.seed), 0, [0, 0], False
    q = args.answer_queue
    work = tempfile.mkdtemp()
    master, attrs = open(f"{work}/master.jsonl", "w"), open(f"{work}/attrs.jsonl", "w")
    for raw in open(args.key):
        j, n = json.loads(raw), n + 1
        x = [{p["attribute"]: {"out": [made_up_sample(rng, p, j["answer"], p["attribute"] == "master", q)
                                       for _ in range(args.samples)]} for p in j["prompts"]}]
        choices = sp.scale_rep(sp.text2num(j["choices"], 3, 8))
        angle = angle or "angle" in x[0]
        if angle:
            sol = [s._predict(x[0]["master"], False, choices, q, True)[0][0], -1]
        else:
            sol, _ = s._predict(x, True, choices, q, True)
        ibm = [ibm[0] + (sol[0] == j["answer"]), ibm[1] + (sol[1] == j["answer"])]
        print(json.dumps({"id": j["id"], "text": x[0]["master"]["out"]}), file=master)
        samples = {b: v["out"] for b, v in x[0].items() if b != "master"}
        print(json.dumps({"id": j["id"], "attributes": samples}), file=attrs)
    master.close(), attrs.close()

    def rave(name, *flags):
        out = subprocess.run([args.rave, "score", f"{work}/{name}", "--data", args.key, "--json",
                              "--answer-queue", q, *flags], capture_output=True, text=True,
                             check=True).stdout
        return json.loads(out)["accuracy"]
    merge, merge_all = rave("master.jsonl", "--text-answer", "values"), rave(
        "master.jsonl", "--text-answer", "values", "--nattr", "all")
    split = None if angle else rave("attrs.jsonl")
    import shutil
    shutil.rmtree(work)
    line = (f"{n} problems: IBM acc_merge {100 * ibm[0] / n:.4f}, rave text values {merge:.4f} "
            f"(--nattr all: {merge_all:.4f})")
    if not angle:
        line += f"; IBM acc_split {100 * ibm[1] / n:.4f}, rave attributes {split:.4f}"
    print(line)


# --- The conformance fixture (tests/fixtures/prompts): cases.json names the cases, expected.json
# holds their code's prompts as hashes; tests/faces/python/test_prompt_conformance.py checks rave's. ---

CASES = "tests/fixtures/prompts/cases.json"


def case_name(case):
    return " ".join([case["set"], case["style"], case["format"], *case["flags"]])


def case_configs(doc, case, set_path):
    """The configurations a case covers: its list, or every folder of a generated set."""
    import os
    wanted = case.get("configs")
    if isinstance(wanted, str):
        return doc[wanted]
    if wanted:
        return wanted
    if set_path.endswith(".json"):
        return ["center_single"]
    return sorted(d for d in os.listdir(set_path) if os.path.isdir(os.path.join(set_path, d)))


def make_sets(doc, rave, root, workdir):
    """Each set of cases.json: generated by `rave` into workdir, or a file of the repository."""
    import os
    import subprocess
    out = {}
    for name, recipe in doc["sets"].items():
        if isinstance(recipe, str):
            out[name] = os.path.join(root, recipe)
            continue
        out[name] = os.path.join(workdir, name)
        subprocess.run([rave, *recipe, "-o", out[name], "-j", "2"], check=True,
                       capture_output=True)
    return out


def export_input(set_path, config):
    import os
    return set_path if set_path.endswith(".json") else os.path.join(set_path, config)


def rave_export(rave, case, source, out_file, fmt=None, style=True):
    import subprocess
    argv = [rave, "export", source, "-f", fmt or case["format"], "-o", out_file]
    if style:
        argv += ["--style", case["style"], *case["flags"]]
    subprocess.run(argv, check=True, capture_output=True)
    return out_file


def fixture(args):
    """expected.json from their code at the named commits (outside the repository)."""
    import os
    import subprocess
    import tempfile
    doc = json.load(open(os.path.join(args.root, CASES)))
    codes = {"ibm-2025": args.ibm_2025, "ibm-2024": args.ibm_2024, "lm-raven": args.lm_raven}
    expected = {}
    with tempfile.TemporaryDirectory() as work:
        sets = make_sets(doc, args.rave, args.root, work)
        for n, case in enumerate(doc["cases"]):
            per_config = expected.setdefault(case_name(case), {})
            for config in case_configs(doc, case, sets[case["set"]]):
                source = export_input(sets[case["set"]], config)
                tag = os.path.join(work, f"{n}-{config}")
                ours = rave_export(args.rave, case, source, tag + ".rave.jsonl")
                theirs_in = source if source.endswith(".json") else rave_export(
                    args.rave, case, source, tag + ".json.jsonl", fmt="json", style=False)
                flags, skip = [], False
                for f in case["flags"]:  # the seeds come from rave's lines
                    if skip or f == "--uncertainty-seed":
                        skip = not skip
                        continue
                    flags.append(f)
                subprocess.run([sys.executable, __file__, "expect", theirs_in, "--style",
                                case["style"], "--code", codes[case["style"]], "-f",
                                case["format"], *flags, "--seeds-from", ours, "-o",
                                tag + ".theirs.jsonl"], check=True)
                theirs = [line_hash(json.loads(r)) for r in open(tag + ".theirs.jsonl")]
                mine = [line_hash(json.loads(r)) for r in open(ours)]
                differ = sum(a != b for a, b in zip(theirs, mine)) + abs(len(theirs) - len(mine))
                print(f"{case_name(case)} / {config}: {len(theirs)} problems, {differ} differ "
                      "from rave's", file=sys.stderr)
                per_config[config] = theirs
    with open(os.path.join(args.root, "tests/fixtures/prompts/expected.json"), "w") as f:
        json.dump({"about": "scripts/prompt_reference.py fixture; tests/fixtures/prompts/cases.json",
                   "cases": expected}, f, indent=0)
        f.write("\n")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = p.add_subparsers(dest="command", required=True)
    e = sub.add_parser("expect", help="their code's prompts for a rave json export")
    e.add_argument("json_export", help="a rave `export -f json` file, or an IBM problem .json")
    e.add_argument("--style", required=True, choices=["ibm-2025", "ibm-2024", "lm-raven"])
    e.add_argument("--code", required=True, help="their checkout at the style's commit")
    e.add_argument("-f", "--format", default="text", choices=["text", "text-disentangled"])
    e.add_argument("--classmode", default="disc", choices=["disc", "pred"],
                   help="IBM's: Solver_disc or Solver_pred (the ibm styles)")
    e.add_argument("--rows-shown", default="3")
    e.add_argument("--no-offsets", action="store_true")
    e.add_argument("--no-scaling", action="store_true")
    e.add_argument("--angle", action="store_true")
    e.add_argument("--uncertainty", type=float)
    e.add_argument("--uncertainty-range", type=int, default=0)
    e.add_argument("--prefix")
    e.add_argument("--seeds-from", help="a rave text export whose lines carry uncertainty_seed")
    e.add_argument("-o", "--output")
    h = sub.add_parser("hash", help="one short hash of the prompt fields per line")
    h.add_argument("export")
    x = sub.add_parser("fixture", help="tests/fixtures/prompts/expected.json from their code")
    x.add_argument("--rave", required=True, help="the rave executable")
    x.add_argument("--root", default=".", help="the repository")
    x.add_argument("--ibm-2025", required=True, help="IBM's code at 5b3c5e4")
    x.add_argument("--ibm-2024", required=True, help="IBM's code at 2ada9bb")
    x.add_argument("--lm-raven", required=True, help="lm-raven at 500e6f7")
    m = sub.add_parser("match", help="IBM's Solver_pred._predict beside rave score on made-up "
                       "replies")
    m.add_argument("key", help="a `rave export -f text-disentangled --classmode pred` file")
    m.add_argument("--rave", required=True, help="the rave executable")
    m.add_argument("--code", required=True, help="IBM's code at 5b3c5e4")
    m.add_argument("--seed", type=int, default=1)
    m.add_argument("--samples", type=int, default=7, help="IBM's nreturn")
    m.add_argument("--answer-queue", default="", help="IBM's answer_queue, given to both sides")
    args = p.parse_args()
    {"expect": expect, "hash": hash_file, "fixture": fixture, "match": match}[args.command](args)


if __name__ == "__main__":
    main()
