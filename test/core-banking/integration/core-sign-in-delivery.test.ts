import { once } from 'node:events';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLogin } from '../../../src/core-banking/flows/login-start.ts';
import { sweepSignInRecords } from '../../../src/workers/sign-in-housekeeping.ts';
import { deliverUserMessages } from '../../../src/workers/user-messages.ts';
import { testEngines } from '../../support/databases.ts';
import { startHarness, type Harness } from '../../support/harness.ts';
import { openTestSession } from '../../support/core-banking.ts';
import { adminCall, confirm, createPerson, login, TEST_PASSWORD } from '../../support/sign-in.ts';

const engines = await testEngines();

interface ReceivedMail {
  recipients: string[];
  data: string;
}

// Just enough of an SMTP server (RFC 5321) for nodemailer: no STARTTLS, no AUTH; `refuse` answers RCPT with 550.
async function startFakeSmtp(refuse = false): Promise<{ server: Server; port: number; mails: ReceivedMail[] }> {
  const mails: ReceivedMail[] = [];
  const server = createServer((socket: Socket) => {
    let buffer = '';
    let inData = false;
    let current: ReceivedMail = { recipients: [], data: '' };
    socket.write('220 fake.test ESMTP\r\n');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      for (;;) {
        if (inData) {
          const end = buffer.indexOf('\r\n.\r\n');
          if (end < 0) return;
          current.data = buffer.slice(0, end);
          buffer = buffer.slice(end + 5);
          inData = false;
          mails.push(current);
          current = { recipients: [], data: '' };
          socket.write('250 queued\r\n');
          continue;
        }
        const lineEnd = buffer.indexOf('\r\n');
        if (lineEnd < 0) return;
        const line = buffer.slice(0, lineEnd);
        buffer = buffer.slice(lineEnd + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO' || verb === 'HELO') socket.write('250 fake.test\r\n');
        else if (verb === 'MAIL') socket.write('250 ok\r\n');
        else if (verb === 'RCPT') {
          current.recipients.push(line.replace(/^RCPT TO:\s*<?([^>]*)>?.*$/i, '$1'));
          socket.write(refuse ? '550 mailbox unavailable\r\n' : '250 ok\r\n');
        } else if (verb === 'DATA') {
          inData = true;
          socket.write('354 go on\r\n');
        } else if (verb === 'QUIT') socket.end('221 bye\r\n');
        else socket.write('250 ok\r\n');
      }
    });
    socket.on('error', () => {});
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, port: (server.address() as AddressInfo).port, mails };
}

function capturingLogger(): { log: FastifyBaseLogger; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const log = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  return { log: log as unknown as FastifyBaseLogger, lines };
}

