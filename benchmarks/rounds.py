"""Paired rounds: how every speed script of benchmarks/ times the tools it compares.

A **round** runs each compared tool once, back to back, the order rotating from round to round
(``rotation``), so that the tools of one round share the machine's load; a ratio is the median of
the per-round ratios (``paired_ratios``, ``median_ratio``), never a ratio of medians taken over
different moments.

Every timed **window** (``Window``, ``timed``; commands are timed by peers_tools.py with the same
figures) records its seconds, the 1-minute load average before and after, and the cores other
processes kept busy meanwhile: the machine's busy CPU time (``/proc/stat``) less this process's
own (``own_cpu_seconds``: itself, its reaped children, and every descendant still in ``/proc``,
such as a warm pool's sandboxed workers), over the window's seconds. A sandbox's init that
bubblewrap leaves behind unreaped would otherwise be re-parented to the machine's init and its
CPU time counted as others': ``adopt_orphans`` makes this process the subreaper of its
descendants, so that such a process stays its own, and ``reap_orphans`` reaps them between
rounds. ``/proc/stat`` counts in clock ticks (10 ms per core), so the others' cores of a window
shorter than about a second are coarse: the scripts time blocks of calls, not single calls.

A window is **UNRELIABLE** (``unreliable``) when other work kept more cores busy than the machine
has beyond the tool's own workers, plus ``OTHERS_MARGIN``: the tool then waited for cores, and its
time is not its own. The 1-minute load average lags a minute and counts the benchmark's own
earlier runs, so it is printed (``load_line``) but is not the test.
"""

from __future__ import annotations

import ctypes
import os
import resource
import statistics
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Protocol, TypeVar

OTHERS_MARGIN = 0.2  # cores of other work tolerated (the kernel, a shell, this script)
_PR_SET_CHILD_SUBREAPER = 36
_TICK = os.sysconf("SC_CLK_TCK")
T = TypeVar("T")


class Measured(Protocol):
    """What the round machinery reads of a timed run (``Timing``, peers_tools.ToolRun)."""

    tool: str
    round: int
    load: tuple[float, float]
    others_cores: float

    @property
    def timed(self) -> float:
        """The seconds a ratio uses."""
        ...


@dataclass(frozen=True)
class Timing:
    """One timed window: one tool in one round."""

    tool: str
    round: int
    seconds: float
    cpu_s: float  # this process's own CPU time in the window (see own_cpu_seconds)
    load: tuple[float, float]  # 1-minute load average before and after
    others_cores: float  # cores other processes kept busy on average meanwhile
    workers: int = 1  # cores the tool itself keeps busy

    @property
    def timed(self) -> float:
        """The seconds a ratio uses."""
        return self.seconds


# ------------------------------------------------------------------ CPU time


def busy_seconds() -> float:
    """CPU seconds every process of the machine has used since boot (``/proc/stat``: user,
    nice, system, irq, softirq, steal), or 0 where there is no ``/proc``."""
    try:
        fields = Path("/proc/stat").read_text().splitlines()[0].split()[1:]
    except OSError:
        return 0.0
    user, nice, system, _idle, _iowait, irq, softirq, steal = (int(x) for x in fields[:8])
    return (user + nice + system + irq + softirq + steal) / _TICK


def own_cpu_seconds() -> float:
    """CPU seconds of this process, its reaped children and every descendant still in
    ``/proc`` (running, or exited and not reaped: a warm pool's sandboxed workers, an adopted
    sandbox init), each with the children it reaped. The sum does not change when a descendant
    is reaped: its times move into its parent's (or ``RUSAGE_CHILDREN``)."""
    used = sum(
        u.ru_utime + u.ru_stime
        for u in (resource.getrusage(resource.RUSAGE_SELF),
                  resource.getrusage(resource.RUSAGE_CHILDREN))
    )  # fmt: skip
    return used + sum(cpu for _pid, _state, cpu in _descendants())


def _descendants() -> list[tuple[int, str, float]]:
    """Every descendant of this process: (pid, state, utime + stime + cutime + cstime)."""
    out: list[tuple[int, str, float]] = []
    todo = ["self"]
    while todo:
        parent = todo.pop()
        try:
            tasks = list(Path(f"/proc/{parent}/task").iterdir())
        except OSError:
            continue
        for task in tasks:
            try:
                children = (task / "children").read_text().split()
            except OSError:
                continue
            for pid in children:
                try:
                    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
                except OSError:
                    continue
                # state, then utime stime cutime cstime
                out.append((int(pid), fields[0], sum(int(x) for x in fields[11:15]) / _TICK))
                todo.append(pid)
    return out


