#!/usr/bin/env python3
"""Writes the soak's MIDI file: a note every quarter second for SECONDS, so
the sampler has notes to play for the whole run (a MIDI file plays once)."""
import random
import sys

import mido

seconds, path = float(sys.argv[1]), sys.argv[2]
ticks_per_beat = 480                      # at the default 120 bpm a beat is half a second
track = mido.MidiTrack()
rng = random.Random(7)
for _ in range(int(seconds * 4)):
    note = rng.choice([48, 55, 60, 62, 64, 67, 72])
    track.append(mido.Message("note_on", note=note, velocity=rng.randint(40, 120), time=0))
    track.append(mido.Message("note_off", note=note, velocity=0, time=ticks_per_beat // 2))
midi = mido.MidiFile(ticks_per_beat=ticks_per_beat)
midi.tracks.append(track)
midi.save(path)
