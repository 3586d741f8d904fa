/**
 * Connection reuse for the Kubernetes API client. The client builds a new undici dispatcher for every request of a
 * kubeconfig naming a CA or a client certificate (an in-cluster service account does): each request then opens its
 * own TLS connection, and every such connection builds a TLS context that parses the CA into a copy of Node's root
 * store: three quarters of the CPU of a reconcile against a local API server. {@link reusingConnections} keeps the
 * first dispatcher and hands it to every later request of the same cluster and user, so the requests share
 * keep-alive connections.
 */
import type { KubeConfig, RequestContext, SecurityAuthentication } from "@kubernetes/client-node";

/**
 * `kc` as the API client's authentication, with one dispatcher (one keep-alive connection pool) per cluster and user
 * of `kc` for the life of the returned object: headers (tokens, exec credentials) are still applied per request;
 * the TLS material (CA, client certificate) is the one read for the first request, as the client's own agent cache
 * keeps it. Idle connections close by themselves (undici's keep-alive timeout).
 */
export function reusingConnections(kc: KubeConfig): SecurityAuthentication {
  const dispatchers = new Map<string, ReturnType<RequestContext["getDispatcher"]>>();
  return {
    getName: () => kc.getName(),
    async applySecurityAuthentication(context: RequestContext) {
      await kc.applySecurityAuthentication(context);
      const fresh = context.getDispatcher();
      if (!fresh) return;
      const key = JSON.stringify([kc.getCurrentCluster()?.name, kc.getCurrentUser()?.name]);
      const kept = dispatchers.get(key);
      if (kept) context.setDispatcher(kept);
      else dispatchers.set(key, fresh);
    },
  };
}
