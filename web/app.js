/* gridsolve playground: edit a puzzle, solve it over the public HTTP API,
 * replay the answer on the board. Plain browser JavaScript, no libraries;
 * the server embeds this file into the page it serves at GET /. */
'use strict';

const SVG_NS = 'http://www.w3.org/2000/svg';
const $ = (id) => document.getElementById(id);

/* The most cells (rows x columns) the page draws, for every puzzle. The
 * board is redrawn at each replay step, one or more SVG elements a cell:
 * in chromium on a busy 2-core machine a 20 x 20 board of the slowest
 * puzzle (wallpushers, about 3 elements a cell) took about 100 ms to draw
 * plus one replay step, 64 x 64 about 1.2 s (bloxorz 0.35 s), 300 x 300
 * seconds a step. 64 x 64 keeps real levels (collections' Sokoban levels
 * reach 30 x 20) drawn and the page responsive; a larger body is still
 * sent and solved, its moves not replayed. */
const DRAW_CELLS = 4096;

/* A body too large to draw: what the note and the mode line say. */
class TooLarge extends Error {}

/* Throws TooLarge for a board of more than DRAW_CELLS cells: called
 * before a model of that size is built (a holedox body names its size,
 * {"rows": 30000, "cols": 30000} is a few bytes). */
function checkSize(rows, cols) {
  if (rows * cols > DRAW_CELLS) {
    throw new TooLarge(`its ${rows} x ${cols} board has ${fmtInt(rows * cols)} cells; ` +
      `the page draws up to ${fmtInt(DRAW_CELLS)}`);
  }
}

/* ---- small helpers ------------------------------------------------------ */

function grid2d(rows, cols, fill) {
  return Array.from({ length: rows }, () => Array(cols).fill(fill));
}

function resizeGrid(cells, rows, cols, fill) {
  return Array.from({ length: rows }, (_, r) =>
    Array.from({ length: cols }, (_, c) =>
      r < cells.length && c < cells[r].length ? cells[r][c] : fill));
}

function inside(m, r, c) {
  return r >= 0 && c >= 0 && r < m.rows && c < m.cols;
}

/* Replaces every cell equal to code by fill: for kinds a board has once. */
function clearCode(cells, code, fill) {
  for (const row of cells)
    for (let c = 0; c < row.length; c++) if (row[c] === code) row[c] = fill;
}

function findCells(cells, pred) {
  const out = [];
  cells.forEach((row, r) => row.forEach((v, c) => { if (pred(v)) out.push([r, c]); }));
  return out;
}

function svg(tag, attrs, parent) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) el.setAttribute(k, v);
  if (parent) parent.appendChild(el);
  return el;
}

const DIRS = { U: [-1, 0], D: [1, 0], L: [0, -1], R: [0, 1],
  N: [-1, 0], S: [1, 0], W: [0, -1], E: [0, 1] };

