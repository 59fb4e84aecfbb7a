#!/usr/bin/env bash
# The main job: bounce the bundled guitar preset offline, on a generated
# guitar-like input, with no audio server. Leaves demo/crunch.wav.
set -euo pipefail
mkdir -p demo
# Ten seconds of plucked notes, mono, 48 kHz: a stand-in for a guitar DI.
notes=()
for note in E2 A2 D3 G3; do
  sox -q -n -r 48000 -c 1 -b 24 "demo/.note-$note.wav" synth 2.5 pluck "$note" gain -6
  notes+=("demo/.note-$note.wav")
done
sox -q "${notes[@]}" demo/di-guitar.wav
rm -f "${notes[@]}"
"${FXHOST:-.build/release/fxhost}" render Presets/guitar-crunch.yaml -i demo/di-guitar.wav -o demo/crunch.wav "$@"
