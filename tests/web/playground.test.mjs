// playground.test.mjs - browser tests of the playground at GET /: Playwright
// (playwright-core) drives Debian's chromium headless against a real
// `gridsolve serve`. Run with `make test-web` (node --test).
//
// Environment: GRIDSOLVE_BIN (the binary, default build/gridsolve),
// CHROMIUM (default /usr/bin/chromium), PLAYGROUND_SCREENSHOT (where the
// screenshot goes, default build/web/playground.png; `make web-screenshot`
// points it at docs/playground.png).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { startServer } from './server.mjs';

let server;
let browser;
let puzzles; // GET /puzzles

before(async () => {
  server = await startServer();
  browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium' });
  puzzles = (await (await fetch(`${server.base}/puzzles`)).json()).puzzles;
});

after(async () => {
  await browser?.close();
  const code = await server?.stop();
  assert.equal(code, 0, `server exit status; log:\n${server?.log()}`);
});

/* A fresh page on the playground, ready; `problems` collects page errors,
 * console errors and any request that leaves the server's origin. */
async function openPage(hash = '') {
  const page = await browser.newPage({ viewport: { width: 1360, height: 900 } });
  page.setDefaultTimeout(20000);
  const problems = [];
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => { if (m.type() === 'error') problems.push(`console: ${m.text()}`); });
  page.on('request', (r) => {
    if (!r.url().startsWith(server.base) && !r.url().startsWith('data:')) problems.push(`outside request: ${r.url()}`);
  });
  await page.goto(`${server.base}/${hash}`);
  await page.locator('body[data-ready=true]').waitFor();
  return { page, problems };
}

const byId = (page, id) => page.getByTestId(id);
const text = async (page, id) => (await byId(page, id).textContent()).trim();

/* Clicks Solve and waits until the status is an answer (or an error). */
async function solve(page) {
  await byId(page, 'solve').click();
  await page.waitForFunction(() => {
    const s = document.querySelector('[data-testid=status]').textContent;
    return s !== 'solving…' && s !== '—';
  });
}

async function apiSolve(name, body) {
  const res = await fetch(`${server.base}/solve/${name}`, {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body),
  });
  assert.equal(res.status, 200);
  return res.json();
}

async function choose(page, name) {
  await byId(page, 'puzzle-select').selectOption(name);
  await page.waitForFunction((n) => location.hash.includes(`puzzle=${n}`), name);
}

/* Pastes text into the body field as a user would (input events). */
async function paste(page, body) {
  await byId(page, 'input').fill(body);
  await page.waitForFunction((b) => new URLSearchParams(location.hash.slice(1)).get('body') === b, body);
}

/* The page coordinates of board cell (r, c). */
async function cellPoint(page, r, c) {
  return page.evaluate(([row, col]) => {
    const svg = document.querySelector('[data-testid=board] svg');
    const box = svg.getBoundingClientRect();
    const k = box.width / svg.viewBox.baseVal.width;
    const S = Number(svg.dataset.cell), pad = Number(svg.dataset.pad);
    return { x: box.left + (pad + (col + 0.5) * S) * k, y: box.top + (pad + (row + 0.5) * S) * k };
  }, [r, c]);
}

async function pickTool(page, label) {
  await page.locator('#palette label').filter({ hasText: new RegExp(`^${label}$`) }).click();
}

test('GET / serves the page with a strict Content-Security-Policy', async () => {
  const res = await fetch(`${server.base}/`);
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-type'), 'text/html; charset=utf-8');
  const csp = res.headers.get('content-security-policy');
  assert.match(csp, /default-src 'none'/);
  assert.match(csp, /script-src 'sha256-[A-Za-z0-9+/]+=*'/);
  assert.match(csp, /connect-src 'self'/);
  assert.match(await res.text(), /data-testid="puzzle-select"/);
  const head = await fetch(`${server.base}/`, { method: 'HEAD' });
  assert.equal(head.status, 200);
  // Cached by its ETag, revalidated on each load.
  const etag = res.headers.get('etag');
  assert.match(etag, /^"[^"]+"$/);
  const again = await fetch(`${server.base}/`, { headers: { 'If-None-Match': etag } });
  assert.equal(again.status, 304);
});

