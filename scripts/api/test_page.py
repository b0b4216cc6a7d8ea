#!/usr/bin/env python3
"""Real-browser test of the kiosk management page (web/), in Debian's headless chromium.

Drives /usr/bin/chromium through /usr/bin/chromedriver with Selenium (pip install selenium==4.27.1):
opens BASE/, is refused with a wrong token, logs in, uploads --upload through #upload (and a
broken page, whose refusal must show in #message), shows it
on an output with the card's picker and Show button, waits until the card says it shows it and
its live screenshot matches --expect-png, turns the display off and on with the card's buttons
and checks /api/v1/status agrees. --save-page writes a 1280x900 picture of the page (for the
README). Prints PASS/FAIL lines; exits 1 on the first failure, 2 on a usage error.

    scripts/api/test_page.py --base http://127.0.0.1:8080 --token TOKEN \
        --upload page.json --expect-png expected.png [--output Virtual-1] [--save-page page.png]
        [--no-power-control]   (an output that cannot be turned off: swell run --output memory)

The screenshot is compared pixel by pixel (every channel within --tolerance/255, default 2) when
it has --expect-png's size, else by its most common colour (for a stand-in server whose picture
is a flat colour at another size).
"""
import argparse, base64, json, os, sys, tempfile

try:
    from selenium import webdriver
    from selenium.common.exceptions import WebDriverException
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select, WebDriverWait
except ImportError:
    sys.exit('test_page: needs selenium (pip install selenium==4.27.1) and apt-get install chromium chromium-driver')


class Failure(Exception):
    pass


def ok(text):
    print(f'PASS {text}', flush=True)


# Compares the card's <img> (as decoded, drawn on a canvas) with the expected PNG (a data: URL).
COMPARE_JS = r'''
const [selector, expectedURL, tolerance, done] = arguments;
const counts = (data) => {
  const seen = new Map();
  for (let i = 0; i < data.length; i += 4) {
    const key = (data[i] << 16) | (data[i + 1] << 8) | data[i + 2];
    seen.set(key, (seen.get(key) || 0) + 1);
  }
  let best = 0, n = -1;
  for (const [key, c] of seen) if (c > n) { best = key; n = c; }
  return { rgb: [best >> 16 & 255, best >> 8 & 255, best & 255], share: n / (data.length / 4) };
};
const pixels = (image) => {
  const canvas = document.createElement('canvas');
  canvas.width = image.naturalWidth; canvas.height = image.naturalHeight;
  const context = canvas.getContext('2d', { willReadFrequently: true });
  context.drawImage(image, 0, 0);
  return context.getImageData(0, 0, canvas.width, canvas.height).data;
};
(async () => {
  const shown = document.querySelector(selector);
  if (!shown || !shown.complete || !shown.naturalWidth) return { error: 'the screenshot has not loaded' };
  const got = pixels(shown);  // drawn at once: the next refresh cannot swap it under us
  const expected = new Image();
  expected.src = expectedURL;
  await expected.decode();
  const want = pixels(expected);
  const result = { size: [shown.naturalWidth, shown.naturalHeight], expectedSize: [expected.naturalWidth, expected.naturalHeight],
                   dominant: counts(got), expectedDominant: counts(want) };
  if (result.size.join() === result.expectedSize.join()) {
    let bad = 0, worst = 0;
    for (let i = 0; i < got.length; i += 4) {
      const d = Math.max(Math.abs(got[i] - want[i]), Math.abs(got[i + 1] - want[i + 1]), Math.abs(got[i + 2] - want[i + 2]));
      if (d > worst) worst = d;
      if (d > tolerance) bad++;
    }
    Object.assign(result, { mode: 'pixels', differing: bad, worst });
  } else {
    result.mode = 'dominant colour';
  }
  return result;
})().then(done, (e) => done({ error: String(e) }));
'''


