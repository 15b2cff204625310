#!/bin/sh
# Bundle the playground's script into rulelang/playground/static/ (committed, shipped in the wheel).
# The page and its style (index.html, playground.css) are stored there only, as they are served.
# Needs node and npm once: `npm ci && sh build.sh` (or `npm run build`).
set -eu
cd "$(dirname "$0")"
OUT=../rulelang/playground/static
[ -d node_modules ] || npm ci --no-audit --no-fund
mkdir -p "$OUT"
npx esbuild src/main.js --bundle --minify --format=esm --target=es2020 \
  --legal-comments=none --metafile=meta.json --outfile="$OUT/playground.js"
node notices.js meta.json > "$OUT/THIRD-PARTY.txt"
rm -f meta.json
echo "built $OUT: $(wc -c < "$OUT/playground.js") bytes of JavaScript"