test('the picker lists every puzzle from GET /puzzles', async () => {
  const { page, problems } = await openPage();
  const names = await byId(page, 'puzzle-select').locator('option').allTextContents();
  assert.deepEqual(names, puzzles.map((p) => p.name));
  assert.deepEqual(problems, []);
  await page.close();
});

for (const name of ['bloxorz', 'wallpushers', 'sokoban', 'curling', 'holedox']) {
  test(`${name}: the example solves as the API does and its replay plays to the end`, async () => {
    const { page, problems } = await openPage();
    await choose(page, name);
    await byId(page, 'example').click();
    const example = puzzles.find((p) => p.name === name).example;
    assert.deepEqual(JSON.parse(await byId(page, 'input').inputValue()).constructor, Object);

    await solve(page);
    const api = await apiSolve(name, example);
    assert.equal(await text(page, 'status'), api.status);
    const n = api.steps;
    assert.equal(await text(page, 'steps'), String(n));
    assert.equal((await text(page, 'moves')).length, n);
    assert.equal(await text(page, 'position'), `0 / ${n}`);

    await page.selectOption('#speed', '40');
    await byId(page, 'play').click();
    await page.waitForFunction((want) =>
      document.querySelector('[data-testid=position]').textContent === want, `${n} / ${n}`);
    assert.equal(await byId(page, 'play').getAttribute('aria-pressed'), 'false');

    // Stepping by buttons and keys.
    await byId(page, 'step-back').click();
    assert.equal(await text(page, 'position'), `${n - 1} / ${n}`);
    await byId(page, 'board').focus();
    await page.keyboard.press('ArrowRight');
    assert.equal(await text(page, 'position'), `${n} / ${n}`);
    await page.keyboard.press('Home');
    assert.equal(await text(page, 'position'), `0 / ${n}`);
    await byId(page, 'step-forward').click();
    assert.equal(await text(page, 'position'), `1 / ${n}`);
    await page.keyboard.press('End');
    assert.equal(await text(page, 'position'), `${n} / ${n}`);

    // The last frame shows the goal reached, drawn the puzzle's way.
    const board = byId(page, 'board');
    if (name === 'bloxorz') assert.equal(await board.locator('.block-mark').count(), 1); // standing
    if (name === 'sokoban') {
      assert.ok(await board.locator('.box').count() > 0);
      assert.equal(await board.locator('.box:not(.on-goal)').count(), 0);
    }
    if (name === 'curling') assert.equal(await board.locator('.curl-stone').count(), 1);
    if (name === 'holedox') assert.equal(await board.locator('.snake-head').count(), 1);
    assert.deepEqual(problems, []);
    await page.close();
  });
}

test('an invalid puzzle shows the detail and marks the cell it names', async () => {
  const { page, problems } = await openPage();
  await choose(page, 'bloxorz');
  await paste(page, '{"grid": ["#####", "#X.O#", "#.Z.#", "#####"]}');
  await solve(page);
  assert.equal(await text(page, 'status'), 'error 422');
  assert.ok(await byId(page, 'error').isVisible());
  assert.match(await text(page, 'error'), /row 2.*column 2/);
  assert.equal(await byId(page, 'board').locator('[data-error-cell]').getAttribute('data-error-cell'), '2,2');
  assert.equal(await byId(page, 'input').getAttribute('aria-invalid'), 'true');

  // holedox names cells as [row, col].
  await choose(page, 'holedox');
  await paste(page, '{"rows": 4, "cols": 4, "snake": [[1,1],[1,2]], "blocks": [[1,2]]}');
  await solve(page);
  assert.match(await text(page, 'error'), /\[1, 2\]/);
  assert.equal(await byId(page, 'board').locator('[data-error-cell]').getAttribute('data-error-cell'), '1,2');

  // Editing again clears the error.
  await byId(page, 'example').click();
  assert.ok(await byId(page, 'error').isHidden());
  assert.equal(await byId(page, 'board').locator('[data-error-cell]').count(), 0);
  assert.deepEqual(problems.filter((p) => !/status of 4\d\d/.test(p)), []);
  await page.close();
});

