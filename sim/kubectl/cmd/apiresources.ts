// Mirrors staging/src/k8s.io/kubectl/pkg/cmd/apiresources/apiresources.go and print_flags.go
// (kubectl v1.34): `kubectl api-resources` prints the served resources from discovery, sorted by
// group then name (or by --sort-by name|kind), filtered by --namespaced, --api-group, --verbs and
// --categories, as a table (-o wide adds VERBS and CATEGORIES) or as names (-o name).
// Simplification: -o json and -o yaml (the APIResourceList) are not printed.

import { API_RESOURCES, apiVersionOf, type APIResource } from '../../apiserver/discovery.ts';
import { bool, CmdError, f, str, usageError, type Command, type FlagParse } from '../cmdutil.ts';
import type { Run } from '../run.ts';
import { GET_TABWRITER, tabwrite } from '../tabwriter.ts';

export interface APIResourcesOptions {
  verb: 'api-resources';
  /** output is "", "wide" or "name". */
  output: '' | 'wide' | 'name';
  noHeaders: boolean;
  /** apiGroup filters by group when --api-group was given ("" is the core group). */
  apiGroup?: string;
  /** namespaced filters by scope when --namespaced was given. */
  namespaced?: boolean;
  verbs: string[];
  categories: string[];
  sortBy: '' | 'name' | 'kind';
}

export const apiResources: Command<APIResourcesOptions> = {
  path: 'api-resources',
  short: 'Print the supported API resources on the server',
  flags: [
    f('output', 'string', 'o'),
    f('no-headers', 'bool'),
    f('api-group', 'string'),
    f('namespaced', 'bool'),
    f('verbs', 'stringSlice'),
    f('sort-by', 'string'),
    f('cached', 'bool'),
    f('categories', 'stringSlice'),
  ],
  complete: completeAPIResources,
  run: runAPIResources,
};

/** ALLOWED_FORMATS are PrintFlags.AllowedFormats, sorted as NoCompatiblePrinterError sorts them. */
const ALLOWED_FORMATS = 'json,name,wide,yaml';

// completeAPIResources mirrors Complete (no arguments; a printer for -o) and Validate (--sort-by).
function completeAPIResources(fp: FlagParse): APIResourcesOptions {
  if (fp.args.length !== 0)
    throw new CmdError(usageError('api-resources', `unexpected arguments: [${fp.args.join(' ')}]`));
  const output = str(fp.flags.output) ?? '';
  if (output === 'json' || output === 'yaml')
    throw new CmdError(`output format "${output}" is not supported in this simulator`);
  if (output !== '' && output !== 'wide' && output !== 'name')
    throw new CmdError(
      `unable to match a printer suitable for the output format "${output}", allowed formats are: ${ALLOWED_FORMATS}`,
    );
  const sortBy = str(fp.flags['sort-by']) ?? '';
  if (sortBy !== '' && sortBy !== 'name' && sortBy !== 'kind')
    throw new CmdError('--sort-by accepts only name or kind');
  const list = (v: unknown) => (Array.isArray(v) ? (v as string[]) : []);
  return {
    verb: 'api-resources',
    output,
    noHeaders: bool(fp.flags['no-headers']),
    ...(fp.set.has('api-group') ? { apiGroup: str(fp.flags['api-group']) ?? '' } : {}),
    ...(fp.set.has('namespaced') ? { namespaced: bool(fp.flags.namespaced) } : {}),
    verbs: list(fp.flags.verbs),
    categories: list(fp.flags.categories),
    sortBy,
  };
}

// runAPIResources mirrors RunAPIResources: filter, stable sort, print through one tab writer.
function runAPIResources(r: Run, o: APIResourcesOptions): void {
  const rows = API_RESOURCES.filter(
    (res) =>
      res.verbs.length > 0 &&
      (o.apiGroup === undefined || o.apiGroup === res.group) &&
      (o.namespaced === undefined || o.namespaced === res.namespaced) &&
      o.verbs.every((v) => res.verbs.includes(v)) &&
      o.categories.every((c) => res.categories.includes(c)),
  );
  const key = (res: APIResource) =>
    o.sortBy === 'name' ? res.resource : o.sortBy === 'kind' ? res.kind : res.group;
  // sortableResource.Less: strings.Compare on the key, then on the name.
  const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  rows.sort((a, b) => cmp(key(a), key(b)) || cmp(a.resource, b.resource));
  if (o.output === 'name') {
    for (const res of rows)
      r.out(res.group ? `${res.resource}.${res.group}\n` : `${res.resource}\n`);
    return;
  }
  const wide = o.output === 'wide';
  let text = '';
  if (!o.noHeaders)
    text += `NAME\tSHORTNAMES\tAPIVERSION\tNAMESPACED\tKIND${wide ? '\tVERBS\tCATEGORIES' : ''}\n`;
  for (const res of rows) {
    text += `${res.resource}\t${res.shortNames.join(',')}\t${apiVersionOf(res)}\t${res.namespaced}\t${res.kind}`;
    if (wide) text += `\t${res.verbs.join(',')}\t${res.categories.join(',')}`;
    text += '\n';
  }
  r.out(tabwrite(text, GET_TABWRITER));
}