// The notifier of sign-in codes (issue 9): a user_messages row written with the pre-session, delivered by the
// worker to the service log (no SMTP) or by e-mail, its body blanked once it has no more use.
describe.each(engines)('delivery of sign-in codes on %s', (engine) => {
  let harness: Harness;

  beforeAll(async () => {
    harness = await startHarness(engine);
  });
  afterAll(async () => harness?.close());

  const outbox = async (userId: number) => (await adminCall(harness, 'GET', `/user-messages?user_id=${userId}`)).json().messages;
  const storedBody = async (id: number) =>
    ((await harness.database.db.execute(sql`select body from user_messages where id = ${id}`)) as unknown as { rows: { body: string }[] }).rows[0]?.body;

  it('writes the code to the service log without SMTP, marks it sent, shows it in the outbox until it expires', async () => {
    const person = await createPerson(harness);
    const started = await login(harness, person.email, TEST_PASSWORD, '198.51.100.40');
    const [pending] = await outbox(person.id);
    expect(pending).toMatchObject({ channel: 'log', status: 'pending', recipient: person.email, subject: 'Your Payrail sign-in code', attempts: 0 });
    const code = /\b(\d{6})\b/.exec(pending.body)?.[1];

    const { log, lines } = capturingLogger();
    await deliverUserMessages(harness.app.payrail, log);
    const written = lines.find((line) => line['userMessageId'] === pending.id);
    expect(written).toMatchObject({ channel: 'log', recipient: person.email, level: 30 });
    expect(String(written?.['text'])).toContain(code);
    const [sent] = await outbox(person.id);
    expect(sent).toMatchObject({ status: 'sent', body: pending.body, attempts: 1 });

    await deliverUserMessages(harness.app.payrail, log); // a sent message is not sent again
    expect(lines.filter((line) => line['userMessageId'] === pending.id)).toHaveLength(1);
    expect((await confirm(harness, started.json().session_token, { confirmation_code: code })).statusCode).toBe(200);

    await harness.database.db.execute(sql`update user_messages set expires_at = now() - interval '1 second' where id = ${pending.id}`);
    await deliverUserMessages(harness.app.payrail, log);
    expect(await storedBody(pending.id)).toBe('');
    expect((await outbox(person.id))[0]).toMatchObject({ status: 'sent', body: null });
  });

  it('never delivers an expired message, and blanks it', async () => {
    const person = await createPerson(harness);
    await login(harness, person.email, TEST_PASSWORD, '198.51.100.41');
    const [pending] = await outbox(person.id);
    await harness.database.db.execute(sql`update user_messages set expires_at = now() - interval '1 second' where id = ${pending.id}`);
    const { log, lines } = capturingLogger();
    await deliverUserMessages(harness.app.payrail, log);
    expect(lines.filter((line) => line['userMessageId'] === pending.id)).toEqual([]);
    expect(await storedBody(pending.id)).toBe('');
    expect((await outbox(person.id))[0]).toMatchObject({ status: 'expired', body: null });
  });

  it('sends the code by e-mail when SMTP is configured, masking the address and hiding the text in the outbox', async () => {
    const smtp = await startFakeSmtp();
    try {
      const context = {
        ...harness.app.payrail,
        config: { ...harness.config, smtp: { url: `smtp://127.0.0.1:${smtp.port}`, from: 'Payrail <no-reply@pay.test>' } },
      };
      const person = await createPerson(harness);
      const started = await startLogin(context, { login: person.email, password: TEST_PASSWORD, clientIp: '198.51.100.42' });
      expect(started.method).toBe('email');
      const [pending] = await outbox(person.id);
      expect(pending).toMatchObject({ channel: 'email', status: 'pending', body: null });
      expect(pending.recipient).not.toBe(person.email);
      expect(pending.recipient).toMatch(/^\w{2}\*\*\*@example\.com$/);

      const { log } = capturingLogger();
      await deliverUserMessages(context, log);
      expect(smtp.mails).toHaveLength(1);
      expect(smtp.mails[0]?.recipients).toEqual([person.email]);
      const code = /sign-in code is (\d{6})/.exec(smtp.mails[0]?.data ?? '')?.[1];
      expect(code).toMatch(/^\d{6}$/);
      expect(await storedBody(pending.id)).toBe(''); // an e-mail's code leaves the database once sent
      expect((await outbox(person.id))[0]).toMatchObject({ status: 'sent', body: null });
      expect((await confirm(harness, started.preSessionToken, { confirmation_code: code })).statusCode).toBe(200);
    } finally {
      smtp.server.close();
    }
  });

  it('records a refused e-mail and tries again later, keeping the code only until the message gives up or expires', async () => {
    const smtp = await startFakeSmtp(true);
    try {
      const context = { ...harness.app.payrail, config: { ...harness.config, smtp: { url: `smtp://127.0.0.1:${smtp.port}`, from: 'no-reply@pay.test' } } };
      const person = await createPerson(harness);
      await startLogin(context, { login: person.email, password: TEST_PASSWORD, clientIp: '198.51.100.43' });
      const { log, lines } = capturingLogger();
      await deliverUserMessages(context, log);
      const [failed] = await outbox(person.id);
      expect(failed).toMatchObject({ status: 'pending', attempts: 1, last_error: expect.stringContaining('550') });
      expect(lines.some((line) => line['msg'] === 'user message not delivered')).toBe(true);
      expect(JSON.stringify(lines)).not.toMatch(/sign-in code is \d{6}/);

      await harness.database.db.execute(sql`update user_messages set attempts = 4, locked_until = null where id = ${failed.id}`);
      await deliverUserMessages(context, log);
      expect((await outbox(person.id))[0]).toMatchObject({ status: 'failed', attempts: 5, last_error: expect.stringMatching(/^gave up: /) });
      expect(await storedBody(failed.id)).toBe('');
    } finally {
      smtp.server.close();
    }
  });

  it('drops pre-sessions out of every limit window and sessions ended 30 days ago, keeping the rest', async () => {
    const person = await createPerson(harness);
    await login(harness, person.email, TEST_PASSWORD, '198.51.100.44');
    await login(harness, person.email, TEST_PASSWORD, '198.51.100.44');
    await harness.database.db.execute(sql`update login_challenges set created_at = now() - interval '1 day'
      where id = (select min(id) from login_challenges where user_id = ${person.id})`);
    const live = await openTestSession(harness.database.db, person.id);
    await openTestSession(harness.database.db, person.id, -31 * 86_400_000);
    await openTestSession(harness.database.db, person.id, -86_400_000); // ended yesterday: kept for now
    await sweepSignInRecords(harness.app.payrail);
    const count = async (table: string) =>
      Number(
        (
          (await harness.database.db.execute(sql`select count(*)::int as n from ${sql.identifier(table)} where user_id = ${person.id}`)) as unknown as {
            rows: { n: number }[];
          }
        ).rows[0]?.n,
      );
    expect(await count('login_challenges')).toBe(1);
    expect(await count('sessions')).toBe(2);
    expect((await harness.app.inject({ method: 'GET', url: '/api/v1/auth/session', headers: { 'session-token': live } })).statusCode).toBe(200);
  });
});
