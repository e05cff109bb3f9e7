// Mirrors staging/src/k8s.io/kubectl/pkg/cmd/create/create_pdb.go: `kubectl create
// poddisruptionbudget NAME --selector=SELECTOR --min-available=N` builds a policy/v1
// PodDisruptionBudget and POSTs it.

import { parseToLabelSelector } from '../../../api/labels.ts';
import type { AnyObject } from '../../../api/types.ts';
import { CmdError, f, OUTPUT, usageError, type Command, type Common } from '../../cmdutil.ts';
import { isStatusError, KubectlError } from '../../errors.ts';
import { namePrint, typeOf, type Run } from '../../run.ts';

export interface CreatePDBOptions {
  verb: 'create poddisruptionbudget';
  name: string;
  selector: string;
  minAvailable: string;
  maxUnavailable: string;
}

export const createPodDisruptionBudget: Command<CreatePDBOptions> = {
  path: 'create poddisruptionbudget',
  aliases: ['pdb'],
  short: 'Create a pod disruption budget with the specified name',
  flags: [
    f('selector', 'string'),
    f('min-available', 'string'),
    f('max-unavailable', 'string'),
    OUTPUT,
  ],
  complete(fp) {
    // NameFromCommandArgs, then Validate, in that order.
    if (fp.args.length !== 1)
      throw new CmdError(
        usageError(
          'create poddisruptionbudget',
          `exactly one NAME is required, got ${fp.args.length}`,
        ),
      );
    const o: CreatePDBOptions = {
      verb: 'create poddisruptionbudget',
      name: fp.args[0],
      selector: (fp.flags.selector as string | undefined) ?? '',
      minAvailable: (fp.flags['min-available'] as string | undefined) ?? '',
      maxUnavailable: (fp.flags['max-unavailable'] as string | undefined) ?? '',
    };
    const problem = validate(o);
    if (problem) throw new CmdError(problem);
    return o;
  },
  run: runCreatePDB,
};

/** validate is PodDisruptionBudgetOpts.Validate, with its messages. */
function validate(o: CreatePDBOptions): string | undefined {
  if (o.name === '') return 'name must be specified';
  if (o.selector === '') return 'a selector must be specified';
  if (o.minAvailable === '' && o.maxUnavailable === '')
    return 'one of min-available or max-unavailable must be specified';
  if (o.minAvailable !== '' && o.maxUnavailable !== '')
    return 'min-available and max-unavailable cannot be both specified';
  const amount = /^[0-9]+%?$/;
  if (o.minAvailable !== '' && !amount.test(o.minAvailable))
    return 'invalid format specified for min-available';
  if (o.maxUnavailable !== '' && !amount.test(o.maxUnavailable))
    return 'invalid format specified for max-unavailable';
  return undefined;
}

/** intstrParse is intstr.Parse: an integer when the string is one, else the string. */
function intstrParse(s: string): number | string {
  return /^-?\d+$/.test(s) ? Number(s) : s;
}

function runCreatePDB(r: Run, cmd: CreatePDBOptions & Common): void {
  let selector;
  try {
    selector = parseToLabelSelector(cmd.selector);
  } catch (e) {
    throw new KubectlError((e as Error).message);
  }
  const spec: Record<string, unknown> = { selector };
  if (cmd.minAvailable !== '') spec.minAvailable = intstrParse(cmd.minAvailable);
  else spec.maxUnavailable = intstrParse(cmd.maxUnavailable);
  const pdb = {
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: { name: cmd.name, namespace: r.ns(cmd) },
    spec,
  } as unknown as AnyObject;
  try {
    r.client.create('poddisruptionbudgets', pdb);
  } catch (e) {
    throw new KubectlError(
      `failed to create poddisruptionbudgets: ${isStatusError(e) ? e.status.message : (e as Error).message}`,
    );
  }
  r.out(namePrint(typeOf('poddisruptionbudgets'), cmd.name, 'created'));
}
