// contract.test.mjs - checks the real server against its contract,
// api/openapi.yaml: no browser, only `gridsolve serve --port 0` and HTTP.
// Run with `make test-contract` (also part of `make test-web` and so of
// `make test`), or `GRIDSOLVE_BIN=build/gridsolve node --test contract.test.mjs`
// in tests/web.
//
// Every request goes through check(), which finds the operation in the
// document (path template and method; a method the path does not have is
// answered by the path's operation that lists that status, a 405), and
// asserts that the status is one the operation lists, that the
// Content-Type is one of the response's media types (no body where it has
// none), that every header the response marks `required` is there, and
// that a JSON body (or an event's data) validates against its schema
// (ajv; OpenAPI 3.0's `nullable` is ajv's own keyword), and that a query
// the server took (any answer but a 400) is documented and valid for its
// parameter's schema (`?format=seed` once was not). It also asserts
// what the document says in prose of every answer: the X-Request-Id echo,
// Cache-Control, the CORS headers, Retry-After on a 503, and a problem
// document's status and instance. The last tests assert that every status
// of every operation was seen (or is skipped for a reason named in SKIP)
// and that the server sent no property the schemas do not declare, and
// list what the document declares that the server never sent.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import YAML from 'yaml';
import Ajv from 'ajv';
import { createParser } from 'eventsource-parser';
import { startServer } from './server.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const specText = fs.readFileSync(path.join(root, 'api/openapi.yaml'), 'utf8');
const spec = YAML.parse(specText);

// Statuses the document lists that this test does not provoke, and why.
const SKIP = {
  500: 'never expected: only an allocation outside the memory budget failing answers it',
};

/* ---- the document ---- */

const ajv = new Ajv({ strict: false, allErrors: true, verbose: true });
ajv.addFormat('uri', { type: 'string', validate: (s) => URL.canParse(s) });
ajv.addSchema(spec, 'openapi');

const unescapePtr = (s) => s.replace(/~1/g, '/').replace(/~0/g, '~');
const escapePtr = (s) => s.replace(/~/g, '~0').replace(/\//g, '~1');
const ptr = (segs) => '#/' + segs.map(escapePtr).join('/');

/* The node at a local $ref ('#/a/b'). */
function at(ref) {
  assert.ok(ref.startsWith('#/'), `only local $refs: ${ref}`);
  let node = spec;
  for (const seg of ref.slice(2).split('/').map(unescapePtr)) {
    node = node?.[seg];
    assert.ok(node !== undefined, `$ref ${ref} resolves`);
  }
  return node;
}

/* Follows $refs: {node, loc}, loc the JSON pointer of the node reached. */
function deref(node, loc) {
  while (node && node.$ref) { loc = node.$ref; node = at(node.$ref); }
  return { node, loc };
}

const validators = new Map();
function validator(loc) {
  if (!validators.has(loc)) {
    const segs = loc.slice(2).split('/');
    validators.set(loc, ajv.compile({ $ref: 'openapi#/' + segs.map(encodeURIComponent).join('/') }));
  }
  return validators.get(loc);
}

function assertValid(loc, value, what) {
  const v = validator(loc);
  assert.ok(v(value), `${what} does not validate against ${loc}: ${ajv.errorsText(v.errors)}\n` +
    JSON.stringify(value).slice(0, 400));
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const operations = []; // {key, method, template, op, loc}
for (const [template, item] of Object.entries(spec.paths)) {
  for (const m of METHODS) {
    if (item[m]) {
      operations.push({ key: `${m.toUpperCase()} ${template}`, method: m, template, op: item[m],
        loc: ptr(['paths', template, m]) });
    }
  }
}

function templateOf(p) {
  for (const template of Object.keys(spec.paths)) {
    const re = new RegExp('^' + template.replace(/[.*+?^$()|[\]\\]/g, '\\$&')
      .replace(/\{[^/}]+\}/g, '[^/]+') + '$');
    if (re.test(p)) return template;
  }
  return null;
}

/* 'text/plain; charset=utf-8' -> {essence, params} */
function mediaType(s) {
  const [essence, ...rest] = s.split(';').map((x) => x.trim());
  const params = {};
  for (const p of rest) {
    const eq = p.indexOf('=');
    if (eq > 0) params[p.slice(0, eq).trim().toLowerCase()] = p.slice(eq + 1).trim().replace(/^"(.*)"$/, '$1');
  }
  return { essence: essence.toLowerCase(), params };
}

/* The key of content that a Content-Type matches: same type/subtype, and
 * every parameter the key names with the same value. */
function mediaKey(contentType, content) {
  const got = mediaType(contentType);
  return Object.keys(content).find((key) => {
    const want = mediaType(key);
    return want.essence === got.essence &&
      Object.entries(want.params).every(([k, v]) => got.params[k]?.toLowerCase() === v.toLowerCase());
  });
}

/* ---- what the server sent, for the coverage and the reverse checks ---- */

const covered = new Map(); // operation key -> Set of statuses seen
const note = (key, status) => {
  if (!covered.has(key)) covered.set(key, new Set());
  covered.get(key).add(String(status));
};
const declaredProps = new Map(); // schema location -> Set of property names
const seenProps = new Map(); // schema location -> Set of property names sent
const undeclared = new Map(); // schema location -> Set of property names sent, not declared
const headersDeclared = new Map(); // response location -> Set of header names (lowercase)
const headersSeen = new Map(); // response location -> Set
const headersUndocumented = new Map(); // response location -> Set of header names sent, not documented
// Headers the document describes for every answer (info.description) or
// that are HTTP's own framing: not reported as undocumented.
const GLOBAL_HEADERS = new Set(['date', 'content-type', 'content-length', 'transfer-encoding', 'connection',
  'x-request-id', 'cache-control', 'access-control-allow-origin', 'access-control-expose-headers', 'vary']);
const addTo = (map, k, v) => { if (!map.has(k)) map.set(k, new Set()); map.get(k).add(v); };

/* Records which declared properties a value has, schema by schema. */
function observe(schema, value, loc) {
  ({ node: schema, loc } = deref(schema, loc));
  for (const [i, s] of (schema.allOf ?? []).entries()) observe(s, value, `${loc}/allOf/${i}`);
  if (value && typeof value === 'object' && !Array.isArray(value) && schema.properties) {
    if (!declaredProps.has(loc)) declaredProps.set(loc, new Set(Object.keys(schema.properties)));
    for (const [k, v] of Object.entries(value)) {
      if (k in schema.properties) {
        addTo(seenProps, loc, k);
        observe(schema.properties[k], v, `${loc}/properties/${escapePtr(k)}`);
      } else if (schema.additionalProperties === undefined) {
        addTo(undeclared, loc, k);
      }
    }
  }
  if (Array.isArray(value) && schema.items) {
    for (const v of value) observe(schema.items, v, `${loc}/items`);
  }
}

/* ---- HTTP ---- */

let nextId = 0;

/* One request on its own connection (agent: false: a 431 and a framing
 * 400 are about a connection's first request). headers: an object or a
 * list of [name, value] (a name may repeat). body: a string or Buffer, or
 * a list of them written one by one (chunked). onEvent: called with each
 * server-sent event as it arrives. Resolves to {status, headers (names
 * lowercased), raw (the header list), body, events, id}. */
function request(base, method, p, { headers = {}, body, onEvent, id = `ct-${++nextId}` } = {}) {
  const url = new URL(base);
  let list = Array.isArray(headers) ? [...headers] : Object.entries(headers);
  const given = list.find(([k]) => k.toLowerCase() === 'x-request-id');
  if (given) id = given[1];
  else if (id !== null) list.push(['X-Request-Id', id]);
  // Headers as a list: node adds no Host of its own, and an HTTP/1.1
  // request without one is a 400 (RFC 9112 3.2).
  if (!list.some(([k]) => k.toLowerCase() === 'host')) list.push(['Host', url.host]);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: url.hostname, port: url.port, method, path: p, agent: false,
      headers: list.flat() }, (res) => {
      const chunks = [];
      const events = [];
      const parser = createParser({
        onEvent: (e) => { events.push(e); onEvent?.(e); },
      });
      const sse = /^text\/event-stream/i.test(res.headers['content-type'] ?? '');
      res.on('data', (c) => { chunks.push(c); if (sse) parser.feed(c.toString('utf8')); });
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, raw: res.rawHeaders,
        body: Buffer.concat(chunks).toString('utf8'), events, id }));
      res.on('error', reject);
    });
    req.on('error', reject);
    if (Array.isArray(body)) {
      for (const b of body) req.write(b);
      req.end();
    } else {
      req.end(body);
    }
  });
}

