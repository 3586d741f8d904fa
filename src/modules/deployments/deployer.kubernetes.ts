/**
 * The `kubernetes` deployer (SKIFF_DEPLOYER=kubernetes; spec "States and transitions"): applies every rendered manifest
 * to the cluster of KUBECONFIG (else `~/.kube/config`, else the in-cluster service account) with server-side apply
 * (`PATCH` `application/apply-patch+yaml`, field manager `skiff`, `force=true`: Skiff owns these objects, so a field
 * another manager took over is taken back), in the rendered order — Secrets, each database's password Secret, Service
 * and StatefulSet, the build Job of git sources (waited for: it must succeed within SKIFF_BUILD_TIMEOUT), the
 * Deployment, its Service, the Ingresses — then waits for the Deployment's rollout (`status.observedGeneration` ≥ the
 * applied generation, `updatedReplicas` and `availableReplicas` ≥ the desired replicas, no old replicas left) within
 * SKIFF_ROLLOUT_TIMEOUT. The organization's namespaces and what isolates them (tenant.manifests.ts) come first in the
 * manifests; every other object names its namespace (the organization's, or its build namespace for the build Job),
 * one that names none goes to the kubeconfig's current context's namespace (`default` when it names none). Each step is a deployment log line; a failure throws with the API's message, the build's failure or the
 * timeout, which ends the deployment `error`. Every request to the API server is bounded ({@link
 * requestTimeoutSeconds}: SKIFF_ROLLOUT_TIMEOUT, at most 30 s; one that does not answer in time fails its step) and
 * transient failures are retried within the step ({@link withRetries}: 409, 429, 5xx, a dropped connection; each retry
 * a `warn` log line), while a refusal (400, 403, 422, …) fails it at once. Rollout availability is reported to the
 * health state. Cancellation (DeployerRun.signal) aborts the request in flight and stops the waits. While a build Job runs, the logs of its pod's containers (init containers, then
 * `build`) are followed and appended to the deployment log as `[build] <line>` lines (at most {@link
 * MAX_BUILD_LOG_LINES}).
 */
import { delimiter } from "node:path";
import { Writable } from "node:stream";
import {
  createConfiguration,
  KubeConfig,
  type KubernetesObject,
  KubernetesObjectApi,
  Log,
  loadYaml,
  PatchStrategy,
  ServerConfiguration,
} from "@kubernetes/client-node";
import type { Config } from "../../config.ts";
import type { Deployer } from "./deployer.ts";
import { type Manifest, NO_REGISTRY } from "./deployment.manifests.ts";
import { reusingConnections } from "./kube-connections.ts";

/** The field manager of every apply. */
export const FIELD_MANAGER = "skiff";

/** Milliseconds between two status reads while waiting for a build or a rollout. */
const POLL_MS = 500;
/** How long a finished build's log stream may take to deliver its last lines before it is cut (ms). */
const STOP_GRACE_MS = 5_000;

/** Build log lines copied into a deployment log at most (the rest is in the pod's log until the Job is removed). */
export const MAX_BUILD_LOG_LINES = 2_000;
/** Characters of one build log line kept. */
const MAX_BUILD_LOG_LINE = 2_000;

/** The longest a single request to the API server may take (seconds), whatever SKIFF_ROLLOUT_TIMEOUT is. */
export const REQUEST_TIMEOUT_CEILING = 30;

/**
 * Seconds one request to the API server may take before it is aborted and fails its step: SKIFF_ROLLOUT_TIMEOUT,
 * at most {@link REQUEST_TIMEOUT_CEILING}.
 */
export function requestTimeoutSeconds(config: Pick<Config, "SKIFF_ROLLOUT_TIMEOUT">): number {
  return Math.min(REQUEST_TIMEOUT_CEILING, config.SKIFF_ROLLOUT_TIMEOUT);
}