test('painting a board with the palette builds the body and solves it', async () => {
  const { page, problems } = await openPage();
  await choose(page, 'sokoban');
  await page.fill('#rows', '1');
  await page.fill('#cols', '4');
  await page.press('#cols', 'Tab');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=board] .brick').length === 4);
  await pickTool(page, 'Floor');
  let p = await cellPoint(page, 0, 2);
  await page.mouse.click(p.x, p.y);
  await pickTool(page, 'Player');
  p = await cellPoint(page, 0, 0);
  await page.mouse.click(p.x, p.y);
  await pickTool(page, 'Box');
  p = await cellPoint(page, 0, 1);
  await page.mouse.click(p.x, p.y);
  await pickTool(page, 'Goal');
  p = await cellPoint(page, 0, 3);
  await page.mouse.click(p.x, p.y);
  assert.deepEqual(JSON.parse(await byId(page, 'input').inputValue()), { grid: ['@$ .'] });

  // The same with the keyboard: a cursor on the focused board.
  await pickTool(page, 'Wall');
  await byId(page, 'board').focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Enter');
  assert.deepEqual(JSON.parse(await byId(page, 'input').inputValue()), { grid: ['@$#.'] });
  await pickTool(page, 'Floor');
  await byId(page, 'board').focus();
  await page.keyboard.press('Enter');
  assert.deepEqual(JSON.parse(await byId(page, 'input').inputValue()), { grid: ['@$ .'] });
  await solve(page);
  assert.equal(await text(page, 'status'), 'solved');
  assert.equal(await text(page, 'moves'), 'RR');

  // Wall pushers: clicking near an edge toggles the wall on both cells.
  await choose(page, 'wallpushers');
  const before = JSON.parse(await byId(page, 'input').inputValue()).walls;
  await pickTool(page, 'Wall \\(click an edge\\)');
  p = await cellPoint(page, 1, 1);
  const svgCell = await page.evaluate(() => {
    const svg = document.querySelector('[data-testid=board] svg');
    return Number(svg.dataset.cell) * svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
  });
  await page.mouse.click(p.x + svgCell * 0.45, p.y); // east side of (1, 1)
  const walls = JSON.parse(await byId(page, 'input').inputValue()).walls;
  assert.equal(walls[1][1], before[1][1] ^ 4);
  assert.equal(walls[1][2], before[1][2] ^ 1);
  assert.deepEqual(problems, []);
  await page.close();
});

test('judge text goes as text/plain and shows the judge output', async () => {
  const { page, problems } = await openPage();
  await choose(page, 'bloxorz');
  await paste(page, '7 7\n#######\n#..X###\n#..##O#\n#....E#\n#....E#\n#.....#\n#######\n3 6\n######\n#XEEO#\n######\n0 0\n');
  await solve(page);
  assert.equal(await byId(page, 'board').locator('.block-top').count(), 1); // case 1 drawn
  assert.equal(await text(page, 'status'), 'judge output');
  assert.equal(await page.locator('#judge-output').textContent(), '10\n2\n');
  assert.deepEqual(problems, []);
  await page.close();
});

const XSB_LEVEL = [
  '  #####', '###   #', '#.@$  #', '### $.#', '#.##$ #', '# # . ##', '#$ *$$.#', '#   .  #', '########',
].join('\n');

test('a pasted XSB level solves; the link reproduces it; screenshot', async () => {
  const { page, problems } = await openPage();
  await choose(page, 'sokoban');
  await paste(page, XSB_LEVEL);
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=board] .box').length === 7);
  await solve(page);
  const api = await apiSolve('sokoban', { grid: XSB_LEVEL.split('\n') });
  assert.equal(await text(page, 'steps'), String(api.steps));
  assert.equal(await text(page, 'moves'), api.moves);

  // The fragment holds the puzzle: a new page at the same link shows it.
  const url = page.url();
  const again = await openPage(url.slice(url.indexOf('#')));
  assert.equal(await byId(again.page, 'puzzle-select').inputValue(), 'sokoban');
  assert.equal(await byId(again.page, 'input').inputValue(), XSB_LEVEL);
  assert.equal(await byId(again.page, 'board').locator('.box').count(), 7);
  await again.page.close();

  // The README's picture: the replay half way through.
  for (let i = 0; i < 20; i++) await byId(page, 'step-forward').click();
  assert.equal(await text(page, 'position'), `20 / ${api.steps}`);
  const out = path.resolve(process.env.PLAYGROUND_SCREENSHOT || 'build/web/playground.png');
  fs.mkdirSync(path.dirname(out), { recursive: true });
  await page.screenshot({ path: out, fullPage: true });
  assert.deepEqual(problems, []);
  await page.close();
});

