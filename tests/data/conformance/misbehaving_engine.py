#!/usr/bin/env python3
"""An engine that breaks the protocol in one way, on every case it is sent, whatever the tile set.

    python misbehaving_engine.py MODE

MODE: hang, crash, garbage, huge, wrongseq, twokeys, version, errored, badstart. It claims every
feature and configuration (no `capabilities`), so the runner sends it every case; each case then
ends in the error PROTOCOL.md section 4 names for MODE. Standard library only.
"""
from __future__ import annotations

import json
import sys
import time

MAX_LINE = 8 * 1024 * 1024  # PROTOCOL.md 4: a longer line is "oversized"


def answer(obj: object) -> None:
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def main(mode: str) -> int:
    for line in sys.stdin:
        req = json.loads(line)
        if req["cmd"] == "start":
            if mode == "badstart":
                answer({"version": 1, "implementation": "not an object", "capabilities": {}})
            else:
                answer({"version": 99 if mode == "version" else 1,
                        "implementation": {"name": "misbehaving", "version": "0"}, "capabilities": {}})
        elif req["cmd"] == "stop":
            return 0
        elif mode == "hang":
            time.sleep(600)
        elif mode == "crash":
            return 3
        elif mode == "garbage":
            sys.stdout.write("this is not JSON\n")
            sys.stdout.flush()
        elif mode == "huge":
            sys.stdout.write('{"seq": 0, "x": "' + "x" * (MAX_LINE + 1) + '"}\n')
            sys.stdout.flush()
        elif mode == "wrongseq":
            answer({"seq": req["seq"] + 1, "result": {"steps": []}})
        elif mode == "twokeys":
            answer({"seq": req["seq"], "result": {"steps": []}, "errored": {"message": "both"}})
        else:  # errored: the engine's own failure
            answer({"seq": req["seq"], "errored": {"message": "the engine failed", "kind": "engine"}})
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
