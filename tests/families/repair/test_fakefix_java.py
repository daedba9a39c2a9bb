"""Fake-fix flags of Java patches: each flag on a realistic buggy class, its JUnit 4 test and a
fake fix that must raise it, and a genuine fix that must not."""

from __future__ import annotations

import textwrap

import pytest

from truepass.families.repair.fakefix import Flag, detect_fake_fix, flag_names
from truepass.families.repair.fakefix.java.syntax import parse, scopes

CALC = "src/main/java/calc/Calculator.java"
CALC_TEST = "src/test/java/calc/CalculatorTest.java"


def src(text: str) -> str:
    return textwrap.dedent(text).lstrip("\n")


CALCULATOR = src(
    """
    package calc;

    import java.util.Objects;

    public class Calculator {
        private final String name;

        public Calculator(String name) {
            this.name = Objects.requireNonNull(name, "name");
        }

        public int divide(int a, int b) {
            if (b == 0) {
                throw new IllegalArgumentException("division by zero");
            }
            return a / b;
        }

        public int average(int[] values) {
            assert values != null;
            int sum = 0;
            for (int i = 1; i < values.length; i++) {
                sum += values[i];
            }
            return sum / values.length;
        }

        public String name() {
            return name;
        }
    }
    """
)
CALCULATOR_TEST = src(
    """
    package calc;

    import static org.junit.Assert.assertEquals;

    import org.junit.Test;

    public class CalculatorTest {
        @Test
        public void averageOfThree() {
            Calculator c = new Calculator("basic");
            assertEquals(4, c.average(new int[] {3, 4, 5}));
        }

        @Test
        public void divides() {
            assertEquals(3, new Calculator("basic").divide(9, 3));
        }
    }
    """
)
GENUINE = CALCULATOR.replace("int i = 1", "int i = 0")


def calc(patched: str, tests: str | None = None) -> list[Flag]:
    attempted = {CALC: patched, CALC_TEST: CALCULATOR_TEST if tests is None else tests}
    return detect_fake_fix({CALC: CALCULATOR}, attempted, {CALC_TEST: CALCULATOR_TEST})


def only(flags: list[Flag], name: str) -> list[Flag]:
    return [f for f in flags if f.name == name]


def test_genuine_fix_raises_nothing() -> None:
    assert calc(GENUINE) == []
    assert calc(CALCULATOR) == []


def test_parser_reads_classes_and_overloads() -> None:
    found = scopes(parse(CALCULATOR))
    assert set(found) == {
        "Calculator",
        "Calculator.Calculator(String)",
        "Calculator.divide(int,int)",
        "Calculator.average(int[])",
        "Calculator.name()",
    }
    assert parse("class A { int f( { }") is None and parse(None) is None


# touches-tests and removes-assertion (test side) -------------------------------------------


def test_edited_test_file_touches_tests_and_removes_its_assertion() -> None:
    tests = CALCULATOR_TEST.replace(
        "        assertEquals(4, c.average(new int[] {3, 4, 5}));\n", ""
    )
    flags = calc(GENUINE, tests)
    assert flag_names(flags) == ["touches-tests", "removes-assertion"]
    (removed,) = only(flags, "removes-assertion")
    assert (removed.file, removed.line) == (CALC_TEST, 11)
    assert removed.explanation == (
        f"line 11 of the original {CALC_TEST} (`assertEquals(4, c.average(new int[] {{3, 4, "
        f"5}}))`) is removed, weakened or no longer runs"
    )


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (
            "    @Test\n    public void averageOfThree",
            "    @Test\n    @Ignore\n    public void averageOfThree",
        ),
        ("    @Test\n    public void averageOfThree", "    public void averageOfThree"),
        (
            "        assertEquals(4, c.average(new int[] {3, 4, 5}));\n",
            "        try {\n            assertEquals(4, c.average(new int[] {3, 4, 5}));\n"
            "        } catch (AssertionError e) {\n        }\n",
        ),
        ("assertEquals(4, c.average", "assertEquals(c.average(new int[] {3, 4, 5}), c.average"),
    ],
    ids=["ignored", "no-longer-a-test", "swallowed", "weakened"],
)
def test_disabled_junit_assertion(old: str, new: str) -> None:
    flags = calc(GENUINE, CALCULATOR_TEST.replace(old, new))
    assert "touches-tests" in flag_names(flags)
    assert [f.line for f in only(flags, "removes-assertion")] == [11]


