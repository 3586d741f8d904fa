/**
 * `/docs/graphql`: GraphiQL on `/graphql`, bundled into this lazily loaded chunk, with the schema's descriptions in
 * its documentation explorer. Requests go from this page with the session cookie (same origin). Its editor's
 * workers are files of the build (graphiql/setup-workers/vite), which the policy's `script-src 'self'` allows.
 */
import "graphiql/setup-workers/vite";
import { GraphiQL } from "graphiql";
import type { ComponentProps } from "react";
import "graphiql/style.css";
import "./graphql-explorer.css";

/** Sends one GraphQL request as the signed-in person; answers the response's JSON body. */
const fetcher: ComponentProps<typeof GraphiQL>["fetcher"] = async (params) => {
  const res = await fetch("/graphql", {
    method: "POST",
    credentials: "same-origin",
    headers: { "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify(params),
  });
  return res.json();
};

const DEFAULT_QUERY = `# The signed-in person and their organizations. Ctrl-Enter runs the query.
query Me {
  viewer {
    user { email name }
    activeOrganization { id name }
  }
  organizations { id name viewerRole }
}
`;

/** The GraphQL explorer page. */
export default function GraphqlExplorerPage() {
  return (
    <>
      <h1>GraphQL explorer</h1>
      <div className="graphiql-frame">
        <GraphiQL fetcher={fetcher} defaultQuery={DEFAULT_QUERY} />
      </div>
    </>
  );
}
