import type { FastifyRequest } from 'fastify';
import { ApiError } from '../../../platform/lib/errors.ts';
import { operatorMay, type OperatorAction } from '../../domain/operator-roles.ts';
import type { OperatorViewer } from '../../flows/operator-sign-in.ts';

declare module 'fastify' {
  interface FastifyRequest {
    operator: OperatorViewer | null; // the signed-in operator of a console request; null on its public pages
  }
}

export function operatorOf(request: FastifyRequest): OperatorViewer {
  if (!request.operator) throw new ApiError('unauthorized', 401, 'sign in first');
  return request.operator;
}

// Checked on the server for every page and action, whatever the page showed: a forged POST meets the same refusal.
export function requireOperatorAction(request: FastifyRequest, action: OperatorAction): OperatorViewer {
  const operator = operatorOf(request);
  if (!operatorMay(operator.role, action)) throw new ApiError('forbidden', 403, `the ${operator.role} role may not do this`);
  return operator;
}
