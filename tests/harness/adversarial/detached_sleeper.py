# Starts a new-session subprocess (start_new_session=True) that outlives the stage, sleeps 3 s and then creates /tmp/adv/detached_sleeper.marker; answers correctly.
import subprocess
import sys

from reference.task import ref_kernel

MARKER = "/tmp/adv/detached_sleeper.marker"
_CHILD = (f"import os, time; time.sleep(3); os.makedirs('/tmp/adv', exist_ok=True); "
          f"open({MARKER!r}, 'w').write('outlived the stage by 3 s\\n')")
_started = False


def custom_kernel(data):
    global _started
    if not _started:
        _started = True
        subprocess.Popen([sys.executable, "-c", _CHILD], start_new_session=True,
                         stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return ref_kernel(data)
