"""The rebuild build cache: keys tell every two trees apart, a build is reused only for the
very same tree (in the real sandbox), checkpoints share a first part without showing it the
rest, failures are kept and timeouts are not, and the judge says when its build was cached."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from pathlib import Path

import pytest
from rebuild_tasks import PYTHON_COMPILE, PYTHON_REV, needs_rev, rev_task

from truepass.answers import Answer
from truepass.families.rebuild import buildcache
from truepass.families.rebuild.buildcache import (
    Build,
    BuildEntry,
    BuildRequest,
    build_key,
    lookup,
    run_build,
    split_checkpoint,
    store,
    tree_digest,
)
from truepass.families.rebuild.evidence import RebuildEvidence
from truepass.families.rebuild.family import RebuildFamily
from truepass.judged import JudgeConfig
from truepass.sandbox import Limits
from truepass.sandbox.session import SandboxSession, WorkspaceError
from truepass.vocabulary import Verdict

LIMITS = Limits(timeout_s=60, disk_mb=256, cpu_s=60)
NONCE = "head -c 16 /dev/urandom | od -An -tx1 > nonce\n"
"""A build step whose output differs at every run: the same nonce twice means one build."""


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.setenv("TRUEPASS_REBUILD_CACHE", str(tmp_path))
    monkeypatch.setenv("TRUEPASS_BUILD_CACHE", "on")
    yield tmp_path / "build"


def key(files: dict[str, str | bytes], timeout_s: float = 30.0) -> str:
    return build_key(
        files, limits_json=LIMITS.model_dump_json(), timeout_s=timeout_s, binds={}, log_chars=3000
    )


def build(files: dict[str, str | bytes], timeout_s: float = 30.0) -> tuple[Build, dict[str, str]]:
    """Build ``files``: how it went, and the text of the workspace's files after it."""
    request = BuildRequest(files=files, limits=LIMITS, timeout_s=timeout_s, log_chars=3000)
    session, done = run_build(request)
    if session is None:
        return done, {}
    with session:
        return done, {path: session.read_file(path) for path in session.list_files()}


# -- keys ---------------------------------------------------------------------------------


def test_trees_differing_by_a_byte_a_mode_a_path_or_compile_sh_get_different_keys() -> None:
    base: dict[str, str | bytes] = {"compile.sh": "cc -o p p.c\n", "p.c": "int main(){}\n"}
    variants: list[dict[str, str | bytes]] = [
        {**base, "p.c": "int main(){} \n"},  # one byte more
        {**base, "p.c": b"int main(){}\r"},  # one byte changed
        {**base, "compile.sh": "cc -O2 -o p p.c\n"},
        {"compile.sh": base["compile.sh"], "q.c": base["p.c"]},  # renamed
        {**base, "extra": ""},  # one empty file more
    ]
    keys = {key(base), *(key(v) for v in variants)}
    assert len(keys) == len(variants) + 1
    # the mode the workspace gives a file (0755 for a #! script) is part of its listing
    script = {"run": "#!/bin/sh\n"}
    assert tree_digest(script) != tree_digest({"run": "#!/bin/sh\n".replace("#!", "# ")})
    assert buildcache.file_mode(b"#!/bin/sh\n") == 0o755 and buildcache.file_mode(b"x") == 0o644
    # the limits and the time limit are part of the key, and the binds before a checkpoint
    assert key(base, timeout_s=31.0) != key(base)
    trusted = build_key(
        base, limits_json=LIMITS.model_dump_json(), timeout_s=30.0, binds={}, log_chars=3000,
        first_binds={},
    )  # fmt: skip
    assert trusted != key(base)


def test_the_same_tree_gets_the_same_key_whatever_the_order_or_spelling_of_paths() -> None:
    one: dict[str, str | bytes] = {"compile.sh": "true\n", "src/a.c": "a", "b.c": b"b"}
    two: dict[str, str | bytes] = {"./b.c": "b", "src//a.c": b"a", "compile.sh": b"true\n"}
    assert key(one) == key(two)


def test_paths_the_session_refuses_are_refused_before_any_lookup() -> None:
    for bad in ("/compile.sh", "../x", "a/../b", ""):
        with pytest.raises(WorkspaceError):
            buildcache.workspace_files({bad: "x"})


