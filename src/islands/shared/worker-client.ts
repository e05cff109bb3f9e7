// WorkerClient is the one request/response wrapper the islands use to talk to their Web Worker:
// each request carries an id, and the worker answers it with a message carrying the same id.
// A worker that fails to load or throws outside a request (`error`), or whose message cannot be
// read (`messageerror`), answers every pending request, and every later one, with ok: false, so
// a crashed worker shows as an error instead of a control that waits for ever.

/** WorkerReply is what every worker message carries: the request id and whether it succeeded. */
export interface WorkerReply {
  id: number;
  ok: boolean;
  error?: string;
}

export class WorkerClient<Req extends object, Res extends WorkerReply> {
  private next = 1;
  private readonly waiting = new Map<number, (r: Res) => void>();
  private readonly worker: Worker;
  /** failure is the reason the worker stopped answering, once it has. */
  private failure: string | undefined;

  constructor(worker: Worker) {
    this.worker = worker;
    const onMessage = (ev: MessageEvent<Res>) => {
      const done = this.waiting.get(ev.data.id);
      this.waiting.delete(ev.data.id);
      done?.(ev.data);
    };
    const onError = (ev: ErrorEvent) => this.fail(ev.message || 'the worker stopped');
    const onMessageError = () => this.fail('a message from the worker could not be read');
    worker.addEventListener('message', onMessage);
    worker.addEventListener('error', onError);
    worker.addEventListener('messageerror', onMessageError);
  }

  /** call sends one request and resolves with the worker's reply to it. It never rejects. */
  call(body: Req): Promise<Res> {
    const id = this.next++;
    if (this.failure !== undefined) return Promise.resolve(this.failed(id, this.failure));
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      this.worker.postMessage({ ...body, id });
    });
  }

  /** terminate stops the worker; pending and later calls answer with ok: false. */
  terminate(): void {
    this.worker.terminate();
    this.fail('the worker was stopped');
  }

  private fail(reason: string): void {
    this.failure ??= reason;
    for (const [id, done] of this.waiting) done(this.failed(id, reason));
    this.waiting.clear();
  }

  private failed(id: number, reason: string): Res {
    return { id, ok: false, error: reason } as Res;
  }
}
