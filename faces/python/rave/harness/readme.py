"""The README.md of a task folder: what it holds and the exact commands that run and score it."""

_RUN = {
    "lm-eval": """## Run

    # completion models: log-likelihood of each candidate after the open matrix (acc, acc_norm)
    lm_eval --model hf --model_args pretrained=MODEL --include_path {out} --tasks {g0} \\
        --log_samples --output_path runs
    # chat models: IBM's query, the reply's first number names the candidate (exact_match)
    lm_eval --model hf --model_args pretrained=MODEL --include_path {out} --tasks {g1} \\
        --apply_chat_template --log_samples --output_path runs

One configuration: `--tasks {g0}_center_single`. utils.py imports rave (its reply reader).
""",
    "inspect": """## Run

    inspect eval {out}/task.py@rave --model MODEL             # letters A..H, accuracy per configuration
    inspect eval {out}/task.py@rave --model MODEL -T epochs=7 # IBM's self-consistency: 7 samples, voted
    inspect eval rave/raven -T data={out} --model MODEL       # the same through rave's entry point

`-T configuration=center_single` keeps one configuration; `-T cot=true` asks for reasoning first.
""",
    "lmms-eval": """## Run

    lmms-eval --model MODEL --model_args pretrained=... --include_path {out} --tasks {g0} \\
        --log_samples --output_path runs                      # one image: the answer-free sheet
    lmms-eval ... --tasks {g1}                                # the 16 panels as separate images

The YAML files name docs/ by its absolute path ({out}): export again after moving the folder.
""",
    "vlmevalkit": """## Run

    LMUData={out} python run.py --data {g0} --model MODEL     # in a VLMEvalKit checkout
    LMUData={out} python run.py --data {g1} --model MODEL     # multi-image: the 16 panels

VLMEvalKit takes a TSV in $LMUData named after the dataset as a custom multiple-choice set.
""",
}

_SCORE = """## Score with rave

    rave harness-answers {output} -o answers.jsonl
    rave score answers.jsonl --data {data}{flag}

The answers keep each problem's id and `answers_shuffled`, so `rave score` maps a shuffled order back.
rave-harness.json records how this folder was made. docs/harnesses.md in rave's repository has more.
"""

_OUTPUT = {
    "lm-eval": "runs/*/samples_*.jsonl",
    "inspect": "logs/*.eval",
    "lmms-eval": "runs/*/*_samples_*.jsonl",
    "vlmevalkit": "outputs/MODEL/*/MODEL_{g0}.xlsx",
}
_FLAG = {"lm-eval": "    # chat tasks: --text-answer index", "inspect": " --text-answer letter",
         "lmms-eval": "", "vlmevalkit": " --text-answer letter"}


_NO_CHAT = """## Run

    # completion models: log-likelihood of each candidate after the open matrix (acc, acc_norm)
    lm_eval --model hf --model_args pretrained=MODEL --include_path {out} --tasks {g0} \\
        --log_samples --output_path runs

lm-raven's code has no query that lists the candidates, so this style has no chat (generate_until) tasks.
One configuration: `--tasks {g0}_center_single`.
"""


def text(harness, out, names, data):
    g0, g1 = names[0], names[-1]
    head = f"# rave: {harness} task folder\n\nWritten by `rave export --harness {harness}` from `{data}`.\n\n"
    run = (_NO_CHAT if harness == "lm-eval" and len(names) == 1 else _RUN[harness]).format(out=out, g0=g0, g1=g1)
    score = _SCORE.format(output=_OUTPUT[harness].format(g0=g0), data=data, flag=_FLAG[harness])
    return head + run + "\n" + score
