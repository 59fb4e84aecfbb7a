"""Tap tempo, the preset menu, a scene that glides, the feedback button and
a change made through `--watch`, in one page. Arguments: fxhost, patch, JACK
server, the preset's .ttl file and its label."""

import math
import os
import re
import sys

from selenium.webdriver import ActionChains
from selenium.webdriver.common.keys import Keys

from fxhost_page import Fxhost, browser, control, open_page, parameter, peak, report, settled, state, tap_state, value, wait

fxhost_path, patch, server, ttl, label = sys.argv[1:6]


def press_at(driver, element, fraction):
    """A mouse press and release at `fraction` of `element`'s width (exact, not rounded to a pixel), at mid-height."""
    box = driver.execute_script('const r = arguments[0].getBoundingClientRect(); return [r.left, r.top, r.width, r.height]', element)
    x, y = box[0] + box[2] * fraction, box[1] + box[3] / 2
    for kind in ('mousePressed', 'mouseReleased'):
        driver.execute_cdp_cmd('Input.dispatchMouseEvent', {'type': kind, 'x': x, 'y': y, 'button': 'left', 'clickCount': 1})


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

    # Tap tempo: four taps at 0, 300, 600 and 1500 ms, timed inside the page by busy-waiting on
    # performance.now (a click dispatches its listener at once), so the intervals
    # are those within the clock's resolution.
    before = state(run.url)['tempo']['beatsPerMinute']
    taps = page.execute_script('''
        const button = document.getElementById('tap-tempo'), start = performance.now(), times = [];
        for (const offset of [0, 300, 600, 1500]) {
          while (performance.now() < start + offset) {}
          times.push(performance.now());
          button.click();
        }
        return times;''')
    # The page sends `tempo.tap` at each click and the server times the taps as they arrive: the tempo
    # is 200 after the second and third tap, then 120 bpm (the last interval is 900 ms). The server
    # must end on the four taps' mean interval, within what the way from the page to the server's
    # thread adds to each tap (tens of milliseconds on a loaded machine: 12 bpm is about 150 ms over
    # the 1.5 s), not on an earlier tap's tempo, 80 bpm away.
    final = 60000 / ((taps[-1] - taps[0]) / 3)
    try:
        bpm = wait(lambda: abs(state(run.url)['tempo']['beatsPerMinute'] - final) < 12 and state(run.url)['tempo']['beatsPerMinute'],
                   30, 'the tempo of the four taps')
    except TimeoutError as error:
        raise TimeoutError(f"{error}: {final} from the taps {taps}, the server's {state(run.url)['tempo']['beatsPerMinute']}")
    wait(lambda: float(page.find_element('id', 'tempo').get_attribute('value')) == bpm, 30, "the page to show the server's tempo")
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

    # Calf Filter's freq (logarithmic, Hz) pressed at the middle of its slider; inertia (ms); Calf Phaser's
    # stages (an integer) pressed where a linear value would be 1 + 11 x 0.37 = 5.07; the server holds each.
    scales = {}
    for name, fraction in [('filt freq', 0.5), ('ph stages', 0.37)]:
        element = control(page, name)
        page.execute_script('arguments[0].scrollIntoView({block: "center"})', element)
        before = value(page, name)
        press_at(page, element, fraction)
        node, symbol = name.split(' ')
        shown = settled(lambda: value(page, name) != before and (value(page, name), parameter(run.url, node, symbol)),
                        f'{name} pressed')
        scales[symbol] = dict(page=float(shown[0]), server=shown[1], text=control(page, name).get_attribute('aria-valuetext'),
                              minimum=control(page, name).get_attribute('aria-valuemin'),
                              maximum=control(page, name).get_attribute('aria-valuemax'))
    scales['inertia'] = dict(text=control(page, 'filt inertia').get_attribute('aria-valuetext'),
                             page=float(value(page, 'filt inertia')))
    report('scales', **scales)

    # The keyboard on a switch (Space) and on a menu (Down Arrow): the server's value changes.
    keyboard = {}
    switch = control(page, 'ph lfo')
    before = parameter(run.url, 'ph', 'lfo')
    page.execute_script('arguments[0].focus()', switch)
    ActionChains(page).send_keys(Keys.SPACE).perform()
    keyboard['switch'] = [before, wait(lambda: parameter(run.url, 'ph', 'lfo') != before and [parameter(run.url, 'ph', 'lfo')], 30,
                                       'Space on ph lfo')[0], switch.get_attribute('aria-checked')]
    menu = control(page, 'filt mode')
    before = parameter(run.url, 'filt', 'mode')
    page.execute_script('arguments[0].focus()', menu)
    ActionChains(page).send_keys(Keys.ARROW_DOWN).perform()
    keyboard['menu'] = [before, wait(lambda: parameter(run.url, 'filt', 'mode') != before and [parameter(run.url, 'filt', 'mode')], 30,
                                     'Down Arrow on filt mode')[0], menu.get_attribute('value')]
    report('keyboard', **keyboard)

    # A scene from the page with its glide field at 1 s: a tap on amp (typed at the console) records the
    # glide (the test judges the take); it ends once amp's meter in the page shows the scene's level,
    # 0.5 at -20 dB: 20 log10(0.05) = -26.02 dBFS. No `output:` in the patch: no feedback button.
    take = os.path.join(os.path.dirname(os.path.abspath(patch)), 'glide.wav')
    run.type(f'tap amp {take}')
    wait(lambda: tap_state(run.url, 'glide.wav') == 'recording', 30, 'the glide take to record')
    wait(lambda: page.find_elements('id', 'tap-meter-amp-0') and peak(page, 'amp')[0] > -100, 30, "amp's meter in the page")
    glide = page.find_element('id', 'scene-glide')
    glide.clear()
    glide.send_keys('1')
    page.find_element('css selector', '[aria-label="scene quiet"]').click()
    wait(lambda: abs(peak(page, 'amp')[0] - 20 * math.log10(0.05)) < 0.01, 30, 'the glide to end on the scene')
    run.type('untap amp')
    wait(lambda: tap_state(run.url, 'glide.wav') in (None, 'finished'), 30, 'the glide take to finish')
    report('glide', feedback_hidden=page.find_element('id', 'feedback').get_attribute('hidden') is not None,
           state_feedback=state(run.url)['feedback'])

    # --watch: the patch file edited, the open page shows the new value (and the server holds it).
    earlier = value(page, 'amp gain')
    with open(patch) as text:
        changed = text.read().replace('gain: 0 }', 'gain: -9 }')
    with open(patch, 'w') as text:
        text.write(changed)
    watched = wait(lambda: value(page, 'amp gain') != earlier and value(page, 'amp gain'), 30, 'the edited patch')
    report('watch', value=float(watched), server=parameter(run.url, 'amp', 'gain'))
    report('exit', status=run.quit())
finally:
    page.quit()
    if run.process.poll() is None:
        run.process.kill()
