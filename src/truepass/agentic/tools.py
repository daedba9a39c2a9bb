"""The agent's actions and how they are carried out.

Every action is a typed value (:data:`Action`). Shell commands and test runs go to the sandboxed
session (:meth:`~truepass.sandbox.session.SandboxSession.run`: a fresh sandbox over the
workspace, no network, uid 65534, the time and output limits of the run); viewing and editing a
file go through the session's trusted file tools, which only ever touch the workspace (no
absolute path, no ``..``, no symlink out of it). Nothing the agent says runs in truepass's own
process.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from truepass.agentic.task import AgentTask
from truepass.models.base import ToolSpec
from truepass.sandbox.session import Observation, SandboxSession, WorkspaceError, clip


@dataclass(frozen=True)
class ActionView:
    """An action as the report's timeline shows it: its kind, a title, the file it works on and
    the code (a command, a file's new text, or the replaced text as removed and added lines)."""

    kind: str
    """``command``, ``view``, ``write``, ``edit``, ``tests``, ``submit`` or ``format-error``"""
    title: str
    path: str | None = None
    code: str | None = None
    replaced: tuple[tuple[str, str], ...] = ()
    """(css class, line) of a ``str_replace``: the old text's lines removed, the new ones added"""


class BaseAction(BaseModel):
    """What every action is: a frozen value with its tool's name in ``tool``, and how the
    report shows it (:meth:`view`)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    def view(self) -> ActionView:
        raise NotImplementedError


class RunCommand(BaseAction):
    """Run a shell command in the workspace (``/bin/sh -c``)."""

    tool: Literal["bash"] = "bash"
    command: str = Field(min_length=1, description="the shell command to run")

    def view(self) -> ActionView:
        return ActionView("command", "bash", code=self.command)


class ViewFile(BaseAction):
    """Show a file of the workspace with line numbers (a range of lines, 1-based, inclusive)."""

    tool: Literal["view"] = "view"
    path: str = Field(min_length=1, description="the file's path, relative to the workspace")
    start_line: int | None = Field(None, ge=1, description="first line shown (default: 1)")
    end_line: int | None = Field(None, ge=1, description="last line shown (default: the last)")

    def view(self) -> ActionView:
        lines = ""
        if self.start_line or self.end_line:
            lines = f" lines {self.start_line or 1}–{self.end_line or 'end'}"
        return ActionView("view", f"view{lines}", path=self.path)


class WriteFile(BaseAction):
    """Write a whole file (created, with its directories, or replaced)."""

    tool: Literal["write_file"] = "write_file"
    path: str = Field(min_length=1, description="the file's path, relative to the workspace")
    content: str = Field(description="the file's whole new text")

    def view(self) -> ActionView:
        return ActionView("write", "write_file", path=self.path, code=self.content)


class ReplaceInFile(BaseAction):
    """Replace the one occurrence of ``old`` in a file with ``new``."""

    tool: Literal["str_replace"] = "str_replace"
    path: str = Field(min_length=1, description="the file's path, relative to the workspace")
    old: str = Field(min_length=1, description="text that occurs exactly once in the file")
    new: str = Field(description="what replaces it")

    def view(self) -> ActionView:
        replaced = [("del", "-" + ln) for ln in self.old.splitlines() or [""]]
        replaced += [("add", "+" + ln) for ln in self.new.splitlines() or [""]]
        return ActionView("edit", "str_replace", path=self.path, replaced=tuple(replaced))


class RunTests(BaseAction):
    """Run the visible tests (the family's command)."""

    tool: Literal["run_tests"] = "run_tests"

    def view(self) -> ActionView:
        return ActionView("tests", "run_tests")


class Submit(BaseAction):
    """End the attempt: the workspace as it is becomes the answer."""

    tool: Literal["submit"] = "submit"

    def view(self) -> ActionView:
        return ActionView("submit", "submit")


Action = Annotated[
    RunCommand | ViewFile | WriteFile | ReplaceInFile | RunTests | Submit,
    Field(discriminator="tool"),
]
"""One action of the agent, discriminated by ``tool`` (the tool names of the tools protocol)."""

ACTION_TYPES: dict[str, type[BaseAction]] = {
    "bash": RunCommand,
    "view": ViewFile,
    "write_file": WriteFile,
    "str_replace": ReplaceInFile,
    "run_tests": RunTests,
    "submit": Submit,
}

CHANGING = (RunCommand, WriteFile, ReplaceInFile, RunTests)
"""Actions after which the workspace may have changed (a test run may write files too)."""

_PYTEST = re.compile(r"(?<![\w.-])(py\.test|pytest)(?![\w-])")
_DURATION = re.compile(r" in \d+(?:\.\d+)?s(?: \(\d+:\d\d:\d\d\))?")
_ADDRESS = re.compile(r"\b0x[0-9a-f]{6,16}\b")


def stable(text: str) -> str:
    """``text`` without what changes from run to run in test output (pytest's durations, object
    addresses), as the agent is shown it: the requests of a rerun are then the same, and replay
    from the response cache (as repair's feedback prompts do)."""
    return _ADDRESS.sub("0x…", _DURATION.sub("", text))


def runs_tests(action: BaseAction | None) -> bool:
    """Whether ``action`` runs tests: ``run_tests``, or a shell command calling pytest."""
    if isinstance(action, RunTests):
        return True
    return isinstance(action, RunCommand) and _PYTEST.search(action.command) is not None


def tool_specs() -> tuple[ToolSpec, ...]:
    """The actions as the tools of the tools protocol (their JSON Schemas from the models)."""
    specs = []
    for name, model in ACTION_TYPES.items():
        schema = model.model_json_schema()
        props = {k: v for k, v in schema.get("properties", {}).items() if k != "tool"}
        for prop in props.values():
            prop.pop("title", None)
            prop.pop("default", None)
        params = {"type": "object", "properties": props, "additionalProperties": False}
        required = [k for k in schema.get("required", []) if k != "tool"]
        if required:
            params["required"] = required
        specs.append(ToolSpec(name=name, description=model.__doc__ or name, parameters=params))
    return tuple(specs)


class Outcome(BaseModel):
    """What one action did: the text the model is shown (``shown``, shortened to the display
    limit) and the whole of it (``full``, only when ``shown`` is shortened), with the command's
    exit status and timing where a command ran."""

    model_config = ConfigDict(frozen=True)

    shown: str
    full: str | None = None
    exit_code: int | None = None
    timed_out: bool = False
    duration_s: float = 0.0


def execute(
    action: BaseAction, session: SandboxSession, task: AgentTask, *, timeout_s: float, chars: int
) -> Outcome:
    """Carry out ``action`` (not :class:`Submit`, which the loop handles): commands in the
    sandbox with ``timeout_s``, file tools on the trusted side. A path the file tools refuse, or
    a file that is not there, is told to the agent, not raised.

    Raises:
        SandboxError: the sandbox itself failed (an infra error, not the agent's).
    """
    start = time.monotonic()
    if isinstance(action, RunCommand):
        return _observed(session.run(action.command, timeout_s=timeout_s), timeout_s, chars)
    if isinstance(action, RunTests):
        if task.test_command is None:
            return Outcome(shown="There is no test command for this task.")
        return _observed(session.run(task.test_command, timeout_s=timeout_s), timeout_s, chars)
    try:
        text = _file_action(action, session)
    except (WorkspaceError, OSError, UnicodeError) as exc:
        text = f"error: {exc}"
    shown, cut = clip(text, chars)
    return Outcome(shown=shown, full=text if cut else None, duration_s=time.monotonic() - start)


def _file_action(action: BaseAction, session: SandboxSession) -> str:
    if isinstance(action, ViewFile):
        lines = session.read_file(action.path).splitlines()
        first = action.start_line or 1
        last = min(action.end_line or len(lines), len(lines))
        if first > max(len(lines), 1):
            return f"{action.path} has {len(lines)} lines"
        return "\n".join(f"{n:6}\t{lines[n - 1]}" for n in range(first, last + 1))
    if isinstance(action, WriteFile):
        session.write_file(action.path, action.content)
        return f"wrote {action.path} ({len(action.content.splitlines())} lines)"
    if isinstance(action, ReplaceInFile):
        text = session.read_file(action.path)
        found = text.count(action.old)
        if found != 1:
            what = "does not occur" if found == 0 else f"occurs {found} times"
            return f"error: the old text {what} in {action.path}; nothing was changed"
        session.write_file(action.path, text.replace(action.old, action.new, 1))
        return f"replaced 1 occurrence in {action.path}"
    raise TypeError(f"not a file action: {action!r}")  # pragma: no cover


def _observed(obs: Observation, timeout_s: float, chars: int) -> Outcome:
    """A command's observation as the model sees it: its exit status and its output (made
    :func:`stable`; the full text, when the shown one is shortened, is as it was)."""
    status = (
        f"timed out: killed after the limit of {timeout_s:g} s"
        if obs.timed_out
        else f"exit code {obs.exit_code}"
    )

    def render(out: str, err: str) -> str:
        parts = [f"<status>{status}</status>"]
        if out:
            parts.append(f"<stdout>\n{out.rstrip()}\n</stdout>")
        if err:
            parts.append(f"<stderr>\n{err.rstrip()}\n</stderr>")
        if not out and not err:
            parts.append("(no output)")
        return "\n".join(parts)

    shown_out, cut_out = clip(stable(obs.stdout_full), chars)
    shown_err, cut_err = clip(stable(obs.stderr_full), chars)
    shown = render(shown_out, shown_err)
    full = render(obs.stdout_full, obs.stderr_full) if cut_out or cut_err else None
    if obs.output_capped:
        shown += "\n(output capped: the command wrote more than the sandbox keeps)"
    return Outcome(
        shown=shown,
        full=full,
        exit_code=obs.exit_code,
        timed_out=obs.timed_out,
        duration_s=obs.duration_s,
    )


__all__ = [
    "ACTION_TYPES",
    "CHANGING",
    "Action",
    "BaseAction",
    "Outcome",
    "ReplaceInFile",
    "RunCommand",
    "RunTests",
    "Submit",
    "ViewFile",
    "WriteFile",
    "execute",
    "runs_tests",
    "stable",
    "tool_specs",
]
