// playground.test.mjs - browser tests of the playground at GET /: Playwright
// (playwright-core) drives Debian's chromium headless against a real
// `gridsolve serve`. Run with `make test-web` (node --test).
//
// Environment: GRIDSOLVE_BIN (the binary, default build/gridsolve),
// CHROMIUM (default /usr/bin/chromium), PLAYGROUND_SCREENSHOT (where the
// screenshot goes, default build/web/playground.png; `make web-screenshot`
// points it at docs/playground.png).
import { test, before, after, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { startServer } from './server.mjs';

let server;
let browser;
let puzzles; // GET /puzzles

// The most cells (rows x columns) the page draws, as the README says.
const DRAW_CELLS = 4096;
const tooLarge = (rows, cols) =>
  `its ${rows} x ${cols} board has ${(rows * cols).toLocaleString('en-US')} cells; ` +
  `the page draws up to ${DRAW_CELLS.toLocaleString('en-US')}`;

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
 * console errors and any request that leaves the server's origin. base:
 * another server's; width: the viewport's. */
// Pages a test opened and has not closed: a failed test's page (and any
// solve it started) is closed after it, so that it cannot keep a worker
// busy under the tests that follow.
const openPages = new Set();
afterEach(async () => {
  for (const page of openPages) await page.close();
  openPages.clear();
});

async function openPage(hash = '', { base = server.base, width = 1360 } = {}) {
  const page = await browser.newPage({ viewport: { width, height: 900 } });
  openPages.add(page);
  page.on('close', () => openPages.delete(page));
  page.setDefaultTimeout(20000);
  const problems = [];
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => { if (m.type() === 'error') problems.push(`console: ${m.text()}`); });
  page.on('request', (r) => {
    if (!r.url().startsWith(base) && !r.url().startsWith('data:')) problems.push(`outside request: ${r.url()}`);
  });
  await page.goto(`${base}/${hash}`);
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
  await page.waitForFunction(() => !document.querySelector('[data-testid=solve]').disabled);
  assert.equal(await text(page, 'moves'), '');
  await untilIdle(5000, 'the cancelled solve still runs 5 s after the edit');
  // The edited board has no answer yet: no status, no counter of the old solve.
  assert.equal(await text(page, 'status'), '—');
  assert.equal(await text(page, 'progress'), '');
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
  const body = { ...example, rows: 700 };
  assert.ok(body.rows * body.cols > DRAW_CELLS);
  const api = await apiSolve('holedox', body);
  assert.ok(api.moves, 'the enlarged example still has moves');
  await paste(page, JSON.stringify(body));
  assert.match(await page.locator('#body-mode').textContent(), /not drawn/);
  await solve(page);
  assert.equal(await text(page, 'status'), api.status);
  assert.equal(await text(page, 'moves'), api.moves);
  // A note, not an error: nothing is wrong with the body.
  assert.equal(await text(page, 'note'),
    `The body is not drawn here (${tooLarge(700, body.cols)}), so its moves are not replayed.`);
  assert.ok(await byId(page, 'error').isHidden());
  assert.equal(await byId(page, 'input').getAttribute('aria-invalid'), null);
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
  await paste(page, JSON.stringify({ ...example, rows: 700 }));
  await page.locator('#timeout').fill('4000');
  await page.locator('#timeout').dispatchEvent('change');
  const body = JSON.parse(await byId(page, 'input').inputValue());
  assert.equal(body.rows, 700);
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
    'solve queue is full (1 workers busy, 1 waiting); retry later. Retry after 1 s.');
  await page.unroute('**/solve/bloxorz');
  // Enter on Solve: the focus goes to Cancel while it runs, and back.
  await choose(page, 'sokoban');
  await paste(page, JSON.stringify({ ...LONG_LEVEL, limits: { timeout_ms: 8000 } }));
  await byId(page, 'solve').focus();
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.activeElement?.dataset.testid === 'cancel');
  await page.waitForTimeout(600); // a press just after Solve's is not a cancel
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

