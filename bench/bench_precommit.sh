#!/usr/bin/env bash
# The time of a first `pre-commit run` in a repository that uses rulelang's hooks: pre-commit clones
# the hook repository at REV and installs it (`pip install . ADDITIONAL_DEPENDENCIES`) into a new
# virtual environment, with an empty cache (PRE_COMMIT_HOME) each run.
#
#   bash bench/bench_precommit.sh [REPO [REV [RUNS]]]     (defaults: this checkout, HEAD, 3)
#
# Needs pre-commit (`pip install pre-commit`). Prints one line per run: wall, user and sys seconds
# (GNU time: the children's CPU included) and the load average before the run.
set -euo pipefail
REPO="$(cd "${1:-$(dirname "$0")/..}" && pwd)"
REV="$(git -C "$REPO" rev-parse "${2:-HEAD}")"
RUNS="${3:-3}"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

git init -q "$WORK/user"
cp "$REPO/rulesets/allfives.rules" "$WORK/user/club.rules"
cat > "$WORK/user/.pre-commit-config.yaml" <<YAML
repos:
  - repo: $REPO
    rev: $REV
    hooks:
      - id: rulelang-check
      - id: rulelang-fmt-check
YAML
git -C "$WORK/user" add -A
git -C "$WORK/user" -c user.name=bench -c user.email=bench@localhost commit -qm "a ruleset"

echo "pre-commit $(pre-commit --version | cut -d' ' -f2), hooks at ${REV:0:7}, $(nproc) cores"
for i in $(seq 1 "$RUNS"); do
  rm -rf "$WORK/cache"
  load="$(cut -d' ' -f1 /proc/loadavg)"
  (cd "$WORK/user" && PRE_COMMIT_HOME="$WORK/cache" /usr/bin/time -o "$WORK/time" -f "%e %U %S" \
     pre-commit run --all-files >"$WORK/out" 2>&1) || { cat "$WORK/out"; exit 1; }
  read -r wall user sys < "$WORK/time"
  echo "run $i: ${wall} s wall, ${user} s user, ${sys} s sys (load average before: $load)"
done
