"""Tap tempo, the preset menu and a change made through `--watch`, in one
page. Arguments: fxhost, patch, JACK server, the preset's .ttl file and its
label."""

import json
import re
import sys
import urllib.request

from fxhost_page import Fxhost, browser, control, open_page, report, value, wait

fxhost_path, patch, server, ttl, label = sys.argv[1:6]


def state(url):
    with urllib.request.urlopen(url.rstrip('/') + '/api/v1/state', timeout=30) as reply:
        return json.load(reply)


def parameter(url, node, symbol):
    return next(p['value'] for n in state(url)['nodes'] if n['name'] == node for p in n['parameters'] if p['symbol'] == symbol)


def preset_values(path, name):
    """The preset's port values, read from its .ttl (the block whose rdfs:label is `name`)."""
    text = open(path).read()
    block = next(b for b in text.split(' .\n') if f'rdfs:label "{name}"' in b)
    return {symbol: float(number) for symbol, number in
            re.findall(r'lv2:symbol "([^"]+)"\s*;\s*pset:value ([-0-9.eE]+)', block)}


run = Fxhost(fxhost_path, ['run', patch, '--server', server, '--quiet', '--no-connect', '--watch'])
page = browser()
try:
    open_page(page, run.url)

    # Tap tempo: four taps 400 ms apart, timed inside the page by busy-waiting on
    # performance.now (a click dispatches its listener at once), so the intervals
    # are 400 ms within the clock's resolution.
    before = state(run.url)['tempo']['beatsPerMinute']
    taps = page.execute_script('''
        const button = document.getElementById('tap-tempo'), start = performance.now(), times = [];
        for (let i = 0; i < 4; i++) {
          while (performance.now() < start + 400 * i) {}
          times.push(performance.now());
          button.click();
        }
        return times;''')
    bpm = wait(lambda: state(run.url)['tempo']['beatsPerMinute'] != before and state(run.url)['tempo']['beatsPerMinute'],
               30, 'the tapped tempo')
    wait(lambda: page.find_element('id', 'tempo').get_attribute('value') != str(before), 30, 'the page to show it')
    report('tap tempo', taps=taps, before=before, bpm=bpm,
           shown=float(page.find_element('id', 'tempo').get_attribute('value')))

    # The preset menu: choosing one applies it, in the server and the page.
    expected = preset_values(ttl, label)
    earlier = {s: parameter(run.url, 'det', s) for s in expected}
    menu = control(page, 'det preset')
    menu.find_element('xpath', f'.//option[. = "{label}"]').click()
    wait(lambda: all(abs(parameter(run.url, 'det', s) - v) < 1e-6 for s, v in expected.items()), 30, 'the preset applied')
    wait(lambda: all(value(page, f'det {s}') is not None and abs(float(value(page, f'det {s}')) - v) < 1e-6
                     for s, v in expected.items()), 30, 'the page to show the preset')
    report('preset', expected=expected, before=earlier,
           server={s: parameter(run.url, 'det', s) for s in expected},
           page={s: float(value(page, f'det {s}')) for s in expected})

    # --watch: the patch file edited, the open page shows the new value.
    with open(patch) as text:
        changed = text.read().replace('gain: 0 }', 'gain: -9 }')
    with open(patch, 'w') as text:
        text.write(changed)
    watched = wait(lambda: value(page, 'amp gain') == '-9' and value(page, 'amp gain'), 30, 'the edited patch')
    report('watch', value=float(watched))
    report('exit', status=run.quit())
finally:
    page.quit()
    if run.process.poll() is None:
        run.process.kill()
