#!/usr/bin/env python3
"""Write the bundled ``review-mini`` suite (``src/truepass/suites/bundled/review-mini``).

Eighteen small changes to three invented Python projects (``ledger``, ``webhooks``,
``textkit``), half accepted and half rejected, each with the files it touches before the change,
a description, a review dialogue with its turning point, and a timestamp. Everything here was
written for truepass's tests and demo: no review comes from a real project. The diffs are
computed with :mod:`difflib` from the before and after text below, so they always apply.

Usage::

    python scripts/build_review_mini.py            # write the suite
    python scripts/build_review_mini.py --check    # exit 1 if the bundled files differ
"""

from __future__ import annotations

import argparse
import difflib
import json
import sys
from pathlib import Path

from truepass.families.review.schema import ReviewSample

OUT = Path(__file__).resolve().parents[1] / "src/truepass/suites/bundled/review-mini"
SOURCE = "written for truepass's tests and demo (scripts/build_review_mini.py)"
TOML = """name = "review-mini"
version = "1.0.0"
description = "Small code reviews written by us: 18 changes to 3 invented projects, half accepted"
"""

R, A = "reviewer", "author"

# (id, project, path, before, after, description, decision, [(role, text, turning point)], when)
CHANGES: list[tuple[str, str, str, str, str, str, str, list[tuple[str, str, bool]], str]] = [
    (
        "ledger-1",
        "ledger",
        "ledger/money.py",
        "def to_cents(amount):\n    return int(amount * 100)\n",
        "from decimal import ROUND_HALF_UP, Decimal\n\n\ndef to_cents(amount):\n"
        "    value = Decimal(str(amount)) * 100\n"
        '    return int(value.quantize(Decimal("1"), rounding=ROUND_HALF_UP))\n',
        "Round amounts to the nearest cent instead of truncating (19.99 became 1998 cents).",
        "accept",
        [
            (R, "Good catch on the float truncation. Could you add a test for 19.99?", False),
            (A, "Added test_to_cents_rounds_half_up covering 19.99 and 0.005.", False),
            (R, "Thanks, the rounding mode matches what finance asked for. Approving.", True),
        ],
        "2024-01-10T09:12:00+00:00",
    ),
    (
        "ledger-2",
        "ledger",
        "ledger/accounts.py",
        "class Account:\n    def __init__(self, owner):\n        self.owner = owner\n"
        "        self.balance = 0\n\n    def withdraw(self, amount):\n"
        '        if amount > self.balance:\n            raise ValueError("insufficient funds")\n'
        "        self.balance -= amount\n",
        "class Account:\n    def __init__(self, owner):\n        self.owner = owner\n"
        "        self.balance = 0\n\n    def withdraw(self, amount):\n"
        "        self.balance -= amount\n",
        "Allow overdrafts: remove the balance check in withdraw so card payments never fail.",
        "reject",
        [
            (R, "This silently lets every account go negative, including savings accounts.", True),
            (A, "Card payments were failing for customers with pending deposits.", False),
            (
                R,
                "Then we need an explicit overdraft limit per account, not no check at all.",
                False,
            ),
        ],
        "2024-01-22T14:30:00+00:00",
    ),
    (
        "ledger-3",
        "ledger",
        "ledger/report.py",
        "def total(entries):\n    result = 0\n    for e in entries:\n"
        "        result = result + e.amount\n    return result\n",
        "def total(entries):\n    return sum(e.amount for e in entries)\n",
        "Simplify total() with sum(); behaviour unchanged.",
        "accept",
        [
            (R, "Nice simplification, and the existing report tests still cover it.", True),
            (A, "Yes, test_report_totals passes locally and in CI.", False),
        ],
        "2024-02-03T11:00:00+00:00",
    ),
    (
        "ledger-4",
        "ledger",
        "ledger/money.py",
        'def parse_amount(text):\n    return float(text.replace(",", ""))\n',
        'def parse_amount(text):\n    try:\n        return float(text.replace(",", ""))\n'
        "    except Exception:\n        return 0.0\n",
        "Make parse_amount tolerant: return 0.0 for anything that does not parse.",
        "reject",
        [
            (R, "Swallowing every exception turns a typo in an invoice into a zero amount.", True),
            (A, "The importer crashes on a single bad row, which blocks the whole batch.", False),
            (R, "Please collect the bad rows and report them instead of hiding them as 0.", False),
        ],
        "2024-02-19T16:45:00+00:00",
    ),
    (
        "ledger-5",
        "ledger",
        "ledger/accounts.py",
        "def find_account(accounts, owner):\n    for a in accounts:\n"
        "        if a.owner == owner:\n            return a\n",
        "def find_account(accounts, owner):\n    for a in accounts:\n"
        "        if a.owner == owner:\n            return a\n"
        '    raise KeyError(f"no account for {owner!r}")\n',
        "Raise KeyError from find_account when the owner has no account instead of None.",
        "accept",
        [
            (R, "Callers in billing.py check for None; did you update them?", False),
            (A, "Updated both callers to catch KeyError, see the second commit.", False),
            (R, "Looks right now, and the error message names the owner. Merging.", True),
        ],
        "2024-03-05T10:20:00+00:00",
    ),
    (
        "ledger-6",
        "ledger",
        "ledger/report.py",
        "def monthly(entries, month):\n    return [e for e in entries if e.month == month]\n",
        "import pandas as pd\n\n\ndef monthly(entries, month):\n"
        "    frame = pd.DataFrame([vars(e) for e in entries])\n"
        '    return frame[frame.month == month].to_dict("records")\n',
        "Use pandas for the monthly report filter.",
        "reject",
        [
            (R, "Pulling in pandas for a one-line filter adds a heavy dependency.", True),
            (A, "I thought we might need grouping later.", False),
            (R, "Let's add it when we do; the list comprehension is clearer for now.", False),
        ],
        "2024-03-18T13:05:00+00:00",
    ),
    (
        "webhooks-1",
        "webhooks",
        "webhooks/sign.py",
        "import hashlib\nimport hmac\n\n\ndef verify(secret, body, signature):\n"
        "    digest = hmac.new(secret, body, hashlib.sha256).hexdigest()\n"
        "    return digest == signature\n",
        "import hashlib\nimport hmac\n\n\ndef verify(secret, body, signature):\n"
        "    digest = hmac.new(secret, body, hashlib.sha256).hexdigest()\n"
        "    return hmac.compare_digest(digest, signature)\n",
        "Compare webhook signatures in constant time.",
        "accept",
        [
            (R, "compare_digest is exactly what we want here to avoid timing leaks.", True),
            (A, "I also checked that the signature header is always a str.", False),
        ],
        "2024-01-15T08:40:00+00:00",
    ),
    (
        "webhooks-2",
        "webhooks",
        "webhooks/deliver.py",
        "import requests\n\n\ndef deliver(url, payload):\n"
        "    return requests.post(url, json=payload, timeout=10)\n",
        "import requests\n\n\ndef deliver(url, payload):\n"
        "    return requests.post(url, json=payload, verify=False)\n",
        "Disable TLS verification so deliveries to our staging hosts stop failing.",
        "reject",
        [
            (
                R,
                "Turning off certificate checks for every customer endpoint is not acceptable.",
                True,
            ),
            (A, "Staging uses self-signed certificates and deliveries fail there.", False),
            (
                R,
                "Point REQUESTS_CA_BUNDLE at the staging CA instead; also the timeout got lost.",
                False,
            ),
        ],
        "2024-02-01T12:15:00+00:00",
    ),
    (
        "webhooks-3",
        "webhooks",
        "webhooks/deliver.py",
        "import time\n\n\ndef retry(send, attempts=3):\n    for i in range(attempts):\n"
        "        if send():\n            return True\n        time.sleep(1)\n    return False\n",
        "import time\n\n\ndef retry(send, attempts=3, base_delay=1.0):\n"
        "    for i in range(attempts):\n        if send():\n            return True\n"
        "        time.sleep(base_delay * 2**i)\n    return False\n",
        "Back off exponentially between delivery retries.",
        "accept",
        [
            (R, "Should the delay be capped? With many attempts this grows quickly.", False),
            (A, "attempts is at most 5 in our config, so the worst case is 16 seconds.", False),
            (R, "Fair enough, fine with the default base delay. Approved.", True),
        ],
        "2024-02-20T15:30:00+00:00",
    ),
    (
        "webhooks-4",
        "webhooks",
        "webhooks/events.py",
        'EVENTS = {"created", "updated", "deleted"}\n\n\ndef validate(event):\n'
        '    if event["type"] not in EVENTS:\n'
        "        raise ValueError(f\"unknown event {event['type']}\")\n",
        'EVENTS = {"created", "updated", "deleted"}\n\n\ndef validate(event):\n    pass\n',
        "Stop validating event types; the producer already validates them.",
        "reject",
        [
            (R, "We also receive events from the legacy producer, which does not validate.", True),
            (A, "I did not know the legacy producer still sends to this endpoint.", False),
        ],
        "2024-03-02T09:00:00+00:00",
    ),
    (
        "webhooks-5",
        "webhooks",
        "webhooks/events.py",
        'def event_id(event):\n    return event["id"]\n',
        'def event_id(event):\n    """The event\'s id, as a string (producers send ints too)."""\n'
        '    return str(event["id"])\n',
        "Normalise event ids to strings so deduplication works for integer ids.",
        "accept",
        [
            (
                R,
                "Duplicate deliveries with id 42 and '42' explain the double charges we saw.",
                False,
            ),
            (A, "Yes, that is the bug report from last week; added a regression test.", False),
            (R, "Small, well-tested and it fixes the incident. Ship it.", True),
        ],
        "2024-03-21T17:10:00+00:00",
    ),
    (
        "webhooks-6",
        "webhooks",
        "webhooks/sign.py",
        "import hashlib\nimport hmac\n\n\ndef sign(secret, body):\n"
        "    return hmac.new(secret, body, hashlib.sha256).hexdigest()\n",
        "import hashlib\n\n\ndef sign(secret, body):\n"
        "    return hashlib.md5(secret + body).hexdigest()\n",
        "Switch signatures to md5, which is faster.",
        "reject",
        [
            (
                R,
                "md5 over secret plus body is not a MAC and breaks every existing subscriber.",
                True,
            ),
            (A, "Signing showed up in the profile, but I see the compatibility problem.", False),
            (R, "Signing is microseconds per request; the profile hotspot is elsewhere.", False),
        ],
        "2024-04-04T10:45:00+00:00",
    ),
    (
        "textkit-1",
        "textkit",
        "textkit/slug.py",
        'def slugify(text):\n    return text.lower().replace(" ", "-")\n',
        'import re\n\n\ndef slugify(text):\n    text = re.sub(r"[^a-z0-9]+", "-", text.lower())\n'
        '    return text.strip("-")\n',
        "Make slugify drop punctuation and collapse repeated separators.",
        "accept",
        [
            (R, "Non-ASCII letters now disappear entirely; is that intended?", False),
            (A, "Yes, the URLs must be ASCII; transliteration is a separate issue.", False),
            (R, "OK, please link that issue in the docstring later. Approving this one.", True),
        ],
        "2024-01-08T14:00:00+00:00",
    ),
    (
        "textkit-2",
        "textkit",
        "textkit/wrap.py",
        "import textwrap\n\n\ndef wrap(text, width=72):\n"
        '    return "\\n".join(textwrap.wrap(text, width))\n',
        'def wrap(text, width=72):\n    lines, line = [], ""\n    for word in text.split():\n'
        "        if len(line) + len(word) > width:\n            lines.append(line)\n"
        '            line = ""\n        line += word + " "\n    lines.append(line)\n'
        '    return "\\n".join(lines)\n',
        "Replace textwrap with our own wrapping loop.",
        "reject",
        [
            (R, "The new loop leaves trailing spaces and emits an empty first line.", True),
            (A, "I wanted to avoid the import, textwrap felt slow.", False),
            (R, "textwrap is in the standard library and handles these cases; keep it.", False),
        ],
        "2024-01-29T11:25:00+00:00",
    ),
    (
        "textkit-3",
        "textkit",
        "textkit/count.py",
        'def word_count(text):\n    return len(text.split(" "))\n',
        "def word_count(text):\n    return len(text.split())\n",
        "Count words separated by any whitespace; empty text has 0 words.",
        "accept",
        [
            (R, "split() without an argument also fixes the empty-string case. Approved.", True),
            (A, "Added the empty string and the double-space cases to the tests.", False),
        ],
        "2024-02-12T09:50:00+00:00",
    ),
    (
        "textkit-4",
        "textkit",
        "textkit/count.py",
        "def char_count(text):\n    return len(text)\n",
        'def char_count(text):\n    return len(text.encode("utf-8"))\n',
        "Count characters as UTF-8 bytes.",
        "reject",
        [
            (R, "This changes the meaning: callers want characters, not bytes, for limits.", True),
            (A, "The database column limit is in bytes, though.", False),
            (R, "Then add a separate byte_count for that and keep char_count as it is.", False),
        ],
        "2024-02-27T16:00:00+00:00",
    ),
    (
        "textkit-5",
        "textkit",
        "textkit/slug.py",
        "def unique_slug(slug, taken):\n    n = 1\n    candidate = slug\n"
        '    while candidate in taken:\n        candidate = f"{slug}-{n}"\n'
        "        n += 1\n    return candidate\n",
        "def unique_slug(slug, taken):\n    n = 2\n    candidate = slug\n"
        '    while candidate in taken:\n        candidate = f"{slug}-{n}"\n'
        "        n += 1\n    return candidate\n",
        "Number duplicate slugs from 2, so the second 'post' is 'post-2'.",
        "accept",
        [
            (R, "Matches how the CMS numbers pages; the old post-1 looked like the first.", True),
            (A, "Existing slugs are stored, so nothing already published changes.", False),
        ],
        "2024-03-14T12:35:00+00:00",
    ),
    (
        "textkit-6",
        "textkit",
        "textkit/wrap.py",
        'def indent(text, prefix="    "):\n'
        '    return "\\n".join(prefix + line for line in text.splitlines())\n',
        'def indent(text, prefix="    "):\n'
        '    return "\\n".join(prefix + line for line in text.splitlines())\n\n\n'
        "def dedent(text):\n    return text\n",
        "Add dedent() (stub for now, implementation to follow).",
        "reject",
        [
            (R, "A dedent that returns its input unchanged will be used and silently wrong.", True),
            (A, "I planned to finish it in the next pull request.", False),
            (R, "Please send it together with the implementation and its tests.", False),
        ],
        "2024-04-02T15:15:00+00:00",
    ),
]


