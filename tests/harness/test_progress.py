"""A predicted case's progress: a bar redrawn in place on a terminal, nothing in a log."""
import io

from eval.progress import Bar
from eval.run import main as run_main


class Terminal(io.StringIO):
    def isatty(self):
        return True


def test_on_a_terminal_the_bar_shows_the_share_done_and_the_time_left():
    stream = Terminal()
    bar = Bar(stream)
    bar.begin("  [my.py benchmark] benchmark 3/18")
    bar.show(0.5)
    text = stream.getvalue()
    assert text.startswith("\r\033[K  [my.py benchmark] benchmark 3/18 [############............] 50%")
    assert "s left" in text
    bar.close()
    assert stream.getvalue().endswith("\r\033[K")


def test_in_a_log_the_bar_writes_nothing():
    stream = io.StringIO()
    bar = Bar(stream)
    bar.begin("benchmark 1/18")
    bar.show(0.3)
    bar.close()
    assert stream.getvalue() == ""


def test_exact_goes_with_the_predicted_method_only(capsys):
    assert run_main(["benchmark", "--exact", "--device", "cpu", "--shapes", "64,64,128"]) == 2
    assert "--exact is how --method predicted simulates" in capsys.readouterr().err
