/* eslint-disable */
/* tslint:disable */
// @ts-nocheck
/*
 * ---------------------------------------------------------------
 * ## THIS FILE WAS GENERATED VIA SWAGGER-TYPESCRIPT-API        ##
 * ##                                                           ##
 * ## AUTHOR: acacode                                           ##
 * ## SOURCE: https://github.com/acacode/swagger-typescript-api ##
 * ---------------------------------------------------------------
 */

export interface DeliveryAttempt {
  /**
   * @min 1
   * @max 9007199254740991
   */
  attempt: number;
  /** @format date-time */
  created_at: string;
  delivery_id: string;
  /**
   * @min 0
   * @max 9007199254740991
   */
  duration_ms: number;
  error_message: string | null;
  event: string;
  response_body: string | null;
  response_status: number | null;
  success: boolean;
  [key: string]: any;
}

/** A push (or other event) that does not deploy, or GitHub's ping. */
export type DeployNotTriggered =
  | {
      deployed: false;
      /** E.g. `branch "feature/x" does not match "main"`, `auto-deploy is off`. */
      reason: string;
      [key: string]: any;
    }
  | {
      event: "ping";
      ok: true;
      [key: string]: any;
    };

/** A deployment was queued (or deduplicated by commit SHA). */
export interface DeployQueued {
  /** Present when an existing deployment is answered. */
  deduplicated?: true;
  /** `dpl_…`; follow it with the `deploymentUpdated` subscription. */
  deploymentId: string;
  status: "queued" | "running" | "done" | "error" | "cancelled";
  [key: string]: any;
}

/** An API trigger (no provider header); may be empty. */
export interface DeployTriggerRequest {
  /**
   * Commit deployed; the same SHA within 10 minutes answers the existing deployment.
   * @pattern ^[0-9a-fA-F]{7,64}$
   */
  commitSha?: string;
  /** Deployment title: its first line, trimmed, at most 200 characters (longer is cut). */
  title?: string;
  [key: string]: any;
}

/** What went wrong (`fieldErrors`: messages by field, on some 400s). */
export interface DocsError {
  error: string;
  fieldErrors?: Partial<Record<string, string[]>>;
  [key: string]: any;
}

/** Where the theme is. */
export interface DocsLookup {
  cloudUrl: string;
  [key: string]: any;
}

/** One result per reported hostname. */
export interface DocsSyncResults {
  results: {
    accepted: boolean;
    conflict: boolean;
    /** CNAME state of the hostname. */
    dns: "PENDING" | "OK" | "WRONG_TARGET";
    hostname: string;
    [key: string]: any;
  }[];
  [key: string]: any;
}

/** An organization's docs theme, as docs sites apply it. */
export interface DocsTheme {
  /** Same entries, dark mode. */
  colorsDark: Partial<Record<string, string>>;
  /** Entry name → HSL triple (`222 47% 11%`); `primary` always present. */
  colorsLight: Partial<Record<string, string>>;
  customCss: string | null;
  faviconUrl: string | null;
  footerText: string;
  logoUrl: string;
  siteName: string;
  /**
   * Last change, ISO 8601 UTC.
   * @format date-time
   * @pattern ^(?:(?:\d\d[2468][048]|\d\d[13579][26]|\d\d0[48]|[02468][048]00|[13579][26]00)-02-29|\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\d|30)|(?:02)-(?:0[1-9]|1\d|2[0-8])))T(?:(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d(?:\.\d+)?(?:Z))$
   */
  updatedAt: string;
  [key: string]: any;
}

/** What went wrong; `errorId` names the server log line of a 500. */
export interface Error {
  error: string;
  errorId?: string;
  [key: string]: any;
}

/** The caller's role or plan does not allow this. */
export interface Forbidden {
  error: string;
  plan_feature?: string;
  [key: string]: any;
}

/** GitHub `push` webhook payload (`X-GitHub-Event: push`). */
export interface GitHubPushPayload {
  /** Head commit SHA (all zeros: the branch was deleted). */
  after?: string;
  /** Changed paths, for `watchPaths`. */
  commits?: {
    added?: string[];
    modified?: string[];
    removed?: string[];
    [key: string]: any;
  }[];
  /** Its message may skip the deployment (`[skip ci]`, `[ci skip]`, `[no ci]`, `[skip deploy]`). */
  head_commit?: {
    message: string;
    [key: string]: any;
  } | null;
  /** `refs/heads/<branch>` (tags never deploy). */
  ref: string;
  [key: string]: any;
}

/** GitLab push webhook payload (`X-Gitlab-Event: Push Hook`). */
export interface GitLabPushPayload {
  after?: string;
  /** Head commit SHA (else `after`). */
  checkout_sha?: string | null;
  /** The head commit's message may skip the deployment; changed paths, for `watchPaths`. */
  commits?: {
    added?: string[];
    id?: string;
    message?: string;
    modified?: string[];
    removed?: string[];
    [key: string]: any;
  }[];
  /** `refs/heads/<branch>` (tags never deploy). */
  ref: string;
  [key: string]: any;
}

/** An OpenAPI 3.1 document. */
export interface OpenApiDocument {
  info: {
    title: string;
    version: string;
    [key: string]: any;
  };
  openapi: string;
  [key: string]: any;
}

/** The request refused before its route ran: `code` and the message, in the invalid-input shape. */
export type Refusal = ValidationError;

/** An import record: stored input, status, created ids, last error. */
export interface SiteImport {
  applicationId: string | null;
  /**
   * @min 0
   * @max 9007199254740991
   */
  attempts: number;
  /** @format date-time */
  createdAt: string;
  databaseId: string | null;
  databaseServiceHost: string | null;
  databaseType: "mariadb" | "mysql" | "postgres" | "mongodb" | null;
  deploymentId: string | null;
  domainId: string | null;
  errorMessage: string | null;
  errorStep:
    | "project_creation"
    | "database_creation"
    | "application_creation"
    | "domain_creation"
    | "deployment"
    | null;
  finishedAt: string | null;
  id: string;
  /** The validated request, password masked. */
  inputConfig: Partial<Record<string, any>>;
  name: string;
  organizationId: string;
  projectId: string | null;
  status: "pending" | "success" | "partial" | "failed";
  /** @format date-time */
  updatedAt: string;
  [key: string]: any;
}

