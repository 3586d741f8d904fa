/**
 * Compiled-read SQL of schema/deployments.graphql (src/reads/compiler.ts), the only implementation of these
 * reads: an application's newest deployments, a deployment's columns and log, an application's deploy settings,
 * where a deployment is found by id (visible when its application is) and an organization's reconcile status.
 */

import {
  belongsTo,
  type ComputedColumns,
  checkedEnum,
  column,
  hasMany,
  pageSizeArg,
  type ReadTypes,
} from "../../reads/index.ts";
import { deploymentLogTable, deploymentTable, reconcileStatusTable } from "./deployment.tables.ts";

/** Deployment, DeploymentLogLine, and an application's deployments and deploy settings (Application is not ours). */
export const deploymentReads: ReadTypes = {
  Application: {
    // The newest `first` (1..50, default 10) deployments, newest first. @throws BAD_USER_INPUT out of range.
    deployments: (field) => {
      const { compiler, alias, nodes } = field;
      const first = pageSizeArg(field, "first");
      const [d, newest] = [compiler.alias(), compiler.alias()];
      const from = `from (select * from deployments ${newest} where ${newest}.application_id = ${alias}.id
        order by ${newest}.created_at desc, ${newest}.id desc limit ${first}) ${d}`;
      return compiler.list("Deployment", d, nodes, from, `${d}.created_at desc, ${d}.id desc`);
    },
    // Settings are columns of the application's own row.
    deploySettings: ({ compiler, alias, nodes, returnType }) =>
      compiler.objectWith(returnType, alias, nodes, {
        autoDeploy: column("auto_deploy"),
        branchFilter: column("branch_filter"),
        watchPaths: ({ alias: a }) => `to_json(coalesce(${a}.watch_paths, '{}'::text[]))`,
        requireSignature: column("require_signature"),
        hasWebhookSecret: ({ alias: a }) =>
          `(${a}.webhook_secret_encrypted is not null and ${a}.webhook_secret_encrypted <> '')`,
        healthPath: column("health_path"),
      }),
  },
  SiteImport: {
    deployment: belongsTo(deploymentTable, "deployment_id"),
  },
  Deployment: {
    status: checkedEnum("status"),
    logs: hasMany(deploymentLogTable, "deployment_id"),
    manifests: column("manifests"),
  },
  DeploymentLogLine: {
    level: checkedEnum("level"),
  },
  // The status row's id is its organization's.
  Organization: {
    clusterSync: belongsTo(reconcileStatusTable, "id"),
  },
  ClusterSync: {
    status: ({ alias }) => `case when ${alias}.failing_since is null then 'SYNCED' else 'FAILING' end`,
    failures: column("failures"),
  },
};

/**
 * What of its row each computed field of the module reads (ComputedColumns): the deploy URL, from the
 * application's encrypted token and its organization (owners and admins only; deploy-token.ts).
 */
export const deploymentComputedColumns: ComputedColumns = {
  Application: { deployWebhookUrl: ["id", "organization_id", "deploy_token_encrypted"] },
};
