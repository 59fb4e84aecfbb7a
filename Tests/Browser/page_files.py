"""A message parameter's file menu and learn's waiting state, in two pages of
one run. Arguments: fxhost, patch (x42's convolver `cab` with no IR, eg-amp
`amp`, a `midi-control:` section), JACK server, the audio file to choose, the
non-audio file named .wav, and the tap's file (outside the patch's folder)."""

import json
import os
import subprocess
import sys
import tempfile
import threading
import urllib.request

import jack
from selenium.webdriver.support.ui import Select

from fxhost_page import Fxhost, browser, control, open_page, report, wait

fxhost_path, patch, server, good, bad, take = sys.argv[1:7]


class ConsoleRun(Fxhost):
    """Fxhost with its console's stdout kept too (the replies to what is typed)."""

    def __init__(self, fxhost, arguments):
        self.output = tempfile.NamedTemporaryFile(mode='w+', prefix='fxhost-web-', suffix='.out')
        self.errors = tempfile.NamedTemporaryFile(mode='w+', prefix='fxhost-web-', suffix='.err')
        self.process = subprocess.Popen([fxhost] + arguments + ['--web', '0'], stdin=subprocess.PIPE,
                                        stdout=self.output, stderr=self.errors, text=True)
        self.url = wait(self._url, 60, 'fxhost to print its URL')

    @property
    def stdout(self):
        with open(self.output.name) as text:
            return text.read()


def state(url):
    with urllib.request.urlopen(url.rstrip('/') + '/api/v1/state', timeout=30) as reply:
        return json.load(reply)


def node(url, name):
    return next(n for n in state(url)['nodes'] if n['name'] == name)


def typed_refusals(run):
    """The console's own refusals, not its notes of the web's (`fxhost: error: web:…: refused: …`)."""
    return [line[len('fxhost: error: '):] for line in run.stderr.splitlines()
            if line.startswith('fxhost: error: ') and not line.startswith('fxhost: error: web:')]


def learn_button(driver):
    # Read in one script: a reload redraws the panels between two reads.
    return driver.execute_script('''
        const button = document.querySelector('[aria-label="learn amp gain"]');
        return { text: button.textContent, pressed: button.getAttribute('aria-pressed') };''')


run = ConsoleRun(fxhost_path, ['run', patch, '--server', server, '--quiet', '--no-connect'])
first, second = browser(), browser()
try:
    open_page(first, run.url)
    open_page(second, run.url)
    folder = os.path.dirname(os.path.abspath(patch))

    # Before any IR is set: the state lists `ir` (a path, null), the page a menu of the folder's audio files.
    cab = node(run.url, 'cab')
    menu = Select(control(first, 'cab ir'))
    report('unset', messageParameters=cab.get('messageParameters'), properties=cab.get('properties'),
           tag=control(first, 'cab ir').tag_name,
           options=[o.get_attribute('value') for o in menu.options],
           selected=menu.first_selected_option.get_attribute('value'),
           placeholder=menu.first_selected_option.text)

    # Choosing a file sets it: the state shows it, both pages select it.
    menu.select_by_value(good)
    chosen = wait(lambda: node(run.url, 'cab')['properties'].get('ir'), 60, 'the IR set')
    wait(lambda: Select(control(second, 'cab ir')).first_selected_option.get_attribute('value') == good, 30,
         'the second page to show it')
    report('chosen', state=chosen, listed=[p for p in node(run.url, 'cab')['messageParameters'] if p['name'] == 'ir'],
           first=Select(control(first, 'cab ir')).first_selected_option.get_attribute('value'),
           second=Select(control(second, 'cab ir')).first_selected_option.get_attribute('value'))
    # Half a second of it in the take (4 bytes a frame at 48 kHz).
    size = wait(lambda: os.path.getsize(take), 30, 'the take')
    wait(lambda: os.path.getsize(take) > size + 4 * 24_000, 60, 'half a second more of the take')

    # A file the plugin refuses: the console's sentence under the menu, which goes back to the file the plugin kept.
    Select(control(first, 'cab ir')).select_by_value(bad)
    refusal = wait(lambda: control(first, 'cab ir').find_element('xpath', './following-sibling::p[@class="refusal"]').text,
                   60, 'the refusal under the menu')
    run.type(f'set cab ir {os.path.join(folder, bad)}')
    console = wait(lambda: typed_refusals(run), 60, "the console's refusal")
    size = os.path.getsize(take)
    wait(lambda: os.path.getsize(take) > size + 4 * 24_000, 60, 'half a second more of the take')
    report('refused', page=refusal, console=console,
           selected=Select(control(first, 'cab ir')).first_selected_option.get_attribute('value'),
           state=node(run.url, 'cab')['properties'].get('ir'))
    run.type('untap cab')
    wait(lambda: all(t['state'] == 'finished' for t in state(run.url)['taps']), 30, 'the take finished')

    # Learn: pressed in the first page, both pages show it waiting until a controller moves.
    before = {'first': learn_button(first), 'second': learn_button(second)}
    control(first, 'learn amp gain').click()
    wait(lambda: learn_button(first)['pressed'] == 'true' and learn_button(second)['pressed'] == 'true', 30,
         'both pages to show learn waiting')
    waiting = {'first': learn_button(first), 'second': learn_button(second),
               'learning': state(run.url).get('learning')}

    # A controller moves: CC 20 on channel 1 from a JACK client of Python's own.
    client = jack.Client('page-files-cc', servername=server, no_start_server=True)
    out = client.midi_outports.register('out')
    pending = threading.Event()

    @client.set_process_callback
    def process(frames):
        out.clear_buffer()
        if pending.is_set():
            out.write_midi_event(0, bytes([0xB0, 20, 64]))
            pending.clear()

    client.activate()
    target = wait(lambda: client.get_ports('midi_control', is_midi=True, is_input=True), 30, "fxhost's MIDI input")[0]
    client.connect(out, target)

    def learned():
        # Sent again at each look until learn ends: a message in the cycle before JACK's graph has
        # the new connection reaches no one (seen once in a whole run), and a repeat only maps the same CC.
        pending.set()
        return learn_button(first)['pressed'] == 'false' and learn_button(second)['pressed'] == 'false'

    wait(learned, 30, 'learn to end in both pages')
    done = {'first': learn_button(first), 'second': learn_button(second),
            'learning': state(run.url).get('learning'), 'mappings': state(run.url)['mappings']}
    run.type('map')
    # The console's `map` lists it as a mapping (its echo `mapped { … }` of the learn is a line of its own).
    mapped = wait(lambda: [line for line in run.stdout.splitlines() if 'cc: 20' in line and not line.startswith('mapped')],
                  30, "the console's map")
    client.deactivate()
    client.close()
    report('learn', before=before, waiting=waiting, done=done, console=mapped)
    report('exit', status=run.quit())
finally:
    first.quit()
    second.quit()
    if run.process.poll() is None:
        run.process.kill()
