"""Prompt templates and context builders: repair prompts, relevance trimming, leakage guard.

See docs/prompts.md for the template convention and how to override the bundled templates.
"""

from truepass.prompts.context import trim_files, truncate_middle
from truepass.prompts.guard import PromptLeakError, check_no_leaks, find_leaks
from truepass.prompts.repair import VARIANTS, Variant, build_repair_messages, template_name
from truepass.prompts.templating import bundled_template_dir, load_template, render_messages

__all__ = [
    "VARIANTS",
    "PromptLeakError",
    "Variant",
    "build_repair_messages",
    "bundled_template_dir",
    "check_no_leaks",
    "find_leaks",
    "load_template",
    "render_messages",
    "template_name",
    "trim_files",
    "truncate_middle",
]
