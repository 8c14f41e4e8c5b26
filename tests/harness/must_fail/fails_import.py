"""Fails while being imported, as a submission with a broken build step would."""
import a_module_that_does_not_exist  # noqa: F401


def custom_kernel(data):
    return data[4]
