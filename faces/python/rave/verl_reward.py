"""verl's reward function for the parquet files of rave.gym.export_verl (docs/rl.md).

Point verl at this file; the function is verl's `compute_score` and calls rave.gym's own scorer, so
a verl run rewards exactly what `score_answer` of the reasoning-gym dataset rewards::

    python -m verl.trainer.main_ppo ... \\
        custom_reward_function.path=$(python -c "import rave.verl_reward as m; print(m.__file__)") \\
        custom_reward_function.name=compute_score

1.0 when the reply (inside its last <answer>...</answer>, when it has one) names the answer by rave's
reply rule in the numbering its question used, else 0.0; always 0.0 on a row whose answer the solver
did not prove unique (ground_truth.rewarded false).
"""
from rave.gym import score_reply

__all__ = ["compute_score"]


def compute_score(data_source, solution_str, ground_truth, extra_info=None):
    """verl's signature: `ground_truth` is the row's reward_model.ground_truth, {answer, target,
    text_answer, rewarded}; `data_source` and `extra_info` are not needed."""
    return score_reply(solution_str, ground_truth)
