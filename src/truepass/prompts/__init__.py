"""Prompt templating (``templating``), the prompt-leak guard every model call goes through
(``guard``: :class:`~truepass.prompts.guard.AnswerKey`, ``check_no_leaks``), and the retrieval
of demonstrations (``retrieval``). Each family's own prompts live in its folder
(``families/NAME/prompts.py``). Nothing is imported here: the guard is light, templating loads
jinja2.

See docs/prompts.md for the template convention and how to override the bundled templates.
"""
