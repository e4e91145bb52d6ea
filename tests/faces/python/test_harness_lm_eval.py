"""`rave export --harness lm-eval`: the task folder run end to end by lm-evaluation-harness's own command
line (offline, nothing downloaded) with its `dummy` model, with a tiny GPT-2 the test makes and saves
(random weights, a byte-level tokenizer made here), and with an answerer that is always right or always
wrong; in every run lm-eval's reported accuracy, per task and for the group, equals `rave score` of the
answers it logged (`rave harness-answers`), through a shuffled candidate order."""
import glob
import json
import sys

import pytest

import harness_support as hs
import rave

pytest.importorskip("lm_eval")
CONFIGS = 7
DRIVER = '''"""lm_eval's command line with one more model, "rave-oracle", which answers from docs.jsonl: always
right on the log-likelihood tasks, always wrong on the chat tasks."""
import json, os, sys
from lm_eval.api.model import LM
from lm_eval.api.registry import register_model

with open(os.environ["ORACLE_DOCS"], encoding="utf-8") as f:
    DOCS = [json.loads(line) for line in f]


def pick(doc, right):
    return doc["answer"] if right else (doc["answer"] + 1) % 8


@register_model("rave-oracle")
class Oracle(LM):
    def __init__(self, **_):
        super().__init__()

    @classmethod
    def create_from_arg_string(cls, arg_string, additional_config=None):
        return cls()

    def loglikelihood(self, requests, disable_tqdm=False):
        by_text = {d["mc_text"]: d for d in DOCS}
        out = []
        for r in requests:
            doc = by_text[r.arguments[0]]
            out.append((0.0 if r.arguments[1] == doc["mc_choices"][pick(doc, True)] else -10.0, False))
        return out

    def generate_until(self, requests, disable_tqdm=False):
        out = []
        for r in requests:
            doc = next(d for d in DOCS if d["prompt"] in r.arguments[0])
            out.append(f"Answer #{pick(doc, False)}")  # IBM's rule reads the first number of the reply
        return out

    def loglikelihood_rolling(self, requests, disable_tqdm=False):
        return [0.0 for _ in requests]


from lm_eval.__main__ import cli_evaluate
sys.argv = ["lm_eval"] + sys.argv[1:]
cli_evaluate()
'''


@pytest.fixture(scope="module")
def folder(rave_cli, tmp_path_factory):
    tmp = tmp_path_factory.mktemp("lm")
    data = hs.make_set(rave_cli, tmp / "set")
    return data, hs.export(rave_cli, data, tmp / "tasks", "lm-eval")


def lm_eval(env, out, tasks, folder, model, *more, driver=None):
    head = [sys.executable, driver] if driver else [sys.executable, "-m", "lm_eval"]
    hs.run(head + ["--model", model, "--tasks", tasks, "--include_path", folder, "--log_samples",
                   "--output_path", out, *more], env)
    (results,) = glob.glob(str(out / "**" / "results_*.json"), recursive=True)
    with open(results, encoding="utf-8") as f:
        return json.load(f)["results"], sorted(glob.glob(str(out / "**" / "samples_*.jsonl"), recursive=True))


def assert_equal(results, group, metric, score):
    """lm-eval's group and per-task figures (fractions) equal rave score's Avg and columns (%)."""
    assert score["accuracy"] == pytest.approx(100 * results[group][metric], abs=1e-9)
    prefix = group + "_"
    per_task = {task[len(prefix):]: r[metric] for task, r in results.items()
                if task.startswith(prefix) and task[len(prefix):] in rave.CONFIGS}
    rave_columns = hs.per_configuration(score)
    assert len(per_task) == CONFIGS and per_task.keys() == rave_columns.keys()
    for config, value in per_task.items():
        assert rave_columns[config] == pytest.approx(100 * value, abs=1e-9), config


