"""The README's pictures of the page: a preset on a laptop (1280 x 800) and
on a phone (390 x 844). Arguments: fxhost, JACK server, patch, output folder."""

import os
import sys

from fxhost_page import Fxhost, browser, open_page, wait

fxhost_path, server, patch, folder = sys.argv[1:5]
run = Fxhost(fxhost_path, ['run', patch, '--server', server, '--no-connect', '--quiet'])
try:
    for name, width, height, phone in [('web-laptop.png', 1280, 800, False), ('web-phone.png', 390, 844, True)]:
        driver = browser(width, height, phone=phone)
        try:
            open_page(driver, run.url)
            wait(lambda: driver.find_elements('css selector', '.meter'), 30, 'the meters')
            driver.save_screenshot(os.path.join(folder, name))
        finally:
            driver.quit()
finally:
    run.quit()
