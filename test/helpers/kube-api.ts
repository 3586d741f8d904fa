/**
 * A FAKE Kubernetes API server for the `kubernetes` deployer's tests: a real HTTPS server on loopback (the test
 * CA's certificate, test/helpers/test-ca.ts) implementing only the slice of the API the deployer uses —
 * discovery (`GET /api/v1`, `GET /apis/<group>/<version>`: APIResourceList of Secret, Service, Deployment,
 * StatefulSet, Job, Ingress), server-side apply (`PATCH …/namespaces/<ns>/<plural>/<name>` with
 * `application/apply-patch+yaml`; other content types 415, a missing `fieldManager` 400 as the real server does)
 * and `GET` of one object. Objects are stored per namespace/kind/name; `metadata.generation` rises when `spec`
 * changes; `status` is never taken from an apply, only set by the test ({@link KubeApi.setStatus}, or the
 * `onApply` reaction), which is how tests simulate a rollout that completes, never completes, or a build Job that
 * fails. Pods are added by the test ({@link KubeApi.addPod}, playing the Job controller) and listed by label
 * (`GET …/pods?labelSelector=k=v`); their containers' logs are served by `GET …/pods/<name>/log?container=c`
 * (400 for a container without logs, as for one not started; `follow=true` streams the lines with a short pause
 * between them, then ends). Collections are listed by label selector (`GET …/namespaces/<ns>/<plural>?labelSelector=`,
 * `k=v` and `k` terms joined by commas) and objects deleted (`DELETE`, 404 when absent; {@link KubeApi.deleted}
 * records each, {@link KubeApi.holdDeletes} keeps them unanswered to let a test kill the client mid-delete). The
 * cluster-scoped `Namespace` is applied at `…/api/v1/namespaces/<name>` ({@link KubeApi.namespaces}), listed by
 * label selector at `/api/v1/namespaces`, and deleted with every object stored in it (the namespace controller's
 * part, at once).
 * Applied names are checked as the API server's validation does (422 `Invalid`): a Service's is a DNS-1035 label
 * (a letter first), a Namespace's a DNS-1123 label, any other object's a DNS-1123 subdomain. {@link KubeApi.faults}
 * injects failures into the object and collection requests (an error status with an optional `Retry-After`, a reset
 * connection, or no answer at all) to play an unreliable API server.
 * Requests need `Authorization: Bearer <token>` (401 otherwise). It is not a cluster: no controllers, no
 * admission, no garbage collection, no field ownership merge (an apply replaces the stored object's fields but keeps
 * its status).
 */
import { readFileSync, writeFileSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { inject } from "vitest";

/** A stored object. */
export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace: string; generation: number; uid: string; [k: string]: unknown };
  spec?: unknown;
  status?: Record<string, unknown>;
  [field: string]: unknown;
}

/** One request as the fake server saw it. */
export interface KubeRequest {
  method: string;
  /** Path without the query. */
  path: string;
  query: URLSearchParams;
  contentType: string | undefined;
  /** Parsed body of a PATCH. */
  body?: Record<string, unknown>;
}

/**
 * A failure injected into the requests matching `method` and `kind` (each optional: any), `times` times (then it is
 * removed): an error `status` (a Status object with `reason`, and `Retry-After: retryAfter` seconds when set),
 * `reset` (the connection is destroyed without an answer) or `hang` (never answered; `close()` ends it).
 */
export interface KubeFault {
  method?: string;
  kind?: string;
  /** Only objects with this name (object requests only). */
  name?: string;
  times: number;
  status?: number;
  retryAfter?: number;
  reset?: boolean;
  hang?: boolean;
}

