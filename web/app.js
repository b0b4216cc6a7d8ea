// Swell kiosk management page: plain JavaScript, no build step, no outside resources.
'use strict';

const $ = (selector, root = document) => root.querySelector(selector);
const TOKEN_KEY = 'swell-token';
const REFRESH_MS = 2000;

let token = sessionStorage.getItem(TOKEN_KEY) || '';
let pages = [];        // the content folder's .json files, for the pickers
let timer = null;
let generation = 0;     // of loop(): only the latest schedules the next refresh
let ticks = 0;
const screenshotURLs = new Map();  // connector → object URL shown now

class AuthError extends Error {}

function say(text, kind = 'info') {
  const box = $('#message');
  box.textContent = text;
  box.className = kind;
  box.hidden = !text;
}

// One API call with the token; throws an Error whose message is the problem's detail.
async function api(method, path, body) {
  const headers = { Authorization: 'Bearer ' + token };
  let payload;
  if (body instanceof Blob) {
    payload = body;
    headers['Content-Type'] = body.type || 'application/octet-stream';
  } else if (body !== undefined) {
    payload = JSON.stringify(body);
    headers['Content-Type'] = 'application/json';
  }
  let response;
  try {
    response = await fetch(path, { method, headers, body: payload, cache: 'no-store' });
  } catch {
    throw new Error('The kiosk cannot be reached.');
  }
  if (response.status === 401) {
    logout('The token was not accepted: log in again.');
    throw new AuthError('not logged in');
  }
  if (!response.ok) {
    let detail = `${response.status} ${response.statusText}`;
    try {
      const problem = await response.json();
      detail = problem.detail || problem.title || detail;
    } catch { /* not JSON: keep the status line */ }
    throw new Error(detail);
  }
  return response;
}

const json = async (method, path, body) => (await api(method, path, body)).json();
const encodePath = (path) => path.split('/').map(encodeURIComponent).join('/');

function bytes(n) {
  const units = ['B', 'kB', 'MB', 'GB', 'TB'];
  let i = 0;
  while (n >= 1000 && i < units.length - 1) { n /= 1000; i++; }
  return `${i ? n.toFixed(1) : n} ${units[i]}`;
}

function duration(seconds) {
  const s = Math.floor(seconds), d = Math.floor(s / 86400), h = Math.floor(s / 3600) % 24, m = Math.floor(s / 60) % 60;
  return d ? `${d} d ${h} h` : h ? `${h} h ${m} min` : m ? `${m} min ${s % 60} s` : `${s} s`;
}

// Today's times as a time, others as a date; the whole date and time is the cell's title.
function day(epoch) {
  const date = new Date(epoch * 1000), today = new Date().toDateString() === date.toDateString();
  return date.toLocaleString(undefined, today ? { timeStyle: 'short' } : { dateStyle: 'medium' });
}

const time = (epoch) => new Date(epoch * 1000).toLocaleString(undefined, { dateStyle: 'short', timeStyle: 'short' });

function figures(dl, pairs) {
  dl.replaceChildren(...pairs.map(([name, value]) => {
    const pair = document.createElement('div'), dt = document.createElement('dt'), dd = document.createElement('dd');
    dt.textContent = name;
    dd.textContent = value;
    pair.append(dt, dd);
    return pair;
  }));
}

// --- status and outputs ---

function card(connector) {
  let article = document.querySelector(`.output[data-connector="${CSS.escape(connector)}"]`);
  if (article) return article;
  article = $('#output-card').content.firstElementChild.cloneNode(true);
  article.dataset.connector = connector;
  $('.connector', article).textContent = connector;
  $('.screenshot', article).alt = `What ${connector} shows now`;
  $('.show', article).setAttribute('aria-label', `Show the chosen page on ${connector}`);
  $('.off', article).setAttribute('aria-label', `Turn ${connector} off`);
  $('.on', article).setAttribute('aria-label', `Turn ${connector} on`);
  const target = () => ({ output: connector });
  $('.show', article).addEventListener('click', () => act(async () => {
    const content = $('.content', article).value;
    if (!content) throw new Error('Choose a page to show.');
    const body = { ...target(), content };
    const seconds = $('.for', article).value.trim();
    if (seconds) body.for = Number(seconds);
    const answer = await json('POST', 'api/v1/show', body);
    say(`${answer.output ?? connector} shows ${answer.shows}.`);
  }));
  $('.off', article).addEventListener('click', () => act(async () => {
    await json('POST', 'api/v1/display/off', target());
    say(`${connector} is off.`);
  }));
  $('.on', article).addEventListener('click', () => act(async () => {
    await json('POST', 'api/v1/display/on', target());
    say(`${connector} is on.`);
  }));
  $('#outputs').append(article);
  return article;
}

function fillPicker(select, shows) {
  const chosen = select.dataset.touched ? select.value : shows;
  const names = pages.includes(chosen) || !chosen ? pages : [chosen, ...pages];
  if (select.dataset.names !== names.join('\n')) {
    select.replaceChildren(...names.map((name) => new Option(name, name)));
    select.dataset.names = names.join('\n');
  }
  select.value = chosen || '';
  if (!select.dataset.listening) {
    select.addEventListener('change', () => { select.dataset.touched = '1'; });
    select.dataset.listening = '1';
  }
}