test('the page reads an event-stream answer: progress, then the result (stream stubbed)', async () => {
  const { page, problems } = await openPage();
  await choose(page, 'bloxorz');
  const example = puzzles.find((p) => p.name === 'bloxorz').example;
  const api = await apiSolve('bloxorz', example);
  // The browser gets this stream instead of the server's answer; it checks
  // the page's own SSE reading (split events, CRLF, comments, data lines).
  let accept = null;
  await page.route('**/solve/bloxorz', (route) => {
    accept = route.request().headers().accept;
    route.fulfill({
      status: 200,
      headers: { 'Content-Type': 'text/event-stream' },
      body: ': a comment\r\n\r\n' +
        'event: progress\ndata: {"expanded": 5, "stored": 9, "bound": 3, "elapsed_ms": 250}\n\n' +
        'event: progress\r\ndata: {"expanded": 12345, "stored": 20000, "bound": 7, "elapsed_ms": 500}\r\n\r\n' +
        `event: result\ndata: ${JSON.stringify(api)}\n\n`,
    });
  });
  await solve(page);
  assert.equal(accept, 'text/event-stream');
  assert.equal(await byId(page, 'progress').getAttribute('data-expanded'), '12345');
  assert.equal(await text(page, 'status'), 'solved');
  assert.equal(await text(page, 'steps'), String(api.steps));
  assert.equal(await text(page, 'moves'), api.moves);

  // A problem event is shown like a problem response.
  await page.unroute('**/solve/bloxorz');
  await page.route('**/solve/bloxorz', (route) => route.fulfill({
    status: 200,
    headers: { 'Content-Type': 'text/event-stream' },
    body: 'event: problem\ndata: {"type": "x", "title": "Invalid puzzle", "status": 422,\n' +
      'data: "detail": "grid row 1 column 2 has unknown cell"}\n\n',
  }));
  await solve(page);
  assert.equal(await text(page, 'status'), 'error 422');
  assert.equal(await text(page, 'error'), 'grid row 1 column 2 has unknown cell');
  assert.equal(await byId(page, 'board').locator('[data-error-cell]').getAttribute('data-error-cell'), '1,2');
  assert.deepEqual(problems, []);
  await page.close();
});

// A level no solver finishes quickly: ten boxes in an open room.
const LONG_LEVEL = {
  grid: ['##############', '#            #', '# $ $ $ $ $  #', '#            #',
    '#  $ $ $ $ $ #', '# .......... #', '#     @      #', '##############'],
  limits: { timeout_ms: 30000 },
};

/* True when the server answers POST /solve with an event stream. */
async function serverStreams() {
  const ctl = new AbortController();
  const res = await fetch(`${server.base}/solve/curling`, {
    method: 'POST', signal: ctl.signal,
    headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream' },
    body: JSON.stringify(puzzles.find((p) => p.name === 'curling').example),
  });
  const streams = (res.headers.get('content-type') || '').startsWith('text/event-stream');
  ctl.abort();
  return streams;
}

async function busyWorkers() {
  const metrics = await (await fetch(`${server.base}/metrics`)).text();
  return Number(/^gridsolve_workers_busy (\d+)/m.exec(metrics)[1]);
}

test('Cancel aborts a long solve', async () => {
  const { page, problems } = await openPage();
  await choose(page, 'sokoban');
  await paste(page, JSON.stringify({ ...LONG_LEVEL, limits: { timeout_ms: 8000 } }));
  await byId(page, 'solve').click();
  assert.ok(await byId(page, 'cancel').isEnabled());
  assert.ok(await byId(page, 'solve').isDisabled());
  await byId(page, 'cancel').click();
  await page.waitForFunction(() => document.querySelector('[data-testid=status]').textContent === 'cancelled');
  assert.ok(await byId(page, 'solve').isEnabled());
  assert.ok(await byId(page, 'cancel').isDisabled());
  assert.deepEqual(problems, []);
  await page.close();
});

/* True when this build's own OpenAPI document promises event streams:
 * then the stream test may not be skipped. */
async function specPromisesStreams() {
  return (await (await fetch(`${server.base}/openapi.yaml`)).text()).includes('text/event-stream');
}

