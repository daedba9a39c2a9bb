"""Prompt templating, the prompt-leak guard every model call goes through, and the retrieval of
demonstrations. Each family's own prompts live in its folder (``families/NAME/prompts.py``).

See docs/prompts.md for the template convention and how to override the bundled templates.
"""

from truepass.prompts.guard import PromptLeakError, check_no_leaks, find_leaks
from truepass.prompts.templating import bundled_template_dir, load_template, render_messages

__all__ = [
    "PromptLeakError",
    "bundled_template_dir",
    "check_no_leaks",
    "find_leaks",
    "load_template",
    "render_messages",
]
