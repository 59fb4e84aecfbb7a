#!/usr/bin/env bash
# Latency from a web client's change to the change in the audio: fxhost plays
# a constant 0.5 through eg-amp on a private dummy JACK server (48 kHz, PERIOD
# frames) with --web; a JACK client (Python's JACK-Client) listens to its
# output. CHANGES times, `POST /api/v1/commands` sets `amp gain` alternately to
# -6 and 0 dB; the JACK frame clock is read just before the request is sent,
# and the listener notes the first frame whose level is the new one. Latency =
# (that frame - the frame at the send) / rate. Prints median, spread and the
# HTTP round trip.
# Usage: scripts/web-latency.sh [CHANGES] [PERIOD]   (FXHOST=path to override)
set -euo pipefail
cd "$(dirname "$0")/.."
changes=${1:-40} period=${2:-256}
fxhost=${FXHOST:-.build/release/fxhost}
server="fxhost-weblat-$$"
port=$((20000 + $$ % 20000))
folder=$(mktemp -d)
JACK_NO_AUDIO_RESERVATION=1 jackd -n "$server" -d dummy -r 48000 -p "$period" >/dev/null 2>&1 &
jackd_pid=$!
trap 'kill "$jackd_pid" 2>/dev/null || true; rm -rf "$folder"' EXIT
jack_wait -s "$server" -w -t 10 >/dev/null 2>&1
python3 - "$fxhost" "$server" "$port" "$changes" "$folder" "$period" <<'PY'
import json, statistics, subprocess, sys, threading, time, urllib.request, wave
import jack
fxhost, server, port, changes, folder, period = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5], sys.argv[6]
with wave.open(f'{folder}/dc.wav', 'wb') as out:  # 16384/32768 = 0.5 exactly
    out.setnchannels(1); out.setsampwidth(2); out.setframerate(48000)
    out.writeframes((16384).to_bytes(2, 'little', signed=True) * (48000 * (changes // 2 + 30)))
open(f'{folder}/amp.yaml', 'w').write('fxhost: 1\nnodes:\n  dc: { file: dc.wav }\n'
    '  amp: { plugin: http://lv2plug.in/plugins/eg-amp, params: { gain: 0 } }\n'
    '  main: { output: 1 }\nchain: [dc, amp, main]\n')
proc = subprocess.Popen([fxhost, 'run', f'{folder}/amp.yaml', '--server', server, '--no-connect', '--quiet',
                         '--web', port], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                        stderr=subprocess.PIPE, text=True)
line = proc.stderr.readline()
while 'web:' not in line:
    if not line: sys.exit('fxhost ended before printing its URL')
    line = proc.stderr.readline()
base = line.split('web:')[1].strip()

client = jack.Client('fxhost-latency', servername=server)
port_in = client.inports.register('in')
state = {'level': None, 'changes': []}
lock = threading.Lock()
@client.set_process_callback
def process(frames):
    samples = port_in.get_array()
    start = client.last_frame_time
    level = state['level']
    for index in range(frames):
        value = round(float(samples[index]), 4)
        if level is not None and value != level:
            state['changes'].append((start + index, value))
        level = value
    state['level'] = level
client.activate()
deadline = time.monotonic() + 30
while not client.get_ports('^fxhost:', is_output=True, is_audio=True):  # its ports may follow its URL
    if time.monotonic() > deadline: sys.exit('fxhost made no output port')
    time.sleep(0.05)
output = client.get_ports('^fxhost:', is_output=True, is_audio=True)[0].name
while True:  # until fxhost is active
    try:
        client.connect(output, port_in); break
    except jack.JackError:
        if time.monotonic() > deadline: raise
        time.sleep(0.05)
time.sleep(1)

def post(gain):
    body = json.dumps({'v': 1, 'line': f'set amp gain {gain}'}).encode()
    request = urllib.request.Request(base + 'api/v1/commands', body, {'Content-Type': 'application/json'})
    urllib.request.urlopen(request, timeout=10).read()

latencies, trips = [], []
post(0)  # a first connection made before timing
for number in range(changes):
    gain = -6 if number % 2 == 0 else 0
    expected = round(0.5 * 10 ** (gain / 20), 4)
    time.sleep(0.1 + 0.0137 * (number % 7))  # away from any phase of the period
    seen = len(state['changes'])
    sent, wall = client.frame_time, time.monotonic()
    post(gain)
    trips.append(time.monotonic() - wall)
    deadline = time.monotonic() + 2
    while time.monotonic() < deadline:
        new = state['changes'][seen:]
        hit = [frame for frame, value in new if value == expected]
        if hit:
            latencies.append((hit[0] - sent) / client.samplerate * 1000)
            break
        time.sleep(0.005)
    else:
        sys.exit(f'the level did not change to {expected} within 2 s')
client.deactivate(); client.close()
proc.stdin.write('quit\n'); proc.stdin.flush(); proc.wait(timeout=10)
quantiles = statistics.quantiles(latencies, n=20)
print(f'{changes} changes over HTTP at {period} frames:')
print(f'  send to audio: median {statistics.median(latencies):.1f} ms, min {min(latencies):.1f}, '
      f'95th percentile {quantiles[18]:.1f}, max {max(latencies):.1f} ms')
print(f'  HTTP round trip: median {statistics.median(trips) * 1000:.1f} ms')
PY
