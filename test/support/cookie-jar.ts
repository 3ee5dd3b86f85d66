import type { LightMyRequestResponse } from 'fastify';

// A browser's cookies as inject() tests keep them: set by each answer, dropped when cleared or expired.
export function cookieJar(initialCookies: Record<string, string>) {
  const cookies = new Map(Object.entries(initialCookies));
  return {
    keep(response: LightMyRequestResponse): LightMyRequestResponse {
      for (const cookie of response.cookies) {
        if (cookie.value === '' || (cookie.expires && cookie.expires.getTime() < Date.now())) cookies.delete(cookie.name);
        else cookies.set(cookie.name, cookie.value);
      }
      return response;
    },
    header: () => [...cookies].map(([name, value]) => `${name}=${value}`).join('; '),
    value: (name: string) => cookies.get(name),
  };
}
