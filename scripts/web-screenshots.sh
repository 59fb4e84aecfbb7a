#!/usr/bin/env bash
# Takes the README's pictures of the --web page (docs/images/web-laptop.png,
# web-phone.png): a bundled preset on a private dummy JACK server, seen by
# headless Chromium at a laptop's and a phone's size. Needs a built fxhost
# (FXHOST, default .build/debug/fxhost) and scripts/install-deps.sh's browser.
set -euo pipefail
cd "$(dirname "$0")/.."
fxhost=${FXHOST:-.build/debug/fxhost}
patch=${1:-Presets/guitar-crunch.yaml}
server="fxhost-shots-$$"
mkdir -p docs/images
jackd --no-realtime -n "$server" -d dummy -r 48000 -p 256 >/dev/null 2>&1 &
jack=$!
trap 'kill "$jack" 2>/dev/null; wait "$jack" 2>/dev/null || true' EXIT
for _ in $(seq 100); do JACK_DEFAULT_SERVER="$server" jack_lsp >/dev/null 2>&1 && break; sleep 0.1; done
/usr/bin/python3 Tests/Browser/screenshots.py "$fxhost" "$server" "$patch" docs/images
echo "docs/images/web-laptop.png and docs/images/web-phone.png from $patch" >&2
