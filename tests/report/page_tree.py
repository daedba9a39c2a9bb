"""The report's HTML as a tree of elements, to check what one element holds (the standard
library's parser; no third-party HTML library)."""

from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}


@dataclass
class Node:
    tag: str
    attrs: dict[str, str | None] = field(default_factory=dict)
    children: list[Node | str] = field(default_factory=list)

    @property
    def classes(self) -> set[str]:
        return set((self.attrs.get("class") or "").split())

    def text(self) -> str:
        """All text inside, as the browser holds it (entities decoded)."""
        return "".join(c if isinstance(c, str) else c.text() for c in self.children)

    def words(self) -> str:
        """The text with its white space collapsed."""
        return " ".join(self.text().split())

    def all(self, tag: str | None = None, cls: str | None = None, **attrs: str) -> list[Node]:
        """Every element inside (depth first) with ``tag``, class ``cls`` and ``attrs``
        (``data_step="2"`` matches ``data-step``)."""
        out = []
        for c in self.children:
            if isinstance(c, str):
                continue
            if (
                (tag is None or c.tag == tag)
                and (cls is None or cls in c.classes)
                and all(c.attrs.get(k.replace("_", "-")) == v for k, v in attrs.items())
            ):
                out.append(c)
            out += c.all(tag, cls, **attrs)
        return out

    def one(self, tag: str | None = None, cls: str | None = None, **attrs: str) -> Node:
        """The one element inside that matches (fails when there are none or several)."""
        found = self.all(tag, cls, **attrs)
        assert len(found) == 1, (tag, cls, attrs, len(found))
        return found[0]

    def children_of(self, tag: str) -> list[Node]:
        return [c for c in self.children if isinstance(c, Node) and c.tag == tag]


class _Builder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Node("#document")
        self.stack = [self.root]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        node = Node(tag, dict(attrs))
        self.stack[-1].children.append(node)
        if tag not in VOID:
            self.stack.append(node)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.stack[-1].children.append(Node(tag, dict(attrs)))

    def handle_endtag(self, tag: str) -> None:
        for i in range(len(self.stack) - 1, 0, -1):
            if self.stack[i].tag == tag:
                del self.stack[i:]
                return

    def handle_data(self, data: str) -> None:
        self.stack[-1].children.append(data)


def tree(html: str) -> Node:
    builder = _Builder()
    builder.feed(html)
    builder.close()
    return builder.root
