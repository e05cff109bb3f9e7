// Mirrors ValidateObjectMeta's name rules (staging/src/k8s.io/apimachinery/pkg/api/validation/
// objectmeta.go, with pkg/apis/core/validation's NameIsDNSSubdomain and NameIsDNSLabel): the check
// every kind's metadata.name passes. Each kind's own validation is in its registry folder
// (sim/registry/<group>/<resource>/strategy.ts).

import type { FieldError } from './errors.ts';

export const DNS1123_SUBDOMAIN =
  /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

export const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

export const SUBDOMAIN_MSG =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

export const LABEL_MSG =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";

export const DNS1035_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;

export const DNS1035_MSG =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";

/**
 * validateName checks metadata.name as ValidateObjectMeta does for the resource's rule: a DNS-1123
 * subdomain, a DNS-1123 label (label), or a DNS-1035 label (dns1035, NameIsDNS1035Label).
 */
export function validateName(name: string, label: boolean, dns1035 = false): FieldError[] {
  if (!name)
    return [
      {
        field: 'metadata.name',
        type: 'Required value',
        detail: 'name or generateName is required',
      },
    ];
  const errs: FieldError[] = [];
  if (dns1035) {
    if (name.length > 63)
      errs.push({
        field: 'metadata.name',
        type: 'Invalid value',
        value: name,
        detail: 'must be no more than 63 characters',
      });
    if (!DNS1035_LABEL.test(name))
      errs.push({
        field: 'metadata.name',
        type: 'Invalid value',
        value: name,
        detail: DNS1035_MSG,
      });
    return errs;
  }
  if (name.length > (label ? 63 : 253))
    errs.push({
      field: 'metadata.name',
      type: 'Invalid value',
      value: name,
      detail: `must be no more than ${label ? 63 : 253} characters`,
    });
  if (!(label ? DNS1123_LABEL : DNS1123_SUBDOMAIN).test(name))
    errs.push({
      field: 'metadata.name',
      type: 'Invalid value',
      value: name,
      detail: label ? LABEL_MSG : SUBDOMAIN_MSG,
    });
  return errs;
}
