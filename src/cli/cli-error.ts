// The same exit code for the same kind of failure, whatever the command (listed in `payrail help`).
export const EXIT_CODES = {
  ok: 0,
  failed: 1, // the server refused or failed the request, a check failed, the service stopped on an error
  usage: 2, // unknown command or option, a missing or malformed value
  unreachable: 3, // no answer from the server: not running, wrong URL, TLS refused, timeout
  setup: 4, // local setup: invalid configuration, no admin key, the data folder in use
} as const;

export type ExitCode = (typeof EXIT_CODES)[keyof typeof EXIT_CODES];

export const EXIT_CODES_TEXT = `Exit codes: 0 done; 1 the server refused or failed the request (or a check failed); 2 usage error (unknown
command or option, a missing or malformed value); 3 cannot reach the server (not running, wrong URL, TLS, timeout);
4 local setup problem (invalid configuration, no admin key, the data folder in use by another process).`;

// Most CLI errors are the operator's input, caught before anything is sent: usage unless said otherwise.
export class CliError extends Error {
  readonly exitCode: ExitCode;

  constructor(message: string, exitCode: ExitCode = EXIT_CODES.usage) {
    super(message);
    this.exitCode = exitCode;
  }
}
