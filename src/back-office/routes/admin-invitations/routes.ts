import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import { getMerchant } from '../../../payments/index.ts';
import { errorEnvelopeSchema } from '../../../platform/lib/error-envelope-schema.ts';
import { Id } from '../../../platform/lib/limits.ts';
import { MEMBER_ROLE_NAMES } from '../../domain/roles.ts';
import { dashboardDepsOf } from '../../flows/dashboard-deps.ts';
import { inviteMember } from '../../flows/team.ts';

const InvitationBody = Type.Object(
  {
    email: Type.String({ minLength: 3, maxLength: 254, description: 'where the invitation link goes' }),
    role: Type.Optional(
      Type.Union(
        MEMBER_ROLE_NAMES.map((role) => Type.Literal(role)),
        { default: 'owner', description: 'owner | developer | support | viewer' },
      ),
    ),
  },
  { additionalProperties: false, examples: [{ email: 'new.colleague@example.com', role: 'developer' }] },
);

const InvitationSent = Type.Object(
  { success: Type.Literal(true), email: Type.String(), role: Type.String() },
  { examples: [{ success: true, email: 'new.colleague@example.com', role: 'developer' }] },
);

// How operators let a merchant's people into the dashboard when sign-up is closed (PAYRAIL_SIGNUP=closed).
export async function dashboardInvitationAdminRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<TypeBoxTypeProvider>();
  const deps = dashboardDepsOf(app.payrail);
  routes.post(
    '/merchants/:id/invitations',
    {
      schema: {
        operationId: 'adminInviteDashboardMember',
        summary: "Invite a person to a merchant's dashboard",
        description:
          'Operators only (admin key). Sends a single-use link (7 days) by the delivery channel (the log and `payrail outbox`, or SMTP ' +
          'with PAYRAIL_SMTP_URL); the person chooses a password there and joins the merchant with the role (default owner).',
        tags: ['admin: merchants'],
        security: [{ adminKey: [] }],
        params: Type.Object({ id: Id() }),
        body: InvitationBody,
        response: {
          200: InvitationSent,
          404: errorEnvelopeSchema({ meaning: 'no merchant has this id', codes: 'not_found' }),
          409: errorEnvelopeSchema({ meaning: 'the team is full', codes: 'team_full' }),
          422: errorEnvelopeSchema({ meaning: 'the e-mail address is not one, or already has a dashboard account', codes: 'invalid_field', field: 'email' }),
          429: errorEnvelopeSchema({ meaning: 'too many e-mails to this address in the last hour', codes: 'rate_limited' }),
        },
      },
    },
    async (request) => {
      const merchant = await getMerchant(deps.db, request.params.id);
      const role = request.body.role ?? 'owner';
      await inviteMember(deps, { merchantId: merchant.id, merchantName: merchant.displayName ?? merchant.name }, request.body.email, role);
      return { success: true as const, email: request.body.email.trim().toLowerCase(), role };
    },
  );
}