/* ---- the checks ---- */

/* server: {base, cors: '*' or a list of origins}; req: {method, path,
 * headers, judge (text/plain solve)}; res: request()'s answer. Returns the
 * parsed JSON body, if any. */
function check(server, req, res) {
  const pathOnly = req.path.split('?')[0];
  const where = `${req.method} ${req.path} -> ${res.status}`;
  const status = String(res.status);
  const h = res.headers;
  const template = templateOf(pathOnly);

  // The operation that answers, and its response object.
  let ops;
  let respRef;
  if (template === null) {
    // A path the document does not have: it says "another path is a 404"
    // (NotFound) but has no operation to list it under.
    assert.equal(res.status, 404, `${where}: an unknown path is a 404`);
    note('(unknown path)', status);
    respRef = { $ref: '#/components/responses/NotFound' };
  } else {
    const m = req.method.toLowerCase();
    const own = operations.find((o) => o.template === template && o.method === m);
    ops = own ? [own] : operations.filter((o) => o.template === template && o.op.responses[status]);
    assert.ok(ops.length > 0, `${where}: the path has no ${req.method} operation and none of its ` +
      `operations lists ${status}`);
    if (!own) assert.equal(res.status, 405, `${where}: a method the path lacks is a 405`);
    for (const o of ops) {
      assert.ok(o.op.responses[status] || o.op.responses.default,
        `${where}: ${o.key} lists ${Object.keys(o.op.responses).join(', ')}, not ${status}`);
      note(o.key, status);
    }
    respRef = ops[0].op.responses[status] ?? ops[0].op.responses.default;
    // A query the server took (anything but a 400, or a 414: the request
    // line was not read) is one the operation documents, each value
    // valid for its parameter's schema.
    if (own && res.status !== 400 && res.status !== 414) {
      const params = [...(spec.paths[template].parameters ?? []), ...(own.op.parameters ?? [])]
        .map((x) => deref(x, '').node).filter((x) => x.in === 'query');
      for (const [k, v] of new URLSearchParams(req.path.split('?')[1] ?? '')) {
        const prm = params.find((x) => x.name === k);
        assert.ok(prm, `${where}: the server took query parameter ${k}, which ${own.key} does not document`);
        const numeric = ['number', 'integer'].includes(prm.schema?.type) && v.trim() !== '' && !Number.isNaN(Number(v));
        assert.ok(ajv.validate(prm.schema ?? {}, numeric ? Number(v) : v),
          `${where}: the server took ${k}=${v}, which its schema refuses: ${ajv.errorsText()}`);
      }
    }
  }
  const { node: resp, loc: respLoc } = deref(respRef,
    template === null ? '' : `${ops[0].loc}/responses/${status}`);

  // Headers: the required ones, and which documented ones were sent.
  const docHeaders = resp.headers ?? {};
  if (!headersDeclared.has(respLoc)) headersDeclared.set(respLoc, new Set(Object.keys(docHeaders).map((x) => x.toLowerCase())));
  const docNames = new Set(Object.keys(docHeaders).map((x) => x.toLowerCase()));
  for (const k of Object.keys(h)) {
    if (!docNames.has(k) && !GLOBAL_HEADERS.has(k) && !(k === 'retry-after' && res.status === 503) &&
      !(k === 'content-security-policy' && pathOnly === '/') &&
      !(req.method === 'HEAD' && res.status === 200)) addTo(headersUndocumented, respLoc, k);
  }
  for (const [name, hdr0] of Object.entries(docHeaders)) {
    const { node: hdr } = deref(hdr0, '');
    const value = h[name.toLowerCase()];
    if (value !== undefined) addTo(headersSeen, respLoc, name.toLowerCase());
    if (hdr.required) assert.ok(value !== undefined, `${where}: required header ${name} missing`);
    if (value !== undefined && hdr.schema?.type === 'integer') {
      assert.match(String(value), /^\d+$/, `${where}: header ${name} is an integer`);
    }
  }

  // What the document says in prose of every answer.
  if (req.echoId !== false && res.id !== null) {
    assert.equal(h['x-request-id'], res.id, `${where}: X-Request-Id echoed`);
  }
  assert.ok(h['x-request-id'], `${where}: X-Request-Id`);
  // (The exceptions are the documents themselves: GET and HEAD, 200 or 304.)
  const doc = ['GET', 'HEAD'].includes(req.method) && [200, 304].includes(res.status);
  const cache = (doc && { '/': 'no-cache', '/openapi.yaml': 'public, max-age=300' }[pathOnly]) || 'no-store';
  assert.equal(h['cache-control'], cache, `${where}: Cache-Control`);
  if (server.cors === '*') {
    assert.equal(h['access-control-allow-origin'], '*', `${where}: Access-Control-Allow-Origin`);
    assert.equal(h.vary, undefined, `${where}: no Vary with --cors-origin '*'`);
  } else {
    assert.match(h.vary ?? '', /\bOrigin\b/, `${where}: Vary: Origin with a list of origins`);
    const origin = headerOf(req.headers, 'origin');
    if (origin && server.cors.includes(origin)) {
      assert.equal(h['access-control-allow-origin'], origin, `${where}: the listed Origin echoed`);
    } else {
      for (const k of Object.keys(h)) {
        assert.ok(!k.startsWith('access-control-'), `${where}: no ${k} for an origin not listed`);
      }
    }
  }
  if (res.status === 503) assert.equal(h['retry-after'], '1', `${where}: Retry-After: 1`);

  // The body and its media type.
  const noBody = req.method === 'HEAD' || res.status === 204 || res.status === 304;
  if (noBody) assert.equal(res.body, '', `${where}: no body`);
  if (!resp.content) {
    if (req.method !== 'HEAD') {
      assert.equal(res.body, '', `${where}: the response documents no content, yet has a body`);
    }
    return undefined;
  }
  const ct = h['content-type'];
  assert.ok(ct, `${where}: Content-Type`);
  const key = mediaKey(ct, resp.content);
  assert.ok(key, `${where}: Content-Type ${ct} is not one of ${Object.keys(resp.content).join(', ')}`);
  if (noBody) return undefined;
  if (template === '/solve/{puzzle}' && res.status === 200) {
    // The mode picks the answer's media type.
    const want = /text\/event-stream/.test(headerOf(req.headers, 'accept') ?? '') ? 'text/event-stream'
      : req.judge ? 'text/plain' : 'application/json';
    assert.equal(mediaType(ct).essence, want, `${where}: the answer's media type`);
  }
  const mediaLoc = `${respLoc}/content/${escapePtr(key)}`;
  const media = resp.content[key];
  const essence = mediaType(key).essence;
  if (essence === 'application/json' || essence.endsWith('+json')) {
    let body;
    assert.doesNotThrow(() => { body = JSON.parse(res.body); }, `${where}: the body is JSON`);
    assertValid(`${mediaLoc}/schema`, body, `${where}: the body`);
    observe(media.schema, body, `${mediaLoc}/schema`);
    if (essence === 'application/problem+json') {
      assert.equal(body.status, res.status, `${where}: the problem's status`);
      assert.equal(body.instance, pathOnly, `${where}: the problem's instance is the path`);
      // Its type is the one the response's examples show.
      const exs = media.examples ? Object.values(media.examples).map((e) => deref(e, '').node.value)
        : media.example ? [media.example] : [];
      const types = new Set(exs.map((e) => e.type));
      if (types.size) assert.ok(types.has(body.type), `${where}: type ${body.type}, not one of ${[...types]}`);
    }
    return body;
  }
  if (essence === 'text/event-stream') {
    checkEvents(where, req, res.events, `${respLoc}/content/application~1json/schema`, resp);
    return undefined;
  }
  if (media.schema?.type === 'string') assert.equal(typeof res.body, 'string');
  return undefined;
}

