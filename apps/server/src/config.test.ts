import { describe, expect, it } from 'vitest';
import { configWarnings, loadConfig } from './config.ts';
import { demoXpub } from './modules/wallet/config.ts';

/** Live mode asks for a deposit xpub; the demo one stands in. */
const LIVE = { HALYARD_DEMO: 'false', WALLET_XPUB: demoXpub() } as const;

describe('public address and wallet sign-in hosts', () => {
  it('allows PUBLIC_URL’s host and, in demo, the loopback names at the port', () => {
    const config = loadConfig({ PUBLIC_URL: 'https://ex.example/', PORT: '8101' });
    expect(config.publicUrl).toBe('https://ex.example');
    expect(config.siweDomains).toEqual(['ex.example', 'localhost:8101', '127.0.0.1:8101', '[::1]:8101']);
  });

  it('allows PUBLIC_URL’s host only outside demo, and leaves port 80 out as browsers do', () => {
    expect(loadConfig({ ...LIVE, PUBLIC_URL: 'https://ex.example' }).siweDomains).toEqual(['ex.example']);
    expect(loadConfig({ PORT: '80' }).siweDomains).toEqual(['localhost', '127.0.0.1', '[::1]']);
  });

  it('takes SIWE_DOMAINS as the whole list, trimmed and in lower case', () => {
    const config = loadConfig({
      PUBLIC_URL: 'https://ex.example',
      SIWE_DOMAINS: ' App.Ex.example , ex.example:8443,',
    });
    expect(config.siweDomains).toEqual(['app.ex.example', 'ex.example:8443']);
  });

  it('warns when PUBLIC_URL is unset outside demo, and only then', () => {
    const [warning] = configWarnings(loadConfig({ ...LIVE, PORT: '9000' }));
    expect(warning).toMatch(/PUBLIC_URL is not set.*http:\/\/localhost:9000/);
    expect(configWarnings(loadConfig({ PORT: '9000' }))).toEqual([]);
    expect(configWarnings(loadConfig({ ...LIVE, PUBLIC_URL: 'https://ex.example' }))).toEqual([]);
  });
});