export interface SiteImportPreview {
  errors: string[];
  /** Only with an `Idempotency-Key` that already names an import of this body: that import. */
  existingImport?: {
    id: string;
    status: "pending" | "success" | "partial" | "failed";
    [key: string]: any;
  };
  resources: {
    application: {
      buildType: string | null;
      name: string;
      sourceType: string;
      [key: string]: any;
    };
    database: {
      name: string;
      type: "mariadb" | "mysql" | "postgres" | "mongodb";
      [key: string]: any;
    } | null;
    domain: {
      host: string;
      [key: string]: any;
    } | null;
    project: {
      name: string;
      [key: string]: any;
    };
    [key: string]: any;
  };
  valid: boolean;
  warnings: string[];
  [key: string]: any;
}

export interface SiteImportRequest {
  database?: {
    /**
     * @minLength 1
     * @maxLength 63
     */
    name: string;
    /**
     * @minLength 1
     * @maxLength 256
     * @pattern ^[^\p{Cc}]*$
     */
    password: string;
    type: "mariadb" | "mysql" | "postgres" | "mongodb";
    /**
     * @minLength 1
     * @maxLength 63
     */
    user: string;
  } | null;
  domain?: string | null;
  envVars?: Partial<Record<string, string>> | null;
  /**
   * @minLength 1
   * @maxLength 100
   * @pattern ^[^\p{Cc}]*$
   */
  name: string;
  /**
   * @minLength 1
   * @maxLength 100
   * @pattern ^[^\p{Cc}]*$
   */
  organizationId: string;
  port?: number | null;
  source: {
    branch?: string | null;
    buildPath?: string | null;
    buildType?: "dockerfile" | "nixpacks" | null;
    customGitSSHKeyId?: string | null;
    customGitUrl?: string | null;
    dockerImage?: string | null;
    githubId?: string | null;
    gitlabId?: string | null;
    repo?: string | null;
    type: "github" | "gitlab" | "docker" | "git";
  };
}

/** Outcome of one import run. */
export interface SiteImportResult {
  applicationId: string | null;
  databaseId?: string;
  databaseServiceHost?: string;
  databaseType?: "mariadb" | "mysql" | "postgres" | "mongodb";
  domainId?: string;
  errorMessage?: string;
  errorStep?:
    | "project_creation"
    | "database_creation"
    | "application_creation"
    | "domain_creation"
    | "deployment";
  importId: string;
  projectId: string | null;
  status: "success" | "partial" | "failed";
  [key: string]: any;
}

/** Invalid input: messages by field (`fieldErrors`) and overall. */
export interface ValidationError {
  details: {
    fieldErrors: Partial<Record<string, string[]>>;
    formErrors: string[];
    [key: string]: any;
  };
  error: string;
  [key: string]: any;
}

/** A webhook endpoint. */
export interface Webhook {
  created_by_user_id: string | null;
  /** @format date-time */
  creation_date: string;
  description: string | null;
  events: string[];
  has_secret: boolean;
  is_active: boolean;
  /** @format date-time */
  update_date: string;
  url: string;
  webhook_uuid: string;
  [key: string]: any;
}

export interface WebhookEventType {
  category: string;
  /** JSON Schema of the event's `data`. */
  data_schema: Partial<Record<string, any>>;
  description: string;
  name: string;
  [key: string]: any;
}

export interface WebhookRecovery {
  /** True: the same window's recovery was still running; nothing was queued again. */
  already_running: boolean;
  /** @format date-time */
  created_at: string;
  /**
   * Deliveries queued again.
   * @min 0
   * @max 9007199254740991
   */
  queued: number;
  /**
   * First attempts per second.
   * @min 1
   * @max 9007199254740991
   */
  rate_per_second: number;
  recovery_id: string;
  /** @format date-time */
  since: string;
  /** @format date-time */
  until: string;
  webhook_uuid: string;
  [key: string]: any;
}

/** A webhook endpoint with its secret, shown only in this answer. */
export interface WebhookWithSecret {
  created_by_user_id: string | null;
  /** @format date-time */
  creation_date: string;
  description: string | null;
  events: string[];
  is_active: boolean;
  secret: string;
  /** @format date-time */
  update_date: string;
  url: string;
  webhook_uuid: string;
  [key: string]: any;
}

export type QueryParamsType = Record<string | number, any>;
export type ResponseFormat = keyof Omit<Body, "body" | "bodyUsed">;

export interface FullRequestParams extends Omit<RequestInit, "body"> {
  /** set parameter to `true` for call `securityWorker` for this request */
  secure?: boolean;
  /** request path */
  path: string;
  /** content type of request body */
  type?: ContentType;
  /** query params */
  query?: QueryParamsType;
  /** format of response (i.e. response.json() -> format: "json") */
  format?: ResponseFormat;
  /** request body */
  body?: unknown;
  /** base url */
  baseUrl?: string;
  /** request cancellation token */
  cancelToken?: CancelToken;
}

export type RequestParams = Omit<
  FullRequestParams,
  "body" | "method" | "query" | "path"
>;

export interface ApiConfig<SecurityDataType = unknown> {
  baseUrl?: string;
  baseApiParams?: Omit<RequestParams, "baseUrl" | "cancelToken" | "signal">;
  securityWorker?: (
    securityData: SecurityDataType | null,
  ) => Promise<RequestParams | void> | RequestParams | void;
  customFetch?: typeof fetch;
}

export interface HttpResponse<D extends unknown, E extends unknown = unknown>
  extends Response {
  data: D;
  error: E;
}

type CancelToken = Symbol | string | number;

export type ContentType =
  | "application/json"
  | "application/vnd.api+json"
  | "multipart/form-data"
  | "application/x-www-form-urlencoded"
  | "text/plain";