function headerOf(headers = {}, name) {
  const list = Array.isArray(headers) ? headers : Object.entries(headers);
  return list.find(([k]) => k.toLowerCase() === name)?.[1];
}

/* An event stream: progress events (StreamProgress), then exactly one
 * result (JSON mode: the 200's application/json schema; judge mode: the
 * text) or problem (Problem), the last event. */
const final = (events) => events.find((e) => e.event === 'result' || e.event === 'problem');
function checkEvents(where, req, events, resultLoc, resp) {
  const names = events.map((x) => x.event).join(' ');
  const ends = events.flatMap((e, i) => (['result', 'problem'].includes(e.event) ? [i] : []));
  assert.equal(ends.length, 1, `${where}: exactly one result or problem event: ${names}`);
  const end = ends[0];
  for (const [i, e] of events.entries()) {
    if (i === end) continue;
    assert.equal(e.event, 'progress', `${where}: only progress events besides the last: ${names}`);
    const data = JSON.parse(e.data);
    assertValid('#/components/schemas/StreamProgress', data, `${where}: a progress event`);
    observe({ $ref: '#/components/schemas/StreamProgress' }, data, '');
  }
  assert.equal(end, events.length - 1, `${where}: the result or problem is the last event: ${names}`);
  const last = events[end];
  if (last.event === 'problem') {
    const p = JSON.parse(last.data);
    assertValid('#/components/schemas/Problem', p, `${where}: the problem event`);
    observe({ $ref: '#/components/schemas/Problem' }, p, '');
    assert.equal(p.instance, req.path.split('?')[0], `${where}: the problem's instance`);
    note(`${req.method} ${templateOf(req.path.split('?')[0])} (stream problem)`, p.status);
  } else if (!req.judge) {
    const r = JSON.parse(last.data);
    assertValid(resultLoc, r, `${where}: the result event`);
    observe(resp.content['application/json'].schema, r, resultLoc);
  }
}

/* ---- the servers ---- */

// A: the defaults but a small --max-body (413 without sending megabytes).
let A;
const A_MAX_BODY = 65536;
before(async () => {
  const s = await startServer({ args: ['--max-body', String(A_MAX_BODY)] });
  A = { ...s, cors: '*' };
});
after(async () => {
  if (A) assert.equal(await A.stop(), 0, `server A's exit status; log:\n${A.log()}`);
});

async function call(server, method, p, opts = {}) {
  const res = await request(server.base, method, p, opts);
  const body = check(server, { method, path: p, headers: opts.headers, judge: opts.judge,
    echoId: opts.echoId }, res);
  return { ...res, json: body };
}

