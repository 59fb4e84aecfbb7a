"""What the browser tests of `fxhost run --web` share: fxhost started with a
free port (its URL read from stderr), headless Chromium (Debian's, driven by
Selenium through Debian's chromedriver) on a laptop's or a phone's screen,
and waiting for conditions, never for time. Each script prints what it saw
as lines of JSON; the Swift tests (WebPageTests) judge them."""

import json
import os
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

CHROMIUM = '/usr/bin/chromium'
CHROMEDRIVER = '/usr/bin/chromedriver'


def report(kind, **fields):
    print(json.dumps(dict(fields, kind=kind)), flush=True)


def wait(condition, within=30, what='a condition'):
    """`condition()`'s first truthy value, polled until `within` seconds pass (then an error naming `what`)."""
    deadline = time.monotonic() + within
    while True:
        try:
            value = condition()
        except Exception:  # an element not there yet, a file not yet written
            value = None
        if value:
            return value
        if time.monotonic() > deadline:
            raise TimeoutError(f'waited {within} s for {what}')
        time.sleep(0.02)


def settled(read, what, times=5):
    """`read()`'s value once it is truthy and the same `times` reads in a row (polled 20 ms apart): what a
    control, a meter or the server shows once the changes on their way have landed."""
    readings = []

    def same():
        readings.append(read())
        return len(readings) >= times and readings[-1] and all(r == readings[-1] for r in readings[-times:]) and readings[-1]
    return wait(same, 30, what)


def lv2_default(plugin, symbol):
    """The default of `plugin`'s port `symbol`, as lv2info reads it from the plugin's .ttl (not from fxhost)."""
    text = subprocess.run(['lv2info', plugin], capture_output=True, text=True, check=True).stdout
    for block in text.split('\n\tPort ')[1:]:
        fields = dict(line.strip().split(':', 1) for line in block.splitlines()[1:] if ':' in line)
        if fields.get('Symbol', '').strip() == symbol:
            return float(fields['Default'])
    raise SystemExit(f'lv2info shows no port {symbol} of {plugin}')


class Fxhost:
    """`fxhost run ARGS --web 0`: its console on a pipe, its URL from stderr."""

    def __init__(self, fxhost, arguments, web='0'):
        self.errors = tempfile.NamedTemporaryFile(mode='w+', prefix='fxhost-web-', suffix='.err')
        self.output = tempfile.NamedTemporaryFile(mode='w+', prefix='fxhost-web-', suffix='.out')
        self.process = subprocess.Popen([fxhost] + arguments + ['--web', web], stdin=subprocess.PIPE,
                                        stdout=self.output, stderr=self.errors, text=True)
        self.url = wait(self._url, 60, 'fxhost to print its URL')

    def _url(self):
        with open(self.errors.name) as text:
            for line in text:
                if line.startswith('web: http://'):
                    return line[5:].strip()
        if self.process.poll() is not None:
            raise SystemExit('fxhost ended: ' + open(self.errors.name).read())
        return None

    @property
    def stdout(self):
        """What the console printed so far."""
        with open(self.output.name) as text:
            return text.read()

    @property
    def stderr(self):
        with open(self.errors.name) as text:
            return text.read()

    def type(self, line):
        self.process.stdin.write(line + '\n')
        self.process.stdin.flush()

    def quit(self):
        self.type('quit')
        return self.process.wait(60)


def browser(width=1280, height=900, phone=False):
    options = Options()
    options.binary_location = CHROMIUM
    for argument in ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage',
                     f'--window-size={width},{height}']:
        options.add_argument(argument)
    if phone:
        options.add_experimental_option('mobileEmulation', {
            'deviceMetrics': {'width': width, 'height': height, 'pixelRatio': 2.0, 'touch': True}})
    return webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)


def open_page(driver, url):
    driver.get(url)
    wait(lambda: driver.execute_script("return document.body.dataset.ready === 'true'"), 30, 'the page to read the state')


def control(driver, name):
    return driver.find_element(By.CSS_SELECTOR, f'[aria-label="{name}"]')


def press(driver, name):
    """Clicks the control named `name`, found anew when the page redrew it (a read of the state
    after another change) between finding and clicking."""
    def attempt():
        control(driver, name).click()
        return True
    wait(attempt, 30, f'a click on {name}')


def value(driver, name):
    return control(driver, name).get_attribute('aria-valuenow')


def touch(driver, x, y):
    """A finger down and up at (x, y) of the viewport, through the DevTools protocol."""
    driver.execute_cdp_cmd('Input.dispatchTouchEvent', {'type': 'touchStart', 'touchPoints': [{'x': x, 'y': y}]})
    driver.execute_cdp_cmd('Input.dispatchTouchEvent', {'type': 'touchEnd', 'touchPoints': []})