/* Sets the Rows and Columns fields as a user does (a change on leaving each). */
async function setSize(page, rows, cols) {
  await page.fill('#rows', String(rows));
  await page.press('#rows', 'Tab');
  await page.fill('#cols', String(cols));
  await page.press('#cols', 'Tab');
}

/* The first inner wall whose two cells disagree (docs/PUZZLES.md), or null. */
function inconsistentWall(walls) {
  for (let r = 0; r < walls.length; r++) {
    for (let c = 0; c < walls[r].length; c++) {
      if (c + 1 < walls[r].length && !(walls[r][c] & 4) !== !(walls[r][c + 1] & 1)) return `walls[${r}][${c}] east`;
      if (r + 1 < walls.length && !(walls[r][c] & 8) !== !(walls[r + 1][c] & 2)) return `walls[${r}][${c}] south`;
    }
  }
  return null;
}

/* The exits of a maze, its open outer sides: 'W0' is row 0's west side. */
function exits(walls) {
  const out = [];
  const last = walls.length - 1, right = walls[0].length - 1;
  walls.forEach((row, r) => {
    if (!(row[0] & 1)) out.push(`W${r}`);
    if (!(row[right] & 4)) out.push(`E${r}`);
  });
  walls[0].forEach((v, c) => { if (!(v & 2)) out.push(`N${c}`); });
  walls[last].forEach((v, c) => { if (!(v & 8)) out.push(`S${c}`); });
  return out.sort();
}

test('wallpushers: a resized maze stays consistent, its outer walls and exits on the new edge', async () => {
  const { page, problems } = await openPage();
  await choose(page, 'wallpushers');
  const example = puzzles.find((p) => p.name === 'wallpushers').example;
  assert.deepEqual(exits(example.walls), ['E3', 'W0', 'W3']);
  const want = { '4x7': ['E3', 'W0', 'W3'], '6x8': ['E3', 'W0', 'W3'], '3x5': ['W0'], '2x2': ['W0'] };
  for (const size of Object.keys(want)) {
    const [rows, cols] = size.split('x').map(Number);
    await setSize(page, rows, cols);
    const body = JSON.parse(await byId(page, 'input').inputValue());
    assert.equal(body.walls.length, rows, size);
    assert.ok(body.walls.every((row) => row.length === cols), size);
    assert.equal(inconsistentWall(body.walls), null, size);
    assert.deepEqual(exits(body.walls), want[size], size);
    assert.ok(body.start[0] < rows && body.start[1] < cols, `${size}: start ${body.start} on the maze`);
    if (size === '6x8') {
      // The enlarged maze is a puzzle the server takes, still with a way out.
      await solve(page);
      assert.equal(await text(page, 'status'), 'solved');
    }
  }
  assert.deepEqual(problems, []);
  await page.close();
});

test('resizing changes one side; the fields grow a board up to the cap', async () => {
  const { page, problems } = await openPage();
  await choose(page, 'bloxorz');
  const rows = 64, cols = DRAW_CELLS / rows; // a board at the cap
  const grid = Array.from({ length: rows }, (_, r) =>
    (r === 0 ? 'X' : '.') + '.'.repeat(cols - 2) + (r === rows - 1 ? 'O' : '.'));
  await paste(page, JSON.stringify({ grid }));
  assert.equal(await page.inputValue('#rows'), String(rows));
  // Neither side grows past the cap.
  assert.equal(await page.getAttribute('#rows', 'max'), String(rows));
  assert.equal(await page.getAttribute('#cols', 'max'), String(cols));
  await page.fill('#cols', String(cols - 10));
  await page.press('#cols', 'Tab');
  let body = JSON.parse(await byId(page, 'input').inputValue());
  assert.equal(body.grid.length, rows);
  assert.ok(body.grid.every((row) => row.length === cols - 10));
  // Rows grow as far as the cap allows: a larger number stops there.
  const most = Math.floor(DRAW_CELLS / (cols - 10));
  assert.equal(await page.getAttribute('#rows', 'max'), String(most));
  await page.fill('#rows', String(most + 5));
  await page.press('#rows', 'Tab');
  body = JSON.parse(await byId(page, 'input').inputValue());
  assert.equal(body.grid.length, most);
  assert.ok(body.grid.every((row) => row.length === cols - 10));
  // Drawn: the new rows are holes, the other cells tiles.
  assert.equal(await byId(page, 'board').locator('.tile').count(), rows * (cols - 10));
  assert.deepEqual(problems, []);
  await page.close();
});