function showStatus(status) {
  figures($('#status'), [
    ['Version', status.version],
    ['CPU', status.cpu],
    ['Up', duration(status.uptime)],
    ['Disk free', status.disk ? `${bytes(status.disk.free)} of ${bytes(status.disk.total)}` : '—'],
    ['Temperature', status.temperature == null ? '—' : `${status.temperature.toFixed(1)} °C`],
  ]);
  $('#folder').textContent = status.contentFolder ?? '';
  const seen = new Set();
  for (const output of status.outputs) {
    seen.add(output.connector);
    const article = card(output.connector);
    $('.mode', article).textContent = output.mode + (output.rotation ? `, turned ${output.rotation}°` : '');
    $('.shows', article).textContent = output.shows ?? '—';
    const o = output.override;
    $('.why', article).textContent = o
      ? (o.until == null ? 'chosen here, until another is chosen' : `chosen here, until ${time(o.until)}`)
      : output.rule ? `schedule rule “${output.rule}”` : 'the kiosk file';
    const ft = output.frameTime;
    const ms = (value) => (value == null ? '—' : `${value.toFixed(1)} ms`);
    $('.frames', article).textContent = `${output.frames}` + (ft ? ` · p50 ${ms(ft.p50)} · p99 ${ms(ft.p99)}` : '');
    $('.power', article).textContent = output.power;
    article.classList.toggle('is-off', output.power === 'off');
    fillPicker($('.content', article), output.shows);
  }
  for (const article of document.querySelectorAll('.output')) {
    if (!seen.has(article.dataset.connector)) article.remove();
  }
}

async function refreshScreenshot(article) {
  const connector = article.dataset.connector;
  const blob = await (await api('GET', `api/v1/outputs/${encodeURIComponent(connector)}/screenshot.png`)).blob();
  const url = URL.createObjectURL(blob);
  const img = $('.screenshot', article);
  await new Promise((resolve) => {
    img.onload = img.onerror = resolve;
    img.src = url;
  });
  const old = screenshotURLs.get(connector);
  if (old) URL.revokeObjectURL(old);
  screenshotURLs.set(connector, url);
}

async function refresh() {
  if (++ticks % 5 === 0) await refreshFiles();  // someone else may have changed the folder
  showStatus(await json('GET', 'api/v1/status'));
  await Promise.all([...document.querySelectorAll('.output')].map(refreshScreenshot));
}

// Refreshes now and every REFRESH_MS; a call while a refresh is under way takes over from it.
function loop() {
  const mine = ++generation;
  clearTimeout(timer);
  refresh()
    .catch((error) => { if (!(error instanceof AuthError)) say(error.message, 'error'); })
    .finally(() => { if (token && mine === generation) timer = setTimeout(loop, REFRESH_MS); });
}

// Runs a button's action, shows its error, and refreshes at once.
async function act(action) {
  try {
    await action();
  } catch (error) {
    if (!(error instanceof AuthError)) say(error.message, 'error');
    return;
  }
  loop();
}

// --- content folder ---

async function refreshFiles() {
  const listing = await json('GET', 'api/v1/content/');
  $('#folder').textContent = listing.folder;
  pages = listing.files.map((f) => f.path).filter((p) => p.endsWith('.json'));
  $('#files tbody').replaceChildren(...listing.files.map((file) => {
    const row = document.createElement('tr');
    row.dataset.path = file.path;
    for (const text of [file.path, bytes(file.size), day(file.modified)]) {
      const cell = row.insertCell();
      cell.textContent = text;
    }
    row.cells[2].title = time(file.modified);
    const remove = document.createElement('button');
    remove.type = 'button';
    remove.className = 'delete';
    remove.textContent = 'Delete';
    remove.setAttribute('aria-label', `Delete ${file.path}`);
    remove.addEventListener('click', () => act(async () => {
      if (!confirm(`Delete ${file.path}?`)) return;
      await api('DELETE', `api/v1/content/${encodePath(file.path)}`);
      say(`Deleted ${file.path}.`);
      await refreshFiles();
    }));
    row.insertCell().append(remove);
    return row;
  }));
  for (const article of document.querySelectorAll('.output')) {
    fillPicker($('.content', article), $('.shows', article).textContent);
  }
}

async function upload(files) {
  for (const file of files) {
    try {
      const response = await api('PUT', `api/v1/content/${encodeURIComponent(file.name)}`, file);
      say(`${response.status === 201 ? 'Uploaded' : 'Replaced'} ${file.name}.`);
    } catch (error) {
      if (!(error instanceof AuthError)) say(`${file.name}: ${error.message}`, 'error');
      break;
    }
  }
  await refreshFiles().catch((error) => say(error.message, 'error'));
}

// --- login ---

function logout(why = '') {
  token = '';
  sessionStorage.removeItem(TOKEN_KEY);
  clearTimeout(timer);
  for (const url of screenshotURLs.values()) URL.revokeObjectURL(url);
  screenshotURLs.clear();
  $('#outputs').replaceChildren();
  $('#app').hidden = true;
  $('#logout').hidden = true;
  $('#login-form').hidden = false;
  say(why, why ? 'error' : 'info');
  $('#token').focus();
}

async function start() {
  try {
    await refreshFiles();
  } catch (error) {
    if (!(error instanceof AuthError)) say(error.message, 'error');
    return;
  }
  $('#login-form').hidden = true;
  $('#app').hidden = false;
  $('#logout').hidden = false;
  loop();
}

$('#login-form').addEventListener('submit', (event) => {
  event.preventDefault();
  token = $('#token').value.trim();
  sessionStorage.setItem(TOKEN_KEY, token);
  $('#token').value = '';
  say('');
  start();
});
$('#logout').addEventListener('click', () => logout());

const drop = $('#drop');
drop.addEventListener('dragover', (event) => { event.preventDefault(); drop.classList.add('over'); });
drop.addEventListener('dragleave', () => drop.classList.remove('over'));
drop.addEventListener('drop', (event) => {
  event.preventDefault();
  drop.classList.remove('over');
  upload([...event.dataTransfer.files]);
});
$('#upload').addEventListener('change', (event) => {
  upload([...event.target.files]);
  event.target.value = '';
});

if (token) start();
