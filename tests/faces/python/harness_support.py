"""What the harness tests share: a small set of problems, the task folders `rave export --harness` makes
of it, the harness run offline, and `rave harness-answers` + `rave score` on what it wrote."""
import json
import os
import subprocess
import sys

OFFLINE = {"HF_DATASETS_OFFLINE": "1", "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1",
           "HF_HUB_DISABLE_TELEMETRY": "1", "WANDB_MODE": "disabled", "TOKENIZERS_PARALLELISM": "false",
           "INSPECT_LOG_LEVEL": "warning", "INSPECT_DISPLAY": "none", "PYTHONDONTWRITEBYTECODE": "1"}
SEED = 5  # --answers-shuffled: every form shows the candidates in the order drawn from it


def environment(tmp):
    """The environment of a harness run: offline, its caches under `tmp`, rave's Python for the CLI."""
    env = dict(os.environ, **OFFLINE, RAVE_PYTHON=sys.executable, HF_HOME=str(tmp / "hf"),
               XDG_CACHE_HOME=str(tmp / "cache"))
    return env


def make_set(rave_cli, out):
    """All 7 configurations, 3 problems each (21), I-RAVEN answer sets, images drawn."""
    rave_cli("generate", "-n", 3, "-o", out, "--seed", 11, "--answers", "iraven", "-j", 2)
    return out


def export(rave_cli, data, out, harness, *flags):
    """`rave export DATA --harness H -o OUT --answers-shuffled 5` through the C++ command line, which hands
    off to `python -m rave export-harness`."""
    result = rave_cli("export", data, "--harness", harness, "-o", out, "--answers-shuffled", SEED, *flags)
    assert f"for {harness}" in result.stdout, result.stdout + result.stderr
    return out


def run(args, env, cwd=None):
    result = subprocess.run([str(a) for a in args], capture_output=True, text=True, env=env, cwd=cwd)
    assert result.returncode == 0, f"{' '.join(map(str, args))}:\n{result.stdout[-4000:]}\n{result.stderr[-4000:]}"
    return result


def rave(env, *args):
    """`rave ARGS` (RAVE_CLI) in the harness environment; the CompletedProcess."""
    return run([os.environ["RAVE_CLI"], *args], env)


def rave_score(env, files, data, answers, *flags, metric="acc"):
    """`rave harness-answers FILES -o ANSWERS`, then `rave score ANSWERS --data DATA --json FLAGS`:
    (the score's JSON, the answer lines)."""
    rave(env, "harness-answers", *files, "-o", answers, "--metric", metric)
    score = json.loads(rave(env, "score", answers, "--data", data, "--json", *flags).stdout)
    with open(answers, encoding="utf-8") as f:
        return score, [json.loads(line) for line in f]


def per_configuration(score):
    """rave score's per-configuration accuracy (%), keyed by configuration folder."""
    import rave
    paper = dict(zip(rave.PAPER_NAMES, rave.CONFIGS))
    return {paper[k]: v for k, v in score["per_configuration"].items() if v is not None}
