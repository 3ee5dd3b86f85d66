import type { FastifyInstance } from 'fastify';
import { operationsOverview, type OperationsOverview } from '../../../payments/index.ts';
import { html, type SafeHtml } from '../../../platform/lib/html.ts';
import { problemOf } from '../../pages/form-errors.ts';
import { requireOperatorAction } from './guard.ts';
import { opsPage } from './layout.ts';
import { overviewView } from './overview-view.ts';

const DAY_MS = 86_400_000;
const RANGE_DAYS = { '1d': 1, '7d': 7, '30d': 30, '90d': 90 } as const;
type RangeName = keyof typeof RANGE_DAYS;

interface OverviewParams {
  range?: string;
  from?: string; // YYYY-MM-DD, a chosen range instead of the named one
  to?: string; // YYYY-MM-DD, inclusive
  environment?: string;
}

// The range asked for: from/to days (inclusive), else a named range ending today (UTC).
function rangeOf(params: OverviewParams, now = new Date()): { name: RangeName | 'custom'; from: Date; to: Date } {
  const dayPattern = /^\d{4}-\d{2}-\d{2}$/;
  if (params.from && params.to && dayPattern.test(params.from) && dayPattern.test(params.to)) {
    return { name: 'custom', from: new Date(`${params.from}T00:00:00Z`), to: new Date(Date.parse(`${params.to}T00:00:00Z`) + DAY_MS) };
  }
  const name: RangeName = params.range !== undefined && params.range in RANGE_DAYS ? (params.range as RangeName) : '7d';
  const tomorrow = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) + DAY_MS;
  return { name, from: new Date(tomorrow - RANGE_DAYS[name] * DAY_MS), to: new Date(tomorrow) };
}

// The console's overview: the payments across merchants and the engine's health over a chosen range.
export async function overviewPages(app: FastifyInstance): Promise<void> {
  const db = app.payrail.database.db;
  const currencies = app.payrail.currencies;
  app.get<{ Querystring: OverviewParams }>('/', async (request, reply) => {
    requireOperatorAction(request, 'overview');
    const environment = request.query.environment === 'sandbox' ? 'sandbox' : 'production';
    const range = rangeOf(request.query);
    let overview: OperationsOverview | null = null;
    let problem: SafeHtml | '' = '';
    try {
      overview = await operationsOverview(db, { from: range.from, to: range.to, environment });
    } catch (error) {
      problem = problemOf(error);
    }
    return opsPage(request, reply, {
      title: 'Overview',
      area: 'overview',
      status: overview === null ? 400 : 200,
      scripts: ['uplot.js', 'charts.js'],
      body: html`${rangeForm(range.name, environment, request.query)}${problem}${overview === null ? '' : overviewView(currencies, overview)}`,
    });
  });
}

function rangeForm(name: RangeName | 'custom', environment: string, params: OverviewParams): SafeHtml {
  const links = (Object.keys(RANGE_DAYS) as RangeName[]).map(
    (range) =>
      html`<li><a href="/ops?range=${range}&environment=${environment}"${range === name ? html` aria-current="true"` : ''}>${range === '1d' ? 'Today' : range.replace('d', ' days')}</a></li>`,
  );
  const option = (value: string) => html`<option value="${value}"${value === environment ? html` selected` : ''}>${value}</option>`;
  return html`<nav aria-label="Range"><ul class="ranges">${links}</ul></nav>
<form method="get" action="/ops" class="filters">
<p><label for="ov-from">From (UTC day)</label><br><input id="ov-from" name="from" type="date" value="${params.from ?? ''}"></p>
<p><label for="ov-to">To (UTC day, inclusive)</label><br><input id="ov-to" name="to" type="date" value="${params.to ?? ''}"></p>
<p><label for="ov-environment">Environment</label><br><select id="ov-environment" name="environment">${option('production')}${option('sandbox')}</select></p>
<p class="filter-actions"><button type="submit">Show</button></p>
</form>`;
}
