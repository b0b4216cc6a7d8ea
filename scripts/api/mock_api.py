#!/usr/bin/env python3
"""DEVELOPMENT TOOL ONLY: a fake Swell API server for working on web/ without a kiosk.

It implements the management API's contract (see docs/api-page.md) with made-up figures, serves
web/ straight from disk (edit and reload, no embed step), and answers a screenshot that is a flat
PNG of the shown page's "background" colour, so scripts/api/test_page.py can be run against it.
With --swell BIN the screenshot is the page rendered by `BIN dump PAGE --frames 0..0 --png` instead,
and --content DIR starts the content folder with DIR's files (e.g. examples/cafe):

    scripts/api/mock_api.py --port 8080 --token secret &
    scripts/api/test_page.py --base http://127.0.0.1:8080 --token secret \
        --upload page.json --expect-png expected.png

It is not the kiosk's server (that is Sources/SwellAPI) and is not shipped. Python 3 stdlib only.
"""
import argparse, json, os, re, struct, subprocess, sys, tempfile, threading, time, zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import unquote, urlsplit

WEB = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'web')
STATIC = {'/': ('index.html', 'text/html; charset=utf-8'),
          '/app.js': ('app.js', 'text/javascript; charset=utf-8'),
          '/app.css': ('app.css', 'text/css; charset=utf-8')}
MAX_UPLOAD = 8 << 20


def png(width, height, rgb):
    """A flat-coloured RGB PNG."""
    def chunk(kind, data):
        return struct.pack('>I', len(data)) + kind + data + struct.pack('>I', zlib.crc32(kind + data))
    row = b'\x00' + bytes(rgb) * width
    return (b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', width, height, 8, 2, 0, 0, 0))
            + chunk(b'IDAT', zlib.compress(row * height)) + chunk(b'IEND', b''))


def page(background):
    return json.dumps({'format': 'scene/1', 'background': background, 'layers': []}).encode() + b'\n'


class State:
    def __init__(self, size, content=None, swell=None):
        self.lock = threading.Lock()
        self.started = time.time()
        self.size = size
        self.swell = swell
        self.rendered = {}  # (page, width, height, files version) → PNG or None
        self.version = 0
        now = time.time()
        self.files = {'menu.json': (page('#E8871E'), now - 3600), 'welcome.json': (page('#2B6CB0'), now - 7200),
                      'text/prices.txt': (b'Coffee\t3.20\nTea\t2.80\n', now - 600)}
        if content:
            self.files = {}
            for folder, _, names in os.walk(content):
                for name in names:
                    full = os.path.join(folder, name)
                    with open(full, 'rb') as f:
                        self.files[os.path.relpath(full, content)] = (f.read(), os.path.getmtime(full))
        self.outputs = [
            {'connector': 'Virtual-1', 'mode': '1920x1080@60', 'rotation': 0, 'shows': 'menu.json',
             'rule': 'lunch', 'override': None, 'power': 'on'},
            {'connector': 'HDMI-A-1', 'mode': '1920x1080@60', 'rotation': 90, 'shows': 'welcome.json',
             'rule': None, 'override': None, 'power': 'on'}]

    def colour(self, output):
        if output['power'] == 'off':
            return (0, 0, 0)
        body = self.files.get(output['shows'], (b'{}', 0))[0]
        try:
            m = re.fullmatch(r'#([0-9a-fA-F]{6})', json.loads(body).get('background', ''))
        except (ValueError, AttributeError):
            m = None
        return tuple(bytes.fromhex(m.group(1))) if m else (128, 128, 128)

    def screenshot(self, output):
        w, h = self.size
        if output['rotation'] in (90, 270):
            w, h = h, w
        if self.swell and output['power'] == 'on' and output['shows'].endswith('.json'):
            key = (output['shows'], w, h, self.version)
            if key not in self.rendered:
                self.rendered[key] = self.render(output['shows'], w, h)
            if self.rendered[key]:
                return self.rendered[key]
        return png(w, h, self.colour(output))

    def render(self, name, w, h):
        with tempfile.TemporaryDirectory(prefix='mock-api-') as tmp:
            for path, (data, _) in self.files.items():
                os.makedirs(os.path.dirname(os.path.join(tmp, 'content', path)), exist_ok=True)
                with open(os.path.join(tmp, 'content', path), 'wb') as f:
                    f.write(data)
            run = subprocess.run([self.swell, 'dump', os.path.join(tmp, 'content', name), '--size', f'{w}x{h}',
                                  '--frames', '0..0', '-o', os.path.join(tmp, 'out'), '--png'],
                                 capture_output=True, text=True, timeout=60)
            if run.returncode != 0:
                print(f'mock_api: swell dump {name}: {run.stderr.strip()}', file=sys.stderr, flush=True)
                return None
            with open(os.path.join(tmp, 'out', 'frame-000000.png'), 'rb') as f:
                return f.read()

    def status(self):
        up = time.time() - self.started
        outputs = []
        for o in self.outputs:
            if o['override'] and o['override']['until'] is not None and o['override']['until'] < time.time():
                o['override'] = None
            outputs.append({**o, 'frames': int(up * 60) if o['power'] == 'on' else 0,
                            'frameTime': {'p50': 1.2, 'p99': 3.4} if o['power'] == 'on' else None})
        return {'version': '1.4.0-mock', 'cpu': 'x86-64-v3', 'uptime': up, 'contentFolder': '/data/cafe',
                'disk': {'free': 12_345_678_901, 'total': 31_999_999_999}, 'temperature': 48.5,
                'outputs': outputs}


