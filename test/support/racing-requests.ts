import { adapterAnswer, reply, type FakeAdapter } from './fake-adapter.ts';

// A race's answer to the request that won it is held until every other request has been answered, or this long at
// most (a bug letting two win then shows as a failed assertion, not a timeout). A fixed sleep instead let a request
// reach the server after the winner had finished on a loaded machine, refused for another reason than the race.
const WINNER_HELD_MAX_MS = 20_000;

type Answers<Requests extends readonly (() => Promise<{ status: number }>)[]> = { [Index in keyof Requests]: Awaited<ReturnType<Requests[Index]>> };

// Sends the requests side by side; the adapter answers `approved` to any of `methods` once all but one came back
// refused. The gateway's response_timeout for those methods must outlast the hold.
export async function raceWithHeldAnswer<const Requests extends readonly (() => Promise<{ status: number }>)[]>(
  adapter: FakeAdapter,
  methods: readonly string[],
  requests: Requests,
): Promise<Answers<Requests>> {
  let othersAnswered!: () => void;
  const held = new Promise<void>((resolve) => {
    othersAnswered = resolve;
    setTimeout(resolve, WINNER_HELD_MAX_MS).unref();
  });
  for (const method of methods) {
    adapter.respond(method, async () => {
      await held;
      return reply.json(adapterAnswer.approved('gw'));
    });
  }
  let refused = 0;
  const answers = await Promise.all(
    requests.map((send) =>
      send().then((answer) => {
        if (answer.status !== 200 && ++refused === requests.length - 1) othersAnswered();
        return answer;
      }),
    ),
  );
  return answers as Answers<Requests>; // Promise.all over a mapped array loses the tuple's element types
}