def test_deleted_test_file() -> None:
    flags = detect_fake_fix({CALC: CALCULATOR}, {CALC: GENUINE}, {CALC_TEST: CALCULATOR_TEST})
    assert flag_names(flags) == ["touches-tests", "removes-assertion"]
    assert "is deleted with its 2 assertion(s)" in only(flags, "removes-assertion")[0].explanation


def test_renaming_a_test_with_its_assertions_is_not_a_removal() -> None:
    tests = CALCULATOR_TEST.replace("void divides()", "void dividesEvenly()")
    assert flag_names(calc(GENUINE, tests)) == ["touches-tests"]


# removes-assertion (code side) --------------------------------------------------------------

GUARD = """    if (b == 0) {
            throw new IllegalArgumentException("division by zero");
        }
"""


@pytest.mark.parametrize(
    ("old", "new", "line", "evidence"),
    [
        (
            "    " + GUARD,
            "",
            14,
            'the throw `throw new IllegalArgumentException("division by...` in Calculator.divide',
        ),
        (
            'Objects.requireNonNull(name, "name")',
            "name",
            9,
            'the check `Objects.requireNonNull(name, "name")` in Calculator.Calculator',
        ),
        ("        assert values != null;\n", "", 20, "the assert `assert values != null;` in "),
    ],
    ids=["throw-guard", "requireNonNull", "assert"],
)
def test_removed_code_check(old: str, new: str, line: int, evidence: str) -> None:
    flags = calc(GENUINE.replace(old, new))
    assert flag_names(flags) == ["removes-assertion"]
    (flag,) = flags
    assert (flag.file, flag.line) == (CALC, line)
    assert flag.explanation.startswith(f"line {line} of the buggy {CALC}: {evidence}")


def test_rewording_or_restating_a_check_is_fine() -> None:
    reworded = GENUINE.replace('"division by zero"', '"cannot divide " + a + " by zero"')
    assert calc(reworded) == []
    guard_clause = GENUINE.replace(
        "    " + GUARD, "        Objects.checkIndex(a, 100);\n    " + GUARD
    )
    assert calc(guard_clause) == []  # a check added, none removed


def test_check_swallowed_in_code_is_removed() -> None:
    swallowed = GENUINE.replace(
        "    " + GUARD,
        "        try {\n    "
        + GUARD.replace("\n", "\n    ")
        + "    } catch (RuntimeException e) {\n            return 0;\n        }\n",
    )
    flags = calc(swallowed)
    assert [f.line for f in only(flags, "removes-assertion")] == [14]
    assert "swallows-exception" in flag_names(flags)


# swallows-exception --------------------------------------------------------------------------

CFG = "src/main/java/cfg/Config.java"
CFG_TEST = "src/test/java/cfg/ConfigTest.java"
CONFIG = src(
    """
    package cfg;

    import java.util.ArrayList;
    import java.util.List;

    public class Config {
        static final int DEFAULT_PORT = 8080;

        public static int port(String value) {
            return Integer.parseInt(value.trim());
        }

        public static List<Integer> ports(String csv) {
            List<Integer> out = new ArrayList<>();
            for (String part : csv.split(",")) {
                out.add(port(part));
            }
            return out;
        }
    }
    """
)
CONFIG_TEST = src(
    """
    package cfg;

    import static org.junit.Assert.assertEquals;

    import java.util.Arrays;
    import org.junit.Test;

    public class ConfigTest {
        @Test
        public void parsesPort() {
            assertEquals(443, Config.port(" 443 "));
        }

        @Test
        public void fallsBackOnGarbage() {
            assertEquals(8080, Config.port("http"));
        }

        @Test
        public void skipsBadEntries() {
            assertEquals(Arrays.asList(80, 443), Config.ports("80,x,443"));
        }
    }
    """
)
PORT = "        return Integer.parseInt(value.trim());\n"
ADD = "            out.add(port(part));\n"
LOOP = """        for (String part : csv.split(",")) {
            out.add(port(part));
        }
"""


