// server.mjs - starts `gridsolve serve --port 0` for the browser tests and
// stops it. Like tests/integration/harness.c, it reads the server's first
// stdout line, `listening on ADDR:PORT`, to learn the port.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/* Starts the binary ($GRIDSOLVE_BIN, default build/gridsolve) and resolves
 * to {base, stop}; stop() sends SIGTERM and resolves to the exit code, or
 * SIGKILLs a server still running 5 s later and rejects. A start that
 * fails kills the child: a test run must never wait on it.
 * workers and queue are its --workers and --queue (queue: the default);
 * args, any further flags of `gridsolve serve`. */
export async function startServer({ workers = 2, queue = null, args: extra = [] } = {}) {
  const bin = path.resolve(root, process.env.GRIDSOLVE_BIN || 'build/gridsolve');
  const args = ['serve', '--bind', '127.0.0.1', '--port', '0', '--workers', String(workers)];
  if (queue !== null) args.push('--queue', String(queue));
  args.push(...extra);
  const child = spawn(bin, args, {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stderr.on('data', (d) => { log += d; });
  const exited = once(child, 'exit');

  let line;
  try {
    line = await new Promise((resolve, reject) => {
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
    if (!/^listening on (.*):(\d+)$/.test(line)) throw new Error(`unexpected first stdout line: ${line}`);
  } catch (e) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    throw e;
  }
  const m = /^listening on (.*):(\d+)$/.exec(line);
  const base = `http://127.0.0.1:${m[2]}`;

  async function stop() {
    if (child.exitCode !== null) return child.exitCode;
    child.kill('SIGTERM');
    let timer;
    const late = new Promise((resolve) => { timer = setTimeout(resolve, 5000, 'late'); });
    const first = await Promise.race([exited, late]);
    clearTimeout(timer);
    if (first === 'late') {
      child.kill('SIGKILL');
      await exited;
      throw new Error(`server still running 5 s after SIGTERM (killed); log:\n${log}`);
    }
    return first[0];
  }
  return { base, stop, log: () => log };
}
