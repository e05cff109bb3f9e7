// Mirrors ValidateConfigMap (pkg/apis/core/validation/validation.go) for ConfigMap (core/v1, short
// name `cm`): keys are config keys, unique across data and binaryData; printers.ts holds its table
// and describe output. The root CA publisher (controllers/rootcacertpublisher) keeps
// kube-root-ca.crt in every namespace, which the ServiceAccount token volume projects.
// Simplification: the 1 MiB limit on a ConfigMap's data is not checked.

import type { ConfigMap } from '../../../api/types.ts';
import type { FieldError } from '../../../apiserver/errors.ts';
import type { Strategy } from '../../rules.ts';

const CONFIG_KEY = /^[-._a-zA-Z0-9]+$/;
const CONFIG_KEY_MSG =
  "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')";

// isConfigMapKey mirrors validation.IsConfigMapKey.
function configKeyErrors(key: string): string[] {
  const errs: string[] = [];
  if (key.length > 253) errs.push('must be no more than 253 characters');
  if (!CONFIG_KEY.test(key)) errs.push(CONFIG_KEY_MSG);
  if (key === '.') errs.push("must not be '.'");
  else if (key === '..') errs.push("must not be '..'");
  else if (key.startsWith('..')) errs.push("must not start with '..'");
  return errs;
}

/** validateConfigMap mirrors ValidateConfigMap (the name is checked by the caller). */
export function validateConfigMap(cm: ConfigMap): FieldError[] {
  const errs: FieldError[] = [];
  for (const k of Object.keys(cm.data ?? {}))
    for (const msg of configKeyErrors(k))
      errs.push({ field: `data[${k}]`, type: 'Invalid value', value: k, detail: msg });
  for (const k of Object.keys(cm.binaryData ?? {})) {
    for (const msg of configKeyErrors(k))
      errs.push({ field: `binaryData[${k}]`, type: 'Invalid value', value: k, detail: msg });
    if (cm.data && Object.hasOwn(cm.data, k))
      errs.push({
        field: `data[${k}]`,
        type: 'Invalid value',
        value: k,
        detail: 'duplicate of key present in binaryData',
      });
  }
  return errs;
}

/** configMapStrategy is ConfigMap's REST strategy: nothing to default, ValidateConfigMap. */
export const configMapStrategy: Strategy = {
  validate: (obj) => validateConfigMap(obj as ConfigMap),
};
