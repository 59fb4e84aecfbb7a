"""A setlist run's patches from the page: the selector lists them by name,
`next` and choosing one in the selector switch the server's patch, and the
page draws the new patch's controls after each switch (its state read
anew). Arguments: fxhost, setlist, JACK server."""

import sys

from selenium.webdriver.support.ui import Select

from fxhost_page import Fxhost, browser, control, open_page, press, report, state, wait

fxhost_path, setlist, server = sys.argv[1:4]


def controls(page):
    """The plugin parameters the page shows, by their labels."""
    return sorted(element.get_attribute('aria-label') for element in
                  page.find_elements('css selector', '[role="slider"][aria-label]'))


run = Fxhost(fxhost_path, ['run', setlist, '--server', server, '--quiet', '--no-connect'])
page = browser()
try:
    open_page(page, run.url)
    selector = Select(control(page, 'setlist patch'))
    report('start', options=[option.text for option in selector.options], selected=selector.first_selected_option.text,
           server=state(run.url)['setlist']['name'], controls=controls(page),
           previous=control(page, 'previous patch').get_attribute('disabled') is not None)
    press(page, 'next patch')
    wait(lambda: state(run.url)['setlist']['name'] == 'solo', 30, 'the server on solo')
    wait(lambda: 'trim gain' in controls(page), 30, "the page to draw solo's controls")
    report('next', server=state(run.url)['setlist']['name'], selected=Select(control(page, 'setlist patch')).first_selected_option.text,
           controls=controls(page), next=control(page, 'next patch').get_attribute('disabled') is not None)
    Select(control(page, 'setlist patch')).select_by_visible_text('verse')
    wait(lambda: state(run.url)['setlist']['name'] == 'verse', 30, 'the server on verse')
    wait(lambda: 'amp gain' in controls(page), 30, "the page to draw verse's controls")
    report('chosen', server=state(run.url)['setlist']['name'], controls=controls(page))
    report('exit', status=run.quit())
finally:
    page.quit()
    if run.process.poll() is None:
        run.process.kill()
