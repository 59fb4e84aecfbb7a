#!/usr/bin/env bash
# Where the time of a short render goes (issue 10, start-up): a render of
# 0.1 s of stereo through one plugin, its phases timed inside fxhost
# (FXHOST_TIMINGS=1 prints them) and the whole process timed outside,
# beside the floors: /bin/true and an empty Swift program, without and with
# Foundation. Prints the median of several runs in milliseconds (each
# phase's median: they need not add up to the whole's exactly).
# Two renders: with a cache folder in use, whose plugin index names the
# bundles the plugin needs (only those are loaded), and with a fresh cache
# folder (every bundle on LV2_PATH is loaded, as every render did before the
# index, and the index is written). Set FXHOST to time another binary.
# Wall-clock times: run it on an idle machine (`uptime`) and rerun to compare.
set -euo pipefail
runs=${STARTUP_RUNS:-11}
out=bench-out
mkdir -p "$out"
fxhost=${FXHOST:-.build/release/fxhost}
plugin=${STARTUP_PLUGIN:-http://drobilla.net/plugins/mda/Ambience}

[ -f "$out/short.wav" ] || sox -q -n -r 48000 -c 2 -b 32 -e floating-point "$out/short.wav" synth 0.1 pinknoise gain -12
[ -x "$out/empty-swift" ] || swiftc -O -o "$out/empty-swift" bench/empty.swift
[ -x "$out/empty-foundation" ] || swiftc -O -D WITH_FOUNDATION -o "$out/empty-foundation" bench/empty.swift

cache=$(mktemp -d); trap 'rm -rf "$cache"' EXIT
render() { "$fxhost" render --chain "$plugin" -i "$out/short.wav" -o "$out/short-out.wav" --quiet; }

# Milliseconds of one run of "$@" (fork and exec included, as for every row).
milliseconds() {
  local start=$EPOCHREALTIME
  "$@" >/dev/null 2>&1
  awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.3f\n", (b - a) * 1000 }'
}
median() { sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

# One timed render: prints "whole MS" and "PHASE MS" lines (phases from FXHOST_TIMINGS).
timed_render() {
  local start=$EPOCHREALTIME timings
  timings=$(FXHOST_TIMINGS=1 XDG_CACHE_HOME="$1" render 2>&1 >/dev/null)
  awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "whole\t%.3f\n", (b - a) * 1000 }'
  sed -n 's/^fxhost timing: \(.*\) \([0-9.]*\)$/\1\t\2/p' <<<"$timings"
}

# The median of each phase over the runs, in first-seen order, and the
# time outside main (loader, runtime set-up, exit): whole minus the phases.
summarise() {
  awk -F'\t' '
    NF < 2 { next }
    { if (!($1 in count)) order[++phases] = $1; values[$1, ++count[$1]] = $2 }
    function median(name,   n, i, j, t, v) {
      n = count[name]; for (i = 1; i <= n; i++) v[i] = values[name, i]
      for (i = 2; i <= n; i++) for (j = i; j > 1 && v[j - 1] > v[j]; j--) { t = v[j]; v[j] = v[j - 1]; v[j - 1] = t }
      return v[int((n + 1) / 2)]
    }
    END {
      inside = 0
      for (p = 2; p <= phases; p++) inside += median(order[p])
      printf "  %-44s %7.2f\n", "whole process", median("whole")
      printf "    %-42s %7.2f\n", "outside main: loader, runtime, exit", median("whole") - inside
      for (p = 2; p <= phases; p++) printf "    %-42s %7.2f\n", order[p], median(order[p])
    }'
}

declare -A floors=()
warm="$cache/warm"; mkdir -p "$warm"
render_with_cache() { XDG_CACHE_HOME="$warm" render; }
render_with_cache >/dev/null 2>&1 || true   # fills the warm index (and the page cache)
warm_runs=""; cold_runs=""
for ((i = 0; i < runs; i++)); do
  floors[true]+="$(milliseconds /bin/true)"$'\n'
  floors[swift]+="$(milliseconds "$out/empty-swift")"$'\n'
  floors[foundation]+="$(milliseconds "$out/empty-foundation")"$'\n'
  warm_runs+="$(timed_render "$warm")"$'\n'
  cold="$cache/cold-$i"; mkdir -p "$cold"
  cold_runs+="$(timed_render "$cold")"$'\n'
done

printf 'fxhost start-up: render 0.1 s stereo through %s, median of %s runs (ms; load %s)\n' \
  "${plugin##*/}" "$runs" "$(cut -d' ' -f1 /proc/loadavg)"
printf '  %-44s %7.2f\n' "/bin/true" "$(median <<<"${floors[true]}")"
printf '  %-44s %7.2f\n' "empty Swift program" "$(median <<<"${floors[swift]}")"
printf '  %-44s %7.2f\n' "empty Swift program with Foundation" "$(median <<<"${floors[foundation]}")"
printf ' render, cache folder in use (the plugin index names the bundles to load):\n'
summarise <<<"$warm_runs"
printf ' render, fresh cache folder (every bundle loaded, the index written):\n'
summarise <<<"$cold_runs"