test('an option keeps judge text, an XSB collection and an undrawn body as typed', async () => {
  const { page, problems } = await openPage();
  const sent = [];
  page.on('request', (r) => { if (r.url().includes('/solve/')) sent.push(r.postData()); });
  // Judge text takes no options (curling's judge allows 10 throws).
  await choose(page, 'curling');
  await paste(page, '2 1\n3 2\n0 0\n');
  assert.ok(await page.locator('#opt-max_throws').isDisabled());
  assert.equal(await byId(page, 'input').inputValue(), '2 1\n3 2\n0 0\n');
  // An XSB collection neither.
  await choose(page, 'sokoban');
  const levels = '; 1\n#####\n#@$.#\n#####\n\n; 2\n#####\n#@$.#\n#####\n';
  await paste(page, levels);
  assert.ok(await page.locator('#opt-optimize').isDisabled());
  // A single XSB level goes as a grid: it takes the objective, its text stays.
  const level = '#####\n#@$.#\n#####\n';
  await paste(page, level);
  await page.selectOption('#opt-optimize', 'pushes');
  assert.equal(await byId(page, 'input').inputValue(), level);
  await solve(page);
  assert.equal(JSON.parse(sent.at(-1)).optimize, 'pushes');
  // A JSON body the board does not show gets the option's field.
  await paste(page, '{"grid": "not drawn"}');
  await page.selectOption('#opt-optimize', 'any');
  assert.deepEqual(JSON.parse(await byId(page, 'input').inputValue()), { grid: 'not drawn', optimize: 'any' });
  assert.deepEqual(problems, []);
  await page.close();
});

test('a stream refused with 503 is asked again once without the stream, which the fast lane answers', async (t) => {
  if (!(await serverStreams())) {
    t.skip('this build has no event stream');
    return;
  }
  // One worker, no queue: a long streamed solve takes the worker, and
  // any other stream is refused; a plain request can use the fast lane.
  const busy = await startServer({ workers: 1, queue: 0 });
  const ctl = new AbortController();
  try {
    await fetch(`${busy.base}/solve/sokoban`, {
      method: 'POST', signal: ctl.signal,
      headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream' },
      body: JSON.stringify({ ...LONG_LEVEL, limits: { timeout_ms: 20000 } }),
    }); // the stream's head: the solve runs
    const { page, problems } = await openPage('', { base: busy.base });
    await choose(page, 'curling');
    const accepts = [];
    page.on('request', (r) => { if (r.url().includes('/solve/')) accepts.push(r.headers().accept); });
    await solve(page);
    assert.equal(await text(page, 'status'), 'solved');
    assert.equal(await text(page, 'moves'), 'DLUR');
    assert.ok(await byId(page, 'error').isHidden());
    assert.deepEqual(accepts, ['text/event-stream', 'application/json']);
    assert.deepEqual(problems.filter((p) => !/status of 503/.test(p)), []);
    await page.close();
  } finally {
    ctl.abort();
    assert.equal(await busy.stop(), 0, `busy server's exit status; log:\n${busy.log()}`);
  }
});

test('a fragment naming an inherited property (constructor, __proto__) opens the default puzzle', async () => {
  for (const name of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
    const { page, problems } = await openPage(`#puzzle=${name}&body=x`);
    assert.equal(await byId(page, 'puzzle-select').inputValue(), puzzles[0].name, name);
    assert.deepEqual(problems, [], name);
    await page.close();
  }
});

