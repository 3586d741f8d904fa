/**
 * `/docs/api`: Skiff's OpenAPI documents rendered by Swagger UI, bundled into this lazily loaded chunk (no CDN, so
 * the dashboard's Content-Security-Policy holds as it is). "Try it out" sends requests from this page: same origin,
 * so the session cookie goes along; "Authorize" takes a pasted API key or agent token instead.
 */
import { useEffect, useId, useRef, useState } from "react";
import SwaggerUI from "swagger-ui-dist/swagger-ui-es-bundle.js";
import { Link } from "../../shared/router.tsx";
import "swagger-ui-dist/swagger-ui.css";
import "./api-reference.css";

/** The served documents (src/modules/openapi.routes.ts, src/modules/agent/agent.rest.ts). */
export const API_DOCUMENTS = [
  { url: "/api/openapi.json", name: "Skiff REST API (site import, webhooks, deploy, docs theming)" },
  { url: "/api/agent/openapi.json", name: "Agent API" },
] as const;

/** The API reference page. */
export default function ApiReferencePage() {
  const [url, setUrl] = useState<string>(API_DOCUMENTS[0].url);
  const target = useRef<HTMLDivElement>(null);
  const selectId = useId();
  useEffect(() => {
    const node = target.current;
    if (!node) return;
    SwaggerUI({
      domNode: node,
      url,
      // No badge from the public validator service: nothing leaves Skiff.
      validatorUrl: null,
      deepLinking: false,
      tryItOutEnabled: true,
      persistAuthorization: false,
      requestInterceptor: (req: { credentials?: string }) => {
        req.credentials = "same-origin";
        return req;
      },
      // Swagger UI's server picker has no label of its own.
      onComplete: () => node.querySelector("#servers")?.setAttribute("aria-label", "Server"),
    });
  }, [url]);
  return (
    <>
      <h1>API reference</h1>
      <p>
        Requests made with “Try it out” use your session; “Authorize” takes an API key (Settings) instead. The GraphQL
        API has its own <Link href="/docs/graphql">explorer</Link>.
      </p>
      <div className="field">
        <label htmlFor={selectId}>Document</label>
        <select id={selectId} value={url} onChange={(e) => setUrl(e.target.value)}>
          {API_DOCUMENTS.map((d) => (
            <option key={d.url} value={d.url}>
              {d.name}
            </option>
          ))}
        </select>
      </div>
      <div ref={target} className="api-reference" data-testid="api-reference" />
    </>
  );
}
