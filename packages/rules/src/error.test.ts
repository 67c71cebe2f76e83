import { describe, expect, it } from 'vitest';
import { firstError, ruleError } from './error.ts';

describe('firstError', () => {
  it('returns the first failure and does not run the checks after it', () => {
    const ran: string[] = [];
    const check = (name: string, fails: boolean) => () => {
      ran.push(name);
      return fails ? ruleError(`rules.${name}`) : null;
    };
    expect(firstError(check('a', false), check('b', true), check('c', true))).toEqual({ key: 'rules.b' });
    expect(ran).toEqual(['a', 'b']);
  });

  it('is null when every check passes, or when there are none', () => {
    expect(
      firstError(
        () => null,
        () => null,
      ),
    ).toBeNull();
    expect(firstError()).toBeNull();
  });
});
