"""The `printgen` command's first code: Ctrl-C and SIGTERM are handled before anything is imported, so
no traceback comes from inside the imports and no helper or temporary file outlives printgen. The
handler does the whole stop itself rather than raise: Python runs it between any two bytecodes, also
inside library code that catches every exception or drops it, where an exception could be lost.
"""
from __future__ import annotations

import os
import signal
import sys
from types import FrameType

EXIT_CODES: dict[int, int] = {signal.SIGINT: 130, signal.SIGTERM: 143}  # 128 + the signal's number
SAID: dict[int, str] = {signal.SIGINT: "interrupted", signal.SIGTERM: "stopped (SIGTERM)"}


def stop(signum: int, frame: FrameType | None = None) -> None:
    """End printgen now: children, temporaries, one line, the signal's exit code."""
    for each in EXIT_CODES:
        signal.signal(each, signal.SIG_IGN)  # a second Ctrl-C must not cut the clean-up short
    try:
        clean_up()
    finally:
        try:
            sys.stdout.flush()
        except (OSError, ValueError, RuntimeError):  # closed, or flushing when the signal came
            pass
        os.write(2, f"printgen: {SAID.get(signum, 'stopped')}; no half-written file was left "
                    f"behind.\n".encode())
        os._exit(EXIT_CODES.get(signum, 1))


def main() -> None:
    """The console script: run the command line, and end cleanly on Ctrl-C or SIGTERM."""
    for each in EXIT_CODES:
        if signal.getsignal(each) is not signal.SIG_IGN:  # ignored on purpose (nohup, `cmd &`): keep
            signal.signal(each, stop)
    try:
        from printgen.cli.main import main as run_command_line

        run_command_line()
    except KeyboardInterrupt:  # raised by code that sends itself SIGINT's exception
        stop(signal.SIGINT)


def clean_up() -> None:
    """End every child process and remove every temporary file still recorded (only modules
    already imported are asked: an interrupt during imports has started neither)."""
    for module, clean in (("bounded", "stop_children"), ("atomic", "remove_temporaries"), ("staging", "remove_all")):
        if f"printgen.core.{module}" in sys.modules:
            getattr(sys.modules[f"printgen.core.{module}"], clean)()


if __name__ == "__main__":
    main()
