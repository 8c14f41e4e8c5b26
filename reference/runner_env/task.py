"""The runner's `task` module, as a submission sees it (`from task import input_t, output_t`).

On the leaderboard runner task.py sits beside submission.py; eval/worker.py puts this folder
first on sys.path so the official templates' first line works unchanged.
"""
from typing import TypedDict, TypeVar

import torch

# (a, b, a_scale, b_scale, c): see reference.task.generate_input for dtypes and layouts.
input_t = TypeVar("input_t", bound=tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor])
output_t = TypeVar("output_t", bound=torch.Tensor)


class TestSpec(TypedDict):
    m: int
    n: int
    k: int
    seed: int
