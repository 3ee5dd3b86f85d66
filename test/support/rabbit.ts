import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { connect as connectTcp } from 'node:net';
import { promisify } from 'node:util';
import { connect, type ChannelModel } from 'amqplib';

// Tests that need RabbitMQ use the broker of this machine (TEST_RABBIT_URL, default amqp://guest:guest@127.0.0.1:5672).
// Under CI=true an unreachable broker fails them (they run and fail to connect); elsewhere they are skipped loudly.
export const TEST_RABBIT_URL = process.env['TEST_RABBIT_URL'] ?? 'amqp://guest:guest@127.0.0.1:5672';
const runningInCi = process.env['CI'] === 'true';
const BROKER_WAIT_MS_MAX = 30_000;
const run = promisify(execFile);

async function brokerReachable(): Promise<boolean> {
  try {
    const model = await connect(TEST_RABBIT_URL, { timeout: 3000 });
    await model.close();
    return true;
  } catch {
    return false;
  }
}

export async function rabbitAvailable(): Promise<boolean> {
  if (runningInCi || (await brokerReachable())) return true;
  console.warn(`RabbitMQ at ${TEST_RABBIT_URL.replace(/\/\/[^@/]*@/, '//***@')} is unreachable: RabbitMQ tests are SKIPPED (they fail under CI=true)`);
  return false;
}

// A queue name of this run alone, so test files and runs never share a queue.
export function uniqueQueueName(label: string): string {
  return `payrail.test.${label}.${process.pid}.${randomBytes(4).toString('hex')}`;
}

// A plain connection for what a test does on the broker directly (inspect, publish, delete queues).
export function openBrokerConnection(): Promise<ChannelModel> {
  return connect(TEST_RABBIT_URL, { timeout: 3000 });
}

export async function deleteQueues(names: readonly string[]): Promise<void> {
  const model = await openBrokerConnection();
  try {
    const channel = await model.createChannel();
    for (const name of names) await channel.deleteQueue(name);
  } finally {
    await model.close();
  }
}

// A broker restart as an operator does it: the RabbitMQ application stops (every connection closes, durable queues
// and persistent messages stay on disk) and starts again. `whileStopped` runs while the broker is down.
export async function restartBroker(whileStopped: () => Promise<void> = async () => {}): Promise<void> {
  await run('rabbitmqctl', ['stop_app']);
  try {
    await whileStopped();
  } finally {
    await run('rabbitmqctl', ['start_app']);
    await waitForBrokerPort();
  }
}

async function waitForBrokerPort(): Promise<void> {
  const { hostname, port } = new URL(TEST_RABBIT_URL);
  const deadline = Date.now() + BROKER_WAIT_MS_MAX;
  while (Date.now() < deadline) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = connectTcp({ host: hostname, port: Number(port || 5672) }, () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open && (await brokerReachable())) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`RabbitMQ did not come back within ${BROKER_WAIT_MS_MAX} ms`);
}
