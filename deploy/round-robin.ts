// The next backend that is up and not yet tried for this connection, round-robin: the example balancer's
// (deploy/tls-balancer.ts) and the chaos run's (bench/chaos/balancer.ts) choice.
export function roundRobin<B extends { up: boolean }>(backends: readonly B[]): (tried: ReadonlySet<B>) => B | null {
  let next = 0;
  return (tried) => {
    for (let offset = 0; offset < backends.length; offset += 1) {
      const backend = backends[(next + offset) % backends.length]!;
      if (backend.up && !tried.has(backend)) {
        next = (next + offset + 1) % backends.length;
        return backend;
      }
    }
    return null;
  };
}
