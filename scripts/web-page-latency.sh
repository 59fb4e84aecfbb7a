#!/usr/bin/env bash
# Latencies of the web page in a real browser (headless Chromium, driven by
# Selenium as Tests/Browser does): fxhost plays a constant 0.5 through eg-amp
# on a private dummy JACK server (48 kHz, PERIOD frames) with --web and --osc;
# a JACK client (JACK-Client for Python) listens to its output; two pages, A
# and B, are open, each in its own browser.
#   1. CHANGES key presses (ArrowDown, ArrowUp in turn: 0 → -1 → 0 dB) on
#      page A's `amp gain` slider: the page's own time of each keydown (a
#      capturing listener) to the first sample at the new level (its JACK
#      frame through jack_frames_to_time, and when the listener's cycle ran),
#      and to the moment page B shows the new value.
#   2. CHANGES console `set`s (typed into fxhost's stdin; -6 and -12 dB) and
#      CHANGES OSC `set`s (liblo's oscsend; -3 and -9 dB), each from just
#      before the send to the moment each page shows the value (a
#      MutationObserver on aria-valuenow), and to the audio.
# Every time is put on time.monotonic()'s scale: a page's wall-clock ms
# (performance.timeOrigin + performance.now()) with time.time() -
# time.monotonic(), a JACK time with jack_get_time() - time.monotonic() read
# at each change (jackd2's clock is CLOCK_MONOTONIC_RAW, which drifts from
# CLOCK_MONOTONIC), each offset read between two monotonic readings. Levels
# are checked by arithmetic (eg-amp: ×10^(dB/20)): a sample at any other
# level is never counted. Prints the median, 95th percentile and max of
# each, with the number of samples. Timing only: no pass or fail.
# Usage: scripts/web-page-latency.sh [CHANGES] [PERIOD]   (FXHOST=path to override)
set -euo pipefail
cd "$(dirname "$0")/.."
changes=${1:-30} period=${2:-256}
fxhost=${FXHOST:-.build/release/fxhost}
server="fxhost-pagelat-$$"
folder=$(mktemp -d)
JACK_NO_AUDIO_RESERVATION=1 jackd -n "$server" -d dummy -r 48000 -p "$period" >/dev/null 2>&1 &
jackd_pid=$!
trap 'kill "$jackd_pid" 2>/dev/null || true; rm -rf "$folder"' EXIT
jack_wait -s "$server" -w -t 10 >/dev/null 2>&1
# Debian's Python: where Debian's Selenium and JACK-Client are (as for the browser tests).
/usr/bin/python3 - "$fxhost" "$server" "$changes" "$folder" "$period" <<'PY'
import ctypes, os, socket, statistics, subprocess, sys, time, wave
sys.path.insert(0, 'Tests/Browser')
from fxhost_page import Fxhost, browser, control, open_page, wait
from selenium.webdriver import ActionChains
from selenium.webdriver.common.keys import Keys
import jack

fxhost, server, changes, folder, period = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], int(sys.argv[5])
load_start = os.getloadavg()
with wave.open(f'{folder}/dc.wav', 'wb') as out:  # 16384/32768 = 0.5 exactly
    out.setnchannels(1); out.setsampwidth(2); out.setframerate(48000)
    out.writeframes((16384).to_bytes(2, 'little', signed=True) * (48000 * (120 + changes * 2)))
open(f'{folder}/amp.yaml', 'w').write('fxhost: 1\nnodes:\n  dc: { file: dc.wav }\n'
    '  amp: { plugin: http://lv2plug.in/plugins/eg-amp, params: { gain: 0 } }\n'
    '  main: { output: 1 }\nchain: [dc, amp, main]\n')
with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:  # a free UDP port for --osc
    probe.bind(('127.0.0.1', 0))
    osc = str(probe.getsockname()[1])


def level(gain):
    """eg-amp's output for the 0.5 input at GAIN dB: 0.5 × 10^(dB/20)."""
    return 0.5 * 10 ** (gain / 20)


def wall_offset(tries=2000):
    """time.time() - time.monotonic() from the tightest of TRIES readings, and its uncertainty (s)."""
    best = None
    for _ in range(tries):
        before = time.monotonic(); wall = time.time(); after = time.monotonic()
        if best is None or after - before < best[1] * 2:
            best = (wall - (before + after) / 2, (after - before) / 2)
    return best


def stats(values):
    if not values: return 'no samples'
    p95 = statistics.quantiles(values, n=20, method='inclusive')[18] if len(values) > 1 else values[0]
    return (f'n={len(values)}: median {statistics.median(values):.1f} ms, 95th percentile {p95:.1f}, '
            f'max {max(values):.1f} (min {min(values):.1f})')


