#!/usr/bin/env python3
"""Integration tests of the management API against a real `swell run --output memory --api …`.

    scripts/api/api_tests.py --swell PATH [--only TEXT] [--page-python PYTHON] [--work DIR]

Each case starts its own kiosk (a fresh temporary content folder with copies of examples/menu.json,
menu.txt and wave.json, a tokens file made with `swell token add` outside it, a free port), talks to
it with the standard library only (http.client, ssl, socket) and stops it with SIGTERM, checking the
exit status and the "display restored" and frames lines. Prints `PASS name` or `FAIL name: why` for
each case and `N passed, M failed` last; exits 1 when a case failed. scripts/test-api is the entry
point that installs what this needs (openssl, chromium, a venv with Selenium for the `page` case).
"""
import argparse, http.client, json, os, re, select, shutil, signal, socket, ssl, statistics
import struct, subprocess, sys, tempfile, threading, time, traceback, zlib

# The virtual kiosk's PNG reader (standard library only).
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'vm'))
from kiosk_vm import read_png  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))
EXAMPLES = os.path.join(ROOT, 'examples')
SWELL = None
PAGE_PYTHON = None
WORK = None

# A page that does not move: a background and a text layer (no clock, no animation), so a
# screenshot of it can be compared with `swell dump` of it exactly.
STATIC_PAGE = {"format": "scene/1", "background": "#3366CC",
               "layers": [{"scene": "text", "frame": {"x": "10%", "y": "40%", "width": "80%", "height": "20%"},
                           "parameters": {"text": "Swell API test page", "size": 64, "color": "#FFFFFF",
                                          "align": "center", "valign": "center"}}]}


class Failure(Exception):
    pass


def check(condition, why):
    if not condition:
        raise Failure(why)


def free_port():
    s = socket.socket()
    s.bind(('127.0.0.1', 0))
    port = s.getsockname()[1]
    s.close()
    return port


def wait_until(what, condition, timeout, step=0.1):
    end = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > end:
            raise Failure(f'{what} (waited {timeout:g} s)')
        time.sleep(step)


def uploads_left(folder):
    found = []
    for base, dirs, files in os.walk(folder):
        found += [os.path.join(base, f) for f in files + dirs if f.startswith('.swell-upload-')]
    return found


class Answer:
    def __init__(self, status, headers, body, elapsed):
        self.status, self.headers, self.body, self.elapsed = status, headers, body, elapsed

    def header(self, name):
        return self.headers.get(name.lower())

    def json(self):
        try:
            return json.loads(self.body)
        except ValueError:
            raise Failure(f'not JSON ({self.status}): {self.body[:200]!r}')

    def __repr__(self):
        return f'{self.status} {self.body[:300]!r}'