class Handler(BaseHTTPRequestHandler):
    server_version = 'SwellMock/1'

    def log_message(self, fmt, *args):
        if self.server.verbose:
            super().log_message(fmt, *args)

    def send(self, status, body=b'', content_type='application/json'):
        if isinstance(body, (dict, list)):
            body = json.dumps(body).encode()
        self.send_response(status)
        if status != 204:
            self.send_header('Content-Type', content_type)
            self.send_header('Content-Length', str(len(body)))
        self.send_header('Cache-Control', 'no-store')
        self.end_headers()
        if status != 204 and self.command != 'HEAD':
            self.wfile.write(body)

    def problem(self, status, title, detail, field=None):
        p = {'title': title, 'status': status, 'detail': detail}
        if field:
            p['field'] = field
        self.send(status, json.dumps(p).encode(), 'application/problem+json')

    def body(self):
        n = int(self.headers.get('Content-Length') or 0)
        return self.rfile.read(n) if n else b''

    def json_body(self):
        raw = self.body()
        if not raw:
            return {}
        value = json.loads(raw)
        if not isinstance(value, dict):
            raise ValueError('the body is not a JSON object')
        return value

    def handle_any(self):
        path = urlsplit(self.path).path
        if path in STATIC and self.command == 'GET':
            name, kind = STATIC[path]
            with open(os.path.join(WEB, name), 'rb') as f:
                return self.send(200, f.read(), kind)
        if not path.startswith('/api/'):
            return self.problem(404, 'Not Found', f'Nothing at {path}.')
        if self.headers.get('Authorization') != 'Bearer ' + self.server.token:
            return self.problem(401, 'Unauthorized', 'A valid bearer token is needed.')
        state = self.server.state
        with state.lock:
            try:
                return self.route(state, path)
            except ValueError as e:
                return self.problem(400, 'Bad Request', f'The body is not valid JSON: {e}.')

    def find_output(self, state, name):
        if name is None:
            if len(state.outputs) == 1:
                return state.outputs[0]
            self.problem(400, 'Bad Request', 'This kiosk has several outputs: say which one.', 'output')
            return None
        for o in state.outputs:
            if o['connector'] == name:
                return o
        self.problem(404, 'Not Found', f'No output {name}.', 'output')
        return None

    def route(self, state, path):
        cmd = self.command
        if path == '/api/v1/status' and cmd == 'GET':
            return self.send(200, state.status())
        m = re.fullmatch(r'/api/v1/outputs/([^/]+)/screenshot\.png', path)
        if m and cmd == 'GET':
            o = self.find_output(state, unquote(m.group(1)))
            if o:
                self.send(200, state.screenshot(o), 'image/png')
            return
        if path == '/api/v1/show' and cmd == 'POST':
            body = self.json_body()
            o = self.find_output(state, body.get('output'))
            if not o:
                return
            content = body.get('content')
            if not isinstance(content, str) or content not in state.files:
                return self.problem(422, 'Unprocessable Content', f'{content}: no such file in the content folder.', 'content')
            try:
                json.loads(state.files[content][0])
            except ValueError as e:
                return self.problem(422, 'Unprocessable Content', f'{content}: {e}', 'content')
            seconds = body.get('for')
            o['shows'] = content
            o['override'] = {'content': content, 'until': time.time() + seconds if seconds else None}
            return self.send(200, {'output': o['connector'], 'shows': content})
        m = re.fullmatch(r'/api/v1/display/(on|off)', path)
        if m and cmd == 'POST':
            body = self.json_body()
            chosen = state.outputs
            if 'output' in body:
                o = self.find_output(state, body['output'])
                if not o:
                    return
                chosen = [o]
            for o in chosen:
                o['power'] = m.group(1)
            return self.send(200, {'outputs': [{'connector': o['connector'], 'power': o['power']} for o in chosen]})
        if path == '/api/v1/content/' and cmd == 'GET':
            files = [{'path': p, 'size': len(b), 'modified': t} for p, (b, t) in sorted(state.files.items())]
            return self.send(200, {'folder': '/data/cafe', 'files': files})
        if path.startswith('/api/v1/content/'):
            name = unquote(path[len('/api/v1/content/'):])
            if not name or name.startswith('/') or '..' in name.split('/'):
                return self.problem(400, 'Bad Request', f'{name!r} is not a path in the content folder.', 'path')
            if cmd == 'GET':
                if name not in state.files:
                    return self.problem(404, 'Not Found', f'No {name} in the content folder.')
                return self.send(200, state.files[name][0], 'application/octet-stream')
            if cmd == 'PUT':
                if int(self.headers.get('Content-Length') or 0) > MAX_UPLOAD:
                    return self.problem(413, 'Content Too Large', f'{name} is larger than {MAX_UPLOAD >> 20} MiB.')
                data = self.body()
                if name.endswith('.json'):
                    try:
                        value = json.loads(data)
                        if not isinstance(value, dict) or 'format' not in value:
                            raise ValueError('it has no "format"')
                    except ValueError as e:
                        return self.problem(422, 'Unprocessable Content', f'{name} does not load: {e}.', 'content')
                new = name not in state.files
                state.files[name] = (data, time.time())
                state.version += 1
                return self.send(201 if new else 200, {'path': name, 'size': len(data)})
            if cmd == 'DELETE':
                if state.files.pop(name, None) is None:
                    return self.problem(404, 'Not Found', f'No {name} in the content folder.')
                state.version += 1
                return self.send(204)
        return self.problem(404, 'Not Found', f'No {cmd} {path}.')

    do_GET = do_PUT = do_POST = do_DELETE = handle_any


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--host', default='127.0.0.1')
    ap.add_argument('--port', type=int, default=8080)
    ap.add_argument('--token', default='secret')
    ap.add_argument('--size', default='480x270', help='screenshot size WxH (default 480x270)')
    ap.add_argument('--content', help='start the content folder with this folder\'s files')
    ap.add_argument('--swell', help='a swell binary: screenshots are its render of the page shown')
    ap.add_argument('--verbose', action='store_true', help='log each request')
    a = ap.parse_args()
    server = ThreadingHTTPServer((a.host, a.port), Handler)
    server.token, server.verbose = a.token, a.verbose
    server.state = State(tuple(int(v) for v in a.size.split('x')), a.content, a.swell)
    if a.content:
        pages = sorted(p for p in server.state.files if p.endswith('.json') and p != 'kiosk.json')
        for output, shown in zip(server.state.outputs, pages + pages):
            output['shows'] = shown
    print(f'mock_api: serving http://{a.host}:{server.server_address[1]}/ (token {a.token!r})', flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == '__main__':
    sys.exit(main())