test('a long solve streams progress, and Cancel frees the worker', async (t) => {
  const streams = await serverStreams();
  assert.equal(streams, await specPromisesStreams(), 'event streams served as openapi.yaml says');
  if (!streams) {
    t.skip('this build has no event stream (openapi.yaml documents none)');
    return;
  }
  const { page, problems } = await openPage();
  await choose(page, 'sokoban');
  await paste(page, JSON.stringify(LONG_LEVEL));
  await byId(page, 'solve').click();
  await page.waitForFunction(() => document.querySelector('[data-testid=progress]').dataset.expanded);
  const first = Number(await byId(page, 'progress').getAttribute('data-expanded'));
  assert.match(await text(page, 'progress'), /expanded/);
  await page.waitForFunction((n) =>
    Number(document.querySelector('[data-testid=progress]').dataset.expanded) > n, first);
  assert.ok(await busyWorkers() >= 1);
  await byId(page, 'cancel').click();
  await page.waitForFunction(() => document.querySelector('[data-testid=status]').textContent === 'cancelled');
  // Closing the stream cancels the solve on the server: its worker is free
  // again long before the 30 s limit.
  await untilIdle(5000, 'the worker still busy 5 s after Cancel');
  assert.deepEqual(problems, []);
  await page.close();
});

/* Waits until no worker is busy; fails after ms. */
async function untilIdle(ms, why) {
  const end = Date.now() + ms;
  while (await busyWorkers() > 0) {
    if (Date.now() > end) assert.fail(why);
    await new Promise((r) => setTimeout(r, 50));
  }
}

test('editing the body during a solve cancels it: no answer replays on the edited board', async () => {
  const { page, problems } = await openPage();
  await choose(page, 'sokoban');
  await paste(page, JSON.stringify({ ...LONG_LEVEL, limits: { timeout_ms: 8000 } }));
  await byId(page, 'solve').click();
  await page.waitForFunction(() => document.querySelector('[data-testid=cancel]').disabled === false);
  await paste(page, '#####\n#@$.#\n#####\n');
  await page.waitForFunction(() => document.querySelector('[data-testid=status]').textContent === 'cancelled');
  assert.ok(await byId(page, 'solve').isEnabled());
  assert.equal(await text(page, 'moves'), '');
  await untilIdle(5000, 'the cancelled solve still runs 5 s after the edit');
  // Solve right after typing, before the board is redrawn: the typed
  // level is what goes and what replays.
  await byId(page, 'input').fill('#####\n#@ $.#\n#####\n');
  await solve(page);
  assert.equal(await text(page, 'moves'), 'rR');
  assert.equal(await text(page, 'position'), '0 / 2');
  assert.deepEqual(problems, []);
  await page.close();
});

test('a body the page cannot draw is solved, and its moves are not replayed on another board', async () => {
  const { page, problems } = await openPage();
  await choose(page, 'holedox');
  const example = puzzles.find((p) => p.name === 'holedox').example;
  const body = { ...example, rows: 100 }; // the page draws up to 64
  const api = await apiSolve('holedox', body);
  assert.ok(api.moves, 'the enlarged example still has moves');
  await paste(page, JSON.stringify(body));
  assert.match(await page.locator('#body-mode').textContent(), /not drawn/);
  await solve(page);
  assert.equal(await text(page, 'status'), api.status);
  assert.equal(await text(page, 'moves'), api.moves);
  assert.equal(await text(page, 'error'), 'The body is not drawn here, so its moves are not replayed.');
  assert.ok(await byId(page, 'play').isDisabled());
  assert.deepEqual(problems, []);
  await page.close();
});

test('the limit fields keep judge text and an undrawn body as typed', async () => {
  const { page, problems } = await openPage();
  await choose(page, 'curling');
  await paste(page, '2 1\n3 2\n0 0\n');
  await page.locator('#timeout').fill('5000');
  await page.locator('#timeout').dispatchEvent('change');
  assert.equal(await byId(page, 'input').inputValue(), '2 1\n3 2\n0 0\n');
  await choose(page, 'holedox');
  const example = puzzles.find((p) => p.name === 'holedox').example;
  await paste(page, JSON.stringify({ ...example, rows: 100 }));
  await page.locator('#timeout').fill('4000');
  await page.locator('#timeout').dispatchEvent('change');
  const body = JSON.parse(await byId(page, 'input').inputValue());
  assert.equal(body.rows, 100);
  assert.deepEqual(body.limits, { timeout_ms: 4000 });
  assert.deepEqual(problems, []);
  await page.close();
});

