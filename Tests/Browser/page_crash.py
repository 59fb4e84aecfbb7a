"""A plugin crashes the engine while a page is open: the page shows the
console's sentence where it shows alerts and in its log, and reads the
restarted session, where the culprit is bypassed. Arguments: fxhost, patch,
JACK server, LV2_PATH (the crashing test plugins' folder first)."""

import os
import sys
import urllib.error

from fxhost_page import Fxhost, browser, command, open_page, report, state, wait

fxhost_path, patch, server, lv2_path = sys.argv[1:5]
os.environ['LV2_PATH'] = lv2_path
os.environ['TMPDIR'] = os.path.dirname(patch)  # the crash log stays in the test's folder

run = Fxhost(fxhost_path, ['run', patch, '--server', server, '--quiet', '--no-connect'])
page = browser()
try:
    open_page(page, run.url)
    try:
        command(run.url, {'cmd': 'set', 'node': 'bad', 'param': 'after', 'value': 0})
    except urllib.error.HTTPError:
        pass  # the engine may crash before it answers: refused, then restarted
    prefix = 'fxhost: error: '
    console = wait(lambda: next((line[len(prefix):] for line in run.stderr.splitlines()
                                 if line.startswith(prefix) and 'restarted without it' in line), None),
                   60, 'the crash sentence on the console')
    shown = wait(lambda: page.find_element('id', 'session-refusal').text or None, 60, 'the sentence in the page')
    logged = wait(lambda: [item.text for item in page.find_elements('css selector', '#log li.refused')
                           if 'restarted without it' in item.text] or None, 30, 'the sentence in the log')
    bypassed = wait(lambda: next(node.get('bypassed') for node in state(run.url)['nodes'] if node['name'] == 'bad') or None,
                    30, 'the culprit bypassed in the restarted session')
    report('crash', console=console, page=shown, log=logged[0], bypassed=bypassed)
    report('exit', status=run.quit())
finally:
    page.quit()
    if run.process.poll() is None:
        run.process.kill()
