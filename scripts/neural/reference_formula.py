"""The formula weights and input of the public-code fixtures (predrnet_reference.py, scl_reference.py;
tests/neural/reference_formula.hpp computes the same in C++): every tensor a function of its name and
shape, so a model whose tensors carry the public code's names can be given the same weights.

    from reference_formula import formula_state, formula_input
    model.load_state_dict(formula_state(model))
    x = formula_input(batch=2, side=160)       # grey levels 0..255, [batch, 16, side, side]
    model.load_state_dict(rave_weights(model, checkpoint, "an SCL"))   # a rave checkpoint, by name
"""
from __future__ import annotations

import math
import sys
from pathlib import Path

import torch


def formula(name: str, shape: tuple[int, ...]) -> torch.Tensor:
    """The fixture's value of tensor `name`."""
    k = sum(name.encode()) % 997
    n = math.prod(shape)
    base = torch.sin(0.731 * torch.arange(n, dtype=torch.float64) + 0.37 * k)
    if name.endswith("running_mean") or name.endswith("bias"):
        value = 0.1 * base
    elif name.endswith("running_var"):
        value = 1 + 0.5 * base.abs()
    elif len(shape) == 1:  # a batch-norm or layer-norm weight
        value = 1 + 0.1 * base
    else:
        value = 3 * base / math.sqrt(n / shape[0])
    return value.reshape(shape).float()


def formula_state(model: torch.nn.Module) -> dict[str, torch.Tensor]:
    """Every tensor of `model`'s state by the formula; batch-norm step counters kept as they are."""
    return {n: (t if n.endswith("num_batches_tracked") else formula(n, tuple(t.shape)))
            for n, t in model.state_dict().items()}


def formula_input(batch: int, side: int) -> torch.Tensor:
    """Grey levels 0..255, element j of panel p (16 per problem) 127.5 (1 + sin(0.0123 j (1 + 0.37 p)))."""
    j = torch.arange(batch * 16 * side * side, dtype=torch.float64)
    panel = (j // (side * side)) % 16
    return (127.5 * (1 + torch.sin(0.0123 * j * (1 + 0.37 * panel)))).reshape(batch, 16, side, side).float()


def rave_weights(model: torch.nn.Module, checkpoint, what: str) -> dict[str, torch.Tensor]:
    """`model`'s state read by name from a rave checkpoint (TorchScript archive); exits naming
    `checkpoint` when it lacks a tensor of `model` (not `what` checkpoint)."""
    archive = torch.jit.load(str(checkpoint), map_location="cpu")
    weights = {n: t for n, t in archive.model.named_parameters()}
    weights.update({n: t for n, t in archive.model.named_buffers()})
    missing = set(model.state_dict()) - set(weights)
    if missing:
        raise SystemExit(f"{Path(sys.argv[0]).stem}: {checkpoint} lacks {sorted(missing)[:3]}...: not {what} checkpoint")
    return {n: weights[n] for n in model.state_dict()}
