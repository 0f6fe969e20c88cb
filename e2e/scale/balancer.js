// nginx in the foreground with the repository's deploy/nginx.conf, its
// ports and paths replaced (as tests/it/scale_out.rs runs it), in front of
// the given instances.
import { spawn, execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repo } from '../tests/harness.js';

const freePort = () => new Promise((ok) => {
  const probe = createServer().listen(0, '127.0.0.1', () => {
    const { port } = probe.address();
    probe.close(() => ok(port));
  });
});

export async function startBalancer(upstreams) {
  const dir = mkdtempSync(join(tmpdir(), 'tessera-nginx-'));
  chmodSync(dir, 0o777);
  const port = await freePort();
  let conf = readFileSync(join(repo, 'deploy', 'nginx.conf'), 'utf8');
  const ports = upstreams.map((u) => new URL(u).port);
  for (const [from, to] of [
    ['listen 80;', `listen 127.0.0.1:${port};`],
    ['127.0.0.1:8080', `127.0.0.1:${ports[0]}`],
    ['127.0.0.1:8081', `127.0.0.1:${ports[1]}`],
    ['/run/nginx-tessera.pid', `${dir}/nginx.pid`],
    ['/var/log/nginx/', `${dir}/`],
  ]) {
    if (!conf.includes(from)) throw new Error(`deploy/nginx.conf no longer has ${from}`);
    conf = conf.replaceAll(from, to);
  }
  writeFileSync(join(dir, 'nginx.conf'), conf);
  const nginx = ['/usr/sbin/nginx', 'nginx'].find((n) => {
    try { execFileSync(n, ['-v'], { stdio: 'ignore' }); return true; } catch { return false; }
  });
  if (!nginx) throw new Error('nginx is not installed (scripts/test installs it)');
  const child = spawn(nginx, ['-c', join(dir, 'nginx.conf'), '-p', dir, '-g', 'daemon off;'], { stdio: 'inherit' });
  const url = `http://127.0.0.1:${port}/`;
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${url}healthz`)).ok) break;
    } catch { /* not up yet */ }
    if (i > 200) throw new Error('nginx did not start');
    await new Promise((ok) => setTimeout(ok, 50));
  }
  return {
    url,
    stop() { child.kill('SIGTERM'); rmSync(dir, { recursive: true, force: true }); },
  };
}
