"""Two pages of one run: the keyboard, the console, OSC, a drag, bypass,
learn with a MIDI controller, a scene and a tap's record/pause/resume/stop,
each followed in both pages; the tapped nodes' meters, a tap from the
console coming and going with its meter.
Arguments: fxhost, patch (with midi-control:), JACK server, OSC port, the patch's folder."""

import math
import os
import subprocess
import sys

from selenium.webdriver import ActionChains
from selenium.webdriver.common.keys import Keys

from fxhost_page import (Fxhost, browser, command, control, controller, open_page, peak, press, report, send_midi, status,
                         tap_state, value, wait)

fxhost_path, patch, server, osc, folder = sys.argv[1:6]
take = os.path.join(folder, 'take.wav')
run = Fxhost(fxhost_path, ['run', patch, '--server', server, '--quiet', '--osc', osc])
a, b = browser(), browser()


def grown():
    """Waits until the take holds another half second (mono float: 4 bytes a frame) of what was just set."""
    start = os.path.getsize(take)
    wait(lambda: os.path.getsize(take) >= start + 24_000 * 4, 30, 'the take to grow')


def binding(driver):
    return driver.find_element('css selector', '[data-binding="amp gain"]').text


def both(name, expected):
    wait(lambda: value(a, name) == expected and value(b, name) == expected, 30, f'{name} = {expected} in both pages')