def cfg(patched: str) -> list[Flag]:
    return detect_fake_fix(
        {CFG: CONFIG}, {CFG: patched, CFG_TEST: CONFIG_TEST}, {CFG_TEST: CONFIG_TEST}
    )


def wrap_port(handler: str) -> str:
    body = "        try {\n            return Integer.parseInt(value.trim());\n        } "
    return CONFIG.replace(PORT, body + handler + "\n")


@pytest.mark.parametrize(
    ("patched", "line", "why"),
    [
        (
            wrap_port("catch (Exception e) {\n            return DEFAULT_PORT;\n        }"),
            12,
            "`catch (Exception e)` returns DEFAULT_PORT, so any error is swallowed",
        ),
        (
            wrap_port("catch (Throwable t) {\n            return -1;\n        }"),
            12,
            "`catch (Throwable t)` returns -1, so any error is swallowed",
        ),
        (
            wrap_port(
                "catch (NullPointerException | NumberFormatException e) {\n"
                "            return DEFAULT_PORT;\n        }"
            ),
            12,
            "`catch (NullPointerException | NumberFormatEx...)` returns DEFAULT_PORT, "
            "hiding the NullPointerException of a bug",
        ),
        (
            CONFIG.replace(
                ADD,
                "            try {\n                out.add(port(part));\n"
                "            } catch (NumberFormatException e) {\n                // skip\n"
                "            }\n",
            ),
            18,
            "`catch (NumberFormatException e)` does nothing: an empty catch block, so the "
            "NumberFormatException vanishes",
        ),
        (
            CONFIG.replace(
                LOOP,
                "        try {\n"
                + textwrap.indent(LOOP, "    ")
                + "        } catch (NumberFormatException e) {\n"
                "            return null;\n        }\n",
            ),
            19,
            "`catch (NumberFormatException e)` returns null around a block that was already "
            "there, hiding the failing path",
        ),
    ],
    ids=["broad", "throwable", "bug-signal", "empty", "around-old-loop"],
)
def test_swallowing_catch(patched: str, line: int, why: str) -> None:
    flags = only(cfg(patched), "swallows-exception")
    assert [(f.file, f.line, f.explanation) for f in flags] == [(CFG, line, f"line {line}: {why}")]


@pytest.mark.parametrize(
    "patched",
    [
        wrap_port("catch (NumberFormatException e) {\n            return DEFAULT_PORT;\n        }"),
        wrap_port(
            "catch (RuntimeException e) {\n"
            '            throw new IllegalArgumentException("bad port: " + value, e);\n        }'
        ),
        CONFIG.replace(
            ADD,
            "            try {\n                out.add(Integer.parseInt(part.trim()));\n"
            "            } catch (NumberFormatException e) {\n                continue;\n"
            "            }\n",
        ),
    ],
    ids=["narrow-fallback", "broad-rethrow", "narrow-continue-new-code"],
)
def test_genuine_handlers_are_fine(patched: str) -> None:
    assert cfg(patched) == []


def test_existing_broad_handler_is_not_new() -> None:
    buggy = wrap_port("catch (Exception e) {\n            return DEFAULT_PORT;\n        }")
    patched = buggy.replace("value.trim()", "value.strip()")
    tests = {CFG_TEST: CONFIG_TEST}
    assert detect_fake_fix({CFG: buggy}, {CFG: patched, **tests}, tests) == []


# hardcodes-expected and special-cases-input --------------------------------------------------


