"""How a model states its actions: the two action protocols (docs/agents.md).

* :class:`TextProtocol` (``--agent-protocol text``, any model): each reply holds exactly one
  fenced shell block (```` ```bash ````), as minimal agents in the field do. The block is a shell
  command run in the sandbox; two commands of its own: ``run_tests`` (the visible tests) and
  ``submit`` (or ``echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT``), each alone in its block.
  Viewing and editing files are shell commands (``cat -n``, ``sed -i``, ``cat > FILE <<'EOF'``).
* :class:`ToolProtocol` (``--agent-protocol tools``): OpenAI-style tool calls, one tool per
  action (:func:`truepass.agentic.tools.tool_specs`); the first call of a reply is carried out,
  any other is answered "not run".

A reply without a valid action gets a format reminder as its observation (counted in the
trajectory; ``format_errors`` in a row end the attempt).
"""

from __future__ import annotations

import json
import re

from pydantic import BaseModel, ConfigDict, ValidationError

from truepass.agentic.protocol import AgentProtocol
from truepass.agentic.task import AgentTask
from truepass.agentic.tools import (
    ACTION_TYPES,
    BaseAction,
    RunCommand,
    RunTests,
    Submit,
    tool_specs,
)
from truepass.models.base import Completion, GenerationParams, Message

SUBMIT_COMMANDS = frozenset({"submit", "echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT"})
TEST_COMMAND = "run_tests"
SHELL_LANGUAGES = frozenset({"", "bash", "sh", "shell", "console"})
_FENCE = re.compile(r"```[ \t]*([\w+-]*)[ \t]*\n(.*?)```", re.DOTALL)


class Parsed(BaseModel):
    """The action of one reply, or why there is none (``error``, told to the model)."""

    model_config = ConfigDict(frozen=True)

    action: BaseAction | None = None
    error: str | None = None


_SHARED = """You work in a sandboxed Linux shell, in the directory of a project: no network, no
root, a time limit per command. Each command runs in a fresh shell in that directory: the files
you change stay changed, but cd, variables and background processes do not carry over (chain
commands with &&). Interactive programs (editors, pagers, prompts) do not work."""

TEXT_SYSTEM = f"""You are a careful software engineer. {_SHARED}

Every reply: a short thought, then exactly ONE shell command in a fenced block, like this:

```bash
cat -n main.py
```

You then see its exit status and output, and reply again. Besides ordinary commands:
- `run_tests` (alone in its block) runs the project's tests;
- `submit` (alone in its block) ends the task: the files as they are then are your answer.

View files with `cat -n FILE` or `sed -n '10,40p' FILE`; edit them with `sed -i`, or write a
whole file with `cat > FILE <<'EOF'` ... `EOF`."""

TOOLS_SYSTEM = f"""You are a careful software engineer. {_SHARED}

Act through the tools, one tool call per reply: bash (a shell command), view, write_file and
str_replace (files), run_tests (the project's tests) and submit (ends the task: the files as
they are then are your answer). You see what each call did, then reply again."""


class TextProtocol:
    """One fenced shell block per reply."""

    kind = AgentProtocol.TEXT
    system_prompt = TEXT_SYSTEM

    def params(self, base: GenerationParams) -> GenerationParams:
        return base

    def parse(self, completion: Completion) -> Parsed:
        blocks = [
            body
            for lang, body in _FENCE.findall(completion.text)
            if lang.lower() in SHELL_LANGUAGES
        ]
        if len(blocks) != 1:
            found = "no" if not blocks else str(len(blocks))
            return Parsed(error=f"your reply has {found} fenced shell blocks, not one")
        command = blocks[0].strip()
        if not command:
            return Parsed(error="the shell block is empty")
        if command in SUBMIT_COMMANDS:
            return Parsed(action=Submit())
        if command == TEST_COMMAND:
            return Parsed(action=RunTests())
        return Parsed(action=RunCommand(command=command))

    def reminder(self, error: str) -> str:
        return (
            f"Format error: {error}. Reply with a short thought and exactly one shell command "
            "in a fenced block:\n\n```bash\nCOMMAND\n```\n\n`run_tests` runs the tests; "
            "`submit` ends the task."
        )

    def assistant_message(self, completion: Completion) -> Message:
        return {"role": "assistant", "content": completion.text}

    def observation_messages(self, completion: Completion, text: str) -> list[Message]:
        return [{"role": "user", "content": text}]


class ToolProtocol:
    """OpenAI-style tool calls; one action per reply."""

    kind = AgentProtocol.TOOLS
    system_prompt = TOOLS_SYSTEM

    def __init__(self) -> None:
        self.tools = tool_specs()

    def params(self, base: GenerationParams) -> GenerationParams:
        return base.model_copy(update={"tools": self.tools})

    def parse(self, completion: Completion) -> Parsed:
        if not completion.tool_calls:
            return Parsed(error="your reply calls no tool")
        call = completion.tool_calls[0]
        model = ACTION_TYPES.get(call.name)
        if model is None:
            return Parsed(error=f"there is no tool {call.name!r}")
        try:
            args = json.loads(call.arguments or "{}")
        except json.JSONDecodeError as exc:
            return Parsed(error=f"the arguments of {call.name} are not JSON ({exc.msg})")
        if not isinstance(args, dict):
            return Parsed(error=f"the arguments of {call.name} are not a JSON object")
        try:
            action = model.model_validate({**args, "tool": call.name})
        except ValidationError as exc:
            problems = "; ".join(
                f"{'.'.join(str(p) for p in e['loc']) or 'arguments'}: {e['msg']}"
                for e in exc.errors()
            )
            return Parsed(error=f"bad arguments for {call.name}: {problems}")
        return Parsed(action=action)

    def reminder(self, error: str) -> str:
        names = ", ".join(ACTION_TYPES)
        return f"Format error: {error}. Call one of the tools ({names}); submit ends the task."

    def assistant_message(self, completion: Completion) -> Message:
        message: Message = {"role": "assistant", "content": completion.text}
        if completion.tool_calls:
            message["tool_calls"] = [call.openai() for call in completion.tool_calls]
        return message

    def observation_messages(self, completion: Completion, text: str) -> list[Message]:
        """Every tool call gets its answer (the first the observation, the others "not run");
        a reply without one gets the observation as a user message."""
        if not completion.tool_calls:
            return [{"role": "user", "content": text}]
        first, *rest = completion.tool_calls
        out: list[Message] = [{"role": "tool", "tool_call_id": first.id, "content": text}]
        out += [
            {"role": "tool", "tool_call_id": c.id, "content": "not run: one tool call per reply"}
            for c in rest
        ]
        return out


ActionProtocol = TextProtocol | ToolProtocol


def make_protocol(kind: AgentProtocol) -> ActionProtocol:
    """The protocol of ``kind``."""
    return ToolProtocol() if kind is AgentProtocol.TOOLS else TextProtocol()


def task_message(task: AgentTask, steps: int) -> str:
    """The first user message: the family's task text, the files, and the step budget."""
    files = ", ".join(sorted(task.files)) or "(none)"
    return (
        f"{task.instructions.rstrip()}\n\nFiles in the project directory: {files}\n\n"
        f"You have at most {steps} replies; submit when you are done."
    )


__all__ = [
    "SUBMIT_COMMANDS",
    "TEST_COMMAND",
    "ActionProtocol",
    "Parsed",
    "TextProtocol",
    "ToolProtocol",
    "make_protocol",
    "task_message",
]
