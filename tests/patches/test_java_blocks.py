"""Java answers as fenced blocks: whole files, bare methods spliced in by name and parameter
types (families/repair/javasplice.py), and the blocks that are refused."""

from __future__ import annotations

from truepass.families.repair.fakefix.java import syntax
from truepass.families.repair.parse import parse_response
from truepass.patches.apply import apply_diff

CALC = """\
package demo;

public class Calc {
    /** Adds two numbers. */
    public static int add(int a, int b) {
        return a - b;
    }

    public static int add(int a, int b, int c) {
        return a + b + c;
    }

    public static int mul(int a, int b) {
        return a * b;
    }
}
"""
FIXED = CALC.replace("return a - b;", "return a + b;")
TEST = "src/test/demo/CalcTest.java"
FILES = {"src/demo/Calc.java": CALC, TEST: "package demo;\npublic class CalcTest {}\n"}


def fixed(text: str, files: dict[str, str] = FILES) -> tuple[str, dict[str, str]]:
    out = parse_response(text, files)
    assert out.answer is not None, out.detail
    return out.kind, apply_diff(files, out.answer.diff)


def test_a_bare_method_replaces_the_overload_with_its_parameter_types() -> None:
    block = "public static int add(int a, int b) {\n    return a + b;\n}\n"
    kind, files = fixed(f"The fix:\n```java\n{block}```\n")
    assert kind == "function"
    assert files["src/demo/Calc.java"] == FIXED  # the Javadoc and the other overload stay


def test_a_method_with_its_javadoc_and_a_new_helper() -> None:
    block = """\
    /** Adds a and b. */
    public static int add(int a, int b) {
        return plus(a, b);
    }

    private static int plus(int a, int b) {
        return a + b;
    }
"""
    kind, files = fixed(f"```java\n{block}```")
    new = files["src/demo/Calc.java"]
    assert kind == "function"
    assert "/** Adds a and b. */" in new and "/** Adds two numbers. */" not in new
    assert new.index("private static int plus") > new.index("public static int mul")
    assert syntax.parse(new) is not None  # still one well-formed class


def test_a_class_with_only_the_fixed_method_is_spliced_not_taken_whole() -> None:
    block = (
        "public class Calc {\n    public static int add(int a, int b) {\n"
        "        return a + b;\n    }\n}\n"
    )
    kind, files = fixed(f"```java\n{block}```")
    assert kind == "function" and files["src/demo/Calc.java"] == FIXED


def test_the_whole_class_is_a_whole_file() -> None:
    kind, files = fixed(f"```java\n{FIXED}```")
    assert kind == "whole-file" and files["src/demo/Calc.java"] == FIXED


def test_a_block_the_file_has_no_method_of_is_refused_with_the_reason() -> None:
    out = parse_response("```java\nint nothing() { return 1; }\n```", FILES)
    assert out.answer is None
    assert "replaces none of the file's methods" in out.detail


def test_the_block_picks_the_code_file_sharing_its_method_names() -> None:
    other = (
        "package demo;\n\npublic class Text {\n"
        "    static String twice(String s) {\n        return s;\n    }\n}\n"
    )
    files = {**FILES, "src/demo/Text.java": other}
    block = "static String twice(String s) {\n    return s + s;\n}\n"
    kind, out = fixed(f"```java\n{block}```", files)
    assert kind == "function" and "return s + s;" in out["src/demo/Text.java"]
    assert out["src/demo/Calc.java"] == CALC
