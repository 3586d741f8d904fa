/**
 * The one client of the payment gateway's invite-only management API (spec: Payment gateway service),
 * configured by SKIFF_GATEWAY_URL and SKIFF_GATEWAY_API_KEY. The gateway is an operator-configured service, not a
 * user-given URL, so calls go straight through fetch (not the SSRF-checked outbound client), with a timeout.
 * The sandbox gateway (sandbox/gateway/) implements the same contract for development and tests.
 */
import type { Config } from "../../config.ts";
import { BadUserInputError, echoed } from "../../shared/errors.ts";

/** A merchant as the gateway reports it. */
export interface GatewayMerchant {
  id: string;
  status: "provisioning" | "active" | "released";
  /** Case-sensitive; null while provisioning. */
  code: string | null;
  /** HMAC-SHA256 key of the merchant's events; null while provisioning. */
  signingKey: string | null;
}

/** A payment method of the gateway's configuration with the merchant's toggle. */
export interface GatewayMethod {
  id: string;
  label: string;
  kind: string;
  enabled: boolean;
}

/** The gateway failed or answered unexpectedly (a server-side problem: masked as INTERNAL_SERVER_ERROR). */
export class GatewayError extends Error {
  override name = "GatewayError";
  /** HTTP status the gateway answered, when it answered. */
  readonly status?: number;
  constructor(message: string, status?: number) {
    super(message);
    this.status = status;
  }
}

/** Calls of the management API; every one may throw {@link GatewayError}. */
export interface GatewayClient {
  /** The gateway's base URL (`{gateway_host}`). */
  baseUrl: string;
  /** `{gateway_host}/api/pay?merchantCode=<code>` (spec: Endpoints → Payment gateway). */
  checkoutUrl(code: string): string;
  /** Creates a merchant; it starts `provisioning`. */
  createMerchant(input: { name: string; eventsUrl?: string }): Promise<GatewayMerchant>;
  getMerchant(id: string): Promise<GatewayMerchant>;
  /** Releases the merchant (in-flight payments and active subscriptions stop); a 404 counts as released. */
  releaseMerchant(id: string): Promise<void>;
  listMethods(merchantId: string): Promise<GatewayMethod[]>;
  /** @throws BadUserInputError for a method the gateway does not know (404). */
  setMethodEnabled(merchantId: string, method: string, enabled: boolean): Promise<GatewayMethod>;
}

const TIMEOUT_MS = 10_000;

/**
 * The client for `config`.
 * @throws BadUserInputError when SKIFF_GATEWAY_URL is not configured (payment gateway services are unavailable).
 */
export function gatewayClient(config: Pick<Config, "SKIFF_GATEWAY_URL" | "SKIFF_GATEWAY_API_KEY">): GatewayClient {
  const base = config.SKIFF_GATEWAY_URL?.replace(/\/+$/, "");
  if (!base) {
    throw new BadUserInputError("Payment gateway services are not available: SKIFF_GATEWAY_URL is not configured", {
      formErrors: ["SKIFF_GATEWAY_URL is not configured"],
    });
  }
  const headers: Record<string, string> = { "content-type": "application/json", accept: "application/json" };
  if (config.SKIFF_GATEWAY_API_KEY) headers.authorization = `Bearer ${config.SKIFF_GATEWAY_API_KEY}`;

  async function call<T>(method: string, path: string, body?: unknown, accept404 = false): Promise<T | null> {
    let res: Response;
    try {
      res = await fetch(`${base}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (err) {
      throw new GatewayError(`payment gateway unreachable (${method} ${path}): ${(err as Error).message}`);
    }
    if (accept404 && res.status === 404) return null;
    if (!res.ok) {
      const text = (await res.text().catch(() => "")).slice(0, 300);
      throw new GatewayError(`payment gateway answered ${res.status} to ${method} ${path}: ${text}`, res.status);
    }
    if (res.status === 204) return null;
    return (await res.json()) as T;
  }
  const merchantPath = (id: string) => `/v1/merchants/${encodeURIComponent(id)}`;

  return {
    baseUrl: base,
    checkoutUrl: (code) => `${base}/api/pay?merchantCode=${encodeURIComponent(code)}`,
    async createMerchant(input) {
      return (await call<GatewayMerchant>("POST", "/v1/merchants", input))!;
    },
    async getMerchant(id) {
      return (await call<GatewayMerchant>("GET", merchantPath(id)))!;
    },
    async releaseMerchant(id) {
      await call("DELETE", merchantPath(id), undefined, true);
    },
    async listMethods(merchantId) {
      return (await call<{ methods: GatewayMethod[] }>("GET", `${merchantPath(merchantId)}/methods`))!.methods;
    },
    async setMethodEnabled(merchantId, method, enabled) {
      const path = `${merchantPath(merchantId)}/methods/${encodeURIComponent(method)}`;
      const result = await call<GatewayMethod>("PUT", path, { enabled }, true);
      if (!result) {
        throw new BadUserInputError(`Unknown payment method ${echoed(method)}`, {
          fieldErrors: { method: ["Unknown method"] },
        });
      }
      return result;
    },
  };
}
