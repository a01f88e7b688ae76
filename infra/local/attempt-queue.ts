/**
 * The local stage's attempt queue (contract §11): what the cloud's SQS fair queue and its workers
 * do, in the process. Items wait in one queue per group (organisation); a free worker takes the
 * next item of the group with the fewest running (round-robin among equals), and at most
 * `perGroup` of one group and `total` of all run at once. So a group with a long backlog or slow
 * work waits behind its own items only, and another group's item starts as soon as a worker is
 * free, which `perGroup` < `total` guarantees. An item already queued or running is not taken twice.
 */
export interface FairQueueOptions<T> {
  perGroup: number;
  total: number;
  groupOf(item: T): string;
  idOf(item: T): string;
  run(item: T): Promise<unknown>;
  onError(item: T, e: unknown): void;
}

export class FairQueue<T> {
  /** Waiting items per group; the map's order is the round-robin order. */
  private readonly waiting = new Map<string, T[]>();
  private readonly runningOf = new Map<string, number>();
  private readonly known = new Set<string>();
  private running = 0;
  private stopped = false;
  private idleWaiters: Array<() => void> = [];

  constructor(private readonly opts: FairQueueOptions<T>) {}

  /** Queues an item; false when it is already queued or running, or the queue is stopped. */
  push(item: T): boolean {
    const id = this.opts.idOf(item);
    if (this.stopped || this.known.has(id)) return false;
    this.known.add(id);
    const group = this.opts.groupOf(item);
    const list = this.waiting.get(group);
    if (list) list.push(item);
    else this.waiting.set(group, [item]);
    this.pump();
    return true;
  }

  /** Starts nothing more (running items finish on their own); items still waiting are dropped. */
  stop(): void {
    this.stopped = true;
    for (const list of this.waiting.values()) for (const item of list) this.known.delete(this.opts.idOf(item));
    this.waiting.clear();
    this.settle();
  }

  /** Resolves once no item is waiting or running: at once when none is. */
  idle(): Promise<void> {
    if (this.known.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Items waiting and running. */
  get size(): number {
    return this.known.size;
  }

  private pump(): void {
    while (!this.stopped && this.running < this.opts.total) {
      // The group with the fewest running among those with room; ties go by the round's order.
      let group: string | undefined;
      for (const g of this.waiting.keys()) {
        const n = this.runningOf.get(g) ?? 0;
        if (n < this.opts.perGroup && (group === undefined || n < (this.runningOf.get(group) ?? 0))) group = g;
      }
      if (group === undefined) return;
      const list = this.waiting.get(group)!;
      const item = list.shift()!;
      // To the back of the round: the other groups go first next time.
      this.waiting.delete(group);
      if (list.length) this.waiting.set(group, list);
      void this.start(group, item);
    }
  }

  private async start(group: string, item: T): Promise<void> {
    this.running++;
    this.runningOf.set(group, (this.runningOf.get(group) ?? 0) + 1);
    try {
      await this.opts.run(item);
    } catch (e) {
      this.opts.onError(item, e);
    } finally {
      this.running--;
      const left = (this.runningOf.get(group) ?? 1) - 1;
      if (left) this.runningOf.set(group, left);
      else this.runningOf.delete(group);
      this.known.delete(this.opts.idOf(item));
      this.pump();
      this.settle();
    }
  }

  private settle(): void {
    if (this.known.size > 0) return;
    for (const resolve of this.idleWaiters.splice(0)) resolve();
  }
}
