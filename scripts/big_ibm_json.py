#!/usr/bin/env python3
"""Writes a large IBM-format problem file (docs/evaluation.md#ibms-json-files) for memory and
throughput measurements: the problems of one of IBM's own files (by default the I-RAVEN-X fixture,
three problems of `iravenx_task.py --n 10 --maxval 1000 --nconf 3`, about 19 KB each, the size of
the problems of IBM's 198 MB file), repeated under keys 0, 1, 2, ... until the file holds at least
SIZE bytes, pretty-printed as IBM's `json.dump(..., indent=1)` writes them. Streams: the output
never sits in memory.

    scripts/big_ibm_json.py 1G /tmp/big/center_single_shuffle_n_10_maxval_1000_nconf_3.json
"""
import json
import pathlib
import sys

FIXTURE = (pathlib.Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "ibm" /
           "center_single_shuffle_n_10_maxval_1000_nconf_3.json")


def size_of(text):
    units = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    return int(float(text[:-1]) * units[text[-1]]) if text[-1] in units else int(text)


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit("usage: big_ibm_json.py SIZE OUT.json [SOURCE.json]")
    target, out = size_of(sys.argv[1]), pathlib.Path(sys.argv[2])
    source = json.loads(pathlib.Path(sys.argv[3] if len(sys.argv) == 4 else FIXTURE).read_text())
    # Each problem as json.dump(indent=1) writes it one level down (IBM's layout).
    bodies = [json.dumps(p, indent=1).replace("\n", "\n ") for p in source.values()]
    written, key = 0, 0
    with out.open("w") as f:
        f.write("{")
        while written < target:
            text = ('\n "%d": ' % key) + bodies[key % len(bodies)]
            f.write(("," if key else "") + text)
            written += len(text) + 1
            key += 1
        f.write("\n}")
    print("%s: %d problems, %d bytes" % (out, key, out.stat().st_size))


if __name__ == "__main__":
    main()