def unified(path: str, before: str, after: str) -> str:
    lines = difflib.unified_diff(
        before.splitlines(keepends=True), after.splitlines(keepends=True), f"a/{path}", f"b/{path}"
    )
    return "".join(lines)


def build() -> tuple[str, str]:
    out = []
    for cid, project, path, before, after, description, decision, turns, when in CHANGES:
        line = {
            "family": "review",
            "id": cid,
            "project": project,
            "change": {"diff": unified(path, before, after), "files": {path: before}},
            "description": description,
            "decision": decision,
            "dialogue": [{"role": r, "text": t, "turning_point": tp} for r, t, tp in turns],
            "timestamp": when,
            "source": SOURCE,
            "leakage": "private",
        }
        ReviewSample.model_validate(line)
        out.append(json.dumps(line, sort_keys=True))
    return "\n".join(out) + "\n", TOML


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare instead of writing")
    args = parser.parse_args()
    jsonl, toml = build()
    if args.check:
        same = (OUT / "suite.jsonl").read_text(encoding="utf-8") == jsonl and (
            OUT / "suite.toml"
        ).read_text(encoding="utf-8") == toml
        print("up to date" if same else f"{OUT} differs from what the script builds")
        return 0 if same else 1
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "suite.jsonl").write_text(jsonl, encoding="utf-8")
    (OUT / "suite.toml").write_text(toml, encoding="utf-8")
    print(f"wrote {len(CHANGES)} changes to {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
