/**
 * The account identity rule (issue 27 item 16): blank, invisible-only, bidirectional-control,
 * control-character and lone-surrogate identities are refused with one message naming the field;
 * every ordinary identifier, in any script, with emoji or inner spaces, is accepted.
 */
import 'reflect-metadata';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { IDENTITY_MAX_LENGTH, identityProblem, IsAccountIdentity } from './account-identity.js';

class Probe {
  @IsAccountIdentity()
  identity!: string;
}

const REFUSED: [string, string, RegExp][] = [
  ['empty', '', /visible character/],
  ['one space', ' ', /visible character/],
  ['spaces', '     ', /visible character/],
  ['a tab (a control character)', '\t', /control characters/],
  ['a no-break space', '\u00A0', /visible character/],
  ['an ideographic space', '\u3000', /visible character/],
  ['en and em spaces', '\u2002\u2003', /visible character/],
  ['a lone zero-width space', '\u200B', /visible character/],
  ['zero-width joiner and non-joiner', '\u200D\u200C', /visible character/],
  ['a word joiner', '\u2060', /visible character/],
  ['a byte-order mark', '\uFEFF', /visible character/],
  ['a soft hyphen', '\u00AD', /visible character/],
  ['a combining grapheme joiner', '\u034F', /visible character/],
  ['a Hangul filler (default-ignorable, a letter)', '\u3164', /visible character/],
  ['a halfwidth Hangul filler', '\uFFA0', /visible character/],
  ['a variation selector', '\uFE0F', /visible character/],
  ['a Mongolian vowel separator', '\u180E', /visible character/],
  ['a line separator', '\u2028', /visible character/],
  ['a paragraph separator', '\u2029', /visible character/],
  ['a tag character (plane 14)', '\u{E0041}', /visible character/],
  ['spaces around a zero-width space', ' \u200B ', /visible character/],
  ['a leading U+202E', '\u202Eexe.txt', /bidirectional/],
  ['U+202E in the middle', 'invoice-\u202Egpj.exe', /bidirectional/],
  ['a trailing U+200F', 'household-1\u200F', /bidirectional/],
  ['U+200E', '\u200Ehousehold', /bidirectional/],
  ['the Arabic letter mark', 'a\u061Cb', /bidirectional/],
  ['LRE', '\u202Aa', /bidirectional/],
  ['RLE', '\u202Ba', /bidirectional/],
  ['PDF', 'a\u202C', /bidirectional/],
  ['LRO', '\u202Da', /bidirectional/],
  ['LRI', '\u2066a\u2069', /bidirectional/],
  ['RLI', '\u2067a', /bidirectional/],
  ['FSI', '\u2068a', /bidirectional/],
  ['PDI alone', '\u2069', /bidirectional/],
  ['a NUL', 'a\u0000b', /control characters/],
  ['a line feed', 'household\n1', /control characters/],
  ['DEL', 'a\u007F', /control characters/],
  ['a C1 control', 'a\u0085b', /control characters/],
  ['an escape sequence', '\u001B[31mred', /control characters/],
  ['a lone high surrogate', 'a\uD800b', /lone surrogate/],
  ['a lone low surrogate', '\uDC00', /lone surrogate/],
  ['one character too long', 'x'.repeat(IDENTITY_MAX_LENGTH + 1), /at most 200/],
];

const ACCEPTED: [string, string][] = [
  ['a partner path', 'household-1001/cold-wallet'],
  ['one character', 'x'],
  ['inner spaces', 'Smith household / Coinbase'],
  ['surrounding spaces (kept as sent: a lookup finds it as sent)', ' padded '],
  ['a zero-width joiner inside an emoji sequence', 'family-\u{1F468}\u200D\u{1F469}\u200D\u{1F467}'],
  ['an emoji with a variation selector', 'hearts-\u2764\uFE0F'],
  ['Arabic (right-to-left by itself, no control)', 'محفظة-١'],
  ['Hebrew', 'ארנק'],
  ['Chinese', '钱包-一'],
  ['accents', 'Zoë Ångström'],
  ['a surrogate pair', 'btc-\u{1F4B0}'],
  ['a soft hyphen inside a word', 'house\u00ADhold'],
  ['exactly the maximum length', 'x'.repeat(IDENTITY_MAX_LENGTH)],
];

describe('identityProblem', () => {
  it.each(REFUSED)('refuses %s', (_case, identity, message) => {
    expect(identityProblem(identity)).toMatch(message);
    expect(identityProblem(identity)).toMatch(/^identity /);
  });

  it.each(ACCEPTED)('accepts %s', (_case, identity) => {
    expect(identityProblem(identity)).toBeNull();
  });

  it('refuses what is not a string', () => {
    for (const value of [undefined, null, 5, {}, ['a']]) expect(identityProblem(value)).toMatch(/string/);
  });
});

describe('@IsAccountIdentity', () => {
  const errorsOf = (identity: unknown) =>
    validateSync(plainToInstance(Probe, { identity }), { validationError: { target: false, value: false } });

  it.each(REFUSED)('refuses %s with one message naming the property', (_case, identity, message) => {
    const errors = errorsOf(identity);
    expect(errors.map((e) => e.property)).toEqual(['identity']);
    const messages = Object.values(errors[0]!.constraints ?? {});
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(message);
  });

  it.each(ACCEPTED)('accepts %s', (_case, identity) => {
    expect(errorsOf(identity)).toEqual([]);
  });

  it('refuses a missing identity', () => {
    expect(errorsOf(undefined).map((e) => e.property)).toEqual(['identity']);
  });
});
