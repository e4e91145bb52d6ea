#!/usr/bin/env python3
"""Copies the original generators' reference problems into the repository's test fixtures.

For every RAVEN_<k>_<split>.npz under <data>/{raven,iraven,fair}-reference/<configuration>/ the XML
beside it is copied to tests/fixtures/reference/<set>/<configuration>/, and one line is written to
tests/fixtures/reference/manifest.json with what the conformance tests need to re-create the npz
from that XML: the sha256 of the npz and of its `image` array's bytes, the npz fields the XML does
not hold (target, predict and predict's shape), and whether the members are deflated. The npz
files themselves stay outside the repository. tests/fixtures/README.md describes the fields.

    .venv/bin/python scripts/make_fixtures.py ../shared/data     # numpy

Needs numpy. Stops with a one-line error, writing nothing, when a folder or a file is missing.
"""
import hashlib
import json
import os
import sys
import tempfile
import zipfile
from pathlib import Path

import numpy

SETS = ("raven", "iraven", "fair")
ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "fixtures" / "reference"


def sha256(data):
    return hashlib.sha256(data).hexdigest()


def entry(set_name, config, npz_path):
    """The manifest line of one problem (the XML beside `npz_path` is checked to exist)."""
    data = npz_path.read_bytes()
    xml = npz_path.with_suffix(".xml").read_bytes()
    with zipfile.ZipFile(npz_path) as z:
        methods = {info.compress_type for info in z.infolist()}
    if len(methods) != 1 or methods - {zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED}:
        raise ValueError(f"{npz_path}: mixed or unknown compression {sorted(methods)}")
    arrays = numpy.load(npz_path)
    image = arrays["image"]
    if image.shape != (16, 160, 160) or image.dtype != numpy.uint8:
        raise ValueError(f"{npz_path}: image is {image.dtype} {image.shape}")
    predict = arrays["predict"]
    return {
        "file": f"{set_name}/{config}/{npz_path.stem}",
        "xml_sha256": sha256(xml),
        "npz_sha256": sha256(data),
        "npz_bytes": len(data),
        "image_sha256": sha256(numpy.ascontiguousarray(image).tobytes()),
        "target": int(arrays["target"]),
        "predict": int(predict.reshape(-1)[0]),
        "predict_shape": list(predict.shape),
        "compressed": methods == {zipfile.ZIP_DEFLATED},
    }, xml


def collect(data_dir):
    """(manifest entries, {fixture path: XML bytes}) for every reference npz, sorted by path."""
    entries, files = [], {}
    for set_name in SETS:
        src = data_dir / f"{set_name}-reference"
        if not src.is_dir():
            raise FileNotFoundError(f"{src}: no such folder")
        for npz_path in sorted(src.glob("*/RAVEN_*.npz")):
            config = npz_path.parent.name
            line, xml = entry(set_name, config, npz_path)
            entries.append(line)
            files[OUT / set_name / config / (npz_path.stem + ".xml")] = xml
    if not entries:
        raise FileNotFoundError(f"{data_dir}: no RAVEN_*.npz found")
    return entries, files


def write_atomic(path, data):
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
    with os.fdopen(fd, "wb") as f:
        f.write(data)
    os.replace(tmp, path)


def manifest_text(entries):
    # One problem per line, keys in a fixed order, so a diff shows which problems changed.
    lines = ",\n".join("    " + json.dumps(e) for e in entries)
    return ('{\n  "about": "tests/fixtures/README.md",\n  "problems": [\n' + lines + "\n  ]\n}\n").encode()


def main(argv):
    if len(argv) != 2:
        sys.exit("usage: make_fixtures.py DATA_DIR   (the folder holding raven-reference/ etc.)")
    try:
        entries, files = collect(Path(argv[1]))
    except (OSError, ValueError, KeyError, zipfile.BadZipFile) as e:
        sys.exit(f"make_fixtures: error: {e}")
    for path, xml in files.items():
        write_atomic(path, xml)
    write_atomic(OUT / "manifest.json", manifest_text(entries))
    print(f"{len(entries)} problems: XML in {OUT.relative_to(ROOT)}, manifest.json beside them")


if __name__ == "__main__":
    main(sys.argv)
