/**
 * PDFs as a reader sees them, through Debian's poppler-utils: `pdftotext` (the text, laid out as on
 * the page) and `pdftoppm` (a page as PNG). `npm test` on a machine without poppler skips the PDF
 * checks and says so; CI installs poppler-utils and runs them with REQUIRE_POPPLER=1, which turns
 * a missing poppler into a failure (.ci/run, "PDFs").
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export function popplerAvailable(): boolean {
  try {
    execFileSync('pdftotext', ['-v'], { stdio: 'ignore' });
    return true;
  } catch {
    if (process.env.REQUIRE_POPPLER === '1')
      throw new Error('REQUIRE_POPPLER=1 but pdftotext (poppler-utils) is not installed.');
    return false;
  }
}

function withFile<T>(pdf: Uint8Array, run: (dir: string, file: string) => T): T {
  const dir = mkdtempSync(join(tmpdir(), 'pdf-'));
  try {
    const file = join(dir, 'doc.pdf');
    writeFileSync(file, pdf);
    return run(dir, file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Each page's text in reading layout (`pdftotext -layout`), split at form feeds. */
export function pdfPages(pdf: Uint8Array): string[] {
  return withFile(pdf, (_dir, file) =>
    execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' })
      .split('\f')
      .filter((page, i, all) => i < all.length - 1 || page.trim() !== ''),
  );
}

/** Every page as a PNG at `dpi` (pdftoppm), in page order. */
export function pdfPngs(pdf: Uint8Array, dpi = 60): Buffer[] {
  return withFile(pdf, (dir, file) => {
    execFileSync('pdftoppm', ['-png', '-r', String(dpi), file, join(dir, 'page')]);
    return readdirSync(dir)
      .filter((name) => name.endsWith('.png'))
      .sort()
      .map((name) => readFileSync(join(dir, name)));
  });
}

/** The PNG's width and height, from its IHDR chunk. */
export function pngSize(png: Buffer): { width: number; height: number } {
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}