test('switching puzzle during a solve leaves a clean status; a failed request clears the counter', async () => {
  const { page, problems } = await openPage();
  await choose(page, 'sokoban');
  await paste(page, JSON.stringify({ ...LONG_LEVEL, limits: { timeout_ms: 8000 } }));
  await byId(page, 'solve').click();
  await page.waitForFunction(() => document.querySelector('[data-testid=progress]').dataset.expanded);
  await choose(page, 'curling');
  await untilIdle(5000, 'the dropped solve still runs 5 s after the switch');
  assert.ok(await byId(page, 'solve').isEnabled());
  assert.equal(await text(page, 'status'), '—');
  assert.equal(await text(page, 'progress'), '');

  // A stream that breaks after some progress: the request failed, and
  // the counter of a solve that is over goes.
  await page.evaluate(() => {
    const real = window.fetch;
    window.fetch = (url, init) => {
      if (!String(url).includes('/solve/')) return real(url, init);
      let sent = false;
      const body = new ReadableStream({
        async pull(c) {
          if (!sent) {
            sent = true;
            c.enqueue(new TextEncoder().encode('event: progress\ndata: {"expanded": 7}\n\n'));
            return;
          }
          await new Promise((r) => setTimeout(r, 50));
          c.error(new TypeError('network error'));
        },
      });
      return Promise.resolve(new Response(body, { headers: { 'Content-Type': 'text/event-stream' } }));
    };
  });
  await solve(page);
  assert.equal(await text(page, 'status'), 'failed');
  assert.match(await text(page, 'error'), /network error/);
  assert.equal(await text(page, 'progress'), '');
  assert.deepEqual(problems, []);
  await page.close();
});

test('a second Enter just after the one on Solve does not cancel the solve', async () => {
  const { page, problems } = await openPage();
  await choose(page, 'sokoban');
  await paste(page, JSON.stringify({ ...LONG_LEVEL, limits: { timeout_ms: 8000 } }));
  await byId(page, 'solve').focus();
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter'); // a double press, or a key repeat
  await page.waitForTimeout(200);
  assert.equal(await text(page, 'status'), 'solving…');
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'cancel');
  await page.waitForTimeout(400);
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.querySelector('[data-testid=status]').textContent === 'cancelled');
  await untilIdle(5000, 'the cancelled solve still runs 5 s later');
  assert.deepEqual(problems, []);
  await page.close();
});

test('at 375 and 320 px the page does not scroll sideways, with an answer shown', async () => {
  for (const width of [375, 320]) {
    const { page, problems } = await openPage('', { width });
    await choose(page, 'sokoban');
    await solve(page);
    assert.equal(await text(page, 'status'), 'solved');
    const { scroll, client } = await page.evaluate(() =>
      ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
    assert.ok(scroll <= client, `${width} px: scrollWidth ${scroll} > clientWidth ${client}`);
    // Nor does anything stick out of its card.
    const cards = await page.locator('.card').evaluateAll((els) => els.map((el) => [el.scrollWidth, el.clientWidth]));
    for (const [sw, cw] of cards) assert.ok(sw <= cw, `${width} px: a card's content is ${sw} px wide in ${cw} px`);
    assert.deepEqual(problems, []);
    await page.close();
  }
});

/* WCAG 2 contrast ratio of two computed colours, rgb() or rgba(); a
 * translucent foreground is laid over the background. */
function contrast(fg, bg) {
  const [r, g, b, a = 1] = fg.match(/[\d.]+/g).map(Number);
  const back = bg.match(/[\d.]+/g).map(Number).slice(0, 3);
  const front = [r, g, b].map((v, i) => v * a + back[i] * (1 - a));
  const lum = (rgb) => rgb.map((v) => {
    const s = v / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  }).reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i], 0);
  const [hi, lo] = [lum(front), lum(back)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

test('text, walls and the focus ring have enough contrast (WCAG 1.4.3, 1.4.11)', async () => {
  const { page, problems } = await openPage();
  const style = (sel, prop) => page.locator(sel).first().evaluate((el, p) => getComputedStyle(el)[p], prop);
  const pageBg = await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
  const cardBg = await style('.card', 'backgroundColor');
  const check = (what, ratio, need) => assert.ok(ratio >= need, `${what}: ${ratio.toFixed(2)}:1, needs ${need}:1`);
  // Muted text on the page and on the cards.
  check('header text on the page', contrast(await style('.top p', 'color'), pageBg), 4.5);
  check('footer on the page', contrast(await style('footer', 'color'), pageBg), 4.5);
  check('hint on a card', contrast(await style('.hint', 'color'), cardBg), 4.5);
  // Moves not played yet.
  await choose(page, 'wallpushers');
  await solve(page);
  check('an unplayed move', contrast(await style('#moves span:not(.done)', 'color'), cardBg), 4.5);
  // Walls, and walls that moved, on the maze floor.
  const floor = await style('[data-testid=board] .maze', 'fill');
  check('a wall', contrast(await style('[data-testid=board] .wall', 'stroke'), floor), 3);
  await byId(page, 'board').focus();
  await page.keyboard.press('End');
  check('a moved wall', contrast(await style('[data-testid=board] .wall.moved', 'stroke'), floor), 3);
  // The keyboard focus ring, on a card.
  await page.locator('#puzzle').focus();
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'example');
  check('the focus ring', contrast(await style('#example', 'outlineColor'), cardBg), 3);
  assert.deepEqual(problems, []);
  await page.close();
});

