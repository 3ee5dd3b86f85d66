import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import { setAuditAction } from '../../../platform/lib/audit-context.ts';
import { errorEnvelopeSchema } from '../../../platform/lib/error-envelope-schema.ts';
import { OPERATOR_ROLE_NAMES } from '../../domain/operator-roles.ts';
import { dashboardDepsOf } from '../../flows/dashboard-deps.ts';
import { createOperator, listOperatorAccounts, type OperatorSummary } from '../../flows/operators.ts';

const OperatorBody = Type.Object(
  {
    email: Type.String({ minLength: 3, maxLength: 254, description: "the operator's sign-in" }),
    role: Type.Union(
      OPERATOR_ROLE_NAMES.map((role) => Type.Literal(role)),
      { description: 'admin (everything) | support (merchants read, disputes, bank-account reviews, resend) | finance (ledger, commissions read, exports)' },
    ),
  },
  { additionalProperties: false, examples: [{ email: 'ops.lead@payrail.example', role: 'admin' }] },
);

const Operator = Type.Object({
  id: Type.Integer(),
  email: Type.String(),
  role: Type.String(),
  status: Type.String({ description: 'active | disabled' }),
  created_at: Type.String({ format: 'date-time' }),
});

const OperatorCreated = Type.Object(
  {
    success: Type.Literal(true),
    operator: Operator,
    password: Type.String({ description: 'shown once; Payrail keeps only its memory-hard hash' }),
    totp_secret: Type.String({ description: 'shown once: the authenticator app secret (base32); sign-in always asks for its code' }),
    totp_uri: Type.String({ description: 'the same secret as an otpauth:// link (most authenticator apps take it as a QR code)' }),
  },
  {
    examples: [
      {
        success: true,
        operator: { id: 1, email: 'ops.lead@payrail.example', role: 'admin', status: 'active', created_at: '2026-11-28T09:00:00.000Z' },
        password: 'q3VbX0mPz8Lw2rT5yH7nKc1d',
        totp_secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
        totp_uri: 'otpauth://totp/Payrail:ops.lead%40payrail.example?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&issuer=Payrail',
      },
    ],
  },
);

const OperatorList = Type.Object(
  { success: Type.Literal(true), operators: Type.Array(Operator) },
  {
    examples: [
      {
        success: true,
        operators: [{ id: 1, email: 'ops.lead@payrail.example', role: 'admin', status: 'active', created_at: '2026-11-28T09:00:00.000Z' }],
      },
    ],
  },
);

function operatorJson(operator: OperatorSummary) {
  return { id: operator.id, email: operator.email, role: operator.role, status: operator.status, created_at: operator.createdAt.toISOString() };
}

// Named operators for the console at /ops: the first from the CLI (`payrail operator create`), then from the console.
export async function operatorAdminRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<TypeBoxTypeProvider>();
  const deps = dashboardDepsOf(app.payrail);
  const tags = ['admin: operators'];
  routes.post(
    '/operators',
    {
      schema: {
        operationId: 'adminCreateOperator',
        summary: 'Create an operator account',
        description:
          'Operators only (admin key). Makes a named operator for the console at `/ops` with a generated password and TOTP secret, ' +
          'both shown in this answer only. Sign-in always asks for the password and then the TOTP code.',
        tags,
        security: [{ adminKey: [] }],
        body: OperatorBody,
        response: {
          200: OperatorCreated,
          409: errorEnvelopeSchema({ meaning: 'an operator has this e-mail address', codes: 'operator_exists' }),
          422: errorEnvelopeSchema({ meaning: 'the e-mail address is not one', codes: 'invalid_field', field: 'email' }),
        },
      },
    },
    async (request) => {
      setAuditAction('operator.create');
      const created = await createOperator(deps, request.body);
      return {
        success: true as const,
        operator: operatorJson(created.operator),
        password: created.password,
        totp_secret: created.totpSecret,
        totp_uri: created.totpUri,
      };
    },
  );
  routes.get(
    '/operators',
    {
      schema: {
        operationId: 'adminListOperators',
        summary: 'List operator accounts',
        description: 'Operators only (admin key). Every operator account, oldest first (no secrets).',
        tags,
        security: [{ adminKey: [] }],
        response: { 200: OperatorList },
      },
    },
    async () => ({ success: true as const, operators: (await listOperatorAccounts(deps)).map(operatorJson) }),
  );
}
