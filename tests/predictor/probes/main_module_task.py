"""Run with `python -m tests.predictor.probes.main_module_task`: a Ray task defined in the module
run as __main__ that reads one of the module's other names, as predictor.tune's tasks do."""
import functools

from predictor import parallel


@functools.cache
def doubled(x: int) -> int:
    return 2 * x


def _task(x: int) -> int:
    return doubled(x) + 1


if __name__ == "__main__":
    with parallel.session(cpus=1):
        refs = [parallel.task(_task).remote(x) for x in (1, 2)]
        print(sorted(value for _, value in parallel.finished(refs)))
