import type { Config } from '../platform/config.ts';
import { readServerAddress } from '../platform/runtime/server-address-file.ts';
import { CliError } from './cli-error.ts';

export interface ServerLocation {
  url: string;
  caFile: string | null; // the certificate the server said it presents; null: the usual trust (and PAYRAIL_TLS_CERT)
  source: string; // where the URL came from, for the message when nothing answers there
}

// --url, else PAYRAIL_PUBLIC_URL, else what `payrail start` wrote into the data folder, else HOST/PORT's default.
export function locateServer(config: Config, urlOption: string | undefined, environment: NodeJS.ProcessEnv): ServerLocation {
  if (urlOption !== undefined) {
    if (!/^https?:\/\/[^/\s]+\/?$/.test(urlOption)) throw new CliError(`--url must be the server's origin, like https://localhost:8443, not "${urlOption}"`);
    return { url: urlOption, caFile: null, source: '--url' };
  }
  if (environment['PAYRAIL_PUBLIC_URL']) return { url: config.publicUrl, caFile: null, source: 'PAYRAIL_PUBLIC_URL' };
  const found = readServerAddress(config.dataDir);
  switch (found.state) {
    case 'running':
      return { url: found.address.url, caFile: found.address.caFile, source: `${found.path} (written by payrail start, pid ${found.address.pid})` };
    case 'stale':
      return {
        url: config.publicUrl,
        caFile: null,
        source: `HOST and PORT, since ${found.path} names a server (pid ${found.address.pid}) that is no longer running`,
      };
    case 'unreadable':
      return { url: config.publicUrl, caFile: null, source: `HOST and PORT, since ${found.path} is unreadable (${found.reason})` };
    case 'absent':
      return { url: config.publicUrl, caFile: null, source: `HOST and PORT, since no server wrote ${found.path} (PAYRAIL_DATA_DIR)` };
  }
}
