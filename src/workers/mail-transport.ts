import nodemailer, { type Transporter } from 'nodemailer';

// E-mail through the configured SMTP server (PAYRAIL_SMTP_URL, smtp:// or smtps://). One transport per URL for
// the process's life; every step of a delivery has a time limit, so a dead server cannot hold a worker.
const SMTP_CONNECTION_TIMEOUT_MS = 10_000;
const SMTP_GREETING_TIMEOUT_MS = 10_000;
const SMTP_SOCKET_TIMEOUT_MS = 20_000;

const transports = new Map<string, Transporter>();

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
}

export async function sendMail(smtp: { url: string; from: string }, mail: OutgoingMail): Promise<void> {
  let transport = transports.get(smtp.url);
  if (transport === undefined) {
    transport = nodemailer.createTransport({
      url: smtp.url,
      connectionTimeout: SMTP_CONNECTION_TIMEOUT_MS,
      greetingTimeout: SMTP_GREETING_TIMEOUT_MS,
      socketTimeout: SMTP_SOCKET_TIMEOUT_MS,
    });
    transports.set(smtp.url, transport);
  }
  await transport.sendMail({ from: smtp.from, to: mail.to, subject: mail.subject, text: mail.text });
}
