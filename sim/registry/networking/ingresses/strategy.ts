// Mirrors pkg/registry/networking/ingress/strategy.go (PrepareForCreate: status cleared;
// PrepareForUpdate: generation bumped on spec changes, done by the registry's tracksGeneration)
// and pkg/apis/networking/validation/validation.go ValidateIngressSpec, with upstream's field
// paths and messages. networking/v1 defaults nothing in an Ingress (pathType has no default
// since v1; the DefaultIngressClass admission plugin fills spec.ingressClassName:
// ingress-admission.ts).

import type { AnyObject } from '../../../api/types.ts';
import type { FieldError } from '../../../apiserver/errors.ts';
import {
  DNS1035_LABEL,
  DNS1035_MSG,
  DNS1123_SUBDOMAIN,
  SUBDOMAIN_MSG,
} from '../../../apiserver/validation.ts';
import { isValidPortName } from '../../core/services/strategy.ts';
import type { Strategy } from '../../rules.ts';
import type { HTTPIngressPath, Ingress, IngressBackend } from './types.ts';

/** ingressStrategy is the Ingress's REST strategy. */
export const ingressStrategy: Strategy = {
  prepareForCreate: (obj: AnyObject) => {
    (obj as Ingress).status = {};
  },
  validate: (obj) => validateIngress(obj as Ingress),
};

const WILDCARD_DNS1123_SUBDOMAIN =
  /^\*\.[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const WILDCARD_MSG =
  "a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character (e.g. '*.example.com', regex used for validation is '\\*\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

/** invalidPathSequences and invalidPathSuffixes are what an Exact or Prefix path may not hold. */
const invalidPathSequences = ['//', '/./', '/../', '%2f', '%2F'];
const invalidPathSuffixes = ['/..', '/.'];
/** supportedPathTypes as sets.List sorts them. */
const supportedPathTypes = ['Exact', 'ImplementationSpecific', 'Prefix'];

/** isIP mirrors netutils.ParseIPSloppy != nil: IPv4 (leading zeros allowed) or IPv6. */
export function isIP(s: string): boolean {
  const v4 = s.split('.');
  if (v4.length === 4 && v4.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255)) return true;
  return s.includes(':') && /^[0-9a-fA-F:.]+$/.test(s) && (s.match(/::/g)?.length ?? 0) <= 1;
}

/** isDNS1123Subdomain mirrors validation.IsDNS1123Subdomain: its messages. */
export function isDNS1123Subdomain(s: string): string[] {
  const errs: string[] = [];
  if (s.length > 253) errs.push('must be no more than 253 characters');
  if (!DNS1123_SUBDOMAIN.test(s)) errs.push(SUBDOMAIN_MSG);
  return errs;
}

/** isWildcardDNS1123Subdomain mirrors validation.IsWildcardDNS1123Subdomain. */
export function isWildcardDNS1123Subdomain(s: string): string[] {
  const errs: string[] = [];
  if (s.length > 253) errs.push('must be no more than 253 characters');
  if (!WILDCARD_DNS1123_SUBDOMAIN.test(s)) errs.push(WILDCARD_MSG);
  return errs;
}

/** validateIngress mirrors ValidateIngressCreate's spec checks (ValidateIngressSpec). */
export function validateIngress(ing: Ingress): FieldError[] {
  const errs: FieldError[] = [];
  const spec = ing.spec ?? {};
  if (!spec.rules?.length && !spec.defaultBackend)
    errs.push({
      field: 'spec',
      type: 'Invalid value',
      raw: spec.rules ? '[]networking.IngressRule{}' : '[]networking.IngressRule(nil)',
      detail: 'either `defaultBackend` or `rules` must be specified',
    });
  if (spec.defaultBackend)
    errs.push(...validateIngressBackend(spec.defaultBackend, 'spec.defaultBackend'));
  for (const [i, rule] of (spec.rules ?? []).entries()) {
    const at = `spec.rules[${i}]`;
    const host = rule.host ?? '';
    if (host) {
      const invalid = (detail: string) =>
        errs.push({ field: `${at}.host`, type: 'Invalid value', value: host, detail });
      if (isIP(host)) invalid('must be a DNS name, not an IP address');
      for (const m of host.includes('*')
        ? isWildcardDNS1123Subdomain(host)
        : isDNS1123Subdomain(host))
        invalid(m);
    }
    if (!rule.http) continue;
    if (!rule.http.paths?.length)
      errs.push({ field: `${at}.http.paths`, type: 'Required value', detail: '' });
    for (const [j, p] of (rule.http.paths ?? []).entries())
      errs.push(...validateHTTPIngressPath(p, `${at}.http.paths[${j}]`));
  }
  if (spec.ingressClassName !== undefined)
    for (const m of isDNS1123Subdomain(spec.ingressClassName))
      errs.push({
        field: 'spec.ingressClassName',
        type: 'Invalid value',
        value: spec.ingressClassName,
        detail: m,
      });
  return errs;
}

