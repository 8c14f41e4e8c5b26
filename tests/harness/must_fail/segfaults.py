"""Kills its own process with a segmentation fault, as a broken compiled extension would."""
import ctypes


def custom_kernel(data):
    ctypes.string_at(0)
