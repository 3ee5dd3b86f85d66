import type { AppContext } from '../../app-context.ts';
import type { Db } from '../../platform/database.ts';

// What the dashboard's flows need of the configuration, handed in by the route plugin (flows read no config).
export interface DashboardDeps {
  db: Db;
  masterKey: Buffer;
  publicUrl: string; // links in e-mails lead here
  messageChannel: 'email' | 'log'; // log: development delivery, read with `payrail outbox`
  scryptLogN: number;
  signUpOpen: boolean; // PAYRAIL_SIGNUP
  signIn: { windowS: number; accountMax: number; ipMax: number };
  allowPrivateCallbacks: boolean;
}

export function dashboardDepsOf(context: AppContext): DashboardDeps {
  const config = context.config;
  return {
    db: context.database.db,
    masterKey: context.masterKey,
    publicUrl: config.publicUrl,
    messageChannel: config.smtp ? 'email' : 'log',
    scryptLogN: config.passwordScryptLogN,
    signUpOpen: config.signUp === 'open',
    signIn: { windowS: config.signIn.windowS, accountMax: config.signIn.accountMax, ipMax: config.signIn.ipMax },
    allowPrivateCallbacks: config.allowPrivateCallbacks,
  };
}