/** Attempts of one request at most when the API server answers a transient error ({@link withRetries}). */
export const MAX_ATTEMPTS = 4;
/** Milliseconds before the first retry; each next one waits twice as long. */
const RETRY_BASE_MS = 500;
/** The longest wait before a retry (ms), a `Retry-After` included. */
const MAX_RETRY_WAIT_MS = 10_000;
/** Statuses worth another attempt: conflicts, throttling and the server's own failures. */
const TRANSIENT_STATUSES = new Set([409, 429, 500, 502, 503, 504]);
/** Network error codes worth another attempt: a connection the server or a proxy dropped. */
const TRANSIENT_NETWORK = new Set(["ECONNRESET", "EPIPE", "UND_ERR_SOCKET", "UND_ERR_CLOSED"]);

/** How the requests of one client are bounded: their timeout, the cancellation, and where retries are reported. */
export interface RequestPolicy {
  /** Seconds one request may take ({@link requestTimeoutSeconds}). */
  timeoutSeconds: number;
  /** Aborts every request and wait at once (a cancelled deployment). */
  signal?: AbortSignal;
  /** Told of each retry (`what`, the reason and the wait), e.g. to log it. */
  onRetry?: (message: string) => Promise<void> | void;
}

/**
 * An object API client of `kc` whose every request (discovery included) is aborted after `policy.timeoutSeconds`,
 * or as soon as `policy.signal` aborts. Its requests share keep-alive connections ({@link reusingConnections}).
 */
export function objectClient(kc: KubeConfig, policy: RequestPolicy): KubernetesObjectApi {
  const cluster = kc.getCurrentCluster();
  if (!cluster) throw new Error("no Kubernetes cluster configured (set KUBECONFIG)");
  const configuration = createConfiguration({
    baseServer: new ServerConfiguration(cluster.server, {}),
    authMethods: { default: reusingConnections(kc) },
    promiseMiddleware: [
      {
        pre: async (context) => {
          const timeout = AbortSignal.timeout(policy.timeoutSeconds * 1000);
          context.setSignal(policy.signal ? AbortSignal.any([timeout, policy.signal]) : timeout);
          return context;
        },
        post: async (response) => response,
      },
    ],
  });
  return new ContextObjectApi(configuration, kc);
}

/** An object API client whose default namespace is `kc`'s current context's (as `makeApiClient` sets it). */
class ContextObjectApi extends KubernetesObjectApi {
  constructor(configuration: ConstructorParameters<typeof KubernetesObjectApi>[0], kc: KubeConfig) {
    super(configuration);
    this.setDefaultNamespace(kc);
  }
}

/** The network error code of `error` (undici's `fetch failed` carries it in its cause chain), if any. */
function networkCode(error: unknown): string | undefined {
  for (let e = error as { code?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 4; depth += 1) {
    if (typeof e.code === "string") return e.code;
    e = e.cause as typeof e;
  }
  return undefined;
}

/** Milliseconds a `Retry-After` header of `error` (an API error) asks for, if it names seconds. */
function retryAfterMs(error: unknown): number | undefined {
  const headers = (error as { headers?: Record<string, string> })?.headers;
  const value = headers?.["retry-after"];
  return value && /^\d+$/.test(value.trim()) ? Number(value) * 1000 : undefined;
}

/**
 * Runs `request` (one call of a client made by {@link objectClient}) until it succeeds, retrying transient
 * failures — HTTP 409, 429, 500, 502, 503, 504 and a dropped connection — up to {@link MAX_ATTEMPTS} attempts,
 * waiting 0.5 s, 1 s, 2 s (or the answer's `Retry-After`, at most 10 s) in between. Any other failure (a 4xx such as
 * 400, 403, 404 or 422, an unreachable server) is thrown at once as the client threw it.
 * @throws the client's error; Error `no answer within <n> s` when a request times out (not retried: it waited
 * already); Error `cancelled` when `policy.signal` aborts; after the last attempt, an Error with the API's message and
 * the number of attempts.
 */
export async function withRetries<T>(what: string, request: () => Promise<T>, policy: RequestPolicy): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await request();
    } catch (error) {
      if (policy.signal?.aborted) throw new Error("cancelled");
      if ((error as { name?: string })?.name === "TimeoutError") {
        throw new Error(`no answer within ${policy.timeoutSeconds} s`);
      }
      const status = (error as { code?: unknown })?.code;
      const transient =
        typeof status === "number" ? TRANSIENT_STATUSES.has(status) : TRANSIENT_NETWORK.has(networkCode(error) ?? "");
      if (!transient) throw error;
      const reason = kubernetesErrorMessage(error);
      if (attempt >= MAX_ATTEMPTS) throw new Error(`${reason} (${attempt} attempts)`);
      const wait = Math.min(MAX_RETRY_WAIT_MS, Math.max(RETRY_BASE_MS * 2 ** (attempt - 1), retryAfterMs(error) ?? 0));
      await policy.onRetry?.(
        `${what}: ${reason}; retrying in ${wait / 1000} s (attempt ${attempt + 1} of ${MAX_ATTEMPTS})`,
      );
      try {
        await sleep(wait, policy.signal ?? new AbortController().signal);
      } catch {
        throw new Error("cancelled");
      }
    }
  }
}

