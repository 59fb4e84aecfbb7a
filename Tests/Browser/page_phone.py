"""Every control of a patch on a phone (390 x 844, touch): the page is no
wider than the screen, each control lies within it once scrolled to, and
each is used by touch (a finger on the middle of a slider, on a switch;
a menu opened by a finger; a long press on a slider; the scene, tap, tempo,
transport, save, bounce and preset controls), the server's state agreeing.
Every element a keyboard or a screen reader reaches has a role and a name,
as the browser's accessibility tree computes them. Each patch is copied
into a folder of its own (the takes and the save land there) with a scene
that bypasses its first plugin (the first copy also gets a plugin with a
menu and one with presets). Arguments: fxhost, JACK server, a folder, then
patch files."""

import os
import re
import shutil
import sys
import time

from selenium.webdriver import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from fxhost_page import (Fxhost, browser, centre, control, hold, lv2_default, open_page, report, settled, state, status, tap_state,
                         touch, touch_control, touch_found, wait)

fxhost_path, server, folder, originals = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]


def parameter(url, node, symbol):
    for each in state(url)['nodes']:
        if each['name'] == node:
            return next(p for p in each['parameters'] if p['symbol'] == symbol)


def accessible(driver):
    """Each element of the page a keyboard or a screen reader reaches ([tabindex], button, select, input,
    [role]): its tag, the role and the name Chromium's accessibility tree gives it, and whether it shows."""
    return [[e.tag_name, e.aria_role, e.accessible_name, e.is_displayed()]
            for e in driver.find_elements(By.CSS_SELECTOR, '[tabindex], button, select, input, [role]')]


def choose(driver, find):
    """A menu (the element `find()` returns, found anew if the page redrew it) opened by a finger, the option
    next to the chosen one taken in the picker it opened (headless Chromium draws the native picker outside
    the page, where no touch event reaches: its own keys do)."""
    def place():
        element = find()
        last = element.get_property('selectedIndex') == len(element.find_elements(By.TAG_NAME, 'option')) - 1
        return last, centre(driver, element)
    last, point = wait(place, 30, 'the menu on the page')
    touch(driver, *point)
    ActionChains(driver).send_keys(Keys.ARROW_UP if last else Keys.ARROW_DOWN).send_keys(Keys.ENTER).perform()


def shows(driver, name):
    return driver.find_elements(By.CSS_SELECTOR, f'[aria-label="{name}"]')


