import Type from 'typebox';
import type { Config } from '../platform/config.ts';
import { answerPart } from './admin-answers.ts';
import type { AdminClient } from './admin-client.ts';
import { CliError, EXIT_CODES } from './cli-error.ts';

export interface OperatorCommandOptions {
  email?: string | undefined;
  role?: string | undefined;
  json: boolean;
}

const Created = Type.Object({
  operator: Type.Object({ id: Type.Number(), email: Type.String(), role: Type.String() }),
  password: Type.String(),
  totp_secret: Type.String(),
  totp_uri: Type.String(),
});
const Listed = Type.Array(Type.Object({ id: Type.Number(), email: Type.String(), role: Type.String(), status: Type.String(), created_at: Type.String() }));

// payrail operator create --email E --role admin|support|finance    a console account (password + TOTP, shown once)
// payrail operator list
export async function runOperatorCommand(client: AdminClient, action: string, options: OperatorCommandOptions, print: (line: string) => void): Promise<void> {
  if (action === 'list') {
    const operators = answerPart(await client.call('GET', '/operators'), 'operators', Listed);
    if (options.json) return print(JSON.stringify(operators));
    for (const operator of operators) print(`#${operator.id} ${operator.email} ${operator.role} ${operator.status} since ${operator.created_at}`);
    return;
  }
  if (action !== 'create') throw new CliError(`unknown operator action "${action}": create | list`);
  const body = operatorBody(options);
  const created = answerPart({ created: await client.call('POST', '/operators', body) }, 'created', Created);
  printCreated(created, options.json, print);
}

// With PostgreSQL and no admin key (the key is off), the first operator is made on the database itself: the same flow.
export async function createOperatorOnTheDatabase(config: Config, options: OperatorCommandOptions, print: (line: string) => void): Promise<void> {
  const body = operatorBody(options);
  const [{ openStore }, { loadSecrets }, { createOperator }] = await Promise.all([
    import('../platform/runtime/open-store.ts'),
    import('../platform/runtime/secrets.ts'),
    import('../back-office/index.ts'),
  ]);
  const secrets = loadSecrets(config);
  const store = await openStore(config);
  try {
    const created = await createOperator({ db: store.database.db, masterKey: secrets.masterKey, scryptLogN: config.passwordScryptLogN }, body);
    printCreated({ operator: created.operator, password: created.password, totp_secret: created.totpSecret, totp_uri: created.totpUri }, options.json, print);
  } catch (error) {
    if (error instanceof Error && 'statusCode' in error) throw new CliError(`operator create failed: ${error.message}`, EXIT_CODES.failed);
    throw error;
  } finally {
    await store.close();
  }
}

function operatorBody(options: OperatorCommandOptions): { email: string; role: string } {
  if (!options.email) throw new CliError('operator create needs --email E');
  if (options.role !== 'admin' && options.role !== 'support' && options.role !== 'finance')
    throw new CliError('operator create needs --role admin|support|finance');
  return { email: options.email, role: options.role };
}

function printCreated(
  created: { operator: { id: number; email: string; role: string }; password: string; totp_secret: string; totp_uri: string },
  json: boolean,
  print: (line: string) => void,
): void {
  if (json) {
    print(JSON.stringify(created));
    return;
  }
  print(`operator #${created.operator.id} ${created.operator.email} (${created.operator.role}) created. Shown this once:`);
  print(`  password:     ${created.password}`);
  print(`  TOTP secret:  ${created.totp_secret}`);
  print(`  TOTP link:    ${created.totp_uri}`);
  print('Add the secret (or the link) to an authenticator app; sign in at /ops with the password, then the app’s code.');
}
