#!/usr/bin/env bash
# CPU the web front end costs: fxhost plays a preset on a private dummy JACK
# server, first without --web, then with --web and PAGES event streams each
# asking for meters at HZ a second (what an open page does). CPU is read from
# /proc/PID/stat (utime + stime) over SECONDS once the streams run; the
# difference between the two runs is the front end's share. Also prints which
# threads (by name, /proc/PID/task/*/stat) the time went to.
# Usage: scripts/web-cpu.sh [PAGES] [HZ] [SECONDS]   (FXHOST=path to override)
set -euo pipefail
cd "$(dirname "$0")/.."
pages=${1:-10} hz=${2:-30} seconds=${3:-20}
fxhost=${FXHOST:-.build/release/fxhost}
server="fxhost-webcpu-$$"
port=$((20000 + $$ % 20000))
JACK_NO_AUDIO_RESERVATION=1 jackd -n "$server" -d dummy -r 48000 -p 256 >/dev/null 2>&1 &
jackd_pid=$!
trap 'kill "$jackd_pid" 2>/dev/null || true' EXIT
jack_wait -s "$server" -w -t 10 >/dev/null 2>&1
python3 - "$fxhost" "$server" "$port" "$pages" "$hz" "$seconds" <<'PY'
import collections, json, os, subprocess, sys, threading, time, websocket
fxhost, server, port, pages, hz, seconds = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), float(sys.argv[5]), float(sys.argv[6])
tick = os.sysconf('SC_CLK_TCK')

def ticks(path):
    # utime and stime: fields 14 and 15, counted after the ')' that ends the name.
    fields = open(path).read().rsplit(')', 1)[1].split()
    return int(fields[11]) + int(fields[12])

def threads(pid):
    out = collections.Counter()
    for task in os.listdir(f'/proc/{pid}/task'):
        try:
            name = open(f'/proc/{pid}/task/{task}/comm').read().strip()
            out[name] += ticks(f'/proc/{pid}/task/{task}/stat')
        except OSError:
            pass
    return out

def run(web):
    args = [fxhost, 'run', 'Presets/guitar-crunch.yaml', '--server', server, '--no-connect', '--quiet',
            '--duration', f'{seconds + 15:.0f}s']
    if web: args += ['--web', port]
    proc = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    sockets, received, stop = [], [0] * pages, threading.Event()
    if web:
        line = proc.stderr.readline()
        while 'web:' not in line:
            if not line: sys.exit('fxhost ended before printing its URL')
            line = proc.stderr.readline()
        url = line.split('web:')[1].strip().replace('http://', 'ws://') + 'api/v1/events'
        def page(number):
            ws = websocket.create_connection(url, timeout=10)
            ws.send(json.dumps({'meters': hz}))
            while not stop.is_set():
                try:
                    if '"meters"' in ws.recv(): received[number] += 1
                except Exception:
                    break
            ws.close()
        readers = [threading.Thread(target=page, args=(n,), daemon=True) for n in range(pages)]
        for reader in readers: reader.start()
    time.sleep(3)  # the plugins loaded, the streams running
    before, threads_before, start = ticks(f'/proc/{proc.pid}/stat'), threads(proc.pid), time.monotonic()
    counted_before = sum(received)
    time.sleep(seconds)
    after, threads_after, elapsed = ticks(f'/proc/{proc.pid}/stat'), threads(proc.pid), time.monotonic() - start
    counted = sum(received) - counted_before
    stop.set()
    proc.terminate(); proc.wait()
    percent = 100 * (after - before) / tick / elapsed
    spent = {name: 100 * (threads_after[name] - threads_before.get(name, 0)) / tick / elapsed for name in threads_after}
    return percent, spent, counted / elapsed

base, base_threads, _ = run(False)
web, web_threads, rate = run(True)
print(f'without --web: {base:.2f}% of one core')
print(f'with --web and {pages} streams at {hz:g} Hz ({rate:.0f} meter messages/s received): {web:.2f}% of one core')
print(f'the web front end: {web - base:.2f}% of one core')
print('by thread, with --web (% of one core):')
for name, share in sorted(web_threads.items(), key=lambda item: -item[1]):
    if share > 0.05: print(f'  {name:16s} {share:5.2f}%  (without --web: {base_threads.get(name, 0):.2f}%)')
PY
