#!/usr/bin/env bash
# The soak (docs/testing.md): plays scripts/soak/soak.yaml (eleven plugins:
# a convolver with an impulse response, a sampler fed by a MIDI file, a
# reverb, taps, scenes) with `fxhost run --osc --watch` on a private dummy
# JACK server for DURATION, while scripts/soak/driver.py sends it random valid
# and invalid commands, 20 a second, and samples its memory, descriptors,
# threads, xruns and DSP load; scripts/soak/analyse.py then judges the samples
# and plots them. Fails, with one sentence, when memory grows after the
# warm-up, descriptors or threads leak, a valid command is refused or an
# invalid one accepted, or fxhost exits early or crashes.
#
#   scripts/soak.sh [--out DIR] [--interval SECONDS] [--seed N] DURATION
#
# DURATION is seconds, or minutes or hours with `m` or `h` (`120`, `90m`,
# `1h`). Samples are taken every 10 s, every 5 s in runs under ten minutes.
# The CSV, the plot (soak.png), the driver's counts and fxhost's output go to
# DIR (default .build/soak); the patch, its generated sound files and what
# fxhost records and bounces go to a scratch folder removed at the end.
# FXHOST names the fxhost binary (default .build/debug/fxhost, which
# `swift build --build-tests` makes for `make test`).
set -euo pipefail
cd "$(dirname "$0")/.."

out=.build/soak
interval=
seed=
duration=
while [ $# -gt 0 ]; do
  case "$1" in
    --out) out=$2; shift 2 ;;
    --interval) interval=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) [ -z "$duration" ] || { echo "soak: one DURATION only, not also \`$1\`" >&2; exit 2; }; duration=$1; shift ;;
  esac
done
if ! [[ "$duration" =~ ^[0-9]{1,6}[smh]?$ ]]; then
  echo "soak: DURATION is a number of seconds, or of minutes or hours (\`90m\`, \`1h\`): got \`$duration\`" >&2
  exit 2
fi
case "$duration" in
  *h) seconds=$(( ${duration%h} * 3600 )) ;;
  *m) seconds=$(( ${duration%m} * 60 )) ;;
  *s) seconds=${duration%s} ;;
  *) seconds=$duration ;;
esac
if [ "$seconds" -lt 60 ] || [ "$seconds" -gt 82800 ]; then
  # At most 23 hours: the patch's MIDI file lasts the run and two minutes, and fxhost takes none over a day.
  echo "soak: DURATION is from 60 s to 23 h: got \`$duration\`" >&2
  exit 2
fi
[ -n "$interval" ] || interval=$([ "$seconds" -ge 600 ] && echo 10 || echo 5)
# The warm-up: a quarter of the run, from 30 s to 10 minutes.
warmup=$(( seconds / 4 )); [ $warmup -ge 30 ] || warmup=30; [ $warmup -le 600 ] || warmup=600

fxhost=${FXHOST:-.build/debug/fxhost}
[ -x "$fxhost" ] || { echo "soak: no fxhost binary at $fxhost (build it with \`swift build\`, or set FXHOST)" >&2; exit 2; }
for tool in jackd jack_wait sox python3; do
  command -v "$tool" >/dev/null || { echo "soak: \`$tool\` is missing (scripts/install-deps.sh installs it)" >&2; exit 2; }
done
python3 -c 'import pythonosc, mido, matplotlib' 2>/dev/null \
  || { echo "soak: python-osc, mido and matplotlib are needed (scripts/install-deps.sh installs them)" >&2; exit 2; }

# The criteria first, on made-up samples: a soak whose judge is wrong proves nothing.
python3 scripts/soak/test_analyse.py

mkdir -p "$out"
out=$(cd "$out" && pwd)
rm -f "$out"/samples.csv "$out"/driver.json "$out"/soak.png "$out"/fxhost.out "$out"/fxhost.err "$out"/jackd.log
scratch=$(mktemp -d "${TMPDIR:-/tmp}/fxhost-soak.XXXXXX")
server=fxhost-soak-$$
jackd_pid=
fxhost_pid=
driver_pid=

# Stops fxhost, then the server, gently: a jackd killed keeps its slot in
# JACK's registry (scripts/clear-stale-jack.sh). On every way out.
stop_all() {
  if [ -n "$driver_pid" ]; then
    kill -TERM "$driver_pid" 2>/dev/null || true   # it writes its counts, then exits
    wait "$driver_pid" 2>/dev/null || true
  fi
  if [ -n "$fxhost_pid" ] && kill -0 "$fxhost_pid" 2>/dev/null; then
    kill -TERM "$fxhost_pid" 2>/dev/null || true
    for _ in $(seq 300); do kill -0 "$fxhost_pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$fxhost_pid" 2>/dev/null || true
    wait "$fxhost_pid" 2>/dev/null || true
  fi
  if [ -n "$jackd_pid" ] && kill -0 "$jackd_pid" 2>/dev/null; then
    kill -TERM "$jackd_pid" 2>/dev/null || true
    for _ in $(seq 150); do kill -0 "$jackd_pid" 2>/dev/null || break; sleep 0.1; done
    if kill -0 "$jackd_pid" 2>/dev/null; then
      kill -KILL "$jackd_pid" 2>/dev/null || true
      wait "$jackd_pid" 2>/dev/null || true
      # A server of the same name takes the killed one's slot over and gives it back.
      JACK_NO_AUDIO_RESERVATION=1 jackd -n "$server" -r -d dummy >/dev/null 2>&1 &
      local again=$!
      jack_wait -s "$server" -w -t 10 >/dev/null 2>&1 || true
      kill -TERM "$again" 2>/dev/null || true
      wait "$again" 2>/dev/null || true
    fi
    wait "$jackd_pid" 2>/dev/null || true
  fi
  rm -f /dev/shm/jack_sem."$(id -u)"_"$server"_* 2>/dev/null || true
  rm -rf "$scratch"
}
trap stop_all EXIT
trap 'exit 130' INT TERM HUP

