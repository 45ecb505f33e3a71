// server.mjs - starts `gridsolve serve --port 0` for the browser tests and
// stops it. Like tests/integration/harness.c, it reads the server's first
// stdout line, `listening on ADDR:PORT`, to learn the port.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/* Starts the binary ($GRIDSOLVE_BIN, default build/gridsolve) and resolves
 * to {base, stop}; stop() sends SIGTERM and resolves to the exit code.
 * workers and queue are its --workers and --queue (queue: the default). */
export async function startServer({ workers = 2, queue = null } = {}) {
  const bin = path.resolve(root, process.env.GRIDSOLVE_BIN || 'build/gridsolve');
  const args = ['serve', '--bind', '127.0.0.1', '--port', '0', '--workers', String(workers)];
  if (queue !== null) args.push('--queue', String(queue));
  const child = spawn(bin, args, {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stderr.on('data', (d) => { log += d; });
  const exited = once(child, 'exit');

  const line = await new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`no listening line within 10 s; log:\n${log}`)), 10000);
    child.stdout.on('data', (d) => {
      out += d;
      const nl = out.indexOf('\n');
      if (nl >= 0) { clearTimeout(timer); resolve(out.slice(0, nl)); }
    });
    child.on('error', (e) => { clearTimeout(timer); reject(e); });
    child.on('exit', (code) => { clearTimeout(timer); reject(new Error(`server exited (${code}) before listening:\n${log}`)); });
  });
  const m = /^listening on (.*):(\d+)$/.exec(line);
  if (!m) throw new Error(`unexpected first stdout line: ${line}`);
  const base = `http://127.0.0.1:${m[2]}`;

  async function stop() {
    if (child.exitCode !== null) return child.exitCode;
    child.kill('SIGTERM');
    const [code] = await exited;
    return code;
  }
  return { base, stop, log: () => log };
}
