#!/usr/bin/env bash
# Run the rulelang conformance suite against an engine in any CI (the plain-shell twin of action.yml).
#
#   ENGINE="./my-engine" bash conformance/ci-recipe.sh
#
# Environment (all optional but ENGINE):
#   ENGINE    the command that starts the engine (conformance/PROTOCOL.md); example-python or
#             example-js runs an example engine shipped with rulelang
#   VARIANTS  space-separated variants to run (default: all)
#   TAGS      space-separated feature tags every selected case must have
#   CASES     space-separated case folders instead of the shipped suite
#   STRICT    "true": skipped cases fail the run
#   OUT       where the reports go (default: ./rulelang-conformance)
#   RULELANG  what pip installs when `rulelang` is not on PATH (default: rulelang)
#   RULELANG_CMD  how to call rulelang (default: rulelang; e.g. "python -m rulelang" in a checkout)
# Writes $OUT/junit.xml and $OUT/report.json and exits with rulelang conform's status.
set -euo pipefail

: "${ENGINE:?set ENGINE to the command that starts your engine}"
OUT="${OUT:-rulelang-conformance}"
mkdir -p "$OUT"

RULELANG_CMD="${RULELANG_CMD:-rulelang}"
if [ "$RULELANG_CMD" = "rulelang" ] && ! command -v rulelang >/dev/null 2>&1; then
    python -m pip install --quiet "${RULELANG:-rulelang}"
fi

args=(conform --engine "$ENGINE" --junit "$OUT/junit.xml" --report "$OUT/report.json")
for v in ${VARIANTS:-}; do args+=(--variant "$v"); done
for t in ${TAGS:-}; do args+=(--tag "$t"); done
for c in ${CASES:-}; do args+=(--cases "$c"); done
if [ "${STRICT:-false}" = "true" ]; then args+=(--strict); fi

status=0
# shellcheck disable=SC2086  # RULELANG_CMD may be several words
$RULELANG_CMD "${args[@]}" || status=$?
if [ -n "${GITHUB_OUTPUT:-}" ]; then echo "junit=$OUT/junit.xml" >> "$GITHUB_OUTPUT"; fi
echo "reports: $OUT/junit.xml $OUT/report.json"
exit "$status"
