import { describe, expect, it } from 'vitest';
import { CliError } from '../cli-error.js';
import { hostPortFlag } from './host-port.js';

describe('a flag that takes HOST:PORT', () => {
  it('reads the one grammar and names the flag when the text is not in it', () => {
    expect(hostPortFlag(':7447', '--tcp')).toEqual({ host: '127.0.0.1', port: 7447 });
    expect(() => hostPortFlag('::1:80', '--http')).toThrow(CliError);
    expect(() => hostPortFlag('::1:80', '--http')).toThrow(
      /^--http takes HOST:PORT with a port from 0 to 65535 \(/,
    );
  });
});
