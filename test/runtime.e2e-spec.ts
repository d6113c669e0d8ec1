/**
 * Supported runtime (issue 17, item 1): Node 24 or newer. On an older Node the service and the
 * CLI stop with one sentence, before any dependency loads. The old Node is simulated: a preloaded
 * module (NODE_OPTIONS=--import) makes process.versions.node read 22.11.0 in the child process.
 */
import { DIST_CLI, DIST_MAIN, run, tempDataDir } from './support/process.js';
import { runtimeProblem } from '../src/runtime-check.js';

const pretendNode = (version: string) =>
  `--import=data:text/javascript,Object.defineProperty(process.versions,'node',{value:'${version}'})`;

const SENTENCE_22 =
  'This service needs Node.js 24 or newer but is running on Node.js 22.11.0: ' +
  'install Node.js 24 LTS (https://nodejs.org/en/download, or `nvm install 24`) and try again.';

describe('supported runtime (e2e)', () => {
  it('the service on Node 22 exits 1 with one sentence and never listens', async () => {
    const data = tempDataDir();
    try {
      const result = await run(
        DIST_MAIN,
        [],
        { DATA_DIR: data.dir, NODE_OPTIONS: pretendNode('22.11.0') },
        30_000,
      );
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr.trim().split('\n')).toEqual([SENTENCE_22]);
    } finally {
      data.remove();
    }
  });

  it('the CLI on Node 22 exits 1 with the same sentence, even for --version', async () => {
    const result = await run(DIST_CLI, ['--version'], { NODE_OPTIONS: pretendNode('22.11.0') }, 30_000);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr.trim().split('\n')).toEqual([SENTENCE_22]);
  });

  it('the CLI on this Node (24 or newer) still answers --version', async () => {
    const result = await run(DIST_CLI, ['--version'], {}, 30_000);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
  });

  it('accepts 24 and later, refuses anything older', () => {
    expect(runtimeProblem('24.0.0')).toBeUndefined();
    expect(runtimeProblem('24.21.0')).toBeUndefined();
    expect(runtimeProblem('26.10.0')).toBeUndefined();
    expect(runtimeProblem('23.11.1')).toContain('running on Node.js 23.11.1');
    expect(runtimeProblem('20.20.2')).toContain('needs Node.js 24 or newer');
  });
});
