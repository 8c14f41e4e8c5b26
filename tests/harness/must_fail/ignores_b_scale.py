"""Applies a_scale but forgets b_scale."""
import torch


def custom_kernel(data):
    a, b, a_scale, _, c = data
    k = a.shape[1]
    a_deq = a.float() * a_scale.repeat_interleave(128, dim=1)[:, :k]
    return c.copy_((a_deq @ b.float().T).to(torch.bfloat16))