test('live regions: the status is announced, the progress counter and the body mode are not', async () => {
  const { page, problems } = await openPage();
  const live = (id) => page.evaluate((i) => {
    const el = document.getElementById(i);
    const implicit = { OUTPUT: 'polite' }[el.tagName] || null; // <output> is role=status
    const role = el.getAttribute('role');
    return el.getAttribute('aria-live') || ({ status: 'polite', alert: 'assertive', log: 'polite' }[role]) || implicit;
  }, id);
  assert.equal(await live('status'), 'polite');
  for (const id of ['progress', 'body-mode']) assert.ok([null, 'off'].includes(await live(id)), id);
  assert.deepEqual(problems, []);
  await page.close();
});

test('the Play button keeps its name; aria-pressed says whether it plays', async () => {
  const { page, problems } = await openPage();
  await choose(page, 'wallpushers');
  await solve(page);
  await page.selectOption('#speed', '1');
  const play = page.getByRole('button', { name: 'Play', exact: true });
  await play.click();
  assert.equal(await play.getAttribute('aria-pressed'), 'true');
  assert.equal(await page.getByRole('button', { name: /pause/i }).count(), 0);
  await play.click();
  assert.equal(await play.getAttribute('aria-pressed'), 'false');
  assert.deepEqual(problems, []);
  await page.close();
});

/* The board's picture, to compare two bodies that describe one board. */
const boardSvg = (page) => byId(page, 'board').locator('svg').evaluate((el) => el.outerHTML);