test('a 503 shows its Retry-After; Solve and Cancel pass the keyboard focus to each other', async () => {
  const { page, problems } = await openPage();
  await choose(page, 'bloxorz');
  await page.route('**/solve/bloxorz', (route) => route.fulfill({
    status: 503,
    headers: { 'Content-Type': 'application/problem+json', 'Retry-After': '1' },
    body: JSON.stringify({ type: 'https://gridsolve.dev/problems/unavailable', title: 'Service unavailable',
      status: 503, detail: 'solve queue is full (1 workers busy, 1 waiting); retry later' }),
  }));
  await solve(page);
  assert.equal(await text(page, 'status'), 'error 503');
  assert.equal(await text(page, 'error'),
    'solve queue is full (1 workers busy, 1 waiting); retry later Retry after 1 s.');
  await page.unroute('**/solve/bloxorz');
  // Enter on Solve: the focus goes to Cancel while it runs, and back.
  await choose(page, 'sokoban');
  await paste(page, JSON.stringify({ ...LONG_LEVEL, limits: { timeout_ms: 8000 } }));
  await byId(page, 'solve').focus();
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.activeElement?.dataset.testid === 'cancel');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.querySelector('[data-testid=status]').textContent === 'cancelled');
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'solve');
  await untilIdle(5000, 'the cancelled solve still runs 5 s later');
  // The 503 itself is logged by the browser: nothing else may be.
  assert.deepEqual(problems.filter((p) => !/status of 503/.test(p)), []);
  await page.close();
});

test('the event-stream reader keeps a CRLF split between two reads', async () => {
  const { page, problems } = await openPage();
  await choose(page, 'bloxorz');
  const example = puzzles.find((p) => p.name === 'bloxorz').example;
  const api = await apiSolve('bloxorz', example);
  const chunks = ['event: progress\r\ndata: {"expanded": 7}\r', '\n\r\nevent: result\r',
    `\ndata: ${JSON.stringify(api)}\r`, '\n\r', '\n'];
  // The page's fetch of /solve answers a stream read in these pieces.
  await page.evaluate((parts) => {
    const real = window.fetch;
    window.fetch = (url, init) => {
      if (!String(url).includes('/solve/')) return real(url, init);
      const enc = new TextEncoder();
      const body = new ReadableStream({
        async pull(c) {
          const part = parts.shift();
          if (part === undefined) { c.close(); return; }
          await new Promise((r) => setTimeout(r, 5));
          c.enqueue(enc.encode(part));
        },
      });
      return Promise.resolve(new Response(body, { headers: { 'Content-Type': 'text/event-stream' } }));
    };
  }, chunks);
  await solve(page);
  assert.equal(await byId(page, 'progress').getAttribute('data-expanded'), '7');
  assert.equal(await text(page, 'status'), 'solved');
  assert.equal(await text(page, 'moves'), api.moves);
  assert.deepEqual(problems, []);
  await page.close();
});

test('XSB with a title and comments: one level goes as a JSON grid and replays', async () => {
  const { page, problems } = await openPage();
  await choose(page, 'sokoban');
  await paste(page, '; from a collection\nTitle: one push\n#####\n#@$.#\n#####\n');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=board] .box').length === 1);
  await solve(page);
  assert.equal(await text(page, 'status'), 'solved');
  assert.equal(await text(page, 'moves'), 'R');
  assert.deepEqual(problems, []);
  await page.close();
});

test('XSB with several levels goes as text/plain: one answer line per level', async () => {
  const { page, problems } = await openPage();
  await choose(page, 'sokoban');
  await paste(page, '; 1\n#####\n#@$.#\n#####\n\nTitle: corner\n#####\n#$ .#\n#@  #\n#####\n');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=board] .box').length === 1); // level 1
  await solve(page);
  assert.equal(await text(page, 'status'), 'judge output');
  assert.equal(await page.locator('#judge-output').textContent(), 'R\nimpossible\n');
  assert.deepEqual(problems, []);
  await page.close();
});