/** Options of {@link createKubernetesDeployer} (seconds, as in the configuration). */
export type KubernetesDeployerOptions = Pick<Config, "KUBECONFIG" | "SKIFF_ROLLOUT_TIMEOUT" | "SKIFF_BUILD_TIMEOUT">;

/** A Kubernetes object as read back (only the fields the waits look at). */
interface LiveObject {
  metadata?: { generation?: number };
  spec?: { replicas?: number };
  status?: {
    observedGeneration?: number;
    replicas?: number;
    updatedReplicas?: number;
    availableReplicas?: number;
    succeeded?: number;
    failed?: number;
    active?: number;
    conditions?: Array<{ type?: string; status?: string; reason?: string; message?: string }>;
  };
}

/** The readable message of a client error: the API's Status `message` when there is one. */
export function kubernetesErrorMessage(error: unknown): string {
  const e = error as { code?: number; body?: unknown; message?: string };
  if (typeof e?.code === "number" && e.body !== undefined) {
    let body = e.body;
    if (typeof body === "string") {
      const text = body;
      try {
        body = JSON.parse(text);
      } catch {
        return `HTTP ${e.code}: ${text.slice(0, 300)}`;
      }
    }
    const message = (body as { message?: unknown } | null)?.message;
    return `HTTP ${e.code}: ${typeof message === "string" ? message : JSON.stringify(body).slice(0, 300)}`;
  }
  if (!(error instanceof Error)) return String(error);
  // Network failures (undici's "fetch failed") carry the reason in `cause`, e.g. ECONNREFUSED or a TLS error.
  const cause = (error as { cause?: unknown }).cause;
  return cause instanceof Error && !error.message.includes(cause.message)
    ? `${error.message}: ${cause.message}`
    : error.message;
}

/**
 * Loads the kubeconfig: the KUBECONFIG file, else the default locations and the in-cluster config. A KUBECONFIG
 * list (`a:b`, as kubectl accepts) taken from the environment is merged by the client's default loader.
 */
export function loadKubeConfig(path: string | undefined): KubeConfig {
  const kc = new KubeConfig();
  if (path && !(path.includes(delimiter) && path === process.env.KUBECONFIG)) kc.loadFromFile(path);
  else kc.loadFromDefault();
  if (!kc.getCurrentCluster()) throw new Error("no Kubernetes cluster configured (set KUBECONFIG)");
  return kc;
}

/**
 * `manifest` as the client's models hold it, which is what its `patch` serializes: the client renames the fields
 * that are reserved words in its models (a NetworkPolicy rule's `from`, a LimitRange's `default`) and serializes
 * a plain object by the model's names, silently dropping those fields — an ingress rule without `from` admits
 * every peer. Reading the JSON through the client's YAML loader gives the model's names back.
 */
