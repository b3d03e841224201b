#!/usr/bin/env python3
"""Post every example request in this folder to a running rules service and print each answer.

    python3 examples/run.py                                          # all of them, to http://127.0.0.1:8000
    python3 examples/run.py http://127.0.0.1:8000 ofcScoreHand ...   # only these operations

Without a URL it posts to ``$CARD_RULES_URL``, else to ``http://127.0.0.1:8000`` (where ``make run`` serves).

Each ``NAME.json`` here is the request example of the operation whose operationId is NAME in
openapi.yaml (a test keeps them equal). The script asks the service for its contract (``/openapi.json``)
to find each operation's path, so it needs nothing but Python 3 (standard library only). It exits
non-zero when a request fails or an answer is not 2xx.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import urllib.error
import urllib.request
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEFAULT_URL = "http://127.0.0.1:8000"


def fetch(url: str, body: bytes | None = None) -> tuple[int, bytes]:
    request = urllib.request.Request(url, data=body, method="POST" if body is not None else "GET")
    request.add_header("Accept", "application/json")
    if body is not None:
        request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:  # a 4xx/5xx still has a body worth showing
        return error.code, error.read()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("base_url", nargs="?", default=os.environ.get("CARD_RULES_URL") or DEFAULT_URL,
                        help=f"where the service listens (default: $CARD_RULES_URL, else {DEFAULT_URL})")
    parser.add_argument("operation_ids", nargs="*", help="only these examples (default: every one)")
    args = parser.parse_args(argv)
    if not args.base_url.startswith(("http://", "https://")):  # only operation ids: the default URL
        args.operation_ids.insert(0, args.base_url)
        args.base_url = os.environ.get("CARD_RULES_URL") or DEFAULT_URL
    base = args.base_url.rstrip("/")

    try:
        status, raw = fetch(base + "/openapi.json")
    except OSError as error:
        print(f"cannot reach {base}: {error}", file=sys.stderr)
        return 2
    if status != 200:
        print(f"{base}/openapi.json answered {status}", file=sys.stderr)
        return 2
    spec = json.loads(raw)
    routes = {op["operationId"]: (method.upper(), path)
              for path, item in spec["paths"].items() for method, op in item.items()}  # fmt: skip
    examples = {p.stem: p for p in HERE.glob("*.json")}
    wanted = args.operation_ids or [oid for oid in routes if oid in examples]  # in the contract's order
    unknown = [oid for oid in wanted if oid not in examples or oid not in routes]
    if unknown:
        print(f"no example or no such operation: {', '.join(unknown)}", file=sys.stderr)
        return 2

    print(f"{spec['info']['title']} at {base}: {len(wanted)} example requests from {HERE.name}/")
    answered = 0
    for operation_id in wanted:
        method, path = routes[operation_id]
        body = examples[operation_id].read_bytes()
        try:
            status, raw = fetch(base + path, body)
        except OSError as error:
            print(f"\n### {operation_id} {method} {path} -> failed: {error}")
            continue
        print(f"\n### {operation_id} {method} {path} -> {status}")
        try:
            print(json.dumps(json.loads(raw), indent=2, ensure_ascii=False))
        except ValueError:
            print(raw.decode("utf-8", "replace"))
        answered += 200 <= status < 300
    print(f"\n{len(wanted)} requests, {answered} answered 2xx")
    return 0 if answered == len(wanted) else 1


if __name__ == "__main__":
    sys.exit(main())
