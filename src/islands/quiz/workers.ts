// The page's quiz workers, each started on first use: one grades against computed keys, the
// other runs the scenario with learners' answers (what-if and task questions). A Check on a
// key-based question then never waits behind a neighbour's simulator run, and answer runs use the
// machine's second core.
import { WorkerClient } from '../shared/worker-client.ts';
import type { RequestBody, Response } from './protocol.ts';

/** Client is the shared worker client, typed with the quiz worker's protocol. */
export type Client = WorkerClient<RequestBody, Response>;

const workers: { keys?: Client; runs?: Client } = {};

/** client returns the worker for a question kind. */
export function client(kind: string): Client {
  const which = kind === 'what-if' || kind === 'task' ? 'runs' : 'keys';
  return (workers[which] ??= new WorkerClient<RequestBody, Response>(
    new Worker(new URL('./worker.ts', import.meta.url), { type: 'module' }),
  ));
}