export function asClientModel(manifest: Manifest): KubernetesObject {
  return loadYaml(JSON.stringify(manifest));
}

/**
 * Applies `manifest` server-side as Skiff's field manager (forcing its fields), through the client's model of it
 * ({@link asClientModel}), transient failures retried ({@link withRetries}). @returns the object as the API server
 * stored it. @throws Error naming the object and the API server's message (or the timeout, or `cancelled`).
 */
export async function applyServerSide(
  client: KubernetesObjectApi,
  manifest: Manifest,
  policy: RequestPolicy,
): Promise<LiveObject> {
  try {
    return (await withRetries(
      `applying ${manifest.kind}/${manifest.metadata.name}`,
      () =>
        client.patch(asClientModel(manifest), undefined, undefined, FIELD_MANAGER, true, PatchStrategy.ServerSideApply),
      policy,
    )) as LiveObject;
  } catch (error) {
    throw new Error(`applying ${manifest.kind}/${manifest.metadata.name} failed: ${kubernetesErrorMessage(error)}`);
  }
}

/** Resolves after `ms`, or rejects as soon as `signal` aborts. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new Error("cancelled"));
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new Error("cancelled"));
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

/** `Kind/name`, for log lines and errors. */
const ref = (m: Manifest) => `${m.kind}/${m.metadata.name}`;

/** Why a Deployment is not rolled out yet, or null when it is (see the file comment). */
export function rolloutPending(live: LiveObject, generation: number): string | null {
  const desired = live.spec?.replicas ?? 1;
  const s = live.status ?? {};
  const stalled = s.conditions?.find((c) => c.type === "Progressing" && c.reason === "ProgressDeadlineExceeded");
  if (stalled) throw new Error(`rollout failed: ${stalled.message ?? "progress deadline exceeded"}`);
  if ((s.observedGeneration ?? 0) < generation) return `generation ${generation} not observed yet`;
  const updated = s.updatedReplicas ?? 0;
  const available = s.availableReplicas ?? 0;
  if (updated < desired) return `${updated}/${desired} replicas updated`;
  if ((s.replicas ?? 0) > updated) return `${(s.replicas ?? 0) - updated} old replicas pending termination`;
  if (available < desired) return `${available}/${desired} replicas available`;
  return null;
}

/** Whether a Job finished: "succeeded", the failure's reason, or null while it runs. */
export function jobOutcome(live: LiveObject): { ok: true } | { ok: false; reason: string } | null {
  const s = live.status ?? {};
  const failed = s.conditions?.find((c) => c.type === "Failed" && c.status === "True");
  if (failed) return { ok: false, reason: failed.message || failed.reason || "failed" };
  if ((s.succeeded ?? 0) >= 1) return { ok: true };
  if ((s.failed ?? 0) >= 1) return { ok: false, reason: `${s.failed} pod(s) failed` };
  return null;
}

/**
 * Follows the logs of build Job `job`'s pod into the deployment log (see the file comment): finds the pod by the
 * `job-name` label the Job controller sets, then streams each container's log (`follow=true`) in order, retrying a
 * container that has not started yet. Failures to read logs never fail the build. `stop()` ends the stream and
 * resolves once the lines read so far are written.
 */