/* A JSON body laid out one grid row per line, so it reads like the board. */
function formatBody(body) {
  const lines = Object.entries(body).map(([k, v]) => {
    // Grid rows (strings, or rows of numbers) one per line; short lists
    // such as a snake or a coordinate stay on one line.
    const rows = Array.isArray(v) && v.length &&
      (typeof v[0] === 'string' || (Array.isArray(v[0]) && v.length > 2 && k !== 'snake' && k !== 'blocks'));
    const s = rows ? `[\n    ${v.map((x) => (typeof x === 'string' ? JSON.stringify(x)
      : JSON.stringify(x).replace(/,/g, ', '))).join(',\n    ')}\n  ]`
      : JSON.stringify(v).replace(/,(?=[\d[{"-])/g, ', ');
    return `  ${JSON.stringify(k)}: ${s}`;
  });
  return '{\n' + lines.join(',\n') + '\n}';
}

/* ---- the five puzzles --------------------------------------------------- *
 * Each adapter turns a request body into an editable model and back, paints
 * cells, replays moves exactly as the server's rules (PUZZLES.md) define
 * them, and draws a state. A model is {rows, cols, cells, ...}. */

/* Character grids (bloxorz, sokoban): rows of strings <-> a char matrix. */
function charModel(grid, fill) {
  const rows = Math.max(grid.length, 1);
  const cols = grid.reduce((n, s) => Math.max(n, [...s].length), 1);
  checkSize(rows, cols);
  return { rows, cols, cells: resizeGrid(grid.map((s) => [...s]), rows, cols, fill) };
}

function baseResize(m, rows, cols, fill) {
  m.cells = resizeGrid(m.cells, rows, cols, fill);
  m.rows = rows;
  m.cols = cols;
}

const bloxorz = {
  palette: [
    { code: '.', label: 'Floor' }, { code: 'E', label: 'Fragile floor' },
    { code: '#', label: 'Hole' }, { code: 'O', label: 'Goal' },
    { code: 'X', label: 'Block' },
  ],
  hint: 'One Block cell stands the block up; two adjacent ones lay it down.',
  blank: () => ({ rows: 5, cols: 7, cells: grid2d(5, 7, '.') }),
  fromBody(b) {
    if (!Array.isArray(b.grid)) throw new Error('body needs "grid": an array of strings');
    return charModel(b.grid.map(String), '#');
  },
  toBody: (m) => ({ grid: m.cells.map((r) => r.join('')) }),
  resize: (m, rows, cols) => baseResize(m, rows, cols, '#'),
  paint(m, r, c, code) {
    if (code === 'O') clearCode(m.cells, 'O', '.');
    if (code === 'X') {
      const xs = findCells(m.cells, (v) => v === 'X');
      const adjacent = xs.length === 1 && Math.abs(xs[0][0] - r) + Math.abs(xs[0][1] - c) === 1;
      if (!adjacent) clearCode(m.cells, 'X', '.');
    }
    m.cells[r][c] = code;
  },
  start(m) {
    const xs = findCells(m.cells, (v) => v === 'X');
    if (xs.length === 0) return null;
    if (xs.length === 1) return { r: xs[0][0], c: xs[0][1], o: 'S' };
    const [a, b] = xs;
    return a[0] === b[0] ? { r: a[0], c: Math.min(a[1], b[1]), o: 'H' }
      : { r: Math.min(a[0], b[0]), c: a[1], o: 'V' };
  },
  cover: (s) => (s.o === 'S' ? [[s.r, s.c]] : s.o === 'H' ? [[s.r, s.c], [s.r, s.c + 1]]
    : [[s.r, s.c], [s.r + 1, s.c]]),
  step(m, s, mv) {
    const { r, c, o } = s;
    const table = {
      S: { L: [r, c - 2, 'H'], R: [r, c + 1, 'H'], U: [r - 2, c, 'V'], D: [r + 1, c, 'V'] },
      H: { L: [r, c - 1, 'S'], R: [r, c + 2, 'S'], U: [r - 1, c, 'H'], D: [r + 1, c, 'H'] },
      V: { U: [r - 1, c, 'S'], D: [r + 2, c, 'S'], L: [r, c - 1, 'V'], R: [r, c + 1, 'V'] },
    };
    const t = table[o][mv];
    if (!t) return null;
    const n = { r: t[0], c: t[1], o: t[2] };
    for (const [rr, cc] of this.cover(n)) {
      if (!inside(m, rr, cc) || m.cells[rr][cc] === '#') return null;
      if (n.o === 'S' && m.cells[rr][cc] === 'E') return null;
    }
    return n;
  },
  draw(g, m, s, S) {
    m.cells.forEach((row, r) => row.forEach((v, c) => {
      if (v === '#') return;
      const x = c * S, y = r * S;
      if (!'.EXO'.includes(v)) return unknownCell(g, r, c, S);
      svg('rect', { x: x + 1.5, y: y + 1.5, width: S - 3, height: S - 3, rx: S * 0.12,
        class: v === 'E' ? 'tile fragile' : 'tile' }, g);
      if (v === 'O') svg('rect', { x: x + S * 0.22, y: y + S * 0.22, width: S * 0.56,
        height: S * 0.56, rx: S * 0.06, class: 'goal-hole' }, g);
    }));
    s = s || this.start(m);
    if (!s) return;
    // The block: a standing block shows its square top face raised above
    // its shadow; a lying one is a long bar across two cells.
    const cells = this.cover(s);
    const x0 = Math.min(...cells.map((p) => p[1])) * S, y0 = Math.min(...cells.map((p) => p[0])) * S;
    const w = (s.o === 'H' ? 2 : 1) * S, h = (s.o === 'V' ? 2 : 1) * S;
    if (s.o === 'S') {
      svg('rect', { x: x0 + S * 0.14, y: y0 + S * 0.2, width: S * 0.78, height: S * 0.78,
        rx: S * 0.1, class: 'shadow' }, g);
      svg('rect', { x: x0 + S * 0.08, y: y0 + S * 0.02, width: S * 0.84, height: S * 0.9,
        rx: S * 0.1, class: 'block-side' }, g);
      svg('rect', { x: x0 + S * 0.08, y: y0 + S * 0.02, width: S * 0.84, height: S * 0.66,
        rx: S * 0.1, class: 'block-top' }, g);
      svg('rect', { x: x0 + S * 0.3, y: y0 + S * 0.2, width: S * 0.4, height: S * 0.3,
        rx: S * 0.05, class: 'block-mark' }, g);
    } else {
      svg('rect', { x: x0 + S * 0.14, y: y0 + S * 0.18, width: w - S * 0.2, height: h - S * 0.2,
        rx: S * 0.1, class: 'shadow' }, g);
      svg('rect', { x: x0 + S * 0.08, y: y0 + S * 0.08, width: w - S * 0.16, height: h - S * 0.16,
        rx: S * 0.1, class: 'block-top' }, g);
      svg('rect', { x: x0 + S * 0.2, y: y0 + S * 0.2, width: w - S * 0.4, height: h - S * 0.4,
        rx: S * 0.06, class: 'block-shine' }, g);
    }
  },
};

const WALL = { W: 1, N: 2, E: 4, S: 8 };
const OPP = { W: 'E', E: 'W', N: 'S', S: 'N' };

const wallpushers = {
  palette: [{ code: 'wall', label: 'Wall (click an edge)' }, { code: 'start', label: 'Start' }],
  hint: 'Click near a cell edge to add or remove that wall; an open outer edge is an exit.',
  margin: 1, // room outside the maze for the walk out
  blank() {
    const m = { rows: 4, cols: 6, cells: grid2d(4, 6, 0), start: [0, 0] };
    for (let c = 0; c < 6; c++) { m.cells[0][c] |= WALL.N; m.cells[3][c] |= WALL.S; }
    for (let r = 0; r < 4; r++) { m.cells[r][0] |= WALL.W; m.cells[r][5] |= WALL.E; }
    return m;
  },
  fromBody(b) {
    if (!Array.isArray(b.walls) || !b.walls.every(Array.isArray))
      throw new Error('body needs "walls": an array of rows of numbers');
    const rows = Math.max(1, b.walls.length), cols = b.walls.reduce((n, w) => Math.max(n, w.length), 1);
    checkSize(rows, cols);
    const cells = resizeGrid(b.walls.map((w) => w.map((v) => Number(v) | 0)), rows, cols, 0);
    const start = Array.isArray(b.start) ? b.start.map(Number) : [0, 0];
    return { rows, cols, cells, start };
  },
  toBody: (m) => ({ start: m.start, walls: m.cells }),
  /* The outer walls move with the edge, so the exits stay exits (a new
   * stretch of edge is walled); inner walls are kept where both cells
   * stay, and the new cells are open floor. Both cells of an inner wall
   * are set alike, so the maze stays consistent. */
  resize(m, rows, cols) {
    const old = m.cells, R = m.rows, C = m.cols;
    const had = (r, c) => r < R && c < C;
    m.cells = Array.from({ length: rows }, (_, r) => Array.from({ length: cols }, (_, c) => {
      let v = 0;
      for (const side of ['W', 'N', 'E', 'S']) {
        const [dr, dc] = DIRS[side];
        const nr = r + dr, nc = c + dc;
        let wall;
        if (inside({ rows, cols }, nr, nc)) wall = had(r, c) && had(nr, nc) && old[r][c] & WALL[side];
        else if (side === 'W' || side === 'E') wall = r < R ? old[r][side === 'W' ? 0 : C - 1] & WALL[side] : 1;
        else wall = c < C ? old[side === 'N' ? 0 : R - 1][c] & WALL[side] : 1;
        if (wall) v |= WALL[side];
      }
      return v;
    }));
    m.rows = rows;
    m.cols = cols;
    m.start = [Math.min(m.start[0], rows - 1), Math.min(m.start[1], cols - 1)];
  },
  /* Toggles the wall on side d of (r,c), and on the neighbour's facing side
   * too: an inner wall belongs to both of its cells. */
  paint(m, r, c, code, side) {
    if (code === 'start') { m.start = [r, c]; return; }
    const bit = WALL[side];
    const on = !(m.cells[r][c] & bit);
    const [dr, dc] = DIRS[side];
    const set = (rr, cc, b) => {
      if (!inside(m, rr, cc)) return;
      m.cells[rr][cc] = on ? m.cells[rr][cc] | b : m.cells[rr][cc] & ~b;
    };
    set(r, c, bit);
    set(r + dr, c + dc, WALL[OPP[side]]);
  },
  paintsEdges: true,
  paintsOnce: true,
  start: (m) => ({ r: m.start[0], c: m.start[1], walls: m.cells.map((row) => row.slice()), out: false }),
  step(m, s, mv) {
    if (s.out || !WALL[mv]) return null;
    const [dr, dc] = DIRS[mv];
    const nr = s.r + dr, nc = s.c + dc;
    const walls = s.walls.map((row) => row.slice());
    const bit = WALL[mv], opp = WALL[OPP[mv]];
    if (walls[s.r][s.c] & bit) {
      if (!inside(m, nr, nc) || walls[nr][nc] & bit) return null;
      // The wall slides one cell on: off A's side and B's facing side,
      // onto B's far side and the facing side of the cell beyond B.
      walls[s.r][s.c] &= ~bit;
      walls[nr][nc] = (walls[nr][nc] & ~opp) | bit;
      if (inside(m, nr + dr, nc + dc)) walls[nr + dr][nc + dc] |= opp;
    }
    return { r: nr, c: nc, walls, out: !inside(m, nr, nc) };
  },
  draw(g, m, s, S) {
    const walls = s ? s.walls : m.cells;
    // One floor with faint cell lines, so only real walls read as walls.
    svg('rect', { x: 0, y: 0, width: m.cols * S, height: m.rows * S, class: 'maze' }, g);
    m.cells.forEach((row, r) => row.forEach((_, c) =>
      svg('rect', { x: c * S, y: r * S, width: S, height: S, class: 'maze-cell' }, g)));
    const [sr, sc] = m.start;
    if (inside(m, sr, sc))
      svg('circle', { cx: (sc + 0.5) * S, cy: (sr + 0.5) * S, r: S * 0.14, class: 'start-dot' }, g);
    // Walls on cell sides; a wall that moved since the start is highlighted.
    m.cells.forEach((row, r) => row.forEach((orig, c) => {
      const v = walls[r][c];
      const x = c * S, y = r * S;
      const seg = { N: [x, y, x + S, y], S: [x, y + S, x + S, y + S],
        W: [x, y, x, y + S], E: [x + S, y, x + S, y + S] };
      for (const side of ['N', 'S', 'W', 'E']) {
        const [dr, dc] = DIRS[side];
        const edge = !inside(m, r + dr, c + dc);
        if (v & WALL[side]) {
          const [x1, y1, x2, y2] = seg[side];
          svg('line', { x1, y1, x2, y2, class: orig & WALL[side] ? 'wall' : 'wall moved' }, g);
        } else if (edge) {
          const [x1, y1, x2, y2] = seg[side];
          svg('line', { x1, y1, x2, y2, class: 'exit' }, g);
        }
      }
    }));
    const p = s || { r: sr, c: sc };
    svg('circle', { cx: (p.c + 0.5) * S, cy: (p.r + 0.5) * S, r: S * 0.3, class: 'player' }, g);
  },
};

const SOK_SEED = { X: '@', '*': '$', '@': '.', '#': '#' };

const sokoban = {
  palette: [
    { code: '#', label: 'Wall' }, { code: ' ', label: 'Floor' }, { code: '.', label: 'Goal' },
    { code: '$', label: 'Box' }, { code: '*', label: 'Box on goal' },
    { code: '@', label: 'Player' }, { code: '+', label: 'Player on goal' },
  ],
  hint: 'Paste XSB as is, titles and ; comments included: one level is sent as a JSON grid (moves, pushes, replay); several levels go as text/plain, answered one line per level.',
  options: [{ key: 'optimize', label: 'Objective', values: ['moves', 'pushes', 'any'] }],
  blank: () => ({ rows: 5, cols: 7, cells: grid2d(5, 7, ' '), optimize: 'moves' }),
  fromBody(b) {
    if (!Array.isArray(b.grid)) throw new Error('body needs "grid": an array of strings');
    let grid = b.grid.map(String);
    // The seed notation is drawn (and sent back) as XSB.
    if (b.notation === 'seed') grid = grid.map((s) => [...s].map((ch) => SOK_SEED[ch] || ' ').join(''));
    else grid = grid.map((s) => s.replace(/[-_]/g, ' '));
    return { ...charModel(grid, ' '), optimize: b.optimize || 'moves' };
  },
  toBody(m) {
    // Rows keep their trailing floor: an all-floor row must not be empty.
    const body = { grid: m.cells.map((r) => r.join('')) };
    if (m.optimize && m.optimize !== 'moves') body.optimize = m.optimize;
    return body;
  },
  resize: (m, rows, cols) => baseResize(m, rows, cols, ' '),
  paint(m, r, c, code) {
    if (code === '@' || code === '+') {
      for (const row of m.cells)
        for (let k = 0; k < row.length; k++)
          if (row[k] === '@') row[k] = ' '; else if (row[k] === '+') row[k] = '.';
    }
    m.cells[r][c] = code;
  },
  start(m) {
    const p = findCells(m.cells, (v) => v === '@' || v === '+')[0];
    if (!p) return null;
    const boxes = new Set(findCells(m.cells, (v) => v === '$' || v === '*').map(([r, c]) => r * m.cols + c));
    return { r: p[0], c: p[1], boxes };
  },
  step(m, s, mv) {
    const d = DIRS[mv.toUpperCase()];
    if (!d || 'udlr'.indexOf(mv.toLowerCase()) < 0) return null;
    const free = (r, c) => inside(m, r, c) && m.cells[r][c] !== '#';
    const nr = s.r + d[0], nc = s.c + d[1];
    if (!free(nr, nc)) return null;
    const boxes = new Set(s.boxes);
    const key = nr * m.cols + nc;
    if (boxes.has(key)) {
      const br = nr + d[0], bc = nc + d[1];
      if (mv === mv.toLowerCase() || !free(br, bc) || boxes.has(br * m.cols + bc)) return null;
      boxes.delete(key);
      boxes.add(br * m.cols + bc);
    } else if (mv !== mv.toLowerCase()) {
      return null;
    }
    return { r: nr, c: nc, boxes };
  },
  /* Floor reachable from the player without crossing walls: the rest of a
   * level is the outside, drawn as background. */
  interior(m) {
    const p = findCells(m.cells, (v) => v === '@' || v === '+')[0];
    const seen = new Set();
    if (!p) return null;
    const stack = [p];
    while (stack.length) {
      const [r, c] = stack.pop();
      const k = r * m.cols + c;
      if (!inside(m, r, c) || seen.has(k) || m.cells[r][c] === '#') continue;
      seen.add(k);
      for (const d of ['U', 'D', 'L', 'R']) stack.push([r + DIRS[d][0], c + DIRS[d][1]]);
    }
    return seen;
  },
  draw(g, m, s, S) {
    const inner = this.interior(m);
    const goal = (v) => v === '.' || v === '*' || v === '+';
    m.cells.forEach((row, r) => row.forEach((v, c) => {
      const x = c * S, y = r * S;
      if (!'# .$*@+'.includes(v)) return unknownCell(g, r, c, S);
      if (v === '#') {
        svg('rect', { x: x + 0.5, y: y + 0.5, width: S - 1, height: S - 1, rx: S * 0.08, class: 'brick' }, g);
        return;
      }
      const isInner = !inner || inner.has(r * m.cols + c) || v !== ' ';
      svg('rect', { x, y, width: S, height: S, class: isInner ? 'floor' : 'outside' }, g);
      if (goal(v)) svg('circle', { cx: x + S / 2, cy: y + S / 2, r: S * 0.16, class: 'goal-dot' }, g);
    }));
    const st = s || this.start(m);
    const boxes = st ? st.boxes : new Set();
    for (const k of boxes) {
      const r = Math.floor(k / m.cols), c = k % m.cols;
      const on = goal(m.cells[r][c]);
      const x = c * S, y = r * S;
      svg('rect', { x: x + S * 0.1, y: y + S * 0.1, width: S * 0.8, height: S * 0.8, rx: S * 0.1,
        class: on ? 'box on-goal' : 'box' }, g);
      svg('path', { d: `M${x + S * 0.25} ${y + S * 0.25}L${x + S * 0.75} ${y + S * 0.75}` +
        `M${x + S * 0.75} ${y + S * 0.25}L${x + S * 0.25} ${y + S * 0.75}`, class: 'box-x' }, g);
    }
    if (st) playerShape(g, st.r, st.c, S);
  },
};

const curling = {
  palette: [
    { code: 0, label: 'Ice' }, { code: 1, label: 'Block' },
    { code: 2, label: 'Start' }, { code: 3, label: 'Goal' },
  ],
  hint: 'A throw slides the stone until a block stops it; that block vanishes.',
  options: [{ key: 'max_throws', label: 'Max throws', number: [1, 64] }],
  blank: () => ({ rows: 6, cols: 6, cells: grid2d(6, 6, 0), max_throws: 10 }),
  fromBody(b) {
    if (!Array.isArray(b.board) || !b.board.every(Array.isArray))
      throw new Error('body needs "board": an array of rows of numbers');
    const rows = Math.max(1, b.board.length), cols = b.board.reduce((n, w) => Math.max(n, w.length), 1);
    checkSize(rows, cols);
    return { rows, cols, cells: resizeGrid(b.board, rows, cols, 0), max_throws: b.max_throws ?? 10 };
  },
  toBody: (m) => ({ board: m.cells, max_throws: m.max_throws }),
  resize: (m, rows, cols) => baseResize(m, rows, cols, 0),
  paint(m, r, c, code) {
    if (code === 2 || code === 3) clearCode(m.cells, code, 0);
    m.cells[r][c] = code;
  },
  start(m) {
    const p = findCells(m.cells, (v) => v === 2)[0];
    return p ? { r: p[0], c: p[1], gone: new Set(), trail: null, won: false } : null;
  },
  step(m, s, mv) {
    const d = DIRS[mv];
    if (!d || !'UDLR'.includes(mv) || s.won) return null;
    let r = s.r, c = s.c, first = true;
    for (;;) {
      const nr = r + d[0], nc = c + d[1];
      if (!inside(m, nr, nc)) return null;
      const v = m.cells[nr][nc];
      const key = nr * m.cols + nc;
      if (v === 1 && !s.gone.has(key)) {
        if (first) return null;
        const gone = new Set(s.gone).add(key);
        return { r, c, gone, trail: [s.r, s.c, r, c], won: false };
      }
      if (v === 3) return { r: nr, c: nc, gone: s.gone, trail: [s.r, s.c, nr, nc], won: true };
      r = nr; c = nc; first = false;
    }
  },
  draw(g, m, s, S) {
    svg('rect', { x: 0, y: 0, width: m.cols * S, height: m.rows * S, rx: S * 0.15, class: 'ice' }, g);
    m.cells.forEach((row, r) => row.forEach((v, c) => {
      const x = c * S, y = r * S, cx = x + S / 2, cy = y + S / 2;
      svg('rect', { x, y, width: S, height: S, class: 'ice-cell' }, g);
      if (![0, 1, 2, 3].includes(v)) return unknownCell(g, r, c, S);
      if (v === 1) {
        const gone = s && s.gone.has(r * m.cols + c);
        svg('rect', { x: x + S * 0.08, y: y + S * 0.08, width: S * 0.84, height: S * 0.84, rx: S * 0.12,
          class: gone ? 'stone-block gone' : 'stone-block' }, g);
      } else if (v === 3) {
        svg('circle', { cx, cy, r: S * 0.42, class: 'house-outer' }, g);
        svg('circle', { cx, cy, r: S * 0.26, class: 'house-mid' }, g);
        svg('circle', { cx, cy, r: S * 0.1, class: 'house-in' }, g);
      } else if (v === 2) {
        svg('circle', { cx, cy, r: S * 0.3, class: 'start-ring' }, g);
      }
    }));
    const st = s || this.start(m);
    if (!st) return;
    if (st.trail) {
      const [r1, c1, r2, c2] = st.trail;
      svg('line', { x1: (c1 + 0.5) * S, y1: (r1 + 0.5) * S, x2: (c2 + 0.5) * S, y2: (r2 + 0.5) * S,
        class: 'trail' }, g);
    }
    const cx = (st.c + 0.5) * S, cy = (st.r + 0.5) * S;
    svg('circle', { cx, cy, r: S * 0.3, class: 'curl-stone' }, g);
    svg('rect', { x: cx - S * 0.12, y: cy - S * 0.06, width: S * 0.24, height: S * 0.12, rx: S * 0.05,
      class: 'curl-handle' }, g);
  },
};

const holedox = {
  palette: [
    { code: 'empty', label: 'Empty' }, { code: 'stone', label: 'Stone' },
    { code: 'snake', label: 'Snake' }, { code: 'target', label: 'Exit' },
  ],
  hint: 'Snake: click the head first, then each next cell; click a body cell to cut the snake there.',
  blank: () => ({ rows: 5, cols: 6, cells: grid2d(5, 6, 0), snake: [], target: [0, 0] }),
  fromBody(b) {
    const rows = Number(b.rows), cols = Number(b.cols);
    if (!Number.isInteger(rows) || !Number.isInteger(cols) || rows < 1 || cols < 1)
      throw new Error('body needs "rows" and "cols", whole numbers of at least 1');
    checkSize(rows, cols); // before the cells: the body names any size
    const cells = grid2d(rows, cols, 0);
    const pair = (p) => Array.isArray(p) && p.length === 2 && inside({ rows, cols }, p[0], p[1]);
    for (const p of b.blocks || []) if (pair(p)) cells[p[0]][p[1]] = 1;
    const snake = (b.snake || []).filter(pair).map((p) => [p[0], p[1]]);
    return { rows, cols, cells, snake, target: Array.isArray(b.target) ? b.target : [0, 0] };
  },
  toBody(m) {
    return { rows: m.rows, cols: m.cols, snake: m.snake,
      blocks: findCells(m.cells, (v) => v === 1), target: m.target };
  },
  resize(m, rows, cols) {
    baseResize(m, rows, cols, 0);
    m.snake = m.snake.filter(([r, c]) => r < rows && c < cols);
  },
  paint(m, r, c, code, _side, dragging) {
    const at = m.snake.findIndex(([sr, sc]) => sr === r && sc === c);
    if (code === 'snake') {
      const tail = m.snake[m.snake.length - 1];
      if (at >= 0) { if (!dragging) m.snake = m.snake.slice(0, at); return; }
      if (tail && Math.abs(tail[0] - r) + Math.abs(tail[1] - c) === 1) m.snake.push([r, c]);
      else if (!dragging) m.snake = [[r, c]];
      m.cells[r][c] = 0;
      return;
    }
    if (code === 'target') { m.target = [r, c]; return; }
    if (at >= 0) m.snake = m.snake.slice(0, at);
    m.cells[r][c] = code === 'stone' ? 1 : 0;
  },
  start: (m) => (m.snake.length ? { snake: m.snake } : null),
  step(m, s, mv) {
    const d = DIRS[mv];
    if (!d || !'UDLR'.includes(mv)) return null;
    const h = [s.snake[0][0] + d[0], s.snake[0][1] + d[1]];
    if (!inside(m, h[0], h[1]) || m.cells[h[0]][h[1]] === 1) return null;
    if (s.snake.some(([r, c]) => r === h[0] && c === h[1])) return null;
    return { snake: [h, ...s.snake.slice(0, -1)] };
  },
  draw(g, m, s, S) {
    m.cells.forEach((row, r) => row.forEach((v, c) => {
      const x = c * S, y = r * S;
      svg('rect', { x: x + 1, y: y + 1, width: S - 2, height: S - 2, rx: S * 0.1, class: 'soil' }, g);
      if (v === 1) svg('rect', { x: x + S * 0.1, y: y + S * 0.1, width: S * 0.8, height: S * 0.8,
        rx: S * 0.22, class: 'rock' }, g);
    }));
    const [tr, tc] = m.target;
    if (inside(m, tr, tc)) {
      svg('rect', { x: tc * S + S * 0.15, y: tr * S + S * 0.15, width: S * 0.7, height: S * 0.7,
        rx: S * 0.35, class: 'exit-hole' }, g);
    }
    const snake = (s || this.start(m) || { snake: [] }).snake;
    if (!snake.length) return;
    const pts = snake.map(([r, c]) => `${(c + 0.5) * S},${(r + 0.5) * S}`).join(' ');
    svg('polyline', { points: pts, class: 'snake-body', 'stroke-width': S * 0.56 }, g);
    snake.forEach(([r, c], i) => {
      if (i) svg('circle', { cx: (c + 0.5) * S, cy: (r + 0.5) * S, r: S * 0.08, class: 'snake-scale' }, g);
    });
    const [hr, hc] = snake[0];
    svg('circle', { cx: (hc + 0.5) * S, cy: (hr + 0.5) * S, r: S * 0.34, class: 'snake-head' }, g);
    for (const dx of [-0.12, 0.12])
      svg('circle', { cx: (hc + 0.5 + dx) * S, cy: (hr + 0.42) * S, r: S * 0.06, class: 'snake-eye' }, g);
  },
};

function unknownCell(g, r, c, S) {
  svg('rect', { x: c * S + 2, y: r * S + 2, width: S - 4, height: S - 4, rx: 4, class: 'unknown' }, g);
}

function playerShape(g, r, c, S) {
  const cx = (c + 0.5) * S, cy = (r + 0.5) * S;
  svg('circle', { cx, cy, r: S * 0.3, class: 'player' }, g);
  svg('circle', { cx, cy: cy - S * 0.05, r: S * 0.1, class: 'player-face' }, g);
}

const ADAPTERS = { bloxorz, wallpushers, sokoban, curling, holedox };

/* ---- page state --------------------------------------------------------- */

const state = {
  puzzles: [],      // GET /puzzles
  name: 'bloxorz',
  model: null,      // the board being edited
  tool: null,       // palette code in use
  frames: null,     // replay states: frames[k] after k moves
  moves: '',
  pos: 0,
  timer: null,
  abort: null,      // AbortController of the running solve
  started: 0,       // performance.now() when it started
  drawn: true,      // the board shows what the text area holds
  why: '',          // why it does not (a message)
  tooLarge: false,  // it does not for its size alone
  debounce: null,   // a pending textChanged after typing
  errorCell: null,  // [r, c] or [r, -1] for a whole row
  cursor: [0, 0],   // keyboard painting
};

const adapter = () => ADAPTERS[state.name];

/* What the text area holds: a JSON body, sokoban XSB, or judge text
 * (which starts with a number). Sokoban XSB with one level is 'xsb': it
 * goes as a JSON grid, whose answer has the moves, pushes and optimality
 * the replay needs. XSB with several levels is 'xsb-text': it goes as
 * text/plain, which the server answers with one line per level (its LURD
 * moves, impossible or limit), as it does for any XSB collection. */
function bodyMode(text) {
  const t = text.trim();
  if (t.startsWith('{')) return 'json';
  // As on the server, sokoban text whose first line is two numbers is
  // contest (judge) text; other text is XSB.
  if (state.name === 'sokoban' && !/^\s*[-+]?\d+[ \t]+[-+]?\d+[ \t]*(\n|\r|$)/.test(text)) {
    const levels = xsbLevels(text);
    if (levels) return levels.length === 1 ? 'xsb' : 'xsb-text';
  }
  return t ? 'judge' : 'empty';
}

/* Modes sent as text/plain, answered with text lines. */
const isText = (mode) => mode === 'judge' || mode === 'xsb-text';

/* The levels of XSB text, each as its map lines, or null when it has
 * none. As on the server, a map row is a line that past any floor
 * padding (space, tab, - or _) starts with a wall '#'; any other line
 * (blank, '; comment', 'Title: ...', a level's name) is between levels.
 * A row's other characters are checked when the level is drawn or sent. */
function xsbLevels(text) {
  const levels = [];
  let cur = null;
  for (const line of text.replace(/\r/g, '').split('\n')) {
    if (/^[ \t\-_]*#/.test(line)) {
      if (!cur) levels.push(cur = []);
      cur.push(line.replace(/\s+$/, ''));
    } else {
      cur = null;
    }
  }
  return levels.length ? levels : null;
}

/* ---- board rendering and painting --------------------------------------- */

function cellSize(m) {
  const span = Math.max(m.rows, m.cols) + 2 * (adapter().margin || 0);
  return Math.max(12, Math.min(64, Math.floor(640 / span)));
}

function drawBoard() {
  const m = state.model;
  const box = $('board');
  box.textContent = '';
  if (!m) return;
  const S = cellSize(m), pad = (adapter().margin || 0.25) * S;
  const w = m.cols * S + 2 * pad, h = m.rows * S + 2 * pad;
  const root = svg('svg', { viewBox: `0 0 ${w} ${h}`, width: w, height: h, 'aria-hidden': 'true' }, box);
  const g = svg('g', { transform: `translate(${pad} ${pad})` }, root);
  const frame = state.frames ? state.frames[state.pos] : null;
  adapter().draw(g, m, frame, S);
  if (!frame && document.activeElement === box) {
    state.cursor = state.cursor.map((v, i) => Math.min(v, (i ? m.cols : m.rows) - 1));
    svg('rect', { x: state.cursor[1] * S, y: state.cursor[0] * S, width: S, height: S, class: 'cursor' }, g);
  }
  if (state.errorCell) {
    const [r, c] = state.errorCell;
    const all = c < 0;
    svg('rect', { x: all ? 0 : c * S, y: r * S, width: all ? m.cols * S : S, height: S,
      class: 'error-mark', 'data-error-cell': `${r},${c}`, 'data-r': r, 'data-c': c }, g);
  }
  root.dataset.cell = S;
  root.dataset.pad = pad;
  box.setAttribute('aria-label', boardLabel(frame));
}

function boardLabel(frame) {
  const m = state.model;
  let s = `${state.name} board, ${m.rows} rows by ${m.cols} columns`;
  if (state.frames) s += `, after move ${state.pos} of ${state.frames.length - 1}`;
  if (frame && 'r' in frame) s += `, ${frame.out ? 'out of the maze' : `at row ${frame.r} column ${frame.c}`}`;
  if (!frame) s += `; cursor at row ${state.cursor[0]} column ${state.cursor[1]}: arrows move, Enter paints`;
  return s;
}

/* The cell (and for edge tools, the nearest side) under a pointer event. */
function cellAt(ev) {
  const root = $('board').querySelector('svg');
  if (!root) return null;
  const pt = new DOMPoint(ev.clientX, ev.clientY).matrixTransform(root.getScreenCTM().inverse());
  const S = Number(root.dataset.cell), pad = Number(root.dataset.pad);
  const x = (pt.x - pad) / S, y = (pt.y - pad) / S;
  const r = Math.floor(y), c = Math.floor(x);
  if (!inside(state.model, r, c)) return null;
  const fx = x - c, fy = y - r;
  const side = [['N', fy], ['S', 1 - fy], ['W', fx], ['E', 1 - fx]].sort((a, b) => a[1] - b[1])[0][0];
  return { r, c, side };
}

let lastPainted = null;

function paintAt(ev, dragging) {
  const hit = cellAt(ev);
  if (!hit || state.tool === null) return;
  const key = `${hit.r},${hit.c},${hit.side}`;
  if (dragging && (key === lastPainted || adapter().paintsOnce)) return;
  lastPainted = key;
  adapter().paint(state.model, hit.r, hit.c, state.tool, hit.side, dragging);
  modelChanged();
}

function setupPainting() {
  const box = $('board');
  box.addEventListener('pointerdown', (ev) => {
    if (ev.button !== 0) return;
    ev.preventDefault();
    box.setPointerCapture(ev.pointerId);
    lastPainted = null;
    paintAt(ev, false);
  });
  box.addEventListener('pointermove', (ev) => { if (ev.buttons & 1) paintAt(ev, true); });
}

function renderPalette() {
  const pal = $('palette');
  pal.textContent = '';
  adapter().palette.forEach((p, i) => {
    const id = `tool-${i}`;
    const input = Object.assign(document.createElement('input'),
      { type: 'radio', name: 'tool', id, checked: i === 0 });
    input.addEventListener('change', () => { state.tool = p.code; });
    const label = Object.assign(document.createElement('label'), { htmlFor: id });
    const swatch = document.createElement('span');
    swatch.className = `swatch sw-${state.name}-${String(p.code).replace(/[^a-z0-9]/gi, (ch) => ch.charCodeAt(0))}`;
    label.append(swatch, p.label);
    pal.append(input, label);
  });
  state.tool = adapter().palette[0].code;
  $('palette-hint').textContent = adapter().hint;
}

function renderOptions() {
  const box = $('options');
  box.textContent = '';
  for (const opt of adapter().options || []) {
    const id = `opt-${opt.key}`;
    const label = Object.assign(document.createElement('label'), { htmlFor: id, textContent: opt.label });
    let input;
    if (opt.values) {
      input = document.createElement('select');
      for (const v of opt.values) input.append(new Option(v, v));
    } else {
      input = Object.assign(document.createElement('input'),
        { type: 'number', min: opt.number[0], max: opt.number[1] });
    }
    input.id = id;
    input.value = state.model[opt.key] ?? '';
    input.addEventListener('change', () => optionChanged(opt.key, opt.values ? input.value : Number(input.value)));
    box.append(label, input);
  }
  box.hidden = !(adapter().options || []).length;
}

function syncControls() {
  // A side grows while the board has at most DRAW_CELLS cells.
  const m = state.model;
  $('rows').max = Math.max(1, Math.floor(DRAW_CELLS / m.cols));
  $('cols').max = Math.max(1, Math.floor(DRAW_CELLS / m.rows));
  for (const id of ['rows', 'cols']) $(id).value = m[id];
  for (const opt of adapter().options || []) {
    const el = $(`opt-${opt.key}`);
    if (el) el.value = state.model[opt.key] ?? '';
  }
}

/* ---- body text <-> model ------------------------------------------------ */

/* The body the controls describe: the model plus the limits. */
function currentBody() {
  const body = adapter().toBody(state.model);
  const limits = currentLimits();
  if (Object.keys(limits).length) body.limits = limits;
  return body;
}

/* The limits the two fields ask for (empty: the server's defaults). */
function currentLimits() {
  const limits = {};
  if ($('timeout').value !== '') limits.timeout_ms = Number($('timeout').value);
  if ($('max-states').value !== '') limits.max_states = Number($('max-states').value);
  return limits;
}

/* A limit field changed. A JSON body gets the new "limits"; other text
 * stays as typed: judge text and XSB take the fields when sent, and a
 * body the board does not show must not be rewritten from the board. */
function limitsChanged() {
  const text = $('body').value;
  if (bodyMode(text) !== 'json') { saveHash(); return; }
  if (state.drawn) { modelChanged(); return; }
  editJson((body) => {
    const limits = currentLimits();
    if (Object.keys(limits).length) body.limits = limits;
    else delete body.limits;
  });
}

/* An option changed: the same rule as for the limits. Other text stays
 * as typed: a single XSB level takes the option when it is sent as a
 * grid; judge text and XSB collections have no options (disabled). */
function optionChanged(key, value) {
  state.model[key] = value;
  const mode = bodyMode($('body').value);
  if (mode === 'json' && state.drawn) { modelChanged(); return; }
  if (mode === 'json') { editJson((body) => { body[key] = value; }); return; }
  stopSolve(); // its answer was for the other option
  clearAnswer();
  saveHash();
}

/* Applies edit to the JSON object in the text area, which the board does
 * not show; text that is not one is left alone. */
function editJson(edit) {
  let body;
  try { body = JSON.parse($('body').value); } catch { return; }
  if (!body || typeof body !== 'object' || Array.isArray(body)) return;
  stopSolve();
  clearAnswer();
  edit(body);
  $('body').value = formatBody(body);
  saveHash();
}

/* The board (or an option) changed: rewrite the body text from it. */
function modelChanged() {
  stopSolve(); // its answer would be replayed on the edited board
  clearAnswer();
  clearError();
  setDrawn(true);
  $('body').value = formatBody(currentBody());
  showMode();
  syncControls();
  drawBoard();
  saveHash();
}

/* The text changed: redraw the board from it when it can be read. */
function textChanged() {
  clearTimeout(state.debounce);
  state.debounce = null;
  stopSolve(); // its answer would be replayed on the edited board
  const text = $('body').value;
  const mode = bodyMode(text);
  clearAnswer();
  clearError();
  try {
    if (mode === 'json') {
      const body = JSON.parse(text);
      state.model = adapter().fromBody(body);
      const lim = body.limits || {};
      $('timeout').value = lim.timeout_ms ?? '';
      $('max-states').value = lim.max_states ?? '';
    } else if (mode === 'xsb' || mode === 'xsb-text') {
      state.model = adapter().fromBody({ grid: xsbLines(text), optimize: state.model.optimize });
    } else if (mode === 'judge') {
      state.model = adapter().fromBody(judgeFirstCase(state.name, text));
    }
    setDrawn(mode !== 'empty'); // an empty body leaves the last board up
    showMode();
    syncControls();
    drawBoard();
  } catch (e) {
    setDrawn(false, e); // the board still shows an earlier body
    showMode(e.message);
  }
  saveHash();
}

/* Whether the board shows the body; error: why not. */
function setDrawn(drawn, error = null) {
  state.drawn = drawn;
  state.why = error ? error.message : '';
  state.tooLarge = error instanceof TooLarge;
}

/* The first case of a judge text as a JSON body, so the board can show
 * it, read as the server's judge readers read it: numbers apart by any
 * blanks and line breaks; bloxorz rows trimmed, blank lines before them
 * skipped; a sokoban contest row is a line, of which M characters count.
 * Throws, saying why, when case 1 cannot be read. */
function judgeFirstCase(name, text) {
  const t = text.replace(/\r/g, '');
  if (name === 'bloxorz' || name === 'sokoban') {
    // `N M` (after any blank lines), alone on its line.
    const head = /^\s*(\d+)\s+(\d+)[ \t]*(\n|$)/.exec(t);
    if (!head) throw new Error('the text does not start with "N M"');
    const n = Number(head[1]), m = Number(head[2]);
    if (!(n > 0 && m > 0)) throw new Error(`its size is ${n} x ${m}`);
    const rest = t.slice(head[0].length).replace(/\n$/, '');
    const lines = rest ? rest.split('\n') : [];
    const grid = (name === 'bloxorz' ? lines.map((l) => l.trim()).filter(Boolean)
      : lines.map((l) => l.slice(0, m))).slice(0, n);
    if (grid.length < n) throw new Error(`the text ends after ${grid.length} of ${n} rows`);
    return name === 'sokoban' ? { grid, notation: 'seed' } : { grid };
  }
  const v = t.trim().split(/\s+/).map(Number);
  const take = (k) => {
    if (v.length < k || !v.slice(0, k).every(Number.isInteger)) throw new Error('it is cut short, or not all numbers');
    return v.slice(0, k);
  };
  const pairs = (a) => Array.from({ length: a.length / 2 }, (_, i) => [a[2 * i] - 1, a[2 * i + 1] - 1]);
  if (name === 'curling') {
    const [w, h] = take(2);
    if (!(w > 0 && h > 0)) throw new Error(`its size is ${w} x ${h}`);
    const cells = take(2 + w * h).slice(2);
    return { board: Array.from({ length: h }, (_, r) => cells.slice(r * w, (r + 1) * w)), max_throws: 10 };
  }
  if (name === 'wallpushers') {
    // `col row` of the start (1-based), then the judge's 4 x 6 maze.
    const [col, row] = take(2);
    if (!col && !row) throw new Error('the text starts with the end, "0 0"');
    const cells = take(2 + 24).slice(2);
    return { start: [row - 1, col - 1], walls: Array.from({ length: 4 }, (_, r) => cells.slice(r * 6, (r + 1) * 6)) };
  }
  if (name === 'holedox') {
    const [rows, cols, len] = take(3);
    if (!(rows > 0 && cols > 0 && len > 0)) throw new Error(`its size is ${rows} x ${cols}, its snake ${len} long`);
    const snake = pairs(take(3 + 2 * len).slice(3));
    const k = take(4 + 2 * len)[3 + 2 * len];
    const blocks = pairs(take(4 + 2 * len + 2 * k).slice(4 + 2 * len));
    return { rows, cols, snake, blocks, target: [0, 0] };
  }
  throw new Error(`no judge text reader for ${name}`);
}

/* The map lines of the first XSB level (comments and titles left out). */
function xsbLines(text) {
  return (xsbLevels(text) || [[]])[0];
}

/* A single XSB level too large to draw, as the JSON body the board would
 * send: its lines, the objective and the limits. */
function xsbBody(text) {
  const body = { grid: xsbLines(text) };
  if (state.model.optimize && state.model.optimize !== 'moves') body.optimize = state.model.optimize;
  const limits = currentLimits();
  if (Object.keys(limits).length) body.limits = limits;
  return body;
}

/* why: the reason the board does not show the body (undefined: it does). */
function modeLabel(mode, why) {
  const first = mode === 'judge' ? 'case 1' : 'level 1';
  const shown = why ? `${first} is not drawn: ${why}` : `the board shows ${first}`;
  const label = { json: 'JSON body', xsb: 'XSB level, sent as a JSON grid',
    'xsb-text': `XSB levels, sent as text/plain (one answer line per level: LURD moves, impossible or limit; ${shown})`,
    judge: `judge text, sent as text/plain (the answer is the judge output; ${shown})`,
    empty: 'empty' }[mode];
  return why && !isText(mode) && mode !== 'empty' ? `${label} (not drawn: ${why})` : label;
}

function showMode(why) {
  const mode = bodyMode($('body').value);
  $('body-mode').textContent = modeLabel(mode, why);
  // Judge text and XSB collections take no options (docs/PUZZLES.md).
  for (const el of $('options').querySelectorAll('input, select')) el.disabled = isText(mode);
}

/* ---- URL fragment ------------------------------------------------------- */

function saveHash() {
  const params = new URLSearchParams({ puzzle: state.name, body: $('body').value });
  history.replaceState(null, '', `#${params}`);
}

/* Restores puzzle and body from the fragment; false when it holds none. */
function loadHash() {
  const params = new URLSearchParams(location.hash.slice(1));
  const name = params.get('puzzle');
  if (!Object.hasOwn(ADAPTERS, name)) return false; // not 'constructor' and the like
  selectPuzzle(name, false);
  $('body').value = params.get('body') || '';
  textChanged();
  return true;
}

/* ---- puzzles ------------------------------------------------------------ */

function selectPuzzle(name, withExample) {
  stopSolve();
  state.name = name;
  $('puzzle').value = name;
  const info = state.puzzles.find((p) => p.name === name);
  $('description').textContent = info ? info.description : '';
  $('xsb-note').textContent = name === 'sokoban' ? ', or XSB (one level or a collection)' : '';
  state.model = adapter().blank();
  renderPalette();
  renderOptions();
  if (withExample) loadExample();
  else modelChanged();
}

function loadExample() {
  const info = state.puzzles.find((p) => p.name === state.name);
  if (!info) return;
  $('timeout').value = '';
  $('max-states').value = '';
  state.model = adapter().fromBody(info.example);
  modelChanged();
}

async function loadPuzzles() {
  const res = await fetch('/puzzles', { headers: { Accept: 'application/json' } });
  if (!res.ok) throw new Error(`GET /puzzles answered ${res.status}`);
  state.puzzles = (await res.json()).puzzles.filter((p) => Object.hasOwn(ADAPTERS, p.name));
  const sel = $('puzzle');
  for (const p of state.puzzles) sel.append(new Option(p.name, p.name));
}

/* ---- solving ------------------------------------------------------------ */

/* The fetch() arguments for the body text, by its mode. */
function buildRequest() {
  const text = $('body').value;
  let mode = bodyMode(text);
  // XSB goes as a grid built from the board: one not drawn goes as typed,
  // as text/plain, for the server to say what is wrong with it; one too
  // large to draw as a grid of its lines.
  if (mode === 'xsb' && !state.drawn && !state.tooLarge) mode = 'xsb-text';
  const path = `/solve/${encodeURIComponent(state.name)}`;
  if (isText(mode)) {
    const q = new URLSearchParams();
    if ($('timeout').value !== '') q.set('timeout_ms', $('timeout').value);
    if ($('max-states').value !== '') q.set('max_states', $('max-states').value);
    return { mode, url: q.size ? `${path}?${q}` : path,
      init: { method: 'POST', body: text, headers: { 'Content-Type': 'text/plain', Accept: 'text/plain' } } };
  }
  // JSON text goes as typed (the server judges it); XSB goes as a grid.
  const body = mode !== 'xsb' ? text : JSON.stringify(state.drawn ? currentBody() : xsbBody(text));
  return { mode, url: path,
    init: { method: 'POST', body, headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream' } } };
}

async function solve() {
  // Text typed within the debounce is read now: the XSB body is built
  // from the board, and the answer is replayed on it.
  if (state.debounce) textChanged();
  stopSolve();
  clearAnswer();
  clearError();
  if (bodyMode($('body').value) === 'empty') {
    showError('The body is empty: load the example, paint the board or paste a puzzle.');
    return;
  }
  const { mode, url, init } = buildRequest();
  const abort = new AbortController();
  state.abort = abort;
  state.started = performance.now();
  setSolving(true);
  $('status').textContent = 'solving…';
  $('progress').textContent = 'waiting for the server…';
  try {
    let res = await fetch(url, { ...init, signal: abort.signal });
    // A stream skips the server's fast lane (docs/API.md): with the queue
    // full, a plain request may still be answered there. Asked once.
    if (res.status === 503 && init.headers.Accept === 'text/event-stream') {
      res = await fetch(url, { ...init, headers: { ...init.headers, Accept: 'application/json' }, signal: abort.signal });
    }
    const ctype = (res.headers.get('Content-Type') || '').toLowerCase();
    if (ctype.startsWith('text/event-stream')) { await readEvents(res.body, mode); return; }
    const text = await res.text();
    const doc = ctype.includes('json') ? jsonObject(text) : null;
    if (doc) handleJson(doc, res.status, mode, res.headers.get('Retry-After'));
    else if (res.ok && isText(mode) && ctype.startsWith('text/plain')) showJudge(text);
    else showUnexpected(res, ctype, text);
  } catch (e) {
    if (state.abort !== abort) return; // dropped for an edit or another puzzle
    if (e.name === 'AbortError') {
      $('status').textContent = 'cancelled';
    } else {
      $('status').textContent = 'failed';
      showError(`The request failed: ${e.message}`);
    }
  } finally {
    if (state.abort === abort) {
      state.abort = null;
      setSolving(false);
    }
  }
}

/* Reads a Server-Sent Events stream: `event:` and `data:` lines, events
 * separated by a blank line. progress updates the counter; result and
 * problem end the solve. */
async function readEvents(stream, mode) {
  const reader = stream.pipeThrough(new TextDecoderStream()).getReader();
  let buf = '', cr = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    // A CR that ends a read may be the first half of a CRLF: it waits
    // for the next read, or a split CRLF would end an event early.
    const text = cr + value;
    cr = text.endsWith('\r') ? '\r' : '';
    buf += text.slice(0, text.length - cr.length).replace(/\r\n?/g, '\n');
    let cut;
    while ((cut = buf.indexOf('\n\n')) >= 0) {
      const block = buf.slice(0, cut);
      buf = buf.slice(cut + 2);
      if (onEvent(parseEvent(block), mode)) { reader.cancel().catch(() => {}); return; }
    }
  }
  if (state.abort && $('status').textContent === 'solving…') {
    $('status').textContent = 'failed';
    showError('The event stream ended without a result.');
  }
}

function parseEvent(block) {
  let type = 'message';
  const data = [];
  for (const line of block.split('\n')) {
    if (!line || line.startsWith(':')) continue;
    const i = line.indexOf(':');
    const field = i < 0 ? line : line.slice(0, i);
    const value = i < 0 ? '' : line.slice(i + 1).replace(/^ /, '');
    if (field === 'event') type = value;
    else if (field === 'data') data.push(value);
  }
  return { type, data: data.join('\n') };
}

/* Handles one event; true when it ends the stream. */
function onEvent(ev, mode) {
  if (ev.type === 'progress') {
    let p;
    try { p = JSON.parse(ev.data); } catch { return false; } // a counter can wait
    const parts = [`${fmtInt(p.expanded)} expanded`];
    if (p.stored != null) parts.push(`${fmtInt(p.stored)} stored`);
    if (p.bound != null) parts.push(`bound ${p.bound}`);
    if (p.elapsed_ms != null) parts.push(`${(p.elapsed_ms / 1000).toFixed(1)} s`);
    $('progress').textContent = parts.join(' · ');
    $('progress').dataset.expanded = p.expanded;
    return false;
  }
  if (ev.type === 'result') { handleJson(JSON.parse(ev.data), 200, mode); return true; }
  if (ev.type === 'problem') {
    const doc = JSON.parse(ev.data);
    handleJson(doc, doc.status || 500, mode);
    return true;
  }
  return false;
}

/* retry: a 503's Retry-After (seconds), shown with the detail. */
function handleJson(doc, status, mode, retry = null) {
  if (status >= 400 || doc.type) {
    $('status').textContent = `error ${doc.status || status}`;
    showProblem(doc, mode, retry);
    return;
  }
  showResult(doc);
}

const fmtInt = (n) => (n == null ? '—' : Number(n).toLocaleString('en-US'));

function showResult(doc) {
  $('status').textContent = doc.status + (doc.limit ? ` (${doc.limit})` : '');
  $('status').dataset.status = doc.status;
  $('steps').textContent = doc.steps ?? '—';
  $('pushes').textContent = doc.pushes ?? '—';
  $('optimal').textContent = doc.optimal ? 'yes' : 'no';
  const st = doc.stats || {};
  $('time').textContent = st.elapsed_ms == null ? '—' : `${st.elapsed_ms.toFixed(st.elapsed_ms < 10 ? 3 : 0)} ms`;
  $('expanded').textContent = fmtInt(st.expanded);
  $('progress').textContent = '';
  if (doc.moves) setAnswer(doc.moves);
}

const jsonObject = (text) => {
  try {
    const doc = JSON.parse(text);
    return doc && typeof doc === 'object' && !Array.isArray(doc) ? doc : null;
  } catch { return null; }
};

/* An answer that is no problem document, stream or judge output: a
 * proxy's error page, say. Its markup is not shown, only what it is. */
function showUnexpected(res, ctype, text) {
  $('status').textContent = res.ok ? 'failed' : `error ${res.status}`;
  const what = `${res.status} ${res.statusText}`.trim();
  const type = ctype.split(';')[0].trim();
  if (!text.trim()) showError(`The server answered ${what}, with no details.`);
  else if (!res.ok && type === 'text/plain') showError(text.trim());
  else showError(`The server answered ${what} with ${type || 'a body of no type'}, which this page does not show.`);
}

function showJudge(text) {
  $('status').textContent = 'judge output';
  $('progress').textContent = '';
  $('judge-output').textContent = text;
  $('judge-output').hidden = false;
}

/* ---- errors ------------------------------------------------------------- */

/* The board cell a problem detail names: "row R column C", "walls[R][C]",
 * "[R, C]" (0-based, as JSON bodies count), or a whole "row R". */
function cellFromDetail(detail) {
  let m = /\brow (\d+),? col(?:umn)? (\d+)/.exec(detail);
  if (m) return [Number(m[1]), Number(m[2])];
  m = /\w\[(\d+)\]\[(\d+)\]/.exec(detail) || /\[(\d+), ?(\d+)\]/.exec(detail);
  if (m) return [Number(m[1]), Number(m[2])];
  m = /\b(?:grid|board|walls) row (\d+)/.exec(detail);
  if (m) return [Number(m[1]), -1];
  return null;
}

function showProblem(doc, mode, retry = null) {
  const detail = doc.detail || doc.title || 'error';
  // The wait is a sentence of its own; the detail has no full stop.
  showError(retry && /^\d+$/.test(retry) ? `${detail.replace(/\.?$/, '.')} Retry after ${retry} s.` : detail);
  const cell = isText(mode) ? null : cellFromDetail(doc.detail || '');
  if (cell && state.model && cell[0] < state.model.rows && cell[1] < state.model.cols) {
    state.errorCell = cell;
    drawBoard();
  }
}

/* Information about the answer, not a fault of the body. */
function showNote(msg) {
  $('note').textContent = msg;
  $('note').hidden = false;
}

function showError(msg) {
  $('error').textContent = msg;
  $('error').hidden = false;
  $('body').setAttribute('aria-invalid', 'true');
}

function clearError() {
  $('error').hidden = true;
  $('error').textContent = '';
  $('body').removeAttribute('aria-invalid');
  if (state.errorCell) { state.errorCell = null; drawBoard(); }
}

function setSolving(on) {
  // The button pressed is disabled: the focus moves to the other one, not
  // to the page (a keyboard user would have to find it again).
  const [from, to] = on ? [$('solve'), $('cancel')] : [$('cancel'), $('solve')];
  const had = document.activeElement === from;
  $('solve').disabled = on;
  $('cancel').disabled = !on;
  if (had) to.focus();
  if (!on) $('progress').textContent = ''; // the counter of a solve that is over
}

/* Cancel: aborting the fetch closes the connection, which cancels the
 * solve on the server. Enter on Solve hands the focus to Cancel, so a
 * second press or a key repeat just after it (a click of detail 0, from
 * a key) is not a cancel. */
function cancelSolve(ev) {
  if (ev.detail === 0 && performance.now() - state.started < 500) return;
  if (state.abort) state.abort.abort();
}

/* Drops the running solve for an edit or another puzzle, at once: its
 * end ("cancelled", its counter) belongs to a board no longer shown. */
function stopSolve() {
  const abort = state.abort;
  if (!abort) return;
  state.abort = null;
  abort.abort();
  setSolving(false);
}

/* ---- the answer and its animation --------------------------------------- */

function clearAnswer() {
  pause();
  state.frames = null;
  state.moves = '';
  state.pos = 0;
  // Unchanged text is not written again: the status is a live region.
  for (const id of ['status', 'steps', 'pushes', 'optimal', 'time', 'expanded'])
    if ($(id).textContent !== '—') $(id).textContent = '—';
  delete $('status').dataset.status;
  $('progress').textContent = '';
  delete $('progress').dataset.expanded;
  $('moves').textContent = '';
  $('judge-output').hidden = true;
  $('note').hidden = true;
  renderPosition();
}

/* Replays the moves on the board the request described. A move the client
 * cannot replay ends the frames early (and says so). */
function setAnswer(moves) {
  const a = adapter(), m = state.model;
  state.moves = moves;
  let s = state.drawn ? a.start(m) : null;
  const frames = s ? [s] : [];
  for (const mv of moves) {
    const n = s && a.step(m, s, mv);
    if (!n) break;
    frames.push(n);
    s = n;
  }
  if (!state.drawn) {
    showNote(state.why ? `The body is not drawn here (${state.why}), so its moves are not replayed.`
      : 'The body is not drawn here, so its moves are not replayed.');
  } else if (frames.length !== moves.length + 1) {
    showNote(`The board drawn here could not replay move ${frames.length} of ${moves.length}.`);
  }
  state.frames = frames.length ? frames : null;
  const box = $('moves');
  box.textContent = '';
  [...moves].forEach((mv, i) => {
    const span = document.createElement('span');
    span.textContent = mv;
    span.dataset.i = i + 1;
    box.append(span);
  });
  setPos(0);
}

function setPos(k) {
  const n = state.frames ? state.frames.length - 1 : 0;
  state.pos = Math.max(0, Math.min(n, k));
  renderPosition();
  drawBoard();
}

function renderPosition() {
  const n = state.frames ? state.frames.length - 1 : 0;
  $('slider').max = n;
  $('slider').value = state.pos;
  $('position').textContent = `${state.pos} / ${n}`;
  for (const span of $('moves').children) span.classList.toggle('done', Number(span.dataset.i) <= state.pos);
  const cur = $('moves').children[state.pos - 1];
  for (const span of $('moves').querySelectorAll('.current')) span.classList.remove('current');
  if (cur) cur.classList.add('current');
  for (const id of ['play', 'step-forward', 'step-back', 'slider']) $(id).disabled = !state.frames;
}

function play() {
  if (!state.frames) return;
  const n = state.frames.length - 1;
  if (state.pos >= n) setPos(0);
  // The name stays "Play"; aria-pressed says it plays (the icon, hidden
  // from screen readers, shows what a click does).
  $('play').setAttribute('aria-pressed', 'true');
  $('play-icon').textContent = '❚❚';
  const tick = () => {
    setPos(state.pos + 1);
    // Pause on the last frame itself, so the button reads Play there.
    if (state.pos >= state.frames.length - 1) pause();
    else state.timer = setTimeout(tick, 1000 / Number($('speed').value));
  };
  state.timer = setTimeout(tick, 1000 / Number($('speed').value));
}

function pause() {
  clearTimeout(state.timer);
  state.timer = null;
  $('play').setAttribute('aria-pressed', 'false');
  $('play-icon').textContent = '▶';
}

const togglePlay = () => (state.timer ? pause() : play());

/* Editing without a mouse: on the focused board, before there is an
 * answer, the arrow keys move a cursor, Enter or space paints its cell,
 * and shift+arrow toggles a wall on that side (wall pushers). */
function onBoardEditKey(ev) {
  const m = state.model;
  const [r, c] = state.cursor;
  const step = { ArrowUp: ['N', -1, 0], ArrowDown: ['S', 1, 0], ArrowLeft: ['W', 0, -1], ArrowRight: ['E', 0, 1] };
  if (ev.key in step) {
    const [side, dr, dc] = step[ev.key];
    if (ev.shiftKey && adapter().paintsEdges && state.tool === 'wall') {
      adapter().paint(m, r, c, 'wall', side, false);
      modelChanged();
    } else {
      state.cursor = [Math.max(0, Math.min(m.rows - 1, r + dr)), Math.max(0, Math.min(m.cols - 1, c + dc))];
      drawBoard();
    }
  } else if ((ev.key === 'Enter' || ev.key === ' ') && !adapter().paintsEdges) {
    adapter().paint(m, r, c, state.tool, null, false);
    modelChanged();
  } else if ((ev.key === 'Enter' || ev.key === ' ') && state.tool === 'start') {
    adapter().paint(m, r, c, 'start', null, false);
    modelChanged();
  } else {
    return;
  }
  ev.preventDefault();
}

function onKey(ev) {
  const t = ev.target;
  if (t === $('board') && !state.frames && state.model) { onBoardEditKey(ev); return; }
  // Arrow keys belong to form fields while they have the focus.
  if (t.closest('textarea, input:not([type=range]):not([type=radio]), select') || !state.frames) return;
  if (t.matches('input[type=range], input[type=radio]')) return;
  const n = state.frames.length - 1;
  const keys = { ArrowRight: state.pos + 1, ArrowLeft: state.pos - 1, Home: 0, End: n };
  if (ev.key in keys) {
    pause();
    setPos(keys[ev.key]);
    ev.preventDefault();
  } else if (ev.key === ' ' && t === $('board')) {
    togglePlay();
    ev.preventDefault();
  }
}

/* ---- wiring ------------------------------------------------------------- */

function wire() {
  $('puzzle').addEventListener('change', () => selectPuzzle($('puzzle').value, true));
  $('example').addEventListener('click', loadExample);
  $('body').addEventListener('input', () => {
    clearTimeout(state.debounce);
    state.debounce = setTimeout(textChanged, 150);
  });
  for (const id of ['rows', 'cols']) {
    $(id).addEventListener('change', () => {
      // Only the side edited changes, within its field's max (the cells
      // the page draws, over the other side): the other keeps its size.
      const m = state.model;
      const n = Math.max(1, Math.min(Number($(id).max), Number($(id).value) || 1));
      adapter().resize(m, id === 'rows' ? n : m.rows, id === 'cols' ? n : m.cols);
      modelChanged();
    });
  }
  for (const id of ['timeout', 'max-states']) $(id).addEventListener('change', limitsChanged);
  $('file').addEventListener('change', async () => {
    const f = $('file').files[0];
    if (!f) return;
    $('body').value = await f.text();
    $('file').value = '';
    textChanged();
  });
  $('solve').addEventListener('click', solve);
  $('cancel').addEventListener('click', cancelSolve);
  $('play').addEventListener('click', togglePlay);
  $('step-forward').addEventListener('click', () => { pause(); setPos(state.pos + 1); });
  $('step-back').addEventListener('click', () => { pause(); setPos(state.pos - 1); });
  $('slider').addEventListener('input', () => { pause(); setPos(Number($('slider').value)); });
  document.addEventListener('keydown', onKey);
  window.addEventListener('hashchange', loadHash);
  setupPainting();
  $('board').addEventListener('focus', drawBoard);
  $('board').addEventListener('blur', drawBoard);
}

async function main() {
  wire();
  try {
    await loadPuzzles();
  } catch (e) {
    showError(`Could not list the puzzles: ${e.message}`);
    return;
  }
  if (!loadHash()) selectPuzzle(state.puzzles[0]?.name || 'bloxorz', true);
  document.body.dataset.ready = 'true';
}

main();
