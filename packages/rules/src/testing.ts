import { LOCALES, messages } from '@halyard/protocol';
import type { RuleError } from './error.ts';

/**
 * Test helper: the key of a rule result, after checking that the `rules`
 * catalogue has the message and that the params fill exactly its placeholders,
 * so a typo in a key or a param fails the rule's own test.
 */
export function keyOf(error: RuleError | null): string | null {
  if (error === null) return null;
  for (const locale of LOCALES) {
    const template = messages[locale][error.key];
    if (template === undefined) throw new Error(`no ${locale} message for ${error.key}`);
    const placeholders = [...template.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();
    const params = Object.keys(error.params ?? {}).sort();
    if (placeholders.join() !== params.join()) {
      throw new Error(`${error.key} (${locale}) has placeholders [${placeholders}] but params [${params}]`);
    }
  }
  return error.key;
}
