"""`python -m rave ARGS` and the `rave` command of a pip-installed package: the rave command line.

Both run the `rave` executable installed inside the package (rave/bin/rave, built by `pip install .`),
or, for the build tree's package (build/python/rave, scripts/setup.sh), build/apps/rave; its output,
exit code and signals are the executable's own. Four subcommands are Python's own: `export-hf DIR -o OUT`
(rave.hf: pyarrow and datasets), `export-harness HARNESS DIR -o OUT` and `harness-answers FILE... -o OUT`
(rave.harness: the evaluation harnesses' task folders and outputs), `export-verl OUT --size N --seed S`
(rave.gym: the RL environment's rows for verl, docs/rl.md), and `shortcuts PATH... [-j N] [--folds K]`
(rave.shortcuts: scikit-learn), which `rave check --shortcuts` runs after its own table.
"""
import os
import sys
from pathlib import Path


def executable():
    """The rave executable beside this package: installed (rave/bin) or in the build tree."""
    here = Path(__file__).resolve().parent
    candidates = (here / "bin" / "rave", here.parent.parent / "apps" / "rave")
    for candidate in candidates:
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return candidate
    sys.exit(f"rave: error: no rave executable beside the package (looked for {candidates[0]}): "
             "reinstall it with `pip install .`")


def export_hf(args):
    """`export-hf`: a dataset folder as Hugging Face parquet shards and a dataset card; errors are one
    line `rave: error: ...`, exit code 1 (2 for a wrong flag, from argparse)."""
    import argparse
    parser = argparse.ArgumentParser(
        prog="rave export-hf",
        description="Write a RAVEN dataset folder (rave generate's or the original's) in HuggingFaceM4/RAVEN's "
                    "schema: OUT/<configuration>/<split>-0000i-of-0000n.parquet (splits train, validation, test) "
                    "and OUT/README.md, the dataset card. `datasets.load_dataset(OUT, CONFIG)` reads it.")
    parser.add_argument("dir", help="dataset folder: DIR/<configuration>/RAVEN_<k>_<split>.npz and .xml")
    parser.add_argument("-o", "--output", required=True, help="output folder (created if missing)")
    parser.add_argument("-c", "--configs", help="configurations, comma-separated (folder names, paper names or "
                                               "aliases; default: every one in DIR)")
    parser.add_argument("--shard-rows", type=int, default=1000, help="problems per parquet shard (default 1000)")
    o = parser.parse_args(args)
    try:
        import rave
        configs = o.configs.split(",") if o.configs else None
        counts = rave.export_hf(o.dir, o.output, configs=configs, shard_rows=o.shard_rows)
    except (ValueError, OSError, ImportError) as e:
        sys.exit(f"rave: error: {e}")
    total = sum(n for per_split in counts.values() for n in per_split.values())
    print(f"{total} problems of {len(counts)} configurations in {o.output} ({os.path.join(o.output, 'README.md')})")


def export_verl(args):
    """`export-verl`: entries of the RL environment (rave.gym) as one verl parquet file."""
    import argparse
    parser = argparse.ArgumentParser(
        prog="rave export-verl",
        description="Write entries of rave.gym's RL environment as a verl parquet file (docs/rl.md): data_source, "
                    "prompt, images (image forms), ability, reward_model, extra_info. Score replies with "
                    "rave/verl_reward.py's compute_score.")
    parser.add_argument("output", help="the parquet file (written through a temporary file)")
    parser.add_argument("--size", type=int, required=True, help="entries")
    parser.add_argument("--seed", type=int, required=True, help="the generator's seed")
    parser.add_argument("--difficulty", type=int, default=2, help="a row of rave.gym.LEVELS (default 2)")
    parser.add_argument("--form", default="text", help="text, sheet or panels (default text)")
    parser.add_argument("--answers", default="iraven", help="raven, iraven or fair (default iraven)")
    parser.add_argument("--configs", help="configurations, comma-separated (default: the level's)")
    parser.add_argument("--image-size", type=int, default=224, help="panels: each panel's side (default 224)")
    parser.add_argument("--non-unique", default="redraw", help="redraw or mark (default redraw)")
    parser.add_argument("--split", default="train", help="extra_info.split (default train)")
    parser.add_argument("--system-prompt", help="a system message before each question")
    parser.add_argument("-j", "--jobs", type=int, default=1, help="worker threads (the file is the same)")
    o = parser.parse_args(args)
    try:
        import rave.gym
        n = rave.gym.export_verl(o.output, o.size, o.seed, split=o.split, system_prompt=o.system_prompt,
                                 difficulty=o.difficulty, form=o.form, answers=o.answers,
                                 configs=o.configs.split(",") if o.configs else None, image_size=o.image_size,
                                 non_unique=o.non_unique, threads=o.jobs)
    except (ValueError, OSError, ImportError) as e:
        sys.exit(f"rave: error: {e}")
    print(f"{n} entries in {o.output}")


