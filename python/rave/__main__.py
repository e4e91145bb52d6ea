"""`python -m rave ARGS` and the `rave` command of a pip-installed package: the rave command line.

Both run the `rave` executable installed inside the package (rave/bin/rave, built by `pip install .`),
or, for the build tree's package (build/python/rave, scripts/setup.sh), build/apps/rave; its output,
exit code and signals are the executable's own. Two subcommands are Python's own, as they need pyarrow
(and datasets): `python -m rave export-hf DIR -o OUT [--configs LIST] [--shard-rows N]` (rave.hf) and
`python -m rave export-verl OUT --size N --seed S [--form F] [--difficulty L] ...` (rave.gym, docs/rl.md).
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


def main():
    if sys.argv[1:2] == ["export-hf"]:
        export_hf(sys.argv[2:])
        return
    if sys.argv[1:2] == ["export-verl"]:
        export_verl(sys.argv[2:])
        return
    exe = str(executable())
    os.execv(exe, [exe] + sys.argv[1:])


if __name__ == "__main__":
    main()