/** A running fake API server. */
export interface KubeApi {
  /** `https://127.0.0.1:<port>`. */
  url: string;
  /** Bearer token it accepts. */
  token: string;
  /** Every request, oldest first. */
  requests: KubeRequest[];
  /** TLS connections accepted so far (a client reusing keep-alive connections opens few). */
  connections: number;
  /** The stored object, if any. */
  get(namespace: string, kind: string, name: string): KubeObject | undefined;
  /** Every stored object, in the order first applied. */
  objects(): KubeObject[];
  /** Sets the status of a stored object (as a controller would). */
  setStatus(namespace: string, kind: string, name: string, status: Record<string, unknown>): void;
  /** Called after each apply with the stored object: return a status to set it, or undefined to leave it. */
  onApply: (object: KubeObject) => Record<string, unknown> | undefined;
  /**
   * Answers applies of `kind` (of the object `name` only, when set) with this error status and message (a Status
   * object), until set to null.
   */
  failApply: { kind: string; name?: string; code: number; message: string } | null;
  /** Failures to inject, consumed in order of the list ({@link KubeFault}). */
  faults: KubeFault[];
  /** Names of the Namespaces applied (cluster-scoped objects, stored with namespace ""), oldest first. */
  namespaces(): string[];
  /** Every object deleted, oldest first (`namespace/Kind/name`). */
  deleted: string[];
  /** While true, DELETE requests are recorded but never answered (the object stays). */
  holdDeletes: boolean;
  /** Stores `object` as if applied (an object left by someone else, or before a test). */
  put(
    object: Omit<KubeObject, "metadata"> & { metadata: { name: string; namespace: string; [k: string]: unknown } },
  ): void;
  /** Removes a stored object without a request (as if it had never been applied); not recorded in `deleted`. */
  drop(namespace: string, kind: string, name: string): void;
  /** Adds a Pod with `labels` whose containers' logs are `logs` (container name → lines). */
  addPod(namespace: string, name: string, labels: Record<string, string>, logs: Record<string, string[]>): void;
  /** Writes a kubeconfig file pointing at this server (CA file of the test CA, the token, namespace `ns`). */
  writeKubeconfig(path: string, namespace?: string): void;
  close(): Promise<void>;
}

/** The resources the fake serves: apiVersion → kind → plural. */
const RESOURCES: Record<string, Record<string, string>> = {
  v1: {
    Secret: "secrets",
    Service: "services",
    Pod: "pods",
    PersistentVolumeClaim: "persistentvolumeclaims",
    Namespace: "namespaces",
    ResourceQuota: "resourcequotas",
    LimitRange: "limitranges",
  },
  "rbac.authorization.k8s.io/v1": { RoleBinding: "rolebindings" },
  "apps/v1": { Deployment: "deployments", StatefulSet: "statefulsets" },
  "batch/v1": { Job: "jobs" },
  "networking.k8s.io/v1": { Ingress: "ingresses", NetworkPolicy: "networkpolicies" },
  "gateway.networking.k8s.io/v1": { HTTPRoute: "httproutes" },
  "gateway.networking.k8s.io/v1beta1": { ReferenceGrant: "referencegrants" },
  "cert-manager.io/v1": { Certificate: "certificates" },
};

/** A Kubernetes Status error body. */
function status(res: ServerResponse, code: number, reason: string, message: string) {
  res.writeHead(code, { "content-type": "application/json" });
  res.end(JSON.stringify({ kind: "Status", apiVersion: "v1", status: "Failure", code, reason, message }));
}

/** DNS-1123 label: `[a-z0-9-]`, alphanumeric at both ends, at most 63 characters. */
const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;
/** DNS-1035 label: a DNS-1123 label starting with a letter. */
const DNS1035_LABEL = /^[a-z]([-a-z0-9]{0,61}[a-z0-9])?$/;

/** Why the API server would refuse `name` for an object of `kind`, or null (the name rules of its validation). */
function nameProblem(kind: string, name: string): string | null {
  if (kind === "Service") {
    return DNS1035_LABEL.test(name)
      ? null
      : "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character";
  }
  if (kind === "Namespace") {
    return DNS1123_LABEL.test(name)
      ? null
      : "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-'";
  }
  return name.length <= 253 && name.split(".").every((part) => DNS1123_LABEL.test(part))
    ? null
    : "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.'";
}

