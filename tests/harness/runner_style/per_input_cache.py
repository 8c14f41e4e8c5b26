"""Does 0.08 s of one-time work the first time it sees an input object (as a submission
that caches a transposed operand or a workspace per input would), then the reference."""
import time

from reference import ref_kernel

ONE_TIME_S = 0.08  # leaderboard mode pays it on each of its (at most 100) repeats
_seen = {}  # id -> the tensor itself, kept alive so its id is never reused


def custom_kernel(data):
    if id(data[0]) not in _seen:
        _seen[id(data[0])] = data[0]
        time.sleep(ONE_TIME_S)
    return ref_kernel(data)
