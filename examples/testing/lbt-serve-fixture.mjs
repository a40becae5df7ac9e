// lbt serve as a Node test suite's fixture: start it, wait for the line
// that says it runs (what Testcontainers' wait strategy looks for), point
// Bigtable's client libraries at it, and stop it at the end. With
// --ephemeral (the default here) each start is a new, empty database.
//
//   import {startLbtServe} from './lbt-serve-fixture.mjs';
//
//   let server;
//   before(async () => { server = await startLbtServe(); });  // sets BIGTABLE_EMULATOR_HOST
//   after(() => server.stop());
//   // new Bigtable() reaches the server from here on
//
// Options: `binary` (default 'lbt', found on the PATH), `args` (after
// `serve --host-port 127.0.0.1:0`; default ['--ephemeral'], e.g.
// ['--db', 'testdb', '--faults', 'faults.json'] to keep a database and
// inject faults), `timeoutMs` to wait for the start (default 30 s).

import {spawn} from 'node:child_process';
import {once} from 'node:events';
import {createInterface} from 'node:readline';

export async function startLbtServe({binary = 'lbt', args = ['--ephemeral'], timeoutMs = 30000} = {}) {
  // Port 0: the server picks a free port and says which.
  const child = spawn(binary, ['serve', '--host-port', '127.0.0.1:0', ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const host = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGTERM');
      reject(new Error(`lbt serve did not say it runs within ${timeoutMs} ms`));
    }, timeoutMs);
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`lbt serve exited with status ${code} before it ran`)));
    createInterface({input: child.stdout}).on('line', (line) => {
      // "lbt serve running on 127.0.0.1:PORT: ...; for clients: export BIGTABLE_EMULATOR_HOST=127.0.0.1:PORT"
      const running = /running on .*BIGTABLE_EMULATOR_HOST=(\S+)/.exec(line);
      if (running) {
        clearTimeout(timer);
        resolve(running[1]);
      }
    });
  });
  process.env.BIGTABLE_EMULATOR_HOST = host;
  return {
    host,
    // Stops the server (SIGTERM: it finishes the calls in flight, and an
    // --ephemeral database is removed) and resolves to its exit status.
    async stop() {
      if (child.exitCode !== null) return child.exitCode;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      const [code] = await exited;
      return code;
    },
  };
}
