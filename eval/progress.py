"""A one-line progress bar on a terminal: how far a long case is, redrawn in place.

The parent (eval/judge.py) shows it for the fractions a predicting worker sends; where stderr is
not a terminal (a log, a pipe, CI) it shows nothing, so logs hold only whole lines.
"""
from __future__ import annotations

import sys
import time

WIDTH = 24


class Bar:
    def __init__(self, stream=None):
        self.stream = stream or sys.stderr
        self.on = self.stream.isatty()
        self.drawn = False
        self.text, self.started = "", time.monotonic()

    def begin(self, text: str) -> None:
        """A new piece of work: the fractions that follow are its."""
        self.close()
        self.text, self.started = text, time.monotonic()

    def show(self, fraction: float) -> None:
        if not self.on:
            return
        fraction = min(max(fraction, 0.0), 1.0)
        elapsed = time.monotonic() - self.started
        left = f", about {elapsed * (1 - fraction) / fraction:.0f} s left" if fraction >= 0.05 else ""
        filled = round(WIDTH * fraction)
        self.stream.write(f"\r\033[K{self.text} [{'#' * filled}{'.' * (WIDTH - filled)}] {100 * fraction:.0f}%, "
                          f"{elapsed:.0f} s{left}")
        self.stream.flush()
        self.drawn = True

    def close(self) -> None:
        """Clear the bar's line, so the next whole line starts on a clean one."""
        if self.drawn:
            self.stream.write("\r\033[K")
            self.stream.flush()
            self.drawn = False