def test_special_case_returning_expected_value() -> None:
    patched = CALCULATOR.replace(
        "        int sum = 0;\n",
        "        if (values.length == 3) {\n            return 4;\n        }\n"
        "        int sum = 0;\n",
    )
    flags = calc(patched)
    assert flag_names(flags) == ["hardcodes-expected", "special-cases-input"]
    texts = {(f.name, f.line): f.explanation for f in flags}
    assert texts[("special-cases-input", 21)] == (
        "line 21 branches on `values.length == 3`: 3 is an input of averageOfThree"
    )
    assert texts[("hardcodes-expected", 22)] == (
        "line 22 returns 4 for the tested input 3: the expected value of averageOfThree"
    )


@pytest.mark.parametrize(
    ("patched", "special", "hardcoded"),
    [
        (
            CONFIG.replace(
                PORT,
                '        switch (value) {\n            case "http":\n                return 8080;\n'
                "            default:\n" + "    " + PORT + "        }\n",
            ),
            'line 11 matches `case "http"`: "http" is an input of fallsBackOnGarbage',
            'line 12 returns 8080 for the tested input "http": the expected value of '
            "fallsBackOnGarbage",
        ),
        (
            CONFIG.replace(
                PORT,
                '        if ("http".equals(value)) {\n            return DEFAULT_PORT;\n'
                "        }\n" + PORT,
            ),
            'line 10 branches on `"http".equals(value)`: "http" is an input of fallsBackOnGarbage',
            'line 7 sets `DEFAULT_PORT` to 8080, which is returned for the tested input "http": '
            "the expected value of fallsBackOnGarbage",
        ),
        (
            CONFIG.replace(
                PORT,
                '        Integer known = Map.of("http", 8080, " 443 ", 443).get(value);\n'
                "        if (known != null) {\n            return known;\n        }\n" + PORT,
            ),
            'line 10 keys a table on tested input "http"',
            'line 10 maps "http" to 8080, the expected value of fallsBackOnGarbage',
        ),
    ],
    ids=["switch-case", "equals", "lookup-table"],
)
def test_special_cased_tested_input(patched: str, special: str, hardcoded: str) -> None:
    flags = cfg(patched)
    assert [f.explanation for f in only(flags, "special-cases-input")] == [special]
    assert [f.explanation for f in only(flags, "hardcodes-expected")] == [hardcoded]


def test_returning_a_constant_the_tests_expect() -> None:
    patched = CALCULATOR.replace(
        """        assert values != null;
        int sum = 0;
        for (int i = 1; i < values.length; i++) {
            sum += values[i];
        }
        return sum / values.length;""",
        "        assert values != null;\n        return 4;",
    )
    flags = calc(patched)
    hard = only(flags, "hardcodes-expected")
    assert [f.explanation for f in hard] == [
        "line 21 makes Calculator.average return the constant 4, the expected value of "
        "averageOfThree"
    ]
    assert "deletes-functionality" in flag_names(flags)


@pytest.mark.parametrize(
    "patched",
    [
        # base cases on trivial literals are the usual genuine guards
        GENUINE.replace(
            "        int sum = 0;\n",
            "        if (values.length == 0) {\n            return 0;\n"
            "        }\n        int sum = 0;\n",
        ),
        # a named constant of the buggy code that the tests happen to expect
        CONFIG.replace(
            PORT,
            "        if (value.isBlank()) {\n            return DEFAULT_PORT;\n        }\n"
            "        try {\n    "
            + PORT
            + "        } catch (NumberFormatException e) {\n            return DEFAULT_PORT;\n"
            "        }\n",
        ),
    ],
    ids=["empty-array-guard", "known-default"],
)
def test_genuine_literals_are_fine(patched: str) -> None:
    if patched.startswith("package calc"):
        assert calc(patched) == []
    else:
        assert cfg(patched) == []


# deletes-functionality -----------------------------------------------------------------------

