/**
 * The one failure type of the CLI. `exitCode` is what scripts branch on
 * (README, Exit codes): 1 when a request failed, 2 when the command line was wrong.
 * `body` is the server's raw answer, printed as-is under --json.
 */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: 1 | 2,
    readonly body?: unknown,
  ) {
    super(message)
  }
}

/** A usage error (exit 2): bad flag, missing argument, missing credential. */
export function usageError(message: string): CliError {
  return new CliError(message, 2)
}