def api(url, path):
    """A GET of the API (`/api/v1/status`, `/api/v1/state`): the server's own account, the tests' oracle."""
    parts = urllib.parse.urlparse(url)
    token = urllib.parse.parse_qs(parts.query).get('token', [None])[0]
    request = urllib.request.Request(f'{parts.scheme}://{parts.netloc}{path}',
                                     headers={'X-Fxhost-Token': token} if token else {})
    with urllib.request.urlopen(request, timeout=30) as reply:
        return json.load(reply)


def state(url):
    return api(url, '/api/v1/state')


def status(url):
    return api(url, '/api/v1/status')


def parameter(url, node, symbol):
    """The server's value of `node`'s parameter `symbol`."""
    return next(p['value'] for n in state(url)['nodes'] if n['name'] == node for p in n['parameters'] if p['symbol'] == symbol)


def peak(driver, node):
    """A tapped node's meter (its first channel) as the page shows it: dBFS, text, accessible name."""
    meter = driver.find_element('id', f'tap-meter-{node}-0')
    return float(meter.get_attribute('data-peak')), meter.get_attribute('aria-valuetext'), meter.get_attribute('aria-label')


def tap_state(url, file_name):
    """The server's state of the tap writing `file_name` (recording, paused, finished), None when it has none."""
    return next((t['state'] for t in status(url).get('taps', []) if t['file'].endswith('/' + file_name)), None)


def centre(driver, element):
    """`element` scrolled to the middle of the viewport: the viewport point at its centre."""
    driver.execute_script('arguments[0].scrollIntoView({block: "center"})', element)
    box = driver.execute_script('const r = arguments[0].getBoundingClientRect(); return [r.left, r.top, r.width, r.height]', element)
    return box[0] + box[2] / 2, box[1] + box[3] / 2


def touch_element(driver, element):
    """A finger down and up on the middle of `element`."""
    touch(driver, *centre(driver, element))


def touch_found(driver, find, what):
    """A finger down and up on the middle of the element `find()` returns, found anew when the page redrew
    it (a read of the state after another change) between finding and scrolling to it."""
    touch(driver, *wait(lambda: centre(driver, find()), 30, f'{what} on the page'))


def touch_control(driver, name):
    """A finger on the control named `name`, found anew as `touch_found` says."""
    touch_found(driver, lambda: control(driver, name), name)


def hold(driver, x, y, until, what):
    """A finger held at (x, y) until `until()` is true (a long press), then lifted; `until()`'s value."""
    driver.execute_cdp_cmd('Input.dispatchTouchEvent', {'type': 'touchStart', 'touchPoints': [{'x': x, 'y': y}]})
    try:
        return wait(until, 30, what)
    finally:
        driver.execute_cdp_cmd('Input.dispatchTouchEvent', {'type': 'touchEnd', 'touchPoints': []})


def command(url, fields):
    """One command posted in its JSON form; the reply."""
    parts = urllib.parse.urlparse(url)
    token = urllib.parse.parse_qs(parts.query).get('token', [None])[0]
    request = urllib.request.Request(f'{parts.scheme}://{parts.netloc}/api/v1/commands', method='POST',
                                     data=json.dumps(dict(fields, v=1)).encode(),
                                     headers=dict({'Content-Type': 'application/json'},
                                                  **({'X-Fxhost-Token': token} if token else {})))
    with urllib.request.urlopen(request, timeout=30) as reply:
        return json.load(reply)


def send_midi(server, destination, messages):
    """Raw MIDI messages (bytes) from a JACK client of PyPI's JACK-Client (not fxhost's code) to the
    MIDI input `destination` on `server`, one a cycle, starting a few cycles after the connection
    is made (so JACK's graph has it); returns once JACK has run the cycles that carry them all.
    The module must be Debian's python3-jack-client: these scripts run on Debian's python3 (where
    Selenium is), which a pip install into another python3 on PATH does not reach."""
    try:
        import jack
    except ImportError as error:
        raise SystemExit(f'{sys.executable} has no JACK-Client ({error}): scripts/install-deps.sh installs python3-jack-client')
    pending = list(messages)
    state = {'connected': False, 'before': 0, 'after': 0}
    client = jack.Client('fxhost-page-midi', servername=server, no_start_server=True)
    port = client.midi_outports.register('out')

    @client.set_process_callback
    def process(frames):
        port.clear_buffer()
        if not state['connected'] or state['before'] < 8:
            if state['connected']:
                state['before'] += 1
            return
        if pending:
            port.write_midi_event(0, pending.pop(0))
        else:
            state['after'] += 1

    with client:
        client.connect(port, destination)
        state['connected'] = True
        wait(lambda: state['after'] >= 3, 30, 'JACK to take the MIDI messages')


def controller(number, value, channel=1):
    """A control change's three bytes."""
    return bytes([0xB0 | (channel - 1), number, value])
