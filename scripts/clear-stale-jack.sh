#!/usr/bin/env bash
# JACK's shared-memory registry has eight server slots. jack2 frees a slot
# when its server exits cleanly, or when a server of the same name starts
# again; a killed server keeps it. Test servers have unique names, so killed
# ones (a crashed test run) would fill the registry until no server starts
# ("Too many servers already active"). When no jackd runs at all every entry
# is stale, and before the tests start no process uses libjack, so JACK's
# shared memory can go: the next server makes it anew. With a jackd running
# nothing is touched.
set -euo pipefail
if pgrep -x jackd >/dev/null || pgrep -x jackdmp >/dev/null; then exit 0; fi
find /dev/shm -maxdepth 1 \( -name 'jack-shm-registry' -o -name 'jack_*' -o -name 'jack-*' \) -user "$(id -u)" -delete 2>/dev/null || true