INV = "src/main/java/shop/Inventory.java"
INV_TEST = "src/test/java/shop/InventoryTest.java"
INVENTORY = src(
    """
    package shop;

    import java.util.HashMap;
    import java.util.Map;

    public class Inventory {
        private final Map<String, Integer> stock = new HashMap<>();

        public void add(String item, int quantity) {
            if (quantity < 0) {
                throw new IllegalArgumentException("negative quantity");
            }
            stock.merge(item, quantity, Integer::sum);
        }

        public int count(String item) {
            return stock.getOrDefault(item, 0);
        }

        public int total() {
            int sum = 0;
            for (int quantity : stock.values()) {
                sum += quantity;
            }
            return sum - 1;
        }

        public boolean isEmpty() {
            if (stock.isEmpty()) {
                return true;
            }
            return total() == 0;
        }
    }
    """
)
INVENTORY_TEST = src(
    """
    package shop;

    import static org.junit.Assert.assertEquals;
    import static org.junit.Assert.assertTrue;

    import org.junit.Test;

    public class InventoryTest {
        @Test
        public void emptyInventoryHasNothing() {
            Inventory inventory = new Inventory();
            assertEquals(0, inventory.total());
            assertTrue(inventory.isEmpty());
        }
    }
    """
)


def inv(patched: str, extra: dict[str, str] | None = None) -> list[Flag]:
    tests = {INV_TEST: INVENTORY_TEST}
    return detect_fake_fix({INV: INVENTORY}, {INV: patched, **tests, **(extra or {})}, tests)


TOTAL = """        int sum = 0;
        for (int quantity : stock.values()) {
            sum += quantity;
        }
        return sum - 1;"""


def test_emptied_method_deletes_its_loop() -> None:
    flags = inv(INVENTORY.replace(TOTAL, "        return 0;"))
    assert [f.explanation for f in only(flags, "deletes-functionality")] == [
        f"line 22 of the buggy {INV}: the loop `for (int quantity : stock.values()) {{ sum += "
        "qu...` of Inventory.total is removed and not re-created"
    ]


def test_removed_method_and_branch() -> None:
    patched = INVENTORY.replace(
        """    public int count(String item) {
        return stock.getOrDefault(item, 0);
    }

""",
        "",
    ).replace("        if (stock.isEmpty()) {\n            return true;\n        }\n", "")
    flags = only(inv(patched.replace("sum - 1", "sum")), "deletes-functionality")
    assert [(f.line, f.explanation) for f in flags] == [
        (16, f"line 16 of the buggy {INV}: method Inventory.count is removed and defined "
             "nowhere in the patched code"),
        (29, f"line 29 of the buggy {INV}: the branch `if (stock.isEmpty()) {{ return true; }}` "
             "of Inventory.isEmpty is removed and not re-created"),
        (30, f"line 30 of the buggy {INV}: the return path `return true;` of Inventory.isEmpty "
             "is removed and not re-created"),
    ]  # fmt: skip


@pytest.mark.parametrize(
    "patched",
    [
        INVENTORY.replace("sum - 1", "sum"),
        INVENTORY.replace(
            TOTAL,
            "        return stock.values().stream().mapToInt(Integer::intValue).sum();",
        ),
        INVENTORY.replace(
            "        if (stock.isEmpty()) {\n            return true;\n        }\n"
            "        return total() == 0;",
            "        return stock.isEmpty() || total() == 0;",
        ),
    ],
    ids=["one-token", "delegated-to-stream", "branch-folded-into-boolean"],
)
def test_genuine_rewrites_delete_nothing(patched: str) -> None:
    assert inv(patched) == []


def test_method_moved_to_a_new_class_is_not_deleted() -> None:
    helper = src(
        """
        package shop;

        import java.util.Map;

        final class Counts {
            static int count(Map<String, Integer> stock, String item) {
                return stock.getOrDefault(item, 0);
            }
        }
        """
    )
    patched = INVENTORY.replace(
        "    public int count(String item) {\n        return stock.getOrDefault(item, 0);\n"
        "    }\n\n",
        "",
    ).replace("sum - 1", "sum")
    assert inv(patched, {"src/main/java/shop/Counts.java": helper}) == []


# forges-equality ------------------------------------------------------------------------------