def test_split_checkpoint_cuts_at_the_last_checkpoint_line() -> None:
    mark = buildcache.CHECKPOINT
    assert split_checkpoint("a\nb\n") is None
    assert split_checkpoint(f"a\n  {mark}  \nb\n") == ("a\n", "b\n")
    assert split_checkpoint(f"a\n{mark}\nb\n{mark}\nc\n") == (f"a\n{mark}\nb\n", "c\n")
    assert split_checkpoint(f"echo '{mark}'\n") is None  # only a line of its own


# -- entries ------------------------------------------------------------------------------


def test_an_entry_whose_archive_or_key_does_not_match_is_not_used(cache: Path) -> None:
    archive = b"not really a tar"
    entry = BuildEntry(
        key="ab" * 32, returncode=0, log="", duration_s=1.0, tier="bwrap",
        archive_sha256=hashlib.sha256(archive).hexdigest(),
    )  # fmt: skip
    store(entry, archive)
    found = lookup(entry.key)
    assert found is not None and found[1] == archive
    (cache / entry.key[:2] / entry.key / buildcache.ARCHIVE).write_bytes(b"tampered")
    assert lookup(entry.key) is None
    other = entry.model_copy(update={"key": "cd" * 32})
    where = cache / other.key[:2] / other.key
    where.mkdir(parents=True)
    (where / buildcache.ENTRY).write_text(entry.model_dump_json())  # says it is another key
    assert lookup(other.key) is None


def test_prune_removes_the_least_recently_used_entries_first(cache: Path) -> None:
    keys = [f"{i:02x}" * 32 for i in range(3)]
    for k in keys:
        store(BuildEntry(key=k, returncode=1, log="x" * 1000, duration_s=0.0, tier="t"), None)
    assert lookup(keys[0]) is not None  # used last
    assert buildcache.prune(0, keep=keys[1]) == 2
    assert lookup(keys[1]) is not None
    assert lookup(keys[0]) is None and lookup(keys[2]) is None


# -- builds in the sandbox ----------------------------------------------------------------


def test_a_tree_is_built_once_and_a_different_tree_never_gets_its_build(cache: Path) -> None:
    tree: dict[str, str | bytes] = {"compile.sh": NONCE + "cat a > out\nln -s out link\n"}
    first, files = build({**tree, "a": "one"})
    assert first.succeeded and not first.use.cached
    again, same = build({**tree, "a": "one"})
    assert again.use.cached and again.use.key == first.use.key
    assert same == files  # the same nonce: the build was reused, not run again
    assert again.digests == first.digests
    other, theirs = build({**tree, "a": "one\n"})  # one byte more
    assert not other.use.cached and other.use.key != first.use.key
    assert theirs["out"] == "one\n" and theirs["nonce"] != files["nonce"]
    mode, moded = build({**tree, "a": "#!one"})  # another mode (0755) and content
    assert not mode.use.cached and moded["nonce"] not in {files["nonce"], theirs["nonce"]}


def test_a_restored_workspace_keeps_modes_and_symlinks(cache: Path) -> None:
    script = NONCE + "ln -s nonce link\nmkdir d\nchmod 700 d\nchmod 600 nonce\n"
    first, _ = build({"compile.sh": script})
    assert first.succeeded and not first.use.cached
    files: dict[str, str | bytes] = {"compile.sh": script}
    request = BuildRequest(files=files, limits=LIMITS, timeout_s=30, log_chars=3000)
    session, again = run_build(request)
    assert again.use.cached and session is not None
    with session:
        listing = session.run("stat -c '%A %N' d nonce link").stdout
    assert "drwx------ 'd'" in listing
    assert "-rw------- 'nonce'" in listing
    assert "'link' -> 'nonce'" in listing


def test_a_failed_build_is_kept_with_its_log_and_a_timeout_is_not(cache: Path) -> None:
    failing: dict[str, str | bytes] = {"compile.sh": "echo built >&2\nexit 3\n"}
    first, _ = build(failing)
    assert first.returncode == 3 and not first.use.cached
    again, _ = build(failing)
    assert again.use.cached and again.returncode == 3 and again.log == first.log == "built\n"
    slow: dict[str, str | bytes] = {"compile.sh": "sleep 30\n"}
    timed, _ = build(slow, timeout_s=1.0)
    assert timed.timed_out
    assert lookup(timed.use.key) is None
    retried, _ = build(slow, timeout_s=1.0)
    assert retried.timed_out and not retried.use.cached


