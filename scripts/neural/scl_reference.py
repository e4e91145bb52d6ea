#!/usr/bin/env python3
"""SCL's public code (dhh1995/SCL, analogy/nn/; a checkout you give, none of it in this repository)
beside rave's SCL (neural/scl.cpp).

    scl_reference.py count   --code CHECKOUT      # its parameter count in the README's setting
    scl_reference.py fixture --code CHECKOUT -o tests/fixtures/neural/scl-forward.json
    scl_reference.py export  --code CHECKOUT rave-best.pt their.pth   # rave's weights in its format

The setting is its README's joint training on all seven RAVEN configurations (the command the paper's
RAVEN / Balanced-RAVEN (I-RAVEN) figures come from): `-v -tsd 80 -fg 10 -nf 80 -chd 16 16 32 32 -rb
-erb -vhd 128 -hd 64 32 -lhd 128`, main.py's argparse defaults otherwise (160x160 panels, 5 experts,
reduction groups [2], no conv residual links, shared group MLPs, softmax over the experts), turned
into Model(...) keyword arguments the way its main.py get_model() does. Its code imports Jacinle
(vacancy/Jacinle at c9fcbb5, the version its README names) for three small pieces: MLPModel, Conv2d
and get_logger. They are re-stated below as shims with the same parameters, parameter names and
forward (jactorch.nn.cnn.layers.MLPLayer, jactorch.nn.cnn.conv.Conv2d with zero padding); nothing
else of Jacinle is needed to build the model and run it forward.

`fixture` fills every tensor of its model by a formula of its name and index (reference_formula.py,
as predrnet_reference.py does; tests/neural/reference_formula.hpp computes the same), feeds a formula input
(grey levels 0..255, fed raw as its Visual2Symbolic does) and records the logits in eval mode and in
train mode (batch statistics): rave's model carries the same tensor names and must give the same
logits.
"""
from __future__ import annotations

import argparse
import json
import logging
import sys
import types
from pathlib import Path

import torch

from reference_formula import formula_input, formula_state, rave_weights
from torch import nn

SETTING = dict(model_name="analogy", nr_features=80, nr_experts=5, shared_group_mlp=True,
               one_hot=False, v2s_softmax=False, not_use_softmax=False, visual_inputs=True,
               factor_groups=10, split_channel=False, image_size=[160, 160], use_layer_norm=False,
               use_resnet=False, conv_hidden_dims=[16, 16, 32, 32], conv_repeats=None,
               conv_kernels=3, conv_residual_link=False, nr_visual_experts=1,
               visual_mlp_hidden_dims=[128], transformed_spatial_dim=80,
               mlp_transform_hidden_dims=[], exclude_angle_attr=False, symbolic_beta=0.0,
               prediction_beta=1.0, embedding_dim=None, embedding_hidden_dims=[],
               enable_residual_block=True, use_ordinary_mlp=False, enable_rb_after_experts=True,
               feature_embedding_dim=1, hidden_dims=[64, 32], reduction_groups=[2],
               sum_as_reduction=0, lastmlp_hidden_dims=[128], nr_context=8, nr_candidates=8,
               collect_inter_key=None)
SIDE = 160


class _MLPModel(nn.Module):
    """jactorch MLPLayer: hidden LinearLayer = Sequential(Linear, ReLU), then a Linear; `mlp.*`."""

    def __init__(self, input_dim, output_dim, hidden_dims, batch_norm=None, dropout=None,
                 activation="relu", flatten=True):
        super().__init__()
        assert batch_norm is None and dropout is None and activation == "relu"
        hidden_dims = [hidden_dims] if isinstance(hidden_dims, int) else list(hidden_dims or [])
        dims = [input_dim, *hidden_dims, output_dim]
        layers = [nn.Sequential(nn.Linear(dims[i], dims[i + 1]), nn.ReLU())
                  for i in range(len(hidden_dims))]
        layers.append(nn.Linear(dims[-2], dims[-1]))
        self.mlp = nn.Sequential(*layers)
        self.flatten = flatten

    def forward(self, x):
        if self.flatten:
            x = x.view(x.size(0), -1)
        return self.mlp(x)


class _Conv2d(nn.Module):
    """jactorch Conv2d with its default padding mode and zero borders: nn.Conv2d as child `conv`."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size, stride=stride, padding=padding)

    def forward(self, x):
        return self.conv(x)


def _install_shims() -> None:
    def module(name, **attrs):
        m = types.ModuleType(name)
        m.__dict__.update(attrs)
        sys.modules[name] = m

    module("jacinle")
    module("jacinle.logging", get_logger=lambda *_: logging.getLogger("scl"))
    module("jactorch")
    module("jactorch.quickstart")
    module("jactorch.quickstart.models", MLPModel=_MLPModel)
    module("jactorch.nn", Conv2d=_Conv2d, Conv1dLayer=None)
    try:
        import torchvision.models.resnet  # noqa: F401  (only its ResNet option uses it)
    except ImportError:
        module("torchvision")
        module("torchvision.models")
        module("torchvision.models.resnet", BasicBlock=None, Bottleneck=None)


def public_model(code: Path):
    if not (code / "analogy" / "nn" / "model.py").exists():
        raise SystemExit(f"scl_reference: {code} is not a dhh1995/SCL checkout")
    _install_shims()
    sys.path.insert(0, str(code))
    from analogy.nn.model import Model  # their code
    return Model(**SETTING)


def logits(model, images: torch.Tensor) -> torch.Tensor:
    """Their Model.forward's path for visual inputs, up to the logits (the loss needs labels)."""
    return model.symbolic_model(model.v2s(images))["logits"]


def fixture(code: Path, out: Path) -> None:
    torch.set_num_threads(1)
    model = public_model(code)
    model.load_state_dict(formula_state(model))
    x = formula_input(2, SIDE)
    model.eval()
    with torch.no_grad():
        eval_logits = logits(model, x.clone())
    model.train()
    with torch.no_grad():
        train_logits = logits(model, x.clone())
    record = {"what": "dhh1995/SCL Model (README joint-training setting) on formula weights and input",
              "parameters": sum(p.numel() for p in model.parameters()),
              "batch": 2, "eval_logits": eval_logits.tolist(), "train_logits": train_logits.tolist()}
    out.write_text(json.dumps(record, indent=1) + "\n")
    print(f"wrote {out}: {record['parameters']} parameters")


def export(code: Path, checkpoint: Path, out: Path) -> None:
    model = public_model(code)
    model.load_state_dict(rave_weights(model, checkpoint, "an SCL"))
    torch.save({"model": model.state_dict()}, out)
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
        for name, child in model.named_children():
            print(f"  {name}: {sum(p.numel() for p in child.parameters())}")
    elif a.command == "fixture":
        fixture(a.code, a.out or Path("scl-forward.json"))
    else:
        if len(a.files) != 2:
            raise SystemExit("export needs a rave checkpoint and an output file")
        export(a.code, *a.files)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