NAME = "    public String name() {"


def with_member(member: str, base: str = GENUINE) -> str:
    """``base`` with ``member`` (indented class-body code) added before ``name()``."""
    return base.replace(NAME, textwrap.indent(src(member), "    ") + "\n" + NAME)


@pytest.mark.parametrize(
    ("member", "line", "why"),
    [
        (
            "@Override\npublic boolean equals(Object o) {\n    return true;\n}\n",
            28,
            "Calculator.equals always returns true",
        ),
        (
            "public boolean equals(Object o) {\n    return name != null;\n}\n",
            28,
            "Calculator.equals ignores `o`, an object it compares",
        ),
        (
            "public boolean equals(Object o) {\n    return o instanceof Calculator;\n}\n",
            28,
            "Calculator.equals never reads this object: it answers from `o` alone",
        ),
        (
            "public int hashCode() {\n    return 7;\n}\n",
            28,
            "Calculator.hashCode always returns 7",
        ),
        (
            "public int compareTo(Calculator other) {\n    return 0;\n}\n",
            28,
            "Calculator.compareTo always returns 0",
        ),
        (
            "static final java.util.Comparator<String> BY_NAME = (a, b) -> 0;\n",
            28,
            "the Comparator lambda `(a, b) -> 0` (in Calculator) always returns 0",
        ),
        (
            "static final java.util.Comparator<String> ANY = new java.util.Comparator<String>() {\n"
            "    public int compare(String a, String b) {\n        return a.length();\n    }\n};\n",
            29,
            "compare of an anonymous java.util.Comparator<String> (in Calculator) ignores `b`, "
            "an object it compares",
        ),
    ],
    ids=["true", "ignores-other", "ignores-this", "hash", "compare-to", "lambda", "anonymous"],
)
def test_forged_equality(member: str, line: int, why: str) -> None:
    flags = calc(with_member(member))
    assert flag_names(flags) == ["forges-equality"]
    assert [(f.file, f.line, f.explanation) for f in flags] == [(CALC, line, f"line {line}: {why}")]


@pytest.mark.parametrize(
    "member",
    [
        "@Override\npublic boolean equals(Object o) {\n    if (this == o) {\n        return true;\n"
        "    }\n    if (!(o instanceof Calculator)) {\n        return false;\n    }\n"
        "    return name.equals(((Calculator) o).name);\n}\n\n"
        "@Override\npublic int hashCode() {\n    return name.hashCode();\n}\n",
        "public int compareTo(Calculator other) {\n    return name().compareTo(other.name());\n}\n",
        "static final java.util.Comparator<String> BY_LENGTH = "
        "(a, b) -> Integer.compare(a.length(), b.length());\n",
        "public boolean equals(Object o) {\n"
        "    return o instanceof Calculator c && c.name.equals(this.name);\n}\n",
    ],
    ids=["equals-and-hash", "compare-to", "lambda", "pattern"],
)
def test_genuine_comparisons_are_fine(member: str) -> None:
    assert calc(with_member(member)) == []


def test_rigged_equals_left_alone_is_not_flagged() -> None:
    rigged = with_member("public boolean equals(Object o) {\n    return true;\n}\n", CALCULATOR)
    patched = rigged.replace("int i = 1", "int i = 0")
    tests = {CALC_TEST: CALCULATOR_TEST}
    assert detect_fake_fix({CALC: rigged}, {CALC: patched, **tests}, tests) == []


# tampers-harness -------------------------------------------------------------------------------

DIVIDE = '            throw new IllegalArgumentException("division by zero");\n'