test('judge text: the board shows case 1 read as the server reads it, and otherwise says so', async () => {
  const { page, problems } = await openPage();
  const mode = () => page.locator('#body-mode').textContent();
  const cases = {
    // Wall pushers: `col row`, then 4 rows of 6 numbers.
    wallpushers: ['2 3\n10 2 10 10 2 6\n3 12 11 14 9 4\n13 15 3 6 15 13\n14 11 12 9 14 11\n0 0\n'],
    // Bloxorz: blank lines before the header and before each row are skipped.
    bloxorz: ['\n7 7\n#######\n#..X###\n#..##O#\n#....E#\n#....E#\n#.....#\n#######\n0 0\n',
      '7 7\n\n#######\n#..X###\n#..##O#\n\n#....E#\n#....E#\n#.....#\n#######\n0 0\n'],
    // Curling: numbers, whatever the lines.
    curling: ['6 6 1 0 0 2 1 0 1 1 0 0 0 0\n0 0 0 0 0 3 0 0 0 0 0 0\n1 0 0 0 0 1 0 1 1 1 1 1\n0 0\n'],
  };
  for (const [name, texts] of Object.entries(cases)) {
    await choose(page, name);
    const want = await boardSvg(page); // the example, which each text holds
    for (const body of texts) {
      await setSize(page, 2, 2); // the board shows another one first
      await paste(page, body);
      assert.match(await mode(), /the board shows case 1/, `${name}: ${JSON.stringify(body)}`);
      assert.equal(await boardSvg(page), want, `${name}: ${JSON.stringify(body)}`);
    }
  }
  // A case the page cannot read is not claimed to be on the board.
  await choose(page, 'bloxorz');
  await paste(page, '3 3\n###\n');
  assert.doesNotMatch(await mode(), /the board shows/);
  assert.match(await mode(), /case 1 is not drawn/);
  // Sokoban: a line that is not a map row is between levels, as on the
  // server, whatever its characters.
  await choose(page, 'sokoban');
  await paste(page, '#####\n#@$.#\n#####\nCafé crème\n');
  assert.match(await mode(), /^XSB level/);
  assert.equal(await byId(page, 'board').locator('.box').count(), 1);
  assert.deepEqual(problems, []);
  await page.close();
});

test('answers that are not problem documents say what came back, in sentences', async () => {
  const { page, problems } = await openPage();
  await choose(page, 'curling');
  let answer;
  await page.route('**/solve/curling', (route) => route.fulfill(answer));
  // An empty error.
  answer = { status: 500, headers: { 'Content-Type': 'text/plain' }, body: '' };
  await solve(page);
  assert.equal(await text(page, 'status'), 'error 500');
  assert.match(await text(page, 'error'), /500.*no details/);
  // A proxy's HTML page.
  answer = { status: 502, headers: { 'Content-Type': 'text/html' },
    body: '<html><head><title>502 Bad Gateway</title></head><body><h1>Bad Gateway</h1></body></html>' };
  await solve(page);
  assert.equal(await text(page, 'status'), 'error 502');
  assert.match(await text(page, 'error'), /502/);
  assert.doesNotMatch(await text(page, 'error'), /</);
  // A page where a JSON answer was asked for is not judge output.
  answer = { status: 200, headers: { 'Content-Type': 'text/html' }, body: '<html><body>hello</body></html>' };
  await solve(page);
  assert.notEqual(await text(page, 'status'), 'judge output');
  assert.ok(await page.locator('#judge-output').isHidden());
  assert.ok(await byId(page, 'error').isVisible());
  assert.doesNotMatch(await text(page, 'error'), /</);
  // A 503's detail and its Retry-After are two sentences.
  answer = { status: 503, headers: { 'Content-Type': 'application/problem+json', 'Retry-After': '1' },
    body: JSON.stringify({ title: 'Service unavailable', status: 503, detail: 'solve queue is full; retry later' }) };
  await solve(page);
  assert.equal(await text(page, 'error'), 'solve queue is full; retry later. Retry after 1 s.');
  assert.deepEqual(problems.filter((p) => !/status of 50\d/.test(p)), []);
  await page.close();
});

test('a whitespace-only body is not sent: the page says it is empty', async () => {
  const { page, problems } = await openPage();
  await choose(page, 'bloxorz');
  let sent = 0;
  page.on('request', (r) => { if (r.url().includes('/solve/')) sent++; });
  await paste(page, ' \n  \n');
  await byId(page, 'solve').click();
  await byId(page, 'error').waitFor();
  assert.match(await text(page, 'error'), /body is empty/);
  assert.equal(sent, 0);
  assert.deepEqual(problems, []);
  await page.close();
});