export class HttpClient<SecurityDataType = unknown> {
  public baseUrl: string = "/";
  private securityData: SecurityDataType | null = null;
  private securityWorker?: ApiConfig<SecurityDataType>["securityWorker"];
  private abortControllers = new Map<CancelToken, AbortController>();
  private customFetch = (...fetchParams: Parameters<typeof fetch>) =>
    fetch(...fetchParams);

  private baseApiParams: RequestParams = {
    credentials: "same-origin",
    headers: {},
    redirect: "follow",
    referrerPolicy: "no-referrer",
  };

  constructor(apiConfig: ApiConfig<SecurityDataType> = {}) {
    Object.assign(this, apiConfig);
  }

  public setSecurityData = (data: SecurityDataType | null) => {
    this.securityData = data;
  };

  protected encodeQueryParam(key: string, value: any) {
    const encodedKey = encodeURIComponent(key);
    return `${encodedKey}=${encodeURIComponent(typeof value === "number" ? value : `${value}`)}`;
  }

  protected addQueryParam(query: QueryParamsType, key: string) {
    return this.encodeQueryParam(key, query[key]);
  }

  protected addArrayQueryParam(query: QueryParamsType, key: string) {
    const value = query[key];
    return value.map((v: any) => this.encodeQueryParam(key, v)).join("&");
  }

  protected toQueryString(rawQuery?: QueryParamsType): string {
    const query = rawQuery || {};
    const keys = Object.keys(query).filter(
      (key) => "undefined" !== typeof query[key],
    );
    return keys
      .map((key) =>
        Array.isArray(query[key])
          ? this.addArrayQueryParam(query, key)
          : this.addQueryParam(query, key),
      )
      .join("&");
  }

  protected addQueryParams(rawQuery?: QueryParamsType): string {
    const queryString = this.toQueryString(rawQuery);
    return queryString ? `?${queryString}` : "";
  }

  private contentFormatters: Record<ContentType, (input: any) => any> = {
    ["application/json"]: (input: any) =>
      input !== null && (typeof input === "object" || typeof input === "string")
        ? JSON.stringify(input)
        : input,
    ["application/vnd.api+json"]: (input: any) =>
      input !== null && (typeof input === "object" || typeof input === "string")
        ? JSON.stringify(input)
        : input,
    ["text/plain"]: (input: any) =>
      input !== null && typeof input !== "string"
        ? JSON.stringify(input)
        : input,
    ["multipart/form-data"]: (input: any) => {
      if (input instanceof FormData) {
        return input;
      }

      return Object.keys(input || {}).reduce((formData, key) => {
        const property = input[key];
        formData.append(
          key,
          property instanceof Blob
            ? property
            : typeof property === "object" && property !== null
              ? JSON.stringify(property)
              : `${property}`,
        );
        return formData;
      }, new FormData());
    },
    ["application/x-www-form-urlencoded"]: (input: any) =>
      this.toQueryString(input),
  };

  protected mergeRequestParams(
    params1: RequestParams,
    params2?: RequestParams,
  ): RequestParams {
    return {
      ...this.baseApiParams,
      ...params1,
      ...(params2 || {}),
      headers: {
        ...(this.baseApiParams.headers || {}),
        ...(params1.headers || {}),
        ...((params2 && params2.headers) || {}),
      },
    };
  }

  protected createAbortSignal = (
    cancelToken: CancelToken,
  ): AbortSignal | undefined => {
    if (this.abortControllers.has(cancelToken)) {
      const abortController = this.abortControllers.get(cancelToken);
      if (abortController) {
        return abortController.signal;
      }
      return void 0;
    }

    const abortController = new AbortController();
    this.abortControllers.set(cancelToken, abortController);
    return abortController.signal;
  };

  public abortRequest = (cancelToken: CancelToken) => {
    const abortController = this.abortControllers.get(cancelToken);

    if (abortController) {
      abortController.abort();
      this.abortControllers.delete(cancelToken);
    }
  };

  public request = async <T = any, E = any>({
    body,
    secure,
    path,
    type,
    query,
    format,
    baseUrl,
    cancelToken,
    ...params
  }: FullRequestParams): Promise<HttpResponse<T, E>> => {
    const secureParams =
      ((typeof secure === "boolean" ? secure : this.baseApiParams.secure) &&
        this.securityWorker &&
        (await this.securityWorker(this.securityData))) ||
      {};
    const requestParams = this.mergeRequestParams(params, secureParams);
    const queryString = query && this.toQueryString(query);
    const payloadFormatter = this.contentFormatters[type || "application/json"];
    const responseFormat = format || requestParams.format;

    return this.customFetch(
      `${baseUrl || this.baseUrl || ""}${path}${queryString ? `?${queryString}` : ""}`,
      {
        ...requestParams,
        headers: {
          ...(requestParams.headers || {}),
          ...(type && type !== "multipart/form-data"
            ? { "Content-Type": type }
            : {}),
        },
        signal:
          (cancelToken
            ? this.createAbortSignal(cancelToken)
            : requestParams.signal) || null,
        body:
          typeof body === "undefined" || body === null
            ? null
            : payloadFormatter(body),
      },
    ).then(async (response) => {
      const r = response as HttpResponse<T, E>;
      r.data = null as unknown as T;
      r.error = null as unknown as E;

      const responseToParse = responseFormat ? response.clone() : response;
      const data = !responseFormat
        ? r
        : await responseToParse[responseFormat]()
            .then((data) => {
              if (r.ok) {
                r.data = data;
              } else {
                r.error = data;
              }
              return r;
            })
            .catch((e) => {
              r.error = e;
              return r;
            });

      if (cancelToken) {
        this.abortControllers.delete(cancelToken);
      }

      return data;
    });
  };
}

/**
 * @title Skiff REST API
 * @version 1.1.0
 * @baseUrl /
 *
 * Documented REST paths of Skiff: site import, webhook management (`/api/v1`), the deploy trigger, docs-domain theming and inbound callbacks. Authenticate with an account API key (`Authorization: Bearer <key>` or `x-api-key: <key>`) or the dashboard's session cookie. Errors are JSON bodies with an `error` message. The GraphQL API at /graphql covers everything else; the agent API has its own document at /api/agent/openapi.json.
 */
