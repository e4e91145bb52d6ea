"""`python -m rave ARGS` and the `rave` command of a pip-installed package: the rave command line.

Both run the `rave` executable installed inside the package (rave/bin/rave, built by `pip install .`),
or, for the build tree's package (build/python/rave, scripts/setup.sh), build/apps/rave; its output,
exit code and signals are the executable's own.
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


def main():
    exe = str(executable())
    os.execv(exe, [exe] + sys.argv[1:])


if __name__ == "__main__":
    main()
