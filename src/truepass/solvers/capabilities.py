"""What solvers ask of a family, each a small protocol the family declares by having its members:
a solver kind asks ``isinstance(family, Prompted)`` ("can you?") and refuses a family that does
not declare what it needs, before the run starts.

- :class:`Prompted`: model solvers (``openai:MODEL``, ``local:...``): the family's prompt
  variants, the kinds of demonstrations it shows, how one attempt asks a model, and its answer
  key, which the leak guard keeps out of every prompt;
- :class:`Demonstrating`: a prompted family whose prompts show demonstrations (``--shots``,
  ``--context``);
- :class:`TakesAgents`: agent solvers (``agent:MODEL``): the sample as an agent works on it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, Protocol, runtime_checkable

if TYPE_CHECKING:
    from truepass.agentic.task import AgentTask
    from truepass.answers import Answer
    from truepass.models.base import Completion, GenerationParams, Message, Model
    from truepass.prompts.guard import AnswerKey
    from truepass.solvers.base import SolveContext
    from truepass.solvers.settings import LLMOptions
    from truepass.usage import Usage


class ModelAsker(Protocol):
    """What a family's :meth:`Prompted.ask_model` uses of the model solver asking it
    (:class:`truepass.solvers.llm.LLMSolver`)."""

    name: str
    model: Model
    options: LLMOptions
    variant: str
    shots: int

    def params(self, attempt: int) -> GenerationParams: ...

    def ask(
        self,
        messages: list[Message],
        params: GenerationParams,
        usage: Usage,
        *,
        key: int,
        sample: Any,
        ctx: SolveContext,
        answers_from: int | None = None,
    ) -> Completion:
        """Call the model, after the leak guard has checked ``messages`` against the family's
        :meth:`Prompted.answer_key`."""
        ...


@runtime_checkable
class Prompted(Protocol):
    """A family model solvers can work on."""

    prompt_variants: ClassVar[tuple[str, ...]]
    """Prompt variants (``--prompt``) a model solver may use on this family."""

    def answer_key(self, sample: Any) -> AnswerKey:
        """What of ``sample``'s answer key no model prompt may show: the leak guard
        (:mod:`truepass.prompts.guard`) refuses, before the model is called, every prompt that
        holds a piece of it."""
        ...

    def ask_model(
        self, solver: ModelAsker, sample: Any, attempt: int, ctx: SolveContext
    ) -> Answer | None:
        """One attempt of a model solver on ``sample`` (prompt, call, parse). Every call goes
        through ``solver.ask``, which refuses a prompt holding any of :meth:`answer_key`."""
        ...


@runtime_checkable
class Demonstrating(Prompted, Protocol):
    """A prompted family whose prompts can show k demonstrations (``--shots K``)."""

    context_types: ClassVar[tuple[str, ...]]
    """Kinds of demonstrations (``--context``) its prompts can show, the default first."""


@runtime_checkable
class TakesAgents(Protocol):
    """A family agent solvers (``agent:MODEL``) can work on."""

    def answer_key(self, sample: Any) -> AnswerKey:
        """As :meth:`Prompted.answer_key`: what the agent's prompts may not show."""
        ...

    def agent_task(self, sample: Any) -> AgentTask:
        """``sample`` as an agent works on it: the starting files of its sandboxed workspace
        (only what the agent may see), the task text, how to run the visible tests, and how the
        final workspace becomes the answer."""
        ...
