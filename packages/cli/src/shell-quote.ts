const SAFE = /^[A-Za-z0-9_@%+=:,./-]+$/;

/** One argument quoted for a POSIX shell, so printed follow-up commands paste as they are. */
export function shellQuote(argument: string): string {
  if (SAFE.test(argument)) return argument;
  return `'${argument.replaceAll("'", `'\\''`)}'`;
}

/** A command line from its arguments, each quoted as needed. */
export function commandLine(args: readonly string[]): string {
  return args.map(shellQuote).join(' ');
}
