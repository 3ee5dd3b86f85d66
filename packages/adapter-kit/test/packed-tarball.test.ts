import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

// The kit as someone outside this repository gets it: a copy of the package alone builds (tsc, with only the
// dependencies its package.json declares), `npm pack` makes the tarball (prepack builds dist/), the tarball goes into
// a fresh folder's node_modules, and plain `node` runs an adapter built on it and the conformance suite against it,
// with no TypeScript anywhere (Node strips no types under node_modules). tsc then typechecks a consumer against the
// packed .d.ts files.
//
// Offline, and without npm install: `npm install --offline <tarball>` fails with ENOTCACHED (the npm cache holds the
// tarballs `npm ci` fetched, not the registry metadata npm needs to resolve the tarball's `jose` and `typebox`). So
// the tarball is unpacked where npm would put it, node_modules/@payrail/adapter-kit, and its dependencies (and the
// optional peer fastify) are symlinked from the repository's node_modules.

const execFileAsync = promisify(execFile);
const KIT_DIR = fileURLToPath(new URL('..', import.meta.url));
const REPO_MODULES = fileURLToPath(new URL('../../../node_modules/', import.meta.url));
const STEP_TIMEOUT_MS = 60_000;

// npm and tsc under the pinned Node (their shebang takes the first `node` on PATH), without the repository's
// "payrail-source" condition: what a stranger's shell has.
const { NODE_OPTIONS: _repoConditions, ...strangerEnv } = process.env;
const env = { ...strangerEnv, PATH: `${dirname(process.execPath)}:${process.env['PATH'] ?? ''}`, npm_config_update_notifier: 'false' };
const run = (command: string, args: string[], cwd: string) => execFileAsync(command, args, { cwd, env, timeout: STEP_TIMEOUT_MS });

const EXAMPLE = `
import { adapterHttpServer } from '@payrail/adapter-kit';
import { formatReport, runConformance } from '@payrail/adapter-kit/conformance';

const signKey = 'packed-tarball-sign-key-01234567';
const payments = new Map();
const app = await adapterHttpServer({
  signKey,
  handlers: {
    async pay(request) {
      const answer = { result: true, status: 'approved', gateway_token: 'gw_' + request.payment.token, amount: request.payment.gateway_amount, currency: request.payment.gateway_currency };
      payments.set(request.payment.token, answer);
      return answer;
    },
    async status(request) {
      return payments.get(request.payment.token) ?? { result: false, error: 'unknown payment' };
    },
  },
});
await app.listen({ host: '127.0.0.1', port: 0 });
const report = await runConformance({ url: 'http://127.0.0.1:' + app.server.address().port, signKey, methods: ['pay', 'status'] });
await app.close();
console.log(JSON.stringify({ passed: report.passed, text: formatReport(report) }));
`;

const CONSUMER_TS = `
import { interactionLog, type AdapterAnswer, type PayRequest } from '@payrail/adapter-kit';
import type { ConformanceReport } from '@payrail/adapter-kit/conformance';

export function answerOf(request: PayRequest): AdapterAnswer {
  const log = interactionLog({ kind: 'pay', url: 'https://provider.example', status: 200, startedAt: 0 });
  return { result: true, status: 'approved', gateway_token: request.payment.token, logs: [log] };
}
export const passedOf = (report: ConformanceReport): boolean => report.passed;
`;

function linkModules(nodeModules: string, names: readonly string[]): void {
  for (const name of names) {
    mkdirSync(dirname(join(nodeModules, name)), { recursive: true });
    symlinkSync(join(REPO_MODULES, name), join(nodeModules, name), 'dir');
  }
}

describe('the packed @payrail/adapter-kit, outside this repository', () => {
  const workDir = mkdtempSync(join(tmpdir(), 'adapter-kit-pack-'));
  afterAll(() => rmSync(workDir, { recursive: true, force: true }));

  it('builds alone, packs dist/ with types, installs in a fresh folder and runs an adapter with plain node', { timeout: 120_000 }, async () => {
    const manifest = JSON.parse(readFileSync(join(KIT_DIR, 'package.json'), 'utf8')) as Record<string, Record<string, string>>;
    const declared = Object.keys({ ...manifest['dependencies'], ...manifest['peerDependencies'], ...manifest['devDependencies'] });

    // A standalone copy: the package's own files, and only the modules it declares.
    const copy = join(workDir, 'kit');
    for (const entry of ['src', 'package.json', 'README.md', 'tsconfig.build.json']) cpSync(join(KIT_DIR, entry), join(copy, entry), { recursive: true });
    linkModules(join(copy, 'node_modules'), declared);
    mkdirSync(join(copy, 'node_modules', '.bin'));
    symlinkSync('../typescript/bin/tsc', join(copy, 'node_modules', '.bin', 'tsc'));
    const packed = await run('npm', ['pack', '--json', '--pack-destination', workDir], copy);
    const [{ filename, files }] = JSON.parse(packed.stdout) as [{ filename: string; files: { path: string }[] }];
    const paths = files.map((file) => file.path);
    expect(paths).toEqual(expect.arrayContaining(['package.json', 'README.md', 'dist/index.js', 'dist/index.d.ts', 'dist/conformance/index.js']));
    expect(paths).toContain('dist/conformance/index.d.ts');
    expect(paths.filter((path) => path.endsWith('.ts') && !path.endsWith('.d.ts'))).toEqual([]); // no source to strip

    // A fresh folder: the tarball in node_modules, as npm would put it.
    const app = join(workDir, 'app');
    mkdirSync(app);
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'kit-consumer', private: true, type: 'module' }));
    const tarball = join(workDir, filename);
    const target = join(app, 'node_modules', '@payrail', 'adapter-kit');
    mkdirSync(target, { recursive: true });
    await run('tar', ['-xzf', tarball, '-C', target, '--strip-components=1'], app);
    linkModules(join(app, 'node_modules'), [...Object.keys(manifest['dependencies'] ?? {}), 'fastify', '@types/node']);
    expect(readdirSync(join(app, 'node_modules', '@payrail', 'adapter-kit'))).not.toContain('src');

    writeFileSync(join(app, 'example.mjs'), EXAMPLE);
    const example = await run(process.execPath, ['example.mjs'], app);
    const result = JSON.parse(example.stdout) as { passed: boolean; text: string };
    expect(result.passed, result.text).toBe(true);
    expect(result.text).toContain('PASS  pay/accepted');

    writeFileSync(join(app, 'consumer.ts'), CONSUMER_TS);
    const tsconfig = { compilerOptions: { module: 'nodenext', target: 'es2024', strict: true, noEmit: true, types: ['node'] }, files: ['consumer.ts'] };
    writeFileSync(join(app, 'tsconfig.json'), JSON.stringify(tsconfig));
    await expect(run(process.execPath, [join(REPO_MODULES, 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'], app)).resolves.toMatchObject({ stderr: '' });
  });
});