run = Fxhost(fxhost, ['run', f'{folder}/amp.yaml', '--server', server, '--no-connect', '--quiet', '--osc', osc])
a = b = client = None
try:
    # The listener: every change of level with its JACK frame and when its cycle ran (time.monotonic()).
    client = jack.Client('fxhost-page-latency', servername=server)
    port_in = client.inports.register('in')
    heard = {'level': None, 'changes': []}

    @client.set_process_callback
    def process(frames):
        samples = memoryview(port_in.get_buffer()).cast('f').tolist()  # no numpy in Debian's Python here
        current = heard['level']
        if samples.count(current) == frames:
            return
        start, ran = client.last_frame_time, time.monotonic()
        for index, value in enumerate(samples):
            if value != current:
                if current is not None: heard['changes'].append((start + index, value, ran))
                current = value
        heard['level'] = current

    # JACK-Client 0.5.3 (Debian's) has no frames_to_time: libjack's own, on the same client.
    libjack = ctypes.CDLL('libjack.so.0')
    libjack.jack_frames_to_time.argtypes = [ctypes.c_void_p, ctypes.c_uint32]
    libjack.jack_frames_to_time.restype = ctypes.c_uint64
    libjack.jack_get_time.restype = ctypes.c_uint64
    handle = int(jack._ffi.cast('uintptr_t', client._ptr))

    def frame_seconds(frame):
        return libjack.jack_frames_to_time(handle, frame % 2 ** 32) / 1e6

    client.activate()
    output = wait(lambda: client.get_ports('^fxhost:', is_output=True, is_audio=True), 30, 'fxhost output port')[0].name
    wait(lambda: client.connect(output, port_in) is None, 30, 'the listener connected')
    wait(lambda: heard['level'] == 0.5, 30, 'the level 0.5 at 0 dB')

    def jack_offset(tries=50):
        """jack_get_time() - time.monotonic() (s) from the tightest of TRIES readings between two monotonic ones."""
        best = None
        for _ in range(tries):
            before = time.monotonic(); now = libjack.jack_get_time() / 1e6; after = time.monotonic()
            if best is None or after - before < best[1] * 2:
                best = (now - (before + after) / 2, (after - before) / 2)
        return best

    # Which clock JACK's is: jack_get_time against CLOCK_MONOTONIC and CLOCK_MONOTONIC_RAW.
    clocks = {}
    for name, clock in (('CLOCK_MONOTONIC', time.CLOCK_MONOTONIC), ('CLOCK_MONOTONIC_RAW', time.CLOCK_MONOTONIC_RAW)):
        before = time.clock_gettime(clock); now = libjack.jack_get_time() / 1e6; after = time.clock_gettime(clock)
        clocks[name] = (now - (before + after) / 2) * 1000
    jack_start, jack_error = jack_offset()

    a, b = browser(), browser()
    for driver in (a, b):
        open_page(driver, run.url)
        driver.execute_script('''
            window.fxlat = { keys: [], shown: [] };
            const now = () => performance.timeOrigin + performance.now();
            window.addEventListener('keydown', (event) => window.fxlat.keys.push([now(), event.key]), true);
            new MutationObserver((records) => {
              const t = now();
              for (const record of records)
                if (record.target.getAttribute('aria-label') === 'amp gain')
                  window.fxlat.shown.push([t, Number(record.target.getAttribute('aria-valuenow'))]);
            }).observe(document.body, { subtree: true, attributes: true, attributeFilter: ['aria-valuenow'] });''')
    wait(lambda: control(a, 'amp gain').get_attribute('aria-valuenow') == '0', 30, 'page A at 0 dB')

    offset, offset_error = wall_offset()
    # The page's clock against Python's: one page time read between two monotonic readings.
    brackets = []
    for _ in range(20):
        before = time.monotonic(); page = a.execute_script('return performance.timeOrigin + performance.now()'); after = time.monotonic()
        brackets.append((page / 1000 - offset - before, after - before))
    page_inside = all(0 <= early <= trip for early, trip in brackets)
    page_trip = min(trip for _, trip in brackets) * 1000

    def monotonic_of(page_ms):
        return page_ms / 1000 - offset

    def audio_time(expected, seen, within=3):
        """The first sample at EXPECTED after change number SEEN: its frame's time on JACK's clock, and
        when the listener's cycle ran, both as time.monotonic() (None: none within WITHIN s)."""
        deadline = time.monotonic() + within
        while time.monotonic() < deadline:
            for frame, value, ran in heard['changes'][seen:]:
                if abs(value - expected) <= 1e-6 * expected:
                    # With the offset read now: JACK's clock may not be time.monotonic()'s.
                    return frame_seconds(frame) - jack_offset()[0], ran
            time.sleep(0.005)
        return None

    def pause(number):
        time.sleep(0.15 + 0.0137 * (number % 7))  # away from any phase of the period

    # 1. Key presses in page A.
    presses = []  # (keydown in monotonic s, audio time or None, dB)
    wrong = 0
    for number in range(changes):
        key, gain = (Keys.ARROW_DOWN, -1) if number % 2 == 0 else (Keys.ARROW_UP, 0)
        pause(number)
        seen, keys = len(heard['changes']), a.execute_script('return window.fxlat.keys.length')
        a.execute_script('arguments[0].focus()', control(a, 'amp gain'))
        ActionChains(a).send_keys(key).perform()
        heard_at = audio_time(level(gain), seen)  # first: no script runs in page A while its change is on its way
        down = wait(lambda: a.execute_script('return window.fxlat.keys[arguments[0]]', keys), 10, 'the keydown')
        if heard_at is None: wrong += 1
        presses.append((monotonic_of(down[0]), heard_at, gain))
    key_to_audio = [[(at - down) * 1000 for at in heard_at] for down, heard_at, _ in presses if heard_at is not None]

    # 2. The console (-6 and -12 dB in turn), then OSC (-3 and -9): the audio waited for before the next.
    sends = {'console': [], 'osc': []}
    oscsend_runs = []
    to_audio = {'console': [], 'osc': []}
    for source in ('console', 'osc'):
        for number in range(changes):
            gain = (-6 if number % 2 == 0 else -12) if source == 'console' else (-3 if number % 2 == 0 else -9)
            pause(number)
            seen = len(heard['changes'])
            sent = time.monotonic()
            if source == 'console':
                run.type(f'set amp gain {gain}')
            else:
                subprocess.run(['oscsend', '127.0.0.1', osc, '/fxhost/set', 'ssf', 'amp', 'gain', str(gain)], check=True)
                oscsend_runs.append((time.monotonic() - sent) * 1000)
            heard_at = audio_time(level(gain), seen)
            if heard_at is None: wrong += 1
            else: to_audio[source].append([(at - sent) * 1000 for at in heard_at])
            sends[source].append((sent, gain))

    offset_end, _ = wall_offset()
    shown = {name: [(monotonic_of(t), value) for t, value in driver.execute_script('return window.fxlat.shown')]
             for name, driver in (('A', a), ('B', b))}

    def shown_after(page, start, end, gain):
        """Latency (ms) to the first time PAGE shows GAIN between START and END, or None."""
        for t, value in shown[page]:
            if start <= t < end and value == gain:
                return (t - start) * 1000
        return None

    def latencies(events, page):
        """Each send's latency to PAGE; the values alternate, so a late showing counts until the same value is sent again."""
        found, missed = [], 0
        for index, (start, gain) in enumerate(events):
            end = events[index + 2][0] if index + 2 < len(events) else float('inf')
            latency = shown_after(page, start, end, gain)
            if latency is None: missed += 1
            else: found.append(latency)
        return found, missed

    def beyond(found, missed):
        late = sum(1 for latency in found if latency > 100)
        return f'; {late} over 100 ms' + (f', {missed} not shown in time to be matched' if missed else '')

    load_end = os.getloadavg()
    print(f'{changes} changes of each kind at {period} frames (48 kHz, {period / 48:.2f} ms a period); '
          f'load average {load_start[0]:.1f} at start, {load_end[0]:.1f} at end on {os.cpu_count()} cores')
    print(f'clocks: wall - monotonic offset read to ±{offset_error * 1e6:.2f} µs, moved {(offset_end - offset) * 1e6:.1f} µs over the run; '
          f'page A\'s clock {"inside" if page_inside else "OUTSIDE"} its execute_script brackets (tightest {page_trip:.2f} ms); '
          f'jack_get_time - time.monotonic() {jack_start * 1000:+.3f} ms ±{jack_error * 1e6:.1f} µs at start, '
          f'{jack_offset()[0] * 1000:+.3f} ms at end (jack_get_time - ' +
          ', '.join(f'{name} {offset:+.3f} ms' for name, offset in clocks.items()) + ')')
    def audio_lines(label, pairs):
        print(f'{label} → audio, to the frame time of the first sample at the new level: {stats([p[0] for p in pairs])}')
        print(f'{label} → audio, to when the listener\'s cycle ran: {stats([p[1] for p in pairs])}')

    audio_lines('page A key press (keydown)', key_to_audio)
    key_sends = [(down, gain) for down, _, gain in presses]
    found, missed = latencies(key_sends, 'B')
    print(f'page A key press → page B shows it: {stats(found)}{beyond(found, missed)}')
    for source, label in (('console', 'console set'), ('osc', 'OSC set (oscsend)')):
        for page in ('A', 'B'):
            found, missed = latencies(sends[source], page)
            print(f'{label} → page {page}: {stats(found)}{beyond(found, missed)}')
        audio_lines(label, to_audio[source])
    print(f'  (oscsend itself runs for median {statistics.median(oscsend_runs):.1f} ms, max {max(oscsend_runs):.1f}: '
          'included in the OSC figures, from just before it starts)')
    if wrong:
        print(f'{wrong} changes never reached the audio at their level within 3 s (not counted)')
finally:
    for driver in (a, b):
        if driver is not None: driver.quit()
    if client is not None:
        client.deactivate(); client.close()
    run.quit()
PY