const json = (body) => ({ headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
const text = (body) => ({ headers: { 'Content-Type': 'text/plain' }, body, judge: true });

// A 10-box sokoban level that runs for seconds (docs/API.md's long.json).
const LONG = ['##############', '#            #', '# $ $ $ $ $  #', '#            #',
  '#  $ $ $ $ $ #', '# .......... #', '#     @      #', '##############'];

const GET_PATHS = operations.filter((o) => o.method === 'get').map((o) => o.template);

/* ---- the tests ---- */

test('GET /openapi.yaml serves api/openapi.yaml, the document this test reads', async () => {
  const res = await call(A, 'GET', '/openapi.yaml');
  assert.equal(res.status, 200);
  assert.equal(res.body, specText, 'the binary embeds another api/openapi.yaml: rebuild it');
});

test('every example in the document validates against its schema', () => {
  let n = 0;
  // Media type objects (requestBody, responses) with example(s).
  const visit = (node, loc) => {
    if (!node || typeof node !== 'object') return;
    if (node.schema && (node.example !== undefined || node.examples)) {
      const exs = node.examples ? Object.entries(node.examples).map(([k, e]) => [k, deref(e, '').node.value])
        : [['example', node.example]];
      for (const [name, value] of exs) {
        if (value === undefined) continue;
        if (/event-stream/.test(loc)) continue; // a stream is text; its events are checked live
        assertValid(`${loc}/schema`, value, `example ${name} at ${loc}`);
        n++;
      }
    }
    for (const [k, v] of Object.entries(node)) {
      if (k !== 'example' && k !== 'examples') visit(v, `${loc}/${escapePtr(k)}`);
    }
  };
  visit(spec.paths, '#/paths');
  visit(spec.components.responses, '#/components/responses');
  // Schemas' own examples.
  for (const [name, s] of Object.entries(spec.components.schemas)) {
    if (s.example !== undefined) { assertValid(`#/components/schemas/${name}`, s.example, `schema ${name}'s example`); n++; }
  }
  assert.ok(n > 40, `examples checked: ${n}`);
});

test('service paths: GET, HEAD (same headers as GET), OPTIONS, another method, If-None-Match', async () => {
  for (const p of GET_PATHS) {
    const get = await call(A, 'GET', p);
    assert.equal(get.status, 200, `GET ${p}`);
    const head = await call(A, 'HEAD', p);
    assert.equal(head.status, 200, `HEAD ${p}`);
    const names = (r) => Object.keys(r.headers).filter((k) => !['date', 'content-length', 'transfer-encoding'].includes(k)).sort();
    assert.deepEqual(names(head), names(get), `HEAD ${p} has GET's headers`);
    assert.equal(head.headers['content-type'], get.headers['content-type'], `HEAD ${p}: Content-Type`);
    if (p !== '/metrics') assert.equal(head.headers['content-length'], get.headers['content-length'], `HEAD ${p}: Content-Length`);
    const pre = await call(A, 'OPTIONS', p, { headers: { Origin: 'https://app.example', 'Access-Control-Request-Method': 'GET' } });
    assert.equal(pre.status, 204, `OPTIONS ${p}`);
    assert.equal(pre.headers.allow, 'GET, HEAD, OPTIONS');
    assert.equal(pre.headers['access-control-allow-methods'], 'GET, HEAD, OPTIONS');
    for (const m of ['DELETE', 'PUT', 'POST']) {
      const bad = await call(A, m, p, m === 'DELETE' ? {} : { headers: { 'Content-Type': 'application/json' }, body: '{}' });
      assert.equal(bad.status, 405, `${m} ${p}`);
      assert.equal(bad.headers.allow, 'GET, HEAD, OPTIONS');
    }
    if (get.headers.etag) {
      for (const m of ['GET', 'HEAD']) {
        const nm = await call(A, m, p, { headers: { 'If-None-Match': get.headers.etag } });
        assert.equal(nm.status, 304, `${m} ${p} with If-None-Match`);
        assert.equal(nm.headers.etag, get.headers.etag);
        const other = await call(A, m, p, { headers: { 'If-None-Match': '"0123"' } });
        assert.equal(other.status, 200, `${m} ${p} with another tag`);
      }
    }
  }
  const puzzles = (await call(A, 'GET', '/puzzles')).json.puzzles;
  assert.deepEqual(puzzles.map((x) => x.name), spec.components.parameters.Puzzle.schema.enum,
    'GET /puzzles lists the puzzles of the path parameter, in its order');
  const version = (await call(A, 'GET', '/version')).json;
  assert.equal(version.version, spec.info.version, "GET /version is the document's info.version");
  const metrics = (await call(A, 'GET', '/metrics')).body;
  for (const [, name] of spec.paths['/metrics'].get.description.matchAll(/^\| `(gridsolve_\w+)` \|/gm)) {
    assert.match(metrics, new RegExp(`^# TYPE ${name} `, 'm'), `GET /metrics has ${name}, as the document lists`);
  }
  assert.equal((await call(A, 'GET', '/healthz')).json.status, 'ok');
  assert.equal((await call(A, 'GET', '/readyz')).json.status, 'ready');
  const nf = await call(A, 'GET', '/nothing');
  assert.equal(nf.status, 404);
  // An id that is not sane is replaced (RequestIdIn: printable, <= 128).
  await call(A, 'GET', '/healthz', { headers: { 'X-Request-Id': 'y'.repeat(128) } });
  const long = await call(A, 'GET', '/healthz', { headers: { 'X-Request-Id': 'x'.repeat(129) }, echoId: false });
  assert.notEqual(long.headers['x-request-id'], 'x'.repeat(129));
});

/* The puzzle of a request example: its summary's /solve/NAME, its key's
 * first word, or else every puzzle whose request schema takes it. */
function examplePuzzles(key, ex, mode) {
  const names = spec.components.parameters.Puzzle.schema.enum;
  const m = /\/solve\/(\w+)/.exec(ex.summary ?? '') ?? /^([a-z]+)/.exec(key);
  if (m && names.includes(m[1])) return [m[1]];
  assert.equal(mode, 'application/json', `example ${key}: which puzzle?`);
  return names.filter((n) => validator(`#/components/schemas/${n[0].toUpperCase()}${n.slice(1)}Request`)(ex.value));
}

test('POST /solve: every request example of the document, JSON and judge text, answers 200', async () => {
  const media = spec.paths['/solve/{puzzle}'].post.requestBody.content;
  for (const [mode, m] of Object.entries(media)) {
    for (const [key, ex0] of Object.entries(m.examples)) {
      const ex = deref(ex0, '').node;
      const puzzles = examplePuzzles(key, ex, mode);
      assert.ok(puzzles.length > 0, `example ${key} fits a puzzle`);
      for (const puzzle of puzzles) {
        const opts = mode === 'application/json' ? json(ex.value) : text(ex.value);
        if (mode === 'application/json') {
          assertValid(`${ptr(['paths', '/solve/{puzzle}', 'post', 'requestBody', 'content', mode])}/schema`,
            ex.value, `request example ${key}`);
        }
        const res = await call(A, 'POST', `/solve/${puzzle}`, opts);
        assert.equal(res.status, 200, `example ${key} on ${puzzle}: ${res.body}`);
        // Summaries say what the answer is: "(10 steps)", 'answers "1" then "-1"'.
        const steps = /\((?:[^)]*?)(\d+) (?:steps?|throws?)\)/.exec(ex.summary ?? '');
        if (res.json && steps) assert.equal(res.json.steps, Number(steps[1]), `example ${key}: ${ex.summary}`);
        if (res.json) assert.equal(res.json.puzzle, puzzle);
        const answers = /answers ((?:"[^"]*"(?: then )?)+)$/.exec(ex.summary ?? '');
        if (mode === 'text/plain' && answers) {
          const lines = [...answers[1].matchAll(/"([^"]*)"/g)].map((x) => x[1]);
          assert.equal(res.body, lines.join('\n') + '\n', `example ${key}: ${ex.summary}`);
        }
      }
    }
  }
});

test('POST /solve: the examples/ files, JSON and judge text, each answered as its file says', async () => {
  const dir = path.join(root, 'examples');
  for (const f of fs.readdirSync(dir).sort()) {
    const m = /^([a-z]+)(?:-[a-z-]+)?\.(json|in|xsb)$/.exec(f);
    if (!m || f.endsWith('.response.json')) continue;
    const body = fs.readFileSync(path.join(dir, f), 'utf8');
    const opts = m[2] === 'json' ? { headers: { 'Content-Type': 'application/json' }, body } : text(body);
    const res = await call(A, 'POST', `/solve/${m[1]}`, opts);
    const want = m[2] === 'json' ? JSON.parse(fs.readFileSync(path.join(dir, f.replace(/\.json$/, '.response.json')), 'utf8')) : null;
    if (want) {
      assert.equal(res.status, want.type ? want.status : 200, `examples/${f}: ${res.body}`);
      if (res.status === 200) {
        assert.equal(res.json.status, want.status, `examples/${f}`);
        assert.equal(res.json.steps, want.steps, `examples/${f}`);
      }
    } else {
      assert.equal(res.status, 200, `examples/${f}: ${res.body}`);
      const out = path.join(dir, f.replace(/\.(in|xsb)$/, '.out'));
      if (fs.existsSync(out) && !(f.endsWith('.xsb') && fs.existsSync(path.join(dir, f.replace(/\.xsb$/, '.in'))))) {
        assert.equal(res.body, fs.readFileSync(out, 'utf8'), `examples/${f}`);
      }
    }
  }
});

test('POST /solve: each answer a SolveResult can be (impossible, each limit, sokoban objectives)', async () => {
  const curling = [[1, 0, 0, 2, 1, 0], [1, 1, 0, 0, 0, 0], [0, 0, 0, 0, 0, 3], [0, 0, 0, 0, 0, 0], [1, 0, 0, 0, 0, 1], [0, 1, 1, 1, 1, 1]];
  const cases = [
    ['bloxorz', { grid: ['#####', '#X#O#', '#####'] }, 'impossible'],
    ['curling', { board: curling, limits: { max_states: 3 } }, 'limit', 'states'],
    ['sokoban', { grid: LONG, limits: { timeout_ms: 300 } }, 'limit', null], // time or memory
    ['sokoban', { grid: ['####', '# .#', '#  ###', '#*@  #', '#  $ #', '#  ###', '####'], optimize: 'pushes' }, 'solved'],
    ['sokoban', { grid: ['####', '# .#', '#  ###', '#*@  #', '#  $ #', '#  ###', '####'], optimize: 'any' }, 'solved'],
    ['holedox', { rows: 2, cols: 2, snake: [[1, 1], [1, 0]], blocks: [[0, 1]], target: [0, 1] }, 'impossible'],
    ['wallpushers', { start: [0, 0], walls: [[15]] }, 'impossible'],
  ];
  const limits = new Set();
  for (const [puzzle, body, status, limit] of cases) {
    const res = await call(A, 'POST', `/solve/${puzzle}`, json(body));
    if (res.status === 422 && puzzle !== 'sokoban') continue; // a body this test got wrong is no contract matter
    assert.equal(res.status, 200, `${puzzle} ${JSON.stringify(body)}: ${res.body}`);
    const r = res.json;
    assert.equal(r.status, status, `${puzzle} ${JSON.stringify(body)}`);
    if (limit) assert.equal(r.limit, limit);
    // The prose of SolveResult: limit only with status limit, pushes only
    // for sokoban, steps and moves null unless solved, optimal false at a limit.
    assert.equal('limit' in r, r.status === 'limit', 'limit present only when status is limit');
    assert.equal('pushes' in r, puzzle === 'sokoban', 'pushes: sokoban only');
    if (r.status !== 'solved') { assert.equal(r.steps, null); assert.equal(r.moves, null); }
    else assert.equal(r.steps, r.moves.length, 'steps is the length of moves');
    if (r.status !== 'solved') assert.equal(r.optimal, false);
    if (r.limit) limits.add(r.limit);
  }
  // --max-solve-memory 8M: the long level stops for memory within a
  // second (the deadline is far, for sanitizer builds).
  const s = await startServer({ args: ['--max-solve-memory', '8M'] });
  try {
    const mem = await call({ ...s, cors: '*' }, 'POST', '/solve/sokoban', json({ grid: LONG, limits: { timeout_ms: 30000 } }));
    assert.equal(mem.json.status, 'limit');
    limits.add(mem.json.limit);
  } finally {
    assert.equal(await s.stop(), 0);
  }
  const judge = await call(A, 'POST', '/solve/bloxorz?max_states=3', text(fs.readFileSync(path.join(root, 'examples/bloxorz.in'), 'utf8')));
  assert.equal(judge.body, 'limit\nlimit\n', 'judge mode prints limit');
  assert.ok(limits.has('states') && limits.has('memory'), `limits seen: ${[...limits]}`);
});

test('POST /solve: judge text query options (timeout_ms, max_states, format)', async () => {
  const contest = '3 5\n#####\n#X*@#\n#####\n';
  for (const f of ['contest', 'seed']) {
    const r = await call(A, 'POST', `/solve/sokoban?format=${f}`, text(contest));
    assert.equal(r.status, 200, `?format=${f}: ${r.body}`);
    assert.equal(r.body, '1\n');
  }
  const x = await call(A, 'POST', '/solve/sokoban?format=xsb', text('#####\n#@$.#\n#####\n'));
  assert.equal(x.body, 'R\n');
  const t = await call(A, 'POST', '/solve/curling?timeout_ms=2000&max_states=1000', text('2 1\n3 2\n0 0\n'));
  assert.equal(t.body, '1\n');
});

// The request schemas against the server: a body the puzzle's schema takes
// is never a 400 (it may be a 422: a check no schema states, such as a
// ragged grid); one it refuses for a type, a missing or an unknown field is
// a 400, and one it refuses only for a value out of range (minimum,
// maximum, enum, pattern, an empty grid) is a 422, as BadRequest and
// InvalidPuzzle say. A [row, col] pair of another length is a 400 (a
// field of the wrong type; Cell's minItems and maxItems).
const BODIES = {
  bloxorz: [{ grid: [] }, { grid: [''] }, { grid: ['#X!O#'] }, { grid: 'x' }, { grid: [1] }, { grid: ['#XO#'], notation: 'seed' },
    { grid: ['#X.O#'], limits: { timeout_ms: -1 } }, { grid: ['#X.O#'], limits: { timeout_ms: '5' } },
    { grid: ['#X.O#'], limits: { max_states: 0 } }, { grid: ['#X.O#'], limits: { max_states: 1.5 } },
    { grid: ['#X.O#'], limits: null }, { grid: ['#X.O#'], limits: {} }, { grid: ['#X.O#'], limits: { timeout_ms: 1.5 } }],
  wallpushers: [{ start: [0], walls: [[15]] }, { start: [0, 0, 0], walls: [[15]] }, { start: [-1, 0], walls: [[15]] },
    { start: [0, 0], walls: [] }, { start: [0, 0], walls: [[]] }, { start: [0, 0], walls: [[16]] }, { start: [0, 0], walls: [[-1]] },
    { start: [0, 0], walls: [15] }, { start: ['a', 0], walls: [[15]] }, { start: [0, 0] }, { start: [0, 0.5], walls: [[15]] },
    { start: [0, 0], walls: [[15]] }],
  sokoban: [{ grid: [] }, { grid: ['#####', '#@$.#', '#####'], notation: 'xx' }, { grid: ['#####', '#@$.#', '#####'], optimize: 'xx' },
    { grid: ['#####', '#@$.#', '#####'], optimize: 1 }, { grid: [5] }, { grid: ['#####', '#@$.#', '#####'], notation: 'xsb', optimize: 'any' }],
  curling: [{ board: [] }, { board: [[]] }, { board: [[2, 4]] }, { board: [[2, -1]] }, { board: [[2, 3]], max_throws: 65 },
    { board: [[2, 3]], max_throws: 0 }, { board: [[2, 3.5]] }, { board: [2, 3] }, { board: [[2, 3]], max_throws: null },
    { board: [[2, 3]], max_throws: 64 }],
  holedox: [{ rows: 0, cols: 2, snake: [[0, 0], [0, 1]] }, { rows: 32769, cols: 2, snake: [[0, 0], [0, 1]] },
    { rows: 2, cols: 32769, snake: [[0, 0], [0, 1]] }, { rows: 2, cols: 2, snake: [[0, 0]] },
    { rows: 2, cols: 2, snake: [[0, 0], [0, 1]], target: [5] }, { rows: 2, cols: 2, snake: [[0, 0], [0, 1]], blocks: [[1]] },
    { rows: 2, cols: 40, snake: Array.from({ length: 33 }, (_, i) => [0, i]) },
    { rows: 2, cols: 2, snake: [[0, 0], [0, 1]], target: [-1, 0] }, { rows: 2, cols: 2, snake: [[0, 0], [0, 1]], target: null },
    { rows: 2.5, cols: 2, snake: [[0, 0], [0, 1]] }, { rows: 2, cols: 2, snake: [[0, 0], [0, 1]], blocks: null },
    { rows: 2, cols: 2, snake: [[0, 1], [0, 0]], blocks: [], target: [1, 1] }],
};

test('POST /solve: the request schemas agree with what the server takes (400 or 422)', async () => {
  const TYPE = new Set(['type', 'required', 'additionalProperties']);
  const wrong = [];
  for (const [puzzle, bodies] of Object.entries(BODIES)) {
    const loc = `#/components/schemas/${puzzle[0].toUpperCase()}${puzzle.slice(1)}Request`;
    const v = validator(loc);
    for (const body of bodies) {
      const ok = v(body);
      const errs = ok ? [] : v.errors;
      const typeError = errs.some((e) => TYPE.has(e.keyword) ||
        (['minItems', 'maxItems'].includes(e.keyword) && e.parentSchema?.maxItems === 2 && e.parentSchema?.minItems === 2));
      const r = await call(A, 'POST', `/solve/${puzzle}`, json(body));
      const want = ok ? 'not 400' : typeError ? 400 : 422;
      const fine = ok ? r.status !== 400 : r.status === want;
      if (!fine) {
        wrong.push(`${puzzle} ${JSON.stringify(body).slice(0, 80)}: schema ${ok ? 'takes it' : errs.map((e) => `${e.instancePath} ${e.keyword}`).join(', ')}` +
          ` (want ${want}), server ${r.status} ${r.json?.detail ?? ''}`);
      }
    }
  }
  assert.deepEqual(wrong, []);
});

test('POST /solve errors: 400, 404, 405, 413, 415, 422', async () => {
  const board = [[2, 0, 3]];
  const c400 = [
    ['/solve/curling', { headers: { 'Content-Type': 'application/json' }, body: '{"board": [[2,0,3]' }, /not valid JSON/],
    ['/solve/curling', { headers: { 'Content-Type': 'application/json' }, body: '[1]' }, /must be a JSON object/],
    ['/solve/curling', json({ board: 'x' }), /must be an array/],
    ['/solve/curling', json({ max_throws: 3 }), /missing required field/],
    ['/solve/curling', json({ board, max_throw: 3 }), /unknown field "max_throw"/],
    ['/solve/curling', json({ board, limits: { timeout: 3 } }), /limits\.timeout/],
    ['/solve/curling?max_states=1', json({ board }), /judge text mode/],
    ['/solve/curling?timeout_ms=x', text('2 1\n3 2\n0 0\n'), /timeout_ms/],
    ['/solve/curling?max_states=0', text('2 1\n3 2\n0 0\n'), /max_states/],
    ['/solve/curling?timout_ms=5', text('2 1\n3 2\n0 0\n'), /did you mean "timeout_ms"/],
    ['/solve/sokoban?format=sok', text('#####\n#@$.#\n#####\n'), /unknown text format/],
    ['/solve/curling?format=xsb', text('2 1\n3 2\n0 0\n'), /format/],
  ];
  for (const [p, opts, detail] of c400) {
    const r = await call(A, 'POST', p, opts);
    assert.equal(r.status, 400, `${p} ${opts.body}: ${r.body}`);
    assert.match(r.json.detail, detail);
  }
  const nf = await call(A, 'POST', '/solve/chess', json({ board }));
  assert.equal(nf.status, 404);
  const nfo = await call(A, 'OPTIONS', '/solve/chess', { headers: { Origin: 'https://a.example', 'Access-Control-Request-Method': 'POST' } });
  assert.equal(nfo.status, 404);
  for (const m of ['GET', 'HEAD', 'PUT', 'DELETE']) {
    const r = await call(A, m, '/solve/bloxorz');
    assert.equal(r.status, 405, `${m} /solve/bloxorz`);
    assert.equal(r.headers.allow, 'POST, OPTIONS');
  }
  const pre = await call(A, 'OPTIONS', '/solve/bloxorz', { headers: { Origin: 'https://a.example', 'Access-Control-Request-Method': 'POST' } });
  assert.equal(pre.status, 204);
  assert.equal(pre.headers['access-control-allow-methods'], 'POST, OPTIONS');
  // 413: from the Content-Length (nothing sent), and chunked while reading.
  const big = await call(A, 'POST', '/solve/sokoban', { headers: { 'Content-Type': 'application/json', 'Content-Length': String(A_MAX_BODY + 1) } });
  assert.equal(big.status, 413);
  const chunked = await call(A, 'POST', '/solve/sokoban', { headers: { 'Content-Type': 'application/json' },
    body: ['{"grid": ["', 'x'.repeat(A_MAX_BODY), '"]}'] });
  assert.equal(chunked.status, 413);
  assert.match(chunked.json.detail, /exceeds the limit/);
  for (const headers of [{ 'Content-Type': 'application/xml' }, {}]) {
    const r = await call(A, 'POST', '/solve/bloxorz', { headers, body: '<x/>' });
    assert.equal(r.status, 415, JSON.stringify(headers));
  }
  const c422 = [
    ['/solve/bloxorz', json({ grid: ['#####', '#X.O', '#####'] })],
    ['/solve/curling', json({ board, max_throws: 65 })],
    ['/solve/curling', json({ board, limits: { timeout_ms: -1 } })],
    ['/solve/sokoban', json({ grid: ['#####', '#@$.#', '#####'], optimize: 'fast' })],
    ['/solve/wallpushers', json({ start: [0, 0], walls: [[4, 0]] })],
    ['/solve/curling', text('6 1\n1 5 2 1 1 3\n0 0\n')],
    ['/solve/sokoban?format=contest', text('#####\n#@$.#\n#####\n')],
  ];
  for (const [p, opts] of c422) {
    const r = await call(A, 'POST', p, opts);
    assert.equal(r.status, 422, `${p} ${opts.body}: ${r.body}`);
  }
});

/* The same request on a raw socket, for answers node's HTTP parser
 * refuses (a body after the head of a HEAD answer): the whole answer, read
 * until the server closes, its head split into status and headers. */
function rawRequest(base, method, p, headers, body = '') {
  const url = new URL(base);
  const id = `ct-${++nextId}`;
  const head = [`${method} ${p} HTTP/1.1`, 'Host: x', `X-Request-Id: ${id}`,
    ...headers.map(([k, v]) => `${k}: ${v}`)].join('\r\n') + '\r\n\r\n';
  return new Promise((resolve, reject) => {
    const chunks = [];
    const sock = net.connect(Number(url.port), url.hostname, () => sock.end(head + body));
    sock.setTimeout(5000, () => sock.destroy(new Error(`${method} ${p}: no answer in 5 s`)));
    sock.on('data', (c) => chunks.push(c));
    sock.on('error', reject);
    sock.on('close', () => {
      const all = Buffer.concat(chunks).toString('latin1');
      const end = all.indexOf('\r\n\r\n');
      if (end < 0) { reject(new Error(`${method} ${p}: no answer head: ${JSON.stringify(all)}`)); return; }
      const [statusLine, ...lines] = all.slice(0, end).split('\r\n');
      const hs = {};
      for (const l of lines) {
        const c = l.indexOf(':');
        const k = l.slice(0, c).trim().toLowerCase();
        const v = l.slice(c + 1).trim();
        hs[k] = k in hs ? `${hs[k]}, ${v}` : v;
      }
      resolve({ status: Number(statusLine.split(' ')[1]), headers: hs, body: all.slice(end + 4), events: [], id });
    });
  });
}

const FRAMING = [
  [['Content-Length', '2'], ['Content-Length', '2']],
  [['Transfer-Encoding', 'gzip']],
  [['Transfer-Encoding', 'chunked'], ['Content-Length', '2']],
  [['Content-Length', 'abc']],
];
const LONG_HEAD = [['X-Pad', 'a'.repeat(14500)]]; // about 14 KiB: the server's own 431

test('every operation but HEAD: ambiguous framing is a 400, a long first request head a 431', async () => {
  for (const o of operations.filter((x) => x.method !== 'head')) {
    const p = o.template.replace('{puzzle}', 'curling');
    const m = o.method.toUpperCase();
    const ct = m === 'POST' ? [['Content-Type', 'application/json']] : [];
    for (const headers of FRAMING) {
      const r = await call(A, m, p, { headers: [...ct, ...headers], body: '{}' });
      assert.equal(r.status, 400, `${m} ${p} ${JSON.stringify(headers)}`);
      assert.equal(r.headers.connection, 'close', 'Connection: close after a framing 400');
    }
    const r = await call(A, m, p, { headers: [...ct, ...LONG_HEAD], body: m === 'POST' ? '{}' : undefined });
    assert.equal(r.status, 431, `${m} ${p} with a 14.5 KB head`);
    assert.equal(r.headers.connection, 'close');
    // The request's X-Request-Id comes after the 16 KiB the server reads
    // of the line: the 414 carries a generated one.
    const u = await call(A, m, `${p}?pad=${'a'.repeat(17000)}`,
      { headers: ct, body: m === 'POST' ? '{}' : undefined, echoId: false });
    assert.equal(u.status, 414, `${m} ${p} with a 17 KB request line`);
    assert.equal(u.headers.connection, 'close');
  }
});

test('every HEAD operation: the 414 of a request line over 16 KiB has no body', async () => {
  for (const o of operations.filter((x) => x.method === 'head')) {
    const p = `${o.template}?pad=${'a'.repeat(17000)}`;
    const res = await rawRequest(A.base, 'HEAD', p, []);
    assert.equal(res.status, 414, `HEAD ${o.template}`);
    assert.equal(res.body, '', `HEAD ${o.template}: no content`);
    check(A, { method: 'HEAD', path: p, headers: [], echoId: false }, res);
  }
});

// The server's own early answers (a Content-Length that is not a number,
// a head of about 14 KiB) as libmicrohttpd's 400s (two lengths, gzip,
// both headers): no body after the head of a HEAD answer (RFC 9110, 9.3.2).
test('every HEAD operation: the framing 400 and the 431 have no body', async () => {
  const problems = [];
  for (const o of operations.filter((x) => x.method === 'head')) {
    for (const headers of [...FRAMING, LONG_HEAD]) {
      const res = await rawRequest(A.base, 'HEAD', o.template, headers, headers === LONG_HEAD ? '' : '{}');
      const where = `HEAD ${o.template} ${headers === LONG_HEAD ? 'a 14.5 KB head' : JSON.stringify(headers)}`;
      try {
        assert.equal(res.status, headers === LONG_HEAD ? 431 : 400, where);
        assert.equal(res.headers.connection, 'close', where);
        check(A, { method: 'HEAD', path: o.template, headers }, res);
      } catch (e) {
        problems.push(`${where}: ${e.message.split('\n')[0]}`);
      }
    }
  }
  assert.deepEqual(problems, []);
});

test('a first request head over 16 KiB: a 431 problem document, as the document says', async () => {
  const res = await rawRequest(A.base, 'GET', '/healthz', [['X-Pad', 'a'.repeat(17000)]]);
  assert.equal(res.status, 431);
  assert.equal(res.headers.connection, 'close');
  assert.equal(res.headers['content-type'], 'application/problem+json');
  note('GET /healthz (over 16 KiB)', res.status);
});

test('event streams: progress and result (JSON and judge), problem; refusals stay plain', async () => {
  const s = await call(A, 'POST', '/solve/sokoban', { ...json({ grid: LONG, limits: { timeout_ms: 700 } }),
    headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream' } });
  assert.equal(s.status, 200);
  assert.equal(s.headers['x-accel-buffering'], 'no');
  assert.ok(s.events.some((e) => e.event === 'progress'), 'a 700 ms solve sends progress events');
  const curlingIn = fs.readFileSync(path.join(root, 'examples/curling.in'), 'utf8');
  const plain = await call(A, 'POST', '/solve/curling', text(curlingIn));
  const j = await call(A, 'POST', '/solve/curling', { ...text(curlingIn), headers: { 'Content-Type': 'text/plain', Accept: 'text/event-stream' } });
  assert.equal(j.status, 200);
  assert.equal(final(j.events).event, 'result');
  assert.equal(final(j.events).data, plain.body.replace(/\n$/, ''), 'the judge result event is the text answer');
  for (const [body, status] of [['{"board":[[2,3]],"max_throws":99}', 422], ['{"board":', 400]]) {
    const p = await call(A, 'POST', '/solve/curling', { headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream' }, body });
    assert.equal(p.status, 200);
    assert.equal(final(p.events).event, 'problem');
    assert.equal(JSON.parse(final(p.events).data).status, status);
  }
  for (const [p, opts, status] of [
    ['/solve/chess', json({}), 404],
    ['/solve/curling?max_states=x', text('2 1\n3 2\n0 0\n'), 400],
    ['/solve/curling', { headers: { 'Content-Type': 'application/xml' }, body: '<x/>' }, 415],
  ]) {
    const r = await call(A, 'POST', p, { ...opts, headers: { ...opts.headers, Accept: 'text/event-stream' } });
    assert.equal(r.status, status, `${p} with Accept: text/event-stream`);
  }
});

test('a full queue is a 503; so is a solve while draining, and /readyz (--workers 1 --queue 0, a list of origins)', async () => {
  const origin = 'https://app.example';
  const s = await startServer({ workers: 1, queue: 0, args: ['--cors-origin', origin, '--grace-ms', '5000'] });
  const B = { ...s, cors: [origin] };
  let stopping;
  try {
    const sse = { 'Content-Type': 'application/json', Accept: 'text/event-stream', Origin: origin };
    // A stream skips the fast lane: it holds the only worker.
    const busy = () => {
      let started;
      const progress = new Promise((resolve) => { started = resolve; });
      const done = call(B, 'POST', '/solve/sokoban', { headers: sse, body: JSON.stringify({ grid: LONG, limits: { timeout_ms: 1500 } }),
        onEvent: (e) => { if (e.event === 'progress') started(); } });
      return { progress, done };
    };
    const one = busy();
    await one.progress;
    const full = await call(B, 'POST', '/solve/sokoban', { headers: sse, body: JSON.stringify({ grid: LONG }) });
    assert.equal(full.status, 503, `a second stream: ${full.body}`);
    assert.match(full.json.detail, /queue is full/);
    const fullJson = await call(B, 'POST', '/solve/sokoban', { ...json({ grid: LONG }), headers: { 'Content-Type': 'application/json' } });
    assert.equal(fullJson.status, 503, 'a solve that outgrows the fast lane');
    const other = await call(B, 'GET', '/healthz', { headers: { Origin: 'https://other.example' } });
    assert.equal(other.status, 200);
    for (const o of [origin, 'https://other.example']) {
      assert.equal((await call(B, 'HEAD', '/healthz', { headers: { Origin: o } })).status, 200);
      const pre = await call(B, 'OPTIONS', '/solve/bloxorz', { headers: { Origin: o, 'Access-Control-Request-Method': 'POST' } });
      assert.equal(pre.status, 204);
      assert.equal(pre.headers['access-control-allow-methods'], o === origin ? 'POST, OPTIONS' : undefined);
    }
    const r1 = await one.done;
    assert.equal(r1.status, 200);
    assert.ok(final(r1.events).event === 'result');

    // The drain: SIGTERM while a solve runs.
    const two = busy();
    await two.progress;
    stopping = B.stop();
    let ready;
    for (let i = 0; i < 100; i++) {
      ready = await call(B, 'GET', '/readyz', { headers: { Origin: origin } });
      if (ready.status === 503) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    assert.equal(ready.status, 503, 'GET /readyz while draining');
    assert.match(ready.json.detail, /draining/);
    const headReady = await call(B, 'HEAD', '/readyz');
    assert.equal(headReady.status, 503, 'HEAD /readyz while draining');
    const late = await call(B, 'POST', '/solve/curling', json({ board: [[2, 3]] }));
    assert.equal(late.status, 503, 'a solve while draining');
    assert.equal(late.headers.connection, 'close');
    const r2 = await two.done;
    assert.equal(r2.status, 200);
    assert.equal(final(r2.events).event, 'result', 'the running solve finishes within the grace period');
    assert.equal(await stopping, 0, `server B's exit status; log:\n${B.log()}`);
  } finally {
    if (!stopping) await B.stop().catch(() => {});
    else await stopping.catch(() => {});
  }
});

test('every documented status of every operation was answered (or is skipped for a named reason)', (t) => {
  const missing = [];
  for (const o of operations) {
    for (const status of Object.keys(o.op.responses)) {
      if (covered.get(o.key)?.has(status)) continue;
      if (SKIP[status]) { t.diagnostic(`skipped ${o.key} ${status}: ${SKIP[status]}`); continue; }
      missing.push(`${o.key} ${status}`);
    }
  }
  assert.deepEqual(missing, [], 'documented statuses never answered');
  for (const [key, statuses] of [...covered].sort()) t.diagnostic(`${key}: ${[...statuses].sort().join(' ')}`);
});

test('the server sends no property the schemas do not declare; what it never sends is listed', (t) => {
  const extra = [...undeclared].map(([loc, ks]) => `${loc}: ${[...ks].join(', ')}`);
  assert.deepEqual(extra, [], 'properties sent but not declared');
  for (const [loc, ks] of declaredProps) {
    const never = [...ks].filter((k) => !seenProps.get(loc)?.has(k));
    if (never.length) t.diagnostic(`declared, never sent: ${loc}: ${never.join(', ')}`);
  }
  for (const [loc, hs] of headersUndocumented) {
    t.diagnostic(`header sent, not documented for the response: ${loc}: ${[...hs].join(', ')}`);
  }
  t.diagnostic(`objects checked property by property: ${[...declaredProps.keys()].join(' ')}`);
  for (const [loc, hs] of headersDeclared) {
    const never = [...hs].filter((k) => !headersSeen.get(loc)?.has(k));
    if (never.length) t.diagnostic(`header documented, never sent: ${loc}: ${never.join(', ')}`);
  }
});