function followBuildLogs(
  kc: KubeConfig,
  client: KubernetesObjectApi,
  namespace: string,
  job: Manifest,
  log: (text: string) => Promise<void>,
): { stop(): Promise<void> } {
  const spec = (
    job.spec as {
      template: { spec: { initContainers?: Array<{ name: string }>; containers: Array<{ name: string }> } };
    }
  ).template.spec;
  const containers = [...(spec.initContainers ?? []), ...spec.containers].map((c) => c.name);
  let stopped = false;
  /** Set when `stop()` cuts the streams: a log request answered after that is aborted at once. */
  let cut = false;
  let current: AbortController | null = null;
  let written = 0;
  let writes: Promise<void> = Promise.resolve();
  const emit = (line: string) => {
    if (written > MAX_BUILD_LOG_LINES) return;
    written += 1;
    const text =
      written > MAX_BUILD_LOG_LINES
        ? `[build] … more than ${MAX_BUILD_LOG_LINES} lines; the rest is in the pod's log`
        : `[build] ${line.slice(0, MAX_BUILD_LOG_LINE)}`;
    writes = writes.then(() => log(text)).catch(() => {});
  };
  const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms).unref());

  const loop = async () => {
    let pod: string | undefined;
    while (!stopped && !pod) {
      try {
        const list = await client.list(
          "v1",
          "Pod",
          namespace,
          undefined,
          undefined,
          undefined,
          undefined,
          `job-name=${job.metadata.name}`,
        );
        pod = list.items[0]?.metadata?.name;
      } catch {
        // not listable (yet, or not allowed): keep waiting for the Job itself
      }
      if (!pod) await wait(POLL_MS);
    }
    for (const container of containers) {
      while (!stopped && pod) {
        let rest = "";
        /** Emits the last line when it had no newline. */
        const flushRest = () => {
          if (rest) emit(rest);
          rest = "";
        };
        const finished = new Promise<void>((resolve) => {
          const sink = new Writable({
            write(chunk: Buffer, _encoding, done) {
              const lines = (rest + chunk.toString("utf8")).split("\n");
              rest = lines.pop() ?? "";
              for (const line of lines) emit(line);
              done();
            },
            final(done) {
              flushRest();
              done();
              resolve();
            },
          });
          sink.on("error", () => resolve());
          // The client pipes the response body into the sink without an error listener of its own: aborting a live
          // body would then throw an uncaught AbortError (the process would exit). The sink listens for it.
          sink.on("pipe", (source: NodeJS.ReadableStream) => {
            source.on("error", () => {
              flushRest();
              resolve();
            });
          });
          new Log(kc)
            .log(namespace, pod as string, container, sink, { follow: true })
            .then((controller) => {
              current = controller;
              if (cut) controller.abort();
            })
            .catch(() => {
              current = null;
              resolve();
              sink.destroy();
            });
        });
        await finished;
        if (current) break; // the container's log ended: it finished
        await wait(POLL_MS); // not started yet: try again
      }
      current = null;
    }
  };
  const running = loop().catch(() => {});
  return {
    async stop() {
      stopped = true;
      // The container has ended when its Job has: let the stream deliver its last lines (a log request still being
      // answered on a busy cluster included), then cut it.
      await Promise.race([running, wait(STOP_GRACE_MS)]);
      cut = true;
      current?.abort();
      await Promise.race([running, wait(1_000)]);
      await writes;
    },
  };
}