def _zombies() -> list[tuple[int, float]]:
    """This process's exited, unreaped children: (pid, their CPU seconds)."""
    mine = set()
    for task in Path("/proc/self/task").iterdir():
        try:
            mine.update(int(x) for x in (task / "children").read_text().split())
        except OSError:
            continue
    return [(pid, cpu) for pid, state, cpu in _descendants() if state == "Z" and pid in mine]


def adopt_orphans() -> bool:
    """Make this process the subreaper of its descendants (Linux), so that a sandboxed process
    whose bubblewrap parent exits without reaping it becomes this process's child and its CPU
    time this process's own. True when that is on."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def reap_orphans() -> int:
    """Reap the adopted children that exited (named ``bwrap``: a sandbox's init); call it
    between rounds, when no command this process started is still waiting to be reaped by its
    own ``Popen``. The number reaped."""
    reaped = 0
    for pid, _cpu in _zombies():
        try:
            name = Path(f"/proc/{pid}/comm").read_text().strip()
            if name == "bwrap" and os.waitpid(pid, os.WNOHANG)[0] == pid:
                reaped += 1
        except (OSError, ChildProcessError):
            continue
    return reaped


# ------------------------------------------------------------------ timing


class Window:
    """Times the code of a ``with`` block: seconds, own CPU, load and others' cores
    (``timing``)."""

    def __init__(self) -> None:
        self._start = (0.0, 0.0, 0.0, 0.0)
        self.seconds = self.cpu_s = self.others_cores = 0.0
        self.load = (0.0, 0.0)

    def __enter__(self) -> Window:
        load = os.getloadavg()[0]
        self._start = (load, busy_seconds(), own_cpu_seconds(),
                       time.perf_counter())  # fmt: skip
        return self

    def __exit__(self, *_exc: object) -> None:
        load, busy, own, started = self._start
        self.seconds = time.perf_counter() - started
        self.cpu_s = own_cpu_seconds() - own
        others = busy_seconds() - busy - self.cpu_s
        cores = os.cpu_count() or 1  # ticks make a short window's figure coarse: at most these
        self.others_cores = (
            min(cores, max(0.0, others) / self.seconds) if busy and self.seconds else 0.0
        )
        self.load = (load, os.getloadavg()[0])

    def timing(self, tool: str, round_: int, workers: int = 1) -> Timing:
        """The window as one tool's run in one round."""
        return Timing(tool, round_, self.seconds, self.cpu_s, self.load, self.others_cores,
                      workers)  # fmt: skip


def timed(tool: str, round_: int, fn: Callable[[], T], workers: int = 1) -> tuple[T, Timing]:
    """``fn()``'s result and its window."""
    with Window() as window:
        got = fn()
    return got, window.timing(tool, round_, workers)


def per_item(run: Timing, n: int) -> Timing:
    """A window of ``n`` calls as the seconds and CPU seconds of one call (its load and others'
    cores stay the window's)."""
    return replace(run, seconds=run.seconds / n, cpu_s=run.cpu_s / n)


def rotation(items: Sequence[T], round_: int) -> list[T]:
    """``items`` in round ``round_``'s order: each goes first in turn."""
    shift = round_ % len(items) if items else 0
    return list(items[shift:]) + list(items[:shift])


def run_rounds(
    tools: Mapping[str, Callable[[], object]], rounds: int, *,
    workers: Mapping[str, int] | None = None, before: Callable[[], None] | None = None,
) -> list[Timing]:  # fmt: skip
    """Every tool once per round, back to back, the order rotating; ``before`` runs untimed
    before each tool (emptying a cache); adopted orphans are reaped between rounds."""
    out = []
    for r in range(rounds):
        for name in rotation(list(tools), r):
            if before:
                before()
            _got, timing = timed(name, r, tools[name], (workers or {}).get(name, 1))
            out.append(timing)
        reap_orphans()
    return out


# ------------------------------------------------------------------ ratios and verdicts


def unreliable(run: Measured, workers: int, cores: int | None = None) -> str | None:
    """Why ``run``'s time is not the tool's alone, or None: other processes kept more cores
    busy while it ran than the machine had beyond the tool's own ``workers`` (plus
    ``OTHERS_MARGIN``)."""
    spare = max(0, (cores or os.cpu_count() or 1) - workers)
    if run.others_cores > spare + OTHERS_MARGIN:
        return (f"{run.tool} round {run.round + 1}: other work kept {run.others_cores:.1f} cores "
                f"busy (spare beside its {workers} workers: {spare})")  # fmt: skip
    return None


def paired_ratios(runs: Iterable[Measured], over: Iterable[Measured]) -> list[float]:
    """``run / other`` seconds for every round both tools ran (back to back, same load)."""
    by_round = {r.round: r.timed for r in over}
    return [r.timed / by_round[r.round] for r in runs if by_round.get(r.round)]


def by_tool(runs: Iterable[T]) -> dict[str, list[T]]:
    """Runs grouped per tool, in the order first seen."""
    out: dict[str, list[T]] = {}
    for r in runs:
        out.setdefault(r.tool, []).append(r)  # type: ignore[attr-defined]
    return out


def median_ratio(runs: Iterable[Measured], over: Iterable[Measured]) -> float | None:
    """The median of the per-round ratios, or None when no round had both."""
    got = paired_ratios(runs, over)
    return statistics.median(got) if got else None


# ------------------------------------------------------------------ printing


def cell(run: Measured, digits: int = 2) -> str:
    """A run as a table cell: seconds (load before->after, others' cores)."""
    return (f"{run.timed:.{digits}f} ({run.load[0]:.1f}->{run.load[1]:.1f}, "
            f"{run.others_cores:.1f})")  # fmt: skip


def rounds_rows(
    label: str, have: Mapping[str, Sequence[Measured]], tools: Sequence[str], digits: int = 2
) -> list[list[str]]:
    """One row per round: the label, the round, and each tool's cell ("-" when it did not run)."""
    numbers = sorted({r.round for rs in have.values() for r in rs})
    rows = []
    for n in numbers:
        row = [label, str(n + 1)]
        for tool in tools:
            run = next((r for r in have.get(tool, []) if r.round == n), None)
            row.append("-" if run is None else cell(run, digits))
        rows.append(row)
    return rows


def table(head: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    """A Markdown table (pasteable into docs/benchmarks.md); every column but the first is
    right-aligned."""
    out = [
        "| " + " | ".join(head) + " |",
        "|" + "|".join("---:" if i else "---" for i in range(len(head))) + "|",
    ]
    out.extend("| " + " | ".join(row) + " |" for row in rows)
    return out


def load_line(idle_before: float, runs: Iterable[Measured]) -> str:
    """How busy the machine was: before the benchmark, and before each run (which counts the
    benchmark's own earlier runs). A load above 0.5 before the start is called out."""
    seen = [r.load[0] for r in runs]
    if not seen:
        return ""
    return (
        f"1-minute load average before the benchmark: {idle_before:.2f}"
        + ("  WARNING: the machine was busy, times are not reliable" if idle_before > 0.5
           else "")
        + f"\nbefore each run (it counts this benchmark's own earlier runs): median "
        f"{statistics.median(seen):.2f}, max {max(seen):.2f} on {os.cpu_count()} cores"
    )  # fmt: skip


def verdict_lines(flagged: Sequence[str]) -> list[str]:
    """The UNRELIABLE line naming every flagged run, or the line saying none was."""
    if flagged:
        return [f"UNRELIABLE ({len(flagged)} runs): other work took cores the tool needed: "
                + "; ".join(flagged)]  # fmt: skip
    return ["no run shared its cores with other work beyond the margin: the figures hold for "
            "this machine"]  # fmt: skip


def report(
    label: str, runs: Sequence[Timing], pairs: Sequence[tuple[str, str]], idle_before: float,
    digits: int = 3, show: int = 12, derived: Sequence[Timing] = (),
) -> list[str]:  # fmt: skip
    """The rounds table of ``runs`` (seconds, load before->after, others' cores; the first
    ``show`` rounds), the median of the per-round ratios of each ``(numerator, denominator)``
    pair, the load line and the UNRELIABLE verdict. ``derived``: runs made of others (a sum of
    tools), shown and compared but not judged again."""
    have = by_tool([*runs, *derived])
    tools = list(have)
    rows = rounds_rows(label, have, tools, digits)
    lines = [f"rounds of {label} (each tool once per round, back to back, the order rotating; "
             "seconds, load average before->after, cores other work kept busy meanwhile):",
             *table(["", "round", *tools], rows[:show])]  # fmt: skip
    if len(rows) > show:
        lines.append(f"(and {len(rows) - show} more rounds)")
    for a, b in pairs:
        got = paired_ratios(have.get(a, []), have.get(b, []))
        if got:
            each = ", ".join(f"{x:.2f}" for x in got[:show]) + (", ..." if len(got) > show else "")
            lines.append(f"{a} / {b}: {statistics.median(got):.2f}x (median of the {len(got)} "
                         f"per-round ratios {each})")  # fmt: skip
    lines.append(load_line(idle_before, runs))
    lines += verdict_lines([why for r in runs if (why := unreliable(r, r.workers))])
    return lines