/** validateHTTPIngressPath mirrors validateHTTPIngressPath: pathType first, then path, then backend. */
function validateHTTPIngressPath(p: HTTPIngressPath, at: string): FieldError[] {
  if (p.pathType === undefined)
    return [
      { field: `${at}.pathType`, type: 'Required value', detail: 'pathType must be specified' },
    ];
  const errs: FieldError[] = [];
  const path = p.path ?? '';
  const invalid = (detail: string) =>
    errs.push({ field: `${at}.path`, type: 'Invalid value', value: path, detail });
  switch (p.pathType) {
    case 'Exact':
    case 'Prefix':
      if (!path.startsWith('/')) invalid('must be an absolute path');
      for (const seq of invalidPathSequences)
        if (path.includes(seq)) invalid(`must not contain '${seq}'`);
      for (const suf of invalidPathSuffixes)
        if (path.endsWith(suf)) invalid(`cannot end with '${suf}'`);
      break;
    case 'ImplementationSpecific':
      if (path && !path.startsWith('/')) invalid('must be an absolute path');
      break;
    default:
      errs.push({
        field: `${at}.pathType`,
        type: 'Unsupported value',
        value: p.pathType,
        detail: `supported values: ${supportedPathTypes.map((t) => `"${t}"`).join(', ')}`,
      });
  }
  errs.push(...validateIngressBackend(p.backend ?? {}, `${at}.backend`));
  return errs;
}

/** validateIngressBackend mirrors validateIngressBackend: a Service or a resource, not both. */
export function validateIngressBackend(b: IngressBackend, at: string): FieldError[] {
  if (b.resource && b.service)
    return [
      {
        field: at,
        type: 'Invalid value',
        value: '',
        detail: 'cannot set both resource and service backends',
      },
    ];
  const errs: FieldError[] = [];
  if (b.resource) {
    if (!b.resource.kind)
      errs.push({ field: `${at}.resource.kind`, type: 'Required value', detail: '' });
    if (!b.resource.name)
      errs.push({ field: `${at}.resource.name`, type: 'Required value', detail: '' });
    return errs;
  }
  if (!b.service)
    return [
      {
        field: at,
        type: 'Invalid value',
        value: '',
        detail: 'resource or service backend is required',
      },
    ];
  const name = b.service.name ?? '';
  if (!name) errs.push({ field: `${at}.service.name`, type: 'Required value', detail: '' });
  else {
    // ValidateServiceName: a DNS-1035 label.
    if (name.length > 63)
      errs.push({
        field: `${at}.service.name`,
        type: 'Invalid value',
        value: name,
        detail: 'must be no more than 63 characters',
      });
    if (!DNS1035_LABEL.test(name))
      errs.push({
        field: `${at}.service.name`,
        type: 'Invalid value',
        value: name,
        detail: DNS1035_MSG,
      });
  }
  const port = b.service.port ?? {};
  if (port.name && port.number)
    errs.push({
      field: at,
      type: 'Invalid value',
      value: '',
      detail: 'cannot set both port name & port number',
    });
  else if (port.name)
    for (const m of isValidPortName(port.name))
      errs.push({
        field: `${at}.service.port.name`,
        type: 'Invalid value',
        value: port.name,
        detail: m,
      });
  else if (port.number) {
    if (!Number.isInteger(port.number) || port.number < 1 || port.number > 65535)
      errs.push({
        field: `${at}.service.port.number`,
        type: 'Invalid value',
        value: port.number,
        detail: 'must be between 1 and 65535, inclusive',
      });
  } else
    errs.push({ field: at, type: 'Required value', detail: 'port name or number is required' });
  return errs;
}