/** Starts the fake API server on 127.0.0.1 (random port). */
export async function startKubeApi(): Promise<KubeApi> {
  const tls = inject("testTls");
  const token = `fake-${Math.random().toString(36).slice(2)}`;
  const store = new Map<string, KubeObject>();
  const requests: KubeRequest[] = [];
  let uid = 0;
  const podLogs = new Map<string, Record<string, string[]>>();

  const api: KubeApi = {
    url: "",
    token,
    requests,
    connections: 0,
    get: (ns, kind, name) => store.get(`${ns}/${kind}/${name}`),
    objects: () => [...store.values()],
    setStatus(ns, kind, name, st) {
      const object = store.get(`${ns}/${kind}/${name}`);
      if (!object) throw new Error(`fake kube-api: no ${kind} ${ns}/${name}`);
      object.status = st;
    },
    onApply: () => undefined,
    failApply: null,
    faults: [],
    namespaces: () => [...store.values()].filter((o) => o.kind === "Namespace").map((o) => o.metadata.name),
    deleted: [],
    holdDeletes: false,
    put(object) {
      const key = `${object.metadata.namespace}/${object.kind}/${object.metadata.name}`;
      store.set(key, { ...object, metadata: { generation: 1, uid: `uid-${++uid}`, ...object.metadata } } as KubeObject);
    },
    drop(namespace, kind, name) {
      store.delete(`${namespace}/${kind}/${name}`);
    },
    addPod(namespace, name, labels, logs) {
      store.set(`${namespace}/Pod/${name}`, {
        apiVersion: "v1",
        kind: "Pod",
        metadata: { name, namespace, labels, generation: 1, uid: `uid-${++uid}` },
        status: { phase: "Running" },
      });
      podLogs.set(`${namespace}/${name}`, logs);
    },
    writeKubeconfig(path, namespace = "skiff-test") {
      const kubeconfig = {
        apiVersion: "v1",
        kind: "Config",
        clusters: [{ name: "fake", cluster: { server: api.url, "certificate-authority": tls.caFile } }],
        users: [{ name: "skiff", user: { token } }],
        contexts: [{ name: "fake", context: { cluster: "fake", user: "skiff", namespace } }],
        "current-context": "fake",
      };
      // JSON is YAML: the client's loader reads it as a kubeconfig file.
      writeFileSync(path, JSON.stringify(kubeconfig, null, 2));
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections(); // a held DELETE never ends by itself
      }),
  };

  /**
   * Plays the first fault matching the request, if any. @returns true when the request was answered (or is left
   * unanswered) by it.
   */
  function fault(req: IncomingMessage, res: ServerResponse, kind: string, name?: string): boolean {
    const i = api.faults.findIndex(
      (f) => (!f.method || f.method === req.method) && (!f.kind || f.kind === kind) && (!f.name || f.name === name),
    );
    if (i < 0) return false;
    const f = api.faults[i]!;
    f.times -= 1;
    if (f.times <= 0) api.faults.splice(i, 1);
    if (f.hang) return true;
    if (f.reset) {
      req.socket.destroy();
      return true;
    }
    if (f.retryAfter !== undefined) res.setHeader("retry-after", String(f.retryAfter));
    const reason = f.status === 429 ? "TooManyRequests" : f.status === 409 ? "Conflict" : "InternalError";
    status(res, f.status ?? 500, reason, `injected ${f.status ?? 500}`);
    return true;
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? "/", "https://fake");
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString("utf8");
    const recorded: KubeRequest = {
      method: req.method ?? "",
      path: url.pathname,
      query: url.searchParams,
      contentType: req.headers["content-type"],
    };
    requests.push(recorded);
    if (req.headers.authorization !== `Bearer ${token}`) return status(res, 401, "Unauthorized", "Unauthorized");

    // Discovery: /api/v1 and /apis/<group>/<version>.
    const discovery = url.pathname.match(/^\/(?:api\/(v1)|apis\/([^/]+\/[^/]+))$/);
    if (discovery && req.method === "GET") {
      const apiVersion = discovery[1] ?? discovery[2]!;
      const kinds = RESOURCES[apiVersion];
      if (!kinds) return status(res, 404, "NotFound", `the server could not find ${url.pathname}`);
      res.writeHead(200, { "content-type": "application/json" });
      return res.end(
        JSON.stringify({
          kind: "APIResourceList",
          apiVersion: "v1",
          groupVersion: apiVersion,
          resources: Object.entries(kinds).map(([kind, name]) => ({
            name,
            singularName: kind.toLowerCase(),
            namespaced: kind !== "Namespace",
            kind,
            verbs: ["get", "patch", "create", "delete", "list"],
          })),
        }),
      );
    }

    const logPath = url.pathname.match(/^\/api\/v1\/namespaces\/([^/]+)\/pods\/([^/]+)\/log$/);
    if (logPath && req.method === "GET") {
      const lines = podLogs.get(`${logPath[1]}/${logPath[2]}`)?.[url.searchParams.get("container") ?? ""];
      if (!lines) return status(res, 400, "BadRequest", `container is waiting to start: PodInitializing`);
      res.writeHead(200, { "content-type": "text/plain" });
      for (const line of lines) {
        res.write(`${line}\n`);
        if (url.searchParams.get("follow") === "true") await new Promise((r) => setTimeout(r, 20));
      }
      return res.end();
    }
    const list =
      url.pathname.match(/^\/(?:api\/(v1)|apis\/([^/]+\/[^/]+))\/namespaces\/([^/]+)\/([^/]+)$/) ??
      (url.pathname === "/api/v1/namespaces" ? ["", "v1", undefined, "", "namespaces"] : null);
    if (list && req.method === "GET") {
      const listVersion = list[1] ?? list[2]!;
      const listKind = Object.entries(RESOURCES[listVersion] ?? {}).find(([, p]) => p === list[4])?.[0];
      if (!listKind) return status(res, 404, "NotFound", `the server could not find the requested resource`);
      if (fault(req, res, listKind)) return;
      const terms = (url.searchParams.get("labelSelector") ?? "").split(",").filter(Boolean);
      const items = [...store.values()].filter((o) => {
        if (o.kind !== listKind || o.metadata.namespace !== list[3]) return false;
        const labels = (o.metadata.labels ?? {}) as Record<string, string>;
        return terms.every((term) => {
          const [k, v] = term.split("=");
          return v === undefined ? k! in labels : labels[k!] === v;
        });
      });
      res.writeHead(200, { "content-type": "application/json" });
      return res.end(JSON.stringify({ kind: `${listKind}List`, apiVersion: listVersion, metadata: {}, items }));
    }
    // A namespaced object, or a Namespace (cluster-scoped: stored with namespace "").
    const m =
      url.pathname.match(/^\/(?:api\/(v1)|apis\/([^/]+\/[^/]+))\/namespaces\/([^/]+)\/([^/]+)\/([^/]+)$/) ??
      url.pathname.match(/^\/api\/(v1)\/(?<plural>namespaces)\/([^/]+)$/);
    if (!m) return status(res, 404, "NotFound", `the server could not find ${url.pathname}`);
    const apiVersion = m[1] ?? m[2]!;
    const [namespace, plural, name] = m.groups?.plural
      ? ["", "namespaces", decodeURIComponent(m[3]!)]
      : [m[3]!, m[4]!, decodeURIComponent(m[5]!)];
    const kind = Object.entries(RESOURCES[apiVersion] ?? {}).find(([, p]) => p === plural)?.[0];
    if (!kind) return status(res, 404, "NotFound", `the server could not find the requested resource`);
    const key = `${namespace}/${kind}/${name}`;
    if (fault(req, res, kind, name)) return;

    if (req.method === "GET") {
      const object = store.get(key);
      if (!object) return status(res, 404, "NotFound", `${plural} "${name}" not found`);
      res.writeHead(200, { "content-type": "application/json" });
      return res.end(JSON.stringify(object));
    }
    if (req.method === "DELETE") {
      if (api.holdDeletes) return; // never answered: the client is killed or gives up
      if (!store.delete(key)) return status(res, 404, "NotFound", `${plural} "${name}" not found`);
      api.deleted.push(key);
      // The namespace controller's part: what the Namespace held goes with it (not recorded in `deleted`).
      if (kind === "Namespace") {
        for (const [k, o] of store) if (o.metadata.namespace === name) store.delete(k);
      }
      res.writeHead(200, { "content-type": "application/json" });
      return res.end(JSON.stringify({ kind: "Status", apiVersion: "v1", status: "Success", code: 200 }));
    }
    if (req.method !== "PATCH") return status(res, 405, "MethodNotAllowed", `${req.method} is not supported here`);
    if (req.headers["content-type"] !== "application/apply-patch+yaml") {
      return status(res, 415, "UnsupportedMediaType", `the body of the request was in an unknown format`);
    }
    if (!url.searchParams.get("fieldManager")) {
      return status(res, 400, "BadRequest", `PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value`);
    }
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(raw) as Record<string, unknown>; // the client sends JSON, which is YAML
    } catch {
      return status(res, 400, "BadRequest", "error decoding YAML");
    }
    recorded.body = body;
    const meta = (body.metadata ?? {}) as Record<string, unknown>;
    if (body.kind !== kind || body.apiVersion !== apiVersion || meta.name !== name) {
      return status(
        res,
        400,
        "BadRequest",
        `the body names ${String(body.kind)} ${String(meta.name)}, the URL ${kind} ${name}`,
      );
    }
    if (meta.namespace !== undefined && meta.namespace !== (namespace || undefined)) {
      return status(
        res,
        400,
        "BadRequest",
        "the namespace of the provided object does not match the namespace sent on the request",
      );
    }
    const invalidName = nameProblem(kind, name);
    if (invalidName) {
      return status(
        res,
        422,
        "Invalid",
        `${kind} "${name}" is invalid: metadata.name: Invalid value: "${name}": ${invalidName}`,
      );
    }
    if (api.failApply?.kind === kind && (!api.failApply.name || api.failApply.name === name)) {
      return status(res, api.failApply.code, "Invalid", api.failApply.message);
    }
    const previous = store.get(key);
    const generation = !previous
      ? 1
      : JSON.stringify(previous.spec) === JSON.stringify(body.spec)
        ? previous.metadata.generation
        : previous.metadata.generation + 1;
    const { status: _ignored, ...fields } = body;
    const object: KubeObject = {
      ...fields,
      apiVersion,
      kind,
      metadata: {
        ...meta,
        name,
        namespace,
        generation,
        uid: previous?.metadata.uid ?? `uid-${++uid}`,
        managedFields: [{ manager: url.searchParams.get("fieldManager"), operation: "Apply" }],
      },
      ...(previous?.status && { status: previous.status }),
    };
    store.set(key, object); // a re-apply keeps the object's place: objects() lists them in first-apply order
    const reaction = api.onApply(object);
    if (reaction) object.status = reaction;
    res.writeHead(previous ? 200 : 201, { "content-type": "application/json" });
    res.end(JSON.stringify(object));
  }

  const server: Server = createServer(
    { cert: readFileSync(tls.certFile), key: readFileSync(tls.keyFile) },
    (req, res) => {
      handle(req, res).catch((error) => status(res, 500, "InternalError", String(error)));
    },
  );
  server.on("secureConnection", () => {
    api.connections += 1;
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  api.url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return api;
}
