#!/usr/bin/env python3
"""PredRNet's public code (ZjjConan/AVR-PredRNet, networks/predrnet.py; a checkout you give, none of
it in this repository) beside rave's PredRNet (neural/predrnet.cpp).

    predrnet_reference.py count   --code CHECKOUT      # its parameter count in the README's RAVEN setting
    predrnet_reference.py fixture --code CHECKOUT -o tests/fixtures/neural/predrnet-forward.json
    predrnet_reference.py export  --code CHECKOUT rave-best.pt their.pth   # rave's weights in its format

The setting is its README's for RAVEN / I-RAVEN / RAVEN-FAIR (`-a predrnet_raven --num-extra-stages 3
--block-drop 0.1 --classifier-drop 0.1`, argparse defaults otherwise: 32 filters, classifier
hidreduce 4, one input channel, no --enable-rc). `fixture` fills every tensor of its model by a
formula of its name and index (reference_formula.py; tests/neural/reference_formula.hpp computes the same), feeds a formula
input (grey levels 0..255, normalised as its main.py does) and records the logits in eval mode and
in train mode with the dropouts off (batch statistics): the C++ test rebuilds the same weights in
rave's model, whose tensors carry the same names, and must give the same logits.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import torch

from reference_formula import formula_input, formula_state, rave_weights

SETTING = dict(block_drop=0.1, classifier_drop=0.1, classifier_hidreduce=4, num_filters=32,
               num_extra_stages=3, in_channels=1, enable_rc=False)


def public_model(code: Path):
    if not (code / "networks" / "predrnet.py").exists():
        raise SystemExit(f"predrnet_reference: {code} is not an AVR-PredRNet checkout")
    sys.path.insert(0, str(code))
    from networks.predrnet import predrnet_raven  # their code
    return predrnet_raven(**SETTING)


def fixture(code: Path, out: Path) -> None:
    torch.set_num_threads(1)
    model = public_model(code)
    model.load_state_dict(formula_state(model))
    x = formula_input(3, 80)
    normalised = (x / 255.0 - 0.5) * 2  # their utils.normalize_image, applied by main.py
    model.eval()
    with torch.no_grad():
        eval_logits = model(normalised.clone())
    model.train()
    for m in model.modules():
        if isinstance(m, torch.nn.Dropout):
            m.eval()
    with torch.no_grad():
        train_logits = model(normalised.clone())
    record = {"what": "AVR-PredRNet predrnet_raven (README RAVEN setting) on formula weights and input",
              "parameters": sum(p.numel() for p in model.parameters()),
              "batch": 3, "eval_logits": eval_logits.tolist(), "train_logits_no_dropout": train_logits.tolist()}
    out.write_text(json.dumps(record, indent=1) + "\n")
    print(f"wrote {out}: {record['parameters']} parameters")


def export(code: Path, checkpoint: Path, out: Path) -> None:
    model = public_model(code)
    model.load_state_dict(rave_weights(model, checkpoint, "a PredRNet"))
    torch.save({"state_dict": model.state_dict(), "arch": "predrnet_raven"}, out)
    print(f"wrote {out}")


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("command", choices=["count", "fixture", "export"])
    p.add_argument("files", nargs="*", type=Path)
    p.add_argument("--code", type=Path, required=True)
    p.add_argument("-o", "--out", type=Path)
    a = p.parse_intermixed_args(argv)
    if a.command == "count":
        model = public_model(a.code)
        print(sum(p.numel() for p in model.parameters()))
    elif a.command == "fixture":
        fixture(a.code, a.out or Path("predrnet-forward.json"))
    else:
        if len(a.files) != 2:
            raise SystemExit("export needs a rave checkpoint and an output file")
        export(a.code, *a.files)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