/** Creates the `kubernetes` deployer (the cluster connection is loaded per deployment). */
export function createKubernetesDeployer(options: KubernetesDeployerOptions): Deployer {
  return {
    name: "kubernetes",
    async apply(manifests, run) {
      if (manifests.some((m) => m.kind === "Job" && JSON.stringify(m).includes(`${NO_REGISTRY}/`))) {
        throw new Error(
          "no container registry to push the build to: add one to the organization or set SKIFF_DEFAULT_REGISTRY_URL",
        );
      }
      const kc = loadKubeConfig(options.KUBECONFIG);
      const fallback = kc.getContextObject(kc.getCurrentContext())?.namespace || "default";
      /** The namespace of `m`: its own, else the kubeconfig's (a Namespace is cluster-scoped: none). */
      const namespaceOf = (m: Manifest) => (m.kind === "Namespace" ? undefined : (m.metadata.namespace ?? fallback));
      const policy: RequestPolicy = {
        timeoutSeconds: requestTimeoutSeconds(options),
        signal: run.signal,
        onRetry: (message) => run.log(message, "warn"),
      };
      const client = objectClient(kc, policy);
      const namespaces = [...new Set(manifests.map(namespaceOf).filter(Boolean))].join(", ");
      await run.log(
        `applying ${manifests.length} objects to ${kc.getCurrentCluster()?.server} (namespace ${namespaces})`,
      );

      /** Reads `m` back from the cluster. */
      const read = async (m: Manifest): Promise<LiveObject> => {
        try {
          return (await withRetries(
            `reading ${ref(m)}`,
            () =>
              client.read({
                apiVersion: m.apiVersion,
                kind: m.kind,
                metadata: { name: m.metadata.name, namespace: namespaceOf(m) },
              }),
            policy,
          )) as LiveObject;
        } catch (error) {
          throw new Error(`reading ${ref(m)} failed: ${kubernetesErrorMessage(error)}`);
        }
      };

      /** Polls `check` until it returns a value, the timeout passes, or the deployment is cancelled. */
      async function waitFor<T>(
        what: string,
        timeoutSeconds: number,
        check: () => Promise<T | null>,
        progress: () => string,
      ): Promise<T> {
        const deadline = Date.now() + timeoutSeconds * 1000;
        for (;;) {
          if (run.signal.aborted) throw new Error(`cancelled while waiting for ${what}`);
          let result: T | null;
          try {
            result = await check();
          } catch (error) {
            if (run.signal.aborted) throw new Error(`cancelled while waiting for ${what}`);
            throw error;
          }
          if (result !== null) return result;
          if (Date.now() >= deadline) throw new Error(`${what} timed out after ${timeoutSeconds} s (${progress()})`);
          try {
            await sleep(POLL_MS, run.signal);
          } catch {
            throw new Error(`cancelled while waiting for ${what}`);
          }
        }
      }

      let rollout: { manifest: Manifest; generation: number } | null = null;
      for (const manifest of manifests) {
        if (run.signal.aborted) throw new Error("cancelled before every object was applied");
        const object = structuredClone(manifest);
        object.metadata = { ...object.metadata, namespace: namespaceOf(manifest) } as Manifest["metadata"];
        if (object.metadata.namespace === undefined) delete object.metadata.namespace;
        const applied = await applyServerSide(client, object, policy);
        await run.log(`applied ${ref(manifest)}`);

        if (manifest.kind === "Job") {
          await run.log(`waiting for build ${ref(manifest)} (up to ${options.SKIFF_BUILD_TIMEOUT} s)`);
          let last: LiveObject = applied;
          const buildLog = followBuildLogs(kc, client, namespaceOf(manifest)!, manifest, (text) => run.log(text));
          let outcome: Awaited<ReturnType<typeof jobOutcome>>;
          try {
            outcome = await waitFor(
              `build ${ref(manifest)}`,
              options.SKIFF_BUILD_TIMEOUT,
              async () => {
                last = await read(manifest);
                return jobOutcome(last);
              },
              () => `${last.status?.active ?? 0} pod(s) active`,
            );
          } finally {
            await buildLog.stop();
          }
          if (!outcome) throw new Error(`build ${ref(manifest)} ended without an outcome`);
          if (!outcome.ok) throw new Error(`build ${ref(manifest)} failed: ${outcome.reason}`);
          await run.log(`build ${ref(manifest)} succeeded`);
        }
        if (manifest.kind === "Deployment") {
          rollout = { manifest, generation: applied.metadata?.generation ?? 1 };
        }
      }

      if (!rollout) return;
      const { manifest, generation } = rollout;
      await run.log(`waiting for rollout of ${ref(manifest)} (up to ${options.SKIFF_ROLLOUT_TIMEOUT} s)`);
      let pending = "not read yet";
      try {
        await waitFor(
          `rollout of ${ref(manifest)}`,
          options.SKIFF_ROLLOUT_TIMEOUT,
          async () => {
            pending = rolloutPending(await read(manifest), generation) ?? "";
            return pending ? null : true;
          },
          () => pending,
        );
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        if (!run.signal.aborted) await run.reportAvailability(false, message);
        throw error;
      }
      await run.log(`rollout of ${ref(manifest)} complete`);
      await run.reportAvailability(true, `rollout of ${ref(manifest)} complete`);
    },
  };
}
