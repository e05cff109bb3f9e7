import { describe, expect, it } from 'vitest';
import { kindSchema } from '../api/schema.ts';
import { decodeError } from './decode.ts';
import { API_RESOURCES, apiResource, apiVersionOf, resolveResource } from './discovery.ts';
import { resources } from './registry.ts';

describe('discovery', () => {
  it('resolves names as kubectl does: the core group before the others', () => {
    // Both core/v1 and events.k8s.io/v1 serve events (short name ev); kubectl's RESTMapper
    // prefers the legacy core group (restmapper.NewDiscoveryRESTMapper lists it first).
    for (const typed of ['events', 'event', 'ev', 'EV', 'events.v1'])
      expect(apiVersionOf(resolveResource(typed))).toBe('v1');
    for (const typed of ['events.events.k8s.io', 'ev.events.k8s.io', 'events.v1.events.k8s.io'])
      expect(apiVersionOf(resolveResource(typed))).toBe('events.k8s.io/v1');
    expect(() => resolveResource('widgets')).toThrow(
      'the server doesn\'t have a resource type "widgets"',
    );
  });

  it('stores events.k8s.io/v1 Events as the core Events', () => {
    expect(apiResource('events')?.group).toBe('');
    expect(resources.events.group).toBe('');
    expect(resources.events.etcdPrefix).toBe('/registry/events/');
  });

  it('each row with a schema names its kind, and decoding reads the row', () => {
    for (const r of API_RESOURCES) if (r.schema) expect(r.schema.name).toBe(r.kind);
    expect(
      decodeError({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' }, dat: {} }),
    ).toBe(
      'ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: unknown field "dat"',
    );
    // A kind no row serves is passed through (kubectl refuses it before it is sent).
    expect(decodeError({ apiVersion: 'v1', kind: 'Widget', colour: 1 })).toBeUndefined();
    expect(kindSchema('Widget', {}).fields()).toHaveProperty('metadata');
  });
});
