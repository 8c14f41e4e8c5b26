"""Sleeps far past any stage limit."""
import time


def custom_kernel(data):
    time.sleep(3600)
