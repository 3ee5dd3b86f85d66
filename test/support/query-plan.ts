import type { Db } from '../../src/platform/database.ts';

// A node of PostgreSQL's EXPLAIN (FORMAT JSON), with the fields the plan tests read.
interface PlanNode {
  'Node Type': string;
  'Join Type'?: string;
  'Index Name'?: string;
  'Rows Removed by Join Filter'?: number;
  'Rows Removed by Filter'?: number;
  Plans?: PlanNode[];
}

const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];

// Every node of the plan the database made of `text` and ran with `params` (EXPLAIN ANALYZE: the statement runs), on
// either engine's client (PGlite answers the plan as text, node-postgres as JSON).
export async function executedPlanNodes(db: Db, text: string, params: unknown[]): Promise<PlanNode[]> {
  const client = (db as unknown as { $client: { query(text: string, values: unknown[]): Promise<{ rows: Record<string, unknown>[] }> } }).$client;
  const explained = await client.query(`explain (analyze, format json) ${text}`, params);
  const plan = (explained.rows[0]?.['QUERY PLAN'] as [{ Plan: PlanNode }] | string) ?? [];
  return nodesOf((typeof plan === 'string' ? (JSON.parse(plan) as [{ Plan: PlanNode }]) : plan)[0]!.Plan);
}