def main():
    ap = argparse.ArgumentParser(description='Real-browser test of the kiosk management page.')
    ap.add_argument('--base', required=True, help='the server, e.g. https://127.0.0.1:8443')
    ap.add_argument('--token', required=True, help='a valid API token')
    ap.add_argument('--upload', required=True, help='a page (.json) to upload and show')
    ap.add_argument('--expect-png', required=True, help='what the output should show with it (e.g. from swell render)')
    ap.add_argument('--output', help='the connector whose card to use (default: the first card)')
    ap.add_argument('--save-page', help='write a 1280x900 PNG of the page here')
    ap.add_argument('--tolerance', type=int, default=2, help='per-channel tolerance, of 255 (default 2)')
    ap.add_argument('--max-differing', type=float, default=0.0,
                    help='share of pixels allowed outside the tolerance (default 0)')
    ap.add_argument('--timeout', type=float, default=30, help='seconds to wait for each step (default 30)')
    ap.add_argument('--chromium', default='/usr/bin/chromium')
    ap.add_argument('--chromedriver', default='/usr/bin/chromedriver')
    ap.add_argument('--no-power-control', action='store_true',
                    help='the output has no power control (the memory driver): off must be refused with 409, '
                         'shown in #message, on (already on) accepted, and the power stay on')
    ap.add_argument('--headed', action='store_true', help='show the browser window (debugging)')
    a = ap.parse_args()

    name = os.path.basename(a.upload)
    if not name.endswith('.json'):
        ap.error('--upload must be a page (.json)')
    with open(a.expect_png, 'rb') as f:
        expected_url = 'data:image/png;base64,' + base64.b64encode(f.read()).decode()
    base = a.base.rstrip('/')

    options = webdriver.ChromeOptions()
    options.binary_location = a.chromium
    for arg in ['--no-sandbox', '--disable-dev-shm-usage', '--window-size=1280,900', '--force-color-profile=srgb',
                '--ignore-certificate-errors', '--no-first-run', '--disable-extensions', '--disable-gpu']:
        options.add_argument(arg)  # the kiosk's certificate is its own, self-signed
    if not a.headed:
        options.add_argument('--headless=new')
    options.accept_insecure_certs = True
    options.set_capability('goog:loggingPrefs', {'browser': 'ALL'})
    driver = webdriver.Chrome(service=Service(executable_path=a.chromedriver), options=options)
    driver.set_window_size(1280, 900)
    driver.execute_cdp_cmd('Emulation.setDeviceMetricsOverride',  # the page itself 1280x900, whatever the window's frame
                           {'width': 1280, 'height': 900, 'deviceScaleFactor': 1, 'mobile': False})
    wait = WebDriverWait(driver, a.timeout, poll_frequency=0.2)

    def until(what, condition):
        trouble = []

        def check(_):
            try:
                return condition()
            except (WebDriverException, LookupError, ValueError) as e:  # not there yet
                trouble[:] = [e]
                return False
        try:
            return wait.until(check)
        except WebDriverException:
            why = f': {str(trouble[0]).strip().splitlines()[0]}' if trouble else ''
            raise Failure(f'{what} (waited {a.timeout:g} s){why}') from None

    def text(selector):
        found = driver.find_elements(By.CSS_SELECTOR, selector)
        return found[0].text.strip() if found else None

    def api_status():
        return driver.execute_async_script('''
            const done = arguments[0];
            fetch('/api/v1/status', {headers: {Authorization: 'Bearer ' + sessionStorage.getItem('swell-token')}})
              .then((r) => r.json()).then(done, (e) => done({error: String(e)}));''')

    try:
        driver.get(base + '/')
        until('the login form is shown', lambda: driver.find_element(By.ID, 'token').is_displayed())
        ok(f'{base}/ shows the login form')

        driver.find_element(By.ID, 'token').send_keys(a.token + '-wrong')
        driver.find_element(By.ID, 'login').click()
        until('a wrong token is refused with a message',
              lambda: 'not accepted' in (text('#message') or '') and driver.find_element(By.ID, 'token').is_displayed())
        ok(f'a wrong token is refused: "{text("#message")}"')

        driver.find_element(By.ID, 'token').send_keys(a.token)
        driver.find_element(By.ID, 'login').click()
        until('the status figures are shown after logging in',
              lambda: driver.find_element(By.ID, 'app').is_displayed() and 'Version' in (text('#status') or ''))
        ok('logged in: ' + ' | '.join((text('#status') or '').splitlines()))

        card_selector = f'.output[data-connector="{a.output}"]' if a.output else '.output'
        card = until(f'the output card {card_selector} appears',
                     lambda: driver.find_elements(By.CSS_SELECTOR, card_selector)[0])
        connector = card.get_attribute('data-connector')
        card_selector = f'.output[data-connector="{connector}"]'
        ok(f'the card of {connector} shows {text(card_selector + " .shows")}')

        driver.find_element(By.ID, 'upload').send_keys(os.path.abspath(a.upload))
        row = f'#files tr[data-path="{name}"]'
        until(f'{name} appears in #files after the upload (message: {text("#message")!r})',
              lambda: driver.find_elements(By.CSS_SELECTOR, row))
        ok(f'uploaded {name}: "{text("#message")}", listed as "{text(row)}"')

        with tempfile.NamedTemporaryFile('w', prefix='broken-', suffix='.json', delete=False) as broken:
            broken.write('{"format": "scene/1", "layers": [\n')  # cut short: does not load
        try:
            driver.find_element(By.ID, 'upload').send_keys(broken.name)
            until('uploading a page that does not load shows the server\'s detail in #message',
                  lambda: 'error' in driver.find_element(By.ID, 'message').get_attribute('class')
                  and os.path.basename(broken.name) in text('#message'))
        finally:
            os.unlink(broken.name)
        ok(f'a page that does not load is refused: "{text("#message")}"')

        picker = card.find_element(By.CSS_SELECTOR, 'select.content')
        until(f'{name} is offered in the card\'s picker',
              lambda: name in [o.get_attribute('value') for o in Select(picker).options])
        Select(picker).select_by_value(name)
        card.find_element(By.CSS_SELECTOR, 'button.show').click()
        until(f'the card says it shows {name} (message: {text("#message")!r})',
              lambda: text(card_selector + ' .shows') == name)
        ok(f'showed {name} on {connector}: "{text("#message")}", why: {text(card_selector + " .why")}')

        last = {}

        def screenshot_matches():
            last.clear()
            last.update(driver.execute_async_script(COMPARE_JS, card_selector + ' img.screenshot', expected_url, a.tolerance))
            if 'error' in last:
                return False
            if last['mode'] == 'pixels':
                w, h = last['size']
                return last['differing'] <= a.max_differing * w * h
            return all(abs(x - y) <= a.tolerance for x, y in zip(last['dominant']['rgb'], last['expectedDominant']['rgb']))

        until(f'the card\'s screenshot shows {name} like {a.expect_png}', screenshot_matches)
        if last['mode'] == 'pixels':
            ok(f'the screenshot ({last["size"][0]}x{last["size"][1]}) matches {a.expect_png}: '
               f'{last["differing"]} pixels differ by more than {a.tolerance}/255, largest difference {last["worst"]}')
        else:
            ok(f'the screenshot ({last["size"][0]}x{last["size"][1]}, most common colour {last["dominant"]["rgb"]}) '
               f'matches {a.expect_png} ({last["expectedSize"][0]}x{last["expectedSize"][1]}, {last["expectedDominant"]["rgb"]}) by colour')

        if a.save_page:
            driver.execute_script('window.scrollTo(0, 0)')
            driver.save_screenshot(a.save_page)
            ok(f'saved the page as {a.save_page}')

        if a.no_power_control:  # e.g. the memory driver: the server refuses with 409, the page says why
            for power in ('off', 'on'):
                driver.execute_script("document.querySelector('#message').textContent = ''")
                card.find_element(By.CSS_SELECTOR, f'button.{power}').click()
                if power == 'off':
                    until('pressing off shows the server\'s refusal (no power control) in #message',
                          lambda: 'error' in driver.find_element(By.ID, 'message').get_attribute('class')
                          and 'power control' in (text('#message') or ''))
                else:  # already on: nothing to refuse
                    until('pressing on says the output is on in #message',
                          lambda: (text('#message') or '').endswith(' is on.'))
                status = api_status()
                said = [o.get('power') for o in status.get('outputs', []) if o.get('connector') == connector]
                if said != ['on'] or text(card_selector + ' .power') != 'on':
                    raise Failure(f'after a refused {power}, the card says {text(card_selector + " .power")!r} '
                                  f'and /api/v1/status {said}')
                ok(f'pressing {power}: "{text("#message")}"; the card and /api/v1/status still say power on')
        for power, other in (('off', 'on'), ('on', 'off')) if not a.no_power_control else ():
            card.find_element(By.CSS_SELECTOR, f'button.{power}').click()
            until(f'the card says power {power}', lambda: text(card_selector + ' .power') == power)
            status = api_status()
            said = [o.get('power') for o in status.get('outputs', []) if o.get('connector') == connector]
            if said != [power]:
                raise Failure(f'/api/v1/status says {connector} is {said} after pressing {power}: {json.dumps(status)}')
            ok(f'turned {connector} {power}: the card and /api/v1/status say power {power}')
    except (Failure, WebDriverException) as e:
        print(f'FAIL {e if isinstance(e, Failure) else "the browser: " + str(e).strip().splitlines()[0]}', flush=True)
        try:
            if last_words := [entry['message'] for entry in driver.get_log('browser')][-10:]:
                print('browser console:\n  ' + '\n  '.join(last_words), flush=True)
            if 'last' in locals() and last:
                print(f'last screenshot comparison: {json.dumps(last)}', flush=True)
            if a.save_page:
                driver.save_screenshot(a.save_page)
                print(f'saved the page at the failure as {a.save_page}', flush=True)
        except WebDriverException:
            pass
        return 1
    finally:
        driver.quit()
    print('PASS the management page works in chromium', flush=True)
    return 0


if __name__ == '__main__':
    sys.exit(main())