def export_harness(args):
    """`export-harness HARNESS DIR -o OUT`: a task folder for lm-eval, inspect, lmms-eval or VLMEvalKit
    (rave.harness); errors are one line `rave: error: ...`, exit code 1 (2 for a wrong flag)."""
    import argparse
    import inspect
    from rave import harness
    from rave.harness import probes
    default = {k: p.default for k, p in inspect.signature(harness.export_harness).parameters.items()}
    parser = argparse.ArgumentParser(
        prog="rave export-harness",
        description="Write a folder a harness runs as it is: lm-eval (YAML tasks and a group, log-likelihood and "
                    "generate_until), inspect (a task file), lmms-eval (YAML + utils.py, the sheet or the 16 "
                    "panels) or vlmevalkit (its custom multiple-choice TSVs). docs/harnesses.md.")
    parser.add_argument("harness", choices=harness.HARNESSES)
    parser.add_argument("dir", help="the problems, as `rave export` reads them, or a `rave probes` folder")
    parser.add_argument("-o", "--output", required=True, help="the task folder (new, empty or a previous one)")
    parser.add_argument("--style", default=default["style"], help="text harnesses: ibm-2025, ibm-2024 or lm-raven")
    parser.add_argument("--answers-shuffled", metavar="SEED", help="show the candidates in the order drawn from SEED")
    parser.add_argument("--task-name", default=default["name"], help="the task prefix (lm-eval, lmms-eval; VLMEvalKit: upper case)")
    parser.add_argument("--split", choices=["train", "val", "test"], help="only the problems of this split")
    parser.add_argument("--drop-ambiguous", action="store_true", help="only the problems the solver proves unique")
    parser.add_argument("--samples", type=int, default=default["samples"], help="lm-eval chat tasks: samples voted (IBM's nreturn)")
    parser.add_argument("-j", "--jobs", type=int, default=default["jobs"], help="worker threads of rave export / show")
    o, text_args = parser.parse_known_args(args)
    bad = [a for a in text_args if a.startswith("-") and a.split("=")[0] not in harness.TEXT_FLAGS]
    if bad:
        parser.error(f"unrecognized arguments: {' '.join(bad)}")
    if o.samples < 1:
        parser.error("--samples must be at least 1")
    if o.harness in ("lmms-eval", "vlmevalkit") and (o.style != harness.STYLE or text_args):
        parser.error(f"{o.harness} shows images: the text prompt flags (--style, {', '.join(harness.TEXT_FLAGS)}) "
                     "do not apply")
    try:
        names, counts = harness.export_harness(
            o.dir, o.output, o.harness, style=o.style, shuffle=o.answers_shuffled, name=o.task_name, split=o.split,
            drop_ambiguous=o.drop_ambiguous, samples=o.samples, text_args=text_args, jobs=o.jobs)
    except (harness.HarnessError, ValueError, OSError) as e:
        sys.exit(f"rave: error: {e}")
    items = "probes of" if probes.is_probes(o.dir) else "problems of"
    groups = "question types" if probes.is_probes(o.dir) else "configurations"
    print(f"{sum(counts.values())} {items} {len(counts)} {groups} in {o.output} for {o.harness}: "
          f"{', '.join(names)} ({os.path.join(o.output, 'README.md')})")


def harness_answers(args):
    """`harness-answers FILE... -o OUT`: what a harness wrote, as rave's predictions (rave.harness.answers)."""
    import argparse
    from rave.harness import HarnessError, answers
    parser = argparse.ArgumentParser(
        prog="rave harness-answers",
        description="Read what lm-eval (--log_samples), inspect (a log), lmms-eval (--log_samples) or VLMEvalKit "
                    "(its prediction file) wrote for a rave task folder, and write rave's predictions: "
                    "`rave score OUT --data DIR` then scores the same answers. docs/harnesses.md.")
    parser.add_argument("files", nargs="+", help="the harness's output files")
    parser.add_argument("-o", "--output", required=True, help="the predictions file (JSON Lines)")
    parser.add_argument("--metric", default="acc", choices=["acc", "acc_norm"],
                        help="lm-eval multiple_choice: which of its picks is the answer")
    parser.add_argument("--model", default="", help="the row's name in rave score's table")
    o = parser.parse_args(args)
    try:
        lines, kinds = answers.convert(o.files, o.output, o.metric, o.model)
        modes = {answers.TEXT_ANSWER[k] for k in kinds if k in answers.TEXT_ANSWER}
        if len(modes) > 1:
            raise HarnessError(f"the files hold replies of different forms ({', '.join(sorted(kinds))}); "
                               "convert them one form at a time")
    except (HarnessError, ValueError, OSError, KeyError) as e:
        sys.exit(f"rave: error: {e}")
    flag = f" --text-answer {modes.pop()}" if modes else ""
    print(f"{len(lines)} answers ({', '.join(sorted(kinds))}) in {o.output}; "
          f"score them with: rave score {o.output} --data DIR{flag}")


def shortcuts(args):
    """`shortcuts PATH...`: the learner audit (rave.shortcuts.main)."""
    from rave import shortcuts as audit
    audit.main(args)


PYTHON_COMMANDS = {"export-hf": export_hf, "export-harness": export_harness, "harness-answers": harness_answers,
                   "export-verl": export_verl, "shortcuts": shortcuts}


def main():
    if sys.argv[1:2] and sys.argv[1] in PYTHON_COMMANDS:
        PYTHON_COMMANDS[sys.argv[1]](sys.argv[2:])
        return
    exe = str(executable())
    os.execv(exe, [exe] + sys.argv[1:])


if __name__ == "__main__":
    main()
