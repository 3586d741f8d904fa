/**
 * The sandbox payment gateway: a development stand-in for the real gateway (`{gateway_host}`) with the same
 * contract (spec: Payment gateway service, Endpoints → Payment gateway, Payment gateway events). It is its own
 * HTTP server (`npm run gateway:sandbox`); Skiff never imports this folder and reaches it only over HTTP.
 *
 * Management API (invite-only: `Authorization: Bearer <apiKey>` when the sandbox has an `apiKey`), JSON:
 * - `POST /v1/merchants` `{ name?, eventsUrl? }` → 201 `{ id, status: "provisioning", code: null, signingKey: null }`;
 *   the merchant becomes `active` with its `code` and `signingKey` after `activationDelayMs`.
 * - `GET /v1/merchants/:id` → the merchant (`status` provisioning | active | released).
 * - `DELETE /v1/merchants/:id` → 204: released (checkout refused, no more events).
 * - `GET /v1/merchants/:id/methods` → `{ methods: [{ id, label, kind, enabled }] }` (the configured list).
 * - `PUT /v1/merchants/:id/methods/:method` `{ enabled }` → the method; affects payments started afterwards only.
 *
 * Demo pages: `GET /` asks for a merchant code, `GET /demo?merchantCode=` shows a shop's form posting to checkout.
 * Checkout: `POST /api/pay?merchantCode=<code>` with form fields `amount`, `currency`, `reference`, `returnUrl`
 * → 200 HTML method picker (the methods enabled at that moment); an unknown code (a difference in case is
 * unknown: codes are case-sensitive) → 404 HTML error page; invalid fields → 400 HTML error page.
 * `POST /checkout/:paymentId` with form fields `method`, `number` → 200 result page; the payment succeeds with
 * {@link SUCCESS_NUMBERS} and fails with {@link FAILURE_NUMBERS} (others → 400), and an event
 * (`invoice.payment_succeeded` / `invoice.payment_failed`) is POSTed to the events URL, signed in header
 * `x-gateway-signature` = lowercase hex HMAC-SHA256 of the raw body keyed with the merchant's signing key.
 * Event body: `{ id, type, created, merchantCode, data: { paymentId, amount, currency, method, reference },
 * metadata: { externalReference } }`. `POST /v1/merchants/:id/events` `{ type, externalReference, data? }` sends
 * any event (subscription events, unknown types) the same way, for tests and demos.
 */