export class Api<
  SecurityDataType extends unknown,
> extends HttpClient<SecurityDataType> {
  api = {
    /**
     * No description
     *
     * @tags webhooks
     * @name CreateWebhook
     * @summary Create a webhook endpoint (the secret is shown once)
     * @request POST:/api/v1/orgs/{org_id}/webhooks
     * @secure
     * @response `201` `WebhookWithSecret` Created.
     * @response `400` `ValidationError` Invalid input.
     * @response `401` `Error` Missing or invalid credentials.
     * @response `403` `Forbidden` Not allowed for the caller's role or plan.
     * @response `404` `Error` No such resource, or not visible to the caller.
     * @response `413` `Refusal` The body is larger than the route accepts.
     * @response `415` `Refusal` A media type, charset or Content-Encoding the route does not read (JSON in UTF-8, identity).
     * @response `429` `Error` Rate limited.
     * @response `500` `Error` Internal error (masked).
     */
    createWebhook: (
      orgId: string,
      data: {
        description?: string | null;
        /**
         * @maxItems 100
         * @minItems 1
         */
        events: string[];
        is_active?: boolean;
        /**
         * @maxLength 2048
         * @pattern ^[^\s\p{Cc}]*$
         */
        url: string;
      },
      params: RequestParams = {},
    ) =>
      this.request<
        WebhookWithSecret,
        ValidationError | Error | Forbidden | Refusal
      >({
        path: `/api/v1/orgs/${orgId}/webhooks`,
        method: "POST",
        body: data,
        secure: true,
        type: "application/json",
        format: "json",
        ...params,
      }),

    /**
     * No description
     *
     * @tags webhooks
     * @name DeleteWebhook
     * @summary Delete a webhook endpoint
     * @request DELETE:/api/v1/orgs/{org_id}/webhooks/{webhook_uuid}
     * @secure
     * @response `204` `void` Deleted.
     * @response `400` `Refusal` The body is not well-formed JSON (or not UTF-8, or nests too deep).
     * @response `401` `Error` Missing or invalid credentials.
     * @response `403` `Forbidden` Not allowed for the caller's role or plan.
     * @response `404` `Error` No such resource, or not visible to the caller.
     * @response `413` `Refusal` The body is larger than the route accepts.
     * @response `415` `Refusal` A media type, charset or Content-Encoding the route does not read (JSON in UTF-8, identity).
     * @response `429` `Error` Rate limited.
     * @response `500` `Error` Internal error (masked).
     */
    deleteWebhook: (
      orgId: string,
      webhookUuid: string,
      params: RequestParams = {},
    ) =>
      this.request<void, Refusal | Error | Forbidden>({
        path: `/api/v1/orgs/${orgId}/webhooks/${webhookUuid}`,
        method: "DELETE",
        secure: true,
        ...params,
      }),

    /**
     * @description Public and cacheable (60 s). The strong `ETag` of the body answers a matching `If-None-Match` with 304. Only on an instance with exactly one organization; otherwise 404.
     *
     * @tags docs-theming
     * @name GetDocsTheme
     * @summary The docs theme of a single-organization instance
     * @request GET:/api/theme
     * @response `200` `DocsTheme` The theme: JSON (`format=json`) or CSS (`format=css`).
     * @response `304` `void` Not modified (`If-None-Match` matched).
     * @response `400` `DocsError` `format` is neither `json` nor `css`.
     * @response `404` `DocsError` No such organization, or no theme configured.
     * @response `500` `DocsError` Internal error (`{ error: "Internal server error" }`, no detail).
     */
    getDocsTheme: (
      query?: {
        /**
         * `json`: the theme document; `css`: CSS variables (`:root`, `.dark`) + custom CSS.
         * @default "json"
         */
        format?: "json" | "css";
      },
      params: RequestParams = {},
    ) =>
      this.request<DocsTheme, void | DocsError>({
        path: `/api/theme`,
        method: "GET",
        query: query,
        format: "json",
        ...params,
      }),

    /**
     * No description
     *
     * @tags documents
     * @name GetOpenApiDocument
     * @summary This document
     * @request GET:/api/openapi.json
     * @response `200` `OpenApiDocument` The OpenAPI 3.1 document.
     */
    getOpenApiDocument: (params: RequestParams = {}) =>
      this.request<OpenApiDocument, any>({
        path: `/api/openapi.json`,
        method: "GET",
        format: "json",
        ...params,
      }),

    /**
     * No description
     *
     * @tags site-import
     * @name GetSiteImport
     * @summary One import record
     * @request GET:/api/site-import/{id}
     * @secure
     * @response `200` `SiteImport` The record.
     * @response `401` `Error` Missing or invalid credentials.
     * @response `404` `Error` No such resource, or not visible to the caller.
     * @response `500` `Error` Internal error (masked).
     */
    getSiteImport: (id: string, params: RequestParams = {}) =>
      this.request<SiteImport, Error>({
        path: `/api/site-import/${id}`,
        method: "GET",
        secure: true,
        format: "json",
        ...params,
      }),

    /**
     * No description
     *
     * @tags documents
     * @name GetSiteImportOpenApiDocument
     * @summary This document, under the site import prefix
     * @request GET:/api/site-import/openapi.json
     * @response `200` `OpenApiDocument` The OpenAPI 3.1 document.
     */
    getSiteImportOpenApiDocument: (params: RequestParams = {}) =>
      this.request<OpenApiDocument, any>({
        path: `/api/site-import/openapi.json`,
        method: "GET",
        format: "json",
        ...params,
      }),

    /**
     * No description
     *
     * @tags webhooks
     * @name GetWebhook
     * @summary One webhook endpoint
     * @request GET:/api/v1/orgs/{org_id}/webhooks/{webhook_uuid}
     * @secure
     * @response `200` `Webhook` The endpoint.
     * @response `401` `Error` Missing or invalid credentials.
     * @response `403` `Forbidden` Not allowed for the caller's role or plan.
     * @response `404` `Error` No such resource, or not visible to the caller.
     * @response `429` `Error` Rate limited.
     * @response `500` `Error` Internal error (masked).
     */
    getWebhook: (
      orgId: string,
      webhookUuid: string,
      params: RequestParams = {},
    ) =>
      this.request<Webhook, Error | Forbidden>({
        path: `/api/v1/orgs/${orgId}/webhooks/${webhookUuid}`,
        method: "GET",
        secure: true,
        format: "json",
        ...params,
      }),

    /**
 * @description With an `Idempotency-Key` header the request is safe to retry: the same key with the same body (per organization, for `SKIFF_IDEMPOTENCY_TTL_HOURS`, default 24 h) answers the same import with the same status — while it runs, the same pending answer — and starts nothing; the same key with a different body answers 422.
 *
 * @tags site-import
 * @name ImportSite
 * @summary Import a site: create its project, database, application and domain, and queue a deployment
 * @request POST:/api/site-import
 * @secure
 * @response `200` `SiteImportResult` The import succeeded.
 * @response `202` `SiteImportResult` The run did not end within the wait limit (`SKIFF_IMPORT_WAIT_MS`), or before the instance shut down: `status` is `pending` and the run goes on; follow it with `GET /api/site-import/{id}`.
 * @response `400` `ValidationError` Invalid input.
 * @response `401` `Error` Missing or invalid credentials.
 * @response `403` `Forbidden` Not allowed for the caller's role or plan.
 * @response `404` `Error` No such resource, or not visible to the caller.
 * @response `409` `Error` Conflicts with the current state.
 * @response `413` `Refusal` The body is larger than the route accepts.
 * @response `415` `Refusal` A media type, charset or Content-Encoding the route does not read (JSON in UTF-8, identity).
 * @response `422` `(SiteImportResult | {
    error: string,
    [key: string]: any,

})` The import ended `partial` or `failed` (see `errorStep`); or, as `{ error }` naming the key, the `Idempotency-Key` was already used with a different body.
 * @response `500` `Error` Internal error (masked).
 */
    importSite: (data: SiteImportRequest, params: RequestParams = {}) =>
      this.request<
        SiteImportResult,
        | ValidationError
        | Error
        | Forbidden
        | Refusal
        | (
            | SiteImportResult
            | {
                error: string;
                [key: string]: any;
              }
          )
      >({
        path: `/api/site-import`,
        method: "POST",
        body: data,
        secure: true,
        type: "application/json",
        format: "json",
        ...params,
      }),

    /**
     * No description
     *
     * @tags site-import
     * @name ListSiteImports
     * @summary Import records of the caller's organizations, newest first
     * @request GET:/api/site-import
     * @secure
     * @response `200` `(SiteImport)[]` One page of records.
     * @response `400` `ValidationError` Invalid input.
     * @response `401` `Error` Missing or invalid credentials.
     * @response `500` `Error` Internal error (masked).
     */
    listSiteImports: (
      query?: {
        /**
         * @min 1
         * @max 100
         * @default 50
         */
        limit?: number;
        /**
         * @min 0
         * @max 2147483647
         * @default 0
         */
        offset?: number;
      },
      params: RequestParams = {},
    ) =>
      this.request<SiteImport[], ValidationError | Error>({
        path: `/api/site-import`,
        method: "GET",
        query: query,
        secure: true,
        format: "json",
        ...params,
      }),

    /**
     * No description
     *
     * @tags webhooks
     * @name ListWebhookDeliveries
     * @summary Recent delivery attempts of an endpoint, newest first
     * @request GET:/api/v1/orgs/{org_id}/webhooks/{webhook_uuid}/deliveries
     * @secure
     * @response `200` `(DeliveryAttempt)[]` Attempts.
     * @response `400` `ValidationError` Invalid input.
     * @response `401` `Error` Missing or invalid credentials.
     * @response `403` `Forbidden` Not allowed for the caller's role or plan.
     * @response `404` `Error` No such resource, or not visible to the caller.
     * @response `429` `Error` Rate limited.
     * @response `500` `Error` Internal error (masked).
     */
    listWebhookDeliveries: (
      orgId: string,
      webhookUuid: string,
      query?: {
        /**
         * 1 to 200 (default 50).
         * @min 1
         * @max 200
         * @default 50
         */
        limit?: number;
      },
      params: RequestParams = {},
    ) =>
      this.request<DeliveryAttempt[], ValidationError | Error | Forbidden>({
        path: `/api/v1/orgs/${orgId}/webhooks/${webhookUuid}/deliveries`,
        method: "GET",
        query: query,
        secure: true,
        format: "json",
        ...params,
      }),

    /**
     * No description
     *
     * @tags webhooks
     * @name ListWebhookEvents
     * @summary The event catalogue: every event name with the JSON Schema of its data
     * @request GET:/api/v1/orgs/{org_id}/webhooks/events
     * @secure
     * @response `200` `(WebhookEventType)[]` The catalogue.
     * @response `401` `Error` Missing or invalid credentials.
     * @response `403` `Forbidden` Not allowed for the caller's role or plan.
     * @response `404` `Error` No such resource, or not visible to the caller.
     * @response `429` `Error` Rate limited.
     * @response `500` `Error` Internal error (masked).
     */
    listWebhookEvents: (orgId: string, params: RequestParams = {}) =>
      this.request<WebhookEventType[], Error | Forbidden>({
        path: `/api/v1/orgs/${orgId}/webhooks/events`,
        method: "GET",
        secure: true,
        format: "json",
        ...params,
      }),

    /**
     * No description
     *
     * @tags webhooks
     * @name ListWebhooks
     * @summary The organization's webhook endpoints
     * @request GET:/api/v1/orgs/{org_id}/webhooks
     * @secure
     * @response `200` `(Webhook)[]` Every endpoint.
     * @response `401` `Error` Missing or invalid credentials.
     * @response `403` `Forbidden` Not allowed for the caller's role or plan.
     * @response `404` `Error` No such resource, or not visible to the caller.
     * @response `429` `Error` Rate limited.
     * @response `500` `Error` Internal error (masked).
     */
    listWebhooks: (orgId: string, params: RequestParams = {}) =>
      this.request<Webhook[], Error | Forbidden>({
        path: `/api/v1/orgs/${orgId}/webhooks`,
        method: "GET",
        secure: true,
        format: "json",
        ...params,
      }),

    /**
     * @description Public and cacheable (60 s); the loader script calls it from the docs site's own hostname.
     *
     * @tags docs-theming
     * @name LookupDocsHostname
     * @summary Which organization's theme a docs hostname uses (docs-host role)
     * @request GET:/api/docs/lookup
     * @response `200` `DocsLookup` The hostname's organization URL; its theme is at `{cloudUrl}/api/theme`.
     * @response `400` `DocsError` `hostname` missing or not a valid hostname.
     * @response `404` `DocsError` The hostname is not registered (yet).
     * @response `500` `DocsError` Internal error (`{ error: "Internal server error" }`, no detail).
     */
    lookupDocsHostname: (
      query: {
        /** The docs site's hostname, e.g. `docs.acme.com` (any case; a trailing dot is ignored). */
        hostname: string;
      },
      params: RequestParams = {},
    ) =>
      this.request<DocsLookup, DocsError>({
        path: `/api/docs/lookup`,
        method: "GET",
        query: query,
        format: "json",
        ...params,
      }),

    /**
 * No description
 *
 * @tags site-import
 * @name PreviewSiteImport
 * @summary Preview an import: what it would create and what would block it (nothing is written)
 * @request POST:/api/site-import/preview
 * @secure
 * @response `200` `SiteImportPreview` The preview.
 * @response `400` `ValidationError` Invalid input.
 * @response `401` `Error` Missing or invalid credentials.
 * @response `403` `Forbidden` Not allowed for the caller's role or plan.
 * @response `404` `Error` No such resource, or not visible to the caller.
 * @response `413` `Refusal` The body is larger than the route accepts.
 * @response `415` `Refusal` A media type, charset or Content-Encoding the route does not read (JSON in UTF-8, identity).
 * @response `422` `{
    error: string,
    [key: string]: any,

}` The `Idempotency-Key` was already used with a different body.
 * @response `500` `Error` Internal error (masked).
 */
    previewSiteImport: (data: SiteImportRequest, params: RequestParams = {}) =>
      this.request<
        SiteImportPreview,
        | ValidationError
        | Error
        | Forbidden
        | Refusal
        | {
            error: string;
            [key: string]: any;
          }
      >({
        path: `/api/site-import/preview`,
        method: "POST",
        body: data,
        secure: true,
        type: "application/json",
        format: "json",
        ...params,
      }),

    /**
 * No description
 *
 * @tags webhooks
 * @name PublishEvent
 * @summary Publish an event to every subscribed endpoint of the organization
 * @request POST:/api/v1/orgs/{org_id}/events
 * @secure
 * @response `202` `{
    deliveries: ({
    delivery_id: string,
    webhook_uuid: string,
    [key: string]: any,

})[],
    [key: string]: any,

}` Queued deliveries.
 * @response `400` `ValidationError` Invalid input.
 * @response `401` `Error` Missing or invalid credentials.
 * @response `403` `Forbidden` Not allowed for the caller's role or plan.
 * @response `404` `Error` No such resource, or not visible to the caller.
 * @response `413` `Refusal` The body is larger than the route accepts.
 * @response `415` `Refusal` A media type, charset or Content-Encoding the route does not read (JSON in UTF-8, identity).
 * @response `429` `Error` Rate limited.
 * @response `500` `Error` Internal error (masked).
 */
    publishEvent: (
      orgId: string,
      data: {
        data: Partial<Record<string, any>>;
        /** @minLength 1 */
        event: string;
      },
      params: RequestParams = {},
    ) =>
      this.request<
        {
          deliveries: {
            delivery_id: string;
            webhook_uuid: string;
            [key: string]: any;
          }[];
          [key: string]: any;
        },
        ValidationError | Error | Forbidden | Refusal
      >({
        path: `/api/v1/orgs/${orgId}/events`,
        method: "POST",
        body: data,
        secure: true,
        type: "application/json",
        format: "json",
        ...params,
      }),

    /**
 * @description The gateway signs the exact body bytes (HMAC-SHA256 with the merchant's secret, hex) in `x-gateway-signature`; the body is the gateway's JSON event, read raw.
 *
 * @tags callbacks
 * @name ReceivePaymentGatewayEvent
 * @summary Inbound event of the payment gateway, relayed to the merchant's webhook URL once
 * @request POST:/api/payment-gateway/events
 * @secure
 * @response `200` `{
    received: boolean,
  /**
   * @min 0
   * @max 9007199254740991
   *\/
    relays: number,
    [key: string]: any,

}` Received; `relays` counts the relays made for it (0 for an event already received).
 * @response `400` `Refusal` The body is not well-formed JSON (or not UTF-8, or nests too deep).
 * @response `401` `Error` Unknown merchant, or a missing or wrong signature.
 * @response `413` `void` Body larger than 262144 bytes.
 * @response `415` `Refusal` A media type, charset or Content-Encoding the route does not read (JSON in UTF-8, identity).
 */
    receivePaymentGatewayEvent: (data: string, params: RequestParams = {}) =>
      this.request<
        {
          received: boolean;
          /**
           * @min 0
           * @max 9007199254740991
           */
          relays: number;
          [key: string]: any;
        },
        Refusal | Error | void
      >({
        path: `/api/payment-gateway/events`,
        method: "POST",
        body: data,
        secure: true,
        type: "application/json",
        format: "json",
        ...params,
      }),

    /**
     * No description
     *
     * @tags webhooks
     * @name RecoverWebhookDeliveries
     * @summary Send again every delivery of a time window that did not end delivered (recovery after downtime)
     * @request POST:/api/v1/orgs/{org_id}/webhooks/{webhook_uuid}/recover
     * @secure
     * @response `202` `WebhookRecovery` Queued (or the same window's recovery still running).
     * @response `400` `ValidationError` Invalid input.
     * @response `401` `Error` Missing or invalid credentials.
     * @response `403` `Forbidden` Not allowed for the caller's role or plan.
     * @response `404` `Error` No such resource, or not visible to the caller.
     * @response `413` `Refusal` The body is larger than the route accepts.
     * @response `415` `Refusal` A media type, charset or Content-Encoding the route does not read (JSON in UTF-8, identity).
     * @response `429` `Error` Rate limited.
     * @response `500` `Error` Internal error (masked).
     */
    recoverWebhookDeliveries: (
      orgId: string,
      webhookUuid: string,
      data: {
        /**
         * Start of the window (inclusive).
         * @format date-time
         */
        since: string;
        /**
         * End of the window (exclusive); default: the call's moment.
         * @format date-time
         */
        until?: string;
      },
      params: RequestParams = {},
    ) =>
      this.request<
        WebhookRecovery,
        ValidationError | Error | Forbidden | Refusal
      >({
        path: `/api/v1/orgs/${orgId}/webhooks/${webhookUuid}/recover`,
        method: "POST",
        body: data,
        secure: true,
        type: "application/json",
        format: "json",
        ...params,
      }),

    /**
 * No description
 *
 * @tags webhooks
 * @name RedeliverWebhook
 * @summary Deliver an earlier delivery's payload again (400 while the endpoint is inactive)
 * @request POST:/api/v1/orgs/{org_id}/webhooks/{webhook_uuid}/deliveries/{delivery_id}/redeliver
 * @secure
 * @response `202` `{
    delivery_id: string,
    [key: string]: any,

}` Queued.
 * @response `400` `ValidationError` Invalid input.
 * @response `401` `Error` Missing or invalid credentials.
 * @response `403` `Forbidden` Not allowed for the caller's role or plan.
 * @response `404` `Error` No such resource, or not visible to the caller.
 * @response `413` `Refusal` The body is larger than the route accepts.
 * @response `415` `Refusal` A media type, charset or Content-Encoding the route does not read (JSON in UTF-8, identity).
 * @response `429` `Error` Rate limited.
 * @response `500` `Error` Internal error (masked).
 */
    redeliverWebhook: (
      orgId: string,
      webhookUuid: string,
      deliveryId: string,
      params: RequestParams = {},
    ) =>
      this.request<
        {
          delivery_id: string;
          [key: string]: any;
        },
        ValidationError | Error | Forbidden | Refusal
      >({
        path: `/api/v1/orgs/${orgId}/webhooks/${webhookUuid}/deliveries/${deliveryId}/redeliver`,
        method: "POST",
        secure: true,
        format: "json",
        ...params,
      }),

    /**
     * No description
     *
     * @tags webhooks
     * @name RegenerateWebhookSecret
     * @summary Replace the signing secret (shown once)
     * @request POST:/api/v1/orgs/{org_id}/webhooks/{webhook_uuid}/regenerate-secret
     * @secure
     * @response `200` `WebhookWithSecret` The new secret.
     * @response `400` `Refusal` The body is not well-formed JSON (or not UTF-8, or nests too deep).
     * @response `401` `Error` Missing or invalid credentials.
     * @response `403` `Forbidden` Not allowed for the caller's role or plan.
     * @response `404` `Error` No such resource, or not visible to the caller.
     * @response `413` `Refusal` The body is larger than the route accepts.
     * @response `415` `Refusal` A media type, charset or Content-Encoding the route does not read (JSON in UTF-8, identity).
     * @response `429` `Error` Rate limited.
     * @response `500` `Error` Internal error (masked).
     */
    regenerateWebhookSecret: (
      orgId: string,
      webhookUuid: string,
      params: RequestParams = {},
    ) =>
      this.request<WebhookWithSecret, Refusal | Error | Forbidden>({
        path: `/api/v1/orgs/${orgId}/webhooks/${webhookUuid}/regenerate-secret`,
        method: "POST",
        secure: true,
        format: "json",
        ...params,
      }),

    /**
     * @description Sent by the `docs.sync` job of each instance with its license key. Hostnames registered by another license are refused (`accepted: false`, `conflict: true`); hostnames of this license left out of the list are removed.
     *
     * @tags docs-theming
     * @name SyncDocsHostnames
     * @summary Report an instance's complete list of docs hostnames (docs-host role)
     * @request POST:/api/docs/sync
     * @secure
     * @response `200` `DocsSyncResults` The verdict per reported hostname.
     * @response `400` `DocsError` Not `{ registrations: [...] }`, or an invalid or duplicated entry (`fieldErrors`).
     * @response `401` `DocsError` No license key, or one the docs host does not know.
     * @response `413` `Refusal` The body is larger than the route accepts.
     * @response `415` `Refusal` A media type, charset or Content-Encoding the route does not read (JSON in UTF-8, identity).
     * @response `500` `DocsError` Internal error (`{ error: "Internal server error" }`, no detail).
     */
    syncDocsHostnames: (
      data: {
        registrations: {
          /** The owning organization's URL, `{base_url}/o/<databaseId>`. */
          cloudUrl: string;
          /** Docs hostname, lower case. */
          hostname: string;
          [key: string]: any;
        }[];
        [key: string]: any;
      },
      params: RequestParams = {},
    ) =>
      this.request<DocsSyncResults, DocsError | Refusal>({
        path: `/api/docs/sync`,
        method: "POST",
        body: data,
        secure: true,
        type: "application/json",
        format: "json",
        ...params,
      }),

    /**
 * No description
 *
 * @tags webhooks
 * @name TestWebhook
 * @summary Send a `ping` event now
 * @request POST:/api/v1/orgs/{org_id}/webhooks/{webhook_uuid}/test
 * @secure
 * @response `200` `DeliveryAttempt` The first attempt's outcome.
 * @response `202` `{
    delivery_id: string,
    event: "ping",
    pending: true,
    [key: string]: any,

}` Queued; the first attempt has not finished in time.
 * @response `400` `Refusal` The body is not well-formed JSON (or not UTF-8, or nests too deep).
 * @response `401` `Error` Missing or invalid credentials.
 * @response `403` `Forbidden` Not allowed for the caller's role or plan.
 * @response `404` `Error` No such resource, or not visible to the caller.
 * @response `413` `Refusal` The body is larger than the route accepts.
 * @response `415` `Refusal` A media type, charset or Content-Encoding the route does not read (JSON in UTF-8, identity).
 * @response `429` `Error` Rate limited.
 * @response `500` `Error` Internal error (masked).
 */
    testWebhook: (
      orgId: string,
      webhookUuid: string,
      params: RequestParams = {},
    ) =>
      this.request<
        | DeliveryAttempt
        | {
            delivery_id: string;
            event: "ping";
            pending: true;
            [key: string]: any;
          },
        Refusal | Error | Forbidden
      >({
        path: `/api/v1/orgs/${orgId}/webhooks/${webhookUuid}/test`,
        method: "POST",
        secure: true,
        format: "json",
        ...params,
      }),

    /**
     * @description The URL is `Application.deployWebhookUrl`; its token is the credential. Without a provider header the call queues a deployment (optional `title`, `commitSha`). As a repository webhook, the push passes the application's filters (auto-deploy, branch filter, watch paths, skip markers) or is answered 200 `deployed: false` with the reason. A signature header that does not verify, or none when the application requires one, is 401. At most `SKIFF_DEPLOY_RATE_LIMIT` (30) requests per minute per token.
     *
     * @tags deployments
     * @name TriggerDeployment
     * @summary Deploy an application: API trigger or GitHub/GitLab push webhook
     * @request POST:/api/deploy/{token}
     * @response `200` `DeployNotTriggered` Nothing deployed (`deployed: false` and the reason), or GitHub's `ping`.
     * @response `202` `DeployQueued` Deployment queued (or the same SHA's, `deduplicated`).
     * @response `400` `ValidationError` The body is not JSON (or holds a prototype key, or nests past 64 levels), an API trigger's `title` is not a string or its `commitSha` not 7–64 hexadecimal digits (`details.fieldErrors`), or a push payload has no `ref` (`details.formErrors`).
     * @response `401` `Error` A signature or token that does not verify, or a required one missing.
     * @response `404` `Error` Unknown deploy token (a regenerated one too).
     * @response `413` `void` Body larger than 1 MiB.
     * @response `415` `Refusal` A media type, charset or Content-Encoding the route does not read (JSON in UTF-8, identity).
     * @response `429` `Error` Rate limited.
     */
    triggerDeployment: (
      token: string,
      data?: DeployTriggerRequest | GitHubPushPayload | GitLabPushPayload,
      params: RequestParams = {},
    ) =>
      this.request<
        DeployNotTriggered | DeployQueued,
        ValidationError | Error | void | Refusal
      >({
        path: `/api/deploy/${token}`,
        method: "POST",
        body: data,
        type: "application/json",
        format: "json",
        ...params,
      }),

    /**
     * No description
     *
     * @tags webhooks
     * @name UpdateWebhook
     * @summary Change a webhook endpoint's url, events, description or active flag
     * @request PUT:/api/v1/orgs/{org_id}/webhooks/{webhook_uuid}
     * @secure
     * @response `200` `Webhook` Updated.
     * @response `400` `ValidationError` Invalid input.
     * @response `401` `Error` Missing or invalid credentials.
     * @response `403` `Forbidden` Not allowed for the caller's role or plan.
     * @response `404` `Error` No such resource, or not visible to the caller.
     * @response `413` `Refusal` The body is larger than the route accepts.
     * @response `415` `Refusal` A media type, charset or Content-Encoding the route does not read (JSON in UTF-8, identity).
     * @response `429` `Error` Rate limited.
     * @response `500` `Error` Internal error (masked).
     */
    updateWebhook: (
      orgId: string,
      webhookUuid: string,
      data: {
        description?: string | null;
        /**
         * @maxItems 100
         * @minItems 1
         */
        events?: string[];
        is_active?: boolean;
        /**
         * @maxLength 2048
         * @pattern ^[^\s\p{Cc}]*$
         */
        url?: string;
      },
      params: RequestParams = {},
    ) =>
      this.request<Webhook, ValidationError | Error | Forbidden | Refusal>({
        path: `/api/v1/orgs/${orgId}/webhooks/${webhookUuid}`,
        method: "PUT",
        body: data,
        secure: true,
        type: "application/json",
        format: "json",
        ...params,
      }),
  };
  o = {
    /**
     * @description Public and cacheable (60 s). The strong `ETag` of the body answers a matching `If-None-Match` with 304.
     *
     * @tags docs-theming
     * @name GetOrganizationDocsTheme
     * @summary An organization's docs theme
     * @request GET:/o/{databaseId}/api/theme
     * @response `200` `DocsTheme` The theme: JSON (`format=json`) or CSS (`format=css`).
     * @response `304` `void` Not modified (`If-None-Match` matched).
     * @response `400` `DocsError` `format` is neither `json` nor `css`.
     * @response `404` `DocsError` No such organization, or no theme configured.
     * @response `500` `DocsError` Internal error (`{ error: "Internal server error" }`, no detail).
     */
    getOrganizationDocsTheme: (
      databaseId: string,
      query?: {
        /**
         * `json`: the theme document; `css`: CSS variables (`:root`, `.dark`) + custom CSS.
         * @default "json"
         */
        format?: "json" | "css";
      },
      params: RequestParams = {},
    ) =>
      this.request<DocsTheme, void | DocsError>({
        path: `/o/${databaseId}/api/theme`,
        method: "GET",
        query: query,
        format: "json",
        ...params,
      }),
  };
  docsThemeJs = {
    /**
     * @description A docs site includes it as a script element with `src` `{docs_host}/docs-theme.js` and the attribute `data-docs-host` = `{docs_host}`. Cacheable 5 minutes.
     *
     * @tags docs-theming
     * @name GetDocsThemeLoader
     * @summary The script docs sites include to apply their organization's theme
     * @request GET:/docs-theme.js
     * @response `200` `string` The loader (JavaScript).
     */
    getDocsThemeLoader: (params: RequestParams = {}) =>
      this.request<string, any>({
        path: `/docs-theme.js`,
        method: "GET",
        ...params,
      }),
  };
}
