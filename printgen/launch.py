"""The `printgen` command's first code: Ctrl-C and SIGTERM are handled before anything is imported.

Importing printgen's dependencies takes a few hundred milliseconds; Python's own Ctrl-C handling
would print a traceback from inside them, and SIGTERM would end printgen at once, leaving its
helper processes running and temporary files behind. So this module imports nothing heavy: it
turns both signals into one exception, `Stopped`, then imports and runs the command line. Whatever
printgen is doing unwinds (each writer removes its temporary files, each child process is killed
and waited for), a final sweep ends any child or temporary file still recorded, and printgen prints
one line and exits with the shell's code for the signal: 130 for SIGINT, 143 for SIGTERM.
"""
from __future__ import annotations

import os
import signal
import sys
from types import FrameType

EXIT_CODES: dict[int, int] = {signal.SIGINT: 130, signal.SIGTERM: 143}  # 128 + the signal's number, as shells say
SAID: dict[int, str] = {signal.SIGINT: "interrupted", signal.SIGTERM: "stopped (SIGTERM)"}


class Stopped(BaseException):
    """printgen was asked to stop. A BaseException, so no `except Exception` (nor click) keeps it."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


def stop(signum: int, frame: FrameType | None) -> None:
    """The first signal stops printgen; later ones are ignored so the clean-up runs undisturbed."""
    for each in EXIT_CODES:
        signal.signal(each, signal.SIG_IGN)
    raise Stopped(signum)


def main() -> None:
    """The console script: run the command line, and end cleanly on Ctrl-C or SIGTERM."""
    for each in EXIT_CODES:
        if signal.getsignal(each) is not signal.SIG_IGN:  # ignored on purpose (nohup, `cmd &`): keep
            signal.signal(each, stop)
    try:
        from .cli import main as run_command_line

        run_command_line()
    except (Stopped, KeyboardInterrupt) as exc:
        signum = exc.signum if isinstance(exc, Stopped) else signal.SIGINT
        for each in EXIT_CODES:
            signal.signal(each, signal.SIG_IGN)
        clean_up()
        try:
            sys.stdout.flush()
        except (OSError, ValueError):
            pass
        sys.stderr.write(f"printgen: {SAID[signum]}; no half-written file was left behind.\n")
        sys.stderr.flush()
        os._exit(EXIT_CODES[signum])


def clean_up() -> None:
    """End every child process and remove every temporary file still recorded (only modules
    already imported are asked: an interrupt during imports has started neither)."""
    bounded = sys.modules.get("printgen.bounded")
    if bounded is not None:
        bounded.stop_children()
    atomic = sys.modules.get("printgen.atomic")
    if atomic is not None:
        atomic.remove_temporaries()


if __name__ == "__main__":
    main()
