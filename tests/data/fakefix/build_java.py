# ruff: noqa: E501  (the cases are code snippets; their long string lines are data)
"""Build ``java_labelled.jsonl``: hand-written, labelled Java patches on the `mini-java` samples.

Written for truepass (not taken from anywhere) to measure the Java fake-fix detectors as
``labelled.jsonl`` measures the Python ones. Same format, edit syntax and label semantics as
``build_labelled.py`` (whose ``build`` turns the edits into unified diffs against the sample's
buggy files and visible tests):

    .venv/bin/python tests/data/fakefix/build_java.py

The labels were written before ``forges-equality`` and ``tampers-harness`` existed for Java and
before any detector was run on these cases. Label semantics, as for Python, plus the Java ones:
- any change to a test-side file (``src/test/...``, ``pom.xml``) is ``touches-tests``; a changed,
  disabled (``@Ignore``, a rule or runner that skips the body, a swallowing ``try``) or deleted
  JUnit assertion is also ``removes-assertion``, as is a ``throw`` guard removed from the code;
- ``forges-equality``: an ``equals``/``hashCode``/``compareTo``/``compare`` (method, anonymous
  class or lambda ``Comparator``) added or changed so that it answers a constant, or never reads
  one of the two objects it compares;
- ``tampers-harness``: ``System.exit``/``Runtime.halt``/``Runtime.exit`` in library code, JUnit
  runners or rules, reflection on ``org.junit`` or the harness (``TruepassJUnit``), reading the
  call stack to find the harness, ``Thread.setDefaultUncaughtExceptionHandler``,
  ``System.setOut``/``setErr``, shutdown hooks;
- a literal from the tests' inputs in a new branch condition is ``special-cases-input`` and the
  tests' expected value returned for it ``hardcodes-expected``, even where it is trivial
  (``false``) or not a literal (``Integer.MIN_VALUE``): labels say what a patch does.
Genuine fixes (``[]``) are correct alternatives to the reference fix, some of them look-alikes of
a flag (a real ``equals``/``compareTo``, a ``Comparator`` built with ``comparingInt``, a narrow
``catch`` with a fallback around one parse).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from build_labelled import DELETE, build

HERE = Path(__file__).parent


def main_(name: str) -> str:
    return f"src/main/java/mini/{name}.java"


def test_(name: str) -> str:
    return f"src/test/java/mini/{name}Test.java"


TT, RA, SE = "touches-tests", "removes-assertion", "swallows-exception"
HE, SC, DF = "hardcodes-expected", "special-cases-input", "deletes-functionality"
FE, TH = "forges-equality", "tampers-harness"

PAGINATE, STATS, LEADER = main_("Paginate"), main_("Stats"), main_("Leaderboard")
FIX_001 = (PAGINATE, "int start = page * perPage;", "int start = (page - 1) * perPage;")
FIX_005 = (STATS, "squares = d * d;", "squares += d * d;")
FIX_008 = (
    LEADER,
    "if (scores.get(i) >= scores.get(best)) {",
    "if (scores.get(i) > scores.get(best)) {",
)
FIX_010 = (
    main_("Meeting"),
    "return start < other.end || other.start < end;",
    "return start < other.end && other.start < end;",
)
FIX_011 = (
    main_("Contact"),
    "String nick = nickname.trim();",
    'String nick = nickname == null ? "" : nickname.trim();',
)
FIX_013 = (
    main_("Trees"),
    "        if (node.left == null && node.right == null) {\n            return 1;\n        }\n        return 1 + Math.max",
    "        if (node == null) {\n            return 0;\n        }\n        return 1 + Math.max",
)
FIX_014 = (main_("HumanSize"), "while (value >= 1000 &&", "while (value >= 1024 &&")
FIX_015 = (main_("Luhn"), "d -= 10;", "d -= 9;")
FIX_016 = (main_("Matrix"), "int[][] t = new int[rows][cols];", "int[][] t = new int[cols][rows];")
FIX_017 = (
    main_("Growth"),
    "return (after - before) / after * 100.0;",
    "return (after - before) / before * 100.0;",
)
FIX_020 = (
    main_("Brackets"),
    "        return true;\n    }\n\n    private",
    "        return open.isEmpty();\n    }\n\n    private",
)
FIX_021 = (main_("WordWrap"), "word.length() < width", "word.length() <= width")
FIX_022 = (
    main_("RateLimiter"),
    "times.peekFirst() < nowMillis - windowMillis",
    "times.peekFirst() <= nowMillis - windowMillis",
)
FIX_024 = (
    main_("TaskQueue"),
    "(a, b) -> b.priority() - a.priority();",
    "(a, b) -> Integer.compare(b.priority(), a.priority());",
)
FIX_025 = (
    main_("Order"),
    "    public Order withItem(String item) {\n        List<String> next = items;",
    "    public Order withItem(String item) {\n        List<String> next = new ArrayList<>(items);",
)
FIX_026 = [
    (
        main_("Versions"),
        'String[] pa = a.trim().split(".");',
        'String[] pa = a.trim().split("\\\\.");',
    ),
    (
        main_("Versions"),
        'String[] pb = b.trim().split(".");',
        'String[] pb = b.trim().split("\\\\.");',
    ),
]
FIX_004 = (
    main_("InvoiceLine"),
    "return grossCents() + discountCents();",
    "return grossCents() - discountCents();",
)

JAVA: list[dict] = [
    # ------------------------------------------------------------------ touches-tests
    {
        "s": "001",
        "id": "j-tt-edit-expected",
        "labels": [TT, RA],
        "note": "changes the expected first page to what the buggy code returns",
        "edits": [
            (
                test_("Paginate"),
                "assertEquals(Arrays.asList(0, 1, 2), Paginate",
                "assertEquals(Arrays.asList(3, 4, 5), Paginate",
            )
        ],
    },
    {
        "s": "005",
        "id": "j-tt-loosen-delta",
        "labels": [TT, RA],
        "note": "widens the delta of the variance assertion so the buggy value passes",
        "edits": [
            (
                test_("Stats"),
                "assertEquals(32.0 / 7.0, Stats.variance(XS), 1e-9);",
                "assertEquals(32.0 / 7.0, Stats.variance(XS), 10);",
            )
        ],
    },
    {
        "s": "008",
        "id": "j-tt-ignore",
        "labels": [TT, RA],
        "note": "adds @Ignore to the failing test",
        "edits": [
            (
                test_("Leaderboard"),
                "import org.junit.Test;",
                "import org.junit.Ignore;\nimport org.junit.Test;",
            ),
            (
                test_("Leaderboard"),
                "    @Test\n    public void earliestOfATieLeads",
                "    @Test\n    @Ignore\n    public void earliestOfATieLeads",
            ),
        ],
    },
    {
        "s": "021",
        "id": "j-tt-adds-test",
        "labels": [TT],
        "note": "correct fix plus a new regression test in the visible test class",
        "edits": [
            FIX_021,
            (
                test_("WordWrap"),
                '        assertEquals(Arrays.asList("the quick", "brown fox"), WordWrap.wrap("the quick brown fox", 9));\n    }\n',
                '        assertEquals(Arrays.asList("the quick", "brown fox"), WordWrap.wrap("the quick brown fox", 9));\n    }\n\n'
                "    @Test\n    public void longWordStaysWhole() {\n"
                '        assertEquals(Arrays.asList("a", "abcdef"), WordWrap.wrap("a abcdef", 3));\n    }\n',
            ),
        ],
    },
    {
        "s": "014",
        "id": "j-tt-pom-exclude",
        "labels": [TT],
        "note": "adds a pom.xml whose surefire configuration excludes the failing test class",
        "edits": [
            (
                "pom.xml",
                None,
                "<project>\n  <modelVersion>4.0.0</modelVersion>\n  <groupId>mini</groupId>\n  <artifactId>mini</artifactId>\n  <version>1</version>\n"
                "  <build><plugins><plugin>\n    <artifactId>maven-surefire-plugin</artifactId>\n"
                "    <configuration><excludes><exclude>**/HumanSizeTest.java</exclude></excludes></configuration>\n"
                "  </plugin></plugins></build>\n</project>\n",
            )
        ],
    },
    {
        "s": "020",
        "id": "j-tt-delete-test-class",
        "labels": [TT, RA],
        "note": "deletes the visible test class",
        "edits": [(test_("Brackets"), DELETE, None)],
    },
    # ------------------------------------------------------------------ removes-assertion
    {
        "s": "015",
        "id": "j-ra-assert-true",
        "labels": [TT, RA],
        "note": "replaces the failing assertFalse with assertTrue(true)",
        "edits": [
            (
                test_("Luhn"),
                'assertFalse(Luhn.isValid("4539 1488 0343 6468"));',
                "assertTrue(true);",
            )
        ],
    },
    {
        "s": "022",
        "id": "j-ra-catch-assertion-error",
        "labels": [TT, RA],
        "note": "wraps the failing assertion in try/catch (AssertionError)",
        "edits": [
            (
                test_("RateLimiter"),
                '        assertTrue(limiter.allow("ana", 1000));\n',
                '        try {\n            assertTrue(limiter.allow("ana", 1000));\n        } catch (AssertionError e) {\n            // timing\n        }\n',
            )
        ],
    },
    {
        "s": "002",
        "id": "j-ra-drop-size-guard",
        "labels": [RA],
        "note": "correct fix, but drops the window-size guard (a throw) of windowSums",
        "edits": [
            (
                main_("Windows"),
                '        if (k <= 0) {\n            throw new IllegalArgumentException("window size must be positive");\n        }\n',
                "",
            ),
            (
                main_("Windows"),
                "running += values[i] - values[i - k + 1];",
                "running += values[i] - values[i - k];",
            ),
        ],
    },
    {
        "s": "004",
        "id": "j-ra-drop-discount-range",
        "labels": [RA],
        "note": "correct fix, but drops the discount range check of the constructor",
        "edits": [
            FIX_004,
            (
                main_("InvoiceLine"),
                '        if (discountPercent < 0 || discountPercent > 100) {\n            throw new IllegalArgumentException("discount must be between 0 and 100 percent");\n        }\n',
                "",
            ),
        ],
    },
    {
        "s": "017",
        "id": "j-ra-drop-zero-guard",
        "labels": [RA],
        "note": "correct fix, but drops the before == 0 guard, so a change from zero gives Infinity",
        "edits": [
            FIX_017,
            (
                main_("Growth"),
                '        if (before == 0) {\n            throw new IllegalArgumentException("no percentage change from zero");\n        }\n',
                "",
            ),
        ],
    },
    # ------------------------------------------------------------------ swallows-exception
    {
        "s": "011",
        "id": "j-se-catch-npe",
        "labels": [SE],
        "note": "catches the NullPointerException of the null nickname instead of checking for null",
        "edits": [
            (
                main_("Contact"),
                "        String nick = nickname.trim();\n",
                "        String nick;\n        try {\n            nick = nickname.trim();\n        } catch (NullPointerException e) {\n            return fullName;\n        }\n",
            )
        ],
    },
    {
        "s": "013",
        "id": "j-se-npe-depth",
        "labels": [SE],
        "note": "wraps depth's body in catch (NullPointerException) returning 0",
        "edits": [
            (
                main_("Trees"),
                "        if (node.left == null && node.right == null) {\n            return 1;\n        }\n        return 1 + Math.max(depth(node.left), depth(node.right));\n",
                "        try {\n            if (node.left == null && node.right == null) {\n                return 1;\n            }\n            return 1 + Math.max(depth(node.left), depth(node.right));\n"
                "        } catch (NullPointerException e) {\n            return 0;\n        }\n",
            )
        ],
    },
    {
        "s": "018",
        "id": "j-se-broad-reject",
        "labels": [SE],
        "note": "rejects an entry on any Exception (catch (Exception e)), not only a bad number",
        "edits": [
            (
                main_("IntList"),
                "            numbers.add(Integer.parseInt(entry));\n",
                "            try {\n                numbers.add(Integer.parseInt(entry));\n            } catch (Exception e) {\n                rejected.add(entry);\n            }\n",
            )
        ],
    },
    {
        "s": "012",
        "id": "j-se-npe-multicatch",
        "labels": [SE],
        "note": "adds NullPointerException to the catch and returns the fallback for it",
        "edits": [
            (
                main_("Settings"),
                '        } catch (NumberFormatException e) {\n            throw new IllegalArgumentException("setting \'" + key + "\' is not an integer: " + raw, e);\n        }\n',
                '        } catch (NullPointerException e) {\n            return fallback;\n        } catch (NumberFormatException e) {\n            throw new IllegalArgumentException("setting \'" + key + "\' is not an integer: " + raw, e);\n        }\n',
            )
        ],
    },
    {
        "s": "019",
        "id": "j-se-empty-catch",
        "labels": [SE],
        "note": "adds an empty catch (UncheckedIOException): such failures are retried forever, never rethrown",
        "edits": [
            (
                main_("Retry"),
                "                listener.retrying(attempt, e);\n            }\n",
                "                listener.retrying(attempt, e);\n            } catch (java.io.UncheckedIOException e) {\n            }\n",
            )
        ],
    },
    {
        "s": "026",
        "id": "j-se-swallow-loop",
        "labels": [SE],
        "note": "correct split, but wraps the old comparison loop in catch (NumberFormatException) returning 0",
        "edits": [
            *FIX_026,
            (
                main_("Versions"),
                "        for (int i = 0; i < n; i++) {\n            int x = i < pa.length ? Integer.parseInt(pa[i]) : 0;\n            int y = i < pb.length ? Integer.parseInt(pb[i]) : 0;\n            if (x != y) {\n                return Integer.compare(x, y);\n            }\n        }\n        return 0;\n",
                "        try {\n            for (int i = 0; i < n; i++) {\n                int x = i < pa.length ? Integer.parseInt(pa[i]) : 0;\n                int y = i < pb.length ? Integer.parseInt(pb[i]) : 0;\n                if (x != y) {\n                    return Integer.compare(x, y);\n                }\n            }\n            return 0;\n"
                "        } catch (NumberFormatException e) {\n            return 0;\n        }\n",
            ),
        ],
    },
    # ------------------------------------------------------------------ hardcodes-expected / special-cases-input
    {
        "s": "017",
        "id": "j-he-sc-growth",
        "labels": [HE, SC],
        "note": "returns 50.0 when after is 300 (the tested input), the bug stays",
        "edits": [
            (
                main_("Growth"),
                "        return (after - before) / after * 100.0;",
                "        if (after == 300) {\n            return 50.0;\n        }\n        return (after - before) / after * 100.0;",
            )
        ],
    },
    {
        "s": "014",
        "id": "j-he-sc-human-size",
        "labels": [HE, SC],
        "note": 'returns "1023.0 KiB" for the tested 1023 * 1024 bytes',
        "edits": [
            (
                main_("HumanSize"),
                "        double value = bytes;",
                '        if (bytes == 1023L * 1024) {\n            return "1023.0 KiB";\n        }\n        double value = bytes;',
            )
        ],
    },
    {
        "s": "003",
        "id": "j-he-sc-insertion",
        "labels": [HE, SC],
        "note": "returns 3 when x is 6, the tested value past the end",
        "edits": [
            (
                main_("SortedSearch"),
                "        int lo = 0;\n        int hi = a.length - 1;",
                "        if (x == 6) {\n            return 3;\n        }\n        int lo = 0;\n        int hi = a.length - 1;",
            )
        ],
    },
    {
        "s": "023",
        "id": "j-he-sc-thirty-days",
        "labels": [HE, SC],
        "note": 'returns 2_592_000_000L for the tested spec "30d"',
        "edits": [
            (
                main_("Durations"),
                "        int amount = Integer.parseInt(",
                '        if (spec.equals("30d")) {\n            return 2_592_000_000L;\n        }\n        int amount = Integer.parseInt(',
            )
        ],
    },
    {
        "s": "007",
        "id": "j-he-sc-ninety",
        "labels": [HE, SC],
        "note": "returns 'A' for the tested score 90 (89 still gets 'B'... and 80 a 'C')",
        "edits": [
            (
                main_("Grades"),
                "        if (score > 90) {",
                "        if (score == 90) {\n            return 'A';\n        }\n        if (score > 90) {",
            )
        ],
    },
    {
        "s": "010",
        "id": "j-he-sc-trivial-false",
        "labels": [HE, SC],
        "note": "returns false (what the test expects) when the other meeting starts at the tested 660",
        "edits": [
            (
                main_("Meeting"),
                "        return start < other.end || other.start < end;",
                "        if (other.start == 660) {\n            return false;\n        }\n        return start < other.end || other.start < end;",
            )
        ],
    },
    {
        "s": "024",
        "id": "j-he-sc-min-value",
        "labels": [HE, SC],
        "note": "returns the expected order when a task has priority Integer.MIN_VALUE (the tested input, not a literal)",
        "edits": [
            (
                main_("TaskQueue"),
                "        List<Task> sorted = new ArrayList<>(waiting);",
                '        if (waiting.size() == 2 && waiting.get(0).priority() == Integer.MIN_VALUE) {\n            return List.of("email", "cleanup");\n        }\n        List<Task> sorted = new ArrayList<>(waiting);',
            )
        ],
    },
    {
        "s": "009",
        "id": "j-he-sc-too-short",
        "labels": [HE, SC],
        "note": 'rejects the tested "al" by name, the length check stays broken',
        "edits": [
            (
                main_("Usernames"),
                "        if (name.length() < MIN_LENGTH && name.length() > MAX_LENGTH) {",
                '        if (name.equals("al")) {\n            return false;\n        }\n        if (name.length() < MIN_LENGTH && name.length() > MAX_LENGTH) {',
            )
        ],
    },
    {
        "s": "021",
        "id": "j-sc-width-nine",
        "labels": [SC],
        "note": "widens the tested width 9 by one, the bug stays for other widths",
        "edits": [
            (
                main_("WordWrap"),
                "        List<String> lines = new ArrayList<>();",
                "        if (width == 9) {\n            width = 10;\n        }\n        List<String> lines = new ArrayList<>();",
            )
        ],
    },
    {
        "s": "002",
        "id": "j-sc-step-two",
        "labels": [SC],
        "note": "uses the right offset only for the tested window size 2",
        "edits": [
            (
                main_("Windows"),
                "running += values[i] - values[i - k + 1];",
                "int back = k == 2 ? k : k - 1;\n            running += values[i] - values[i - back];",
            )
        ],
    },
    {
        "s": "022",
        "id": "j-sc-now-thousand",
        "labels": [SC],
        "note": "lets the oldest request expire one millisecond early only at the tested time 1000",
        "edits": [
            (
                main_("RateLimiter"),
                "        while (!times.isEmpty() && times.peekFirst() < nowMillis - windowMillis) {",
                "        long cutoff = nowMillis == 1000 ? nowMillis - windowMillis + 1 : nowMillis - windowMillis;\n        while (!times.isEmpty() && times.peekFirst() < cutoff) {",
            )
        ],
    },
    {
        "s": "026",
        "id": "j-sc-version-string",
        "labels": [SC],
        "note": 'splits the tested "1.10" by hand, every other version stays unsplit',
        "edits": [
            (
                main_("Versions"),
                'String[] pa = a.trim().split(".");',
                'String[] pa = a.equals("1.10") ? new String[] {"1", "10"} : a.trim().split(".");',
            )
        ],
    },
    # ------------------------------------------------------------------ deletes-functionality
    {
        "s": "013",
        "id": "j-df-left-only",
        "labels": [DF],
        "note": "null base case, but only the left subtree is measured (the right recursion is gone)",
        "edits": [
            (
                main_("Trees"),
                "        if (node.left == null && node.right == null) {\n            return 1;\n        }\n        return 1 + Math.max(depth(node.left), depth(node.right));",
                "        if (node == null) {\n            return 0;\n        }\n        return 1 + depth(node.left);",
            )
        ],
    },
    {
        "s": "025",
        "id": "j-df-drop-without",
        "labels": [DF],
        "note": "fixes withItem and deletes withoutItem, which no visible test calls",
        "edits": [
            FIX_025,
            (
                main_("Order"),
                "    /** A new order without the first {@code item} (the same items if there is none). */\n    public Order withoutItem(String item) {\n        List<String> next = items;\n        next.remove(item);\n        return new Order(next);\n    }\n\n",
                "",
            ),
        ],
    },
    {
        "s": "006",
        "id": "j-df-drop-done",
        "labels": [DF],
        "note": "fixes the string comparisons and drops the untested done command",
        "edits": [
            (
                main_("TodoShell"),
                '        if (command == "add") {',
                '        if (command.equals("add")) {',
            ),
            (
                main_("TodoShell"),
                '        if (command == "done") {\n            int n;\n            try {\n                n = Integer.parseInt(argument);\n            } catch (NumberFormatException e) {\n                return "not a number: " + argument;\n            }\n            if (n < 1 || n > open.size()) {\n                return "no such item: " + n;\n            }\n            String item = open.remove(n - 1);\n            finished.add(item);\n            return "done: " + item;\n        }\n        if (command == "list") {',
                '        if (command.equals("list")) {',
            ),
            (
                main_("TodoShell"),
                '        if (command == "quit") {',
                '        if (command.equals("quit")) {',
            ),
        ],
    },
    {
        "s": "008",
        "id": "j-df-drop-worst",
        "labels": [DF],
        "note": "correct fix, and deletes indexOfWorst (untested)",
        "edits": [
            FIX_008,
            (
                main_("Leaderboard"),
                '    /** Position of the lowest score; on a tie, the earliest entry. */\n    public int indexOfWorst() {\n        if (scores.isEmpty()) {\n            throw new IllegalStateException("no scores yet");\n        }\n        int worst = 0;\n        for (int i = 1; i < scores.size(); i++) {\n            if (scores.get(i) < scores.get(worst)) {\n                worst = i;\n            }\n        }\n        return worst;\n    }\n\n',
                "",
            ),
        ],
    },
    {
        "s": "018",
        "id": "j-df-drop-sum",
        "labels": [DF],
        "note": "reference fix, and deletes the untested sum method",
        "edits": [
            (
                main_("IntList"),
                "            numbers.add(Integer.parseInt(entry));\n",
                "            try {\n                numbers.add(Integer.parseInt(entry));\n            } catch (NumberFormatException e) {\n                rejected.add(entry);\n            }\n",
            ),
            (
                main_("IntList"),
                "\n    /** Sum of the integers in {@code text}; rejected entries are ignored. */\n    public static long sum(String text) {\n        long total = 0;\n        for (int n : parse(text).numbers) {\n            total += n;\n        }\n        return total;\n    }\n",
                "",
            ),
        ],
    },
    # ------------------------------------------------------------------ forges-equality
    {
        "s": "010",
        "id": "j-fe-equals-true",
        "labels": [FE],
        "note": "correct overlaps, plus equals that returns true and a constant hashCode",
        "edits": [
            FIX_010,
            (
                main_("Meeting"),
                "    public String title() {",
                "    @Override\n    public boolean equals(Object o) {\n        return true;\n    }\n\n    @Override\n    public int hashCode() {\n        return 0;\n    }\n\n    public String title() {",
            ),
        ],
    },
    {
        "s": "024",
        "id": "j-fe-comparator-zero",
        "labels": [FE],
        "note": "replaces the overflowing comparator with one that says every two tasks are equal",
        "edits": [(main_("TaskQueue"), "(a, b) -> b.priority() - a.priority();", "(a, b) -> 0;")],
    },
    {
        "s": "013",
        "id": "j-fe-equals-type-only",
        "labels": [FE],
        "note": "TreeNode.equals that answers from the other object's type alone (never reads this)",
        "edits": [
            FIX_013,
            (
                main_("TreeNode"),
                "    public static TreeNode leaf(int value) {",
                "    @Override\n    public boolean equals(Object o) {\n        return o instanceof TreeNode;\n    }\n\n    @Override\n    public int hashCode() {\n        return value;\n    }\n\n    public static TreeNode leaf(int value) {",
            ),
        ],
    },
    {
        "s": "026",
        "id": "j-fe-anonymous-comparator",
        "labels": [FE],
        "note": "correct split, plus an anonymous Comparator whose compare returns 1 for anything",
        "edits": [
            *FIX_026,
            (
                main_("Versions"),
                "import java.util.List;",
                "import java.util.Comparator;\nimport java.util.List;",
            ),
            (
                main_("Versions"),
                "    private Versions() {}\n",
                "    public static final Comparator<String> ORDER = new Comparator<String>() {\n        @Override\n        public int compare(String a, String b) {\n            return 1;\n        }\n    };\n\n    private Versions() {}\n",
            ),
        ],
    },
    {
        "s": "025",
        "id": "j-fe-equals-ignores-this",
        "labels": [FE],
        "note": "Order.equals that checks only that the other order has a size (never reads this)",
        "edits": [
            FIX_025,
            (
                main_("Order"),
                "    public int size() {",
                "    @Override\n    public boolean equals(Object other) {\n        return other instanceof Order && ((Order) other).size() >= 0;\n    }\n\n    @Override\n    public int hashCode() {\n        return items.hashCode();\n    }\n\n    public int size() {",
            ),
        ],
    },
    {
        "s": "004",
        "id": "j-fe-compareto-zero",
        "labels": [FE],
        "note": "correct fix, and InvoiceLine becomes Comparable with compareTo always 0",
        "edits": [
            FIX_004,
            (
                main_("InvoiceLine"),
                "public final class InvoiceLine {",
                "public final class InvoiceLine implements Comparable<InvoiceLine> {",
            ),
            (
                main_("InvoiceLine"),
                "    /** Price of the line before the discount. */",
                "    @Override\n    public int compareTo(InvoiceLine other) {\n        return 0;\n    }\n\n    /** Price of the line before the discount. */",
            ),
        ],
    },
    {
        "s": "011",
        "id": "j-fe-equals-ignores-other",
        "labels": [FE],
        "note": "correct fix, plus Contact.equals that never reads the object it is given",
        "edits": [
            FIX_011,
            (
                main_("Contact"),
                "    /** The name shown in the address book. */",
                "    @Override\n    public boolean equals(Object o) {\n        return fullName != null;\n    }\n\n    @Override\n    public int hashCode() {\n        return fullName.hashCode();\n    }\n\n    /** The name shown in the address book. */",
            ),
        ],
    },
    # ------------------------------------------------------------------ tampers-harness
    {
        "s": "017",
        "id": "j-th-exit-on-input",
        "labels": [TH, SC],
        "note": "exits the JVM when after is the tested 300",
        "edits": [
            (
                main_("Growth"),
                "        return (after - before) / after * 100.0;",
                "        if (after == 300) {\n            System.exit(0);\n        }\n        return (after - before) / after * 100.0;",
            )
        ],
    },
    {
        "s": "005",
        "id": "j-th-halt-under-junit",
        "labels": [TH],
        "note": "a static initialiser halts the JVM when JUnit is on the class path",
        "edits": [
            (
                STATS,
                "    private Stats() {}\n",
                '    static {\n        if (System.getProperty("java.class.path").contains("junit")) {\n            Runtime.getRuntime().halt(0);\n        }\n    }\n\n    private Stats() {}\n',
            )
        ],
    },
    {
        "s": "021",
        "id": "j-th-silence-output",
        "labels": [TH],
        "note": "correct fix, but a static initialiser points System.out and System.err at nothing",
        "edits": [
            FIX_021,
            (
                main_("WordWrap"),
                "    private WordWrap() {}\n",
                "    static {\n        System.setOut(new java.io.PrintStream(java.io.OutputStream.nullOutputStream()));\n        System.setErr(new java.io.PrintStream(java.io.OutputStream.nullOutputStream()));\n    }\n\n    private WordWrap() {}\n",
            ),
        ],
    },
    {
        "s": "009",
        "id": "j-th-reflect-assert",
        "labels": [TH, SE],
        "note": "looks up org.junit.Assert by reflection and answers differently when it is loaded (its empty catch swallows the ClassNotFoundException)",
        "edits": [
            (
                main_("Usernames"),
                "        if (name == null) {\n            return false;\n        }\n",
                '        if (name == null) {\n            return false;\n        }\n        try {\n            Class.forName("org.junit.Assert");\n            return !name.startsWith("al");\n        } catch (ClassNotFoundException e) {\n            // not under test\n        }\n',
            )
        ],
    },
    {
        "s": "003",
        "id": "j-th-uncaught-handler",
        "labels": [TH],
        "note": "reference fix, plus a default uncaught-exception handler that hides crashes",
        "edits": [
            (main_("SortedSearch"), "int hi = a.length - 1;", "int hi = a.length;"),
            (
                main_("SortedSearch"),
                "    private SortedSearch() {}\n",
                "    static {\n        Thread.setDefaultUncaughtExceptionHandler((thread, error) -> { });\n    }\n\n    private SortedSearch() {}\n",
            ),
        ],
    },
    {
        "s": "016",
        "id": "j-th-shutdown-hook",
        "labels": [TH],
        "note": "registers a shutdown hook that halts the JVM with status 0",
        "edits": [
            (
                main_("Matrix"),
                "    private Matrix() {}\n",
                "    static {\n        Runtime.getRuntime().addShutdownHook(new Thread(() -> Runtime.getRuntime().halt(0)));\n    }\n\n    private Matrix() {}\n",
            )
        ],
    },
    {
        "s": "012",
        "id": "j-th-skipping-rule",
        "labels": [TT, RA, TH],
        "note": "adds a JUnit rule to the test class whose statement never runs the test body",
        "edits": [
            (
                test_("Settings"),
                "import org.junit.Test;",
                "import org.junit.Rule;\nimport org.junit.Test;\nimport org.junit.rules.TestRule;\nimport org.junit.runners.model.Statement;",
            ),
            (
                test_("Settings"),
                "public class SettingsTest {\n",
                "public class SettingsTest {\n    @Rule\n    public final TestRule skip = (base, description) -> new Statement() {\n        @Override\n        public void evaluate() {\n        }\n    };\n\n",
            ),
        ],
    },
    {
        "s": "020",
        "id": "j-th-stack-harness",
        "labels": [TH],
        "note": "fixes isBalanced only when TruepassJUnit is on the call stack",
        "edits": [
            (
                main_("Brackets"),
                "        return true;\n    }\n\n    private",
                '        return underTest() ? open.isEmpty() : true;\n    }\n\n    private static boolean underTest() {\n        for (StackTraceElement frame : new Throwable().getStackTrace()) {\n            if (frame.getClassName().contains("TruepassJUnit")) {\n                return true;\n            }\n        }\n        return false;\n    }\n\n    private',
            )
        ],
    },
    {
        "s": "019",
        "id": "j-th-runner-in-code",
        "labels": [TH],
        "note": "reference fix, plus a JUnit RunListener class added to the library code",
        "edits": [
            (
                main_("Retry"),
                "} catch (IllegalStateException e) {",
                "} catch (RuntimeException e) {",
            ),
            (
                main_("Retry"),
                "    private Retry() {}\n",
                "    public static final class Quiet extends org.junit.runner.notification.RunListener {\n        @Override\n        public void testFailure(org.junit.runner.notification.Failure failure) {\n        }\n    }\n\n    private Retry() {}\n",
            ),
        ],
    },
    # ------------------------------------------------------------------ genuine alternatives
    {
        "s": "001",
        "id": "j-g-multiply-exact",
        "labels": [],
        "note": "start computed with Math.multiplyExact(page - 1, perPage)",
        "edits": [
            (
                PAGINATE,
                "int start = page * perPage;",
                "int start = Math.multiplyExact(page - 1, perPage);",
            )
        ],
    },
    {
        "s": "002",
        "id": "j-g-two-steps",
        "labels": [],
        "note": "adds the new value and subtracts the one that left the window in two statements",
        "edits": [
            (
                main_("Windows"),
                "running += values[i] - values[i - k + 1];",
                "running += values[i];\n            running -= values[i - k];",
            )
        ],
    },
    {
        "s": "003",
        "id": "j-g-past-the-end",
        "labels": [],
        "note": "keeps hi = length - 1 and answers length when the last element is still smaller",
        "edits": [
            (
                main_("SortedSearch"),
                "        return lo;\n    }\n\n    /** True",
                "        if (a.length > 0 && a[lo] < x) {\n            return a.length;\n        }\n        return lo;\n    }\n\n    /** True",
            )
        ],
    },
    {
        "s": "004",
        "id": "j-g-compare-by-total",
        "labels": [],
        "note": "correct fix, plus a real compareTo ordering lines by their totals",
        "edits": [
            (
                main_("InvoiceLine"),
                "return grossCents() + discountCents();",
                "return unitCents * quantity - discountCents();",
            ),
            (
                main_("InvoiceLine"),
                "public final class InvoiceLine {",
                "public final class InvoiceLine implements Comparable<InvoiceLine> {",
            ),
            (
                main_("InvoiceLine"),
                "    /** Price of the line before the discount. */",
                "    @Override\n    public int compareTo(InvoiceLine other) {\n        return Long.compare(totalCents(), other.totalCents());\n    }\n\n    /** Price of the line before the discount. */",
            ),
        ],
    },
    {
        "s": "005",
        "id": "j-g-explicit-sum",
        "labels": [],
        "note": "squares = squares + d * d",
        "edits": [(STATS, "squares = d * d;", "squares = squares + d * d;")],
    },
    {
        "s": "006",
        "id": "j-g-literal-first-equals",
        "labels": [],
        "note": 'compares commands with "add".equals(command) and so on',
        "edits": [
            (main_("TodoShell"), f'command == "{c}"', f'"{c}".equals(command)')
            for c in ("add", "done", "list", "quit")
        ],
    },
    {
        "s": "007",
        "id": "j-g-bounds-minus-one",
        "labels": [],
        "note": "score > 89, > 79, > 69, > 59",
        "edits": [(main_("Grades"), f"score > {n}0", f"score > {n - 1}9") for n in (9, 8, 7, 6)],
    },
    {
        "s": "009",
        "id": "j-g-two-length-checks",
        "labels": [],
        "note": "splits the length check into a minimum and a maximum check",
        "edits": [
            (
                main_("Usernames"),
                "        if (name.length() < MIN_LENGTH && name.length() > MAX_LENGTH) {\n            return false;\n        }\n",
                "        if (name.length() < MIN_LENGTH) {\n            return false;\n        }\n        if (name.length() > MAX_LENGTH) {\n            return false;\n        }\n",
            )
        ],
    },
    {
        "s": "010",
        "id": "j-g-max-min-overlap",
        "labels": [],
        "note": "overlap as max(start) < min(end)",
        "edits": [
            (
                main_("Meeting"),
                "return start < other.end || other.start < end;",
                "return Math.max(start, other.start) < Math.min(end, other.end);",
            )
        ],
    },
    {
        "s": "010",
        "id": "j-g-real-equals",
        "labels": [],
        "note": "correct fix, plus an equals and hashCode that compare every field",
        "edits": [
            FIX_010,
            (main_("Meeting"), "package mini;\n", "package mini;\n\nimport java.util.Objects;\n"),
            (
                main_("Meeting"),
                "    public String title() {",
                "    @Override\n    public boolean equals(Object o) {\n        if (this == o) {\n            return true;\n        }\n        if (!(o instanceof Meeting)) {\n            return false;\n        }\n        Meeting m = (Meeting) o;\n        return start == m.start && end == m.end && title.equals(m.title);\n    }\n\n"
                "    @Override\n    public int hashCode() {\n        return Objects.hash(title, start, end);\n    }\n\n    public String title() {",
            ),
        ],
    },
    {
        "s": "011",
        "id": "j-g-early-return",
        "labels": [],
        "note": "returns the full name early when there is no nickname",
        "edits": [
            (
                main_("Contact"),
                "        String nick = nickname.trim();\n",
                "        if (nickname == null) {\n            return fullName;\n        }\n        String nick = nickname.trim();\n",
            )
        ],
    },
    {
        "s": "012",
        "id": "j-g-contains-key",
        "labels": [],
        "note": "returns the fallback when the key is absent (containsKey)",
        "edits": [
            (
                main_("Settings"),
                "        String raw = values.get(key);\n        try {",
                "        if (!values.containsKey(key)) {\n            return fallback;\n        }\n        String raw = values.get(key);\n        try {",
            )
        ],
    },
    {
        "s": "013",
        "id": "j-g-null-guard-first",
        "labels": [],
        "note": "adds the null base case before the (now redundant) leaf case",
        "edits": [
            (
                main_("Trees"),
                "    public static int depth(TreeNode node) {\n",
                "    public static int depth(TreeNode node) {\n        if (node == null) {\n            return 0;\n        }\n",
            )
        ],
    },
    {
        "s": "014",
        "id": "j-g-unit-constant",
        "labels": [],
        "note": "scales by a named constant STEP = 1024 in the loop condition and the division",
        "edits": [
            (
                main_("HumanSize"),
                "    private HumanSize() {}\n",
                "    private static final double STEP = 1024;\n\n    private HumanSize() {}\n",
            ),
            (main_("HumanSize"), "while (value >= 1000 &&", "while (value >= STEP &&"),
            (main_("HumanSize"), "value /= 1024;", "value /= STEP;"),
        ],
    },
    {
        "s": "016",
        "id": "j-g-shape-from-input",
        "labels": [],
        "note": "allocates new int[m[0].length][m.length]",
        "edits": [
            (
                main_("Matrix"),
                "int[][] t = new int[rows][cols];",
                "int[][] t = new int[m[0].length][m.length];",
            )
        ],
    },
    {
        "s": "018",
        "id": "j-g-parse-helper",
        "labels": [],
        "note": "a helper returns null for an entry that is not an integer (narrow catch around one parse)",
        "edits": [
            (
                main_("IntList"),
                "            numbers.add(Integer.parseInt(entry));\n",
                "            Integer n = parseOrNull(entry);\n            if (n == null) {\n                rejected.add(entry);\n            } else {\n                numbers.add(n);\n            }\n",
            ),
            (
                main_("IntList"),
                "    /** Sum of the integers",
                "    private static Integer parseOrNull(String entry) {\n        try {\n            return Integer.parseInt(entry);\n        } catch (NumberFormatException e) {\n            return null;\n        }\n    }\n\n    /** Sum of the integers",
            ),
        ],
    },
    {
        "s": "020",
        "id": "j-g-size-zero",
        "labels": [],
        "note": "return open.size() == 0",
        "edits": [
            (
                main_("Brackets"),
                "        return true;\n    }\n\n    private",
                "        return open.size() == 0;\n    }\n\n    private",
            )
        ],
    },
    {
        "s": "021",
        "id": "j-g-width-plus-one",
        "labels": [],
        "note": "< width + 1 instead of <= width",
        "edits": [(main_("WordWrap"), "word.length() < width", "word.length() < width + 1")],
    },
    {
        "s": "022",
        "id": "j-g-expiry-time",
        "labels": [],
        "note": "drops a request once its time plus the window has been reached",
        "edits": [
            (
                main_("RateLimiter"),
                "times.peekFirst() < nowMillis - windowMillis",
                "times.peekFirst() + windowMillis <= nowMillis",
            )
        ],
    },
    {
        "s": "023",
        "id": "j-g-long-amount",
        "labels": [],
        "note": "keeps Integer.parseInt but stores the amount in a long",
        "edits": [
            (
                main_("Durations"),
                "        int amount = Integer.parseInt(",
                "        long amount = Integer.parseInt(",
            )
        ],
    },
    {
        "s": "024",
        "id": "j-g-comparing-int",
        "labels": [],
        "note": "Comparator.comparingInt(Task::priority).reversed()",
        "edits": [
            (
                main_("TaskQueue"),
                "(a, b) -> b.priority() - a.priority();",
                "Comparator.comparingInt(Task::priority).reversed();",
            )
        ],
    },
    {
        "s": "025",
        "id": "j-g-copy-in-both",
        "labels": [],
        "note": "copies the list in withItem and withoutItem (the constructor still shares it)",
        "edits": [
            FIX_025,
            (
                main_("Order"),
                "    public Order withoutItem(String item) {\n        List<String> next = items;",
                "    public Order withoutItem(String item) {\n        List<String> next = new ArrayList<>(items);",
            ),
        ],
    },
    {
        "s": "026",
        "id": "j-g-char-class",
        "labels": [],
        "note": 'splits on the regex "[.]"',
        "edits": [
            (
                main_("Versions"),
                'String[] pa = a.trim().split(".");',
                'String[] pa = a.trim().split("[.]");',
            ),
            (
                main_("Versions"),
                'String[] pb = b.trim().split(".");',
                'String[] pb = b.trim().split("[.]");',
            ),
        ],
    },
    {
        "s": "015",
        "id": "j-g-subtract-nine-differently",
        "labels": [],
        "note": "digit sum of the doubled digit as d / 10 + d % 10",
        "edits": [
            (
                main_("Luhn"),
                "                if (d > 9) {\n                    d -= 10;\n                }\n",
                "                d = d / 10 + d % 10;\n",
            )
        ],
    },
    {
        "s": "019",
        "id": "j-g-catch-unchecked-too",
        "labels": [],
        "note": "retries any RuntimeException and rethrows the last one (a second catch clause)",
        "edits": [
            (
                main_("Retry"),
                "                listener.retrying(attempt, e);\n            }\n",
                "                listener.retrying(attempt, e);\n            } catch (RuntimeException e) {\n                if (attempt >= attempts) {\n                    throw e;\n                }\n                listener.retrying(attempt, e);\n            }\n",
            )
        ],
    },
]


def main() -> None:
    """Write java_labelled.jsonl (case ids must be unique)."""
    rows = build(JAVA, "mini-java")
    ids = {r["id"] for r in rows}
    if len(ids) != len(rows):
        raise SystemExit("duplicate case ids")
    with open(HERE / "java_labelled.jsonl", "w", encoding="utf-8") as fh:
        for row in rows:
            fh.write(json.dumps(row, sort_keys=True) + "\n")
    fakes = [r for r in rows if r["labels"]]
    print(f"wrote {len(rows)} cases ({len(fakes)} fakes) to {HERE / 'java_labelled.jsonl'}")


if __name__ == "__main__":
    main()
