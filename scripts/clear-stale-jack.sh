#!/usr/bin/env bash
# JACK's shared-memory registry has eight server slots. jack2 frees a slot
# when its server exits cleanly, or when a server of the same name starts
# again; a killed server keeps it. Test servers have unique names, so killed
# ones (a crashed test run) would fill the registry until no server starts
# ("Too many servers already active"). The tests stop their servers gently
# and check that they do (JackServerSlotTests); this is the guard `make test`
# runs first, for what a crashed run or an older checkout left behind.
#
# When no jackd runs at all every entry is stale, and before the tests start
# no process uses libjack, so JACK's shared memory can go: the next server
# makes it anew. With a jackd running (another checkout's tests, the user's
# own server) only the slots of fxhost's own servers (named fxhost-…) whose
# process is gone are freed, the way jack2 allows: a server of the same name
# starts, takes the dead one's slot over, and stops cleanly.
set -euo pipefail
if ! pgrep -x jackd >/dev/null && ! pgrep -x jackdmp >/dev/null; then
  find /dev/shm -maxdepth 1 \( -name 'jack-shm-registry' -o -name 'jack_*' -o -name 'jack-*' \) -user "$(id -u)" -delete 2>/dev/null || true
  exit 0
fi

registry=/dev/shm/jack-shm-registry
[ -r "$registry" ] || exit 0
# jack2 1.9.21's layout (its shm.h): the magic "JACK" (0x4a41434b) first and
# the header's length (2136) at byte 16; the eight slots from byte 24, 264
# bytes each: the server's pid (32 bits), then its name `jack-UID:SERVER:`.
# Any other layout is left alone.
[ "$(od -A n -t x4 -N 4 "$registry" | tr -d ' ')" = 4a41434b ] || exit 0
[ "$(od -A n -t u4 -j 16 -N 4 "$registry" | tr -d ' ')" = 2136 ] || exit 0
uid=$(id -u)
launcher=()
[ -x /usr/bin/setpriv ] && launcher=(/usr/bin/setpriv --pdeathsig TERM --)  # no server outlives this script
for slot in 0 1 2 3 4 5 6 7; do
  offset=$((24 + slot * 264))
  pid=$(od -A n -t d4 -j "$offset" -N 4 "$registry" | tr -d ' ')
  [ "$pid" != 0 ] && [ ! -e "/proc/$pid" ] || continue
  name=$(dd if="$registry" bs=1 skip=$((offset + 4)) count=257 status=none | tr '\0' '\n' | head -n 1)
  server=${name#"jack-$uid:"}
  server=${server%:}
  [ "$server" != "$name" ] && [[ "$server" =~ ^fxhost-[A-Za-z0-9._-]+$ ]] || continue
  JACK_NO_AUDIO_RESERVATION=1 "${launcher[@]}" jackd -n "$server" -r -d dummy >/dev/null 2>&1 &
  jackd_pid=$!
  jack_wait -s "$server" -w -t 10 >/dev/null 2>&1 || true
  kill -TERM "$jackd_pid" 2>/dev/null || true
  wait "$jackd_pid" || true
  echo "clear-stale-jack: freed the JACK registry slot of $server (its jackd, pid $pid, is gone)" >&2
done
