/**
 * What an account `identity` (the partner's own identifier for an account, unique per tenant) may
 * be, wherever one is taken: the partner link (POST /v1/api/accounts), the admin create and the
 * CLI's `accounts create` (through AccountsService.create). An identity is shown to people (the
 * RIA's staff in the partner's tools, support, the audit trail), so one that looks empty or reads
 * differently from what it is (issue 27 item 16) is refused:
 *
 * - blank or invisible only: nothing but white space, format (Cf), control (Cc) and separator
 *   (Zs, Zl, Zp) characters and default-ignorable code points (a lone zero-width space, U+3164);
 * - a bidirectional control anywhere (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069): a
 *   leading U+202E shows "txt.exe" as "exe.txt";
 * - a control character anywhere (C0, DEL, C1: line breaks, escapes);
 * - ill-formed UTF-16 (a lone surrogate), which no database column stores as sent;
 * - more than IDENTITY_MAX_LENGTH UTF-16 code units.
 *
 * Lookups by identity (GET /v1/api/account/identity/{identity}, the `identity` filter of the tax,
 * checksum and report-snapshot routes) do not apply the rule: an account linked before it keeps
 * its identity and stays reachable, and an identity the rule refuses otherwise simply finds
 * nothing (docs/decisions.md).
 */
import { ValidateBy, type ValidationOptions } from 'class-validator';

export const IDENTITY_MAX_LENGTH = 200;

/** Unicode's Bidi_Control characters: each changes the order in which text around it is shown. */
const BIDI_CONTROLS = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/u;
const CONTROL = /\p{Cc}/u;
/** With the u flag a lone surrogate is a code point of its own, of category Cs; a pair is not. */
const LONE_SURROGATE = /\p{Cs}/u;
const INVISIBLE_ONLY = /^[\s\p{Cc}\p{Cf}\p{Zs}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}]*$/u;

/** Why `value` is not an acceptable identity (a message naming `field`), or null when it is. */
export function identityProblem(value: unknown, field = 'identity'): string | null {
  if (typeof value !== 'string') return `${field} must be a string.`;
  if (value.length > IDENTITY_MAX_LENGTH)
    return `${field} must be at most ${IDENTITY_MAX_LENGTH} characters.`;
  if (LONE_SURROGATE.test(value))
    return `${field} must be well-formed Unicode (it contains a lone surrogate).`;
  if (BIDI_CONTROLS.test(value))
    return `${field} must not contain bidirectional control characters (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069).`;
  if (CONTROL.test(value)) return `${field} must not contain control characters.`;
  if (INVISIBLE_ONLY.test(value))
    return `${field} must contain a visible character: it is empty, blank or invisible only.`;
  return null;
}

/** The identity rule as one class-validator decorator: one message naming the property. */
export function IsAccountIdentity(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'accountIdentity',
      validator: {
        validate: (value: unknown) => identityProblem(value) === null,
        defaultMessage: (args) => identityProblem(args?.value, args?.property) ?? '',
      },
    },
    options,
  );
}
