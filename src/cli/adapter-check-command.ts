import { parseArgs } from 'node:util';
import {
  CONFORMANCE_METHODS,
  ConformanceOptionsError,
  formatReport,
  runConformance,
  type ConformanceMethod,
  type ConformanceOptions,
} from '@payrail/adapter-kit/conformance';
import { errorMessage, isJsonObject, isOneOf } from '../platform/lib/type-guards.ts';
import { CliError, EXIT_CODES, EXIT_CODES_TEXT } from './cli-error.ts';

// payrail adapter-check: the adapter kit's conformance suite against a running adapter. Exit 0 when every check
// passes (or is skipped), 1 when one fails, 2 for a usage error.

const ADAPTER_CHECK_USAGE = `Usage: payrail adapter-check --url URL --sign-key KEY [options]

  --url URL                the adapter's base URL (requests go to URL/pay, URL/status, …)
  --sign-key KEY           the gateway's sign_key, 32 characters (or PAYRAIL_ADAPTER_SIGN_KEY)
  --api-key KEY            settings.api_key to send (default "conformance")
  --timeout-ms N           how long one answer may take (default 15000)
  --methods LIST           comma-separated, of ${CONFORMANCE_METHODS.join(',')} (default all)
  --card-approve PAN       a card the adapter approves at once (default 4242424242424242)
  --card-decline PAN       a card it declines at once (checks the decline reason)
  --card-callback PAN      a card answered pending and settled by callback (checks the callback)
  --card-payout PAN        a card payouts go to (default --card-approve)
  --callback-host HOST     where the suite's callback listener binds (default 127.0.0.1)
  --callback-port N        its port (default: any free one)
  --callback-url URL       the listener's origin as the adapter reaches it, if not http://HOST:PORT
  --callback-wait-ms N     how long to wait for a callback (default 5000)
  --settings JSON          provider keys for the settings block, e.g. '{"gateway_settings":{"acme_base_url":"http://…"}}'
  --provider-url-setting PATH
                           where in settings the adapter reads its provider's URL, e.g. gateway_settings.acme_base_url:
                           the suite's provider stub stands there for a few calls (provider 503, provider silent,
                           an unsigned call must never reach it); without it those checks are skipped
  --production             send settings.sandbox false (default true)
  --no-signature           the adapter does not validate X-SIGNATURE: skip the refusal checks
  --json                   print the report as JSON

${EXIT_CODES_TEXT}`;

const SIGN_KEY_ENV = 'PAYRAIL_ADAPTER_SIGN_KEY';

export async function runAdapterCheckCommand(argv: readonly string[], print: (line: string) => void, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      url: { type: 'string' },
      'sign-key': { type: 'string' },
      'api-key': { type: 'string' },
      'timeout-ms': { type: 'string' },
      methods: { type: 'string' },
      'card-approve': { type: 'string' },
      'card-decline': { type: 'string' },
      'card-callback': { type: 'string' },
      'card-payout': { type: 'string' },
      'callback-host': { type: 'string' },
      'callback-port': { type: 'string' },
      'callback-url': { type: 'string' },
      'callback-wait-ms': { type: 'string' },
      settings: { type: 'string' },
      'provider-url-setting': { type: 'string' },
      production: { type: 'boolean', default: false },
      'no-signature': { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    print(ADAPTER_CHECK_USAGE);
    return 0;
  }
  const signKey = values['sign-key'] ?? env[SIGN_KEY_ENV];
  if (values.url === undefined || signKey === undefined) throw new CliError(`adapter-check needs --url and --sign-key\n\n${ADAPTER_CHECK_USAGE}`);
  const options: ConformanceOptions = {
    url: values.url,
    signKey,
    sandbox: !values.production,
    validateSignature: !values['no-signature'],
    ...defined({
      apiKey: values['api-key'],
      timeoutMs: integerOption('--timeout-ms', values['timeout-ms']),
      methods: methodsOption(values.methods),
      cardApprove: values['card-approve'],
      cardDecline: values['card-decline'],
      cardCallback: values['card-callback'],
      cardPayout: values['card-payout'],
      callbackHost: values['callback-host'],
      callbackPort: integerOption('--callback-port', values['callback-port']),
      callbackPublicUrl: values['callback-url'],
      callbackWaitMs: integerOption('--callback-wait-ms', values['callback-wait-ms']),
      settings: settingsOption(values.settings),
      providerUrlSetting: values['provider-url-setting'],
    }),
  };
  let report: Awaited<ReturnType<typeof runConformance>>;
  try {
    report = await runConformance(options);
  } catch (error) {
    throw new CliError(errorMessage(error), error instanceof ConformanceOptionsError ? EXIT_CODES.usage : EXIT_CODES.failed);
  }
  print(values.json ? JSON.stringify(report, null, 2) : formatReport(report));
  return report.passed ? 0 : 1;
}

function integerOption(name: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (!/^[0-9]{1,9}$/.test(text)) throw new CliError(`${name} must be a whole number`);
  return Number(text);
}

const SETTINGS_OPTION_CHARS_MAX = 64 * 1024;

function settingsOption(text: string | undefined): Record<string, unknown> | undefined {
  if (text === undefined) return undefined;
  if (text.length > SETTINGS_OPTION_CHARS_MAX) throw new CliError(`--settings must be at most ${SETTINGS_OPTION_CHARS_MAX} characters`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new CliError('--settings must be a JSON object');
  }
  if (!isJsonObject(parsed)) throw new CliError('--settings must be a JSON object');
  return parsed;
}

function methodsOption(text: string | undefined): ConformanceMethod[] | undefined {
  if (text === undefined) return undefined;
  return text.split(',').map((text) => {
    const method = text.trim();
    if (!isOneOf(CONFORMANCE_METHODS, method)) throw new CliError(`--methods: unknown method "${method}" (${CONFORMANCE_METHODS.join(', ')})`);
    return method;
  });
}

function defined<Values extends Record<string, unknown>>(values: Values): Partial<Values> {
  const found: Partial<Values> = {};
  for (const key in values) if (values[key] !== undefined) found[key] = values[key];
  return found;
}
