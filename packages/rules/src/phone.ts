import { getCountries, getCountryCallingCode, parsePhoneNumberFromString } from 'libphonenumber-js';
import { type RuleError, ruleError } from './error.ts';
import { isBlank } from './number.ts';

/** Spec §5: a phone number without an area code is a mainland number. */
export const MAINLAND_AREA_CODE = '86';

/** Mainland mobile numbers (spec §5): 11 digits, the first two 13 to 19. */
const MAINLAND_PATTERN = /^1[3-9]\d{9}$/;

/** "+44", " 44 " → "44"; the area code as the server stores it. */
export function areaCodeDigits(areaCode: string): string {
  return areaCode.trim().replace(/^\+/, '');
}

/** Every region libphonenumber knows (ISO 3166 code and calling code, e.g. GB and "44"), for the area-code picker. */
export function phoneRegions(): { region: string; callingCode: string }[] {
  return getCountries().map((region) => ({ region, callingCode: getCountryCallingCode(region) }));
}

/**
 * The national number of `value` in the area code's numbering plan, or null
 * when it is not a valid number there: digits only (a trunk prefix such as the
 * UK's leading 0 is dropped), checked against the region's plan by
 * libphonenumber; +86 keeps the spec's mainland mobile rule.
 */
export function nationalPhone(value: string, areaCode: string = MAINLAND_AREA_CODE): string | null {
  const digits = value.trim();
  const code = areaCodeDigits(areaCode);
  if (!/^\d{1,17}$/.test(digits) || !/^\d{1,4}$/.test(code)) return null;
  if (code === MAINLAND_AREA_CODE) return MAINLAND_PATTERN.test(digits) ? digits : null;
  // libphonenumber throws on a calling code no region uses.
  if (!phoneRegions().some((region) => region.callingCode === code)) return null;
  const parsed = parsePhoneNumberFromString(digits, { defaultCallingCode: code });
  return parsed?.isValid() && parsed.countryCallingCode === code ? parsed.nationalNumber : null;
}

/** One rule for the browser and the server: a number valid in the picked area code's plan. */
export function checkPhone(value: string, areaCode: string = MAINLAND_AREA_CODE): RuleError | null {
  if (isBlank(value)) return ruleError('rules.phoneRequired');
  if (nationalPhone(value, areaCode) !== null) return null;
  const code = areaCodeDigits(areaCode);
  return code === MAINLAND_AREA_CODE
    ? ruleError('rules.phoneInvalid')
    : ruleError('rules.phoneInvalidFor', { areaCode: `+${code}` });
}
