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

describe('contact links', () => {
  it('are read from SUPPORT_* and SOCIAL_LINKS, empty when unset', () => {
    expect(loadConfig({}).contact).toEqual({
      externalUrl: '',
      onlineChatUrl: '',
      LINEURL: '',
      email: '',
      phone: '',
      socials: [],
    });
    const config = loadConfig({
      SUPPORT_URL: 'https://help.ex.example',
      SUPPORT_PHONE: ' +1 202 555 0100 ',
      SOCIAL_LINKS: 'Telegram=https://t.me/ex,Discord = https://discord.gg/ex',
    });
    expect(config.contact).toMatchObject({
      externalUrl: 'https://help.ex.example',
      phone: '+1 202 555 0100',
      socials: [
        { name: 'Telegram', url: 'https://t.me/ex' },
        { name: 'Discord', url: 'https://discord.gg/ex' },
      ],
    });
  });

  it('refuse a link that is not http(s) at start instead of showing a dead one', () => {
    expect(() => loadConfig({ SUPPORT_CHAT_URL: 'chat.ex.example' })).toThrow(/SUPPORT_CHAT_URL/);
    expect(() => loadConfig({ SOCIAL_LINKS: 'Telegram' })).toThrow(/SOCIAL_LINKS/);
    expect(() => loadConfig({ SOCIAL_LINKS: 'X=javascript:alert(1)' })).toThrow(/SOCIAL_LINKS/);
  });
});

describe('roles', () => {
  const POSTGRES = 'postgres://postgres@127.0.0.1:5432/x';

  it('runs everything in one process by default, on SQLite', () => {
    const config = loadConfig({});
    expect(config.role).toBe('all-in-one');
    expect(config.databaseUrl).toBeNull();
  });

  it('takes the cluster roles and their settings', () => {
    const config = loadConfig({
      HALYARD_ROLE: 'gateway',
      DATABASE_URL: POSTGRES,
      HALYARD_CLUSTER: 'prod',
      HALYARD_NODE_ID: 'gw-1',
      HALYARD_NATS_URL: 'nats://10.0.0.5:4222',
      HALYARD_HEALTH_PORT: '9101',
    });
    expect(config.role).toBe('gateway');
    expect(config.cluster).toMatchObject({
      name: 'prod',
      nodeId: 'gw-1',
      natsUrl: 'nats://10.0.0.5:4222',
      leaseTtlMs: 2_000,
      projector: 'thread',
      healthPort: 9101,
    });
    expect(loadConfig({ HALYARD_ROLE: 'sequencer', DATABASE_URL: POSTGRES }).role).toBe('sequencer');
  });

  it('refuses an unknown role, and a cluster role without PostgreSQL, at start', () => {
    expect(() => loadConfig({ HALYARD_ROLE: 'leader' })).toThrow(/HALYARD_ROLE must be one of all-in-one/);
    expect(() => loadConfig({ HALYARD_ROLE: 'gateway' })).toThrow(/gateway needs DATABASE_URL.*PostgreSQL/);
    expect(() => loadConfig({ HALYARD_ROLE: 'sequencer', DATABASE_URL: 'file.sqlite' })).toThrow(
      /sequencer needs DATABASE_URL/,
    );
    expect(() => loadConfig({ HALYARD_PROJECTOR: 'fork' })).toThrow(/HALYARD_PROJECTOR/);
  });
});