def session(run, phone, patch, first):
    """The session's controls and a node's preset menu and tap, each by touch; after each, the server's account."""
    seen = {}
    touch_control(phone, 'scene phone')
    wait(lambda: control(phone, f'bypass {first}').get_attribute('aria-checked') == 'true', 30, 'the scene in the page')
    seen['scene'] = bypassed(run.url, first)
    take = f'{first}-take.wav'
    states = []
    for name, after in [(f'{first} record', f'pause tap {first}'), (f'pause tap {first}', f'resume tap {first}'),
                        (f'resume tap {first}', f'pause tap {first}')]:
        touch_control(phone, name)
        wait(lambda: shows(phone, after), 30, f'{after} shown')
        states.append(tap_state(run.url, take))
    touch_control(phone, f'stop tap {first}')
    wait(lambda: not shows(phone, f'stop tap {first}'), 30, 'the tap stopped')
    states.append(tap_state(run.url, take) or 'gone')
    seen['tap'] = states
    seen['take'] = os.path.exists(os.path.join(os.path.dirname(patch), take))
    # Four taps of a finger about 400 ms apart: the server's tempo, and when the browser delivered each tap's
    # click (noted by a listener of the script's own, not the page's clock).
    before = state(run.url)['tempo']['beatsPerMinute']
    # The listener is the document's, so a redraw of the button between taps loses none of them.
    times = []
    phone.execute_script('''window.clicks = [];
        document.addEventListener('click', event => {
            if (event.target.closest('#tap-tempo')) window.clicks.push(performance.now());
        }, true);''')
    x, y = wait(lambda: centre(phone, phone.find_element(By.ID, 'tap-tempo')), 30, 'tap tempo on the page')
    for _ in range(4):
        if times:
            time.sleep(max(0, times[-1] + 0.4 - time.monotonic()))  # the rhythm played, not a wait for a result
        times.append(time.monotonic())
        touch(phone, x, y)
    bpm = wait(lambda: state(run.url)['tempo']['beatsPerMinute'] != before and state(run.url)['tempo']['beatsPerMinute'], 30,
               'the tapped tempo')
    seen['tempo'] = dict(before=before, bpm=bpm, taps=phone.execute_script('return window.clicks'))
    rolling = state(run.url)['tempo']['rolling']
    touch_found(phone, lambda: phone.find_element(By.ID, 'transport'), 'transport')
    wait(lambda: phone.find_element(By.ID, 'transport').get_attribute('aria-checked') != ('true' if rolling else 'false'), 30, 'the transport in the page')
    seen['transport'] = [rolling, state(run.url)['tempo']['rolling']]
    # Save: the file is written anew with the scene's bypass in it.
    text = open(patch).read()
    touch_found(phone, lambda: phone.find_element(By.ID, 'save'), 'save')
    saved = wait(lambda: open(patch).read() != text and open(patch).read(), 30, 'the save')
    seen['save'] = dict(before=text, after=saved)
    # Bounce: these patches play live inputs, no file: the bounce is the tail alone, silence (the inputs are
    # not connected); its file is judged by the Swift test.
    file = phone.find_element(By.ID, 'bounce-file').get_attribute('value')
    touch_found(phone, lambda: phone.find_element(By.ID, 'bounce'), 'bounce')
    wait(lambda: 'bounce.finished' in phone.find_element(By.ID, 'log').text, 60, 'the bounce to finish')
    seen['bounce'] = os.path.join(os.path.dirname(patch), file)
    # A node's preset menu, by touch: the server's values before and after. The names are read again
    # when the page redraws under the reading (the bounce's end is a change it draws).
    menus = wait(lambda: ([m.get_attribute('aria-label')
                           for m in phone.find_elements(By.CSS_SELECTOR, '#nodes select[aria-label$=" preset"]')],),
                 30, 'the preset menus')[0]
    if menus:
        node = menus[0][:-len(' preset')]
        values = lambda: {p['symbol']: p['value'] for n in state(run.url)['nodes'] if n['name'] == node for p in n['parameters']}
        earlier = values()
        choose(phone, lambda: control(phone, f'{node} preset'))
        seen['preset'] = dict(node=node, before=earlier, after=wait(lambda: values() != earlier and values(), 30, 'the preset'))
    return seen


def copy(index, original):
    """The patch in a folder of its own, with a scene `phone` that bypasses its first plugin node. The bundled
    presets have no enumeration and no plugin with presets: the first copy gets Calf Filter (its `mode` is a
    menu) and mda Detune (it has presets), unconnected, so that a menu and a preset menu are used by touch."""
    text = open(original).read()
    first = re.search(r'^  ([A-Za-z0-9_-]+):\s*(?:\{\s*)?\n?\s*plugin:', text, re.M).group(1)
    if index == 0:
        text = re.sub(r'^nodes:\n', 'nodes:\n  menus: { plugin: http://calf.sourceforge.net/plugins/Filter }\n'
                      '  presets: { plugin: mda/Detune }\n', text, count=1, flags=re.M)
    place = os.path.join(folder, f'phone-{index}')
    os.makedirs(place, exist_ok=True)
    path = os.path.join(place, os.path.basename(original))
    with open(path, 'w') as out:
        out.write(text.rstrip('\n') + f'\nscenes:\n  phone: {{ {first}: {{ bypass: true }} }}\n')
    return path, first


def bypassed(url, node):
    return next(n['bypassed'] for n in state(url)['nodes'] if n['name'] == node)