def check_run(env, tmp, data, results, samples, metric="acc"):
    """Both groups of one lm-eval run against rave score; returns the two rave scores."""
    mc = [s for s in samples if "samples_rave_gen_" not in s]
    gen = [s for s in samples if "samples_rave_gen_" in s]
    assert len(mc) == CONFIGS and len(gen) == CONFIGS
    tmp.mkdir(exist_ok=True)
    score_mc, answers = hs.rave_score(env, mc, data, tmp / "mc.jsonl", metric=metric)
    assert len(answers) == 3 * CONFIGS and all(a["answers_shuffled"] == hs.SEED for a in answers)
    assert_equal(results, "rave", f"{metric},none", score_mc)
    score_gen, _ = hs.rave_score(env, gen, data, tmp / "gen.jsonl", "--text-answer", "index")
    assert_equal(results, "rave_gen", "exact_match,ibm-index", score_gen)
    return score_mc, score_gen


def test_the_folder_holds_a_task_per_configuration_and_a_group_in_both_forms(folder):
    _, tasks = folder
    names = sorted(p.name for p in tasks.glob("*.yaml"))
    assert len(names) == 2 * CONFIGS + 2 and "_rave.yaml" in names and "_rave_gen.yaml" in names
    docs = [json.loads(line) for line in (tasks / "docs.jsonl").read_text().splitlines()]
    assert len(docs) == 3 * CONFIGS and {d["answers_shuffled"] for d in docs} == {hs.SEED}
    for d in docs:  # IBM's query: the open matrix, then its answer set, whose lines are the continuations
        assert d["prompt"].startswith(d["mc_text"]) and d["mc_text"].startswith("Only return the missing numbers!\n")
        assert d["prompt"].endswith("\n".join(f"Answer #{k}: {c}" for k, c in enumerate(d["mc_choices"])))


def test_dummy_model_accuracy_equals_rave_score(folder, tmp_path):
    data, tasks = folder
    env = hs.environment(tmp_path)
    results, samples = lm_eval(env, tmp_path / "runs", "rave,rave_gen", tasks, "dummy", "--seed", "3")
    check_run(env, tmp_path, data, results, samples)


def tiny_gpt2(path):
    """A 2-layer GPT-2 with random weights (seed 0) and a byte-level tokenizer without merges, saved."""
    import torch
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers
    from transformers import GPT2Config, GPT2LMHeadModel, PreTrainedTokenizerFast
    vocab = {ch: i for i, ch in enumerate(sorted(pre_tokenizers.ByteLevel.alphabet()))}
    vocab["<|endoftext|>"] = eos = len(vocab)
    tokenizer = Tokenizer(models.BPE(vocab=vocab, merges=[]))
    tokenizer.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tokenizer.decoder = decoders.ByteLevel()
    PreTrainedTokenizerFast(tokenizer_object=tokenizer, eos_token="<|endoftext|>", bos_token="<|endoftext|>",
                            unk_token="<|endoftext|>").save_pretrained(path)
    torch.manual_seed(0)
    config = GPT2Config(vocab_size=eos + 1, n_positions=4096, n_embd=32, n_layer=2, n_head=2,
                        bos_token_id=eos, eos_token_id=eos)
    GPT2LMHeadModel(config).save_pretrained(path)
    return path


def test_a_tiny_causal_lm_made_here_accuracy_equals_rave_score(folder, tmp_path):
    data, tasks = folder
    env = hs.environment(tmp_path)
    model = tiny_gpt2(tmp_path / "tiny-gpt2")
    results, samples = lm_eval(env, tmp_path / "runs", "rave,rave_gen", tasks, "hf",
                               "--model_args", f"pretrained={model},dtype=float32", "--device", "cpu",
                               "--batch_size", "8", "--gen_kwargs", "max_gen_toks=8")
    check_run(env, tmp_path / "acc", data, results, samples, "acc")
    check_run(env, tmp_path / "acc_norm", data, results, samples, "acc_norm")  # / the characters


def test_an_answerer_right_on_the_log_likelihoods_and_wrong_in_chat_scores_100_and_0(folder, tmp_path):
    data, tasks = folder
    driver = tmp_path / "oracle_lm_eval.py"
    driver.write_text(DRIVER)
    env = dict(hs.environment(tmp_path), ORACLE_DOCS=str(tasks / "docs.jsonl"))
    results, samples = lm_eval(env, tmp_path / "runs", "rave,rave_gen", tasks, "rave-oracle", driver=driver)
    score_mc, score_gen = check_run(env, tmp_path, data, results, samples)
    assert score_mc["accuracy"] == 100 and score_gen["accuracy"] == 0 and score_gen["unreadable"] == 0