# The patch and the files it names, as long as the run (and then some: a
# bounce pauses the file sources, and the patch's tap must not end early).
length=$(( seconds + 120 ))
cp scripts/soak/soak.yaml "$scratch"/soak.yaml
mkdir "$scratch"/takes
sox -D -q -n -r 48000 -c 1 -b 16 "$scratch"/loop.flac synth "$length" sine 110 sine 165 remix - gain -12
sox -q -n -r 48000 -c 1 -b 24 "$scratch"/ir-a.wav synth 0.25 whitenoise fade q 0 0.25 0.25 gain -24
sox -q -n -r 48000 -c 1 -b 24 "$scratch"/ir-b.wav synth 0.5 pinknoise fade q 0 0.5 0.5 gain -24
sox -q -n -r 48000 -c 1 -b 16 "$scratch"/pluck-a.wav synth 0.6 pluck A3 gain -6
sox -q -n -r 48000 -c 1 -b 16 "$scratch"/pluck-b.wav synth 0.4 pluck E4 gain -6
cp "$scratch"/pluck-a.wav "$scratch"/exists.wav          # what a bounce must not replace unforced
python3 scripts/soak/make_notes.py "$length" "$scratch"/notes.mid

launcher=()
[ -x /usr/bin/setpriv ] && launcher=(/usr/bin/setpriv --pdeathsig TERM --)  # neither outlives this script
JACK_NO_AUDIO_RESERVATION=1 "${launcher[@]}" jackd -n "$server" -r -d dummy -r 48000 -p 256 >"$out"/jackd.log 2>&1 &
jackd_pid=$!
jack_wait -s "$server" -w -t 10 >/dev/null 2>&1 || { echo "soak: jackd did not start (see $out/jackd.log)" >&2; exit 1; }

port=$(python3 -c 'import socket; s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"${launcher[@]}" "$fxhost" run "$scratch"/soak.yaml --server "$server" --osc "127.0.0.1:$port" --watch --quiet --json \
  </dev/null >"$out"/fxhost.out 2>"$out"/fxhost.err &
fxhost_pid=$!

echo "soak: $seconds s of scripts/soak/soak.yaml on $server, warm-up $warmup s, a sample every $interval s; output in $out" >&2
# In the background, so that a signal to this script is handled at once (`wait` returns for it).
python3 scripts/soak/driver.py --port "$port" --pid "$fxhost_pid" --patch "$scratch"/soak.yaml \
  --duration "$seconds" --warmup "$warmup" --interval "$interval" ${seed:+--seed "$seed"} \
  --csv "$out"/samples.csv --summary "$out"/driver.json &
driver_pid=$!
driver_status=0
wait "$driver_pid" || driver_status=$?
driver_pid=

# After `quit`, fxhost finalises its taps and exits 0.
fxhost_status=
# (Status 3: the driver stopped before `quit`, as fxhost stopped answering.)
if [ "$driver_status" != 3 ]; then
  for _ in $(seq 600); do kill -0 "$fxhost_pid" 2>/dev/null || break; sleep 0.1; done
fi
if ! kill -0 "$fxhost_pid" 2>/dev/null; then
  wait "$fxhost_pid" && fxhost_status=0 || fxhost_status=$?
  fxhost_pid=
fi

analysis_status=0
python3 scripts/soak/analyse.py "$out"/samples.csv --summary "$out"/driver.json --png "$out"/soak.png \
  || analysis_status=$?
[ -f "$out"/soak.png ] && echo "soak: plot: $out/soak.png" >&2

failure=
stopped=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1])).get("stopped") or "")' "$out"/driver.json 2>/dev/null || true)
if grep -q "Program crashed" "$out"/fxhost.err 2>/dev/null; then
  failure="fxhost crashed ($(grep -m 1 "Program crashed" "$out"/fxhost.err | tr -d '*' | sed 's/^ *//; s/ *$//'); see $out/fxhost.err)"
elif [ -n "$fxhost_status" ] && [ "$fxhost_status" != 0 ]; then
  failure="fxhost exited with status $fxhost_status (see $out/fxhost.err)"
elif [ -n "$stopped" ]; then
  failure="$stopped"
elif [ -z "$fxhost_status" ]; then
  failure="fxhost did not exit within 60 s of \`quit\`"
fi
if [ -n "$failure" ]; then
  echo "soak: FAILED: $failure" >&2
  exit 1
fi
# Otherwise analyse.py's last line said whether the soak passed, and why not.
[ "$driver_status" = 0 ] && [ "$analysis_status" = 0 ]
