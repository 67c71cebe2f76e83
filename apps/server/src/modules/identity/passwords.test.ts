import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.ts';
import { hashPassword, verifyPassword } from './passwords.ts';

describe('password hashing', () => {
  it('uses argon2id at 64 MiB and 3 passes unless configured otherwise', async () => {
    const { passwordHashCost } = loadConfig({});
    expect(passwordHashCost).toEqual({ memoryKib: 65_536, passes: 3 });
    const hash = await hashPassword('secret123', passwordHashCost);
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=65536,p=\d+,t=3\$/);
    expect(await verifyPassword(hash, 'secret123')).toBe(true);
    expect(await verifyPassword(hash, 'secret124')).toBe(false);
  });

  it('verifies a hash made at another cost, since each hash records its own', async () => {
    const cheap = await hashPassword('secret123', { memoryKib: 1024, passes: 1 });
    expect(cheap).toMatch(/m=1024,p=\d+,t=1\$/);
    expect(await verifyPassword(cheap, 'secret123')).toBe(true);
    expect(await verifyPassword(null, 'secret123')).toBe(false);
  });

  it('reads the cost from PASSWORD_HASH_MEMORY_KIB and PASSWORD_HASH_PASSES', () => {
    const config = loadConfig({ PASSWORD_HASH_MEMORY_KIB: '19456', PASSWORD_HASH_PASSES: '2' });
    expect(config.passwordHashCost).toEqual({ memoryKib: 19_456, passes: 2 });
  });
});
