"""A page that loses its server and finds another on the same port reads
the new state; a refusal is shown where it happened, in the console's
sentence. Arguments: fxhost, patch, JACK server."""

import os
import subprocess
import sys
import urllib.parse

from selenium.webdriver import ActionChains
from selenium.webdriver.common.keys import Keys

from fxhost_page import (Fxhost, browser, control, lv2_default, open_page, parameter, press, report, settled, state, value,
                         wait)

fxhost_path, patch, server = sys.argv[1:4]


run = Fxhost(fxhost_path, ['run', patch, '--server', server, '--quiet', '--no-connect'])
page = browser()
try:
    open_page(page, run.url)
    # The keyboard's other keys: Home and End are the ends of the range; one Left Arrow is the page's step,
    # Page Down moves by ten of them; the server holds what the slider reports.
    gain = control(page, 'amp gain')
    page.execute_script('arguments[0].focus()', gain)
    keys = {}
    for key, name in [(Keys.HOME, 'home'), (Keys.END, 'end'), (Keys.ARROW_LEFT, 'arrow'), (Keys.PAGE_DOWN, 'pagedown')]:
        before = value(page, 'amp gain')
        ActionChains(page).send_keys(key).perform()
        keys[name] = float(wait(lambda: value(page, 'amp gain') != before and value(page, 'amp gain'), 30, name))
    wait(lambda: parameter(run.url, 'amp', 'gain') == keys['pagedown'], 30, 'the server to take Page Down')
    keys['server'] = parameter(run.url, 'amp', 'gain')
    # A double-click puts the slider back to the plugin's default, as its .ttl gives it (lv2info).
    ActionChains(page).double_click(gain).perform()
    default = lv2_default('http://lv2plug.in/plugins/eg-amp', 'gain')
    doubled = settled(lambda: (value(page, 'amp gain'), parameter(run.url, 'amp', 'gain')), 'the double-click to settle')
    keys.update(default=default, doubled=float(doubled[0]), doubledServer=doubled[1])
    report('keys', **keys)
    run.type('set amp gain 0')
    wait(lambda: value(page, 'amp gain') == '0', 30, 'back to 0')

    # A change announced while the page reads the state anew is not lost to that read's older answer: the
    # state's reply, answered before the set, is held on its way to the page (as a slow network would)
    # until the console's set is heard over the events stream.
    page.execute_script("""
        window.heldRead = null;
        window.realFetch = window.fetch;
        window.fetch = (url, options) => String(url).includes('/api/v1/state')
          ? window.realFetch(url, options).then((reply) => new Promise((resolve) => { window.heldRead = () => resolve(reply); }))
          : window.realFetch(url, options);""")
    run.type('tap dc ' + os.path.join(os.path.dirname(patch), 'slow-read.wav'))
    wait(lambda: page.execute_script('return window.heldRead !== null'), 30, 'a read of the state held')
    run.type('set amp gain -7')
    wait(lambda: 'console: parameter amp gain -7' in page.find_element('id', 'log').text, 30, 'the set heard')
    page.execute_script('window.fetch = window.realFetch; window.heldRead();')
    wait(lambda: page.find_elements('css selector', '[aria-label="stop tap dc"]'), 30, 'the read drawn')
    report('held read', value=float(value(page, 'amp gain')))
    run.type('untap dc')
    run.type('set amp gain 0')
    wait(lambda: value(page, 'amp gain') == '0' and not page.find_elements('css selector', '[aria-label="stop tap dc"]'), 30,
         'back to 0, untapped')

    # Refusals where they happened: learn with no MIDI input, under its control; a tempo out of range, under the session's row.
    press(page, 'learn amp gain')
    learn = wait(lambda: page.find_element('css selector', '[data-node="amp"] .param .refusal').text, 30, 'the learn refusal')
    tempo = control(page, 'tempo')
    tempo.clear()
    tempo.send_keys('5000\n')
    session = wait(lambda: page.find_element('id', 'session-refusal').text, 30, 'the tempo refusal')
    run.type('learn amp gain')
    run.type('tempo 5000')
    def typed():  # the console's own refusals, not its notes of the web's (`fxhost: error: web:…: refused: …`)
        return [line[len('fxhost: error: '):] for line in run.stderr.splitlines()
                if line.startswith('fxhost: error: ') and not line.startswith('fxhost: error: web:')]
    console = wait(lambda: len(typed()) >= 2 and typed(), 30, "the console's refusals")
    report('refusals', page=[learn, session], console=console)

    # The server goes away: the page says so; another comes back on the same port with the patch changed.
    port = urllib.parse.urlparse(run.url).port
    report('before', value=float(value(page, 'amp gain')))
    report('first exit', status=run.quit())
    wait(lambda: page.find_element('id', 'connection').text == 'reconnecting…', 30, 'the page to notice')
    with open(patch) as text:
        changed = text.read().replace('gain: 0', 'gain: -9')
    with open(patch, 'w') as text:
        text.write(changed)
    run = Fxhost(fxhost_path, ['run', patch, '--server', server, '--quiet', '--no-connect'], web=str(port))
    try:
        wait(lambda: page.find_element('id', 'connection').text == 'live' and value(page, 'amp gain') == '-9', 30,
             'the page to catch up')
    except TimeoutError as error:  # say what the page showed, for a failure seen once in a while
        raise TimeoutError(f"{error}: connection {page.find_element('id', 'connection').text!r}, "
                           f"gain {value(page, 'amp gain')!r}, server {parameter(run.url, 'amp', 'gain')!r}, "
                           f"log {page.find_element('id', 'log').text[-600:]!r}, stderr {run.stderr[-600:]!r}") from None
    report('after', value=float(value(page, 'amp gain')), connection=page.find_element('id', 'connection').text)

    # The graph opens a node's controls; tempo, bounce and save act as their console commands do.
    page.find_element('css selector', '#graph .node[data-node="amp"]').click()
    selected = wait(lambda: 'selected' in page.find_element('css selector', '#nodes .panel[data-node="amp"]').get_attribute('class')
                    and page.execute_script('return document.activeElement.getAttribute("aria-label")'), 30, 'amp opened')
    # From the keyboard: focus elsewhere, then on amp's node in the graph; Enter opens its controls, focused.
    control(page, 'tempo').click()
    page.execute_script("document.querySelector('#graph .node[data-node=\"amp\"]').focus()")
    focused = page.execute_script('return document.activeElement.dataset.node')
    ActionChains(page).send_keys(Keys.ENTER).perform()
    entered = wait(lambda: page.execute_script('return document.activeElement.getAttribute("aria-label")') != 'tempo'
                   and page.execute_script('return document.activeElement.closest("#nodes .panel")?.dataset.node'), 30,
                   'Enter to open amp')
    report('enter', focused=focused, panel=entered,
           control=page.execute_script('return document.activeElement.getAttribute("aria-label")'))
    earlier = state(run.url)['tempo']['beatsPerMinute']
    tempo = control(page, 'tempo')
    tempo.clear()
    tempo.send_keys('150\n')
    bpm = wait(lambda: state(run.url)['tempo']['beatsPerMinute'] != earlier and state(run.url)['tempo']['beatsPerMinute'], 30,
               'the tempo')
    bounce = control(page, 'bounce file')
    bounce.clear()
    bounce.send_keys('page-bounce.wav')
    # Every value the progress bar takes while shown, noted as the page sets it.
    page.execute_script('''
        const bar = document.getElementById('bounce-progress');
        window.progress = [];
        new MutationObserver(() => { if (!bar.hidden) window.progress.push(bar.value); })
          .observe(bar, { attributes: true, attributeFilter: ['value', 'hidden'] });''')
    page.find_element('id', 'bounce').click()
    wait(lambda: 'bounce.finished' in page.find_element('id', 'log').text, 60, 'the bounce to finish')
    wait(lambda: not page.find_element('id', 'bounce-progress').is_displayed(), 30, 'the progress bar to go')
    report('bounce', progress=page.execute_script('return window.progress'))
    run.type('set amp gain -4')
    wait(lambda: value(page, 'amp gain') == '-4', 30, 'amp at -4')
    page.find_element('id', 'save').click()
    wait(lambda: 'saved' in page.find_element('id', 'log').text, 30, 'the save')
    report('session', selected=selected, bpm=bpm)
    report('exit', status=run.quit())
finally:
    page.quit()
    if run.process.poll() is None:
        run.process.kill()
