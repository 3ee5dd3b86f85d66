import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { setMerchantDefaults, updateMerchant } from '../../../payments/index.ts';
import { ApiError } from '../../../platform/lib/errors.ts';
import { html, type SafeHtml } from '../../../platform/lib/html.ts';
import { isMemberRole } from '../../domain/roles.ts';
import { endOwnSession } from '../../flows/sessions.ts';
import { changeMemberRole, inviteMember, removeMember } from '../../flows/team.ts';
import { problemOf } from '../../pages/form-errors.ts';
import { requireAction, viewerOf } from './guard.ts';
import { formText } from '../../pages/machinery.ts';
import { memberPage } from './layout.ts';
import { secondFactorPages } from './second-factor-pages.ts';
import { settingsView } from './settings-view.ts';

const DISPLAY_NAME_LENGTH_MAX = 100;

// Settings: display name, payment defaults, team, sessions, second factor. Every change is checked for the role here.
export async function settingsPages(app: FastifyInstance): Promise<void> {
  const deps = app.dashboardDeps;
  const db = deps.db;

  const show = async (request: FastifyRequest, reply: FastifyReply, notice?: SafeHtml, status = 200) =>
    memberPage(request, reply, { title: 'Settings', area: 'settings', status, body: await settingsView(deps, request, notice) });
  // A refused change is shown above the forms; anything else is the error page's.
  const attempt = async (request: FastifyRequest, reply: FastifyReply, change: () => Promise<string>) => {
    try {
      const done = await change();
      return show(request, reply, html`<p class="ok" role="status">${done}</p>`);
    } catch (error) {
      if (error instanceof ApiError && error.statusCode !== 403 && error.statusCode !== 404) return show(request, reply, problemOf(error), error.statusCode);
      throw error;
    }
  };

  app.get('/settings', async (request, reply) => show(request, reply));

  app.post('/settings/business', async (request, reply) => {
    const viewer = requireAction(request, 'business');
    return attempt(request, reply, async () => {
      const displayName = formText(request.body, 'displayName').trim();
      if (displayName.length > DISPLAY_NAME_LENGTH_MAX)
        throw new ApiError('invalid_field', 422, `the display name has at most ${DISPLAY_NAME_LENGTH_MAX} characters`);
      await updateMerchant(db, viewer.merchantId, { displayName: displayName === '' ? null : displayName });
      return 'Display name saved: the checkout shows it from now on.';
    });
  });

  app.post('/settings/defaults', async (request, reply) => {
    const viewer = requireAction(request, 'developer_settings');
    return attempt(request, reply, async () => {
      const url = (name: string) => formText(request.body, name).trim() || null;
      await setMerchantDefaults(
        db,
        viewer.merchantId,
        { defaultCallbackUrl: url('defaultCallbackUrl'), defaultSuccessUrl: url('defaultSuccessUrl'), defaultFailUrl: url('defaultFailUrl') },
        deps.allowPrivateCallbacks,
      );
      app.merchantKeyCache.clear(); // this process at once; the others on the NOTIFY
      return 'Payment defaults saved.';
    });
  });

  app.post('/settings/team/invite', async (request, reply) => {
    const viewer = requireAction(request, 'team');
    return attempt(request, reply, async () => {
      const role = formText(request.body, 'role');
      if (!isMemberRole(role)) throw new ApiError('invalid_field', 422, 'choose a role');
      await inviteMember(deps, viewer, formText(request.body, 'email'), role);
      return `Invitation sent to ${formText(request.body, 'email')}.`;
    });
  });

  app.post<{ Params: { id: string } }>('/settings/team/:id/role', async (request, reply) => {
    const viewer = requireAction(request, 'team');
    return attempt(request, reply, async () => {
      const role = formText(request.body, 'role');
      if (!isMemberRole(role)) throw new ApiError('invalid_field', 422, 'choose a role');
      await changeMemberRole(deps, viewer, memberIdOf(request.params.id), role);
      return 'Role changed.';
    });
  });

  app.post<{ Params: { id: string } }>('/settings/team/:id/remove', async (request, reply) => {
    const viewer = requireAction(request, 'team');
    return attempt(request, reply, async () => {
      await removeMember(deps, viewer, memberIdOf(request.params.id));
      return 'Member removed; their sessions have ended.';
    });
  });

  app.post<{ Params: { id: string } }>('/settings/sessions/:id/revoke', async (request, reply) => {
    const viewer = viewerOf(request);
    const sessionId = memberIdOf(request.params.id);
    await endOwnSession(db, viewer, sessionId);
    if (sessionId === viewer.sessionId) return reply.redirect('/dashboard/login', 303);
    return show(request, reply, html`<p class="ok" role="status">Session ended.</p>`);
  });

  await app.register(secondFactorPages);
}

function memberIdOf(text: string): number {
  const id = Number(text);
  if (!Number.isSafeInteger(id) || id < 1) throw new ApiError('not_found', 404, 'not found');
  return id;
}
