#!/usr/bin/env bash
# Part of `make bench` (scripts/bench.sh calls it): --threads on a wide graph.
# Four parallel branches (swh gverb -> mda Ambience -> mda Delay) summed on a
# bus, 60 s of stereo: offline with 2 threads against 1 thread (median wall
# and CPU seconds of several alternating runs, the ratio, and whether the
# outputs are the same bits); then live on a private dummy JACK server at 128
# frames, 10 s each, JACK's DSP load with 2 threads and with 1.
set -euo pipefail
runs=${BENCH_RUNS:-5}
out=bench-out
fxhost=${FXHOST:-.build/release/fxhost}
mkdir -p "$out"
[ -f "$out/in.wav" ] || sox -q -n -r 48000 -c 2 -b 32 -e floating-point "$out/in.wav" synth 60 pinknoise gain -12

# The wide patch: `source` is a live input offline, the same file live.
wide_patch() {
  printf 'fxhost: 1\nnodes:\n  src: %s\n' "$1"
  for branch in 0 1 2 3; do
    printf '  verb%s: { plugin: swh-plugins/gverb, params: { roomsize: %s, revtime: %s } }\n' \
      "$branch" $((20 + 10 * branch)) $((2 + branch))
    printf '  room%s: { plugin: mda/Ambience, params: { size: 0.%s } }\n' "$branch" $((3 + branch))
    printf '  echo%s: { plugin: mda/Delay, params: { l_delay: 0.%s } }\n' "$branch" $((1 + branch))
  done
  printf '  bus: { mix: 2 }\n  main: { output: 2 }\nconnect:\n'
  for branch in 0 1 2 3; do
    printf '  - src:%s -> verb%s\n  - verb%s -> room%s\n  - room%s -> echo%s\n  - echo%s -> bus\n' \
      $((branch % 2 + 1)) "$branch" "$branch" "$branch" "$branch" "$branch" "$branch"
  done
  printf '  - bus -> main\n'
}
wide_patch '{ input: 2 }' > "$out/wide.yaml"
wide_patch "{ file: $PWD/$out/in.wav }" > "$out/wide-live.yaml"

seconds() {
  local TIMEFORMAT='%R %U %S'
  { time "$@" >/dev/null 2>&1; } 2>&1 | awk '{ print $1, $2 + $3 }'
}
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
column() { printf '%s' "$1" | awk -v c="$2" 'NF { print $c }' | median; }
render() { "$fxhost" render "$out/wide.yaml" -i "$out/in.wav" -o "$out/wide-$1.wav" --threads "$1" --tail 0 --quiet; }

declare -A times=()
for ((i = 0; i < runs; i++)); do
  for threads in 1 2; do times[$threads]+="$(seconds render "$threads")"$'\n'; done
done
one=$(column "${times[1]}" 1); one_cpu=$(column "${times[1]}" 2)
two=$(column "${times[2]}" 1); two_cpu=$(column "${times[2]}" 2)
same=$(cmp -s <(sox "$out/wide-1.wav" -t f32 - 2>/dev/null) <(sox "$out/wide-2.wav" -t f32 - 2>/dev/null) && echo identical || echo DIFFERENT)
printf 'fxhost threads: 4 branches (gverb, Ambience, Delay) on a bus, 60 s stereo, block 512, median of %s runs (wall / CPU seconds)\n' "$runs"
printf '  --threads 1   %6.3f / %6.3f\n' "$one" "$one_cpu"
printf '  --threads 2   %6.3f / %6.3f   %.3fx the wall time of 1 thread   (output vs 1 thread: %s)\n' \
  "$two" "$two_cpu" "$(awk "BEGIN { print $two / $one }")" "$same"

# Live workers are realtime threads at the callback's priority when the
# server runs realtime, as a live rig does: the server is started with -R
# where this user may (root, or an rtprio limit), else without, and says so.
live_seconds=${BENCH_LIVE_SECONDS:-10}
realtime=-R
probe="fxhost-bench-rtprobe-$$"
JACK_NO_AUDIO_RESERVATION=1 jackd -n "$probe" -R -d dummy -r 48000 -p 128 >"$out/jackd-rtprobe.log" 2>&1 &
probe_pid=$!
if ! jack_wait -s "$probe" -w -t 10 >/dev/null 2>&1 || grep -q "Cannot use real-time scheduling" "$out/jackd-rtprobe.log"; then
  realtime=-r
fi
kill "$probe_pid" 2>/dev/null; wait "$probe_pid" 2>/dev/null || true
mode=$([ "$realtime" = -R ] && echo "realtime (-R)" || echo "not realtime (no permission for -R)")
printf 'fxhost threads live: the same graph from the file on a dummy JACK server, %s, 128 frames, %s s each\n' "$mode" "$live_seconds"
printf '  %7s  %12s  %9s  %5s\n' threads "render µs/blk" "DSP load" xruns
jackd_pid=
trap '[ -z "$jackd_pid" ] || kill "$jackd_pid" 2>/dev/null || true' EXIT  # no server outlives a failed run
for threads in 1 2; do
  server="fxhost-bench-threads-$$-$threads"
  JACK_NO_AUDIO_RESERVATION=1 jackd -n "$server" "$realtime" -d dummy -r 48000 -p 128 >"$out/jackd-threads-$threads.log" 2>&1 &
  jackd_pid=$!
  jack_wait -s "$server" -w -t 10 >/dev/null 2>&1
  "$fxhost" run "$out/wide-live.yaml" --server "$server" --threads "$threads" --duration "${live_seconds}s" \
    --no-connect --quiet --json </dev/null >"$out/live-threads-$threads.json"
  kill "$jackd_pid"; wait "$jackd_pid" 2>/dev/null || true
  python3 - "$out/live-threads-$threads.json" "$threads" <<'PY'
import json, sys
status = json.load(open(sys.argv[1]))
print("  %7s  %12.2f  %8.1f%%  %5d" % (sys.argv[2], status["renderMicrosecondsPerCycle"],
      status["dspLoadPercent"], status["xruns"]))
PY
done
