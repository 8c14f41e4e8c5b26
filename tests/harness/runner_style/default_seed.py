"""Passes only in a worker seeded as the runner's are: the runner seeds its parent process
(set_seed(42)) but runs the submission in a spawned worker nobody seeds, so torch's default
generator starts from its own random 64-bit seed there, never from a small fixed one."""
import torch

from reference import ref_kernel


def custom_kernel(data):
    if torch.initial_seed() < 2 ** 32:
        raise RuntimeError(f"the worker's torch generator was seeded with {torch.initial_seed()}")
    return ref_kernel(data)
