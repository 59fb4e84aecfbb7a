#!/usr/bin/env bash
# `make bench`: 60 s of stereo through a 5-plugin chain, timed three ways in
# one run at each block size (64, 256 and 512 frames: host overhead per block
# shows at small blocks): fxhost render, the floor (bench/floor.c: a bare loop
# calling the same plugins' run() with the same libsndfile I/O) and ecasound.
# Prints the median wall time of each over several alternating runs, and the ratios.
# Every parameter is given explicitly, because ecasound does not apply the
# plugins' defaults. Timing is for this machine only: rerun to compare.
# Last, scripts/startup.sh breaks a short render's start-up down (a few seconds).
set -euo pipefail
runs=${BENCH_RUNS:-5}
blocks=${BENCH_BLOCKS:-64 256 512}
out=bench-out
mkdir -p "$out"
fxhost=${FXHOST:-.build/release/fxhost}

cc -O2 -o "$out/floor" bench/floor.c $(pkg-config --cflags --libs lilv-0 sndfile)
[ -f "$out/in.wav" ] || sox -q -n -r 48000 -c 2 -b 32 -e floating-point "$out/in.wav" synth 60 pinknoise gain -12

# URI and its control inputs in port order, as name=value.
mda=http://drobilla.net/plugins/mda
chain=(
  "$mda/Overdrive drive=0.5 muffle=0.2 output=0.5"
  "$mda/DeEss thresh=0.45 freq=0.6 hf_drive=0.5"
  "$mda/Delay l_delay=0.3 r_delay=0.2 feedback=0.4 fb_tone=0.5 fx_mix=0.3 output=0.5"
  "http://plugin.org.uk/swh-plugins/sc4 rms_peak=0 attack=10 release=150 threshold=-18 ratio=3 knee=3.25 makeup_gain=4"
  "$mda/Ambience size=0.6 hf_damp=0.7 mix=0.4 output=0.5"
)
fxhost_chain=$(printf '%s ! ' "${chain[@]}"); fxhost_chain=${fxhost_chain% ! }
floor_args=(); ecasound_args=()
for stage in "${chain[@]}"; do
  read -r uri settings <<<"$stage"
  [ ${#floor_args[@]} -gt 0 ] && floor_args+=("!")
  floor_args+=("$uri" $settings)
  values=$(for setting in $settings; do printf ',%s' "${setting#*=}"; done)
  ecasound_args+=("-elv2:$uri$values")
done

run_fxhost()   { "$fxhost" render --chain "$fxhost_chain" -i "$out/in.wav" -o "$out/fxhost.wav" --block "$block" --tail 0 --quiet; }
run_floor()    { "$out/floor" "$out/in.wav" "$out/floor.wav" "$block" "${floor_args[@]}"; }
run_ecasound() { ecasound -q -b:"$block" -f:f32_le,2,48000 -i "$out/in.wav" -o "$out/ecasound.wav" "${ecasound_args[@]}" >/dev/null; }

# Wall seconds and CPU seconds (user + system) of one run, as "wall cpu".
seconds() {
  local TIMEFORMAT='%R %U %S'
  { time "$@" >/dev/null 2>&1; } 2>&1 | awk '{ print $1, $2 + $3 }'
}
ratio() { awk "BEGIN { print $1 / $2 }"; }
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
column() { printf '%s' "$1" | awk -v c="$2" 'NF { print $c }' | median; }

for block in $blocks; do
  declare -A times=()
  for ((i = 0; i < runs; i++)); do
    for tool in floor fxhost ecasound; do times[$tool]+="$(seconds "run_$tool")"$'\n'; done
  done
  floor=$(column "${times[floor]}" 1);     floor_cpu=$(column "${times[floor]}" 2)
  fx=$(column "${times[fxhost]}" 1);       fx_cpu=$(column "${times[fxhost]}" 2)
  eca=$(column "${times[ecasound]}" 1);    eca_cpu=$(column "${times[ecasound]}" 2)

  same=$(cmp -s <(sox "$out/fxhost.wav" -t f32 - 2>/dev/null) <(sox "$out/floor.wav" -t f32 - 2>/dev/null) && echo identical || echo DIFFERENT)
  printf 'fxhost bench: 60 s stereo, 48 kHz, block %s, 5 plugins, median of %s runs (wall / CPU seconds)\n' "$block" "$runs"
  printf '  floor (bare lilv loop)  %6.3f / %6.3f\n' "$floor" "$floor_cpu"
  printf '  fxhost render           %6.3f / %6.3f   %.3fx / %.3fx the floor   (output vs floor: %s)\n' \
    "$fx" "$fx_cpu" "$(ratio "$fx" "$floor")" "$(ratio "$fx_cpu" "$floor_cpu")" "$same"
  printf '  ecasound                %6.3f / %6.3f   fxhost is %.2fx / %.2fx faster\n' \
    "$eca" "$eca_cpu" "$(ratio "$eca" "$fx")" "$(ratio "$eca_cpu" "$fx_cpu")"
done

# Live: the same chain played by `fxhost run` on a private dummy JACK server at
# 64, 128 and 256 frames, 10 s each, fed from the same file. The host's own
# time per block is the process callback minus the program's render (ports,
# file feed, meters, commands, swap check), as LiveEngine measures it; the
# target is under 2% of the block period at 64 frames. DSP load is JACK's.
live_seconds=${BENCH_LIVE_SECONDS:-10}
printf '%s\n' "fxhost: 1" "nodes:" "  src: { file: $PWD/$out/in.wav }" > "$out/live.yaml"
names=(src)
index=0
for stage in "${chain[@]}"; do
  read -r uri settings <<<"$stage"
  index=$((index + 1))
  params=$(for setting in $settings; do printf '%s: %s, ' "${setting%%=*}" "${setting#*=}"; done)
  printf '  p%s: { plugin: %s, params: { %s } }\n' "$index" "$uri" "${params%, }" >> "$out/live.yaml"
  names+=("p$index")
done
names+=(main)
printf '%s\n' "  main: { output: 2 }" "chain: [$(IFS=,; echo "${names[*]}" | sed 's/,/, /g')]" >> "$out/live.yaml"

printf 'fxhost live: the same chain on a dummy JACK server, %s s per block size\n' "$live_seconds"
printf '  %6s  %12s  %12s  %10s  %9s  %5s\n' frames "host µs/blk" "render µs/blk" "host %blk" "DSP load" xruns
jackd_pid=
trap '[ -z "$jackd_pid" ] || kill "$jackd_pid" 2>/dev/null || true' EXIT  # no server outlives a failed run
for frames in 64 128 256; do
  server="fxhost-bench-$$-$frames"
  JACK_NO_AUDIO_RESERVATION=1 jackd -n "$server" -r -d dummy -r 48000 -p "$frames" >"$out/jackd-$frames.log" 2>&1 &
  jackd_pid=$!
  jack_wait -s "$server" -w -t 10 >/dev/null 2>&1
  "$fxhost" run "$out/live.yaml" --server "$server" --duration "${live_seconds}s" --no-connect --quiet --json \
    </dev/null >"$out/live-$frames.json"
  kill "$jackd_pid"; wait "$jackd_pid" 2>/dev/null || true
  python3 - "$out/live-$frames.json" "$frames" <<'PY'
import json, sys
status = json.load(open(sys.argv[1]))
frames = int(sys.argv[2])
period = frames / status["sampleRate"] * 1e6
host = status["hostMicrosecondsPerCycle"]
print("  %6d  %12.2f  %12.2f  %9.2f%%  %8.1f%%  %5d" % (frames, host, status["renderMicrosecondsPerCycle"],
      100 * host / period, status["dspLoadPercent"], status["xruns"]))
PY
done

# Parallel branches: --threads 2 against 1 on a wide graph, offline and live.
scripts/bench-threads.sh

# Start-up: where a short render's few tens of milliseconds go.
scripts/startup.sh
