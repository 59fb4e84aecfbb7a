"""Every control of a patch on a phone (390 x 844, touch): the page is no
wider than the screen, each control lies within it once scrolled to, and
each is used by touch (a finger on the middle of a slider, on a switch;
a menu's other option), the server's state agreeing with what the control
shows. Arguments: fxhost, JACK server, then patch files."""

import json
import sys
import urllib.request

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from fxhost_page import Fxhost, browser, open_page, report, touch, wait

fxhost_path, server, patches = sys.argv[1], sys.argv[2], sys.argv[3:]


def state(url):
    with urllib.request.urlopen(url.rstrip('/') + '/api/v1/state', timeout=30) as reply:
        return json.load(reply)


def parameter(url, node, symbol):
    for each in state(url)['nodes']:
        if each['name'] == node:
            return next(p for p in each['parameters'] if p['symbol'] == symbol)


def bypassed(url, node):
    return next(n['bypassed'] for n in state(url)['nodes'] if n['name'] == node)


for index, patch in enumerate(patches):
    run = Fxhost(fxhost_path, ['run', patch, '--server', server, '--name', f'fxhost-phone-{index}', '--no-connect', '--quiet'])
    phone = browser(390, 844, phone=True)
    try:
        open_page(phone, run.url)
        outside, used, unused = [], 0, []
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
                used += 1
            except TimeoutError as error:
                unused.append([node, symbol, str(error)])
        for element in phone.find_elements(By.CSS_SELECTOR, '#nodes [role=switch]'):
            name = element.get_attribute('aria-label')
            node, what = name.split(' ', 1)
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
                    wait(lambda: (parameter(run.url, node, what)['value'] >= 0.5) == on, 30, f'the server to agree on {name}')
                used += 1
            except TimeoutError as error:
                unused.append([name, str(error)])
        for element in phone.find_elements(By.CSS_SELECTOR, '#nodes .param select'):
            node, symbol = element.get_attribute('aria-label').split(' ', 1)
            symbol = symbol.removesuffix(' points')  # a slider's scale points set its parameter (symbols have no spaces)
            menu = Select(element)
            other = next(o for o in menu.options if not o.is_selected())
            menu.select_by_value(other.get_attribute('value'))
            try:
                wait(lambda: parameter(run.url, node, symbol)['value'] == float(other.get_attribute('value')), 30,
                     f'the server to agree on {node} {symbol}')
                used += 1
            except TimeoutError as error:
                unused.append([node, symbol, str(error)])
        report('patch', patch=patch, width=phone.execute_script('return document.documentElement.scrollWidth'),
               controls=len(controls), outside=outside, used=used, unused=unused,
               sliders=len(phone.find_elements(By.CSS_SELECTOR, '#nodes [role=slider]')))
        report('exit', status=run.quit())
    finally:
        phone.quit()
        if run.process.poll() is None:
            run.process.kill()
