// Every command of the payrail CLI: what it is for, its actions, and the options each action accepts. Help text and
// option checking both come from here, so an option is accepted exactly where its help lists it.

export interface ActionSpec {
  synopsis: string; // the command line, as `payrail <synopsis>`
  description: string;
  options: readonly string[]; // besides --help, and --url and --json for admin commands
  positionals?: number; // arguments after the action (conflicts resolve ID)
}

export interface CommandSpec {
  summary: string;
  admin: boolean; // talks to a running server over the admin API
  actions: Readonly<Record<string, ActionSpec>>; // '' for a command without actions
  defaultAction?: string; // taken when no action is given
}

const NO_ACTION = '';

export const COMMANDS: Readonly<Record<string, CommandSpec>> = {
  start: {
    summary: 'start the service (default: everything in one process)',
    admin: false,
    actions: {
      [NO_ACTION]: {
        synopsis: 'start [--role all|api|worker|sandbox-adapter] [--transport http|rabbit]',
        description:
          'start the service; it writes its URL into the data folder (server.json) for the other commands.\n' +
          '--role: all (default), api, worker or sandbox-adapter. --transport (sandbox-adapter only): rabbit also\n' +
          'consumes its RabbitMQ queue (default PAYRAIL_SANDBOX_ADAPTER_TRANSPORT).',
        options: ['role', 'transport'],
      },
    },
  },
  migrate: {
    summary: 'apply database migrations and exit',
    admin: false,
    actions: {
      [NO_ACTION]: { synopsis: 'migrate', description: 'apply database migrations and exit (the server must not run on an embedded database)', options: [] },
    },
  },
  merchant: {
    summary: 'create, list, update, disable merchants; their keys and commissions',
    admin: true,
    actions: {
      create: {
        synopsis: 'merchant create --name NAME [--display-name TEXT]',
        description: 'create a merchant and print its sandbox and production keys (shown once)',
        options: ['name', 'display-name'],
      },
      list: { synopsis: 'merchant list', description: 'list merchants', options: [] },
      get: { synopsis: 'merchant get --id ID', description: 'show one merchant', options: ['id'] },
      update: {
        synopsis: 'merchant update --id ID [--name NAME] [--display-name TEXT]',
        description: 'rename a merchant; the display name is what the checkout shows ("" clears it)',
        options: ['id', 'name', 'display-name'],
      },
      'rotate-key': {
        synopsis: 'merchant rotate-key --id ID --environment sandbox|production',
        description: 'replace a key; the old one stops working at once',
        options: ['id', 'environment'],
      },
      disable: { synopsis: 'merchant disable --id ID', description: 'refuse the merchant’s keys until enabled again', options: ['id'] },
      enable: { synopsis: 'merchant enable --id ID', description: 'accept the merchant’s keys again', options: ['id'] },
      approve: {
        synopsis: 'merchant approve --id ID',
        description: 'approve a merchant that signed up in the dashboard: it may then issue its production key there',
        options: ['id'],
      },
      reject: {
        synopsis: 'merchant reject --id ID --reason TEXT',
        description: 'reject a merchant waiting for review, with the reason its dashboard shows: it gets no production key',
        options: ['id', 'reason'],
      },
      invite: {
        synopsis: 'merchant invite --id ID --email E [--member-role owner|developer|support|viewer]',
        description: 'send a person a link to join the merchant’s dashboard (default role owner; the way in when sign-up is closed)',
        options: ['id', 'email', 'member-role'],
      },
      commissions: { synopsis: 'merchant commissions --id ID', description: 'show the commission terms for pay, payout and refund', options: ['id'] },
      'set-commission': {
        synopsis: 'merchant set-commission --id ID --operation pay|payout|refund (--percent 2.5 --fixed 30 | --clear)',
        description: 'set one operation’s commission (--fixed in minor units), or --clear it',
        options: ['id', 'operation', 'percent', 'fixed', 'clear'],
      },
    },
  },
  gateway: {
    summary: 'a merchant’s gateways: add, list, update, disable, enable',
    admin: true,
    actions: {
      add: {
        synopsis: 'gateway add --merchant ID --alias NAME --environment sandbox|production (--settings JSON | --settings-file PATH) [--routing JSON]',
        description: 'add a gateway with its settings (spec 2.10) and optional routing rules',
        options: ['merchant', 'alias', 'environment', 'settings', 'settings-file', 'routing'],
      },
      list: { synopsis: 'gateway list --merchant ID', description: 'list a merchant’s gateways', options: ['merchant'] },
      update: {
        synopsis: 'gateway update --merchant ID --id GID (--settings JSON | --settings-file PATH | --alias NAME | --routing JSON|null)',
        description: 'change a gateway’s settings, alias or routing rules (null removes them)',
        options: ['merchant', 'id', 'settings', 'settings-file', 'alias', 'routing'],
      },
      disable: { synopsis: 'gateway disable --merchant ID --id GID', description: 'stop routing payments to a gateway', options: ['merchant', 'id'] },
      enable: { synopsis: 'gateway enable --merchant ID --id GID', description: 'route payments to it again', options: ['merchant', 'id'] },
      'settlement-columns': {
        synopsis: 'gateway settlement-columns --id GID [--mapping JSON|null]',
        description:
          'show, or set (--mapping), which columns of the provider’s settlement file hold what, e.g.\n' +
          '{"gatewayToken":"psp_ref","amount":"gross","currency":"ccy","fee":"fee","status":"state","date":"booked_at"}',
        options: ['id', 'mapping'],
      },
    },
  },
  dispute: {
    summary: 'list, review and resolve disputes',
    admin: true,
    actions: {
      list: {
        synopsis: 'dispute list [--merchant ID] [--status open|under_review|won|lost]',
        description: 'list disputes, of one merchant or status',
        options: ['merchant', 'status'],
      },
      get: { synopsis: 'dispute get --token T', description: 'a dispute with its documents', options: ['token'] },
      review: { synopsis: 'dispute review --token T', description: 'put an open dispute under review', options: ['token'] },
      resolve: {
        synopsis: 'dispute resolve --token T --outcome won|lost [--note TEXT]',
        description: 'won: the hold goes back to available; lost: the merchant is debited (the note is shown to the merchant)',
        options: ['token', 'outcome', 'note'],
      },
    },
  },
  conflicts: {
    summary: 'late provider answers that contradicted a final status',
    admin: true,
    defaultAction: 'list',
    actions: {
      list: { synopsis: 'conflicts [list] [--all]', description: 'unresolved conflicts (--all: every one)', options: ['all'] },
      resolve: {
        synopsis: 'conflicts resolve ID --accept|--dismiss [--operator NAME]',
        description: 'accept: apply the reported status (ledger posting, notification); dismiss: keep the final one',
        options: ['accept', 'dismiss', 'operator'],
        positionals: 1,
      },
    },
  },
  user: {
    summary: 'people who sign in to the core banking API',
    admin: true,
    actions: {
      create: {
        synopsis:
          'user create --email E --phone P --password PW|- --name N --surname S [--company C] [--currency EUR] [--wallet-type personal|business] [--country GB]',
        description: 'create a person who signs in to the core banking API (--password -: read it from standard input, so it does not echo)',
        options: ['email', 'phone', 'password', 'name', 'surname', 'company', 'currency', 'wallet-type', 'country'],
      },
      list: { synopsis: 'user list', description: 'list profiles', options: [] },
    },
  },
  'app-token': {
    summary: 'tokens of internal services (header app-token)',
    admin: true,
    actions: {
      create: { synopsis: 'app-token create --name NAME', description: 'create a token for an internal service; shown once', options: ['name'] },
      list: { synopsis: 'app-token list', description: 'list app tokens', options: [] },
      revoke: { synopsis: 'app-token revoke --id ID', description: 'revoke a token', options: ['id'] },
    },
  },
  outbox: {
    summary: 'messages to people (sign-in codes)',
    admin: true,
    actions: {
      [NO_ACTION]: {
        synopsis: 'outbox [--limit N]',
        description: 'messages to people (sign-in codes), newest first (--limit 1..500, default 20); without SMTP their text is shown until the code expires',
        options: ['limit'],
      },
    },
  },
  operator: {
    summary: 'operator accounts of the console at /ops (password and TOTP)',
    admin: true,
    actions: {
      create: {
        synopsis: 'operator create --email E --role admin|support|finance',
        description:
          'create an operator and print its password and TOTP secret (shown once); sign-in at /ops asks for both.\n' +
          'With DATABASE_URL and no PAYRAIL_ADMIN_KEY (the admin key off), it writes to the database itself',
        options: ['email', 'role'],
      },
      list: { synopsis: 'operator list', description: 'list operator accounts', options: [] },
    },
  },
  audit: {
    summary: 'read the audit log (who changed what, when)',
    admin: true,
    actions: {
      [NO_ACTION]: {
        synopsis: 'audit [--subject TYPE[:ID]] [--actor A] [--action X] [--from T] [--to T] [--limit N|all] [--csv]',
        description:
          'the audit log, newest first (default 50 events). --subject merchant or merchant:12; --actor operator:3, member:5,\n' +
          'key:sk_live_AbCd, admin-key or system:status-checker; --from/--to ISO 8601 times; --csv prints CSV (with --limit all:\n' +
          'every matching event)',
        options: ['subject', 'actor', 'action', 'from', 'to', 'limit', 'csv'],
      },
    },
  },
  reconcile: {
    summary: 'reconcile a provider’s settlement file with Payrail’s payments',
    admin: true,
    actions: {
      [NO_ACTION]: {
        synopsis: 'reconcile --gateway GID --file settlement.csv [--csv]',
        description:
          'upload the file (streamed) and print the summary: matched, missing in Payrail or in the file, mismatches, fees;\n' +
          'the same file again prints the first reconciliation. --csv prints the whole report as CSV instead',
        options: ['gateway', 'file', 'csv'],
      },
    },
  },
  stats: {
    summary: "the merchant dashboard's daily payment aggregates",
    admin: true,
    actions: {
      backfill: {
        synopsis: 'stats backfill',
        description:
          'compute the daily aggregates again from every payment (a database with payments from before them); payments\n' +
          'keep being written meanwhile, and with the embedded database the server waits for it',
        options: [],
      },
    },
  },
  listen: {
    summary: 'forward the sandbox events as they happen to a local endpoint',
    admin: false,
    actions: {
      [NO_ACTION]: {
        synopsis: 'listen --key SANDBOX_KEY --forward-to URL [--url URL] [--events payment.*,refund.*]',
        description:
          'stream the sandbox events (GET /api/v1/events/stream) and POST each, with the very headers and body of a delivery,\n' +
          'to --forward-to; one line per event. Reconnects by itself, resuming after the last event; Ctrl-C ends it',
        options: ['key', 'forward-to', 'url', 'events'],
      },
    },
  },
  trigger: {
    summary: 'make the sandbox produce an event (a test payment through the merchant API)',
    admin: false,
    actions: {
      [NO_ACTION]: {
        synopsis: 'trigger EVENT_TYPE --key SANDBOX_KEY [--url URL]',
        description:
          'create the sandbox payment that produces EVENT_TYPE: payment.approved, payment.declined, refund.approved,\n' +
          'payout.approved or dispute.opened; prints the payment token',
        options: ['key', 'url'],
        positionals: 1,
      },
    },
  },
  'adapter-check': {
    summary: 'run the adapter conformance suite against a running adapter',
    admin: false,
    actions: {
      [NO_ACTION]: {
        synopsis: 'adapter-check --url URL --sign-key KEY [options]',
        description: 'run the adapter conformance suite against a running adapter (all options: payrail adapter-check --help)',
        options: [],
      },
    },
  },
  help: {
    summary: 'this text, or one command’s (payrail help COMMAND)',
    admin: false,
    actions: { [NO_ACTION]: { synopsis: 'help [COMMAND [ACTION]]', description: 'this text, or one command’s', options: [], positionals: 2 } },
  },
};

// Options of every admin command, besides its own.
export const ADMIN_OPTIONS = ['url', 'json'] as const;

export function isAction(spec: CommandSpec, action: string | undefined): action is string {
  return action !== undefined && Object.hasOwn(spec.actions, action);
}

export function hasActions(spec: CommandSpec): boolean {
  return !Object.hasOwn(spec.actions, NO_ACTION);
}
