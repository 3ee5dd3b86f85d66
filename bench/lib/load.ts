import { createRequire } from 'node:module';

// autocannon ships no type declarations; this is the part of its API the benchmark uses.
interface AutocannonOptions {
  url: string;
  method: 'POST';
  headers: Record<string, string>;
  body: string;
  connections: number;
  duration: number; // seconds
  timeout: number; // seconds, per request
  tlsOptions: { ca: string }; // autocannon always sets rejectUnauthorized: false itself
  verifyBody?: (body: string) => boolean; // called with every complete response; false counts a mismatch
  requests?: { method: 'POST'; setupRequest: (request: { body?: string }) => { body?: string } }[];
}

interface Histogram {
  mean: number;
  p50: number;
  p99: number;
}

interface AutocannonResult {
  requests: Histogram & { total: number };
  latency: Histogram & { max: number };
  errors: number;
  timeouts: number;
  non2xx: number;
  mismatches: number;
  statusCodeStats: Record<string, { count: number }>;
  duration: number; // seconds
}

type Autocannon = (options: AutocannonOptions, done: (error: Error | null, result: AutocannonResult) => void) => unknown;

const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

export interface LoadPlan {
  url: string;
  headers: Record<string, string>;
  body: string;
  connections: number;
  durationS: number;
  ca: string;
  // Judges every response body, whatever its status code; see LoadFigures.unexpected2xx.
  expectedBody?: (body: string) => boolean;
  nextBody?: () => string; // a new body for every request (refunds of different payments); `body` otherwise
}

export interface LoadFigures {
  requestsPerSecond: number; // mean of the per-second samples
  requestsTotal: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  non2xx: number;
  errors: number; // socket errors and timeouts
  unexpected2xx: number | null; // 2xx answers whose body expectedBody refused; null without expectedBody
  statusCounts: Record<string, number>;
}

// A queue of 50 Host-to-Host payments on the single-connection embedded engine takes seconds: latency
// (p99 shows it), not failure; a request still unanswered after 30 s counts as an error.
const REQUEST_TIMEOUT_S = 30;

function nextBodyOf(plan: LoadPlan): () => string {
  if (!plan.nextBody) throw new Error('the plan has no body generator');
  return plan.nextBody;
}

export async function runLoad(plan: LoadPlan): Promise<LoadFigures> {
  const result = await new Promise<AutocannonResult>((resolve, reject) => {
    autocannon(
      {
        url: plan.url,
        method: 'POST',
        headers: plan.headers,
        body: plan.body,
        connections: plan.connections,
        duration: plan.durationS,
        timeout: REQUEST_TIMEOUT_S,
        tlsOptions: { ca: plan.ca },
        ...(plan.expectedBody ? { verifyBody: plan.expectedBody } : {}),
        ...(plan.nextBody ? { requests: [{ method: 'POST' as const, setupRequest: (request) => ({ ...request, body: nextBodyOf(plan)() }) }] } : {}),
      },
      (error, finished) => (error ? reject(error) : resolve(finished)),
    );
  });
  const statusCounts: Record<string, number> = {};
  for (const [status, stats] of Object.entries(result.statusCodeStats)) statusCounts[status] = stats.count;
  return {
    requestsPerSecond: result.requests.mean,
    requestsTotal: result.requests.total,
    latencyP50Ms: result.latency.p50,
    latencyP99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors, // autocannon counts timeouts among errors as well
    // autocannon verifies every complete response, so a non-2xx one (never an expected body) is a mismatch too.
    unexpected2xx: plan.expectedBody ? Math.max(0, result.mismatches - result.non2xx) : null,
    statusCounts,
  };
}