def test_a_checkpoint_shares_the_first_part_and_hides_the_rest_from_it(cache: Path) -> None:
    mark = buildcache.CHECKPOINT

    def script(program: str) -> str:
        return f"{NONCE}cat compile.sh > seen\n{mark}\necho {program} > program\n"

    one, built_one = build({"compile.sh": script("one")})
    assert one.succeeded and one.use.checkpoint == "built" and not one.use.cached
    two, built_two = build({"compile.sh": script("two")})
    assert two.use.checkpoint == "cached" and not two.use.cached
    assert built_two["nonce"] == built_one["nonce"]  # the first part ran once
    assert built_two["program"] == "two\n" and built_one["program"] == "one\n"
    assert built_two["compile.sh"] == script("two")  # put back before the rest ran
    assert "echo" not in built_one["seen"] and mark not in built_one["seen"]
    other, built_other = build({"compile.sh": script("two"), "more": "x"})
    assert other.use.checkpoint == "built"  # another tree: its first part is its own
    assert built_other["nonce"] != built_one["nonce"]


def test_with_the_cache_off_nothing_is_kept(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TRUEPASS_BUILD_CACHE", "off")
    first, files = build({"compile.sh": NONCE})
    again, same = build({"compile.sh": NONCE})
    assert first.succeeded and again.succeeded and not again.use.cached
    assert files["nonce"] != same["nonce"]
    assert not cache.exists()


def test_the_judge_reuses_a_build_and_says_so(cache: Path) -> None:
    needs_rev()
    sample = rev_task()
    family = RebuildFamily()
    config = JudgeConfig()
    check = family.check(sample, config)
    answer = Answer(files={"compile.sh": PYTHON_COMPILE, "rev.py": PYTHON_REV})
    first = family.judge(sample, answer, check, config)
    second = family.judge(sample, answer, check, config)
    used = [RebuildEvidence.of(j).build for j in (first, second)]
    assert used[0] is not None and not used[0].cached
    assert used[1] is not None and used[1].cached and used[1].key == used[0].key
    assert first.verdict is second.verdict is Verdict.CORRECT
    assert first.scores == second.scores and first.flags == second.flags == []
    # a copy of the gold is flagged from its cached build too
    with open(sample.gold, "rb") as fh:
        hexed = fh.read().hex()
    copy = Answer(files={"compile.sh": "xxd -r -p g > rev\nchmod +x rev\n", "g": hexed})
    flagged = [family.judge(sample, copy, check, config) for _ in range(2)]
    assert [f.flags for f in flagged] == [["copies-gold"], ["copies-gold"]]
    assert RebuildEvidence.of(flagged[1]).build.cached  # type: ignore[union-attr]


def test_a_session_can_take_binary_files() -> None:
    with SandboxSession(limits=LIMITS) as session:
        session.write_bytes("blob", b"\0\1\2#!")
        assert session.read_binary("blob") == b"\0\1\2#!"


def test_a_trusted_first_part_is_shared_across_binds_and_the_rest_sees_its_own(
    cache: Path, tmp_path: Path
) -> None:
    mark = buildcache.CHECKPOINT
    wire = tmp_path / "wire.sh"
    wire.write_text("#!/bin/sh\nexit 127\n")
    wire.chmod(0o755)
    script = f"{NONCE}if test -e /opt/wire-a; then echo seen > first; fi\n{mark}\nls /opt > binds\n"
    done: list[dict[str, str]] = []
    for dest in ("/opt/wire-a", "/opt/wire-b"):
        request = BuildRequest(
            files={"compile.sh": script}, limits=LIMITS, binds={str(wire): dest},
            first_binds={}, timeout_s=30, log_chars=3000,
        )  # fmt: skip
        session, built = run_build(request)
        assert session is not None and built.succeeded, built.log
        with session:
            done.append({p: session.read_file(p) for p in session.list_files()})
        assert built.use.checkpoint == ("built" if dest.endswith("a") else "cached")
    assert done[0]["nonce"] == done[1]["nonce"]  # one first part for both
    assert "first" not in done[0]  # built without the binds
    assert done[0]["binds"] == "wire-a\n" and done[1]["binds"] == "wire-b\n"  # the rest: its own


def test_a_description_is_kept_by_the_tree_it_describes(cache: Path) -> None:
    from truepass.families.rebuild.submission import describe

    tree: dict[str, str | bytes] = {"compile.sh": "true\n", "a.py": "def f():\n    return 1\n"}
    assert buildcache.described(tree) == describe(tree)
    assert len(list((cache / "describe").iterdir())) == 1
    assert buildcache.described(tree) == describe(tree)  # read back
    other = {**tree, "b.c": "int g(void) { return 2; }\n"}
    assert buildcache.described(other) == describe(other) != describe(tree)
