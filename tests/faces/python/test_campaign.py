# scripts/neural/campaign.py: the parts a table's figures depend on, without training (the end to end
# run with rave train is tests/neural/cli_campaign_test.sh).
import os
import sys
from pathlib import Path

ROOT = Path(os.environ.get("RAVE_SOURCE_DIR", Path(__file__).resolve().parents[3]))
sys.path.insert(0, str(ROOT / "scripts" / "neural"))
import campaign  # noqa: E402
from plan import parse_plan  # noqa: E402

PLAN = """data raven -n 10
run a/s1 raven -m cnn --drt -s 1
run a/s2 raven -m cnn --drt -s 2
run a/s3 raven -m cnn --drt -s 3
run b/s1 raven -m cnn -s 1
run b/s2 raven -m cnn -s 2
run b/s3 raven -m cnn -s 3
table t raven "T"
row t A a/s1 a/s2 a/s3
row t B b/s1 b/s2 b/s3
effect t "A - B" A B
"""


def finished(out: Path, name: str, avg: float) -> tuple[str, Path]:
    folder = out / "runs" / name
    folder.mkdir(parents=True)
    (folder / "test.csv").write_text(f"model,Avg\nX,{avg:.2f}\n")
    return name, folder / "predictions.jsonl"


def test_effects_pair_the_runs_of_one_seed_when_a_seed_is_still_running(tmp_path):
    (tmp_path / "p.plan").write_text(PLAN)
    plan = parse_plan(tmp_path / "p.plan")
    c = campaign.Campaign(plan, tmp_path / "out", Path("rave"), 1)
    # A's seed 2 still running: A's seed 3 pairs with B's seed 3, never with B's seed 2
    rows = {"A": [finished(c.out, "a/s1", 50), finished(c.out, "a/s3", 40)],
            "B": [finished(c.out, "b/s1", 45), finished(c.out, "b/s2", 10), finished(c.out, "b/s3", 42)]}
    assert campaign.paired_effects(c, plan.tables["t"], rows) == [
        "A - B, paired by seed: +5.00, -2.00 points; mean +1.50 ± 44.47 (95% t, 2 seeds)"]
    assert campaign.paired_effects(c, plan.tables["t"], {"A": rows["A"], "B": []}) == []