test(`a body over the cap of ${DRAW_CELLS} cells is solved, not drawn; the page stays responsive`, async () => {
  const { page, problems } = await openPage();
  await choose(page, 'bloxorz');
  // At the cap: drawn, every cell a tile.
  const line = (n, goal) => 'X' + '.'.repeat(goal - 1) + 'O' + '.'.repeat(n - goal - 1);
  const atCap = { grid: [line(DRAW_CELLS, 3 * Math.floor((DRAW_CELLS - 1) / 3))] };
  await paste(page, JSON.stringify(atCap));
  assert.equal(await page.locator('#body-mode').textContent(), 'JSON body');
  assert.equal(await byId(page, 'board').locator('.tile').count(), DRAW_CELLS);
  assert.equal(await page.getAttribute('#cols', 'max'), String(DRAW_CELLS));

  // Tasks of the page that take over 50 ms, from here on.
  await page.evaluate(() => {
    window.longTasks = [];
    new PerformanceObserver((list) => { for (const e of list.getEntries()) window.longTasks.push(e.duration); })
      .observe({ type: 'longtask' });
  });

  // One cell over: sent and solved, its moves listed, not replayed; the
  // board keeps the body before, and the note says why.
  const n = DRAW_CELLS + 1;
  const over = { grid: [line(n, 3 * Math.floor((n - 1) / 3))] };
  const api = await apiSolve('bloxorz', over);
  await paste(page, JSON.stringify(over));
  assert.equal(await page.locator('#body-mode').textContent(), `JSON body (not drawn: ${tooLarge(1, n)})`);
  await solve(page);
  assert.equal(await text(page, 'status'), api.status);
  assert.equal(await text(page, 'steps'), String(api.steps));
  assert.equal(await text(page, 'moves'), api.moves);
  assert.equal(await text(page, 'note'), `The body is not drawn here (${tooLarge(1, n)}), so its moves are not replayed.`);
  assert.ok(await byId(page, 'error').isHidden());
  assert.ok(await byId(page, 'play').isDisabled());
  assert.equal(await byId(page, 'board').locator('.tile').count(), DRAW_CELLS);

  // Far over: a 300 x 300 board (seconds a step if it were drawn) and a
  // holedox body naming 30000 x 30000 are read in no time.
  const big = { grid: Array.from({ length: 300 }, (_, r) =>
    (r === 0 ? 'X' : '.') + '.'.repeat(298) + (r === 299 ? 'O' : '.')) };
  await paste(page, JSON.stringify(big));
  assert.equal(await page.locator('#body-mode').textContent(), `JSON body (not drawn: ${tooLarge(300, 300)})`);
  await solve(page);
  assert.equal(await text(page, 'status'), 'solved');
  // A single XSB level over the cap still goes as its JSON grid: the
  // answer has its pushes.
  await choose(page, 'sokoban');
  const wide = Math.ceil((DRAW_CELLS + 1) / 3);
  const level = ['#'.repeat(wide), '#@$.' + '-'.repeat(wide - 5) + '#', '#'.repeat(wide)].join('\n');
  const sent = [];
  page.on('request', (r) => { if (r.url().includes('/solve/')) sent.push(r.headers()['content-type']); });
  await paste(page, level);
  assert.equal(await page.locator('#body-mode').textContent(),
    `XSB level, sent as a JSON grid (not drawn: ${tooLarge(3, wide)})`);
  await solve(page);
  assert.deepEqual(sent, ['application/json']);
  assert.equal(await text(page, 'moves'), 'R');
  assert.equal(await page.locator('#pushes').textContent(), '1');
  assert.equal(await text(page, 'note'), `The body is not drawn here (${tooLarge(3, wide)}), so its moves are not replayed.`);
  await choose(page, 'holedox');
  await paste(page, JSON.stringify({ rows: 30000, cols: 30000, snake: [[0, 0]], blocks: [], target: [9, 9] }));
  assert.equal(await page.locator('#body-mode').textContent(), `JSON body (not drawn: ${tooLarge(30000, 30000)})`);
  const longest = await page.evaluate(() => Math.max(0, ...window.longTasks));
  assert.ok(longest < 1000, `the page was busy for ${longest} ms`);
  assert.deepEqual(problems, []);
  await page.close();
});
