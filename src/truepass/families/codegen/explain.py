"""``truepass explain``: a model writes the reasoning and strategy behind each problem's reference
solution, stored as the ``explanation`` field of a derived codegen suite.

The study this follows had a model extract the ideas of solutions to show them with explained
demonstrations (``--shots K --context explained``). Every request goes through the response
cache, so running it again (or after an interruption) asks the model only for what is missing.
A problem whose request fails or whose answer holds no prose keeps no explanation and is listed
in the report; problems that already carry one keep it unless ``overwrite`` is set.
"""

from __future__ import annotations

import hashlib
import json
import re
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path

from truepass.errors import InputError
from truepass.families.codegen.prompts import build_explain_messages
from truepass.families.codegen.schema import CodegenSample
from truepass.models.base import Completion, GenerationParams, Model, ModelError, ModelUnavailable
from truepass.suites.suite import Suite
from truepass.usage import Usage

_FENCED = re.compile(r"(`{3,}).*?(\1|\Z)", re.S)
MAX_WORDS = 150  # a longer answer is cut at a sentence end before this many words


@dataclass
class ExplainReport:
    """What ``explain_suite`` did; written as ``explain.json`` beside the derived suite."""

    suite: str
    model: str
    problems: int = 0
    explained: int = 0
    kept: int = 0
    """problems that already carried an explanation (left as they were)"""
    failed: dict[str, str] = field(default_factory=dict)
    """problem id -> why it has no explanation"""
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cached: int = 0
    duration_s: float = 0.0

    def to_json(self) -> dict[str, object]:
        return asdict(self)


def read_explanation(text: str) -> str:
    """The prose of a model's answer: code blocks and inline code fences removed, whitespace
    collapsed, at most :data:`MAX_WORDS` words (cut at the last sentence end before that)."""
    prose = " ".join(_FENCED.sub(" ", text).split())
    words = prose.split(" ")
    if len(words) <= MAX_WORDS:
        return prose
    cut = " ".join(words[:MAX_WORDS])
    end = max(cut.rfind(". "), cut.rfind("! "), cut.rfind("? "))
    return cut[: end + 1] if end > 0 else cut


def require_codegen(suite: Suite) -> None:
    """Refuse a suite of another family (before any model is asked)."""
    if suite.family != "codegen":
        raise InputError(
            f"explain writes explanations of codegen problems; {suite.name} is a "
            f"{suite.family} suite"
        )


def explain_suite(
    suite: Suite,
    model: Model,
    params: GenerationParams,
    *,
    template_dir: Path | None = None,
    overwrite: bool = False,
    limit: int | None = None,
    jobs: int = 1,
    progress: Callable[[str, int, int], None] | None = None,
) -> tuple[Suite, ExplainReport]:
    """``suite`` with an ``explanation`` on every problem the model explained (``limit``: ask
    for at most that many, the first problems without one; the others are left as they are)."""
    require_codegen(suite)
    report = ExplainReport(suite=suite.name, model=model.id, problems=len(suite.samples))
    samples: list[CodegenSample] = list(suite.samples)  # type: ignore[arg-type]
    todo = [i for i, s in enumerate(samples) if overwrite or not s.explanation]
    report.kept = len(samples) - len(todo)
    todo = todo[:limit]
    usage = Usage()
    t0 = time.monotonic()

    def one(i: int) -> tuple[int, Completion | str]:
        messages = build_explain_messages(samples[i], template_dir)
        try:
            return i, model.complete(messages, params, attempt=0)
        except ModelUnavailable:
            raise
        except ModelError as exc:
            return i, f"the model failed: {exc}"

    done = 0
    if progress:
        progress("explain", 0, len(todo))
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        for i, got in pool.map(one, todo):
            sample = samples[i]
            text = ""
            if isinstance(got, str):
                report.failed[sample.id] = got
            else:
                usage.add_completion(got, None)
                text = read_explanation(got.text)
                if not text:
                    report.failed[sample.id] = "the answer holds no prose (only code, or nothing)"
            if text:
                meta = {**sample.meta, "explanation_by": model.id}
                samples[i] = sample.model_copy(update={"explanation": text, "meta": meta})
                report.explained += 1
            done += 1
            if progress:
                progress("explain", done, len(todo))
    report.prompt_tokens, report.completion_tokens = usage.prompt_tokens, usage.completion_tokens
    report.cached = usage.cached_calls
    report.duration_s = round(time.monotonic() - t0, 3)
    dumped = "\n".join(json.dumps(s.model_dump(mode="json"), sort_keys=True) for s in samples)
    derived = Suite(
        name=f"{suite.name}-explained",
        version=suite.version,
        description=f"{suite.description} (explanations by {model.id}, truepass explain)".strip(),
        path=suite.path,
        content_hash=hashlib.sha256(dumped.encode()).hexdigest(),
        samples=list(samples),
        family=suite.family,
    )
    return derived, report
