/**
 * Reads `source` ahead of its consumer: while the consumer works on what it was handed, the
 * source keeps being read (its next query in flight) until `limit` items wait. Items come out in
 * arrays, everything read so far at once, in the source's order.
 */
export async function* readAhead<T>(source: AsyncIterable<T>, limit: number): AsyncGenerator<T[]> {
  const iterator = source[Symbol.asyncIterator]();
  let buffer: T[] = [];
  let done = false;
  let failure: { error: unknown } | null = null;
  let stopped = false;
  let wakeConsumer: (() => void) | null = null;
  let wakeProducer: (() => void) | null = null;
  const signal = (which: 'consumer' | 'producer') => {
    const wake = which === 'consumer' ? wakeConsumer : wakeProducer;
    if (which === 'consumer') wakeConsumer = null;
    else wakeProducer = null;
    wake?.();
  };
  const producer = (async () => {
    try {
      for (;;) {
        while (buffer.length >= limit && !stopped)
          await new Promise<void>((resolve) => {
            wakeProducer = resolve;
          });
        if (stopped) break;
        const next = await iterator.next();
        if (next.done) break;
        buffer.push(next.value);
        signal('consumer');
      }
    } catch (error) {
      failure = { error };
    } finally {
      done = true;
      signal('consumer');
      if (stopped) await iterator.return?.();
    }
  })();
  try {
    for (;;) {
      if (buffer.length > 0) {
        const items = buffer;
        buffer = [];
        signal('producer');
        // Let the producer run until it waits on the store (the next page's query sent) before
        // the consumer works through these: the query runs meanwhile.
        if (!done) await new Promise((resolve) => setImmediate(resolve));
        yield items;
        continue;
      }
      if (failure) throw (failure as { error: unknown }).error;
      if (done) return;
      await new Promise<void>((resolve) => {
        wakeConsumer = resolve;
      });
    }
  } finally {
    stopped = true;
    signal('producer');
    await producer;
  }
}
