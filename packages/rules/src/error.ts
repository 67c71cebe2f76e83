/** A failed rule: a message key of the `rules.` catalogue and its placeholders. `null` means valid. */
export interface RuleError {
  key: string;
  params?: Record<string, string | number>;
}

export function ruleError(key: string, params?: RuleError['params']): RuleError {
  return params === undefined ? { key } : { key, params };
}

/** Runs checks in order and returns the first failure: the spec lists its checks in the order the user sees them. */
export function firstError(...checks: Array<() => RuleError | null>): RuleError | null {
  for (const check of checks) {
    const error = check();
    if (error !== null) return error;
  }
  return null;
}
