"""A fresh Python with printgen's modules imported, which forks one child per case: each case starts
as a fresh `printgen` process would once its imports are done (nothing has run in it yet), under
its own memory cap, with its CPU time and peak resident size as the kernel counts them for that
child alone, without paying Python's start-up and printgen's imports again for each case.

`python tests/zygote.py` reads one JSON request a line on stdin ({"args", "cwd", "env", "out",
"err", "cap", "seconds"}) and answers each with one JSON line: the child's wait status, user and
system CPU seconds and peak resident size in bytes (wait4's figures for the child and the children
it waited for). The zygote itself never runs a command, so no child inherits state from another.

A test runs a command through it with `run_printgen` (which starts this worker's zygote at its first
call) and ends it with `stop`, at the end of its module, so the zygote's and its children's CPU
time count in the test run's. A fork of the zygote also costs less than a fork of pytest, which
has much more memory to copy on write: a build's worker is forked from the case, not from pytest.
"""
from __future__ import annotations

import importlib
import json
import os
import pkgutil
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import NoReturn, NamedTuple


def load_printgen() -> None:
    """Every printgen module, imported as a command would import it (no module acts on import)."""
    import printgen

    for module in pkgutil.walk_packages(printgen.__path__, "printgen."):
        if not module.name.endswith("__main__"):
            importlib.import_module(module.name)


def child(request: dict, channel: tuple[int, int]) -> None:
    """In the fork: the case's memory cap and environment, then `run_as_printgen`; never returns."""
    for fd in channel:
        os.close(fd)
    resource.setrlimit(resource.RLIMIT_AS, (request["cap"], request["cap"]))
    os.environ.clear()
    os.environ.update(request["env"])
    sys.path[0] = ""  # as `python -c` has it: the working folder, not tests/
    run_as_printgen(request["args"], request["cwd"], request["out"], request["err"])


def run_as_printgen(args: list[str], cwd: str, out: str, err: str) -> NoReturn:
    """In a forked child: `printgen ARGS` in folder `cwd`, exactly as the console script runs it,
    its output in the files `out` and `err`, ending the process with its exit code."""
    code = 1
    try:
        os.chdir(cwd)
        for fd, path in ((1, out), (2, err)):
            os.dup2(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC), fd)
        os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
        sys.stdin = open(0, closefd=False)
        sys.stdout = open(1, "w", closefd=False)
        sys.stderr = open(2, "w", closefd=False)
        sys.argv = ["printgen", *args]
        from printgen.launch import main

        try:
            main()
            code = 0
        except SystemExit as stop:  # as the interpreter ends on an uncaught SystemExit
            if stop.code is None or isinstance(stop.code, int):
                code = stop.code or 0
            else:
                print(stop.code, file=sys.stderr)
                code = 1
    except BaseException:  # noqa: BLE001 - shown as an uncaught error would be, then a failing code
        import traceback

        traceback.print_exc()
    finally:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except Exception:  # noqa: BLE001 - nothing left to tell it to
                pass
        os._exit(code)


def serve() -> None:
    requests, answers = os.dup(0), os.dup(1)  # the channel; 0 and 1 are the cases' to take
    os.dup2(os.open(os.devnull, os.O_RDWR), 0)
    os.dup2(os.open(os.devnull, os.O_RDWR), 1)
    load_printgen()
    reader, writer = os.fdopen(requests, "r"), os.fdopen(answers, "w")
    for line in reader:
        request = json.loads(line)
        started = time.monotonic()
        pid = os.fork()
        if pid == 0:
            child(request, (requests, answers))
        while True:  # a hung case is killed at its wall-clock backstop
            done, status, usage = os.wait4(pid, os.WNOHANG)
            if done:
                break
            if time.monotonic() > started + request["seconds"]:
                os.kill(pid, 9)
                _, status, usage = os.wait4(pid, 0)
                break
            time.sleep(0.01)
        writer.write(json.dumps({"status": status, "user": usage.ru_utime, "system": usage.ru_stime,
                                 "peak": usage.ru_maxrss * 1024}) + "\n")
        writer.flush()


RUNNING: list[subprocess.Popen] = []  # this process's zygote, started by the first run_printgen


class Ran(NamedTuple):
    code: int  # the exit code
    out: str
    err: str
    cpu: float  # CPU seconds, of the command and the children it waited for
    peak: int  # the peak resident size in bytes (wait4's), of it and of those children


def zygote() -> subprocess.Popen:
    if not RUNNING or RUNNING[0].poll() is not None:
        RUNNING[:] = [subprocess.Popen([sys.executable, __file__], text=True, stdin=subprocess.PIPE,
                                       stdout=subprocess.PIPE)]
    return RUNNING[0]


def run_printgen(args: list[str], cwd: Path, capture: Path, cap: int = resource.RLIM_INFINITY,
                 seconds: float = 120) -> Ran:
    """`printgen ARGS` run from the folder `cwd` in a fresh process forked by this worker's zygote,
    with this process's environment, capped at `cap` bytes of address space and killed after
    `seconds`; its output goes through stdout.txt and stderr.txt in the folder `capture`."""
    out_file, err_file = capture / "stdout.txt", capture / "stderr.txt"
    process = zygote()
    assert process.stdin and process.stdout
    process.stdin.write(json.dumps({"args": args, "cwd": str(cwd), "env": dict(os.environ), "out": str(out_file),
                                    "err": str(err_file), "cap": cap, "seconds": seconds}) + "\n")
    process.stdin.flush()
    answer = json.loads(process.stdout.readline())
    texts = [f.read_bytes().decode("utf-8", "replace") for f in (out_file, err_file)]
    out_file.unlink()
    err_file.unlink()
    return Ran(os.waitstatus_to_exitcode(answer["status"]), texts[0], texts[1], answer["user"] + answer["system"],
               answer["peak"])


def stop() -> None:
    """End this process's zygote, once its requests are answered, and wait for it."""
    for each in RUNNING:
        assert each.stdin
        each.stdin.close()
        each.wait(timeout=60)
    RUNNING.clear()


if __name__ == "__main__":
    serve()
