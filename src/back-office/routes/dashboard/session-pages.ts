import type { FastifyInstance } from 'fastify';
import { endOwnSession, switchEnvironment } from '../../flows/sessions.ts';
import { viewerOf } from './guard.ts';
import { formText } from '../../pages/machinery.ts';
import { clearSessionCookie } from './session-cookie.ts';

// The test-mode switch and logout: in the frame of every member page.
export async function sessionPages(app: FastifyInstance): Promise<void> {
  const db = app.payrail.database.db;

  app.post('/mode', async (request, reply) => {
    const viewer = viewerOf(request);
    const environment = formText(request.body, 'environment') === 'production' ? 'production' : 'sandbox';
    await switchEnvironment(db, viewer, environment);
    return reply.redirect(modeSwitchTarget(formText(request.body, 'back')), 303);
  });

  app.post('/logout', async (request, reply) => {
    const viewer = viewerOf(request);
    await endOwnSession(db, viewer, viewer.sessionId);
    clearSessionCookie(reply);
    return reply.redirect('/dashboard/login', 303);
  });
}

const AREA_PAGE = /^\/dashboard(\/(payments|payouts|refunds|disputes|balance|developers|settings))?(?=[/?]|$)/;

// After the switch: the area the member was in, on this site only. A record's page belongs to one environment, so a
// detail page leads back to its list; a list keeps its filters.
export function modeSwitchTarget(back: string): string {
  const area = AREA_PAGE.exec(back)?.[0];
  if (area === undefined) return '/dashboard';
  const rest = back.slice(area.length);
  return rest.startsWith('?') && !rest.includes('#') ? `${area}${rest}` : area;
}