try:
    open_page(a, run.url)
    open_page(b, run.url)
    # The meter once it shows a level and has shown the same text for five reads in a row (several updates).
    def meter():
        element = a.find_element('id', 'meter-main-0')
        return element.get_attribute('data-peak'), element.get_attribute('aria-valuetext')
    wait(lambda: meter()[0] not in (None, '-inf'), 30, 'the meter to show a level')
    readings = []
    def stable():
        readings.append(meter())
        return len(readings) >= 5 and len(set(readings[-5:])) == 1 and readings[-1]
    shown, text = wait(stable, 30, 'the meter to settle')
    report('meter', peak=float(shown), text=text)
    grown()

    # The keyboard: six steps down from 0 dB.
    gain = control(a, 'amp gain')
    report('control', role=gain.get_attribute('role'), min=gain.get_attribute('aria-valuemin'),
           max=gain.get_attribute('aria-valuemax'))
    a.execute_script('arguments[0].focus()', gain)
    ActionChains(a).send_keys(Keys.ARROW_LEFT * 6).perform()
    wait(lambda: value(a, 'amp gain') == '-6', 30, 'six steps down')
    both('amp gain', '-6')
    report('keyboard', value=float(value(a, 'amp gain')), text=gain.get_attribute('aria-valuetext'),
           second=float(value(b, 'amp gain')))
    grown()

    # The patch's tap on amp, metered in its tap row: what amp makes of 0.5 at -6 dB (held half a second).
    level, text, label = peak(a, 'amp')
    report('tap meter', peak=level, text=text, label=label, second=peak(b, 'amp')[0])
    # A tap from the console comes with its meter in both pages, and goes with it.
    run.type('tap dc ' + os.path.join(folder, 'dc-take.wav'))
    wait(lambda: all(peak(page, 'dc')[0] > -100 for page in (a, b)), 30, "dc's meter in both pages")
    level, text, label = peak(a, 'dc')
    report('console tap', peak=level, text=text, label=label, second=peak(b, 'dc')[0])
    run.type('untap dc')
    wait(lambda: not a.find_elements('id', 'tap-meter-dc-0') and not b.find_elements('id', 'tap-meter-dc-0'), 30,
         "dc's meter gone")
    report('console untap', a=len(a.find_elements('id', 'tap-meter-dc-0')), b=len(b.find_elements('id', 'tap-meter-dc-0')),
           amp=len(a.find_elements('id', 'tap-meter-amp-0')))

    # The console, then OSC.
    run.type('set amp gain -12')
    both('amp gain', '-12')
    report('console', value=float(value(a, 'amp gain')), second=float(value(b, 'amp gain')))
    grown()
    subprocess.run(['oscsend', '127.0.0.1', osc, '/fxhost/set', 'ssf', 'amp', 'gain', '-3'], check=True)
    both('amp gain', '-3')
    report('osc', value=float(value(a, 'amp gain')), second=float(value(b, 'amp gain')))
    grown()

    # A drag in page a, held while the console sets another value: not pulled back.
    gain = control(a, 'amp gain')  # drawn anew since (the console's tap read the state again)
    width = gain.size['width']
    ActionChains(a).move_to_element_with_offset(gain, int(-width / 2 + width * 0.25), 0).click_and_hold().perform()
    pressed = value(a, 'amp gain')
    ActionChains(a).move_by_offset(20, 0).perform()
    dragged = value(a, 'amp gain')
    wait(lambda: f'parameter amp gain {dragged}' in a.find_element('id', 'log').text, 30, 'the drag announced')
    run.type('set amp gain -40')
    wait(lambda: value(b, 'amp gain') == '-40', 30, 'page b at -40')
    wait(lambda: 'console: parameter amp gain -40' in a.find_element('id', 'log').text, 30, 'page a to hear the console')
    report('drag', pressed=float(pressed), dragged=float(dragged), held=float(value(a, 'amp gain')))
    ActionChains(a).release().perform()
    wait(lambda: value(a, 'amp gain') == '-40', 30, 'page a at -40 once released')
    report('released', value=float(value(a, 'amp gain')))
    grown()

    # Bypass on and off, then a scene.
    press(a, 'bypass amp')
    wait(lambda: control(b, 'bypass amp').get_attribute('aria-checked') == 'true', 30, 'bypass in page b')
    report('bypass', on=control(a, 'bypass amp').get_attribute('aria-checked'),
           greyed='bypassed' in a.find_element('css selector', '#graph .node[data-node="amp"]').get_attribute('class'))
    grown()
    press(a, 'bypass amp')
    wait(lambda: control(b, 'bypass amp').get_attribute('aria-checked') == 'false', 30, 'bypass off in page b')
    grown()
    # Learn from page a, then a controller moved by a JACK client of PyPI's JACK-Client into the port fxhost names.
    port = command(run.url, {'cmd': 'map'})['port']
    press(a, 'learn amp gain')
    learning = wait(lambda: binding(b).startswith('learning') and binding(b), 30, 'learning in page b')
    send_midi(server, port, [controller(20, 0)])
    console = wait(lambda: next((line for line in run.stdout.splitlines() if line.startswith('mapped ')), None), 30,
                   "the console's mapped line")
    wait(lambda: binding(a) == console and binding(b) == console, 30, 'the mapping in both pages')
    report('learn', port=port, learning=learning, console=console, page=binding(a), second=binding(b),
           value=float(value(a, 'amp gain')))
    send_midi(server, port, [controller(20, 50)])
    wait(lambda: value(a, 'amp gain') != '-40' and value(b, 'amp gain') == value(a, 'amp gain'), 30, 'the controller in both pages')
    grown()
    report('controller', value=float(value(a, 'amp gain')), second=float(value(b, 'amp gain')),
           text=control(a, 'amp gain').get_attribute('aria-valuetext'), meter=peak(a, 'amp')[0])
    press(a, 'scene quiet')
    both('amp gain', '-20')
    report('scene', value=float(value(a, 'amp gain')))
    grown()

    # A tap from the page: record, pause, resume, stop; after each, the server's state of that tap. While it is
    # paused the gain goes to -30 dB (heard on the output meter), back to -20 before resuming, then -10: the
    # takes must hold -20 and -10, never -30.
    def server_tap():
        return tap_state(run.url, 'amp-take.wav')
    states = []
    press(a, 'amp record')
    wait(lambda: control(b, 'pause tap amp'), 30, 'the tap in page b')
    states.append(server_tap())
    # The take's time, as the page shows it between two reads of the server's: it grows as the server's does.
    def seconds_shown():
        text = a.find_element('css selector', '[data-tap-time="amp"]').text
        return float(text.split(' s ')[0].split()[-1])
    times = []
    for _ in range(2):
        earlier = next(t['seconds'] for t in status(run.url)['taps'] if t['file'].endswith('/amp-take.wav'))
        wait(lambda: seconds_shown() > earlier + 0.2, 30, "the take's time to grow")
        shown = seconds_shown()
        later = next(t['seconds'] for t in status(run.url)['taps'] if t['file'].endswith('/amp-take.wav'))
        times.append([earlier, shown, later])
    # DSP load and xruns, as the page shows them between two reads of the server's status.
    before = status(run.url)
    dsp, xruns = a.find_element('id', 'dsp').text, a.find_element('id', 'xruns').text
    after = status(run.url)
    report('activity', dsp=dsp, xruns=xruns, before=[before['dspLoadPercent'], before['xruns']],
           after=[after['dspLoadPercent'], after['xruns']])
    press(a, 'pause tap amp')
    wait(lambda: control(b, 'resume tap amp'), 30, 'the tap paused in page b')
    states.append(server_tap())
    # Every tap of amp is paused (the patch's too): the output meter shows the -30 dB played meanwhile.
    def output_at(decibels):
        expected = 20 * math.log10(0.5) + decibels
        wait(lambda: abs(float(a.find_element('id', 'meter-main-0').get_attribute('data-peak')) - expected) < 0.01, 30,
             f'the output at {expected:.2f} dBFS')
    run.type('set amp gain -30')
    both('amp gain', '-30')
    output_at(-30)
    run.type('set amp gain -20')
    both('amp gain', '-20')
    output_at(-20)
    press(a, 'resume tap amp')
    wait(lambda: control(b, 'pause tap amp'), 30, 'the tap resumed in page b')
    states.append(server_tap())
    run.type('set amp gain -10')
    both('amp gain', '-10')
    grown()
    press(a, 'stop tap amp')
    wait(lambda: not a.find_elements('css selector', '[aria-label="stop tap amp"]'), 30, 'the tap stopped')
    states.append(server_tap() or 'gone')
    report('tap', states=states, times=times, file=os.path.exists(os.path.join(folder, 'amp-take.wav')))
    report('exit', status=run.quit())
finally:
    a.quit()
    b.quit()
    if run.process.poll() is None:
        run.process.kill()
