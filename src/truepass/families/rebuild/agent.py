"""A rebuild task as an agent works on it: the documentation in its workspace, the gold at
``/opt/gold/PROGRAM`` (execute-only), the gold's installed paths masked, no network, and the
final workspace as the submission (docs/rebuild-format.md, "The agent's sandbox")."""

from __future__ import annotations

from typing import TYPE_CHECKING

from truepass.agentic.limits import AgentLimits
from truepass.agentic.task import AgentTask, is_cache_path
from truepass.answers import Answer
from truepass.families.rebuild.gold import GOLD_DIR, documentation, exec_only_copy, masks
from truepass.families.rebuild.judge import COMPILE_SCRIPT
from truepass.families.rebuild.schema import RebuildSample

if TYPE_CHECKING:
    from truepass.sandbox.session import SandboxSession

DOCS_FILE = "DOCS.txt"

BUDGET = AgentLimits(
    steps=1000, time_s=6 * 3600.0, step_time_s=180.0, warn_steps=20, warn_time_s=600.0
)
"""The benchmark's agent budget for rebuild tasks: 1,000 steps, 6 hours, 3 minutes a command,
warnings from 20 steps or 10 minutes left (each an --agent-* option)."""

INSTRUCTIONS = """\
Rebuild the command-line program `{program}` from scratch, {language}.

- The original is at {gold} : you may run it as often as you like, but you cannot read, copy
  or trace it, and there is no network. Its documentation is in {docs} in your workspace.
- Write the source tree in the workspace, and a `{compile}` at its root. `sh {compile}` will
  be run in a fresh copy of your files (without the original, without network) and must
  produce an executable `./{program}` at the root of the workspace.
- Hidden tests then run `./{program}` with many arguments, inputs, files and environments and
  compare its stdout, stderr, exit status and the files it writes with the original's,
  byte for byte (error messages name the program as `{program}`).
- Calling or copying the original scores zero.
- Build and try your program as you go (`sh {compile} && ./{program} ...`); submit when done.
"""


class RebuildAgentTask(AgentTask):
    """The workspace's text files are the submission (tool caches and the docs left out)."""

    def answer(self, session: SandboxSession) -> Answer:
        files = {
            path: text
            for path, text in session.snapshot().items()
            if not is_cache_path(path) and path != DOCS_FILE
        }
        return Answer(files=files) if files else Answer(no_patch=True)


def rebuild_agent_task(sample: RebuildSample) -> RebuildAgentTask:
    """``sample`` as an agent's task."""
    gold = f"{GOLD_DIR}/{sample.program}"
    language = (
        f"in {sample.required_language} (a submission mainly in another language scores zero)"
        if sample.required_language
        else "in any language the machine has"
    )
    text = INSTRUCTIONS.format(
        program=sample.program,
        gold=gold,
        docs=DOCS_FILE,
        compile=COMPILE_SCRIPT,
        language=language,
    )
    return RebuildAgentTask(
        files={DOCS_FILE: documentation(sample) + "\n"},
        instructions=text,
        test_command=None,
        ro_binds={str(exec_only_copy(sample)): gold, **masks(sample)},
        warning=f"Make sure `sh {COMPILE_SCRIPT}` builds ./{sample.program} now.",
        limits=BUDGET,
    )
