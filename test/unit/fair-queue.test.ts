/** The local stage's attempt queue (infra/local/attempt-queue.ts): fair across groups, bounded per group and in all. */
import { describe, expect, it } from 'vitest';
import { FairQueue } from '../../infra/local/attempt-queue';

interface Item {
  group: string;
  id: string;
}

/** A queue whose runs wait until released, recording the order they started in. */
function harness(perGroup: number, total: number) {
  const started: string[] = [];
  const release = new Map<string, () => void>();
  const queue = new FairQueue<Item>({
    perGroup,
    total,
    groupOf: (i) => i.group,
    idOf: (i) => i.id,
    run: (i) =>
      new Promise<void>((r) => {
        started.push(i.id);
        release.set(i.id, r);
      }),
    onError: () => {},
  });
  const finish = async (id: string) => {
    release.get(id)!();
    // The run's promise settles, then its `finally` takes the next item: all before the next turn.
    await new Promise((r) => setImmediate(r));
  };
  return { queue, started, finish };
}

const items = (group: string, n: number) => Array.from({ length: n }, (_, i) => ({ group, id: `${group}${i}` }));

describe('FairQueue', () => {
  it("a group with 300 items that never finish holds perGroup workers; another group's item starts at once", () => {
    const { queue, started } = harness(10, 50);
    items('a', 300).forEach((i) => queue.push(i));
    expect(started).toHaveLength(10);
    queue.push({ group: 'b', id: 'b0' });
    expect(started).toEqual([...items('a', 10).map((i) => i.id), 'b0']);
  });

  it('a free worker goes to the group with the fewest running, never more than total at once', async () => {
    const { queue, started, finish } = harness(10, 3);
    items('a', 5).forEach((i) => queue.push(i));
    [...items('b', 5), ...items('c', 5)].forEach((i) => queue.push(i));
    expect(started).toEqual(['a0', 'a1', 'a2']);
    await finish('a0');
    expect(started.at(-1)).toBe('b0');
    await finish('a1');
    expect(started.at(-1)).toBe('c0');
    await finish('a2');
    // a, b and c run one each now: a is first in the round again.
    expect(started).toEqual(['a0', 'a1', 'a2', 'b0', 'c0', 'a3']);
    await finish('b0');
    expect(started.at(-1)).toBe('b1');
  });

  it('takes an item queued or running only once, and again after it finished', async () => {
    const { queue, started, finish } = harness(1, 1);
    expect(queue.push({ group: 'a', id: 'x' })).toBe(true);
    expect(queue.push({ group: 'a', id: 'x' })).toBe(false);
    expect(queue.push({ group: 'a', id: 'y' })).toBe(true);
    expect(queue.push({ group: 'a', id: 'y' })).toBe(false);
    await finish('x');
    expect(started).toEqual(['x', 'y']);
    await finish('y');
    expect(queue.size).toBe(0);
    expect(queue.push({ group: 'a', id: 'x' })).toBe(true);
  });

  it('starts nothing after stop', () => {
    const { queue, started } = harness(1, 1);
    queue.push({ group: 'a', id: 'x' });
    queue.push({ group: 'a', id: 'y' });
    queue.stop();
    expect(queue.push({ group: 'b', id: 'z' })).toBe(false);
    expect(started).toEqual(['x']);
  });

  it('idle() resolves at once when empty, else when the last item waiting or running has finished', async () => {
    const { queue, finish } = harness(1, 1);
    await queue.idle();
    queue.push({ group: 'a', id: 'x' });
    queue.push({ group: 'a', id: 'y' });
    let idle = false;
    const done = queue.idle().then(() => (idle = true));
    await finish('x');
    expect(idle).toBe(false);
    await finish('y');
    await done;
    expect(queue.size).toBe(0);
  });

  it('after stop, idle() waits only for the items running: those waiting are dropped', async () => {
    const { queue, finish } = harness(1, 1);
    queue.push({ group: 'a', id: 'x' });
    queue.push({ group: 'a', id: 'y' });
    queue.stop();
    expect(queue.size).toBe(1);
    let idle = false;
    const done = queue.idle().then(() => (idle = true));
    await new Promise((r) => setImmediate(r));
    expect(idle).toBe(false);
    await finish('x');
    await done;
    expect(queue.size).toBe(0);
  });
});
