"""What a fork costs a warm worker, by what the worker has loaded: the reason the pool's worker
loads libseccomp without ``ctypes.util`` and forks its children from a zygote.

    .venv/bin/python benchmarks/fork_cost.py                 # 2,000 forks per image, 3 rounds
    .venv/bin/python benchmarks/fork_cost.py --forks 500 --rounds 1

Each image is a fresh ``python -S -s -B`` (the worker's flags) that imports a set of modules,
freezes its heap as the worker does (``gc.collect(); gc.freeze()``), then forks ``--forks``
children that ``_exit`` at once, waiting for each. It prints the wall time per fork and exit,
the parent's and the children's CPU time per fork, the number of mappings (``/proc/self/maps``
lines) and the anonymous memory, and each image's time over the bare interpreter's (the peer:
a fork of an interpreter that loaded nothing). The images, in the order a worker builds up:

  bare            the interpreter alone;
  worker          what worker.py, checkchild.py, confine.py and plainvalues.py import, with
                  libc through ctypes (today's worker, less its warm imports);
  worker+warm     the same and the warm imports candidates commonly use (today's worker);
  +ctypes.util    the same and ``ctypes.util`` with libseccomp loaded and kept (the worker
                  before session 21: ``find_library`` brought subprocess, shutil and the
                  bz2, lzma and zlib libraries into every fork).

A fork copies the parent's page tables and mappings; the child's exit tears them down. The
pool pays this once per check, in the zygote and in the child. Paired rounds
(``benchmarks/rounds.py``): each round measures every image once, the order rotating; the
table gives each image's medians, and each image over ``bare`` is the median of the per-round
ratios, with the rounds table, the load and the UNRELIABLE verdict of every speed script (each
image runs one process: one core).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import textwrap
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from rounds import Timing, Window, report, rotation

WORKER = ("contextlib,io,json,random,types,math,reprlib,typing,ctypes,libc,errno,resource,select,"
          "signal,stat,dataclasses,gc,mmap")  # fmt: skip
WARM = ("bisect,collections,copy,datetime,decimal,fractions,functools,hashlib,heapq,itertools,"
        "operator,re,statistics,string")  # fmt: skip
IMAGES = {
    "bare": "",
    "worker": WORKER,
    "worker+warm": f"{WORKER},{WARM}",
    "+ctypes.util": f"{WORKER},{WARM},ctypes.util,libseccomp",
}

PROBE = textwrap.dedent(
    """
    import gc, importlib, json, os, sys, time
    for name in [m for m in sys.argv[1].split(",") if m]:
        if name == "libc":
            import ctypes; ctypes.CDLL(None)
        elif name == "libseccomp":
            import ctypes, ctypes.util; ctypes.CDLL(ctypes.util.find_library("seccomp"))
        else:
            importlib.import_module(name)
    gc.collect(); gc.freeze()
    n = int(sys.argv[2])
    start, before = time.perf_counter(), os.times()
    for _ in range(n):
        pid = os.fork()
        if pid == 0:
            os._exit(0)
        os.waitpid(pid, 0)
    wall, after = time.perf_counter() - start, os.times()
    with open("/proc/self/maps") as f:
        maps = sum(1 for _ in f)
    with open("/proc/self/status") as f:
        anon = next(int(l.split()[1]) for l in f if l.startswith("RssAnon"))
    print(json.dumps({
        "wall_us": wall / n * 1e6,
        "parent_cpu_us": (after.user + after.system - before.user - before.system) / n * 1e6,
        "child_cpu_us": (after.children_user + after.children_system - before.children_user
                         - before.children_system) / n * 1e6,
        "maps": maps, "anon_kb": anon,
    }))
    """
)


def measure(modules: str, forks: int) -> dict[str, float]:
    """One image's figures (a fresh interpreter)."""
    out = subprocess.run(
        [sys.executable, "-S", "-s", "-B", "-c", PROBE, modules, str(forks)],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    return json.loads(out.stdout)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--forks", type=int, default=2000, help="forks per image and round")
    ap.add_argument("--rounds", type=int, default=3, help="paired rounds (default 3)")
    args = ap.parse_args(argv)
    idle_before = os.getloadavg()[0]
    got: dict[str, list[dict[str, float]]] = {name: [] for name in IMAGES}
    timings: list[Timing] = []
    for r in range(args.rounds):
        for name in rotation(list(IMAGES), r):
            with Window() as window:
                figures = measure(IMAGES[name], args.forks)
            got[name].append(figures)
            cpu_s = (figures["parent_cpu_us"] + figures["child_cpu_us"]) / 1e6
            timings.append(Timing(name, r, figures["wall_us"] / 1e6, cpu_s, window.load,
                                  window.others_cores))  # fmt: skip

    def med(name: str, key: str) -> float:
        return statistics.median(r[key] for r in got[name])

    print(f"{args.forks} forks per image; medians of {args.rounds} paired rounds")
    print(f"{'image':14} {'fork+exit us':>12} {'parent cpu us':>14} {'child cpu us':>13} "
          f"{'maps':>5} {'anon KiB':>9}")  # fmt: skip
    for name in IMAGES:
        print(f"{name:14} {med(name, 'wall_us'):12.0f} {med(name, 'parent_cpu_us'):14.0f} "
              f"{med(name, 'child_cpu_us'):13.0f} {med(name, 'maps'):5.0f} "
              f"{med(name, 'anon_kb'):9.0f}")  # fmt: skip
    pairs = [(name, "bare") for name in IMAGES if name != "bare"]
    print("\n" + "\n".join(report("one fork and exit (seconds)", timings, pairs, idle_before,
                                    digits=6)))  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