for index, original in enumerate(originals):
    patch, first = copy(index, original)
    run = Fxhost(fxhost_path, ['run', patch, '--server', server, '--name', f'fxhost-phone-{index}', '--no-connect', '--quiet'])
    phone = browser(390, 844, phone=True)
    try:
        open_page(phone, run.url)
        outside, unused, used = [], [], {'slider': 0, 'switch': 0, 'bypass': 0, 'menu': 0}
        controls = phone.find_elements(By.CSS_SELECTOR,
                                       '#nodes [role=slider], #nodes [role=switch], #nodes select, #nodes button, #session button, #session input')
        for element in controls:
            if not element.is_displayed():
                continue  # cancel bounce: shown while a bounce runs
            name = element.get_attribute('aria-label') or element.text
            phone.execute_script('arguments[0].scrollIntoView({block: "center"})', element)
            box = phone.execute_script('const r = arguments[0].getBoundingClientRect(); return [r.left, r.right, r.top, r.bottom]', element)
            if box[0] < 0 or box[1] > 390 or box[2] < 0 or box[3] > 844 or box[3] - box[2] < 32:
                outside.append([name, box])
        for number, element in enumerate(phone.find_elements(By.CSS_SELECTOR, '#nodes [role=slider]')):
            node, symbol = element.get_attribute('aria-label').split(' ', 1)
            # Turn about where it lies on the screen: two taps in one place would be a double tap (the default).
            phone.execute_script(f'arguments[0].scrollIntoView({{block: "{"center" if number % 2 else "end"}"}})', element)
            box = phone.execute_script('const r = arguments[0].getBoundingClientRect(); return [r.left, r.top, r.width, r.height]', element)
            before = element.get_attribute('aria-valuenow')
            # A quarter of the way from the side away from the thumb, so the value must move.
            thumb = phone.execute_script('return arguments[0].querySelector(".thumb").getBoundingClientRect().left', element)
            x = box[0] + box[2] * (0.25 if thumb > box[0] + box[2] / 2 else 0.75)
            touch(phone, x, box[1] + box[3] / 2)
            try:
                shown = wait(lambda: element.get_attribute('aria-valuenow') != before and element.get_attribute('aria-valuenow'),
                             10, f'{node} {symbol} to move')
                wait(lambda: abs(parameter(run.url, node, symbol)['value'] - float(element.get_attribute('aria-valuenow')))
                     <= 1e-4 * max(1, abs(float(shown))), 30, f'the server to agree on {node} {symbol}')
                used['slider'] += 1
            except TimeoutError as error:
                unused.append([node, symbol, str(error)])
        for element in phone.find_elements(By.CSS_SELECTOR, '#nodes [role=switch]'):
            name = element.get_attribute('aria-label')
            # The node's own bypass is `bypass NODE` and marked data-bypass; a parameter's switch is
            # `NODE SYMBOL` (a plugin's parameter may be named bypass too).
            if element.get_attribute('data-bypass') is not None:
                node, what = element.get_attribute('data-bypass'), 'bypass'
            else:
                node, what = name.split(' ', 1)
                what = 'param ' + what
            phone.execute_script('arguments[0].scrollIntoView({block: "center"})', element)
            box = phone.execute_script('const r = arguments[0].getBoundingClientRect(); return [r.left, r.top, r.width, r.height]', element)
            before = element.get_attribute('aria-checked')
            touch(phone, box[0] + box[2] / 2, box[1] + box[3] / 2)
            try:
                wait(lambda: element.get_attribute('aria-checked') != before, 30, f'{name} to switch')
                on = element.get_attribute('aria-checked') == 'true'
                if what == 'bypass':
                    wait(lambda: bypassed(run.url, node) == on, 30, f'the server to agree on {name}')
                    touch(phone, box[0] + box[2] / 2, box[1] + box[3] / 2)  # and back: the rest play on
                    wait(lambda: bypassed(run.url, node) == (not on), 30, f'{name} back')
                else:
                    wait(lambda: (parameter(run.url, node, what[len('param '):])['value'] >= 0.5) == on, 30,
                         f'the server to agree on {name}')
                used['bypass' if what == 'bypass' else 'switch'] += 1
            except TimeoutError as error:
                unused.append([name, str(error)])
        for element in phone.find_elements(By.CSS_SELECTOR, '#nodes .param select'):
            label = element.get_attribute('aria-label')
            node, symbol = label.split(' ', 1)
            # A slider's scale points (symbols have no spaces): the menu sets the slider's parameter and
            # shows its title again; the slider shows the value.
            points = symbol.endswith(' points')
            symbol = symbol.removesuffix(' points')
            before = parameter(run.url, node, symbol)['value']
            options = [float(o.get_attribute('value')) for o in element.find_elements(By.TAG_NAME, 'option')
                       if o.get_attribute('value') != '']
            if points:  # from the title, the first point, or the second when the first is the value now
                touch_control(phone, label)
                steps = [Keys.ARROW_DOWN] * (2 if abs(options[0] - before) <= 1e-6 * max(1, abs(before)) else 1)
                ActionChains(phone).send_keys(*steps).send_keys(Keys.ENTER).perform()
            else:
                choose(phone, lambda: control(phone, label))
            try:
                wait(lambda: parameter(run.url, node, symbol)['value'] != before, 30, f'the server to take {node} {symbol}')
                after = parameter(run.url, node, symbol)['value']
                shown = float(control(phone, f'{node} {symbol}').get_attribute('aria-valuenow') if points
                              else control(phone, label).get_attribute('value'))
                if any(abs(after - o) <= 1e-6 * max(1, abs(o)) for o in options) and abs(shown - after) <= 1e-6 * max(1, abs(after)):
                    used['menu'] += 1
                else:
                    unused.append([node, symbol, f'{after} is not an option shown or not the one the menu shows'])
            except TimeoutError as error:
                unused.append([node, symbol, str(error)])
        # A long press (700 ms) on the first slider, far from its default: the default, as lv2info reads it.
        element = phone.find_elements(By.CSS_SELECTOR, '#nodes [role=slider]')[0]
        name = element.get_attribute('aria-label')
        node, symbol = name.split(' ', 1)
        default = lv2_default(next(n['plugin'] for n in state(run.url)['nodes'] if n['name'] == node), symbol)
        low, high = float(element.get_attribute('aria-valuemin')), float(element.get_attribute('aria-valuemax'))
        x, y = centre(phone, element)
        box = phone.execute_script('const r = arguments[0].getBoundingClientRect(); return [r.left, r.width]', element)
        x = box[0] + box[1] * (0.9 if (default - low) / (high - low) < 0.5 else 0.1)
        start, moves = element.get_attribute('aria-valuenow'), []
        def moved_twice():
            now = element.get_attribute('aria-valuenow')
            if not moves and now != start:
                moves.append(now)
            return moves and now != moves[0] and now
        hold(phone, x, y, moved_twice, f'a long press on {name}')
        held = settled(lambda: (element.get_attribute('aria-valuenow'), parameter(run.url, node, symbol)['value']),
                       f'{name} after the long press')
        longpress = dict(name=name, default=default, pressed=float(moves[0]), page=float(held[0]), server=held[1])
        kinds = dict(slider=len(phone.find_elements(By.CSS_SELECTOR, '#nodes [role=slider]')),
                     switch=len(phone.find_elements(By.CSS_SELECTOR, '#nodes .param [role=switch]')),
                     bypass=len(phone.find_elements(By.CSS_SELECTOR, '#nodes [data-bypass]')),
                     menu=len(phone.find_elements(By.CSS_SELECTOR, '#nodes .param select')))
        report('patch', patch=original, kinds=kinds, longpress=longpress, accessible=accessible(phone),
               session=session(run, phone, patch, first), width=phone.execute_script('return document.documentElement.scrollWidth'),
               controls=len(controls), outside=outside, used=used, unused=unused,
               sliders=len(phone.find_elements(By.CSS_SELECTOR, '#nodes [role=slider]')))
        report('exit', status=run.quit())
    finally:
        phone.quit()
        if run.process.poll() is None:
            run.process.kill()
