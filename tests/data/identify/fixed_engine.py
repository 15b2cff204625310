#!/usr/bin/env python3
"""A conformance engine that plays one fixed variant, made from another engine: identify's test engines.

    fixed_engine.py [--plays CONFIG.json] [--set PATH=JSON]... [--variant NAME] -- ENGINE COMMAND...

It starts ENGINE COMMAND (an engine that reads the configuration of each case,
such as the example engines) and passes every line on, but it rewrites the
configuration of each `run` request: replaced by CONFIG.json (`--plays`), then
each `--set` applied (a dotted path into the JSON, a list index as a number:
`settlement.block.terms.0.pooling="pooled"`). The engine so plays that
variant whatever a case asks. `--variant NAME` adds `implementation.variant`
(the variant it claims to play) to the `start` answer. Standard library only.
"""
from __future__ import annotations

import json
import subprocess
import sys


def options(argv: list[str]) -> tuple[dict | None, list[tuple[list[str], object]], str | None, list[str]]:
    plays, sets, variant = None, [], None
    args = list(argv)
    while args:
        a = args.pop(0)
        if a == "--":
            return plays, sets, variant, args
        if a == "--plays":
            with open(args.pop(0), encoding="utf-8") as f:
                plays = json.load(f)
        elif a == "--set":
            path, _, value = args.pop(0).partition("=")
            sets.append((path.split("."), json.loads(value)))
        elif a == "--variant":
            variant = args.pop(0)
    raise SystemExit("usage: fixed_engine.py [--plays CONFIG.json] [--set PATH=JSON]... [--variant NAME] -- ENGINE...")


def put(config: dict, path: list[str], value: object) -> None:
    node = config
    for key in path[:-1]:
        node = node[int(key)] if isinstance(node, list) else node.setdefault(key, {})
    if isinstance(node, list):
        node[int(path[-1])] = value
    else:
        node[path[-1]] = value


def main(argv: list[str]) -> int:
    plays, sets, variant, command = options(argv)
    inner = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    for line in sys.stdin:
        req = json.loads(line)
        if req.get("cmd") == "run" and isinstance(req.get("case"), dict):
            config = json.loads(json.dumps(plays if plays is not None else req["case"]["config"]))
            for path, value in sets:
                put(config, path, value)
            req["case"]["config"] = config
        inner.stdin.write(json.dumps(req) + "\n")
        inner.stdin.flush()
        if req.get("cmd") == "stop":
            break
        answer = inner.stdout.readline()
        if not answer:
            return 1
        if req.get("cmd") == "start":
            hello = json.loads(answer)
            hello.setdefault("implementation", {})["name"] = "fixed"
            if variant is not None:
                hello["implementation"]["variant"] = variant
            answer = json.dumps(hello) + "\n"
        sys.stdout.write(answer)
        sys.stdout.flush()
    inner.wait(timeout=5)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
