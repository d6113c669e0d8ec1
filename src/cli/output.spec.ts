import { outputFormat, renderTable } from './output.js';

describe('CLI output', () => {
  it('is a table on a terminal and JSON lines elsewhere, unless --json or --table says otherwise', () => {
    expect(outputFormat({}, true)).toBe('table');
    expect(outputFormat({}, false)).toBe('json');
    expect(outputFormat({ json: true }, true)).toBe('json');
    expect(outputFormat({ table: true }, false)).toBe('table');
    expect(() => outputFormat({ json: true, table: true }, true)).toThrow(
      'Use either --json or --table, not both.',
    );
  });

  it('aligns columns under upper-case titles; lists join with commas, nulls show as -', () => {
    const rows = [
      { id: 'a', scopes: ['partner', 'admin'], at: null as Date | null, ok: true },
      { id: 'longer-id', scopes: [], at: new Date('2026-01-02T03:04:05.000Z'), ok: false },
    ];
    expect(
      renderTable(rows, [
        ['id', (r) => r.id],
        ['scopes', (r) => r.scopes],
        ['ok', (r) => r.ok],
        ['at', (r) => r.at],
      ]),
    ).toBe(
      'ID         SCOPES         OK     AT\n' +
        'a          partner,admin  true   -\n' +
        'longer-id                 false  2026-01-02T03:04:05.000Z\n',
    );
    expect(renderTable([], [['id', (r: { id: string }) => r.id]])).toBe('(none)\n');
  });
});