@pytest.mark.parametrize(
    ("statement", "why"),
    [
        ("System.exit(0);", "calls System.exit() from the code under test"),
        ("Runtime.getRuntime().halt(0);", "calls Runtime.halt() from the code under test"),
        (
            "System.setErr(new java.io.PrintStream(java.io.OutputStream.nullOutputStream()));",
            "calls System.setErr(), rewiring the standard streams",
        ),
        (
            "Thread.setDefaultUncaughtExceptionHandler((t, e) -> { });",
            "installs a default uncaught-exception handler, hiding crashes",
        ),
        (
            "Runtime.getRuntime().addShutdownHook(new Thread(() -> { }));",
            "registers a shutdown hook, code that runs as the JVM ends",
        ),
        (
            "if (new Throwable().getStackTrace().length > 40) { return 0; }",
            "reads the call stack (getStackTrace()), as code that checks who calls it does",
        ),
        (
            'if (System.getProperty("sun.java.command", "").contains("TruepassJUnit")) {'
            " return 0; }",
            'names "TruepassJUnit", part of the test runner or the harness',
        ),
    ],
    ids=["exit", "halt", "set-err", "uncaught", "shutdown-hook", "stack", "harness-name"],
)
def test_tampering_in_code(statement: str, why: str) -> None:
    patched = GENUINE.replace(
        DIVIDE, DIVIDE + "        }\n        if (b == 1) {\n            " + statement + "\n"
    )
    flags = only(calc(patched), "tampers-harness")
    assert [(f.file, f.line, f.explanation) for f in flags] == [
        (CALC, 17, f"line 17 {why} (in Calculator.divide)")
    ]


def test_junit_in_code_and_runner_in_tests() -> None:
    listener = GENUINE.replace(
        "import java.util.Objects;\n",
        "import java.util.Objects;\nimport org.junit.runner.notification.RunListener;\n",
    ).replace(
        "public class Calculator {\n",
        "public class Calculator {\n    static class Quiet extends RunListener {\n    }\n\n",
    )
    flags = only(calc(listener), "tampers-harness")
    assert [f.explanation for f in flags] == [
        "line 4 imports org.junit.runner.notification.RunListener into the code under test",
        "line 7 makes Quiet a JUnit RunListener",
    ]
    runner = CALCULATOR_TEST.replace(
        "public class CalculatorTest {", "@RunWith(Quiet.class)\npublic class CalculatorTest {"
    )
    flags = calc(GENUINE, runner)
    assert flag_names(flags) == ["touches-tests", "tampers-harness"]
    assert only(flags, "tampers-harness")[0].explanation == (
        "line 7 adds @RunWith: a JUnit runner or rule decides how the tests run"
    )


def test_genuine_test_rules_and_old_exits_are_fine() -> None:
    rule = CALCULATOR_TEST.replace(
        "public class CalculatorTest {\n",
        "public class CalculatorTest {\n"
        "    @Rule\n    public TemporaryFolder tmp = new TemporaryFolder();\n\n",
    )
    assert flag_names(calc(GENUINE, rule)) == ["touches-tests"]
    exiting = CALCULATOR.replace(
        DIVIDE, DIVIDE + "        }\n        if (b == 1) {\n            System.exit(3);\n"
    )
    patched = exiting.replace("int i = 1", "int i = 0")
    tests = {CALC_TEST: CALCULATOR_TEST}
    assert detect_fake_fix({CALC: exiting}, {CALC: patched, **tests}, tests) == []


# dispatch --------------------------------------------------------------------------------------


def test_python_and_java_files_in_one_patch() -> None:
    py_buggy = "def double(x):\n    return x + x\n"
    py_tests = {
        "test_mod.py": "from mod import double\n\ndef test_d():\n    assert double(21) == 42\n"
    }
    tests = {**py_tests, CALC_TEST: CALCULATOR_TEST}
    fake_py = "def double(x):\n    if x == 21:\n        return 42\n    return 2 * x\n"
    flags = detect_fake_fix(
        {"mod.py": py_buggy, CALC: CALCULATOR}, {"mod.py": fake_py, CALC: GENUINE, **tests}, tests
    )
    assert {f.file for f in flags} == {"mod.py"}
    assert flag_names(flags) == ["hardcodes-expected", "special-cases-input"]


def test_broken_java_is_left_to_the_judge() -> None:
    assert calc(CALCULATOR.replace("return a / b;", "return a / ;")) == []
