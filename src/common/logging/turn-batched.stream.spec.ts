import { TurnBatchedStream } from './turn-batched.stream.js';

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('TurnBatchedStream', () => {
  it('hands the lines of one turn to the destination in one write, in order, at the turn’s end', async () => {
    const writes: string[] = [];
    const stream = new TurnBatchedStream({ write: (text: string) => writes.push(text) });
    stream.write('{"n":1}\n');
    stream.write('{"n":2}\n');
    expect(writes).toEqual([]); // not before the turn ends
    await nextTurn();
    expect(writes).toEqual(['{"n":1}\n{"n":2}\n']);
    stream.write('{"n":3}\n');
    await nextTurn();
    expect(writes).toEqual(['{"n":1}\n{"n":2}\n', '{"n":3}\n']);
    await nextTurn();
    expect(writes).toHaveLength(2); // nothing pending, nothing written
  });

  it('writes what is pending at once when flushed (the exit hook)', () => {
    const writes: string[] = [];
    const stream = new TurnBatchedStream({ write: (text: string) => writes.push(text) });
    stream.write('{"n":1}\n');
    stream.flush();
    expect(writes).toEqual(['{"n":1}\n']);
  });
});
