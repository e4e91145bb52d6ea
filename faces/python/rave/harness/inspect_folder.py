"""The task folder for inspect_ai (`rave export --harness inspect`): rave.jsonl (the problems as `rave
export` writes them) and task.py, whose task `rave` is rave.harness.inspect_task's on that file, so
`inspect eval OUT/task.py@rave --model M` runs it with no other argument."""
import os

from rave.harness import _common as c

TASK = '''"""inspect_ai task of a rave task folder (written by `rave export --harness inspect`): the problems
are rave.jsonl beside this file. `inspect eval task.py --model M [-T configuration=center_single]
[-T epochs=7] [-T cot=true]`; the task is rave.harness.inspect_task's (`import rave`)."""
import os

from inspect_ai import task

from rave.harness import inspect_task

HERE = os.path.dirname(os.path.abspath(__file__))


@task
def rave(configuration: str = "", epochs: int = 1, cot: bool = False):
    """This folder's problems, multiple choice with letters A..H; `epochs` > 1 votes IBM's way."""
    return inspect_task.raven_task(os.path.join(HERE, "rave.jsonl"), configuration, epochs, cot)
'''


def write_folder(folder, rows):
    c.write_jsonl(os.path.join(folder, "rave.jsonl"), rows)
    c.write_text(os.path.join(folder, "task.py"), TASK)
    return ["task.py@rave"]
