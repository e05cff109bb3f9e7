import { describe, expect, it } from 'vitest';
import {
  DEFAULT_IMAGE_SIZE,
  exitPlan,
  ImageCatalog,
  imageID,
  normalizeImage,
  parseImageSize,
  repoDigest,
} from './images.ts';

describe('normalizeImage', () => {
  it('applies docker.io, library/ and :latest as ParseNormalizedNamed does', () => {
    expect(normalizeImage('nginx').full).toBe('docker.io/library/nginx:latest');
    expect(normalizeImage('nginx:1.27').full).toBe('docker.io/library/nginx:1.27');
    expect(normalizeImage('bitnami/redis:7').full).toBe('docker.io/bitnami/redis:7');
    expect(normalizeImage('registry.k8s.io/pause:3.10').full).toBe('registry.k8s.io/pause:3.10');
    expect(normalizeImage('localhost:5000/app').full).toBe('localhost:5000/app:latest');
    expect(normalizeImage('registry.k8s.io/coredns/coredns:v1.12.0')).toMatchObject({
      repo: 'registry.k8s.io/coredns/coredns',
      tag: 'v1.12.0',
    });
  });

  it('derives stable digests from the name', () => {
    expect(imageID('nginx:1.27')).toBe(imageID('docker.io/library/nginx:1.27'));
    expect(imageID('nginx:1.27')).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(imageID('nginx:1.27')).not.toBe(imageID('nginx:1.28'));
    expect(repoDigest('nginx:1.27')).toMatch(/^docker\.io\/library\/nginx@sha256:[0-9a-f]{64}$/);
  });
});

describe('ImageCatalog', () => {
  it('knows realistic sizes and defaults unknown images to 50 MB', () => {
    const c = new ImageCatalog();
    expect(c.lookup('nginx:1.27').sizeBytes).toBe(72_195_292);
    expect(c.lookup('registry.k8s.io/pause:3.10').sizeBytes).toBe(320_368);
    expect(c.lookup('nginx:1.25').sizeBytes).toBe(72_300_000);
    expect(c.lookup('example.com/team/app:v3').sizeBytes).toBe(DEFAULT_IMAGE_SIZE);
    expect(c.lookup('busybox').shell).toBe(true);
  });

  it('fails typo tags by default, with containerd’s error text', () => {
    const c = new ImageCatalog();
    expect(c.lookup('nginx:doesnotexist').pull).toBe('notfound');
    expect(c.lookup('nginx:does-not-exist').pull).toBe('notfound');
    expect(c.pullError('nginx:1.27')).toBeUndefined();
    expect(c.pullError('nginx:doesnotexist')).toBe(
      'rpc error: code = NotFound desc = failed to pull and unpack image "docker.io/library/nginx:doesnotexist": failed to resolve reference "docker.io/library/nginx:doesnotexist": docker.io/library/nginx:doesnotexist: not found',
    );
  });

  it('applies scenario overrides by tag or by repository', () => {
    const c = new ImageCatalog({
      'myapp:v2': { crashAfter: '30s', exitCode: 3 },
      'private/thing': { pull: 'unauthorized' },
      'docker.io/library/redis:7': { size: '100Mi', crashAfter: 5000 },
    });
    expect(c.lookup('myapp:v2')).toMatchObject({ crashAfterMs: 30_000, exitCode: 3 });
    expect(c.lookup('myapp:v1').crashAfterMs).toBeUndefined();
    expect(c.lookup('private/thing:1').pull).toBe('unauthorized');
    expect(c.pullError('private/thing:1')).toContain(
      'pull access denied, repository does not exist or may require authorization',
    );
    expect(c.lookup('redis:7')).toMatchObject({ sizeBytes: 100 * 1024 * 1024, crashAfterMs: 5000 });
  });

  it('parses image sizes', () => {
    expect(parseImageSize('72MB')).toBe(72_000_000);
    expect(parseImageSize('1.5GB')).toBe(1_500_000_000);
    expect(parseImageSize('70Mi')).toBe(70 * 1024 * 1024);
    expect(parseImageSize(1234)).toBe(1234);
    expect(parseImageSize('lots')).toBeUndefined();
  });
});

describe('exitPlan', () => {
  const c = new ImageCatalog({ 'crashy:1': { crashAfter: '5s' } });
  it('servers run until stopped and handle SIGTERM', () => {
    expect(exitPlan(c.lookup('nginx:1.27'), undefined, undefined)).toEqual({
      exitCode: 0,
      ignoresSigterm: false,
    });
  });
  it('a shell image without a command exits 0 at once', () => {
    expect(exitPlan(c.lookup('busybox'), undefined, undefined)).toMatchObject({
      afterMs: 50,
      exitCode: 0,
      ignoresSigterm: true,
    });
  });
  it('honours sleep and exit in commands; a shell or sleep as PID 1 ignores SIGTERM', () => {
    expect(exitPlan(c.lookup('busybox'), ['sleep', '3600'], undefined)).toMatchObject({
      afterMs: 3_600_000,
      exitCode: 0,
      ignoresSigterm: true,
    });
    expect(exitPlan(c.lookup('busybox'), ['sh', '-c'], ['sleep 5; exit 1'])).toMatchObject({
      afterMs: 5000,
      exitCode: 1,
    });
    expect(
      exitPlan(c.lookup('busybox'), ['sh', '-c', 'while true; do sleep 1; done'], undefined)
        .afterMs,
    ).toBeUndefined();
    expect(exitPlan(c.lookup('busybox'), ['sleep', 'infinity'], undefined).afterMs).toBeUndefined();
  });
  it('catalogue crashes win', () => {
    expect(exitPlan(c.lookup('crashy:1'), undefined, undefined)).toMatchObject({
      afterMs: 5000,
      exitCode: 1,
    });
  });
});
