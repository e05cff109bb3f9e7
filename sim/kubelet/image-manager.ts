// Mirrors pkg/kubelet/images/image_manager.go (EnsureImageExists, shouldPullImage, the image pull
// back-off keyed by pod UID and image) and serialized_image_puller.go (serializeImagePulls defaults
// to true: one PullImage at a time per node, so "including waiting" in the Pulled event counts the
// queue). Events: Pulling, Pulled, Failed, BackOff, ErrImageNeverPull, with upstream's wording,
// each about the container (fieldPath); the ImagePullBackOff waiting message ends with the last
// pull's error as v1.32+ words it (prevPullErrMsg).

import type { Container, Pod } from '../api/types.ts';
import { formatDuration } from '../engine/clock.ts';
import type { Simulation } from '../engine/simulation.ts';
import type { ContainerRuntime } from '../runtime/container-runtime.ts';
import type { Backoff } from './backoff.ts';
import {
  ErrImageNeverPull,
  ErrImagePull,
  ImagePullBackOff,
  type StartFailure,
} from './pod-status.ts';
import { containerFieldPath } from './container-ref.ts';

/** ImageFailure is a StartFailure with when a retry may succeed (the back-off expiry). */
export interface ImageFailure extends StartFailure {
  retryAt?: number;
}

export interface ImageManagerHost {
  readonly sim: Simulation;
  /** name is the kubelet's trace identity. */
  readonly name: string;
  readonly runtime: ContainerRuntime;
  event(
    pod: Pod,
    type: 'Normal' | 'Warning',
    reason: string,
    message: string,
    fieldPath?: string,
  ): void;
  guard<A extends unknown[]>(fn: (...a: A) => void): (...a: A) => void;
}

interface PullRequest {
  image: string;
  /** pod is namespace/name, for the trace. */
  pod: string;
  done: (err: string | undefined, durationMs: number, size: number, imageRef: string) => void;
}

/** backOffKey is image_manager.go's backOffKey: "<pod UID>_<image>". */
function backOffKey(uid: string, image: string): string {
  return `${uid}_${image}`;
}

/** pullPolicy returns the container's policy, defaulted as kube-apiserver does. */
export function pullPolicy(c: Container): 'Always' | 'IfNotPresent' | 'Never' {
  if (c.imagePullPolicy) return c.imagePullPolicy;
  const ref = c.image.includes('@') ? '' : c.image.slice(c.image.lastIndexOf('/') + 1);
  const tag = ref.includes(':')
    ? ref.slice(ref.indexOf(':') + 1)
    : c.image.includes('@')
      ? 'digest'
      : 'latest';
  return tag === 'latest' ? 'Always' : 'IfNotPresent';
}

/** goDuration prints milliseconds as Go's time.Duration.String does (e.g. "1.234s", "523ms"). */
export function goDuration(ms: number): string {
  return formatDuration(Math.max(0, Math.round(ms)));
}

// alreadyPresent holds the Pulled message of each image already on its node: every container start
// records one, and each Event keeps its message, so one string per image serves them all.
const alreadyPresent = new Map<string, string>();

function alreadyPresentMessage(image: string): string {
  let m = alreadyPresent.get(image);
  if (m === undefined) {
    m = `Container image "${image}" already present on machine`;
    if (alreadyPresent.size > 10_000) alreadyPresent.clear();
    alreadyPresent.set(image, m);
  }
  return m;
}

/** ImageManager ensures a container's image is on the node before it is created. */
export class ImageManager {
  private readonly host: ImageManagerHost;
  private readonly backoff: Backoff;
  private readonly queue: PullRequest[] = [];
  private pulling = false;
  /** prevPullErrMsg is the last failed pull's "<error>: <message>" by backOffKey (pod UID and image). */
  private readonly prevPullErrMsg = new Map<string, string>();

