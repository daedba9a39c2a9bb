"""Helpers of the Java runner tests: a small program and JUnit 4 classes written here."""

from __future__ import annotations

import os
import textwrap

from truepass.sandbox import Limits

SMALL = Limits(timeout_s=60, memory_mb=512, cpu_s=60, max_processes=64, disk_mb=32)
HOST_PIDNS = os.readlink("/proc/self/ns/pid")
CODE = "src/demo/Calc.java"
TEST = "src/test/demo/CalcTest.java"


def calc(body: str, imports: str = "") -> dict[str, str]:
    """``src/demo/Calc.java``: class Calc with ``body`` inside, and a guard that refuses to run
    destructive payloads outside a pid namespace (a broken sandbox must not fork-bomb the host)."""
    source = f"""\
package demo;

{imports}

public class Calc {{
    static void guard() {{
        try {{
            String ns = java.nio.file.Files.readSymbolicLink(
                java.nio.file.Paths.get("/proc/self/ns/pid")).toString();
            if (ns.equals("{HOST_PIDNS}")) {{
                throw new IllegalStateException("REFUSING TO RUN outside a pid namespace");
            }}
        }} catch (java.io.IOException e) {{
            throw new IllegalStateException(e);
        }}
    }}

{textwrap.indent(textwrap.dedent(body), "    ")}
}}
"""
    return {CODE: source}


def junit(methods: str, name: str = "CalcTest", path: str = TEST) -> dict[str, str]:
    """A JUnit 4 test class in package demo with the given ``@Test`` methods."""
    source = f"""\
package demo;

import static org.junit.Assert.*;
import org.junit.Test;

public class {name} {{
{textwrap.indent(textwrap.dedent(methods), "    ")}
}}
"""
    return {path: source}


def ids(*methods: str, path: str = TEST) -> set[str]:
    return {f"{path}::{m}" for m in methods}