class Kiosk:
    """A `swell run … --output memory --api` in its own temporary folder."""

    def __init__(self, name, scene='menu.json', https=False, kiosk_file=None, tokens_inside=False):
        self.dir = tempfile.mkdtemp(prefix=f'{name}-', dir=WORK)
        self.content = os.path.join(self.dir, 'content')
        self.secrets = self.content if tokens_inside else os.path.join(self.dir, 'secrets')
        self.sentinel = os.path.join(self.dir, 'sentinel')
        for d in (self.content, self.secrets, self.sentinel):
            os.makedirs(d, exist_ok=True)
        for f in ('menu.json', 'menu.txt', 'wave.json'):
            shutil.copy(os.path.join(EXAMPLES, f), self.content)
        with open(os.path.join(self.content, 'static.json'), 'w') as f:
            json.dump(STATIC_PAGE, f)
        self.tokens = os.path.join(self.secrets, 'tokens.json')
        self.token = self.token_add('ci')
        self.port = free_port()
        self.https = https
        self.scene = scene
        self.kiosk_file = kiosk_file
        self.proc = None

    def token_add(self, name):
        r = subprocess.run([SWELL, 'token', 'add', name, '--tokens', self.tokens], capture_output=True, text=True)
        check(r.returncode == 0, f'swell token add {name} failed ({r.returncode}): {r.stderr.strip()}')
        token = r.stdout.strip()
        check(re.fullmatch(r'swell_[0-9a-f]{12}_[A-Za-z0-9_-]{43}', token), f'swell token add printed {token!r}')
        return token

    def token_remove(self, name):
        r = subprocess.run([SWELL, 'token', 'remove', name, '--tokens', self.tokens], capture_output=True, text=True)
        check(r.returncode == 0, f'swell token remove {name} failed ({r.returncode}): {r.stderr.strip()}')

    def command(self):
        if self.kiosk_file is not None:
            path = os.path.join(self.content, 'kiosk.json')
            with open(path, 'w') as f:
                json.dump(self.kiosk_file(self), f)
            return [SWELL, 'run', '--kiosk', path]
        listen = f'0.0.0.0:{self.port}' if self.https else f'127.0.0.1:{self.port}'
        return [SWELL, 'run', os.path.join(self.content, self.scene), '--output', 'memory',
                '--api', listen, '--api-tokens', self.tokens]

    def start(self):
        self.out, self.err = [], []
        self.proc = subprocess.Popen(self.command(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                     cwd=self.dir)
        for stream, lines in ((self.proc.stdout, self.out), (self.proc.stderr, self.err)):
            threading.Thread(target=lambda s=stream, l=lines: [l.append(x) for x in s], daemon=True).start()

        def up():
            if self.proc.poll() is not None:
                raise Failure(f'the kiosk ended with {self.proc.returncode} while starting: {self.stderr()[-600:]}')
            return 'api: serving' in self.stderr() and 'running' in self.stdout()
        wait_until('the kiosk serves the API and shows its first frame', up, 30)
        return self

    def stdout(self):
        return ''.join(self.out)

    def stderr(self):
        return ''.join(self.err)

    def stop(self):
        """SIGTERM; the kiosk must end with 0, say the display was restored and print its frames line."""
        if self.proc is None:
            return
        check(self.proc.poll() is None, f'the kiosk ended by itself with {self.proc.returncode}: {self.stderr()[-400:]}')
        self.proc.send_signal(signal.SIGTERM)
        try:
            rc = self.proc.wait(20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            raise Failure('the kiosk did not end within 20 s of SIGTERM')
        time.sleep(0.1)  # the reader threads catch up
        check(rc == 0, f'the kiosk ended with {rc} after SIGTERM: {self.stderr()[-400:]}')
        check('display restored' in self.stderr(), f'no "display restored" after SIGTERM: {self.stderr()[-400:]}')
        check(re.search(r'\d+ frames in', self.stdout()), f'no frames line after SIGTERM: {self.stdout()[-400:]}')

    def kill(self):
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()

    def cleanup(self):
        self.kill()
        shutil.rmtree(self.dir, ignore_errors=True)

    # --- HTTP ---
    def connection(self, source=None, timeout=30):
        src = (source, 0) if source else None
        if self.https:
            context = ssl.create_default_context(cafile=os.path.join(self.secrets, 'api-certificate.pem'))
            c = http.client.HTTPSConnection('127.0.0.1', self.port, timeout=timeout, source_address=src,
                                            context=context)
            def connect():  # to 127.0.0.1, checking the certificate's name "localhost"
                sock = socket.create_connection(('127.0.0.1', self.port), timeout, src)
                c.sock = context.wrap_socket(sock, server_hostname='localhost')
            c.connect = connect
            return c
        return http.client.HTTPConnection('127.0.0.1', self.port, timeout=timeout, source_address=src)

    def request(self, method, path, body=None, token=True, headers=None, source=None):
        h = dict(headers or {})
        if token is True:
            token = self.token
        if token:
            h['Authorization'] = f'Bearer {token}'
        if isinstance(body, (dict, list)):
            body = json.dumps(body).encode()
            h.setdefault('Content-Type', 'application/json')
        elif isinstance(body, str):
            body = body.encode()
        c = self.connection(source)
        start = time.monotonic()
        try:
            c.request(method, path, body=body, headers=h)
            r = c.getresponse()
            data = r.read()
        finally:
            c.close()
        return Answer(r.status, {k.lower(): v for k, v in r.getheaders()}, data, time.monotonic() - start)

    def status(self, **kw):
        a = self.request('GET', '/api/v1/status', **kw)
        check(a.status == 200, f'GET /api/v1/status: {a}')
        return a.json()

    def output(self):
        outputs = self.status()['outputs']
        check(len(outputs) == 1, f'status has {len(outputs)} outputs')
        return outputs[0]

    def raw(self, data, timeout=10, source=None):
        """Sends bytes on a fresh connection and returns everything the server answers until it closes."""
        s = socket.create_connection(('127.0.0.1', self.port), timeout, (source, 0) if source else None)
        try:
            s.sendall(data)
            got = b''
            while True:
                try:
                    chunk = s.recv(65536)
                except socket.timeout:
                    break
                if not chunk:
                    break
                got += chunk
        finally:
            s.close()
        return got


def problem(a, status, field=None, what=''):
    check(a.status == status, f'{what}: expected {status}, got {a}')
    check((a.header('content-type') or '').startswith('application/problem+json'),
          f'{what}: {status} with Content-Type {a.header("content-type")!r}, not application/problem+json')
    p = a.json()
    for k in ('type', 'title', 'status', 'detail'):
        check(k in p, f'{what}: problem without "{k}": {p}')
    check(p['status'] == status, f'{what}: problem status {p["status"]} in a {status} answer')
    if field is not None:
        fields = field if isinstance(field, tuple) else (field,)
        check(p.get('field') in fields, f'{what}: problem field {p.get("field")!r}, expected {" or ".join(fields)}: {p}')
    return p


# --- PNG (8-bit RGB/RGBA, non-interlaced), for the screenshot's size and pixels ---
def png_size(data):
    check(data[:8] == b'\x89PNG\r\n\x1a\n', f'not a PNG: {data[:16]!r}')
    check(data[12:16] == b'IHDR', 'the PNG does not start with IHDR')
    return struct.unpack('>II', data[16:24])


def compare_png(got, want, tolerance):
    """Returns (differing pixels, worst channel difference) of two PNGs of one size."""
    if got == want:
        return 0, 0
    g, x = read_png(got), read_png(want)
    check((g.width, g.height) == (x.width, x.height), f'sizes differ: {g.width}x{g.height} and {x.width}x{x.height}')
    bad = worst = 0
    for i in range(g.width * g.height):
        d = max(abs(g.rgb[i * 3 + c] - x.rgb[i * 3 + c]) for c in range(3))
        if d:
            worst = max(worst, d)
            if d > tolerance:
                bad += 1
    return bad, worst


def dump_png(page, folder):
    """`swell dump PAGE --size 1920x1080 --frames 0..0 --png`: frame 0's PNG bytes."""
    out = os.path.join(folder, '.dump-' + os.path.basename(page))
    r = subprocess.run([SWELL, 'dump', page, '--size', '1920x1080', '--frames', '0..0', '-o', out, '--png'],
                       capture_output=True, text=True)
    check(r.returncode == 0, f'swell dump {page} failed ({r.returncode}): {r.stderr.strip()}')
    with open(os.path.join(out, 'frame-000000.png'), 'rb') as f:
        data = f.read()
    shutil.rmtree(out)
    return data


# ---------------------------------------------------------------------------------------------
# The cases. Each gets a fresh Kiosk (started unless the case starts it itself) and raises Failure.

CASES = []


def case(name, start=True, **kiosk):
    def register(f):
        CASES.append((name, f, start, kiosk))
        return f
    return register


@case('no-token')
def no_token(k):
    a = k.request('GET', '/api/v1/status', token=None)
    problem(a, 401, what='GET /api/v1/status without a token')
    check((a.header('www-authenticate') or '').startswith('Bearer'),
          f'401 without WWW-Authenticate: Bearer (got {a.header("www-authenticate")!r})')
    for path, kind in (('/', 'text/html'), ('/app.js', 'text/javascript'), ('/app.css', 'text/css')):
        a = k.request('GET', path, token=None)
        check(a.status == 200, f'GET {path} without a token: {a}')
        ct = a.header('content-type') or ''
        ok = ct.startswith(kind) or (kind == 'text/javascript' and ct.startswith('application/javascript'))
        check(ok, f'GET {path}: Content-Type {ct!r}, expected {kind}')
        check(len(a.body) > 100, f'GET {path}: only {len(a.body)} bytes')
    problem(k.request('GET', '/api/v1/anything'), 404, what='GET /api/v1/anything (with the token)')


@case('token')
def token(k):
    s = k.status()
    for member in ('version', 'cpu', 'uptime', 'contentFolder', 'disk', 'temperature', 'outputs'):
        check(member in s, f'status without "{member}": {s}')
    check(os.path.realpath(s['contentFolder']) == os.path.realpath(k.content),
          f'contentFolder {s["contentFolder"]!r}, expected {k.content}')
    check(len(s['outputs']) == 1, f'{len(s["outputs"])} outputs: {s["outputs"]}')
    o = s['outputs'][0]
    for member in ('connector', 'mode', 'rotation', 'shows', 'rule', 'override', 'frames', 'frameTime', 'power'):
        check(member in o, f'output without "{member}": {o}')
    check(o['connector'] == 'memory', f'connector {o["connector"]!r}')
    check(o['mode'].startswith('1920x1080'), f'mode {o["mode"]!r}')
    check(o['shows'] == 'menu.json', f'shows {o["shows"]!r}, expected menu.json')
    check(o['override'] is None, f'override {o["override"]!r} before any show')
    check(isinstance(o['frames'], int) and o['frames'] > 0, f'frames {o["frames"]!r}')
    ft = o['frameTime']
    if ft is not None:
        for member in ('frames', 'p50', 'p99', 'max', 'overBudget'):
            check(member in ft, f'frameTime without "{member}": {ft}')
    later = k.output()['frames']
    check(later >= o['frames'], f'frames went from {o["frames"]} to {later}')


def timed_401(k, token, source):
    a = k.request('GET', '/api/v1/status', token=token, source=source)
    problem(a, 401, what=f'a wrong token {token[:24]}… from {source}')
    return a.elapsed


@case('wrong-token-timing')
def wrong_token_timing(k):
    _, ident, secret = k.token.split('_', 2)
    wrong_secret = f'swell_{ident}_' + ('A' if secret[0] != 'A' else 'B') + secret[1:]
    unknown_id = f'swell_{"0" * 12 if ident != "0" * 12 else "1" * 12}_{secret}'
    kinds = {'right id, wrong secret': wrong_secret, 'unknown id': unknown_id, 'garbage': 'not-a-token-at-all'}
    times = {name: [] for name in kinds}
    address = 10
    for _ in range(5):  # interleaved; each try from its own loopback address (5 wrong ones block one)
        for name, t in kinds.items():
            times[name].append(timed_401(k, t, f'127.0.0.{address}'))
            address += 1
    medians = {name: statistics.median(v) for name, v in times.items()}
    said = ', '.join(f'{n}: {m * 1000:.0f} ms' for n, m in medians.items())
    for name, m in medians.items():
        check(m >= 0.020, f'{name} answered in {m * 1000:.1f} ms, less than an Argon2id check ({said})')
    check(max(medians.values()) <= 3 * min(medians.values()), f'medians more than 3x apart: {said}')
    k.note = said
    check(k.output()['frames'] > 0, 'the right token no longer works')


@case('rate-limit')
def rate_limit(k):
    wrong = k.token[:-1] + ('A' if k.token[-1] != 'A' else 'B')
    for i in range(5):
        problem(k.request('GET', '/api/v1/status', token=wrong, source='127.0.0.5'), 401,
                what=f'wrong token #{i + 1} from 127.0.0.5')
    a = k.request('GET', '/api/v1/status', token=wrong, source='127.0.0.5')
    problem(a, 429, what='the 6th wrong token from 127.0.0.5')
    check(a.header('retry-after') and a.header('retry-after').isdigit() and int(a.header('retry-after')) > 0,
          f'429 with Retry-After {a.header("retry-after")!r}')
    a = k.request('GET', '/api/v1/status', source='127.0.0.5')
    problem(a, 429, what='the right token from the blocked 127.0.0.5')
    check(a.header('retry-after'), '429 for the right token without Retry-After')
    a = k.request('GET', '/api/v1/status', source='127.0.0.6')
    check(a.status == 200, f'the right token from 127.0.0.6 while 127.0.0.5 is blocked: {a}')
    wait_until('the journal says 127.0.0.5 is blocked', lambda: re.search(r'wrong token from 127\.0\.0\.5.*blocked', k.stderr()), 5)


@case('revoke')
def revoke(k):
    second = k.token_add('second')
    check(k.request('GET', '/api/v1/status', token=second).status == 200, 'a token added while running is refused')
    check(k.request('GET', '/api/v1/status').status == 200, 'the first token stopped working after adding one')
    k.token_remove('ci')
    problem(k.request('GET', '/api/v1/status'), 401, what='the removed token, right after swell token remove')
    check(k.request('GET', '/api/v1/status', token=second).status == 200, 'the remaining token is refused')


@case('show')
def show(k):
    a = k.request('POST', '/api/v1/show', {'content': 'wave.json', 'for': 3})
    check(a.status == 200, f'POST /api/v1/show wave.json for 3 s: {a}')
    o = wait_until('status says wave.json with an override',
                   lambda: (lambda o: o if o['shows'] == 'wave.json' else None)(k.output()), 2)
    check(o['override'] and o['override'].get('content') == 'wave.json' and o['override'].get('until'),
          f'override {o["override"]!r}')
    wait_until('status says menu.json again after the 3 s', lambda: k.output()['shows'] == 'menu.json', 15, 0.5)
    check(k.output()['override'] is None, f'override {k.output()["override"]!r} after it ended')
    bad = [('not JSON', b'{"content": "wave.json",', 400, None),
           ('no content', {'for': 3}, 400, 'content'),
           ('an unknown member', {'content': 'wave.json', 'colour': 'red'}, 400, None),
           ('content ../x.json', {'content': '../x.json'}, 400, ('content', 'path')),
           ('a missing file', {'content': 'missing.json'}, 404, None)]
    for what, body, status, field in bad:
        problem(k.request('POST', '/api/v1/show', body, headers={'Content-Type': 'application/json'}),
                status, field, what=f'POST /api/v1/show with {what}')
    check(k.output()['shows'] == 'menu.json', 'a refused show changed what is shown')


@case('screenshot')
def screenshot(k):
    a = k.request('POST', '/api/v1/show', {'content': 'static.json'})
    check(a.status == 200, f'POST /api/v1/show static.json: {a}')
    wait_until('status says static.json', lambda: k.output()['shows'] == 'static.json', 5)
    time.sleep(0.3)  # a few frames of it
    a = k.request('GET', '/api/v1/outputs/memory/screenshot.png')
    check(a.status == 200, f'GET screenshot: {a}')
    check(a.header('content-type') == 'image/png', f'screenshot Content-Type {a.header("content-type")!r}')
    size = png_size(a.body)
    check(size == (1920, 1080), f'screenshot is {size[0]}x{size[1]}')
    want = dump_png(os.path.join(k.content, 'static.json'), k.dir)
    bad, worst = compare_png(a.body, want, 2)
    check(bad == 0, f'{bad} pixels differ from swell dump by more than 2/255 (worst {worst})')
    k.note = 'identical bytes to swell dump' if a.body == want else f'pixels within {worst}/255 of swell dump'
    problem(k.request('GET', '/api/v1/outputs/HDMI-A-9/screenshot.png'), 404, 'output',
            what='the screenshot of an unknown output')


def listing_names(k):
    a = k.request('GET', '/api/v1/content/')
    check(a.status == 200, f'GET /api/v1/content/: {a}')
    return a.body.decode()


@case('content')
def content(k):
    listing = listing_names(k)
    for name in ('menu.json', 'menu.txt', 'wave.json'):
        check(f'"{name}"' in listing, f'the list does not name {name}: {listing[:300]}')
    data = 'Soup\t4.50\nTarte flambée\t9.00\n'.encode()
    a = k.request('PUT', '/api/v1/content/notes.txt', data)
    check(a.status == 201, f'PUT a new notes.txt: {a}')
    a = k.request('PUT', '/api/v1/content/notes.txt', data + b'more\n')
    check(a.status == 200, f'PUT notes.txt again: {a}')
    a = k.request('GET', '/api/v1/content/notes.txt')
    check(a.status == 200 and a.body == data + b'more\n', f'GET notes.txt back: {a}')
    check(open(os.path.join(k.content, 'notes.txt'), 'rb').read() == data + b'more\n', 'notes.txt on disk differs')
    check('"notes.txt"' in listing_names(k), 'the list does not name notes.txt')
    a = k.request('DELETE', '/api/v1/content/notes.txt')
    check(a.status == 204, f'DELETE notes.txt: {a}')
    problem(k.request('GET', '/api/v1/content/notes.txt'), 404, what='GET notes.txt after DELETE')
    check(not os.path.exists(os.path.join(k.content, 'notes.txt')), 'notes.txt still on disk after DELETE')
    a = k.request('PUT', '/api/v1/content/sub/dir/file.txt', b'deep\n')
    check(a.status == 201, f'PUT sub/dir/file.txt: {a}')
    check(open(os.path.join(k.content, 'sub/dir/file.txt'), 'rb').read() == b'deep\n', 'sub/dir/file.txt on disk')
    a = k.request('PUT', '/api/v1/content/bad.json', b'{"format": "scene/1"}')
    p = problem(a, 422, what='PUT an invalid page bad.json')
    check('bad.json' in p['detail'], f'the 422 does not name bad.json: {p["detail"]!r}')
    check(not os.path.exists(os.path.join(k.content, 'bad.json')), 'bad.json was left in the folder')
    check(not uploads_left(k.content), f'upload files left: {uploads_left(k.content)}')
    page = dict(STATIC_PAGE, background='#228B22')
    a = k.request('PUT', '/api/v1/content/green.json', page)
    check(a.status == 201, f'PUT a valid page green.json: {a}')
    a = k.request('POST', '/api/v1/show', {'content': 'green.json'})
    check(a.status == 200, f'show the uploaded green.json: {a}')
    wait_until('status says green.json', lambda: k.output()['shows'] == 'green.json', 5)


@case('traversal')
def traversal(k):
    os.symlink('/etc', os.path.join(k.content, 'link'))
    sentinel = k.sentinel
    paths = ['../sentinel/evil.txt', '%2e%2e%2fsentinel%2fevil.txt', '%2e%2e/sentinel/evil.txt',
             '..%2fsentinel%2fevil.txt', 'sub/../../sentinel/evil.txt', '/etc/passwd', '%2fetc%2fpasswd',
             '.x', 'sub/.hidden', 'link/passwd', 'link/evil.txt', 'a%00b.txt', 'a%5cb.txt']
    leaked, wrong = [], []
    for path in paths:
        for method in ('GET', 'PUT', 'DELETE'):
            body = b'evil\n' if method == 'PUT' else None
            a = k.request(method, '/api/v1/content/' + path, body)
            if b'root:' in a.body:
                leaked.append(f'{method} {path}')
            if a.status != 400:
                wrong.append(f'{method} /api/v1/content/{path} -> {a.status} {a.body[:120]!r}')
    check(not leaked, f'/etc/passwd came back: {leaked}')
    check(not os.listdir(sentinel), f'written outside the content folder: {os.listdir(sentinel)}')
    check(not os.path.exists(os.path.join(k.dir, 'evil.txt')), 'evil.txt written beside the content folder')
    check(not os.path.exists('/etc/evil.txt'), '/etc/evil.txt written')
    check(os.path.isdir('/etc') and os.path.exists('/etc/passwd'), '/etc/passwd is gone')
    check(not wrong, f'{len(wrong)} not 400: ' + '; '.join(wrong))


@case('method')
def method(k):
    for m, path in (('PATCH', '/api/v1/status'), ('DELETE', '/api/v1/status'), ('GET', '/api/v1/show'),
                    ('PUT', '/api/v1/status')):
        a = k.request(m, path)
        problem(a, 405, what=f'{m} {path}')
        check(a.header('allow'), f'{m} {path}: 405 without Allow')
        allowed = [x.strip() for x in a.header('allow').split(',')]
        check(m not in allowed, f'{m} {path}: Allow {a.header("allow")!r} lists it')


def kiosk_upload_limit(k):
    return {'format': 'kiosk/1', 'driver': 'memory', 'outputs': [{'content': 'menu.json'}],
            'api': {'listen': f'127.0.0.1:{k.port}', 'tokens': k.tokens, 'uploadLimit': 1}}


@case('too-large', kiosk_file=kiosk_upload_limit)
def too_large(k):
    size = 2 << 20
    head = (f'PUT /api/v1/content/big.txt HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {k.token}\r\n'
            f'Content-Length: {size}\r\nExpect: 100-continue\r\n\r\n').encode()
    got = k.raw(head, timeout=10)  # no body sent: the answer must come anyway
    check(got.startswith(b'HTTP/1.1 413'), f'Content-Length 2 MiB with Expect: 100-continue: {got[:200]!r}')
    head_only = head.replace(b'Expect: 100-continue\r\n', b'')
    got = k.raw(head_only, timeout=10)
    check(got.startswith(b'HTTP/1.1 413'), f'Content-Length 2 MiB, headers only: {got[:200]!r}')
    # Chunked, 2 MiB in 64 KiB chunks.
    s = socket.create_connection(('127.0.0.1', k.port), 30)
    s.sendall((f'PUT /api/v1/content/big.txt HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {k.token}\r\n'
               'Transfer-Encoding: chunked\r\n\r\n').encode())
    chunk = b'x' * 65536
    try:
        for _ in range(size // len(chunk)):
            s.sendall(b'%x\r\n' % len(chunk) + chunk + b'\r\n')
        s.sendall(b'0\r\n\r\n')
    except (BrokenPipeError, ConnectionResetError):
        pass  # the server may answer and close early
    got = b''
    try:
        while True:
            c = s.recv(65536)
            if not c:
                break
            got += c
            if b'\r\n\r\n' in got and len(got) > 200:
                break
    except (socket.timeout, ConnectionResetError):
        pass
    s.close()
    check(got.startswith(b'HTTP/1.1 413'), f'chunked 2 MiB: {got[:200]!r}')
    time.sleep(0.3)
    check(not os.path.exists(os.path.join(k.content, 'big.txt')), 'big.txt was left in the folder')
    check(not uploads_left(k.content), f'upload files left: {uploads_left(k.content)}')
    a = k.request('PUT', '/api/v1/content/small.txt', b'small\n')
    check(a.status == 201, f'a small upload under the 1 MiB limit: {a}')


def half_upload(k, name, size=1 << 20):
    s = socket.create_connection(('127.0.0.1', k.port), 10)
    s.sendall((f'PUT /api/v1/content/{name} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {k.token}\r\n'
               f'Content-Length: {size}\r\n\r\n').encode())
    s.sendall(b'y' * (size // 2))
    return s


@case('cut-off-upload')
def cut_off_upload(k):
    old = open(os.path.join(k.content, 'menu.txt'), 'rb').read()
    for name in ('menu.txt', 'new.txt'):
        s = half_upload(k, name)
        try:
            wait_until('', lambda: uploads_left(k.content), 3)
            k.note += f'{name}: its upload file seen and removed; '
        except Failure:
            time.sleep(0.5)
        s.close()
        time.sleep(1)
        wait_until(f'no .swell-upload-* file left after the cut-off upload of {name}',
                   lambda: not uploads_left(k.content), 10, 0.2)
    k.note = k.note.rstrip('; ')
    check(open(os.path.join(k.content, 'menu.txt'), 'rb').read() == old, 'menu.txt changed by a cut-off upload')
    check(not os.path.exists(os.path.join(k.content, 'new.txt')), 'new.txt exists after a cut-off upload')
    check(k.output()['shows'] == 'menu.json', 'status after the cut-off uploads')


def trickle_until_closed(s, payload, between, limit=30):
    """Sends `payload` a byte at a time over `s`, calling `between()` after each, until the server
    closes the connection (end of stream or a failed send; an answer such as 408 before that is
    fine) or `limit` seconds pass: (seconds until it closed, or None; bytes sent)."""
    start = time.monotonic()
    sent = 0
    while time.monotonic() - start < limit:
        readable, _, _ = select.select([s], [], [], 0)
        if readable:
            try:
                data = s.recv(4096)
            except OSError:
                data = b''
            if not data:
                return time.monotonic() - start, sent
        try:
            if sent < len(payload):
                s.send(payload[sent:sent + 1])
                sent += 1
        except OSError:
            return time.monotonic() - start, sent
        between()
    return None, sent


@case('slow-client')
def slow_client(k):
    line = f'GET /api/v1/status HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {k.token}\r\n\r\n'.encode()
    s = socket.create_connection(('127.0.0.1', k.port), 5)
    slow = []

    def serve_another_request():
        a = k.request('GET', '/api/v1/status')
        if a.status != 200 or a.elapsed > 2:
            slow.append(f'{a.status} in {a.elapsed:.2f} s')
        time.sleep(max(0, 1 - a.elapsed))

    closed, i = trickle_until_closed(s, line, serve_another_request)
    s.close()
    check(not slow, f'other requests were not served promptly meanwhile: {slow}')
    check(closed is not None, f'a client sending a byte a second ({i} bytes so far) was not dropped within 30 s')
    k.note = f'dropped after {closed:.1f} s ({i} bytes sent)'


@case('slow-body')
def slow_body(k):
    """An upload whose headers come at once and whose body trickles, a byte a second: the server
    closes it once its first 10 s are over (a body under 1 KiB/s), and nothing is left behind."""
    head = (f'PUT /api/v1/content/trickle.txt HTTP/1.1\r\nHost: 127.0.0.1\r\n'
            f'Authorization: Bearer {k.token}\r\nContent-Length: 1000\r\n\r\n').encode()
    s = socket.create_connection(('127.0.0.1', k.port), 5)
    s.sendall(head)
    closed, sent = trickle_until_closed(s, b'x' * 1000, lambda: select.select([s], [], [], 1))
    s.close()
    check(closed is not None, f'a body sent at a byte a second ({sent} bytes) was not cut off within 30 s')
    time.sleep(0.5)
    left = [n for n in os.listdir(k.content) if n == 'trickle.txt' or n.startswith('.swell-upload-')]
    check(not left, f'left in the content folder after the cut-off body: {left}')
    k.note = f'cut off after {closed:.1f} s ({sent} bytes sent)'


@case('restart-mid-upload')
def restart_mid_upload(k):
    path = os.path.join(k.content, 'menu.json')
    old = open(path, 'rb').read()
    s = half_upload(k, 'menu.json')
    seen = []
    # The half upload's temporary file must be there, or the restart's clean-up is not tested.
    wait_until('a .swell-upload-* file beside menu.json while its replacement is half sent',
               lambda: seen.extend(uploads_left(k.content)) or seen, 5)
    k.proc.kill()
    k.proc.wait()
    s.close()
    check(open(path, 'rb').read() == old, 'menu.json changed by an upload cut off by SIGKILL')
    k.start()
    check(not uploads_left(k.content), f'upload files left after the restart: {uploads_left(k.content)}')
    check(k.output()['shows'] == 'menu.json', 'status after the restart')
    k.note = f'{len(set(seen))} upload file(s) seen before the kill, none after the restart'


def openssl(*args, stdin=b''):
    return subprocess.run(['openssl', *args], input=stdin, capture_output=True, timeout=20)


@case('tls', https=True)
def tls(k):
    cert = os.path.join(k.secrets, 'api-certificate.pem')
    key = os.path.join(k.secrets, 'api-key.pem')
    check(os.path.exists(cert) and os.path.exists(key), f'no self-signed pair beside the tokens: {os.listdir(k.secrets)}')
    mode = os.stat(key).st_mode & 0o777
    check(mode == 0o600, f'the key is mode {mode:o}, not 600')
    line = next((l for l in k.stderr().splitlines() if 'api: serving https://' in l), None)
    check(line, f'no "serving https://" journal line: {k.stderr()[-400:]}')
    r = openssl('x509', '-in', cert, '-noout', '-fingerprint', '-sha256')
    check(r.returncode == 0, f'openssl x509: {r.stderr.decode()}')
    want = r.stdout.decode().strip().split('=', 1)[1].replace(':', '').lower()
    said = re.sub(r'[^0-9a-f]', '', line.split('SHA-256', 1)[-1].lower()) if 'SHA-256' in line else ''
    check('SHA-256' in line and want in said, f'journal line {line!r} lacks the fingerprint {want}')
    target = f'127.0.0.1:{k.port}'
    for version, name in (('-tls1_2', 'TLSv1.2'), ('-tls1_3', 'TLSv1.3')):
        r = openssl('s_client', '-connect', target, version, '-servername', 'localhost')
        out = r.stdout.decode(errors='replace')
        check(r.returncode == 0 and re.search(rf'(Protocol\s*:\s*{re.escape(name)}|New, {re.escape(name)})', out),
              f'openssl s_client {version} failed ({r.returncode}): {out[-300:]} {r.stderr.decode()[-300:]}')
    for version in ('-tls1_1', '-tls1'):
        r = openssl('s_client', '-connect', target, version, '-cipher', 'DEFAULT@SECLEVEL=0')
        out = r.stdout.decode(errors='replace')
        took = r.returncode == 0 and re.search(r'Cipher is (?!\(NONE\))', out)
        check(not took, f'openssl s_client {version} was accepted: {out[-300:]}')
    got = k.raw(b'GET /api/v1/status HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ' + k.token.encode()
                + b'\r\n\r\n', timeout=5)
    check(b'"outputs"' not in got and b'problem+json' not in got,
          f'plain HTTP to the HTTPS port got an API answer: {got[:200]!r}')
    a = k.request('GET', '/api/v1/status')  # python ssl, cafile = the certificate, server_hostname localhost
    check(a.status == 200 and a.json()['outputs'], f'GET status over HTTPS: {a}')
    problem(k.request('GET', '/api/v1/status', token=None), 401, what='GET status over HTTPS without a token')


@case('secrets', https=True, tokens_inside=True)
def secrets(k):
    """The tokens file and the self-signed key beside it inside the content folder (a kiosk file's
    "tokens": "tokens.json" next to its pages): the API must not hand out or replace them."""
    leaked = []
    names = ('api-key.pem', 'tokens.json')  # tokens.json last: without it no token works
    before = {name: open(os.path.join(k.content, name), 'rb').read() for name in names}
    for name in names:
        a = k.request('GET', f'/api/v1/content/{name}')
        if a.status == 200 or before[name][:40] in a.body:
            leaked.append(f'GET {name} -> {a.status} ({len(a.body)} bytes)')
    for method in ('PUT', 'DELETE'):
        for name in names:
            body = (b'{}\n' if name.endswith('.json') else b'x\n') if method == 'PUT' else None
            a = k.request(method, f'/api/v1/content/{name}', body)
            if 200 <= a.status < 300:
                leaked.append(f'{method} {name} -> {a.status}')
    for name in names:
        path = os.path.join(k.content, name)
        if not os.path.exists(path) or open(path, 'rb').read() != before[name]:
            leaked.append(f'{name} changed on disk')
    check(not leaked, 'the API serves the secrets in the content folder: ' + '; '.join(leaked))


@case('page')
def page(k):
    test = os.path.join(ROOT, 'scripts/api/test_page.py')
    page = os.path.join(k.dir, 'api-test-page.json')
    with open(page, 'w') as f:
        json.dump(dict(STATIC_PAGE, background='#884422'), f)
    expected = os.path.join(k.dir, 'expected.png')
    with open(expected, 'wb') as f:
        f.write(dump_png(page, k.dir))
    save = os.path.join(ROOT, '.build/api-tests/page.png')
    os.makedirs(os.path.dirname(save), exist_ok=True)
    r = subprocess.run([PAGE_PYTHON or sys.executable, test, '--base', f'http://127.0.0.1:{k.port}', '--token', k.token,
                        '--upload', page, '--expect-png', expected, '--output', 'memory', '--save-page', save,
                        '--no-power-control'],  # the memory driver: display off/on answer 409
                       capture_output=True, text=True, timeout=300)
    lines = (r.stdout + r.stderr).strip().splitlines()
    failed = [l for l in lines if l.startswith('FAIL')] or lines[-3:]
    check(r.returncode == 0, f'test_page.py ended with {r.returncode}: ' + ' | '.join(failed))
    k.note = f'{sum(l.startswith("PASS") for l in lines)} browser checks; page picture {save}'


@case('load', start=False)
def load(k):
    test = os.path.join(ROOT, 'scripts/api/load_test.py')
    # HOOK: scripts/api/load_test.py (another engineer's) runs as this one case when it exists.
    if not os.path.exists(test):
        raise Skip('scripts/api/load_test.py is not there yet')
    r = subprocess.run([sys.executable, test, '--swell', SWELL], capture_output=True, text=True)
    lines = (r.stdout + r.stderr).strip().splitlines()
    check(r.returncode == 0, f'load_test.py ended with {r.returncode}: ' + ' | '.join(lines[-5:]))
    k.note = lines[-1] if lines else ''


class Skip(Exception):
    pass


def main():
    global SWELL, PAGE_PYTHON, WORK
    ap = argparse.ArgumentParser(description='Integration tests of the management API against swell run.')
    ap.add_argument('--swell', required=True, help='the swell binary')
    ap.add_argument('--only', help='run only the cases whose name contains TEXT')
    ap.add_argument('--page-python', help='the Python with Selenium for the page case (default: this one)')
    ap.add_argument('--keep', action='store_true', help='keep the kiosks\' folders (printed on failure)')
    a = ap.parse_args()
    SWELL, PAGE_PYTHON = os.path.abspath(a.swell), a.page_python
    WORK = tempfile.mkdtemp(prefix='swell-api-tests-')
    passed = failed = 0
    try:
        for name, f, start, kiosk in CASES:
            if a.only and a.only not in name:
                continue
            began = time.monotonic()
            k = None
            try:
                k = Kiosk(name, **kiosk)
                k.note = ''
                if start:
                    k.start()
                f(k)
                k.stop()
                print(f'PASS {name} ({time.monotonic() - began:.1f} s{"; " + k.note if k.note else ""})', flush=True)
                passed += 1
            except Skip as e:
                print(f'SKIP {name}: {e}', flush=True)
            except Failure as e:
                print(f'FAIL {name}: {e}', flush=True)
                failed += 1
            except Exception as e:
                print(f'FAIL {name}: {type(e).__name__}: {e}', flush=True)
                traceback.print_exc()
                failed += 1
            finally:
                if k is not None:
                    if a.keep:
                        k.kill()
                        print(f'  (kept {k.dir})', flush=True)
                    else:
                        k.cleanup()
    finally:
        if not a.keep:
            shutil.rmtree(WORK, ignore_errors=True)
    print(f'{passed} passed, {failed} failed', flush=True)
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
