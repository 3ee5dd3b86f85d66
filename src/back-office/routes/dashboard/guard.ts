import type { FastifyRequest } from 'fastify';
import { ApiError } from '../../../platform/lib/errors.ts';
import { roleMay, type DashboardAction } from '../../domain/roles.ts';
import type { DashboardViewer } from '../../flows/sessions.ts';

declare module 'fastify' {
  interface FastifyRequest {
    viewer: DashboardViewer | null; // the signed-in member of a dashboard request; null on public pages
  }
}

// The member of a page behind sign-in (the member scope's hook has checked there is one).
export function viewerOf(request: FastifyRequest): DashboardViewer {
  if (!request.viewer) throw new ApiError('unauthorized', 401, 'sign in first');
  return request.viewer;
}

// Checked on the server for every action, whatever the page showed: a forged POST meets the same refusal.
export function requireAction(request: FastifyRequest, action: DashboardAction): DashboardViewer {
  const viewer = viewerOf(request);
  if (!roleMay(viewer.role, action)) throw new ApiError('forbidden', 403, `the ${viewer.role} role may not do this`);
  return viewer;
}
