/**
 * Request lines in the logs: one per request (`request completed` or `request errored`, at `info`/`error`), carrying
 * the request (method, URL with credentials redacted — log-redaction.ts —, host, remote address), the status and
 * `responseTime` (ms). Fastify's default writes a second line, `incoming request`, for every request: here it is
 * written at `debug` only. At `info` the request lines cost a small request up to a tenth of Node's time
 * (shape 5 of bench:peer on a 2-core VM, 2026-11-26); the one line says everything both said, once the request is answered.
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import { LogController } from "fastify";

/** Fastify's `logController`: request lines as described above; the other lines as Fastify writes them. */
export class RequestLog extends LogController {
  /** `incoming request`, at `debug` (a request that never completes is seen there). */
  override incomingRequest(request: FastifyRequest): void {
    if (this.isLogDisabled(request)) return;
    request.log.debug({ req: request }, "incoming request");
  }

  /** The request's one line at `info` (`error` with `err` when the response failed). */
  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    const line = { req: request, res: reply, responseTime: reply.elapsedTime };
    if (error) reply.log.error({ ...line, err: error }, "request errored");
    else reply.log.info(line, "request completed");
  }
}