import { createHmac, randomBytes, randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** Card and mobile-money numbers whose payment succeeds. */
export const SUCCESS_NUMBERS = ["4242424242424242", "670000001"];
/** Card and mobile-money numbers whose payment fails. */
export const FAILURE_NUMBERS = ["4000000000000002", "670000002"];

/** A payment method of the gateway's configuration. */
export interface SandboxMethod {
  id: string;
  label: string;
  kind: "mobile_money" | "card";
}

/** The configured method list (mobile money and card). */
export const SANDBOX_METHODS: readonly SandboxMethod[] = [
  { id: "orange_money", label: "Orange Money", kind: "mobile_money" },
  { id: "mtn_momo", label: "MTN Mobile Money", kind: "mobile_money" },
  { id: "card", label: "Card", kind: "card" },
];

/** A merchant as the management API shows it. */
export interface SandboxMerchant {
  id: string;
  name: string;
  status: "provisioning" | "active" | "released";
  code: string | null;
  signingKey: string | null;
  /** Overrides the sandbox's events URL for this merchant. */
  eventsUrl: string | null;
  disabledMethods: Set<string>;
}

/** One event the sandbox sent (or tried to). */
export interface SentEvent {
  merchantId: string;
  url: string;
  body: string;
  signature: string;
  /** HTTP status of the answer, or null when unreachable. */
  status: number | null;
}

/** Options of {@link startSandboxGateway}. */
export interface SandboxOptions {
  /** Default 0 (any free port). */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Required bearer credential of the management API; unset: any (or none) is accepted. */
  apiKey?: string;
  /** Delay in ms before a new merchant becomes active. Default 1 000. */
  activationDelayMs?: number;
  /** Where events go unless the merchant has its own `eventsUrl` (e.g. `http://127.0.0.1:4000/api/payment-gateway/events`). */
  eventsUrl?: string;
  /** Log lines (default: none). */
  log?: (line: string) => void;
}

/** A running sandbox. */
export interface SandboxGateway {
  /** `http://host:port`. */
  url: string;
  merchants: Map<string, SandboxMerchant>;
  /** Every event sent, oldest first. */
  events: SentEvent[];
  /** Sends every merchant's events to `url` (overrides theirs: tests learn Skiff's port only after starting it). */
  setEventsUrl(url: string): void;
  /** Resolves once `count` events have been sent and answered (or failed); rejects after `timeoutMs`. */
  waitForEvents(count: number, timeoutMs?: number): Promise<SentEvent[]>;
  close(): Promise<void>;
}

interface Payment {
  id: string;
  merchantId: string;
  amount: string;
  currency: string;
  reference: string;
  returnUrl: string;
  methods: string[];
  status: "pending" | "succeeded" | "failed";
}

const html = (title: string, body: string) =>
  `<!doctype html><html><head><meta charset="utf-8"><title>${esc(title)}</title></head><body><h1>${esc(title)}</h1>${body}</body></html>`;

function esc(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

async function readBody(req: IncomingMessage, limit = 64 * 1024): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw Object.assign(new Error("body too large"), { status: 413 });
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** Starts a sandbox gateway on loopback (by default) and resolves once it listens. */
export async function startSandboxGateway(options: SandboxOptions = {}): Promise<SandboxGateway> {
  const activationDelayMs = options.activationDelayMs ?? 1_000;
  const log = options.log ?? (() => {});
  const defaultEventsUrl = options.eventsUrl ?? null;
  let forcedEventsUrl: string | null = null;
  const merchants = new Map<string, SandboxMerchant>();
  const payments = new Map<string, Payment>();
  const events: SentEvent[] = [];
  const waiters = new Set<() => void>();
  const timers = new Set<NodeJS.Timeout>();

  const merchantView = (m: SandboxMerchant) => ({
    id: m.id,
    name: m.name,
    status: m.status,
    code: m.code,
    signingKey: m.signingKey,
  });

  async function sendEvent(m: SandboxMerchant, type: string, externalReference: string, data: object) {
    const url = forcedEventsUrl ?? m.eventsUrl ?? defaultEventsUrl;
    if (!url || m.status !== "active" || !m.code || !m.signingKey) return;
    const body = JSON.stringify({
      id: `evt_${randomBytes(8).toString("hex")}`,
      type,
      created: new Date().toISOString(),
      merchantCode: m.code,
      data,
      metadata: { externalReference },
    });
    const signature = createHmac("sha256", m.signingKey).update(body).digest("hex");
    let status: number | null = null;
    try {
      const res = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json", "x-gateway-signature": signature },
        body,
        signal: AbortSignal.timeout(30_000),
      });
      status = res.status;
      await res.arrayBuffer();
    } catch (err) {
      log(`event ${type} to ${url} failed: ${(err as Error).message}`);
    }
    log(`event ${type} → ${url}: ${status ?? "unreachable"}`);
    events.push({ merchantId: m.id, url, body, signature, status });
    for (const wake of waiters) wake();
  }

  const authorized = (req: IncomingMessage) =>
    !options.apiKey || req.headers.authorization === `Bearer ${options.apiKey}`;

  function json(res: ServerResponse, status: number, body?: unknown) {
    res.writeHead(status, body === undefined ? {} : { "content-type": "application/json" });
    res.end(body === undefined ? undefined : JSON.stringify(body));
  }
  function page(res: ServerResponse, status: number, title: string, body: string) {
    res.writeHead(status, { "content-type": "text/html; charset=utf-8" });
    res.end(html(title, body));
  }

  async function management(req: IncomingMessage, res: ServerResponse, parts: string[]) {
    if (!authorized(req)) return json(res, 401, { error: "invalid API key" });
    const [, , id, sub, method] = parts; // ["v1", "merchants", id?, sub?, method?]
    if (!id) {
      if (req.method !== "POST") return json(res, 405, { error: "method not allowed" });
      let input: { name?: unknown; eventsUrl?: unknown };
      try {
        input = JSON.parse((await readBody(req)) || "{}");
      } catch {
        return json(res, 400, { error: "body must be JSON" });
      }
      const m: SandboxMerchant = {
        id: `mch_${randomUUID()}`,
        name: typeof input.name === "string" ? input.name : "merchant",
        status: "provisioning",
        code: null,
        signingKey: null,
        eventsUrl: typeof input.eventsUrl === "string" ? input.eventsUrl : null,
        disabledMethods: new Set(),
      };
      merchants.set(m.id, m);
      const timer = setTimeout(() => {
        timers.delete(timer);
        if (m.status !== "provisioning") return;
        // Mixed case on purpose: codes are case-sensitive.
        m.code = `Mc${randomBytes(6).toString("hex").toUpperCase()}x`;
        m.signingKey = randomBytes(32).toString("hex");
        m.status = "active";
        log(`merchant ${m.id} active as ${m.code}`);
      }, activationDelayMs);
      timers.add(timer);
      return json(res, 201, merchantView(m));
    }
    const m = merchants.get(id);
    if (!m) return json(res, 404, { error: "unknown merchant" });
    if (!sub) {
      if (req.method === "GET") return json(res, 200, merchantView(m));
      if (req.method === "DELETE") {
        m.status = "released";
        for (const p of payments.values()) if (p.merchantId === m.id && p.status === "pending") p.status = "failed";
        log(`merchant ${m.id} released`);
        return json(res, 204);
      }
      return json(res, 405, { error: "method not allowed" });
    }
    if (m.status === "released") return json(res, 410, { error: "merchant released" });
    if (sub === "methods" && !method && req.method === "GET") {
      return json(res, 200, {
        methods: SANDBOX_METHODS.map((x) => ({ ...x, enabled: !m.disabledMethods.has(x.id) })),
      });
    }
    if (sub === "methods" && method && req.method === "PUT") {
      const known = SANDBOX_METHODS.find((x) => x.id === method);
      if (!known) return json(res, 404, { error: `unknown method ${method}` });
      let input: { enabled?: unknown };
      try {
        input = JSON.parse(await readBody(req));
      } catch {
        return json(res, 400, { error: "body must be JSON" });
      }
      if (typeof input.enabled !== "boolean") return json(res, 400, { error: "enabled must be a boolean" });
      if (input.enabled) m.disabledMethods.delete(method);
      else m.disabledMethods.add(method);
      return json(res, 200, { ...known, enabled: input.enabled });
    }
    if (sub === "events" && req.method === "POST") {
      let input: { type?: unknown; externalReference?: unknown; data?: unknown };
      try {
        input = JSON.parse(await readBody(req));
      } catch {
        return json(res, 400, { error: "body must be JSON" });
      }
      if (typeof input.type !== "string" || typeof input.externalReference !== "string") {
        return json(res, 400, { error: "type and externalReference are required strings" });
      }
      await sendEvent(m, input.type, input.externalReference, (input.data as object) ?? {});
      return json(res, 202, { sent: true });
    }
    return json(res, 404, { error: "not found" });
  }

  async function checkout(req: IncomingMessage, res: ServerResponse, url: URL) {
    const code = url.searchParams.get("merchantCode") ?? "";
    // Exact, case-sensitive match (spec: a code differing in case or value is an error).
    const m = [...merchants.values()].find((x) => x.code === code && x.status === "active");
    if (!m) return page(res, 404, "Unknown merchant", "<p>No active merchant has this merchant code.</p>");
    const form = new URLSearchParams(await readBody(req));
    const amount = form.get("amount") ?? "";
    const currency = form.get("currency") ?? "";
    const reference = form.get("reference") ?? "";
    const returnUrl = form.get("returnUrl") ?? "";
    const problems: string[] = [];
    if (!/^\d+(\.\d{1,2})?$/.test(amount) || Number(amount) <= 0) problems.push("amount must be a positive number");
    if (!/^[A-Z]{3}$/.test(currency)) problems.push("currency must be a 3-letter currency code");
    if (!reference || reference.length > 200) problems.push("reference is required (at most 200 characters)");
    if (!URL.canParse(returnUrl) || !/^https?:$/.test(new URL(returnUrl).protocol)) {
      problems.push("returnUrl must be an http(s) URL");
    }
    if (problems.length) {
      return page(res, 400, "Invalid payment", `<ul>${problems.map((p) => `<li>${esc(p)}</li>`).join("")}</ul>`);
    }
    const methods = SANDBOX_METHODS.filter((x) => !m.disabledMethods.has(x.id)).map((x) => x.id);
    const p: Payment = {
      id: `pay_${randomUUID()}`,
      merchantId: m.id,
      amount,
      currency,
      reference,
      returnUrl,
      methods,
      status: "pending",
    };
    payments.set(p.id, p);
    const options = SANDBOX_METHODS.filter((x) => methods.includes(x.id))
      .map((x) => `<label><input type="radio" name="method" value="${x.id}" required> ${esc(x.label)}</label><br>`)
      .join("");
    return page(
      res,
      200,
      `Pay ${amount} ${currency} to ${m.name}`,
      `<form method="post" action="/checkout/${p.id}" data-payment="${p.id}">${options}
<label>Card or phone number <input name="number" required></label>
<p>Sandbox: ${SUCCESS_NUMBERS.join(", ")} succeed; ${FAILURE_NUMBERS.join(", ")} fail.</p>
<button type="submit">Pay</button></form>`,
    );
  }

  async function pay(req: IncomingMessage, res: ServerResponse, paymentId: string) {
    const p = payments.get(paymentId);
    if (!p) return page(res, 404, "Unknown payment", "<p>No such payment.</p>");
    if (p.status !== "pending") return page(res, 409, "Payment closed", `<p>This payment is ${p.status}.</p>`);
    const m = merchants.get(p.merchantId)!;
    if (m.status !== "active") return page(res, 410, "Merchant released", "<p>Payments to this merchant stopped.</p>");
    const form = new URLSearchParams(await readBody(req));
    const method = form.get("method") ?? "";
    const number = (form.get("number") ?? "").replace(/[\s-]/g, "");
    if (!p.methods.includes(method)) return page(res, 400, "Method unavailable", "<p>Pick an offered method.</p>");
    const ok = SUCCESS_NUMBERS.includes(number);
    if (!ok && !FAILURE_NUMBERS.includes(number)) {
      return page(res, 400, "Unknown test number", "<p>Use one of the sandbox's test numbers.</p>");
    }
    p.status = ok ? "succeeded" : "failed";
    const data = { paymentId: p.id, amount: p.amount, currency: p.currency, method, reference: p.reference };
    void sendEvent(m, ok ? "invoice.payment_succeeded" : "invoice.payment_failed", p.reference, data);
    const back = new URL(p.returnUrl);
    back.searchParams.set("payment", p.id);
    back.searchParams.set("status", p.status);
    return page(
      res,
      200,
      ok ? "Payment succeeded" : "Payment failed",
      `<p data-status="${p.status}">Payment ${esc(p.id)} ${p.status}.</p><a href="${esc(back.href)}">Back to the shop</a>`,
    );
  }

  const server = createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? "/", "http://sandbox");
      const parts = url.pathname.split("/").filter(Boolean);
      if (parts[0] === "v1" && parts[1] === "merchants") return await management(req, res, parts);
      if (url.pathname === "/api/pay" && req.method === "POST") return await checkout(req, res, url);
      if (parts[0] === "checkout" && parts.length === 2 && req.method === "POST") return await pay(req, res, parts[1]!);
      if (url.pathname === "/" && req.method === "GET") {
        return page(
          res,
          200,
          "Sandbox payment gateway",
          `<p>Development stand-in of the payment gateway. Start a test payment as a merchant's shop would:</p>
<form method="get" action="/demo"><label>Merchant code <input name="merchantCode" required></label>
<button type="submit">Next</button></form>`,
        );
      }
      if (url.pathname === "/demo" && req.method === "GET") {
        // The form a merchant's shop posts to the checkout endpoint (spec: Endpoints → Payment gateway).
        const code = url.searchParams.get("merchantCode") ?? "";
        return page(
          res,
          200,
          "Demo shop",
          `<form method="post" action="/api/pay?merchantCode=${encodeURIComponent(code)}">
<label>Amount <input name="amount" value="2500"></label> <label>Currency <input name="currency" value="XAF"></label>
<label>Reference <input name="reference" value="order-${randomBytes(3).toString("hex")}"></label>
<input type="hidden" name="returnUrl" value="${esc(`http://${req.headers.host ?? "localhost"}/`)}">
<button type="submit">Pay with the sandbox gateway</button></form>`,
        );
      }
      return json(res, 404, { error: "not found" });
    } catch (err) {
      const status = (err as { status?: number }).status ?? 500;
      if (!res.headersSent) json(res, status, { error: (err as Error).message });
      else res.destroy();
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;

  return {
    url: `http://${host}:${address.port}`,
    merchants,
    events,
    setEventsUrl(url) {
      forcedEventsUrl = url;
    },
    waitForEvents(count, timeoutMs = 20_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (events.length < count) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(events.slice(0, count));
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`sandbox sent ${events.length} of ${count} events within ${timeoutMs} ms`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    async close() {
      for (const t of timers) clearTimeout(t);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
