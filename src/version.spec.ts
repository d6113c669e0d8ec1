import { readFileSync } from 'node:fs';
import { API_VERSION } from './version.js';

describe('API_VERSION', () => {
  it("is package.json's version, spelt with the API's two-digit month", () => {
    const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    const npmSpelling = API_VERSION.split('.')
      .map((part) => String(Number(part)))
      .join('.');
    expect(manifest.version).toBe(npmSpelling);
    expect(API_VERSION).toMatch(/^\d{4}\.\d{2}\.\d+$/);
  });
});
