import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../platform/lib/errors.ts';

// The dashboard's scripts and styles: our own files beside this one and the libraries' builds straight from
// node_modules (no build step, no CDN), each under a URL carrying its content hash, cached for a year.
const require = createRequire(import.meta.url);
const OWN_DIR = join(dirname(fileURLToPath(import.meta.url)), 'assets');

interface Asset {
  name: string; // as pages name it
  dir: string;
  file: string;
}

const ASSETS: readonly Asset[] = [
  { name: 'htmx.js', dir: dirname(require.resolve('htmx.org/dist/htmx.min.js')), file: 'htmx.min.js' },
  { name: 'uplot.js', dir: dirname(require.resolve('uplot/dist/uPlot.iife.min.js')), file: 'uPlot.iife.min.js' },
  { name: 'uplot.css', dir: dirname(require.resolve('uplot/dist/uPlot.min.css')), file: 'uPlot.min.css' },
  { name: 'dashboard.css', dir: OWN_DIR, file: 'dashboard.css' },
  { name: 'dashboard.js', dir: OWN_DIR, file: 'dashboard.js' },
  { name: 'charts.js', dir: OWN_DIR, file: 'charts.js' },
];

const hashed = new Map<string, { asset: Asset; url: string }>();
for (const asset of ASSETS) {
  const digest = createHash('sha256')
    .update(readFileSync(join(asset.dir, asset.file)))
    .digest('hex')
    .slice(0, 16);
  const [stem, extension] = [asset.name.slice(0, asset.name.lastIndexOf('.')), asset.name.slice(asset.name.lastIndexOf('.'))];
  hashed.set(asset.name, { asset, url: `/dashboard/assets/${stem}.${digest}${extension}` });
}
const byUrlName = new Map([...hashed.values()].map((entry) => [entry.url.slice('/dashboard/assets/'.length), entry.asset]));

export type AssetName = 'htmx.js' | 'uplot.js' | 'uplot.css' | 'dashboard.css' | 'dashboard.js' | 'charts.js';

export function assetUrl(name: AssetName): string {
  const entry = hashed.get(name);
  if (!entry) throw new Error(`unknown dashboard asset ${name}`);
  return entry.url;
}

export async function dashboardAssets(app: FastifyInstance): Promise<void> {
  await app.register(fastifyStatic, { root: OWN_DIR, serve: false });
  app.get<{ Params: { file: string } }>('/assets/:file', { schema: { hide: true } }, async (request, reply) => {
    const asset = byUrlName.get(request.params.file);
    if (!asset) throw new ApiError('not_found', 404, 'no such asset');
    reply.header('cache-control', 'public, max-age=31536000, immutable');
    return reply.sendFile(asset.file, asset.dir, { cacheControl: false });
  });
}