  constructor(host: ImageManagerHost, backoff: Backoff) {
    this.host = host;
    this.backoff = backoff;
  }

  /**
   * ensureImageExists mirrors EnsureImageExists: ImageStatus, then by pull policy either use the
   * present image, fail (Never), refuse while backing off, or pull through the serialized puller.
   * done receives a failure, or the image ref.
   */
  ensureImageExists(
    pod: Pod,
    c: Container,
    done: (fail: ImageFailure | undefined, imageRef: string) => void,
  ): void {
    const { sim, runtime } = this.host;
    const image = c.image;
    const policy = pullPolicy(c);
    const podKey = `${pod.metadata.namespace}/${pod.metadata.name}`;
    const present = runtime.imageStatus(this.host.name, image, podKey);
    // The events are about the container (kubecontainer.GenerateContainerRef).
    const ref = containerFieldPath(pod, c.name);
    if (policy === 'Never' || (policy === 'IfNotPresent' && present)) {
      if (present) {
        this.host.event(pod, 'Normal', 'Pulled', alreadyPresentMessage(image), ref);
        return done(undefined, present.id);
      }
      const msg = `Container image "${image}" is not present with pull policy of Never`;
      this.host.event(pod, 'Warning', 'ErrImageNeverPull', msg, ref);
      return done({ reason: ErrImageNeverPull, message: msg }, '');
    }
    const uid = pod.metadata.uid;
    const now = sim.now();
    if (this.backoff.isInBackOffSinceUpdate(uid, image, now)) {
      const msg = `Back-off pulling image "${image}"`;
      this.host.event(pod, 'Normal', 'BackOff', msg, ref);
      // Since v1.32 the waiting message carries the last pull's error (prevPullErrMsg), the
      // event does not.
      const prevPullErrMsg = this.prevPullErrMsg.get(backOffKey(uid, image));
      return done(
        {
          reason: ImagePullBackOff,
          message: prevPullErrMsg === undefined ? msg : `${msg}: ${prevPullErrMsg}`,
          retryAt: this.backoff.expiresAt(uid, image),
        },
        '',
      );
    }
    // Ensure that the map cannot grow indefinitely.
    this.prevPullErrMsg.delete(backOffKey(uid, image));
    this.host.event(pod, 'Normal', 'Pulling', `Pulling image "${image}"`, ref);
    this.enqueue({
      image,
      pod: podKey,
      done: (err, durationMs, size, imageRef) => {
        const t = sim.now();
        if (err) {
          this.host.event(pod, 'Warning', 'Failed', `Failed to pull image "${image}": ${err}`, ref);
          this.backoff.next(uid, image, t, t);
          // evalCRIPullErr: a runtime error without a known prefix is ErrImagePull with its
          // text; it is kept for the back-off's waiting message.
          this.prevPullErrMsg.set(backOffKey(uid, image), `${ErrImagePull}: ${err}`);
          return done(
            { reason: ErrImagePull, message: err, retryAt: this.backoff.expiresAt(uid, image) },
            '',
          );
        }
        this.host.event(
          pod,
          'Normal',
          'Pulled',
          `Successfully pulled image "${image}" in ${goDuration(durationMs)} (${goDuration(t - now)} including waiting). Image size: ${size} bytes.`,
          ref,
        );
        done(undefined, imageRef);
      },
    });
  }

  private enqueue(r: PullRequest): void {
    this.queue.push(r);
    if (!this.pulling) this.pullNext();
  }

  // pullNext mirrors serialImagePuller.processImagePullRequests: one pull at a time.
  private pullNext(): void {
    const r = this.queue.shift();
    if (!r) {
      this.pulling = false;
      return;
    }
    this.pulling = true;
    this.host.runtime.pullImage(
      this.host.name,
      r.image,
      this.host.guard((err, res) => {
        r.done(err, res.durationMs, res.size, res.imageRef);
        this.pullNext();
      }),
      r.pod,
    );
  }
}
