/** Query-string booleans: true/false/1/0; anything else stays a string and fails @IsBoolean. */
export const toBoolean = ({ value }: { value: unknown }): unknown =>
  value === 'true' || value === '1' || value === true
    ? true
    : value === 'false' || value === '0' || value === false
      ? false
      : value;

/** Query-string integers: digits only; anything else stays a string and fails @IsInt. */
export const toInteger = ({ value }: { value: unknown }): unknown =>
  typeof value === 'string' && /^-?\d{1,9}$/.test(value) ? Number(value) : value;
